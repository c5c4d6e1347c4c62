"""Unpack an uploaded pack zip into a staging folder, refusing anything hostile or odd.

A zip is attacker-controlled input: entry names can climb out of the target (`../`, `/etc`,
`C:\\`), entries can be symlinks, and a few kilobytes can inflate to gigabytes. Every entry
is checked before a byte is written, and the inflated size is counted while writing (the
sizes a zip declares can lie). Only the shape the loader reads is accepted: `pack.yaml` and
question files, at the top level or inside one folder, plus Markdown notes.
"""

from __future__ import annotations

import io
import re
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

ALLOWED_SUFFIXES = (".yaml", ".md")
IGNORED = re.compile(r"(^|/)(__MACOSX/|\.DS_Store$)")  # macOS Finder adds these to every zip
CHUNK = 64 * 1024


class ArchiveRefused(Exception):
    """The upload is not a pack we will unpack; `problems` says why, entry by entry."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Limits:
    max_compressed: int
    max_unpacked: int
    max_files: int


def _entry_problem(info: zipfile.ZipInfo) -> str | None:
    name = info.filename
    parts = PurePosixPath(name.replace("\\", "/")).parts
    if name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name):
        return f"{name}: absolute paths are not allowed"
    if ".." in parts:
        return f"{name}: path leaves the pack folder ('..' is not allowed)"
    if "\\" in name:
        return f"{name}: backslashes are not allowed in paths"
    if stat.S_ISLNK(info.external_attr >> 16):
        return f"{name}: symbolic links are not allowed"
    if info.flag_bits & 0x1:
        return f"{name}: encrypted entries are not allowed"
    if info.is_dir():
        return None
    if name.endswith(".yml"):
        return f"{name}: rename to .yaml (only .yaml files are read)"
    if not name.endswith(ALLOWED_SUFFIXES):
        return f"{name}: only .yaml question files and .md notes are allowed"
    return None


def _members(archive: zipfile.ZipFile, limits: Limits) -> list[zipfile.ZipInfo]:
    infos = [i for i in archive.infolist() if not IGNORED.search(i.filename)]
    files = [i for i in infos if not i.is_dir()]
    if len(files) > limits.max_files:
        raise ArchiveRefused([f"the zip holds {len(files)} files; the limit is {limits.max_files}"])
    problems = [p for i in infos if (p := _entry_problem(i))]
    names = [i.filename for i in files]
    problems += [
        f"{n}: appears twice in the zip" for n in sorted({n for n in names if names.count(n) > 1})
    ]
    declared = sum(i.file_size for i in files)
    if declared > limits.max_unpacked:
        problems.append(
            f"the files unpack to {declared:,} bytes; the limit is {limits.max_unpacked:,}"
        )
    if problems:
        raise ArchiveRefused(problems)
    return files


def _pack_root(files: list[zipfile.ZipInfo]) -> str:
    """'' when pack.yaml is at the top, 'folder/' when everything sits in one folder."""
    paths = [PurePosixPath(i.filename) for i in files]
    if PurePosixPath("pack.yaml") in paths:
        prefix = ""
    else:
        tops = {p.parts[0] for p in paths}
        if len(tops) != 1 or PurePosixPath(next(iter(tops)), "pack.yaml") not in paths:
            raise ArchiveRefused(["pack.yaml not found at the top of the zip or in its one folder"])
        prefix = next(iter(tops)) + "/"
    nested = [str(p) for p in paths if len(p.parts) != (2 if prefix else 1)]
    if nested:
        raise ArchiveRefused([f"{n}: sub-folders are not allowed in a pack" for n in nested])
    return prefix


def _copy(archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, budget: int) -> int:
    """Inflate one entry, stopping as soon as the real size passes the remaining budget."""
    written = 0
    with archive.open(info) as source, target.open("xb") as sink:
        while chunk := source.read(CHUNK):
            written += len(chunk)
            if written > budget or written > info.file_size:
                raise ArchiveRefused([f"{info.filename}: inflates beyond its declared size"])
            sink.write(chunk)
    return written


def extract_pack(data: bytes, staging: Path, limits: Limits) -> Path:
    """Unpack `data` into the empty folder `staging`; return the folder holding pack.yaml."""
    if len(data) > limits.max_compressed:
        raise ArchiveRefused(
            [f"the upload is larger than the limit of {limits.max_compressed:,} bytes"]
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise ArchiveRefused(["the upload is not a zip file"]) from None
    with archive:
        files = _members(archive, limits)
        prefix = _pack_root(files)
        budget = limits.max_unpacked
        for info in files:
            target = staging / info.filename.removeprefix(prefix)
            if not target.resolve().is_relative_to(staging.resolve()):
                raise ArchiveRefused([f"{info.filename}: path leaves the pack folder"])
            try:
                budget -= _copy(archive, info, target, budget)
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as exc:
                raise ArchiveRefused([f"{info.filename}: damaged entry ({exc})"]) from None
    return staging
