"""The Instructor page's "Published ..." and "Withdrawn ..." banners, checked against the records.

After a publication or a withdrawal the page is reached by a redirect naming the version
(`/instructor?published=tape-example 1.0.0`). The banner used to repeat that query, so any
link could make the page claim a publication that never happened. The query now only says
which version to look for: the banner is shown when the records say this instructor did
that, a moment ago (a version they published, still served; a version of a pack they own,
withdrawn), and its words come from the records, not from the link.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from app.clock import as_utc
from app.models.publishing import PackVersion
from app.models.users import User, utcnow
from app.services.instructor.publishing import version_key
from app.services.instructor.withdrawals import withdrawable_packs

RECENT = timedelta(minutes=10)  # a redirect, or a reload of its page, comes well within this


def _named(versions: Sequence[PackVersion], claimed: str) -> PackVersion | None:
    words = claimed.split(";")[0].split()
    if len(words) != 2:
        return None
    return next((v for v in versions if (v.pack_id, v.version) == tuple(words)), None)


def published(versions: Sequence[PackVersion], *, user: User, claimed: str) -> str:
    """`pack version` if `user` published it in the last few minutes and it is served."""
    row = _named(versions, claimed)
    if row is None or row.published_by != user.id or row.withdrawn_at is not None:
        return ""
    if utcnow() - as_utc(row.created_at) > RECENT:  # created_at is stamped by the real clock
        return ""
    return f"{row.pack_id} {row.version}"


def withdrawn(versions: Sequence[PackVersion], *, user: User, claimed: str, now: datetime) -> str:
    """`pack version; what is served now` if that version of a pack `user` owns was withdrawn
    in the last few minutes (`now`: the clock that stamped the withdrawal)."""
    row = _named(versions, claimed)
    if row is None or row.withdrawn_at is None or now - as_utc(row.withdrawn_at) > RECENT:
        return ""
    if row.pack_id not in withdrawable_packs(versions, user):
        return ""
    left = [v.version for v in versions if v.pack_id == row.pack_id and v.withdrawn_at is None]
    live = max(left, key=version_key) if left else None
    served = f"{live} is live again" if live else "the pack is no longer offered"
    return f"{row.pack_id} {row.version}; {served}"
