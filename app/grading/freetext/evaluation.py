"""Measure the free-text grader against answers labelled blind, grouped by writer persona.

A grader tuned on its own labelled set learns to trust itself; what matters is how it does
on answers written and labelled by other people, in voices it was not tuned on. Labelled
files name their persona (terse expert, PyTorch-first, ...); personas are split into the
ones we tune on and the held-out ones, and every figure is reported per persona, per
question and per side. Labellers invent misconception tags; a tag map kept with the
labelled data translates them to rubric tags (or marks them as not a misconception).
"""

from __future__ import annotations

import dataclasses
import hashlib
import statistics
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from app.grading.freetext.fitting import Evidence, evidence_of
from app.grading.freetext.grader import grade_freetext
from app.grading.freetext.labelled import LabelledAnswer, load_labelled
from app.grading.results import GradeResult
from app.packs.loader import Pack
from app.packs.rubric import Rubric
from app.packs.schema import FreeText

NOT_LABELLED = ("golden", "meta")  # folders beside the labelled sets: golden cases, config
ORIGINAL = "original"  # persona of the labelled answers written alongside the rubrics


@dataclass(frozen=True)
class TagMap:
    """Labeller tag -> rubric tags; an empty tuple marks a tag as no misconception."""

    tags: dict[str, tuple[str, ...]]
    per_question: dict[tuple[str, str], tuple[str, ...]]

    def rubric_tags(self, question_id: str, tag: str) -> tuple[str, ...]:
        if (question_id, tag) in self.per_question:
            return self.per_question[(question_id, tag)]
        return self.tags.get(tag, (tag,))


def _as_tags(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(str(v) for v in value)


def load_tag_map(path: Path | None) -> TagMap:
    """`{tag: rubric-tag | [tags] | null | {question-id: ...}}` from YAML (missing file: {})."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) if path and path.is_file() else {}
    tags: dict[str, tuple[str, ...]] = {}
    per_question: dict[tuple[str, str], tuple[str, ...]] = {}
    for tag, value in (raw or {}).items():
        if isinstance(value, dict):
            for question_id, mapped in value.items():
                per_question[(str(question_id), str(tag))] = _as_tags(mapped)
        else:
            tags[str(tag)] = _as_tags(value)
    return TagMap(tags, per_question)


@dataclass(frozen=True)
class Sides:
    """Which personas rubrics may be tuned on; every other persona is held out."""

    tune: frozenset[str]
    dev_heldout: frozenset[str]
    read: frozenset[str] = frozenset()  # tune personas read answer by answer this round

    def side(self, persona: str) -> str:
        if persona in self.tune:
            return "tune"
        return "held-out (dev)" if persona in self.dev_heldout else "held-out"


def load_sides(path: Path) -> Sides:
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}
    raw = raw or {}
    return Sides(
        frozenset(raw.get("tune", [ORIGINAL])),
        frozenset(raw.get("dev_heldout", [])),
        frozenset(raw.get("read", [])),
    )


def load_persona_answers(path: Path) -> tuple[list[LabelledAnswer], list[str]]:
    """Labelled answers of a file or folder (and its sub-folders), with their personas."""
    if not path.is_dir():
        return load_labelled(path)
    answers, problems = load_labelled(path)
    for folder in sorted(p for p in path.iterdir() if p.is_dir() and p.name not in NOT_LABELLED):
        found, issues = load_persona_answers(folder)
        answers += found
        problems += issues
    return answers, problems


@dataclass(frozen=True)
class Row:
    """One labelled answer graded: labels (tags mapped to rubric tags) against the grader."""

    question_id: str
    persona: str
    side: str
    label: str
    verdict: str
    expected_tags: tuple[str, ...]
    named_tags: tuple[str, ...]
    ms: float
    answer: str
    source: str
    evidence: Evidence | None = None  # what grading read, for fitted lines (fitting.py)
    off_topic: bool = False  # the rules read it as about something else (topic.py)

    @property
    def exact(self) -> bool:
        return self.label == self.verdict

    @property
    def binary(self) -> bool:
        return (self.label == "correct") == (self.verdict == "correct")

    @property
    def tags_named(self) -> int:
        return sum(t in self.named_tags for t in self.expected_tags)

    @property
    def false_tell_on_correct(self) -> bool:
        return self.label == "correct" and bool(self.named_tags)


def mapped_tags(tag_map: TagMap, question_id: str, tags: Iterable[str]) -> tuple[str, ...]:
    found: list[str] = []
    for tag in tags:
        found += [t for t in tag_map.rubric_tags(question_id, tag) if t not in found]
    return tuple(found)


def free_text_questions(pack: Pack) -> dict[str, FreeText]:
    """The pack's free-text questions by id (what grading, training and the benchmarks read)."""
    return {q.question.id: q.question for q in pack.questions if isinstance(q.question, FreeText)}


def free_text_rubrics(pack: Pack) -> dict[str, Rubric]:
    """The pack's free-text rubrics by question id."""
    return {qid: question.rubric for qid, question in free_text_questions(pack).items()}


def grade_rows(
    pack: Pack, answers: list[LabelledAnswer], *, tag_map: TagMap, sides: Sides, repeat: int = 1
) -> tuple[list[Row], list[str]]:
    """Grade every answer (its time: the median of `repeat` gradings); unknown questions
    are reported, not graded."""
    questions = free_text_questions(pack)
    rows, problems = [], []
    for answer in answers:
        question = questions.get(answer.question_id)
        if question is None:
            problems.append(f"{answer.source}: no free-text question {answer.question_id!r}")
            continue
        persona = answer.persona or ORIGINAL
        result, ms = _timed(question, answer.answer, repeat)
        expected = mapped_tags(tag_map, question.id, answer.misconceptions)
        rows.append(Row(
            question.id, persona, sides.side(persona), answer.verdict, result.verdict,
            expected, tuple(result.misconceptions), ms, answer.answer, answer.source,
            evidence_of(question.rubric, result), bool(result.details.get("off_topic")),
        ))  # fmt: skip
    return rows, problems


def _timed(question: FreeText, answer: str, repeat: int) -> tuple[GradeResult, float]:
    times = []
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        # the rules alone
        result = grade_freetext(
            question,
            answer,
            second_opinion=False,
            neighbours=False,
            tell_caps=False,
            tag_classifier=False,
        )
        times.append((time.perf_counter() - start) * 1000)
    return result, statistics.median(times)


@dataclass(frozen=True)
class Figures:
    total: int
    exact: int
    binary: int
    tags_expected: int
    tags_named: int
    correct_labelled: int
    false_tells_on_correct: int
    p50_ms: float

    def line(self, name: str) -> str:
        def pct(n: int, d: int) -> str:
            return f"{n / d:6.1%} ({n}/{d})" if d else "    - (0/0)"

        return (
            f"{name:<30} n={self.total:<4} exact {pct(self.exact, self.total)}  "
            f"correct-vs-not {pct(self.binary, self.total)}  "
            f"tells named {pct(self.tags_named, self.tags_expected)}  "
            f"false tells on correct {pct(self.false_tells_on_correct, self.correct_labelled)}"
            f"  p50 {self.p50_ms:.2f} ms"
        )


def figures(rows: list[Row]) -> Figures:
    correct = [r for r in rows if r.label == "correct"]
    return Figures(
        total=len(rows),
        exact=sum(r.exact for r in rows),
        binary=sum(r.binary for r in rows),
        tags_expected=sum(len(r.expected_tags) for r in rows),
        tags_named=sum(r.tags_named for r in rows),
        correct_labelled=len(correct),
        false_tells_on_correct=sum(r.false_tell_on_correct for r in correct),
        p50_ms=statistics.median([r.ms for r in rows]) if rows else 0.0,
    )


@dataclass(frozen=True)
class CoreLabelled:
    """The core pack with every labelled answer to it, and which persona is on which side."""

    folder: Path
    pack: Pack
    answers: list[LabelledAnswer]
    sides: Sides
    tag_map: TagMap

    @property
    def tune_answers(self) -> list[LabelledAnswer]:
        """The answers of `tune` personas (the original set's carry no persona): all that
        tuning, training and a round's engineers may grade."""
        return [a for a in self.answers if (a.persona or ORIGINAL) in self.sides.tune]


def core_labelled() -> CoreLabelled:
    """The repository's labelled answers to the core pack (what the artefacts train on), read
    once per process while their files and the pack's are unchanged (core_fingerprint)."""
    from app.config import REPO_ROOT

    folder = REPO_ROOT / "tests" / "grading" / "freetext_labelled"
    pack_folder = REPO_ROOT / "questions" / "gradient-tape"
    core = cached_core_labelled(folder, pack_folder, core_fingerprint(folder, pack_folder))
    return dataclasses.replace(core, answers=list(core.answers))  # a caller's own list


def core_rules_rows() -> list[Row]:
    """The rules' reading (grade_rows: every learned part off) of every labelled answer to
    the core pack, graded once per process while the labelled files and the pack's are
    unchanged: the readings the artefacts' builds and freshness checks share (round 25; each
    used to grade the ~6,400 answers itself). Grader code cannot change within a process; a
    test that patches the grader must call grade_rows itself. Row.ms is the first reading's."""
    from app.config import REPO_ROOT

    folder = REPO_ROOT / "tests" / "grading" / "freetext_labelled"
    pack_folder = REPO_ROOT / "questions" / "gradient-tape"
    return list(cached_core_rules_rows(folder, pack_folder, core_fingerprint(folder, pack_folder)))


def core_fingerprint(*folders: Path) -> str:
    """sha256 of every file under the folders (path and bytes): labels, sides.yaml, the tag
    map, the pack's rubrics. Any edit gives a new key, so a cached reading is never stale."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(f"{path}\0{path.stat().st_size}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


@lru_cache(maxsize=4)  # the repository's; a test's folders do not evict it
def cached_core_labelled(folder: Path, pack_folder: Path, fingerprint: str) -> CoreLabelled:
    from app.packs.loader import load_pack

    pack = load_pack(pack_folder).pack
    if pack is None:
        raise RuntimeError("the core pack does not load")
    answers, _ = load_persona_answers(folder)
    sides = load_sides(folder / "meta" / "sides.yaml")
    return CoreLabelled(
        folder, pack, answers, sides, load_tag_map(folder / "meta" / "tag-map.yaml")
    )


@lru_cache(maxsize=4)  # the repository's; a test's folders do not evict it
def cached_core_rules_rows(folder: Path, pack_folder: Path, fingerprint: str) -> tuple[Row, ...]:
    core = cached_core_labelled(folder, pack_folder, fingerprint)
    rows, _ = grade_rows(core.pack, core.answers, tag_map=core.tag_map, sides=core.sides)
    return tuple(rows)
