"""Measurement (round 22, engineer E3): the embedding verdict as wired, on vs off.

The app's own pieces (app/grading/freetext/embedding_verdict.py, encoder.py, chain.py), tune
personas only (sides.yaml `tune`; nothing printed answer by answer):

- `--reading`: the whole chain leave one persona out (tune, all and not read) and leave one
  round out (the final_* sets of tune), without and with the embedding verdict learned in
  the same folds (chain.prepare's `vectors`);
- `--cost N`: whole grading (`grade_freetext` as the web process calls it) per answer, with
  the setting off and on, interleaved in one run over N tune answers (seed 21): CPU and wall
  p50 / p95 and the ratio; and the resident memory of a fresh grading process off and on;
- `--padding N`: N tune answers the shipped chain grades partial, padded as
  `benchmarks/freetext.py --second-opinion-padding` pads them: promoted to correct off / on,
  and of those the ones padding adds (shipped artefact, in sample).

Needs the `embedding` extra and the int8 file (`python -m app.grading.freetext.encoder
quantize`); `--cache FILE.npz` keeps the reading's vectors (round 21's format). Run from the
worktree root: `PYTHONPATH=$PWD .venv/bin/python benchmarks/freetext_embedding_shipped.py
--reading --cost 200 --padding 300`.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # one thread: the cost is per core

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.grading.freetext import chain  # noqa: E402
from app.grading.freetext import embedding_verdict as ev  # noqa: E402
from app.grading.freetext import second_opinion as so  # noqa: E402
from app.grading.freetext.evaluation import Row, core_labelled, free_text_questions, grade_rows  # noqa: E402
from app.grading.freetext.grader import grade_freetext  # noqa: E402
from app.packs.schema import FreeText  # noqa: E402
from benchmarks._measure import final_groups, quantile, tune_folds  # noqa: E402

SEED = 21


def tune_rows() -> tuple[list[Row], dict[str, FreeText], frozenset[str], dict[str, frozenset[str]]]:
    core = core_labelled()
    answers = core.tune_answers
    rows, _ = grade_rows(core.pack, answers, tag_map=core.tag_map, sides=core.sides)
    questions = free_text_questions(core.pack)
    groups = final_groups(core.folder / "meta" / "sides.yaml", core.sides.tune)
    return [r for r in rows if r.side == "tune"], questions, core.sides.read, groups


def reading(cache: Path | None) -> None:
    rows, questions, read, groups = tune_rows()
    texts = {id(r): ev.embedded_text(r.answer) for r in rows}
    start = time.process_time()
    vectors = ev.embed_all(texts.values(), cache)
    print(f"{len(rows)} tune rows embedded ({time.process_time() - start:.0f} s CPU)")
    rubrics = {k: q.rubric for k, q in questions.items()}
    from app.config import get_settings

    off = chain.prepare(rows, rubrics, classifier=get_settings().freetext_tag_classifier)
    on = dataclasses.replace(off, vectors={id(r): vectors[texts[id(r)]] for r in rows})
    cells = " ".join(f"{a[0]}>{b[0]}" for a, b in chain.CELLS)
    for fold in tune_folds(rows, read, groups):
        start = time.process_time()
        without = chain.chain_rows(rows, off, fold.fold)
        mid = time.process_time()
        with_it = chain.chain_rows(rows, on, fold.fold)
        spent = time.process_time() - mid
        print(
            f"== {fold.name} (chain {mid - start:.0f} s, with the verdict {spent:.0f} s CPU); n, "
            f"figures; label>verdict {cells}"
        )
        for part, mine in fold.parts:
            print(f"   {part}")
            print(f"     rules alone       {chain.summary(mine)}")
            print(f"     chain (off)       {chain.summary([without[id(r)] for r in mine])}")
            print(f"     chain + verdict   {chain.summary([with_it[id(r)] for r in mine])}")
        moved = [r for r in rows if id(r) in without and without[id(r)] != with_it[id(r)]]
        print(
            f"   moved {len(moved)}: {sum(with_it[id(r)].exact for r in moved)} to the label, "
            f"{sum(without[id(r)].exact for r in moved)} away from it"
        )


RSS_PROBE = """
import resource, sys, time
sys.path.insert(0, {root!r})
from app.grading.freetext.grader import grade_freetext
from tests.grading.core_questions import question
from benchmarks._measure import rss_mb as rss
q = question('why-none-gradients')
grade_freetext(q, 'warm the caches')
before = rss()
for qid, text in {sample!r}:
    grade_freetext(question(qid), text, embedding_verdict={on})
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{{before:.0f}} MB after imports and one grading, {{rss():.0f}} MB after the sample, "
      f"peak {{peak:.0f}} MB")
"""


def cost(n: int) -> None:
    rows, questions, _, _ = tune_rows()
    sample = random.Random(SEED).sample(rows, min(n, len(rows)))
    for r in sample[:20]:  # warm: artefacts, the encoder session
        grade_freetext(questions[r.question_id], r.answer, embedding_verdict=True)
    times: dict[bool, tuple[list[float], list[float]]] = {False: ([], []), True: ([], [])}
    encoded = 0
    for r in sample:
        for on in (False, True):
            start, wall = time.process_time(), time.perf_counter()
            result = grade_freetext(questions[r.question_id], r.answer, embedding_verdict=on)
            times[on][0].append((time.process_time() - start) * 1000)
            times[on][1].append((time.perf_counter() - wall) * 1000)
        encoded += "embedding_verdict" in result.details
    print(f"== whole grading per answer, {len(sample)} tune answers (seed {SEED}), one thread")
    for on in (False, True):
        cpu, wall = times[on]
        print(
            f"   verdict {'on ' if on else 'off'}: CPU p50 {statistics.median(cpu):.1f} ms, p95 "
            f"{quantile(cpu, 0.95):.1f}, max {max(cpu):.1f}; wall p50 "
            f"{statistics.median(wall):.1f}, p95 {quantile(wall, 0.95):.1f}"
        )
    ratio = statistics.median(times[True][0]) / statistics.median(times[False][0])
    p95 = quantile(times[True][0], 0.95) / quantile(times[False][0], 0.95)
    print(f"   on / off: CPU p50 x{ratio:.2f}, p95 x{p95:.2f}; moved {encoded}")
    pairs = [(r.question_id, r.answer) for r in sample]
    for on in (False, True):
        code = RSS_PROBE.format(root=str(ROOT), sample=pairs, on=on)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        print(f"   RSS, verdict {'on ' if on else 'off'}: {(out.stdout or out.stderr).strip()}")


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]


def _top_words(question: FreeText, k: int) -> list[str]:
    model = so.model_for(question.id, question.rubric)
    weights = model.weights.items() if model else ()
    ranked = sorted(((w, key[2:]) for key, w in weights if key.startswith("w:") and w > 0))
    return [word for _, word in ranked[::-1][:k]]


PADDINGS: dict[str, Callable[[FreeText], str]] = {
    "top-10 words": lambda q: " ".join(_top_words(q, 10)),
    "top-30 words": lambda q: " ".join(_top_words(q, 30)),
    "top-10 words, comma list": lambda q: ", ".join(_top_words(q, 10)) + ".",
    "top-10 words, glossary": lambda q: "Key terms: " + ", ".join(_top_words(q, 10)) + ".",
    "model answer, first sentence": lambda q: _sentences(q.rubric.model_answer)[0],
    "model answer, whole": lambda q: q.rubric.model_answer.strip(),
}


def padding(n: int) -> None:
    rows, questions, _, _ = tune_rows()
    partial = [
        r for r in rows if grade_freetext(questions[r.question_id], r.answer).verdict == "partial"
    ]
    targets = random.Random(SEED).sample(partial, min(n, len(partial)))

    def correct(r: Row, text: str, on: bool) -> bool:
        q = questions[r.question_id]
        return grade_freetext(q, text, embedding_verdict=on).verdict == "correct"

    raised = {id(r) for r in targets if correct(r, r.answer, True)}
    print(
        f"== padding attack, {len(targets)} tune answers the shipped chain grades partial (seed "
        f"{SEED}; the shipped artefact, in sample): the verdict on raises {len(raised)} unpadded"
    )
    for name, pad in PADDINGS.items():
        off = on = adds = 0
        for r in targets:
            text = f"{r.answer.rstrip()} {pad(questions[r.question_id])}"
            was, now = correct(r, text, False), correct(r, text, True)
            off, on = off + was, on + now
            adds += now and not was and id(r) not in raised
        print(f"   {name:<30} promoted off {off:>4}, on {on:>4}; padding adds with it on: {adds}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reading", action="store_true", help="chain LOPO / LORO, off and on")
    parser.add_argument("--cache", type=Path, default=None, help="vectors by sha1 (.npz)")
    parser.add_argument("--cost", type=int, default=0, help="answers timed (0: none)")
    parser.add_argument("--padding", type=int, default=0, help="answers padded (0: none)")
    args = parser.parse_args()
    if args.reading:
        reading(args.cache)
    if args.cost:
        cost(args.cost)
    if args.padding:
        padding(args.padding)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
