"""Security primitives for the web side: the signing key, passwords, CSRF tokens, rate limits.

Each is a thin wrapper over a well-kept library (argon2-cffi for passwords, itsdangerous for
signatures) plus a small sliding-window limiter: in memory for one web process, or counted
in a store that several processes share (app/ratelimits: the database or Redis).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import defaultdict, deque
from pathlib import Path
from typing import TYPE_CHECKING

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, URLSafeTimedSerializer

from app.config import Settings
from app.errors import TapequizError

if TYPE_CHECKING:
    from app.ratelimits import WindowStore

COOKIE_NAME = "tapequiz_id"
COOKIE_MAX_AGE = 365 * 24 * 3600
_hasher = PasswordHasher()


class RateLimited(TapequizError):
    """Too many attempts in the window; retry after `retry_after` seconds (429)."""

    status_code = 429
    code = "rate_limited"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Forbidden(TapequizError):
    status_code = 403
    code = "forbidden"


def signing_key(settings: Settings) -> str:
    """The configured key, else one generated once and kept in the data dir.

    A per-process random key would log every guest out on restart and lose their progress.
    """
    if settings.secret_key:
        return settings.secret_key
    path = Path(settings.data_dir) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(48))
        path.chmod(0o600)
    return path.read_text().strip()


def identity_serializer(key: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(key, salt="tapequiz.identity")


def issue_identity(serializer: URLSafeTimedSerializer, user_id: int, epoch: int) -> str:
    return serializer.dumps([user_id, epoch])


def read_identity(serializer: URLSafeTimedSerializer, cookie: str | None) -> tuple[int, int] | None:
    """(user id, auth epoch) from a cookie this server signed, else None."""
    if not cookie:
        return None
    try:
        value = serializer.loads(cookie, max_age=COOKIE_MAX_AGE)
    except BadSignature:
        return None
    if isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value):
        return value[0], value[1]
    return None


def csrf_token(key: str, user_id: int) -> str:
    """A token bound to the identity, so a token from another visitor is worthless."""
    return hmac.new(key.encode(), f"csrf:{user_id}".encode(), "sha256").hexdigest()


def csrf_valid(key: str, user_id: int, token: str | None) -> bool:
    return bool(token) and hmac.compare_digest(csrf_token(key, user_id), token or "")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    if not password_hash:
        _hasher.hash(password)  # spend the same time, so timing does not reveal unknown emails
        return False
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


class RateLimiter:
    """At most `limit` events per `window` seconds per key (a sliding window, thread-safe)."""

    def __init__(self, limit: int, window: float = 60.0, store: WindowStore | None = None) -> None:
        self.limit = limit
        self.window = window
        self.store = store  # shared by several processes (app/ratelimits); None: this one
        self._events: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def hit(self, key: str, what: str) -> None:
        if self.store is not None:
            retry = self.store.hit(key, limit=self.limit, window=self.window)
            if retry is not None:
                raise RateLimited(f"too many {what}; try again in {retry} s", retry_after=retry)
            return
        now = time.monotonic()
        with self._lock:
            events = self._events[key]
            while events and events[0] <= now - self.window:
                events.popleft()
            if len(events) >= self.limit:
                retry = max(1, int(events[0] + self.window - now) + 1)
                raise RateLimited(f"too many {what}; try again in {retry} s", retry_after=retry)
            events.append(now)
