"""Quiz pages: set up a session, answer one question per page, feedback, summary, reviews.

Plain HTML forms (POST, then redirect) that work without JavaScript; static/js/app.js adds
the code editor, keyboard shortcuts, hints in place and a progress indicator while grading.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.responses import Response

from app.deps import AsyncPageDep, CatalogDep, CodeGraderDep, SessionDep
from app.errors import AnswerInvalid, Conflict, GraderBusy, GraderUnavailable, TapequizError
from app.grading.code.queue import current_ticket
from app.identity import CsrfFormDep, CurrentUserDep, adopt_reader, limit_grading
from app.offload import offloaded
from app.security import RateLimited
from app.services import browse
from app.services.practice import question_pages, retries, sessions, trials
from app.services.practice.summaries import (
    SessionView,
    attempt_view,
    session_view,
    summarize_session,
)
from app.web.forms import answer_from_form
from app.web.htmlerrors import HtmlErrorRoute
from app.web.jsonerrors import json_error
from app.web.templating import markdown, templates

router = APIRouter(route_class=HtmlErrorRoute, include_in_schema=False)
Text = Annotated[str, Form(max_length=64)]
Filter = Annotated[str, Query(max_length=64)]
RETRYABLE = (AnswerInvalid, GraderBusy, GraderUnavailable, RateLimited)
CODE_TYPES = ("code", "code-fix")


def _see(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


@router.get("/sessions/new")
def new_session(
    request: Request,
    user: CurrentUserDep,
    catalog: CatalogDep,
    code_grader: CodeGraderDep,
    topic: Filter = "",
    type: Filter = "",
    pack: Filter = "",
) -> Response:
    context = {
        "packs": browse.menu(catalog),
        "topic": topic,
        "qtype": type,
        "pack": pack,
        "grading_on": code_grader is not None,
    }
    return templates.TemplateResponse(request, "sessions/new.html", context)


@router.post("/sessions", dependencies=[CsrfFormDep])
def start_session(
    user: CurrentUserDep,
    session: SessionDep,
    catalog: CatalogDep,
    code_grader: CodeGraderDep,
    pack: Text = "",
    topic: Text = "",
    type: Text = "",
    count: Annotated[int, Form(ge=1, le=30)] = 10,
    question: Text = "",
) -> Response:
    quiz = sessions.start_session(
        session,
        catalog,
        user=user,
        pack=pack or None,
        topic=topic or None,
        qtype=type or None,
        count=count,
        question_ids=[question] if question else None,
        with_code=code_grader is not None,
    )
    if not question and count > len(quiz.question_ids):  # fewer match: the page says so
        return _see(f"/sessions/{quiz.id}?asked={count}")
    return _see(f"/sessions/{quiz.id}")


@router.post("/reviews/start", dependencies=[CsrfFormDep])
def start_review(user: CurrentUserDep, session: SessionDep, catalog: CatalogDep) -> Response:
    quiz = sessions.start_review(session, catalog, user=user)
    return _see(f"/sessions/{quiz.id}")


def _question_page(
    request: Request,
    view: SessionView,
    *,
    error: TapequizError | None = None,
    answer: object = None,
    grading_on: bool = True,
    can_run: bool = False,
    again: bool = False,
    asked: int | None = None,
) -> Response:
    retry_after = getattr(error, "retry_after", None)
    context = {
        "view": view,
        "error": error,
        "answer": answer,
        "retry_after": retry_after,
        "grading_on": grading_on,
        "can_run": can_run and not again,  # Run tries the session's current question
        "again": again,
        "asked": asked if asked and asked > view.total else None,  # only when fewer matched
    }
    status = error.status_code if error else 200
    headers = {"Retry-After": str(retry_after)} if retry_after else None
    return templates.TemplateResponse(
        request, "sessions/question.html", context, status_code=status, headers=headers
    )


@router.get("/sessions/{session_id}")
async def show_question(
    request: Request,
    session_id: int,
    page: AsyncPageDep,
    asked: Annotated[int | None, Query(ge=1, le=30)] = None,
) -> Response:
    """The busiest page: its reads run in one thread hop (one query for most questions),
    the account joined to the session; rendering is CPU-light and stays on the loop."""
    visitor, catalog = page.visitor, page.catalog
    found = await page.reads.run(
        question_pages.load, catalog,
        user_id=visitor.user_id, epoch=visitor.epoch, session_id=session_id,
    )  # fmt: skip
    adopt_reader(request, visitor, found.user)
    quiz, item = found.current(session_id)
    if item is None:
        return _see(f"/sessions/{session_id}/summary")
    # The editor starts from the learner's last submission, not the starter code.
    return _question_page(
        request, session_view(catalog, quiz), answer=found.previous_answer,
        grading_on=page.code_grader is not None, can_run=trials.can_run(page.code_grader),
        asked=asked,
    )  # fmt: skip


@router.post("/sessions/{session_id}/answer", dependencies=[CsrfFormDep])
@offloaded
async def answer(
    request: Request,
    session_id: int,
    user: CurrentUserDep,
    session: SessionDep,
    catalog: CatalogDep,
    code_grader: CodeGraderDep,
) -> Response:
    form = await request.form()
    given = answer_from_form(str(form.get("question_type", "")), form)
    question_id = str(form.get("question_id", "")) or None
    current_ticket.set(str(form.get("grade_ticket", ""))[:40] or None)
    try:
        limit_grading(request, user)
        attempt = await sessions.answer_current(
            session,
            catalog,
            user=user,
            session_id=session_id,
            answer=given,
            code_grader=code_grader,
            question_id=question_id,
        )
    except Conflict:  # not the current question: Try again, or a page from before (Back)
        again = None
        if question_id is not None:
            again = await retries.answer_again(
                session, catalog, user=user, session_id=session_id, question_id=question_id,
                answer=given, code_grader=code_grader, again=form.get("again") == "1",
            )  # fmt: skip
        if again is None:  # a double submit: the recorded answer stands; back to your place
            return _see(f"/sessions/{session_id}")
        attempt = again
    except RETRYABLE as exc:
        view = session_view(
            catalog, sessions.get_session(session, user=user, session_id=session_id)
        )
        return _question_page(
            request, view, error=exc, answer=given, grading_on=code_grader is not None,
            can_run=trials.can_run(code_grader),
        )  # fmt: skip
    return _see(f"/sessions/{attempt.quiz_session_id}/attempts/{attempt.id}")


@router.post("/sessions/{session_id}/run", dependencies=[CsrfFormDep])
@offloaded
async def run(
    request: Request,
    session_id: int,
    user: CurrentUserDep,
    session: SessionDep,
    catalog: CatalogDep,
    code_grader: CodeGraderDep,
) -> Response:
    """*Run* (JSON for the page's script): observations of one try; nothing is recorded.
    A refusal (busy, interrupted, off, too fast) is JSON too: the script shows its message (a
    page here read as "Run failed: the server did not answer")."""
    form = await request.form()
    current_ticket.set(str(form.get("grade_ticket", ""))[:40] or None)
    try:
        limit_grading(request, user)
        view = await trials.run_current(
            session, catalog, user=user, session_id=session_id,
            source=str(form.get("answer", "")), code_grader=code_grader,
        )  # fmt: skip
    except RETRYABLE as exc:
        return json_error(exc)
    return JSONResponse(view.model_dump())


@router.get("/grading/queue")
async def queue_status(
    code_grader: CodeGraderDep, ticket: str = Query(default="", max_length=40)
) -> Response:
    """Where a submission waiting with `ticket` stands in the code grader's queue (any web
    process's, when the queue is shared)."""
    queue = getattr(code_grader, "queue", None)
    if queue is None:
        return JSONResponse({"known": False, "grading": False})
    return JSONResponse({"grading": True, **asdict(await queue.place(ticket))})


@router.post("/sessions/{session_id}/hint", dependencies=[CsrfFormDep])
def hint(
    request: Request,
    session_id: int,
    user: CurrentUserDep,
    session: SessionDep,
    catalog: CatalogDep,
) -> Response:
    shown = sessions.reveal_hint(session, catalog, user=user, session_id=session_id)
    if "application/json" in request.headers.get("accept", ""):
        # `html` is the hint as the page renders it (Markdown, raw HTML escaped), for the script
        return JSONResponse({**shown.model_dump(), "html": str(markdown(shown.text))})
    return _see(f"/sessions/{session_id}#hints")


@router.post("/sessions/{session_id}/skip", dependencies=[CsrfFormDep])
def skip(
    session_id: int, user: CurrentUserDep, session: SessionDep, catalog: CatalogDep
) -> Response:
    sessions.skip_current(session, catalog, user=user, session_id=session_id)
    return _see(f"/sessions/{session_id}")


@router.get("/sessions/{session_id}/attempts/{attempt_id}")
def feedback(
    request: Request,
    session_id: int,
    attempt_id: int,
    user: CurrentUserDep,
    session: SessionDep,
    catalog: CatalogDep,
) -> Response:
    attempt = sessions.get_attempt(session, user=user, session_id=session_id, attempt_id=attempt_id)
    quiz = sessions.get_session(session, user=user, session_id=session_id)
    context = {"attempt": attempt_view(catalog, attempt), "view": session_view(catalog, quiz)}
    return templates.TemplateResponse(request, "sessions/feedback.html", context)


@router.post("/sessions/{session_id}/attempts/{attempt_id}/retry", dependencies=[CsrfFormDep])
def retry(session_id: int, attempt_id: int, user: CurrentUserDep, session: SessionDep) -> Response:
    """*Try again*: the question once more, in this session (see `again`)."""
    sessions.get_attempt(session, user=user, session_id=session_id, attempt_id=attempt_id)
    return _see(f"/sessions/{session_id}/attempts/{attempt_id}/again")


@router.get("/sessions/{session_id}/attempts/{attempt_id}/again")
def again(
    request: Request,
    session_id: int,
    attempt_id: int,
    user: CurrentUserDep,
    session: SessionDep,
    catalog: CatalogDep,
) -> Response:
    """The question of an attempt, to answer again; the session stays where it was, and the
    feedback of the new attempt leads back there."""
    view = retries.retry_view(
        session, catalog, user=user, session_id=session_id, attempt_id=attempt_id
    )
    return _question_page(request, view, again=True)


@router.get("/sessions/{session_id}/summary")
def summary(
    request: Request,
    session_id: int,
    user: CurrentUserDep,
    session: SessionDep,
    catalog: CatalogDep,
) -> Response:
    report = summarize_session(session, catalog, user=user, session_id=session_id)
    return templates.TemplateResponse(request, "sessions/summary.html", {"summary": report})
