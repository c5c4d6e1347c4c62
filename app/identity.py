"""Who is asking: a signed identity cookie for guests and accounts alike, plus CSRF checks.

Every visitor gets an httponly, SameSite=Lax signed cookie `[user id, auth epoch, nonce]`;
pages and the JSON API read the same cookie. A visit that writes nothing stores nothing:
until the first state-changing request the user id is 0 and no row exists (crawlers and
health checkers used to add a guest row per request); the first POST creates the guest.
The identity is looked up in a short session of its own, so a request waiting for a worker
thread holds no pooled connection.

CSRF: HTML forms carry a hidden `csrf_token` (an HMAC of the cookie's random nonce, checked
by `CsrfFormDep` without touching the database). The nonce is replaced at sign-up, log-in
and log-out, so a token seen before a privilege change is worthless after it. State-changing
JSON calls must send `Content-Type: application/json` (`JsonBodyDep`): browsers cannot send
that cross-site without a CORS preflight, which this app never grants, and the SameSite=Lax
cookie is not sent on cross-site POSTs anyway.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from itsdangerous import URLSafeTimedSerializer
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings
from app.errors import RequestInvalid
from app.models.users import User
from app.security import (
    COOKIE_MAX_AGE,
    COOKIE_NAME,
    Backoff,
    Forbidden,
    RateLimiter,
    VerifiedCookies,
    client_address,
    csrf_valid,
    identity_serializer,
    issue_identity,
    signing_key,
)
from app.security import csrf_token as _csrf_token
from app.services import accounts


@dataclass(frozen=True)
class WebSecurity:
    key: str
    serializer: URLSafeTimedSerializer
    cookies: VerifiedCookies
    login_by_client: Backoff
    login_by_address: Backoff
    login_by_account: Backoff
    signup_limiter: RateLimiter
    grade_limiter: RateLimiter
    grade_address_limiter: RateLimiter
    cookie_secure: bool
    trusted_proxies: tuple[str, ...]


def web_security(request: Request) -> WebSecurity:
    """Built once per app on first use (the key may live in the data dir)."""
    found: WebSecurity | None = getattr(request.app.state, "web_security", None)
    if found is None:
        settings: Settings = request.app.state.settings
        key = signing_key(settings)
        shared = getattr(request.app.state, "rate_limit_store", None)  # several processes
        found = WebSecurity(
            key=key,
            serializer=(serializer := identity_serializer(key)),
            cookies=VerifiedCookies(serializer),
            login_by_client=Backoff(
                settings.login_attempts_per_minute, settings.login_max_delay_seconds
            ),
            login_by_address=Backoff(
                settings.login_failures_per_address, settings.login_max_delay_seconds
            ),
            login_by_account=Backoff(
                settings.login_free_failures, settings.login_max_delay_seconds
            ),
            signup_limiter=RateLimiter(settings.signups_per_hour, window=3600.0, store=shared),
            grade_limiter=RateLimiter(settings.grades_per_minute, store=shared),
            grade_address_limiter=RateLimiter(settings.grades_per_minute_per_address, store=shared),
            cookie_secure=settings.cookie_secure,
            trusted_proxies=tuple(settings.trusted_proxies),
        )
        for backoff in (found.login_by_client, found.login_by_address, found.login_by_account):
            backoff.store = shared  # log-in back-off counted across processes too
        request.app.state.web_security = found
    return found


SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


@dataclass(frozen=True)
class Visitor:
    """What the cookie says: a user id (0 until the first write), its epoch, a CSRF nonce."""

    user_id: int
    epoch: int
    nonce: str


def _new_nonce() -> str:
    return secrets.token_urlsafe(16)


def _issue(request: Request, visitor: Visitor) -> None:
    """Ask IdentityCookies to (re)issue the cookie on the response."""
    value: list[int | str] = [visitor.user_id, visitor.epoch, visitor.nonce]
    request.state.identity_cookie = issue_identity(web_security(request).serializer, value)
    request.state.visitor = visitor


def get_visitor(request: Request) -> Visitor:
    """The cookie's claims, without touching the database; a first visit gets a nonce."""
    cached: Visitor | None = getattr(request.state, "visitor", None)
    if cached is not None:
        return cached
    found = web_security(request).cookies.read(request.cookies.get(COOKIE_NAME))
    if found is None:
        _issue(request, Visitor(0, 0, _new_nonce()))
    else:
        request.state.visitor = Visitor(*found)
    visitor: Visitor = request.state.visitor
    return visitor


def claimed_user_id(request: Request) -> int:
    """The user id the cookie names (0 if none), without issuing a cookie or a query."""
    found = web_security(request).cookies.read(request.cookies.get(COOKIE_NAME))
    return found[0] if found else 0


def remember(request: Request, user: User, *, rotate: bool = False) -> None:
    """Issue the cookie for this user; `rotate` replaces the CSRF nonce (privilege change)."""
    assert user.id is not None
    nonce = _new_nonce() if rotate else get_visitor(request).nonce
    _issue(request, Visitor(user.id, user.auth_epoch, nonce))
    request.state.user = user


def forget(request: Request) -> None:
    """Log out on this browser: back to a visitor with no row and a fresh CSRF nonce."""
    _issue(request, Visitor(0, 0, _new_nonce()))
    request.state.user = None


def _lookup(request: Request, visitor: Visitor) -> User | None:
    if not visitor.user_id:
        return None
    with Session(request.app.state.engine, expire_on_commit=False) as session:
        user = accounts.find_user(session, user_id=visitor.user_id)
    return user if user is not None and user.auth_epoch == visitor.epoch else None


def adopt_reader(request: Request, visitor: Visitor, user: User | None) -> User:
    """For a read whose handler looked the account up itself (joined to its page's row): the
    same outcome as `get_current_user` on a GET. `user` must be the row the cookie names,
    already checked against the cookie's auth epoch, or None."""
    if user is None:
        user = accounts.visitor()
        if visitor.user_id:  # a voided or unknown id: drop it, keep the nonce
            _issue(request, Visitor(0, 0, visitor.nonce))
    request.state.user = user
    return user


def recognise_reader(request: Request) -> None:
    """For a page drawn outside any route (404, 413, a refused text): who the cookie names,
    so its nav shows the account (and the Instructor link) as every other page does. Stores
    nothing and issues no cookie; blocks (call it in a worker thread); nobody if storage
    cannot say, since such a page often reports a fault."""
    if getattr(request.state, "user", None) is not None:
        return
    found = web_security(request).cookies.read(request.cookies.get(COOKIE_NAME))
    if found is None:
        return
    visitor = Visitor(*found)
    request.state.visitor = visitor  # the nav's log-out form needs its CSRF token
    try:
        user = _lookup(request, visitor)
    except SQLAlchemyError:
        return
    if user is not None:
        request.state.user = user


def get_current_user(request: Request) -> User:
    """The stored user; for a visitor without one, a transient guest (id 0) on reads and a
    new guest row on the first state-changing request."""
    cached: User | None = getattr(request.state, "user", None)
    if cached is not None:
        return cached
    visitor = get_visitor(request)
    user = _lookup(request, visitor)
    if user is None and request.method in SAFE_METHODS:
        return adopt_reader(request, visitor, None)
    elif user is None:
        with Session(request.app.state.engine, expire_on_commit=False) as session:
            user = accounts.create_guest(session)
        remember(request, user)
    request.state.user = user
    return user


CurrentUserDep = Annotated[User, Depends(get_current_user)]


def require_instructor(user: CurrentUserDep) -> User:
    if user.role != "instructor":
        raise Forbidden(f"this page is for instructors. {how_to_become_instructor(user)}")
    return user


def how_to_become_instructor(user: User) -> str:
    """The role is given on the server's command line only (no page grants it)."""
    promote = ".venv/bin/tapequiz users promote"  # from the checkout the server runs in
    if user.email is None:
        return (
            "To become one, sign up (Save progress); then whoever runs this server runs, in "
            f"its folder: {promote} <your email>"
        )
    return (
        "To become one, whoever runs this server runs, in its folder: "
        f"{promote} {user.email} - then reload this page."
    )


InstructorDep = Annotated[User, Depends(require_instructor)]


def csrf_token(request: Request) -> str:
    """For templates: `<input type="hidden" name="csrf_token" value="{{ csrf_token(request) }}">`
    (empty until the request has read its identity)."""
    visitor: Visitor | None = getattr(request.state, "visitor", None)
    if visitor is None:
        return ""
    known: tuple[str, str] | None = getattr(request.state, "csrf", None)
    if known is None or known[0] != visitor.nonce:  # a page asks for it once per form
        known = (visitor.nonce, _csrf_token(web_security(request).key, visitor.nonce))
        request.state.csrf = known
    return known[1]


async def verify_csrf_form(request: Request) -> None:
    """Checked before any identity is stored: a forged form creates nothing."""
    form = await request.form()
    token = form.get("csrf_token") or request.headers.get("x-csrf-token")
    nonce = get_visitor(request).nonce
    if not csrf_valid(web_security(request).key, nonce, str(token) if token else None):
        raise Forbidden("the form expired or came from another site; reload the page and retry")


async def require_json(request: Request) -> None:
    """The CSRF guard of JSON writes; also refuses a body naming a key twice, which JSON
    readers resolve differently (Python keeps the last, others the first): a 422 naming it,
    not a silent pick. The body is parsed again only for that (it is at most 256 KiB)."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise Forbidden("state-changing API calls need Content-Type: application/json")
    await refuse_duplicate_keys(request)


async def refuse_duplicate_keys(request: Request) -> None:
    """422 for a JSON body naming a key twice (part of require_json; alone where a JSON
    body is read without the CSRF guard, as the stateless grade endpoint does)."""
    twice = duplicate_key(await request.body())
    if twice is not None:
        raise RequestInvalid(
            f"the JSON body gives the key {twice[:64]!r} twice; send each field once"
        )


def duplicate_key(body: bytes) -> str | None:
    """The first key an object of this JSON names twice (None: none, or not JSON at all,
    which the body's own validation reports)."""

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        seen: dict[str, object] = {}
        for key, value in items:
            if key in seen:
                raise _Twice(key)
            seen[key] = value
        return seen

    try:
        json.loads(body, object_pairs_hook=pairs)
    except _Twice as twice:
        return twice.key
    except (ValueError, RecursionError):
        return None
    return None


class _Twice(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


CsrfFormDep = Depends(verify_csrf_form)
JsonBodyDep = Depends(require_json)
UniqueKeysDep = Depends(refuse_duplicate_keys)


class IdentityCookies:
    """Set or clear the identity cookie that a dependency asked for on request.state.

    Dependencies cannot touch a Response the handler returns itself (templates, redirects),
    so the cookie is added here, on the way out, for every router alike.
    """

    def __init__(self, app: ASGIApp, *, secure: bool = False) -> None:
        self.app = app
        self.secure = secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(message: Message) -> None:
            value = scope.get("state", {}).get("identity_cookie")
            if message["type"] == "http.response.start" and value is not None:
                headers = MutableHeaders(scope=message)
                headers.append("set-cookie", self._cookie(value))
            await send(message)

        await self.app(scope, receive, send_with_cookie)

    def _cookie(self, value: str) -> str:
        age = COOKIE_MAX_AGE if value else 0
        secure = "; Secure" if self.secure else ""
        return f"{COOKIE_NAME}={value}; Max-Age={age}; Path=/; HttpOnly; SameSite=Lax{secure}"


def limit_grading(request: Request, user: CurrentUserDep) -> None:
    _limit_learner(request, user.id or 0)


def _limit_learner(request: Request, user_id: int) -> None:
    """A learner is limited as themselves; a class behind one NAT address shares only the
    per-address ceiling, which still stops one client minting identities to get round it."""
    security = web_security(request)
    security.grade_limiter.hit(f"user:{user_id}", "answers")
    security.grade_address_limiter.hit(f"address:{client_of(request)}", "answers from here")


def client_of(request: Request) -> str:
    """The client's address; X-Forwarded-For counts only from TAPEQUIZ_TRUSTED_PROXIES."""
    peer = request.client.host if request.client else "unknown"
    forwarded = request.headers.get("x-forwarded-for", "")
    return client_address(peer, forwarded, web_security(request).trusted_proxies)


def login_keys(request: Request, email: str) -> tuple[str, str, str]:
    """The browser (address and cookie nonce), the address, the account.

    A class behind one NAT address is many browsers: one learner mistyping must not make
    the others wait (round 14: the 11th failure of a class backed the whole address off).
    A browser is backed off after TAPEQUIZ_LOGIN_ATTEMPTS_PER_MINUTE failures; a guesser
    who mints a browser per guess meets the address's ceiling, and each account its own
    back-off whoever tries it."""
    address = client_of(request)
    browser = f"client:{address}:browser:{get_visitor(request).nonce}"
    return browser, f"address:{address}", f"account:{email.strip().lower()[:254]}"


def check_login(request: Request, email: str) -> None:
    """429 while this browser, its address or this account backs off after failed log-ins."""
    security, (browser, address, account) = web_security(request), login_keys(request, email)
    security.login_by_client.check(browser, "failed log-ins from this browser")
    security.login_by_address.check(address, "failed log-ins from here")
    security.login_by_account.check(account, "failed log-ins to this account")


def login_failed(request: Request, email: str) -> None:
    security, (browser, address, account) = web_security(request), login_keys(request, email)
    security.login_by_client.failed(browser)
    security.login_by_address.failed(address)
    security.login_by_account.failed(account)


def login_succeeded(request: Request, email: str) -> None:
    """The right password clears the account's back-off (not the browser's or address's:
    one's own account must not reset the counter of a client trying others')."""
    web_security(request).login_by_account.succeeded(login_keys(request, email)[2])


def limit_signup(request: Request) -> None:
    """Each sign-up costs an argon2 hash and a row: limited per client address, to a number
    a class behind one NAT fits in (TAPEQUIZ_SIGNUPS_PER_HOUR)."""
    web_security(request).signup_limiter.hit(f"client:{client_of(request)}", "sign-ups")


def limit_grading_by_client(request: Request) -> None:
    """For grading endpoints that need no identity (POST /api/questions/{id}/grade): the
    identity the cookie names if there is one (a stored guest or account), else the address."""
    user_id = claimed_user_id(request)
    if user_id:
        _limit_learner(request, user_id)
    else:
        web_security(request).grade_limiter.hit(f"ip:{client_of(request)}", "answers")


def require_custom_header(request: Request) -> None:
    """CSRF guard for multipart API calls (uploads), which cannot require application/json:
    a custom header forces a CORS preflight, which this app never grants."""
    if not request.headers.get("x-requested-with"):
        raise Forbidden("send an X-Requested-With header with state-changing multipart calls")


CustomHeaderDep = Depends(require_custom_header)
GradeLimitDep = Depends(limit_grading)
GradeLimitByClientDep = Depends(limit_grading_by_client)
