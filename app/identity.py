"""Who is asking: a signed identity cookie for guests and accounts alike, plus CSRF checks.

Every visitor gets a `User` row on first contact (a guest, no sign-up) and an httponly,
SameSite=Lax cookie holding its signed id; pages and the JSON API read the same cookie.

CSRF: HTML forms carry a hidden `csrf_token` (an HMAC of the user id, checked by
`CsrfFormDep`). State-changing JSON calls must send `Content-Type: application/json`
(`JsonBodyDep`): browsers cannot send that cross-site without a CORS preflight, which this
app never grants, and the SameSite=Lax cookie is not sent on cross-site POSTs anyway.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from itsdangerous import URLSafeTimedSerializer
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings
from app.deps import SessionDep
from app.models.users import User
from app.security import (
    COOKIE_MAX_AGE,
    COOKIE_NAME,
    Forbidden,
    RateLimiter,
    csrf_valid,
    identity_serializer,
    issue_identity,
    read_identity,
    signing_key,
)
from app.security import csrf_token as _csrf_token
from app.services import accounts


@dataclass(frozen=True)
class WebSecurity:
    key: str
    serializer: URLSafeTimedSerializer
    login_limiter: RateLimiter
    grade_limiter: RateLimiter
    cookie_secure: bool


def web_security(request: Request) -> WebSecurity:
    """Built once per app on first use (the key may live in the data dir)."""
    found: WebSecurity | None = getattr(request.app.state, "web_security", None)
    if found is None:
        settings: Settings = request.app.state.settings
        key = signing_key(settings)
        shared = getattr(request.app.state, "rate_limit_store", None)  # several processes
        found = WebSecurity(
            key=key,
            serializer=identity_serializer(key),
            login_limiter=RateLimiter(settings.login_attempts_per_minute, store=shared),
            grade_limiter=RateLimiter(settings.grades_per_minute, store=shared),
            cookie_secure=settings.cookie_secure,
        )
        request.app.state.web_security = found
    return found


def remember(request: Request, user: User) -> None:
    """Ask IdentityCookies to (re)issue the cookie for this user on the response."""
    assert user.id is not None
    serializer = web_security(request).serializer
    request.state.identity_cookie = issue_identity(serializer, user.id, user.auth_epoch)
    request.state.user = user


def forget(request: Request) -> None:
    request.state.identity_cookie = ""


def get_current_user(request: Request, session: SessionDep) -> User:
    cached: User | None = getattr(request.state, "user", None)
    if cached is not None:
        return cached
    security = web_security(request)
    found = read_identity(security.serializer, request.cookies.get(COOKIE_NAME))
    user = accounts.find_user(session, user_id=found[0]) if found is not None else None
    if user is None or found is None or user.auth_epoch != found[1]:
        user = accounts.create_guest(session)
        remember(request, user)
    request.state.user = user
    return user


CurrentUserDep = Annotated[User, Depends(get_current_user)]


def require_instructor(user: CurrentUserDep) -> User:
    if user.role != "instructor":
        raise Forbidden("this page is for instructors")
    return user


InstructorDep = Annotated[User, Depends(require_instructor)]


def csrf_token(request: Request) -> str:
    """For templates: `<input type="hidden" name="csrf_token" value="{{ csrf_token(request) }}">`
    (empty until the request has an identity)."""
    user: User | None = getattr(request.state, "user", None)
    if user is None or user.id is None:
        return ""
    return _csrf_token(web_security(request).key, user.id)


async def verify_csrf_form(request: Request, user: CurrentUserDep) -> None:
    form = await request.form()
    token = form.get("csrf_token") or request.headers.get("x-csrf-token")
    assert user.id is not None
    if not csrf_valid(web_security(request).key, user.id, str(token) if token else None):
        raise Forbidden("the form expired or came from another site; reload the page and retry")


def require_json(request: Request) -> None:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise Forbidden("state-changing API calls need Content-Type: application/json")


CsrfFormDep = Depends(verify_csrf_form)
JsonBodyDep = Depends(require_json)


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
    web_security(request).grade_limiter.hit(f"user:{user.id}", "answers")


def limit_login(request: Request) -> None:
    client = request.client.host if request.client else "unknown"
    web_security(request).login_limiter.hit(f"ip:{client}", "log-in attempts")


def limit_grading_by_client(request: Request) -> None:
    """For grading endpoints without an identity (POST /api/questions/{id}/grade)."""
    client = request.client.host if request.client else "unknown"
    web_security(request).grade_limiter.hit(f"ip:{client}", "answers")


def require_custom_header(request: Request) -> None:
    """CSRF guard for multipart API calls (uploads), which cannot require application/json:
    a custom header forces a CORS preflight, which this app never grants."""
    if not request.headers.get("x-requested-with"):
        raise Forbidden("send an X-Requested-With header with state-changing multipart calls")


CustomHeaderDep = Depends(require_custom_header)
GradeLimitDep = Depends(limit_grading)
GradeLimitByClientDep = Depends(limit_grading_by_client)
LoginLimitDep = Depends(limit_login)
