"""Misconception entries a pack defines once and its questions' rubrics refer to by tag.

One belief often shows on several questions (the core pack held 53 tags in two to seven copies
each, round 51): a phrasing added to one copy never reached the others, and the copies' feedback
and caps drifted apart. A pack may define such an entry once in `_misconceptions.yaml` (a name no
question file can have: question ids are slugs) and a rubric refers to it with
`- shared: <tag>`, optionally adding phrasings of its own or a different cap.

References are resolved on the raw YAML before the question is validated, so everything
downstream (grader, artefacts, self-test) sees an ordinary misconception, and a pack without the
file is read exactly as before. Each problem is reported with its file and line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator

from app.packs.rubric import (
    SLUG,
    Misconception,
    PointedError,
    Strict,
    check_affirmative,
    check_patterns,
)
from app.packs.yamlfiles import YamlDoc, YamlFileError, read_yaml_with_bytes

SHARED_FILE = "_misconceptions.yaml"
# The core pack would need 53 if every tag on two or more questions were shared; the file's
# size (256 KiB) and value count bound an uploaded one anyway.
MAX_SHARED = 200


class SharedMisconceptions(Strict):
    """The file: `misconceptions:`, entries as a rubric writes them, each tag defined once."""

    misconceptions: list[Misconception] = Field(min_length=1, max_length=MAX_SHARED)

    @field_validator("misconceptions")
    @classmethod
    def _defined_once(cls, entries: list[Misconception]) -> list[Misconception]:
        seen: set[str] = set()
        for n, entry in enumerate(entries):
            if entry.tag in seen:
                raise PointedError(f"misconception {entry.tag!r} is defined twice", at=(n, "tag"))
            seen.add(entry.tag)
        return entries


class Reference(Strict):
    """A rubric's use of a shared entry: its tag, and what this question adds or changes."""

    shared: str = Field(pattern=SLUG)
    any: list[str] = Field(default_factory=list, max_length=60)  # added to the shared ones
    negated: list[str] = Field(default_factory=list, max_length=60)
    cap: Literal["partial", "incorrect"] | None = None  # the shared cap when absent

    _valid_any = field_validator("any")(classmethod(lambda cls, v: check_affirmative(v)))
    _valid_neg = field_validator("negated")(classmethod(lambda cls, v: check_patterns(v)))


@dataclass(frozen=True)
class SharedEntries:
    """A pack's shared entries by tag; `broken` when its file did not validate (its problems
    are reported there, so a reference to it is not reported again as unknown)."""

    entries: Mapping[str, Misconception] = field(default_factory=dict)
    path: Path | None = None
    broken: bool = False
    # The file's bytes, read once per load: every referring question's version hashes them
    # (loader.question_version), so they are not read again per question.
    digest_bytes: bytes = b""


@dataclass(frozen=True)
class ReferenceProblem:
    line: int
    message: str
    at: tuple[int | str, ...] = ()  # the rubric entry it concerns, when it concerns one


def read_shared(folder: Path) -> tuple[SharedEntries, list[ReferenceProblem]]:
    """The folder's shared entries (none when it has no SHARED_FILE), and the file's problems."""
    path = folder / SHARED_FILE
    if not path.exists():
        return SharedEntries(), []
    try:
        doc, read = read_yaml_with_bytes(path)  # parsed and hashed: the same bytes, read once
        parsed = SharedMisconceptions.model_validate(doc.data)
    except YamlFileError as exc:
        return SharedEntries(path=path, broken=True), [ReferenceProblem(exc.line, exc.message)]
    except ValidationError as exc:
        broken = SharedEntries(path=path, broken=True, digest_bytes=read)
        return broken, _problems(exc, doc, ())
    entries = {m.tag: m for m in parsed.misconceptions}
    return SharedEntries(entries, path, digest_bytes=read), []


def _problems(
    err: ValidationError, doc: YamlDoc, at: tuple[int | str, ...]
) -> list[ReferenceProblem]:
    found = []
    for item in err.errors():
        loc = tuple(item["loc"])
        message = f"{'.'.join(str(p) for p in (*at, *loc)) or '(top level)'}: {item['msg']}"
        cause = item.get("ctx", {}).get("error")
        if isinstance(cause, PointedError):
            loc += cause.at
        found.append(ReferenceProblem(doc.line_of((*at, *loc)), message))
    return found


def resolve_references(doc: YamlDoc, shared: SharedEntries) -> list[ReferenceProblem]:
    """Replace each `- shared: <tag>` of the question's rubric in `doc.data` by the entry it
    names, with the reference's phrasings added and its cap; every problem with its line."""
    tells = _rubric_misconceptions(doc.data)
    if tells is None:
        return []
    defined = {t.get("tag") for t in tells if isinstance(t, dict) and "shared" not in t}
    problems: list[ReferenceProblem] = []
    for n, tell in enumerate(tells):
        if isinstance(tell, dict) and "shared" in tell:
            at = ("rubric", "misconceptions", n)
            resolved = _resolved(tell, shared, defined, doc, at, problems)
            tells[n] = resolved if resolved is not None else tell
    return problems


def reference_positions(data: Any) -> frozenset[int]:
    """Positions of the question's rubric misconception entries that are references (read on
    the raw YAML, before `resolve_references` replaces them by the entries they name)."""
    tells = _rubric_misconceptions(data)
    return frozenset(n for n, t in enumerate(tells or []) if isinstance(t, dict) and "shared" in t)


def _rubric_misconceptions(data: Any) -> list[Any] | None:
    rubric = data.get("rubric") if isinstance(data, dict) else None
    tells = rubric.get("misconceptions") if isinstance(rubric, dict) else None
    return tells if isinstance(tells, list) else None


def _resolved(
    tell: dict[str, Any],
    shared: SharedEntries,
    defined: set[Any],
    doc: YamlDoc,
    at: tuple[int | str, ...],
    problems: list[ReferenceProblem],
) -> dict[str, Any] | None:
    try:
        reference = Reference.model_validate(tell)
    except ValidationError as exc:
        problems += [dataclasses.replace(p, at=at) for p in _problems(exc, doc, at)]
        return None
    line = doc.line_of((*at, "shared"))
    tag = reference.shared
    if tag in defined:
        message = f"misconception {tag!r} is both defined in this rubric and referred to (shared)"
        problems.append(ReferenceProblem(line, f"{message}; keep one", at))
    elif tag not in shared.entries:
        problems.append(ReferenceProblem(line, _unknown(tag, shared), at))
    else:
        return _merged(shared.entries[tag], reference)
    return None


def _unknown(tag: str, shared: SharedEntries) -> str:
    if shared.broken:
        return f"shared misconception {tag!r}: {SHARED_FILE} has problems (reported there)"
    if shared.path is None:
        return f"shared misconception {tag!r}: the pack has no {SHARED_FILE}"
    known = ", ".join(sorted(shared.entries)[:20])
    return f"shared misconception {tag!r} is not defined in {SHARED_FILE} (defined: {known})"


def _merged(entry: Misconception, reference: Reference) -> dict[str, Any]:
    """The shared entry as a rubric would write it, with the reference's additions."""
    merged = entry.model_dump()
    for kind in ("any", "negated"):
        merged[kind] = list(dict.fromkeys([*merged[kind], *getattr(reference, kind)]))
    if reference.cap is not None:
        merged["cap"] = reference.cap
    return merged
