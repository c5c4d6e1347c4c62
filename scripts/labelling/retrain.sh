#!/bin/sh
# Retrain the five free-text artefacts of TREE on its tune personas (issue 14; the lead's step
# after a round's merge, kept in the repository since round 53). Two chains of two trainers run
# side by side (two cores), then the embedding verdict, which reads CACHE (an .npz of answer
# embeddings, written if absent: the first run ~35 min, later ones ~16 min on two busy cores).
#   scripts/labelling/retrain.sh TREE [CACHE]
set -u
TREE=$(cd "$1" && pwd)
CACHE=${2:-/tmp/tapequiz-emb-cache.npz}
PY=${PY:-$TREE/.venv/bin/python}
[ -x "$PY" ] || PY=$(cd "$(dirname "$0")/../.." && pwd)/.venv/bin/python
cd "$TREE" || exit 2
train() {
  echo "== $1 $(date +%T)"
  PYTHONPATH=$TREE "$PY" -m "app.grading.freetext.$1" train || { echo "FAILED $1"; return 1; }
}
( train tell_caps && train neighbours ) & first=$!
( train second_opinion && train tag_classifier ) & second=$!
wait $first; a=$?
wait $second; b=$?
echo "== embedding_verdict $(date +%T)"
PYTHONPATH=$TREE "$PY" -m app.grading.freetext.embedding_verdict train --cache "$CACHE"; c=$?
echo "done $(date +%T)"
[ $a -eq 0 ] && [ $b -eq 0 ] && [ $c -eq 0 ]
