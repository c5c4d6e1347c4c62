"""What a mock interview asks next: the plan for its length and the adaptive follow-ups.

An interviewer opens with a quick concept (at the chosen difficulty), asks for an
explanation, has the candidate write code, and follows up: on what the candidate missed (a
related question on the same concept, tag or tell) and, when the training step passes, on
something harder (clipping, accumulation, the GAN step, tf.function). Everything here is
pure: it takes the pack's questions and what happened so far, and returns a choice with the
reason kept for the report. Questions are fitted to the time left using rough minutes per
question type.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.packs.loader import LoadedQuestion
from app.packs.schema import CodeQuestionBase, FreeText

LENGTHS = (10, 20, 45)
CLOSED_TYPES = ("single-choice", "multiple-choice", "true-false", "ordering", "predict-output")
SLOT_TYPES: dict[str, tuple[str, ...]] = {
    "warm-up": CLOSED_TYPES,
    "explanation": ("free-text",),
    "code": ("code", "code-fix"),
}
# What a candidate needs per question under interview pressure, in minutes.
ESTIMATED_MINUTES = {**dict.fromkeys(CLOSED_TYPES, 1.0), "free-text": 3.0, "code": 5.0}
ESTIMATED_MINUTES["code-fix"] = 4.0
# Base slots leave roughly a third of the time for follow-ups (estimates sum to the length).
PLANS: dict[int, tuple[str, ...]] = {
    10: ("warm-up", "explanation", "code"),
    20: ("warm-up", "warm-up", "explanation", "code", "explanation"),
    45: ("warm-up", "warm-up", "explanation", "code", "warm-up", "explanation", "code",
         "explanation", "code"),
}  # fmt: skip
FOLLOWUPS = {10: 1, 20: 3, 45: 6}
# The harder steps a passing training step leads to, easiest first.
HARDER_CONTRACTS: dict[str, tuple[str, ...]] = {
    "train-step": ("clip-step", "accumulate", "gan-step"),
    "clip-step": ("accumulate", "gan-step"),
    "accumulate": ("gan-step",),
}
HARDER_TOPICS = ("performance", "persistent-tapes")  # tf.function, persistent/nested tapes
DIFFICULTY_RANK = {"easy": 0, "medium": 1, "hard": 2}
_STOP_WORDS = {"is", "a", "the", "to", "of", "needs", "must", "fine", "vs", "and"}


@dataclass(frozen=True)
class Outcome:
    """What the report will say about one answer, as far as choosing a follow-up needs."""

    item: LoadedQuestion
    verdict: str | None  # None: skipped, ungraded or pending
    skipped: bool = False
    misconceptions: tuple[str, ...] = ()
    concepts_missed: tuple[str, ...] = ()
    kind: str = ""  # the slot it was asked in: warm-up | explanation | code | follow-up

    @property
    def was_follow_up(self) -> bool:  # a missed follow-up does not start a chain of them
        return self.kind == "follow-up"


@dataclass(frozen=True)
class Choice:
    item: LoadedQuestion
    kind: str
    reason: str = ""


def minutes_for(item: LoadedQuestion) -> float:
    return ESTIMATED_MINUTES.get(item.question.type, 2.0)


def _preference(item: LoadedQuestion, kind: str, difficulty: str | None) -> int:
    """Distance from the wanted difficulty. Every slot wants the chosen difficulty: an
    interviewer hiring for hard questions still opens with a quick concept question, but a
    hard one (an easy opener at a hard interview told the candidate nothing and misjudged the
    level). With no difficulty chosen (mixed) a warm-up wants easy and the rest medium, so
    the interview climbs."""
    wanted = difficulty or ("easy" if kind == "warm-up" else "medium")
    return abs(DIFFICULTY_RANK[item.question.difficulty] - DIFFICULTY_RANK[wanted])


def _ladder_rank(item: LoadedQuestion) -> int:
    """Code slots start at the plain training step so a pass can lead somewhere harder."""
    contract = item.question.contract if isinstance(item.question, CodeQuestionBase) else ""
    order = ("train-step", *HARDER_CONTRACTS["train-step"])
    return order.index(contract) if contract in order else len(order)


def pick_for_slot(
    kind: str,
    pool: Sequence[LoadedQuestion],
    *,
    asked: set[str],
    difficulty: str | None,
    minutes_left: float,
    rng: random.Random,
) -> Choice | None:
    """The best unasked question for a planned slot that fits in the time left."""
    fits = [i for i in pool if i.question.id not in asked and minutes_for(i) <= minutes_left]
    typed = [i for i in fits if i.question.type in SLOT_TYPES[kind]]
    if not typed:
        return None
    covered = {i.question.topic for i in pool if i.question.id in asked}
    rng.shuffle(typed)  # variety between interviews; the sort below is stable
    if kind == "code":  # the ladder first: a passing training step leads up it
        typed.sort(key=lambda i: (_ladder_rank(i), _preference(i, kind, difficulty)))
    else:  # then spread the planned questions over the topics
        typed.sort(key=lambda i: (_preference(i, kind, difficulty), i.question.topic in covered))
    return Choice(typed[0], kind)


def pick_filler(
    pool: Sequence[LoadedQuestion],
    *,
    asked: set[str],
    difficulty: str | None = None,
    minutes_left: float,
    rng: random.Random,
) -> Choice | None:
    """A quick concept question, at the chosen difficulty, when the planned slot no longer
    fits the time left."""
    return pick_for_slot(
        "warm-up", pool, asked=asked, difficulty=difficulty, minutes_left=minutes_left, rng=rng
    )


def _tokens(slug: str) -> set[str]:
    return {t for t in re.split(r"[-_]", slug.lower()) if t and t not in _STOP_WORDS}


def related(a: str, b: str) -> bool:
    """Whether two slugs (tags, misconception tags, concept ids) name the same idea: equal,
    one holding the other whole ("needs-zero-grad" holds "zero-grad"; a one-word slug such
    as "optimizer" is too common for that), or sharing two meaningful words."""
    if a == b:
        return True
    for short, long in ((a, b), (b, a)):
        if "-" in short and f"-{short}-" in f"-{long}-":
            return True
    return len(_tokens(a) & _tokens(b)) >= 2


def _relatedness(candidate: LoadedQuestion, outcome: Outcome) -> int:
    tags = [*candidate.question.tags, candidate.question.id]
    score = 0
    for weight, keys in ((4, outcome.misconceptions), (3, outcome.concepts_missed)):
        score += weight * sum(1 for key in keys if any(related(key, t) for t in tags))
    score += 2 * len(set(candidate.question.tags) & set(outcome.item.question.tags))
    score += 2 * int(candidate.question.topic == outcome.item.question.topic)
    score += int(candidate.question.section == outcome.item.question.section)
    return score


def _labels(question: object, ids: tuple[str, ...], kind: str) -> str:
    """Rubric labels for concept ids or misconception tags (ids when there is no rubric)."""
    rubric = question.rubric if isinstance(question, FreeText) else None
    known: dict[str, str] = {}
    if rubric is not None and kind == "concepts":
        known = {c.id: c.label for c in rubric.concepts}
    elif rubric is not None:
        known = {m.tag: m.label or m.tag for m in rubric.misconceptions}
    named = [known.get(i, i.replace("-", " ")) for i in ids]
    more = f" (and {len(named) - 2} more)" if len(named) > 2 else ""
    return "; ".join(named[:2]) + more


def _missed_reason(outcome: Outcome) -> str:
    q = outcome.item.question
    if outcome.skipped:
        return f"Follow-up: '{q.title}' was skipped, so the same ground is probed another way."
    if outcome.misconceptions:
        tells = _labels(q, outcome.misconceptions, "misconceptions")
        return f"Follow-up on the tell shown in '{q.title}' ({tells})."
    if outcome.concepts_missed:
        missed = _labels(q, outcome.concepts_missed, "concepts")
        return f"Follow-up on what '{q.title}' left out: {missed}."
    how = "only partly right" if outcome.verdict == "partial" else "missed"
    return f"Follow-up: '{q.title}' was {how}, so the same idea is asked another way."


def missed_followup(
    outcome: Outcome, pool: Sequence[LoadedQuestion], *, asked: set[str], minutes_left: float
) -> Choice | None:
    """A related question on what the answer missed, quickest first among the closest."""
    candidates = [
        (_relatedness(i, outcome), -minutes_for(i), i.question.id, i)
        for i in pool
        if i.question.id not in asked and minutes_for(i) <= minutes_left
    ]
    candidates = [c for c in candidates if c[0] >= 2]  # a shared section alone is too loose
    if not candidates:
        return None
    best = max(candidates, key=lambda c: c[:3])
    return Choice(best[3], "follow-up", _missed_reason(outcome))


def _contract(item: LoadedQuestion) -> str:
    return item.question.contract if isinstance(item.question, CodeQuestionBase) else ""


def harder_followup(
    outcome: Outcome, pool: Sequence[LoadedQuestion], *, asked: set[str], minutes_left: float
) -> Choice | None:
    """After a passing step: the next harder step, else a hard question on tf.function."""
    fits = [i for i in pool if i.question.id not in asked and minutes_for(i) <= minutes_left]
    passed = _contract(outcome.item)
    for contract in HARDER_CONTRACTS.get(passed, ()):
        match = next((i for i in fits if _contract(i) == contract), None)
        if match is not None:
            reason = f"Follow-up: {passed} passed, so a harder step ({contract})."
            return Choice(match, "follow-up", reason)
    harder = [i for i in fits if i.question.topic in HARDER_TOPICS and i.question.type != "code"]
    if not harder:
        return None
    harder.sort(key=lambda i: (-DIFFICULTY_RANK[i.question.difficulty], i.question.id))
    reason = f"Follow-up: {passed} passed, so a harder question ({harder[0].question.topic})."
    return Choice(harder[0], "follow-up", reason)


def choose_followup(
    outcome: Outcome, pool: Sequence[LoadedQuestion], *, asked: set[str], minutes_left: float
) -> Choice | None:
    """The follow-up an interviewer would ask after this answer, if any."""
    if outcome.verdict == "correct" and _contract(outcome.item) in HARDER_CONTRACTS:
        return harder_followup(outcome, pool, asked=asked, minutes_left=minutes_left)
    if outcome.was_follow_up:
        return None
    if outcome.skipped or outcome.verdict in ("partial", "incorrect"):
        return missed_followup(outcome, pool, asked=asked, minutes_left=minutes_left)
    return None


def pack_pool(questions: Iterable[LoadedQuestion], pack_id: str) -> list[LoadedQuestion]:
    return sorted((q for q in questions if q.pack_id == pack_id), key=lambda q: q.question.id)
