"""The labelled answers as neighbours (round 7): the shipped artefact, and the benchmark's
leave-one-persona-out reading.

`neighbours.py` grades with an index of labelled tune answers; this module builds that
index's artefact from tests/grading/freetext_labelled (run it as `python -m
app.grading.freetext.neighbours train`) and applies the suggestion to graded labelled rows
with each persona left out in turn (`benchmarks/freetext.py --neighbours`). The web
process never imports it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from app.grading.freetext.grader import has_evidence
from app.grading.freetext.neighbours import (
    MIN_SIMILARITY,
    UNTAGGED,
    VOTES,
    Bag,
    Entry,
    Index,
    K,
    bag,
    build_index,
    eligible,
    nearest_tag,
    prompt_key,
    suggested_verdict,
    words,
)
from app.packs.rubric import Rubric


def suggested_rows(
    rows: Sequence[Any], rubrics: Mapping[str, Rubric], shipped: Index | None = None
) -> list[Any]:
    """Graded labelled rows (`evaluation.Row`) with the suggestion applied, read leave one
    persona out: a tune persona's rows against an index built from the other tune rows,
    a held-out persona's rows against `shipped` - the index grading uses, so a fresh set
    read alone (`--labelled DIR`, no tune rows loaded) is read as it would be graded; with
    no `shipped`, the index of every tune row."""
    bags = {id(r): bag(r.answer) for r in rows}
    tune = [r for r in rows if r.side == "tune"]
    out: dict[int, Any] = {}
    for persona in sorted({r.persona for r in rows}):
        mine = [r for r in rows if r.persona == persona]
        index = shipped if mine[0].side != "tune" else None
        if index is None:
            pool = [r for r in tune if r.persona != persona]
            index = build_index(
                [
                    Entry(r.question_id, bags[id(r)], r.expected_tags, r.answer, r.persona)
                    for r in pool
                ]
            )
        for row in mine:
            out[id(row)] = _suggested_row(index, rubrics[row.question_id], row, bags[id(row)])
    return [out[id(r)] for r in rows]


def _suggested_row(index: Index, rubric: Rubric, row: Any, words: Bag) -> Any:
    if row.evidence is None or not eligible(row.evidence, row.verdict, row.named_tags):
        return row
    tells = {m.tag: m for m in rubric.misconceptions}
    tag = nearest_tag(index, row.question_id, words, tells, row.answer)
    if tag is None or not has_evidence(tells[tag], row.answer):
        return row
    verdict = suggested_verdict(rubric, row.evidence, tells[tag])
    return dataclasses.replace(row, verdict=verdict, named_tags=(tag,))


def build_artefact() -> dict[str, Any]:
    """The index of every labelled tune answer of the core pack's free-text questions."""
    from app.grading.freetext.evaluation import core_labelled, free_text_questions, mapped_tags

    core = core_labelled()
    pack, answers, sides, tag_map = core.pack, core.answers, core.sides, core.tag_map
    questions = free_text_questions(pack)
    tune = sorted(
        (a for a in answers if sides.side(a.persona or "original") == "tune"),
        key=lambda a: (a.question_id, a.persona, a.source, a.answer),
    )
    stored = [
        (
            a.question_id,
            a.answer,
            mapped_tags(tag_map, a.question_id, a.misconceptions),
            a.persona or "original",
        )
        for a in tune
        if a.question_id in questions
    ]
    return {
        "about": "issue 14 round 7 neighbours; python -m app.grading.freetext.neighbours train",
        "trained_on": {
            "labelled": "tests/grading/freetext_labelled",
            "personas": sorted({a.persona or "original" for a in tune}),
            "answers": len(stored),
        },
        "k": K,
        "votes": VOTES,
        "untagged": UNTAGGED,
        "min_similarity": MIN_SIMILARITY,
        "questions": {
            qid: {
                "prompt": prompt_key(question),
                "answers": [
                    {
                        "tags": list(tags),
                        "answer": text,
                        "persona": persona,
                        "words": " ".join(words(text)),
                    }
                    for q, text, tags, persona in stored
                    if q == qid
                ],
            }
            for qid, question in sorted(questions.items())
        },
    }


def dumps(artefact: dict[str, Any]) -> str:
    return json.dumps(artefact, sort_keys=True, indent=0) + "\n"


def final_sets_left_out() -> list[str]:
    """Each earlier final set (`final_*` in meta/sides.yaml), left out as a whole - the
    closest thing to a fresh set here: its rows read against an index of the other tune
    rows, rules alone -> with the suggestion (exact, correct-vs-not, named, false tells)."""
    import yaml

    from app.grading.freetext.evaluation import (
        core_labelled,
        figures,
        free_text_rubrics,
        grade_rows,
    )

    core = core_labelled()
    pack = core.pack
    raw = yaml.safe_load((core.folder / "meta" / "sides.yaml").read_text(encoding="utf-8"))
    rows, _ = grade_rows(pack, core.answers, tag_map=core.tag_map, sides=core.sides)
    rubrics = free_text_rubrics(pack)

    def line(rs: list[Any]) -> str:
        f = figures(rs)
        return (
            f"{f.exact}/{f.total} exact, {f.binary} correct-vs-not, {f.tags_named} of "
            f"{f.tags_expected} named, {f.false_tells_on_correct} of {f.correct_labelled} false"
        )

    out = []
    for key in sorted(k for k in raw if str(k).startswith("final_")):
        group = set(raw[key])
        out_rows = [
            dataclasses.replace(r, side="held-out") if r.persona in group else r for r in rows
        ]
        after = suggested_rows(out_rows, rubrics)
        before_set = [r for r in out_rows if r.persona in group]
        after_set = [r for r in after if r.persona in group]
        out.append(f"{key} ({', '.join(sorted(group))}): {line(before_set)} -> {line(after_set)}")
    return out


if __name__ == "__main__":
    print("\n".join(final_sets_left_out()))
