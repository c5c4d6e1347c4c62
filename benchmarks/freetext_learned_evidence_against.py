"""The learned tells the evidence keeps, this tree's reading against another commit's (round 28).

Every tune answer is graded as shipped (grade_freetext's default chain: the rules, then the
neighbours' artefact; `--classifier` turns the tag classifier on too). Each tell a learned part
suggests is checked for evidence twice: by this tree's learned_evidence.py (the tree's grading)
and by the one at REV (read from git), so one run reads both. Counted per group (tune, and tune
personas not read): suggested, kept at REV, kept here - each split into the labelled tag
(right), another tag, a tell on an answer labelled correct (false), and an answer labelled
wrong or partial with no tag. The artefacts were trained on these answers: the shipped reading
is in-sample. `--lopo` adds the neighbours' own leave-one-persona-out suggestions (round 26's
benchmarks/freetext_learned_evidence.py, unguarded, then both readings). Held-out personas are
never loaded.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/freetext_learned_evidence_against.py REV \
        [--classifier] [--lopo]
"""

from __future__ import annotations

import subprocess
import sys
import types
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from app.grading.freetext import grader  # noqa: E402
from app.grading.freetext.evaluation import core_labelled, free_text_questions, mapped_tags  # noqa: E402
from app.grading.freetext.normalise import Normalised, normalise  # noqa: E402
from app.packs.rubric import Misconception  # noqa: E402
from app.packs.schema import FreeText  # noqa: E402

KINDS = ("right", "another", "false on correct", "no tag")


def evidence_at(rev: str) -> Callable[[Misconception, Normalised], bool]:
    """has_evidence with learned_evidence.py as it is at `rev`."""
    path = "app/grading/freetext/learned_evidence.py"
    source = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    module = types.ModuleType(f"learned_evidence_at_{rev}")
    exec(compile(source, f"{rev}:{path}", "exec"), module.__dict__)

    here = grader.has_evidence

    def has(tell: Misconception, normalised: Normalised) -> bool:
        with mock.patch.object(grader, "loose_tell", module.loose_tell):
            return here(tell, normalised)

    return has


def kind(tag: str, label: str, expected: tuple[str, ...]) -> str:
    if tag in expected:
        return "right"
    if expected:
        return "another"
    return "false on correct" if label == "correct" else "no tag"


def shipped(then: Callable[..., bool], classifier: bool) -> list[tuple[str, str, bool, bool]]:
    """(persona, kind, kept then, kept here) of each tell a learned part suggests as shipped."""
    core = core_labelled()
    questions = free_text_questions(core.pack)
    here = grader.has_evidence
    out: list[tuple[str, str, bool, bool]] = []
    current: dict[str, Any] = {}

    def recorded(tell: Misconception, answer: str | Normalised) -> bool:
        normalised = normalise(answer) if isinstance(answer, str) else answer
        a = current["answer"]
        expected = mapped_tags(core.tag_map, a.question_id, a.misconceptions)
        now = here(tell, normalised)
        out.append((a.persona or "original", kind(tell.tag, a.verdict, expected),
                    then(tell, normalised), now))  # fmt: skip
        return now

    tune = core.tune_answers
    with mock.patch.object(grader, "has_evidence", recorded):
        for answer in tune:
            current["answer"] = answer
            question = questions[answer.question_id]
            grader.grade_freetext(question, answer.answer, tag_classifier=classifier or None)
    return out


def left_out(then: Callable[..., bool]) -> list[tuple[str, str, bool, bool]]:
    """The same for the neighbours' leave-one-persona-out suggestions (unguarded, then read)."""
    from freetext_learned_evidence import readings, tune_rules_rows

    rows, _ = tune_rules_rows()
    after = readings(rows, guarded=False, classifier=False)["neighbours"]
    out = []
    core = core_labelled()
    questions = [q.question for q in core.pack.questions if isinstance(q.question, FreeText)]
    tells = {(q.id, m.tag): m for q in questions for m in q.rubric.misconceptions}
    for before, row in zip(rows, after, strict=True):
        added = [t for t in row.named_tags if t not in before.named_tags]
        if not added:
            continue
        tell, normalised = tells[(row.question_id, added[0])], normalise(row.answer)
        out.append((row.persona, kind(added[0], row.label, before.expected_tags),
                    then(tell, normalised), grader.has_evidence(tell, normalised)))  # fmt: skip
    return out


def table(name: str, found: list[tuple[str, str, bool, bool]], read: set[str]) -> None:
    print(f"\n{name}\n| group | reading | " + " | ".join(KINDS) + " |")
    print("|---|---|" + "---|" * len(KINDS))
    for group, keep in (("tune", lambda p: True), ("not read", lambda p: p not in read)):
        mine = [f for f in found if keep(f[0])]
        for reading, pick in (("suggested", lambda f: True), ("kept at REV", lambda f: f[2]),
                              ("kept here", lambda f: f[3])):  # fmt: skip
            counts = Counter(f[1] for f in mine if pick(f))
            print(f"| {group} | {reading} | " + " | ".join(str(counts[k]) for k in KINDS) + " |")


def main(argv: list[str]) -> int:
    revs = [a for a in argv if not a.startswith("--")]
    if len(revs) != 1 or "--help" in argv or "-h" in argv:
        print("usage:", " ".join(__doc__.strip().splitlines()[-1].split()), file=sys.stderr)
        return 2
    rev = revs[0]
    then = evidence_at(rev)
    read = set(core_labelled().sides.read)
    classifier = "--classifier" in argv
    label = "neighbours and tag classifier" if classifier else "default chain (neighbours)"
    table(f"as shipped, {label}, in-sample; REV = {rev}", shipped(then, classifier), read)
    if "--lopo" in argv:
        table(f"neighbours leave one persona out; REV = {rev}", left_out(then), read)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
