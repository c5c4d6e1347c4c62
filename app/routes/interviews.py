"""Mock interview pages: set-up, the timed question page, the report (printable).

Plain forms (POST, then redirect) that work without JavaScript; static/js/interview.js adds
the countdown, which only displays the server's deadline (the server refuses late answers
whatever the page shows). The question page reuses the quiz's answer partials and form
parsing, so an interview question looks and answers exactly like a practice question.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse
from starlette.responses import Response

from app.clock import ClockDep
from app.deps import CatalogDep, GradersDep, SessionDep
from app.errors import AnswerInvalid, Conflict
from app.identity import CsrfFormDep, CurrentUserDep, limit_grading
from app.offload import in_thread, offload, offloaded, offloads_itself
from app.security import RateLimited
from app.services import questions
from app.services.interviews import lifecycle as interviews
from app.services.interviews import waiting
from app.services.interviews.lifecycle import DeadlinePassed
from app.services.interviews.plans import FOLLOWUPS, LENGTHS, PLANS
from app.web.forms import answer_from_form
from app.web.htmlerrors import HtmlErrorRoute
from app.web.templating import templates

router = APIRouter(route_class=HtmlErrorRoute, include_in_schema=False)


def _see(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


@router.get("/interviews")
def new_interview(
    request: Request, user: CurrentUserDep, db: SessionDep, catalog: CatalogDep
) -> Response:
    context = {
        "packs": questions.list_packs(catalog),
        "lengths": LENGTHS,
        "plans": PLANS,
        "followups": FOLLOWUPS,
        "history": interviews.list_interviews(db, user=user),
    }
    return templates.TemplateResponse(request, "interviews/new.html", context)


@router.post("/interviews", dependencies=[CsrfFormDep])
@offloaded
async def start_interview(
    user: CurrentUserDep,
    db: SessionDep,
    graders: GradersDep,
    clock: ClockDep,
    pack: Annotated[str, Form(max_length=64)],
    minutes: Annotated[int, Form()],
    difficulty: Annotated[str, Form(max_length=10)] = "",
) -> Response:
    level = difficulty if difficulty in ("easy", "medium", "hard") else None
    started = await interviews.start_interview(
        db, graders=graders, user=user, pack=pack, minutes=minutes, difficulty=level, clock=clock
    )
    return _see(f"/interviews/{started.id}")


def _question_page(
    request: Request,
    status: interviews.InterviewStatus,
    *,
    code_grading: bool,
    error: Exception | None = None,
    answer: object = None,
) -> Response:
    context = {
        "status": status,
        "q": status.question,
        "error": error,
        "answer": answer,
        "code_grading": code_grading,
    }
    code = getattr(error, "status_code", 200)
    return templates.TemplateResponse(
        request, "interviews/question.html", context, status_code=code
    )


@router.get("/interviews/{interview_id}")
@offloaded
async def show_question(
    request: Request,
    interview_id: str,
    user: CurrentUserDep,
    db: SessionDep,
    graders: GradersDep,
    clock: ClockDep,
) -> Response:
    status = await interviews.get_status(
        db, graders=graders, user=user, interview_id=interview_id, clock=clock
    )
    if status.finished or status.question is None:
        return _see(f"/interviews/{interview_id}/report")
    return _question_page(request, status, code_grading=graders.code_grader is not None)


@router.post("/interviews/{interview_id}/answer", dependencies=[CsrfFormDep])
@offloads_itself
async def answer(
    request: Request,
    interview_id: str,
    user: CurrentUserDep,
    db: SessionDep,
    graders: GradersDep,
    clock: ClockDep,
) -> Response:
    form = await request.form()
    skip = form.get("skip") is not None
    given = None if skip else answer_from_form(str(form.get("question_type", "")), form)
    try:
        await in_thread(limit_grading, request, user)
        result = await waiting.submit_answer(
            db,
            graders=graders,
            user=user,
            interview_id=interview_id,
            question_id=str(form.get("question_id", "")),
            answer=given,
            clock=clock,
        )
    except DeadlinePassed:
        return _see(f"/interviews/{interview_id}/report?late=1")
    except Conflict:  # finished meanwhile, or a double submit: the GET shows where things are
        return _see(f"/interviews/{interview_id}")
    except (AnswerInvalid, RateLimited) as exc:
        return await offload(_refused, request, db, graders, user, interview_id, clock, exc, given)
    if result.next is None:
        return _see(f"/interviews/{interview_id}/report")
    return _see(f"/interviews/{interview_id}")


async def _refused(
    request: Request,
    db: SessionDep,
    graders: GradersDep,
    user: CurrentUserDep,
    interview_id: str,
    clock: ClockDep,
    error: Exception,
    given: object,
) -> Response:
    """The question page again, with why the answer was refused (a worker thread)."""
    status = await interviews.get_status(
        db, graders=graders, user=user, interview_id=interview_id, clock=clock
    )
    code_grading = graders.code_grader is not None
    return _question_page(request, status, code_grading=code_grading, error=error, answer=given)


@router.post("/interviews/{interview_id}/finish", dependencies=[CsrfFormDep])
@offloads_itself
async def finish(
    interview_id: str,
    user: CurrentUserDep,
    db: SessionDep,
    graders: GradersDep,
    clock: ClockDep,
) -> Response:
    await waiting.finish_interview(
        db, graders=graders, user=user, interview_id=interview_id, clock=clock
    )
    return _see(f"/interviews/{interview_id}/report")


@router.get("/interviews/{interview_id}/report")
@offloads_itself
async def report(
    request: Request,
    interview_id: str,
    user: CurrentUserDep,
    db: SessionDep,
    graders: GradersDep,
    clock: ClockDep,
    late: bool = False,
) -> Response:
    try:
        shown = await waiting.get_report(
            db, graders=graders, user=user, interview_id=interview_id, clock=clock
        )
    except Conflict:  # still running
        return _see(f"/interviews/{interview_id}")
    context = {"report": shown, "late": late}
    return await in_thread(templates.TemplateResponse, request, "interviews/report.html", context)
