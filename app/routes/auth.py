"""Sign up, log in and log out. Signing up keeps the guest's progress; so does logging in."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse
from starlette.responses import Response

from app.deps import SessionDep
from app.errors import AnswerInvalid, Conflict
from app.identity import CsrfFormDep, CurrentUserDep, forget, limit_login, remember
from app.security import RateLimited
from app.services import accounts
from app.web.htmlerrors import HtmlErrorRoute
from app.web.templating import templates

router = APIRouter(route_class=HtmlErrorRoute, include_in_schema=False)
Email = Annotated[str, Form(max_length=254)]
Password = Annotated[str, Form(max_length=256)]
FORM_ERRORS = (AnswerInvalid, Conflict, RateLimited)


def _form(
    request: Request, page: str, *, error: Exception | None = None, email: str = ""
) -> Response:
    status = getattr(error, "status_code", 200)
    context = {"error": getattr(error, "message", None), "email": email}
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
        account = accounts.sign_up(
            session, guest=user, email=email, password=password, display_name=display_name
        )
    except FORM_ERRORS as exc:
        return _form(request, "signup", error=exc, email=email)
    remember(request, account)
    return RedirectResponse("/progress?welcome=1", status_code=303)


@router.get("/login")
def login_page(request: Request, user: CurrentUserDep) -> Response:
    return _form(request, "login")


@router.post("/login", dependencies=[CsrfFormDep])
def login(
    request: Request, user: CurrentUserDep, session: SessionDep, email: Email, password: Password
) -> Response:
    try:
        limit_login(request)
        account = accounts.log_in(session, current=user, email=email, password=password)
    except FORM_ERRORS as exc:
        return _form(request, "login", error=exc, email=email)
    remember(request, account)
    return RedirectResponse("/", status_code=303)


@router.post("/logout", dependencies=[CsrfFormDep])
def logout(request: Request, user: CurrentUserDep, session: SessionDep) -> Response:
    accounts.log_out(session, user=user)
    forget(request)
    return RedirectResponse("/", status_code=303)
