#!/bin/sh
# A round's readings of TREE (issue 14; the lead's, kept in the repository since round 53): the
# held-out SET as shipped (three repeats) and with the tag classifier off, the rules alone over
# tune (with GROUP, e.g. r52=persona,...; RULES_COMPARE=FILE compares with a start), and the
# shuffles and worst-case texts: `start` writes them, `end` grades START_DIR's texts again.
#   scripts/labelling/held_out_readings.sh TREE OUT_DIR SET GROUP start|end [START_DIR]
set -x
TREE=$1; OUT=$2; SET=$3; GROUP=$4; MODE=$5; START=${6:-}
mkdir -p "$OUT"; cd "$TREE" || exit 2
PY=${PY:-/work/main/.venv/bin/python}; export PYTHONPATH=$TREE
$PY benchmarks/freetext_shipped.py --set "$SET" --repeat 3 --json "$OUT/rows.json" > "$OUT/shipped.txt" 2>&1
TAPEQUIZ_FREETEXT_TAG_CLASSIFIER=false $PY benchmarks/freetext_shipped.py --set "$SET" --repeat 1 \
  --json "$OUT/rows-nocls.json" > "$OUT/shipped-nocls.txt" 2>&1
if [ -n "${RULES_COMPARE:-}" ]; then
  nice -n 5 $PY scripts/labelling/rules_reading.py --save "$OUT/rules.json" --compare "$RULES_COMPARE" \
    --group "$GROUP" > "$OUT/rules.txt" 2>&1
else
  nice -n 5 $PY scripts/labelling/rules_reading.py --save "$OUT/rules.json" --group "$GROUP" > "$OUT/rules.txt" 2>&1
fi
if [ "$MODE" = start ]; then
  nice -n 5 $PY benchmarks/freetext_shuffles.py --save "$OUT/shuffles.json" > "$OUT/shuffles.txt" 2>&1
  nice -n -15 $PY benchmarks/freetext_hostile.py --repeat 3 --save "$OUT/hostile.json" > "$OUT/hostile.txt" 2>&1
else
  nice -n 5 $PY benchmarks/freetext_shuffles.py --texts "$START/shuffles.json" --compare "$START/shuffles.json" \
    > "$OUT/shuffles.txt" 2>&1
  nice -n -15 $PY benchmarks/freetext_hostile.py --repeat 3 --texts "$START/hostile.json" \
    --compare "$START/hostile.json" > "$OUT/hostile.txt" 2>&1
fi
uptime > "$OUT/uptime.txt"
echo done > "$OUT/DONE"
