"""Every tune answer's whole grading, saved and compared, for work that must grade nothing
differently (issue 14, round 28: speed).

rules_reading.py compares verdicts and named tells; a change meant to be pure speed must also
leave the score, the feedback and every detail as they were, rules alone and as shipped (the
learned parts read the rules' details). Held-out answers are never graded: only `tune` of
meta/sides.yaml. From a worktree root:
  PYTHONPATH=$PWD nice -n 5 .venv/bin/python scripts/labelling/tune_gradings.py \
      [--save FILE.json] [--compare FILE.json]
--compare prints, per configuration, how many answers were graded differently and the first
few sources with the part that differs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.grading.freetext.evaluation import core_labelled
from app.grading.results import GradeResult
from benchmarks._measure import CONFIGS  # rules alone (the learned parts off), as shipped

ROOT = Path(__file__).resolve().parents[2]
SHOWN = 5  # differing answers printed per configuration


def whole(result: GradeResult) -> dict[str, Any]:
    """A grading as JSON: everything a caller can read of it."""
    return json.loads(
        json.dumps(
            {
                "verdict": result.verdict,
                "score": result.score,
                "misconceptions": list(result.misconceptions),
                "feedback": [[f.kind, f.message] for f in result.feedback],
                "details": result.details,
            },
            default=repr,
            sort_keys=True,
        )
    )


def tune_gradings() -> dict[str, dict[str, Any]]:
    """configuration -> answer source (its path under the tree, so that a reading saved in
    an exported tree compares with a worktree's, round 29) -> its whole grading."""
    from app.grading.freetext import grade_freetext

    core = core_labelled()
    questions = {q.question.id: q.question for q in core.pack.questions}
    tune = core.tune_answers
    read: dict[str, dict[str, Any]] = {}
    for name, settings in CONFIGS.items():
        graded = {}
        for answer in tune:
            question = questions.get(answer.question_id)
            if question is not None:
                graded[answer.source.removeprefix(f"{ROOT}/")] = whole(
                    grade_freetext(question, answer.answer, **settings)
                )
        read[name] = graded
    return read


def differing(before: dict[str, Any], now: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """(source, the parts that differ) of every answer graded differently or only once."""
    found = []
    for source in sorted(set(before) | set(now)):
        was, is_ = before.get(source), now.get(source)
        if was is None or is_ is None:
            found.append((source, ["graded in one reading only"]))
        elif was != is_:
            parts = was.keys() | is_.keys()
            found.append((source, sorted(k for k in parts if was.get(k) != is_.get(k))))
    return found


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--save")
    ap.add_argument("--compare")
    a = ap.parse_args()
    now = tune_gradings()
    for name, graded in now.items():
        print(f"{name}: {len(graded)} tune answers graded")
    if a.compare:
        before = json.loads(Path(a.compare).read_text())
        for name in CONFIGS:
            found = differing(before.get(name, {}), now[name])
            print(f"graded differently since {a.compare}: {name}: {len(found)}")
            for source, parts in found[:SHOWN]:
                print(f"  {source}: {', '.join(parts)}")
    if a.save:
        Path(a.save).write_text(json.dumps(now, sort_keys=True))


if __name__ == "__main__":
    main()
