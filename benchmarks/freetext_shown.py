"""Count the free-text results whose verdict, score and feedback disagree, as graded and as
a learner is shown them (app/grading/freetext/shown.py, round 23).

Tune answers only (meta/sides.yaml): every other persona is dropped before anything is
graded. Each answer is graded as shipped (the settings' defaults) and counted, by where the
result was last set (the rules, a learned part, the budget, an empty / keyword-list /
injection / off-topic answer), by question and by label>verdict cell. Counts only: no
answer's text is printed.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/freetext_shown.py
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.grading.freetext import grade_freetext  # noqa: E402
from app.grading.freetext.evaluation import free_text_questions, load_persona_answers, load_sides  # noqa: E402
from app.grading.freetext.shown import as_shown  # noqa: E402
from app.grading.results import GradeResult  # noqa: E402
from app.packs.loader import load_pack  # noqa: E402

PACK = ROOT / "questions" / "gradient-tape"
LABELLED = ROOT / "tests" / "grading" / "freetext_labelled"
SIDES = LABELLED / "meta" / "sides.yaml"


def _pct(score: float) -> int:
    return round(score * 100)  # as the pages show it


def _kinds(result: GradeResult) -> set[str]:
    return {f.kind for f in result.feedback}


DISAGREEMENTS: dict[str, Callable[[GradeResult], bool]] = {
    "correct, a concept listed as missed": lambda r: (
        r.verdict == "correct" and "missing" in _kinds(r)
    ),
    "correct, score shown below 70%": lambda r: r.verdict == "correct" and _pct(r.score) < 70,
    "partial, score shown outside 25-69%": lambda r: (
        r.verdict == "partial" and not 25 <= _pct(r.score) < 70
    ),
    "incorrect, score shown 25% or more": lambda r: (
        r.verdict == "incorrect" and _pct(r.score) >= 25
    ),
    "correct, a misconception listed": lambda r: (
        r.verdict == "correct" and "misconception" in _kinds(r)
    ),
    "no credit, a concept listed as covered": lambda r: (
        bool(r.details.get("keyword_list") or r.details.get("injection") or r.details.get("empty"))
        and "correct" in _kinds(r)
    ),
    # Not a contradiction when a note says why (the second opinion's LOWERED_MESSAGE):
    "below correct, nothing listed to fix": lambda r: (
        r.verdict != "correct" and not _kinds(r) & {"missing", "misconception"}
    ),
}


def path_of(result: GradeResult) -> str:
    """Where the result was last set."""
    d = result.details
    for key in ("empty", "keyword_list", "injection", "off_topic", "stopped_early"):
        if d.get(key):
            return key.replace("_", " ")
    for key in ("embedding_verdict", "second_opinion"):
        if d.get(key):
            return f"{key.replace('_', ' ')} {d[key]}"
    if d.get("neighbours") or d.get("tag_classifier"):
        return "learned tell"
    if d.get("caps"):
        return "rules, tell cap from precedent"
    return "rules" + (", tell" if result.misconceptions else "")


def main() -> int:
    loaded = load_pack(PACK)
    assert loaded.pack is not None, loaded.problems
    questions = free_text_questions(loaded.pack)
    sides = load_sides(SIDES)
    answers, _ = load_persona_answers(LABELLED)
    tune = [a for a in answers if (a.persona or "original") in sides.tune]
    counts: dict[str, dict[str, Counter[str]]] = {}
    for answer in tune:
        question = questions.get(answer.question_id)
        if question is None:
            continue
        graded = grade_freetext(question, answer.answer)
        for when, result in (("graded", graded), ("shown", as_shown(question.rubric, graded))):
            for name, disagrees in DISAGREEMENTS.items():
                if disagrees(result):
                    by = counts.setdefault(f"{when}: {name}", {})
                    by.setdefault("path", Counter())[path_of(graded)] += 1
                    by.setdefault("question", Counter())[question.id] += 1
                    cell = f"{answer.verdict[0]}>{result.verdict[0]}"
                    by.setdefault("cell", Counter())[cell] += 1
    print(f"== tune answers graded as shipped: {len(tune)}")
    for when in ("graded", "shown"):
        for name in DISAGREEMENTS:
            by = counts.get(f"{when}: {name}", {})
            total = sum(by.get("path", Counter()).values())
            print(f"{when:>6}: {name:<40} {total:>5}")
            for what in ("path", "question", "cell"):
                if total:
                    row = ", ".join(f"{k} {n}" for k, n in sorted(by[what].items()))
                    print(f"{'':>10}by {what}: {row}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
