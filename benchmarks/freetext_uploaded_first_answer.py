"""An uploaded pack's first free-text answers, before and after (issue 14, round 31).

Round 30 read the built-in packs' questions at start-up; an uploaded pack's questions were
still read (phrasings widened, their requirements, their compiles) at each question's first
answer, in a learner's request. This reads, in fresh child processes importing the grader
from one tree (a git revision, exported, and the working tree), in the order before, after,
after, before, ...:

- `upload`: as the web process serving an uploaded copy of the core pack (its folder copied
  outside packs_dir, so start-up keeps nothing of it): `import app.main`, start-up, then what
  publishing does in the web process: the pack's loading (`validate`), its self-test's
  free-text samples (`self-test`), and `read_uploaded` where the tree has it (`publish
  read`); then the first tune answer to each free-text question (`first answer`, `ten first
  answers`), the ten again warm, and every SAMPLE-th tune answer once (`sample`). The
  phrasings' backtracking probes (a child process, ~41 s of CPU for this pack) are not rerun.
- `unsampled`: the same copy without its free-text samples (a pack need not give any): its
  self-test grades nothing of those questions, which read everything at first answers.
- `evicted`: the core pack built in (kept at start-up), its ten first answers, then the
  grader's own caches cleared, as an upload with more phrasings than they hold would evict
  the core pack's entries (`compile_phrasing` 4,096, `parse_claim` 1,024, `word_edged` 4,096,
  `lexicon.widen` 4,096), and the ten again (`ten after eviction`): what keeping those
  entries too would save.

Thread CPU and wall seconds; each tree's gradings are compared with the other tree's. Held-out
personas are never read: only `tune` of meta/sides.yaml.

    .venv/bin/python benchmarks/freetext_uploaded_first_answer.py [--before REV] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._measure import (  # noqa: E402
    LapClock,
    before_after,
    first_and_sampled_answers,
    graded_differently,
    interleaved_readings,
)
from benchmarks.freetext_first_answer import SAMPLE  # noqa: E402

MODES = ("upload", "unsampled", "evicted")
UPLOAD_PARTS = (
    "start-up",
    "validate",
    "self-test",
    "publish read",
    "first answer",
    "ten first answers",
    "ten warm",
    "sample",
)
PARTS = {
    "upload": UPLOAD_PARTS,
    "unsampled": UPLOAD_PARTS,
    "evicted": ("ten first answers", "ten warm", "ten after eviction"),
}


def _uploaded_copy(scratch: Path, samples: bool) -> Path:
    """The core pack's folder copied outside packs_dir; without its free-text samples (the
    self-test grades nothing of those questions) unless `samples`."""
    import yaml

    copy = scratch / "uploads" / "gradient-tape"
    shutil.copytree(ROOT / "questions" / "gradient-tape", copy)
    for path in [] if samples else sorted(copy.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.pop("samples", None) is not None:
            path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return copy


def _grade_all(questions: dict[str, Any], answers: list[dict[str, str]]) -> list[Any]:
    from app.grading import dispatch

    graded = []
    for answer in answers:
        result = dispatch._grade_free_text(questions[answer["question"]], answer["answer"])
        graded.append([result.verdict, result.score, list(result.misconceptions)])
    return graded


def _upload(read: dict[str, Any], scratch: Path, samples: bool) -> dict[str, Any]:
    from app.grading.freetext import preload
    from app.packs.loader import load_pack
    from app.services.instructor.selftest import closed_checks
    from benchmarks._measure import web_start_up

    folder = _uploaded_copy(scratch, samples)
    clock = LapClock()
    pack = load_pack(folder).pack
    assert pack is not None
    clock.restart()
    web_start_up(pack)  # outside packs_dir: keeps nothing of it
    clock.lap("start-up")
    pack = load_pack(folder).pack  # the upload's own loading (its phrasings compiled whole)
    assert pack is not None
    clock.lap("validate")
    for item in pack.questions:
        closed_checks(item)
    clock.lap("self-test")
    if hasattr(preload, "read_uploaded"):
        preload.read_uploaded(pack)
    clock.lap("publish read")
    questions = {q.question.id: q.question for q in pack.questions}
    graded = _grade_all(questions, read["first"][:1])
    clock.lap("first answer")
    graded += _grade_all(questions, read["first"][1:])
    clock.lap("the other nine")
    first, rest = clock.read["first answer"], clock.read.pop("the other nine")
    clock.read["ten first answers"] = [a + b for a, b in zip(first, rest, strict=True)]
    _grade_all(questions, read["first"])
    clock.lap("ten warm")
    graded += _grade_all(questions, read["sample"])
    clock.lap("sample")
    return {"read": clock.read, "graded": graded}


def _evicted(read: dict[str, Any]) -> dict[str, Any]:
    from app.grading.freetext import claims, lexicon, phrasings
    from app.packs.loader import load_pack
    from benchmarks._measure import web_start_up

    pack = load_pack(ROOT / "questions" / "gradient-tape").pack
    assert pack is not None
    questions = {q.question.id: q.question for q in pack.questions}
    clock = LapClock()
    web_start_up(pack)
    clock.restart()
    graded = _grade_all(questions, read["first"])
    clock.lap("ten first answers")
    _grade_all(questions, read["first"])
    clock.lap("ten warm")
    for cache in (phrasings.compile_phrasing, claims.parse_claim, claims.word_edged):
        cache.cache_clear()
    lexicon.widen.cache_clear()
    graded += _grade_all(questions, read["first"])
    clock.lap("ten after eviction")
    return {"read": clock.read, "graded": graded}


def _child(mode: str, answers_file: Path) -> dict[str, Any]:
    read = json.loads(answers_file.read_text(encoding="utf-8"))
    import app.main  # noqa: F401 - the web process's imports

    if mode == "evicted":
        return _evicted(read)
    with tempfile.TemporaryDirectory() as scratch:
        return _upload(read, Path(scratch), samples=mode == "upload")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="", help="git revision (default: merge base with main)")
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per tree and way")
    parser.add_argument("--modes", default=",".join(MODES), help="which readings, comma-separated")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--answers", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        global ROOT
        ROOT = args.tree
        sys.path[:0] = [str(ROOT)]
        print(json.dumps(_child(args.child, args.answers)))
        return 0
    modes = args.modes.split(",")
    answers = first_and_sampled_answers(SAMPLE)
    read = interleaved_readings(__file__, modes, args.runs, args.before, answers)
    _print(read)
    _print_copy_against_core(read)
    return 0


def _print_copy_against_core(read: dict[str, dict[str, list[dict[str, Any]]]]) -> None:
    """The uploaded copy's ten first answers graded as the built-in pack's, in each tree."""
    for mode in ("upload", "unsampled"):
        if mode not in read or "evicted" not in read:
            continue
        for tree, runs in read[mode].items():
            pairs = [
                (u["graded"][:10], e["graded"][:10])
                for u, e in zip(runs, read["evicted"][tree], strict=True)
            ]
            differ = sum(x != y for u, e in pairs for x, y in zip(u, e, strict=True))
            print(
                f"{mode} copy vs built in ({tree}): graded differently"
                f" {differ} of {10 * len(pairs)}"
            )


def _print(read: dict[str, dict[str, list[dict[str, Any]]]]) -> None:
    for mode, trees in read.items():
        runs = len(trees["before"])
        print(f"== {mode} (median of {runs} fresh processes each): before -> after")
        for part in PARTS[mode]:
            cells = []
            for at, unit in ((1, "CPU"), (0, "wall")):
                b, a = before_after(trees, part, at)
                cells.append(
                    f"{unit} {b:.3f} -> {a:.3f} s" + (f" (x{a / b:.2f})" if b > 1e-4 else "")
                )
            print(f"   {part:20s} " + "; ".join(cells))
        differ, compared = graded_differently(trees)
        print(f"   graded differently (verdict, score, tells): {differ} of {compared}")


if __name__ == "__main__":
    sys.exit(main())
