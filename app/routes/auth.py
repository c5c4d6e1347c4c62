"""Sign up, log in and log out. Signing up keeps the guest's progress; so does logging in.

Log-in failures back off exponentially per account and per client (a right password works
again once the wait is over); sign-ups are limited per client. Each of the three replaces
the CSRF nonce, so a token from before the change of identity is void.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse
from starlette.responses import Response

from app.deps import SessionDep
from app.errors import AnswerInvalid, Conflict
from app.identity import (
    CsrfFormDep,
    CurrentUserDep,
    check_login,
    forget,
    limit_signup,
    login_failed,
    login_succeeded,
    remember,
)
from app.security import RateLimited
from app.services import accounts
from app.web.htmlerrors import HtmlErrorRoute
from app.web.templating import templates

router = APIRouter(route_class=HtmlErrorRoute, include_in_schema=False)
Email = Annotated[str, Form(max_length=254)]
Password = Annotated[str, Form(max_length=256)]
FORM_ERRORS = (AnswerInvalid, Conflict, RateLimited)


def _form(
    request: Request,
    page: str,
    *,
    error: Exception | None = None,
    email: str = "",
    display_name: str = "",
) -> Response:
    """The form again with what was typed (never the password); the page states the server's
    own password minimum, so the form and the check cannot disagree."""
    status = getattr(error, "status_code", 200)
    context = {
        "error": getattr(error, "message", None),
        "email": email,
        "display_name": display_name,
        "min_password": accounts.MIN_PASSWORD,
    }
    return templates.TemplateResponse(request, f"auth/{page}.html", context, status_code=status)


@router.get("/signup")
def signup_page(request: Request, user: CurrentUserDep) -> Response:
    return _form(request, "signup")


@router.post("/signup", dependencies=[CsrfFormDep])
def signup(
    request: Request,
    user: CurrentUserDep,
    session: SessionDep,
    email: Email,
    password: Password,
    display_name: Annotated[str, Form(max_length=80)] = "",
) -> Response:
    try:
        limit_signup(request)
        account = accounts.sign_up(
            session, guest=user, email=email, password=password, display_name=display_name
        )
    except FORM_ERRORS as exc:
        return _form(request, "signup", error=exc, email=email, display_name=display_name)
    remember(request, account, rotate=True)
    return RedirectResponse("/progress?welcome=1", status_code=303)


@router.get("/login")
def login_page(request: Request, user: CurrentUserDep) -> Response:
    return _form(request, "login")


@router.post("/login", dependencies=[CsrfFormDep])
def login(
    request: Request, user: CurrentUserDep, session: SessionDep, email: Email, password: Password
) -> Response:
    try:
        check_login(request, email)
        account = accounts.log_in(session, current=user, email=email, password=password)
    except AnswerInvalid as exc:
        login_failed(request, email)
        return _form(request, "login", error=exc, email=email)
    except FORM_ERRORS as exc:
        return _form(request, "login", error=exc, email=email)
    login_succeeded(request, email)
    remember(request, account, rotate=True)
    return RedirectResponse("/", status_code=303)


@router.post("/logout", dependencies=[CsrfFormDep])
def logout(request: Request, user: CurrentUserDep, session: SessionDep) -> Response:
    accounts.log_out(session, user=user)
    forget(request)
    return RedirectResponse("/", status_code=303)
