"""Withdraw a published pack version that turned out wrong, losing nothing learners did.

The smallest safe withdrawal: only the pack's owner (whoever published its first version)
may withdraw, and only the live version; the version before it is served again, or, if none
is left, the pack leaves the catalog. Its files stay on disk, renamed `<version>.withdrawn`,
so every attempt graded against it still shows the text it was graded on; attempts,
progress, review state and cohorts are untouched (questions no longer served are simply not
offered, nor due). A practice session in progress skips such questions when it reaches
them. While a mock interview on the pack runs, withdrawal is refused: dropping a question
mid-interview would change what it scores; it can be withdrawn once the interview's time
is up. A withdrawn version number is never reused: the next upload must be higher.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from app.clock import as_utc
from app.config import Settings
from app.errors import Conflict, NotFound
from app.models.interviews import Interview
from app.models.publishing import PackVersion
from app.models.users import User
from app.packs.catalog import Catalog
from app.services.instructor.publishing import (
    load_serving_catalog,
    published_root,
    version_key,
)

WITHDRAWN_SUFFIX = ".withdrawn"
INTERVIEW_GRACE = timedelta(seconds=5)  # the server takes an answer 2 s after the deadline


@dataclass(frozen=True)
class Withdrawn:
    version: PackVersion
    live: str | None  # the version served now; None when the pack left the catalog
    catalog: Catalog


def withdraw_version(
    session: Session, *, settings: Settings, user: User, pack_id: str, version: str, now: datetime
) -> Withdrawn:
    """Take the live `version` of `pack_id` out of service; raise NotFound or Conflict."""
    rows = list(
        session.exec(
            select(PackVersion).where(PackVersion.pack_id == pack_id).order_by(col(PackVersion.id))
        ).all()
    )
    row = next((r for r in rows if r.version == version), None)
    if row is None:
        raise NotFound(f"no published version {version[:32]!r} of pack {pack_id[:64]!r}")
    if pack_id not in withdrawable_packs(rows, user):
        raise Conflict(f"pack {pack_id!r} was published by another instructor")
    live = [r for r in rows if r.withdrawn_at is None]
    if row.withdrawn_at is not None or row is not max(live, key=lambda r: version_key(r.version)):
        raise Conflict(f"only the live version of {pack_id!r} can be withdrawn; {version} is not")
    _refuse_while_interviewing(session, pack_id, now)
    folder = published_root(settings) / pack_id / version
    if not folder.is_dir():
        raise Conflict(f"version {version} of {pack_id!r} has no files on this server")
    row.withdrawn_at = now
    session.add(row)
    session.flush()  # the row first: a failed rename rolls it back
    try:
        folder.rename(folder.with_name(version + WITHDRAWN_SUFFIX))
    except BaseException:
        session.rollback()
        raise
    session.commit()
    session.refresh(row)
    left = [r.version for r in live if r is not row]
    return Withdrawn(
        version=row,
        live=max(left, key=version_key) if left else None,
        catalog=load_serving_catalog(settings),
    )


def withdrawable_packs(versions: Iterable[PackVersion], user: User) -> set[str]:
    """The packs among `versions` whose versions `user` may withdraw: a pack is owned by whoever
    published its first version (a first version with no publisher recorded: anyone)."""
    first: dict[str, PackVersion] = {}
    for row in versions:
        if row.pack_id not in first or (row.id or 0) < (first[row.pack_id].id or 0):
            first[row.pack_id] = row
    return {pack for pack, row in first.items() if row.published_by in (None, user.id)}


def _refuse_while_interviewing(session: Session, pack_id: str, now: datetime) -> None:
    running = session.exec(
        select(Interview).where(Interview.pack_id == pack_id, col(Interview.finished_at).is_(None))
    ).all()
    ends = [as_utc(i.ends_at) for i in running if as_utc(i.ends_at) + INTERVIEW_GRACE > as_utc(now)]
    if ends:
        last = max(ends) + INTERVIEW_GRACE
        raise Conflict(
            f"{len(ends)} mock interview(s) on {pack_id!r} are running; withdrawing now would"
            f" change what they score. Try again after {last:%H:%M:%S} UTC, when they end."
        )
