"""What the learned tells' evidence guard (learned_evidence.py, round 26) costs and saves.

The learned parts' own leave-one-persona-out reading, over tune personas only: the rules'
rows of every tune answer, then the neighbours' tell (and the tag classifier's, and both in
the chain's order) with each persona's answers left out of training
(labelled_tag_classifier.left_out_readings) - with the guard and without it, in one run.
Printed for tune and for tune personas not read (sides.yaml `read`): exact, correct-vs-not,
named, false tells on answers labelled correct, and how many tells each adds (the labelled
one / another / on an answer labelled with none). Held-out personas are never loaded.
About 20 minutes on a busy shared machine (grading ~6,500 answers by the rules is most of it).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/freetext_learned_evidence.py [--classifier]

`--classifier` adds the tag classifier (trained in each fold, with its inner folds: slow).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.grading.freetext import labelled_neighbours, labelled_tag_classifier  # noqa: E402
from app.grading.freetext.chain import cells  # noqa: E402
from app.grading.freetext.evaluation import (  # noqa: E402
    Row,
    core_labelled,
    figures,
    free_text_rubrics,
    grade_rows,
)
from app.grading.freetext.grader import has_evidence  # noqa: E402


def tune_rules_rows() -> tuple[list[Row], set[str]]:
    """The rules' rows of every tune answer (no learned part), and the personas read."""
    core = core_labelled()
    tune = core.tune_answers
    rows, _ = grade_rows(core.pack, tune, tag_map=core.tag_map, sides=core.sides)
    return [r for r in rows if r.side == "tune"], set(core.sides.read)


def readings(rows: Sequence[Row], guarded: bool, classifier: bool) -> dict[str, list[Any]]:
    """Name -> the rows with that learned reading, each persona left out of its training."""
    core = core_labelled()
    rubrics = free_text_rubrics(core.pack)
    always: Callable[..., bool] = lambda *_: True  # noqa: E731
    with (
        mock.patch.object(labelled_neighbours, "has_evidence", has_evidence if guarded else always),
        mock.patch.object(
            labelled_tag_classifier, "has_evidence", has_evidence if guarded else always
        ),
    ):
        if classifier:  # the neighbours and the classifier trained in each fold (slow)
            folds = labelled_tag_classifier.folds_by_persona(rows)
            return labelled_tag_classifier.left_out_readings(rows, rubrics, folds)
        return {"neighbours": labelled_neighbours.suggested_rows(rows, rubrics)}


def line(name: str, before: Sequence[Row], after: Sequence[Row]) -> str:
    a = figures(list(after))
    moved = [(b, x) for b, x in zip(before, after, strict=True) if x.named_tags != b.named_tags]
    right = sum(bool(set(x.named_tags) & set(b.expected_tags)) for b, x in moved)
    other = sum(bool(b.expected_tags) and not set(x.named_tags) & set(b.expected_tags)
                for b, x in moved)  # fmt: skip
    return (
        f"  {name:<44} exact {a.exact}, correct-vs-not {a.binary}, named {a.tags_named} of "
        f"{a.tags_expected}, false on correct {a.false_tells_on_correct} of {a.correct_labelled}"
        f"; tells added {len(moved)}: {right} labelled, {other} another, "
        f"{len(moved) - right - other} on none; cells i>p p>i p>c c>p i>c c>i "
        + " ".join(str(n) for n in cells(list(after)))
    )


def main(argv: list[str]) -> int:
    classifier = "--classifier" in argv
    rows, read = tune_rules_rows()
    return report(rows, read, classifier)


def report(rows: list[Row], read: set[str], classifier: bool) -> int:
    """Print each group's figures, rules alone and each reading without and with the guard."""
    groups = {
        "tune": lambda r: True,
        "tune, not read": lambda r: r.persona not in read,
    }
    found = {guarded: readings(rows, guarded, classifier) for guarded in (False, True)}
    for group, keep in groups.items():
        mine = [i for i, r in enumerate(rows) if keep(r)]
        before = [rows[i] for i in mine]
        print(f"== {group} ({len(mine)} answers), leave one persona out")
        print(line("rules alone", before, before))
        for name in found[False]:
            for guarded in (False, True):
                after = [found[guarded][name][i] for i in mine]
                label = f"{name}, {'with' if guarded else 'without'} the guard"
                print(line(label, before, after))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
