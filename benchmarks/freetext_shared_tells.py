"""What sharing one misconception entry across questions would do, tag by tag (issue 14, round 51).

A tag on several questions of the core pack is a copy per question, and a phrasing added to one
copy never reaches the others. Before any copy is replaced by one shared entry (app/packs/shared.py)
this measures, with the rules alone over the tune personas only, what each copy would name if it
read the union of every copy's phrasings (`any` and `negated`; cap, correction and `implied_by`
stay each copy's own): per tag, right tags added, wrong tags added, tags lost, tags added on
answers labelled correct, and answers whose verdict moved, on "not read" (tune minus sides.yaml's
`read`) and "read" separately. A tag that gains right tags and adds no wrong one is the same belief
in every question's words; one that adds wrong tags or tells on correct answers has copies that are
question-specific wordings and must keep them apart.

Every chosen tag is widened at once (one reading, not one per tag: the machine is shared), so an
answer whose verdict moved is counted against each tag whose naming changed on it; an answer that
moved with no tag's naming changed is counted apart (`unattributed`). Figures only: nothing is
printed answer by answer. Held-out answers are never graded.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python benchmarks/freetext_shared_tells.py [--tags T,T]

`--tags` widens only those tags (default: every tag on two or more free-text questions) and grades
only the answers to the questions holding them. `--phrasings` (with `--tags`) then says which
phrasing does it: on each answer whose naming of a tag moved, the question's own copy is graded
again with each phrasing of the other copies added alone, and each phrasing's firings are counted
(right / wrong tag, not read / read). A phrasing that never fires wrongly can go into the shared
entry; one that does stays with the questions that already hold it.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.grading.freetext.evaluation import Row, core_labelled, grade_rows  # noqa: E402
from app.grading.freetext.grader import grade_freetext  # noqa: E402
from app.packs.loader import Pack  # noqa: E402
from app.packs.rubric import Misconception  # noqa: E402
from app.packs.schema import FreeText  # noqa: E402

COLUMNS = ("right+", "wrong+", "lost", "on-correct+", "moved")


def shared_tags(pack: Pack) -> dict[str, list[str]]:
    """Tag -> the free-text questions whose rubric holds it, for tags on two or more."""
    holders: dict[str, list[str]] = defaultdict(list)
    for item in pack.questions:
        if isinstance(item.question, FreeText):
            for tell in item.question.rubric.misconceptions:
                holders[tell.tag].append(item.question.id)
    return {tag: qids for tag, qids in holders.items() if len(qids) > 1}


def union_of(copies: list[Misconception]) -> dict[str, list[str]]:
    """Every copy's phrasings, each once, in the order the copies list them."""
    return {
        field: list(dict.fromkeys(p for copy in copies for p in getattr(copy, field)))
        for field in ("any", "negated")
    }


def widened(pack: Pack, tags: set[str]) -> Pack:
    """The pack with each copy of `tags` reading the union of its copies' phrasings (built
    without validation: a union may pass a field's bound of 60 phrasings)."""
    copies: dict[str, list[Misconception]] = defaultdict(list)
    for item in pack.questions:
        if isinstance(item.question, FreeText):
            for tell in item.question.rubric.misconceptions:
                copies[tell.tag].append(tell)
    unions = {tag: union_of(copies[tag]) for tag in tags}
    items = []
    for item in pack.questions:
        question = item.question
        if isinstance(question, FreeText):
            tells = [
                t.model_copy(update=unions[t.tag]) if t.tag in tags else t
                for t in question.rubric.misconceptions
            ]
            rubric = question.rubric.model_copy(update={"misconceptions": tells})
            question = question.model_copy(update={"rubric": rubric})
        items.append(dataclasses.replace(item, question=question))
    return dataclasses.replace(pack, questions=tuple(items))


def moves(before: Row, after: Row, tags: set[str]) -> dict[str, Counter[str]]:
    """Per tag whose naming changed on this answer: what changed (COLUMNS)."""
    found: dict[str, Counter[str]] = {}
    for tag in tags & (set(before.named_tags) ^ set(after.named_tags)):
        counts: Counter[str] = Counter()
        added = tag in after.named_tags
        right = tag in before.expected_tags
        counts["right+" if added and right else "wrong+" if added else "lost"] += 1
        counts["on-correct+"] += added and before.label == "correct"
        counts["moved"] += before.verdict != after.verdict
        found[tag] = counts
    return found


def tally(pairs: list[tuple[Row, Row]], tags: set[str]) -> tuple[dict[str, Counter[str]], int, int]:
    """Per tag counts, answers moved with no tag's naming changed, answers moved in all."""
    per_tag: dict[str, Counter[str]] = defaultdict(Counter)
    unattributed = moved = 0
    for before, after in pairs:
        changed = moves(before, after, tags)
        for tag, counts in changed.items():
            per_tag[tag].update(counts)
        verdict_moved = before.verdict != after.verdict
        moved += verdict_moved
        unattributed += verdict_moved and not changed
    return per_tag, unattributed, moved


def table(name: str, pairs: list[tuple[Row, Row]], holders: dict[str, list[str]]) -> None:
    per_tag, unattributed, moved = tally(pairs, set(holders))
    head = f"{len(pairs)} answers; verdicts moved {moved}, unattributed {unattributed}"
    print(f"\n### {name} ({head})")
    print(f"| tag (questions) | {' | '.join(COLUMNS)} |")
    print("|---|" + "---|" * len(COLUMNS))
    for tag in sorted(holders):
        counts = per_tag.get(tag, Counter())
        cells = " | ".join(str(counts[c]) for c in COLUMNS)
        print(f"| {tag} ({len(holders[tag])}) | {cells} |")
    totals = Counter[str]()
    for counts in per_tag.values():
        totals.update(counts)
    print(f"| all tags | {' | '.join(str(totals[c]) for c in COLUMNS)} |")


def with_phrasing(question: FreeText, tag: str, phrasing: str, kind: str) -> FreeText:
    """The question with its copy of `tag` reading one more phrasing (of `kind`)."""
    tells = [
        t.model_copy(update={kind: [*getattr(t, kind), phrasing]}) if t.tag == tag else t
        for t in question.rubric.misconceptions
    ]
    rubric = question.rubric.model_copy(update={"misconceptions": tells})
    return question.model_copy(update={"rubric": rubric})


def names(question: FreeText, answer: str, tag: str) -> bool:
    """Whether the rules alone name `tag` on the answer (as evaluation.grade_rows grades)."""
    result = grade_freetext(
        question, answer, second_opinion=False, neighbours=False, tell_caps=False,
        tag_classifier=False,
    )  # fmt: skip
    return tag in result.misconceptions


def firings(
    pack: Pack, pairs: list[tuple[Row, Row]], tags: set[str], read: frozenset[str]
) -> dict[tuple[str, str, str], Counter[str]]:
    """(tag, kind, phrasing) -> right / wrong firings on not read / read, by question, over the
    answers whose naming of the tag moved, each foreign phrasing added alone to the question's
    copy."""
    questions = {i.question.id: i.question for i in pack.questions}
    copies: dict[str, list[Misconception]] = defaultdict(list)
    for q in questions.values():
        for tell in q.rubric.misconceptions if isinstance(q, FreeText) else []:
            copies[tell.tag].append(tell)
    found: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
    for before, after in pairs:
        question = questions[before.question_id]
        assert isinstance(question, FreeText)
        side = "read" if before.persona in read else "not read"
        for tag in tags & (set(before.named_tags) ^ set(after.named_tags)):
            (own,) = [t for t in question.rubric.misconceptions if t.tag == tag]
            for kind, phrasings in union_of(copies[tag]).items():
                for phrasing in (p for p in phrasings if p not in getattr(own, kind)):
                    if names(with_phrasing(question, tag, phrasing, kind), before.answer, tag):
                        right = "right" if tag in before.expected_tags else "wrong"
                        found[tag, kind, phrasing][f"{right} {side} {question.id}"] += 1
    return found


def origins(pack: Pack, tag: str, kind: str, phrasing: str) -> list[str]:
    return [
        i.question.id
        for i in pack.questions
        if isinstance(i.question, FreeText)
        for t in i.question.rubric.misconceptions
        if t.tag == tag and phrasing in getattr(t, kind)
    ]


def print_firings(pack: Pack, found: dict[tuple[str, str, str], Counter[str]]) -> None:
    print(
        "\n### phrasings of other copies that fire (right / wrong, not read; right / wrong, read)"
    )
    for (tag, kind, phrasing), counts in sorted(found.items()):
        held = ",".join(origins(pack, tag, kind, phrasing))
        on = sorted({key.split(" ")[-1] for key in counts})
        cells = [
            f"on {q} " + "; ".join(
                "/".join(str(counts[f"{r} {s} {q}"]) for r in ("right", "wrong"))
                for s in ("not read", "read")
            )
            for q in on
        ]  # fmt: skip
        print(f"- {tag} {kind} (in {held}): {', '.join(cells)}: {phrasing}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tags", default="", help="comma-separated; default every shared tag")
    ap.add_argument("--phrasings", action="store_true", help="which phrasing fires (with --tags)")
    a = ap.parse_args()
    core = core_labelled()
    holders = shared_tags(core.pack)
    if a.tags:
        holders = {tag: holders[tag] for tag in a.tags.split(",")}
    questions = {qid for qids in holders.values() for qid in qids}
    answers = [x for x in core.tune_answers if x.question_id in questions]
    tag_map, sides = core.tag_map, core.sides
    before, _ = grade_rows(core.pack, answers, tag_map=tag_map, sides=sides)
    after, _ = grade_rows(widened(core.pack, set(holders)), answers, tag_map=tag_map, sides=sides)
    pairs = list(zip(before, after, strict=True))
    read = core.sides.read
    print(f"{len(holders)} tags on two or more questions; rules alone, tune only")
    table("not read", [p for p in pairs if p[0].persona not in read], holders)
    table("read", [p for p in pairs if p[0].persona in read], holders)
    if a.phrasings:
        print_firings(core.pack, firings(core.pack, pairs, set(holders), read))


if __name__ == "__main__":
    main()
