"""Publish an uploaded pack: stage, validate, self-test, then switch it in atomically.

Nothing an upload does touches the published packs until every check has passed: the zip is
unpacked into a staging folder beside data_dir/packs (same filesystem, so the final move is
one atomic rename), loaded and self-tested there, and only then renamed to
data_dir/packs/<pack>/<version>/. Versions are never overwritten; the catalog serves the
highest version of each pack, and attempts keep the version hash they were graded against.
"""

from __future__ import annotations

import asyncio
import logging
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlmodel import Session, col, select

from app.config import Settings
from app.errors import Conflict, NotFound, PackInvalid
from app.grading.dispatch import CodeGraderLike
from app.grading.freetext.preload import read_uploaded
from app.models.publishing import PackVersion
from app.models.users import User
from app.packs.catalog import Catalog, pack_folders
from app.packs.loader import Pack, load_pack, question_version
from app.packs.schema import SLUG
from app.packs.shared import SHARED_FILE
from app.services.instructor.pack_archives import ArchiveRefused, Limits, extract_pack
from app.services.instructor.phrasing_timing import slow_phrasings
from app.services.instructor.publication_queue import Turn, one_publication
from app.services.instructor.selftest import SelfTestReport, has_code, run_selftest

log = logging.getLogger("tapequiz.publishing")

VERSION = re.compile(r"^\d+\.\d+\.\d+$")
KEPT = re.compile(r"^\d+\.\d+\.\d+(\.withdrawn)?$")  # every version folder, withdrawn too


@dataclass(frozen=True)
class Published:
    version: PackVersion
    selftest: SelfTestReport
    catalog: Catalog


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def published_root(settings: Settings) -> Path:
    return settings.data_dir / "packs"


def latest_folders(root: Path) -> list[Path]:
    """Per pack under `root`: its highest <version>/ folder, or the folder itself if flat."""
    folders = []
    for pack_dir in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
        if (pack_dir / "pack.yaml").exists():
            folders.append(pack_dir)  # a pack folder copied in by hand, unversioned
            continue
        versions = [v for v in pack_dir.iterdir() if VERSION.match(v.name) and v.is_dir()]
        if versions:
            folders.append(max(versions, key=lambda v: version_key(v.name)))
    return folders


def load_serving_catalog(settings: Settings) -> Catalog:
    """Built-in packs plus the latest published version of each uploaded pack."""
    catalog = Catalog()
    for folder in pack_folders(settings.packs_dir) + latest_folders(published_root(settings)):
        report = load_pack(folder)
        catalog.problems.extend(report.problems)
        if report.pack is not None:
            catalog.problems.extend(catalog.add(report.pack))
    return catalog


def _relative(problems: list[str], staging: Path) -> list[str]:
    # Authors need paths inside their zip, not the server's staging directory.
    prefix = str(staging) + "/"
    return [p.replace(prefix, "") for p in problems]


def _load_staged(staging: Path) -> Pack:
    report = load_pack(staging)
    if report.pack is None:
        problems = _relative([str(p) for p in report.problems], staging)
        raise PackInvalid(f"the pack has {len(problems)} problem(s)", problems)
    return report.pack


def _check_ownership(session: Session, pack: Pack, catalog: Catalog, user: User) -> None:
    meta = pack.meta
    existing = session.exec(
        select(PackVersion).where(PackVersion.pack_id == meta.id).order_by(col(PackVersion.id))
    ).all()
    if meta.id in catalog.packs and not existing:
        raise Conflict(f"pack id {meta.id!r} belongs to a built-in pack; choose another id")
    if existing and existing[0].published_by not in (None, user.id):
        raise Conflict(f"pack {meta.id!r} was published by another instructor")
    newest = max((v.version for v in existing), key=version_key, default=None)
    if newest is not None and version_key(meta.version) <= version_key(newest):
        raise Conflict(
            f"version {meta.version} of {meta.id!r} is not newer than the published"
            f" {newest}; raise `version` in pack.yaml"
        )


def _check_ids(pack: Pack, catalog: Catalog, staging: Path) -> None:
    clashes = []
    for item in pack.questions:
        owner = catalog.questions.get(item.question.id)
        if owner is not None and owner.pack_id != pack.meta.id:
            clashes.append(
                f"{item.file.relative_to(staging)}:1: question id {item.question.id!r}"
                f" is already used by pack {owner.pack_id!r}"
            )
    if clashes:
        raise PackInvalid(f"{len(clashes)} question id(s) are taken by other packs", clashes)


async def _self_test(
    pack: Pack, code_grader: CodeGraderLike | None, staging: Path
) -> SelfTestReport:
    slow = await slow_phrasings(pack)  # before any sample is graded with them
    if slow:
        problems = _relative(slow, staging)
        raise PackInvalid(
            f"{len(problems)} rubric phrasing(s) are too slow to grade with", problems
        )
    if has_code(pack) and code_grader is None:
        raise PackInvalid(
            "this pack has code questions and the code sandbox is off on this server, so"
            " they cannot be self-tested; a pack that is not self-tested is not published"
        )
    report = await run_selftest(pack, code_grader=code_grader)
    if not report.passed:
        failures = _relative([str(f) for f in report.failures], staging)
        raise PackInvalid(f"the self-test failed ({len(failures)} failing check(s))", failures)
    return report


def _move_into_place(staging: Path, settings: Settings, pack: Pack) -> Path:
    target = published_root(settings) / pack.meta.id / pack.meta.version
    if target.exists():
        raise Conflict(f"version {pack.meta.version} of {pack.meta.id!r} is already published")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging.rename(target)  # same filesystem: atomic, and never a half-copied pack
    return target


def _limits(settings: Settings) -> Limits:
    return Limits(
        max_compressed=settings.pack_upload_max_bytes,
        max_unpacked=settings.pack_unpacked_max_bytes,
        max_files=settings.pack_max_files,
    )


async def publish_zip(
    session: Session,
    *,
    settings: Settings,
    catalog: Catalog,
    user: User,
    data: bytes,
    code_grader: CodeGraderLike | None,
    on_step: Callable[[int], None] | None = None,
    turn: Turn | None = None,
) -> Published:
    """Validate, self-test and publish a zipped pack; raise PackInvalid/Conflict otherwise.

    `on_step(n)` is told when step n of publish_jobs.STEPS begins (unpack, validate,
    self-test, publish), so a background job can show where it is. Step 0 begins once every
    publication queued before this one has finished; `turn`, a Turn taken when the upload
    arrived, keeps upload order when the work starts later."""
    async with one_publication(turn or Turn()):
        stage_root = settings.data_dir / "staging"
        stage_root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix="upload-", dir=stage_root))
        try:
            return await _publish_staged(
                session, settings, catalog, user, data, code_grader, staging, on_step or _quiet
            )
        finally:
            shutil.rmtree(staging, ignore_errors=True)  # gone already when published (renamed)


async def _publish_staged(
    session: Session,
    settings: Settings,
    catalog: Catalog,
    user: User,
    data: bytes,
    code_grader: CodeGraderLike | None,
    staging: Path,
    on_step: Callable[[int], None],
) -> Published:
    on_step(0)
    try:
        extract_pack(data, staging, _limits(settings))
    except ArchiveRefused as exc:
        raise PackInvalid("the upload was refused", exc.problems) from None
    on_step(1)
    pack = _load_staged(staging)
    _check_ownership(session, pack, catalog, user)
    _check_ids(pack, catalog, staging)
    on_step(2)
    report = await _self_test(pack, code_grader, staging)
    on_step(3)
    row = PackVersion(
        pack_id=pack.meta.id,
        version=pack.meta.version,
        title=pack.meta.title,
        question_count=len(pack.questions),
        published_by=user.id,
    )
    session.add(row)
    session.flush()  # the row first: a failed move rolls it back, leaving no trace
    try:
        _move_into_place(staging, settings, pack)
    except BaseException:
        session.rollback()
        raise
    session.commit()
    session.refresh(row)
    # its questions' first answers read nothing more (round 31); off the event loop. The pack
    # is published by now: a failure here only leaves the reading to first answers.
    try:
        await asyncio.to_thread(read_uploaded, pack)
    except Exception:
        log.exception("reading the published pack %s ahead of its first answers", pack.meta.id)
    return Published(version=row, selftest=report, catalog=load_serving_catalog(settings))


def _quiet(step: int) -> None:
    """No one is watching the steps (the synchronous form and the API)."""


def list_versions(session: Session, *, pack_id: str | None = None) -> list[PackVersion]:
    query = select(PackVersion).order_by(col(PackVersion.pack_id), col(PackVersion.id).desc())
    if pack_id is not None:
        query = query.where(PackVersion.pack_id == pack_id)
    return list(session.exec(query).all())


@dataclass(frozen=True)
class QuestionVersion:
    question_id: str
    version: str  # the content hash attempts record
    pack_versions: list[str]  # published pack versions holding exactly this text
    text: str


def question_at_version(
    settings: Settings, catalog: Catalog, *, question_id: str, version: str
) -> QuestionVersion:
    """The question file an attempt was graded against, found by its content hash among the
    served pack and every kept version, so history stays readable after a new upload."""
    if not re.match(SLUG, question_id) or not re.fullmatch(r"[0-9a-f]{12}", version):
        raise NotFound("no such question version")  # ids come from URLs: never build odd paths
    folders = [item.file.parent for item in [catalog.questions.get(question_id)] if item]
    for pack_dir in published_root(settings).iterdir() if published_root(settings).is_dir() else []:
        folders += sorted(v for v in pack_dir.iterdir() if v.is_dir() and KEPT.match(v.name))
    found, text = [], ""
    for folder in folders:
        path = folder / f"{question_id}.yaml"
        if path.is_file() and version in versions_of(path):
            found.append(_label(folder.name))
            text = path.read_text(encoding="utf-8")
    if not found:
        raise NotFound(f"no kept version {version[:16]!r} of question {question_id[:80]!r}")
    return QuestionVersion(question_id, version, sorted(set(found), key=_order), text)


def versions_of(path: Path) -> set[str]:
    """The hashes a question file may have been recorded under: its own bytes', and with its
    pack's shared misconception file (loader.question_version) when the pack has one."""
    shared = path.parent / SHARED_FILE
    extra = shared.read_bytes() if shared.is_file() else b""
    data = path.read_bytes()
    return {question_version(data), question_version(data, extra)}


def _label(folder: str) -> str:
    if VERSION.match(folder):
        return folder
    if KEPT.match(folder):  # withdrawn: kept so attempts graded against it stay readable
        return folder.replace(".withdrawn", " (withdrawn)")
    return "built-in"


def _order(label: str) -> tuple[int, ...]:
    number = label.split(" ")[0]
    return version_key(number) if VERSION.match(number) else (-1,)
