"""Shared test helpers for the instructor area: a fake code grader, zips, an instructor."""

from __future__ import annotations

import asyncio
import io
import threading
import zipfile
from pathlib import Path

from sqlmodel import Session

from app.grading.results import GradeResult
from app.models.users import User
from app.packs.schema import Code, CodeFix

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "example-pack"


class FakeGrader:
    """Stands in for the sandbox: the reference passes, each wrong solution gets its tag."""

    def __init__(self, tags: dict[str, list[str]] | None = None, fail: bool = False) -> None:
        self.tags = tags  # labelled tag -> tags reported instead
        self.fail = fail
        self.calls = 0

    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        self.calls += 1
        if self.fail:
            raise RuntimeError("worker pool is down")
        if source == question.reference:
            return GradeResult("correct", 1.0)
        wrong = next((w for w in question.wrong if w.code == source), None)
        if wrong is None:
            return GradeResult("incorrect", 0.0, misconceptions=["unknown"])
        tags = (self.tags or {}).get(wrong.tag, [wrong.tag])
        return GradeResult("incorrect", 0.0, misconceptions=tags)


class GatedGrader(FakeGrader):
    """Holds every code grade until the test opens the gate, so a publication stays in its
    self-test while others are started."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        await asyncio.to_thread(self.gate.wait, 30)  # bounded: a test never hangs
        return await super().grade(question, source)


def zip_folder(folder: Path, edits: dict[str, str] | None = None, prefix: str = "") -> bytes:
    """Zip a pack folder; `edits` replaces (or adds) files by name before zipping."""
    files = {p.name: p.read_text() for p in sorted(folder.iterdir()) if p.is_file()}
    files.update(edits or {})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(prefix + name, text)
    return buffer.getvalue()


def make_user(session: Session, email: str, role: str = "instructor") -> User:
    user = User(email=email, display_name=email.split("@")[0], is_guest=False, role=role)
    session.add(user)
    session.commit()
    session.refresh(user)
    return user
