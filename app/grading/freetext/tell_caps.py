"""Tell caps read from labelled precedent (issue 14, round 15).

A stated misconception caps an answer's score: `cap: partial` (just below correct) or
`cap: incorrect` (below partial), set by hand per tell in the rubric. Labellers judge the
same tell differently from its author on some questions: "you have to watch the model's
variables" is a side remark to its author and makes the answer wrong to 45 of the 54 tune
answers labelled with that tag alone. So, per question, the tune answers whose labellers
named one tag and nothing else (tags mapped with meta/tag-map.yaml) are that tag's
precedent: with at least `MIN_ANSWERS` of them, the tag's cap is `incorrect` when at least
`INCORRECT_SHARE` of them are labelled incorrect, else `partial`; with fewer, or when one
answer more or fewer would flip that cap (round 16), the rubric's own cap stands. Only the
labels decide (not the rules' verdicts), so the caps do not depend on how the grader read
those answers. Measured leave-one-persona-out by `benchmarks/freetext.py --tell-caps`
(docs/freetext-rounds.md, "Round 15: the verdict line (engineer V)" and "Round 16: the
verdict line (engineer V)").

`python -m app.grading.freetext.tell_caps train [--check]` writes `tell_caps.json` beside
this file: per question, the rubric fingerprint and each tag's precedent (answers, of them
incorrect, the cap). The grader applies a question's caps only to the rubric they were
derived for (an edited rubric or an uploaded pack reusing the id gets its own caps).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.grading.freetext.artefacts import artefact_main, artefact_questions, dump_artefact
from app.grading.freetext.second_opinion import rubric_key
from app.packs.rubric import Rubric

ARTEFACT = Path(__file__).with_name("tell_caps.json")
MIN_ANSWERS = 5  # precedents a derived cap needs; fewer: the rubric's own cap
INCORRECT_SHARE = 0.6  # share of them labelled incorrect that makes the cap `incorrect`

Precedent = tuple[str, tuple[str, ...], str]  # question id, labelled (mapped) tags, verdict


def derive(precedents: Iterable[Precedent]) -> dict[tuple[str, str], dict[str, Any]]:
    """(question id, tag) -> {answers, incorrect, cap} from answers labelled with that tag
    alone; tags with fewer than `MIN_ANSWERS` such answers are left out."""
    counts: dict[tuple[str, str], Counter[str]] = {}
    for question_id, tags, verdict in precedents:
        if len(tags) == 1:
            counts.setdefault((question_id, tags[0]), Counter())[verdict] += 1
    out = {}
    for key, labels in counts.items():
        answers = sum(labels.values())
        if answers >= MIN_ANSWERS:
            wrong = labels["incorrect"]
            out[key] = {"answers": answers, "incorrect": wrong, "cap": stable_cap(wrong, answers)}
    return out


def stable_cap(wrong: int, answers: int) -> str | None:
    """`incorrect` when at least `INCORRECT_SHARE` of the answers are labelled incorrect,
    else `partial`; None (the rubric's cap stands) when one answer more or fewer, labelled
    either way, would give the other cap (round 16: a cap one label can flip is no
    precedent)."""
    shares = [wrong / answers, wrong / (answers + 1), (wrong + 1) / (answers + 1)]
    if answers > 1:
        shares += [(wrong - 1) / (answers - 1)] if wrong else []
        shares += [wrong / (answers - 1)] if wrong < answers else []
    caps = {"incorrect" if share >= INCORRECT_SHARE else "partial" for share in shares}
    return caps.pop() if len(caps) == 1 else None


def caps_from(rubric: Rubric, derived: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Tag -> cap for every tell of the rubric: the derived cap where there is a stable
    one, else the rubric's."""
    return {m.tag: str(derived.get(m.tag, {}).get("cap") or m.cap) for m in rubric.misconceptions}


def build_artefact() -> dict[str, Any]:
    """The caps of every free-text question of the core pack, from the labelled tune
    personas (meta/sides.yaml), with the precedent behind each."""
    from app.grading.freetext.evaluation import ORIGINAL, core_labelled, mapped_tags
    from app.packs.schema import FreeText

    core = core_labelled()
    rubrics = {
        q.question.id: q.question.rubric
        for q in core.pack.questions
        if isinstance(q.question, FreeText)
    }
    tune = [
        a
        for a in core.answers
        if (a.persona or ORIGINAL) in core.sides.tune and a.question_id in rubrics
    ]
    derived = derive(
        (a.question_id, mapped_tags(core.tag_map, a.question_id, a.misconceptions), a.verdict)
        for a in tune
    )
    questions = {
        qid: {
            "rubric": rubric_key(rubric),
            "tells": {
                m.tag: {**derived[(qid, m.tag)], "rubric_cap": m.cap}
                for m in rubric.misconceptions
                if (qid, m.tag) in derived
            },
        }
        for qid, rubric in sorted(rubrics.items())
    }
    return {
        "about": "issue 14 tell caps; python -m app.grading.freetext.tell_caps train",
        "trained_on": {
            "labelled": "tests/grading/freetext_labelled",
            "personas": sorted({a.persona or ORIGINAL for a in tune}),
            "answers": len(tune),
        },
        "min_answers": MIN_ANSWERS,
        "incorrect_share": INCORRECT_SHARE,
        "questions": questions,
    }


dumps = dump_artefact


def _questions() -> dict[str, Any]:
    return artefact_questions(ARTEFACT)


@lru_cache(maxsize=128)
def _derived(question_id: str, key: str) -> dict[str, dict[str, Any]]:
    entry = _questions().get(question_id)
    if not isinstance(entry, dict) or entry.get("rubric") != key:
        return {}
    tells = entry.get("tells")
    return (
        {str(t): v for t, v in tells.items() if isinstance(v, dict) and "cap" in v}
        if isinstance(tells, dict)
        else {}
    )


def shipped_caps(question_id: str, rubric: Rubric) -> dict[str, str]:
    """Tag -> cap for this question's tells: the shipped derived cap when the artefact was
    built for exactly this rubric, else the rubric's own."""
    return caps_from(rubric, _derived(question_id, rubric_key(rubric)))


def main(argv: list[str]) -> int:
    return artefact_main(
        argv, "app.grading.freetext.tell_caps", ARTEFACT, lambda: dumps(build_artefact())
    )


if __name__ == "__main__":  # train with the module proper, not this copy named __main__
    from app.grading.freetext import tell_caps

    raise SystemExit(tell_caps.main(sys.argv[1:]))
