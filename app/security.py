"""Security primitives for the web side: the signing key, passwords, CSRF tokens, rate limits.

Each is a thin wrapper over a well-kept library (argon2-cffi for passwords, itsdangerous for
signatures) plus a small sliding-window limiter: in memory for one web process, or counted
in a store that several processes share (app/ratelimits: the database or Redis).
"""

from __future__ import annotations

import functools
import hmac
import ipaddress
import math
import os
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, URLSafeTimedSerializer

from app.config import Settings
from app.errors import TapequizError

if TYPE_CHECKING:
    from app.ratelimits import BackoffStore, WindowStore

COOKIE_NAME = "tapequiz_id"
COOKIE_MAX_AGE = 365 * 24 * 3600
# OWASP's argon2id setting (19 MiB, 2 passes, 1 lane; Password Storage Cheat Sheet), not
# argon2-cffi's default (64 MiB, 3 passes, 4 lanes: ~0.2 s of CPU a hash). A class of 40
# logging in at once paid 40 default hashes on 2 cores: p50 7.6 s, max 13.9 s
# (benchmarks/class_login.py). Guessing stays slowed by the 10-character, not-common
# password rule and the log-in back-off. Older hashes still verify and are replaced at
# the next log-in (`needs_rehash`).
_hasher = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
# A class signing up at once once ran 40 hashes side by side and starved the threads holding
# SQLite's write lock past the busy time-out (503s). One hash per core is as fast in total;
# the rest wait their turn.
_hashing = threading.BoundedSemaphore(os.cpu_count() or 1)


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


def issue_identity(serializer: URLSafeTimedSerializer, value: list[int | str]) -> str:
    """Sign `[user id, auth epoch, CSRF nonce]`."""
    return serializer.dumps(value)


def read_identity(
    serializer: URLSafeTimedSerializer, cookie: str | None
) -> tuple[int, int, str] | None:
    """(user id, auth epoch, nonce) from a cookie this server signed, else None. Cookies
    from before the nonce (`[id, epoch]`) use the id as nonce, so their forms stay valid."""
    found = _read_timed(serializer, cookie)
    return found[0] if found else None


def _read_timed(
    serializer: URLSafeTimedSerializer, cookie: str | None
) -> tuple[tuple[int, int, str], float] | None:
    """The claims and the signing time (seconds since the epoch)."""
    if not cookie or len(cookie) > 1024:
        return None
    try:
        value, signed = serializer.loads(cookie, max_age=COOKIE_MAX_AGE, return_timestamp=True)
    except BadSignature:
        return None
    if not isinstance(value, list) or not all(type(v) is int for v in value[:2]):
        return None
    if len(value) == 2:
        return (value[0], value[1], str(value[0])), signed.timestamp()
    if len(value) == 3 and isinstance(value[2], str) and 0 < len(value[2]) <= 64:
        return (value[0], value[1], value[2]), signed.timestamp()
    return None


class VerifiedCookies:
    """`read_identity` with the verdicts on good cookies remembered until they expire.

    Checking a signature (key derivation, HMAC, base64, JSON) was ~5% of the question page's
    CPU (issue 16 profile), and a browser sends the same cookie on every request. The verdict
    is a pure function of the key, the cookie text and the clock, so remembering it keyed by
    the whole cookie can neither mix up two visitors nor outlive the cookie's max age; bad
    cookies are never remembered, so junk cannot fill the table. What the claims are worth
    (the account's auth epoch) is still checked against the database on every request.
    """

    def __init__(self, serializer: URLSafeTimedSerializer, size: int = 4096) -> None:
        self.serializer = serializer
        self.size = size
        self._good: dict[str, tuple[tuple[int, int, str], float]] = {}
        self._lock = threading.Lock()

    def read(self, cookie: str | None) -> tuple[int, int, str] | None:
        if cookie is None:
            return None
        known = self._good.get(cookie)
        if known is not None and time.time() <= known[1]:
            return known[0]
        found = _read_timed(self.serializer, cookie)
        if found is None:
            return None
        claims, signed = found
        with self._lock:
            if len(self._good) >= self.size:  # the oldest entry goes first
                self._good.pop(next(iter(self._good)), None)
            self._good[cookie] = (claims, signed + COOKIE_MAX_AGE)
        return claims


def csrf_token(key: str, nonce: str) -> str:
    """A token bound to the browser's nonce, so a token from another visitor is worthless."""
    return hmac.new(key.encode(), f"csrf:{nonce}".encode(), "sha256").hexdigest()


def csrf_valid(key: str, nonce: str, token: str | None) -> bool:
    return bool(token) and hmac.compare_digest(csrf_token(key, nonce), token or "")


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def client_address(peer: str, forwarded_for: str, trusted: tuple[str, ...]) -> str:
    """The peer, or, when the peer is a trusted proxy, the right-most X-Forwarded-For hop that
    is not itself trusted (left-most entries are whatever the client chose to send)."""
    networks = _networks(trusted)
    if not networks or not _in(peer, networks):
        return peer
    hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _in(hop, networks):
            return hop[:64]
    return peer


@functools.lru_cache(maxsize=16)
def _networks(
    trusted: tuple[str, ...],
) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(t.strip(), strict=False) for t in trusted if t.strip())


def _in(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def hash_password(password: str) -> str:
    with _hashing:
        return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    if not password_hash:
        hash_password(password)  # spend the same time, so timing does not reveal unknown emails
        return False
    try:
        with _hashing:
            return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """True for a hash made with other parameters (before round 13: argon2-cffi's default)."""
    try:
        return _hasher.check_needs_rehash(password_hash)
    except InvalidHashError:
        return True


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


class Backoff:
    """Exponential back-off per key after `free` failures: the n-th failure beyond them makes
    the key wait 2**n seconds (capped at `max_delay`) before its next attempt is even checked.
    A right password still works once the wait is over: no lock-out, but guessing slows to a
    crawl. Failures are forgotten after an hour without one. Thread-safe, in-process."""

    FORGET_AFTER = 3600.0
    store: BackoffStore | None = None  # shared by several processes (app/ratelimits)

    def __init__(
        self, free: int, max_delay: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.free = free
        self.max_delay = max_delay
        self.clock = clock
        self._state: dict[str, tuple[int, float, float]] = {}  # failures, last, not before
        self._lock = threading.Lock()

    def check(self, key: str, what: str) -> None:
        if self.store is not None:
            wait = self.store.wait(key, free=self.free, max_delay=self.max_delay,
                                   forget=self.FORGET_AFTER)  # fmt: skip
            if wait > 0:
                retry = max(1, math.ceil(wait))
                raise RateLimited(f"too many {what}; try again in {retry} s", retry_after=retry)
            return
        now = self.clock()
        with self._lock:
            failures, last, not_before = self._state.get(key, (0, 0.0, 0.0))
            if failures and now - last > self.FORGET_AFTER:
                del self._state[key]
                return
        if now < not_before:
            retry = max(1, math.ceil(not_before - now))
            raise RateLimited(f"too many {what}; try again in {retry} s", retry_after=retry)

    def failed(self, key: str) -> None:
        if self.store is not None:
            self.store.failed(key, free=self.free, max_delay=self.max_delay,
                              forget=self.FORGET_AFTER)  # fmt: skip
            return
        now = self.clock()
        with self._lock:
            failures = self._state.get(key, (0, 0.0, 0.0))[0] + 1
            delay = (
                0.0 if failures < self.free else min(self.max_delay, 2.0 ** (failures - self.free))
            )
            self._state[key] = (failures, now, now + delay)
            if len(self._state) > 100_000:  # a flood of keys must not grow memory for ever
                self._state.pop(next(iter(self._state)))

    def succeeded(self, key: str) -> None:
        if self.store is not None:
            self.store.clear(key)
            return
        with self._lock:
            self._state.pop(key, None)
