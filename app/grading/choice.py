"""Grading for answers with a closed set of right responses: choices, true/false, ordering.

These run in the web process and need no sandbox; each validates the answer's shape first
and raises AnswerInvalid (422) for anything that is not a well-formed attempt.

Partial credit. Ordering scores the share of item pairs in the right relative order.
Multiple choice scores coverage times accuracy (PrairieLearn's "COV" rule): the share of
the right options picked, times the share of the picks that are right. Picking 1 of 4 right
options and nothing wrong scores 0.25; 1 right and 1 wrong scores 0.125; everything scores
the share of options that are right; nothing scores 0. So guessing never pays, and every
right option found earns something.
"""

from __future__ import annotations

from itertools import combinations

from app.errors import AnswerInvalid
from app.grading.results import Feedback, GradeResult, Verdict
from app.packs.schema import Choice, ChoiceQuestionBase, MultipleChoice, Ordering, TrueFalse

MAX_ID_LEN = 64


def _choice_id(answer: object, known: set[str]) -> str:
    if not isinstance(answer, str):
        raise AnswerInvalid("answer must be a choice id (a string)")
    if answer not in known:
        shown = answer[:MAX_ID_LEN]
        raise AnswerInvalid(f"unknown choice {shown!r}; expected one of {', '.join(sorted(known))}")
    return answer


def _id_list(answer: object, known: set[str], what: str) -> list[str]:
    if not isinstance(answer, list) or not all(isinstance(a, str) for a in answer):
        raise AnswerInvalid(f"answer must be a list of {what} ids (strings)")
    if len(answer) > len(known):
        raise AnswerInvalid(f"answer lists more {what}s than the question has")
    unknown = [a[:MAX_ID_LEN] for a in answer if a not in known]
    if unknown:
        raise AnswerInvalid(f"unknown {what} id(s): {', '.join(map(repr, unknown))}")
    if len(set(answer)) != len(answer):
        raise AnswerInvalid(f"answer repeats a {what} id")
    return answer


def solution_of(question: object) -> object:
    """The right answer in the API's answer shape: a choice id, a list of ids, an order, a
    boolean; None for questions without a closed answer (free text, code)."""
    match question:
        case MultipleChoice():
            return [c.id for c in question.choices if c.correct]
        case ChoiceQuestionBase():
            return next(c.id for c in question.choices if c.correct)
        case TrueFalse():
            return question.answer
        case Ordering():
            return [item.id for item in question.items]
    return None


def _why(choice: Choice) -> list[Feedback]:
    """What the author says about a picked option: a right one confirms, a wrong one corrects."""
    if not choice.why:
        return []
    return [Feedback("correct" if choice.correct else "misconception", choice.why)]


def grade_single(question: ChoiceQuestionBase, answer: object) -> GradeResult:
    chosen = _choice_id(answer, {c.id for c in question.choices})
    choice = next(c for c in question.choices if c.id == chosen)
    if choice.correct:
        return GradeResult("correct", 1.0, _why(choice))
    right = next(c for c in question.choices if c.correct)
    return GradeResult("incorrect", 0.0, [*_why(choice), _missed([right])])


def _missed(choices: list[Choice]) -> Feedback:
    names = "; ".join(f"“{c.text}”" for c in choices)
    return Feedback("missing", f"The right answer{'s' if len(choices) > 1 else ''}: {names}")


def coverage_score(*, hits: int, picks: int, right: int) -> float:
    """Share of right options found times share of picks that are right (see module doc)."""
    if not picks or not right:
        return 0.0
    return (hits / right) * (hits / picks)


def grade_multiple(question: MultipleChoice, answer: object) -> GradeResult:
    chosen = set(_id_list(answer, {c.id for c in question.choices}, "choice"))
    right = question.correct_ids()
    hits, false_picks = len(chosen & right), len(chosen - right)
    score = coverage_score(hits=hits, picks=len(chosen), right=len(right))
    feedback = [f for c in question.choices if c.id in chosen for f in _why(c)]
    missed = [c for c in question.choices if c.correct and c.id not in chosen]
    if missed:
        feedback.append(_missed(missed))
    if false_picks:
        feedback.append(Feedback("error", f"You picked {false_picks} option(s) that are wrong."))
    return GradeResult(_verdict(score), round(score, 3), feedback)


def grade_true_false(question: TrueFalse, answer: object) -> GradeResult:
    if isinstance(answer, str) and answer in ("true", "false"):
        answer = answer == "true"
    if not isinstance(answer, bool):
        raise AnswerInvalid('answer must be true or false (a boolean, or "true"/"false")')
    if answer == question.answer:
        return GradeResult("correct", 1.0)
    return GradeResult("incorrect", 0.0)


def grade_ordering(question: Ordering, answer: object) -> GradeResult:
    """Partial credit is the share of item pairs in the right relative order (Kendall tau)."""
    expected = [item.id for item in question.items]
    given = _id_list(answer, set(expected), "item")
    if len(given) != len(expected):
        raise AnswerInvalid(f"answer must order all {len(expected)} items")
    rank = {item_id: i for i, item_id in enumerate(given)}
    pairs = list(combinations(expected, 2))
    agreeing = sum(1 for a, b in pairs if rank[a] < rank[b])
    score = agreeing / len(pairs)
    in_place = sum(1 for a, b in zip(given, expected, strict=True) if a == b)
    feedback = (
        []
        if score == 1
        else [Feedback("info", f"{in_place} of {len(expected)} lines are in their right position.")]
    )
    verdict: Verdict = "correct" if score == 1 else ("partial" if score >= 0.6 else "incorrect")
    return GradeResult(verdict, round(score, 3), feedback)


def _verdict(score: float) -> Verdict:
    if score >= 1:
        return "correct"
    return "partial" if score > 0 else "incorrect"
