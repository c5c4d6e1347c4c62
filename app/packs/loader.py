"""Load packs from folders into validated objects, collecting every problem on the way.

Loading never stops at the first error (PrairieLearn's lesson): an author fixing a pack
wants the whole list, each with its file and line. A pack with any problem is not served.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from app.packs.rubric import PointedError
from app.packs.schema import PackMeta, Question
from app.packs.shared import (
    SHARED_FILE,
    ReferenceProblem,
    SharedEntries,
    read_shared,
    reference_positions,
    resolve_references,
)
from app.packs.yamlfiles import YamlDoc, YamlFileError, read_yaml

META_FILE = "pack.yaml"
MAX_QUESTIONS = 1_000
_question_adapter: TypeAdapter[Question] = TypeAdapter(Question)


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass(frozen=True)
class LoadedQuestion:
    question: Question
    pack_id: str
    file: Path
    version: str  # content hash: attempts record which text they were graded against
    # Positions of the rubric's misconception entries written as `- shared: <tag>` (round 52:
    # kept so the publish path need not read the file again to find them).
    references: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Pack:
    meta: PackMeta
    path: Path
    questions: tuple[LoadedQuestion, ...]
    shared: SharedEntries = field(default_factory=SharedEntries)  # its `_misconceptions.yaml`


@dataclass
class PackReport:
    pack: Pack | None = None
    problems: list[Problem] = field(default_factory=list)


def _problems_from(
    err: ValidationError, doc: YamlDoc, file: str, skip: Collection[tuple[int | str, ...]] = ()
) -> list[Problem]:
    problems = []
    for item in err.errors():
        loc = tuple(p for p in item["loc"] if not _is_union_tag(p))
        if any(loc[: len(at)] == at for at in skip):
            continue
        message = f"{'.'.join(str(p) for p in loc) or '(top level)'}: {item['msg']}"
        cause = item.get("ctx", {}).get("error")
        if isinstance(cause, PointedError):  # the line of the node it names, not the field's
            loc += cause.at
        if item["type"] in ("union_tag_invalid", "union_tag_not_found"):
            loc = ("type",)
            message = f"type: {item['msg']}"
        if item["type"] == "union_tag_not_found":  # pydantic: "Unable to extract tag using..."
            message = f"missing field `type` (one of: {', '.join(sorted(_TYPE_TAGS))})"
        problems.append(Problem(file, doc.line_of(loc), message))
    return problems


def _is_union_tag(part: int | str) -> bool:
    # pydantic puts the discriminator value ('free-text') into the path; it is not a key.
    return isinstance(part, str) and part in _TYPE_TAGS


_TYPE_TAGS = {
    "single-choice",
    "multiple-choice",
    "true-false",
    "ordering",
    "predict-output",
    "free-text",
    "code",
    "code-fix",
}


def _load_meta(folder: Path, report: PackReport) -> PackMeta | None:
    meta_path = folder / META_FILE
    if not meta_path.is_file():
        report.problems.append(Problem(str(meta_path), 1, f"missing {META_FILE}"))
        return None
    try:
        doc = read_yaml(meta_path)
        return PackMeta.model_validate(doc.data)
    except YamlFileError as exc:
        report.problems.append(Problem(str(meta_path), exc.line, exc.message))
    except ValidationError as exc:
        report.problems.extend(_problems_from(exc, doc, str(meta_path)))
    return None


def _load_question(
    path: Path, meta: PackMeta | None, shared: SharedEntries, report: PackReport
) -> LoadedQuestion | None:
    unresolved: list[ReferenceProblem] = []
    try:
        doc = read_yaml(path)
        references = reference_positions(doc.data)
        unresolved = resolve_references(doc, shared)
        report.problems.extend(Problem(str(path), p.line, p.message) for p in unresolved)
        question = _question_adapter.validate_python(doc.data)
    except YamlFileError as exc:
        report.problems.append(Problem(str(path), exc.line, exc.message))
        return None
    except ValidationError as exc:
        said = {p.at for p in unresolved}  # an unresolved reference fails again: said once
        report.problems.extend(_problems_from(exc, doc, str(path), skip=said))
        return None
    if question.id != path.stem:
        report.problems.append(
            Problem(str(path), doc.line_of(("id",)), f"id {question.id!r} must match file name")
        )
    if meta is not None:
        _check_references(question, meta, doc, str(path), report)
    version = question_version(path.read_bytes(), shared.digest_bytes if references else b"")
    pack_id = meta.id if meta else ""
    return LoadedQuestion(question, pack_id, path, version, references)


def question_version(question: bytes, shared: bytes = b"") -> str:
    """The content hash attempts record: the question file's bytes, and the pack's shared
    misconception file's when the question refers to it (a changed shared entry changes how
    the question grades); a question that refers to none keeps its pre-round-51 hash."""
    return hashlib.sha256(question + shared).hexdigest()[:12]


def _check_references(
    question: Question, meta: PackMeta, doc: YamlDoc, file: str, report: PackReport
) -> None:
    for key, value, known in (
        ("section", question.section, {s.id for s in meta.sections}),
        ("topic", question.topic, {t.id for t in meta.topics}),
    ):
        if value not in known:
            message = (
                f"{key}: {value!r} is not declared in {META_FILE} ({', '.join(sorted(known))})"
            )
            report.problems.append(Problem(file, doc.line_of((key,)), message))


def load_pack(folder: Path) -> PackReport:
    """Validate one pack folder; `report.pack` is set only when there are no problems."""
    report = PackReport()
    if not folder.is_dir():
        report.problems.append(Problem(str(folder), 1, "not a directory"))
        return report
    meta = _load_meta(folder, report)
    shared, problems = read_shared(folder)
    report.problems += [Problem(str(folder / SHARED_FILE), p.line, p.message) for p in problems]
    files = sorted(p for p in folder.glob("*.yaml") if p.name not in (META_FILE, SHARED_FILE))
    if len(files) > MAX_QUESTIONS:
        report.problems.append(Problem(str(folder), 1, f"more than {MAX_QUESTIONS} questions"))
        return report
    loaded = [q for p in files if (q := _load_question(p, meta, shared, report))]
    if not files:
        report.problems.append(Problem(str(folder), 1, "pack has no question files"))
    if not report.problems and meta is not None:
        report.pack = Pack(meta=meta, path=folder, questions=tuple(loaded), shared=shared)
    return report
