"""Pages outside a quiz session: home, progress and history, the review queue, the browser."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import FileResponse, Response

from app.config import REPO_ROOT
from app.deps import AsyncPageDep, CatalogDep, SessionDep
from app.identity import CurrentUserDep, adopt_reader
from app.services import browse, questions
from app.services.instructor import dashboard
from app.services.practice import submissions
from app.services.practice.summaries import attempt_view
from app.services.progress import history as progress
from app.services.progress import mastery, reviews
from app.web.htmlerrors import HtmlErrorRoute
from app.web.templating import templates

router = APIRouter(route_class=HtmlErrorRoute, include_in_schema=False)
Filter = Annotated[str, Query(max_length=64)]  # Annotated: each parameter gets its own copy


FAVICON = REPO_ROOT / "static" / "favicon.ico"


@router.get("/favicon.ico")
async def favicon() -> Response:
    """Browsers and crawlers ask for /favicon.ico whatever the page links: a 404 per visit."""
    return FileResponse(
        FAVICON, media_type="image/x-icon", headers={"Cache-Control": "max-age=86400"}
    )


@router.get("/")
async def home(request: Request, page: AsyncPageDep) -> Response:
    """Every visit starts here: like the question page, its reads take one thread hop (the
    account checked and the learner's numbers on one connection); rendering stays on the loop."""
    visitor = page.visitor
    user, board = await page.reads.run(
        dashboard.load, page.catalog, user_id=visitor.user_id, epoch=visitor.epoch
    )
    adopt_reader(request, visitor, user)
    return templates.TemplateResponse(request, "home/index.html", {"board": board})


@router.get("/progress")
def progress_page(
    request: Request,
    user: CurrentUserDep,
    session: SessionDep,
    catalog: CatalogDep,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
) -> Response:
    assert user.id is not None
    shown, pages = progress.attempts_page(session, user_id=user.id, page=page)
    context = {
        "progress": mastery.progress_of(session, catalog, user=user),
        "attempts": [attempt_view(catalog, a) for a in shown],
        "page": min(page, pages),
        "pages": pages,
        "forecast": reviews.forecast(session, user_id=user.id, served=catalog.questions),
    }
    return templates.TemplateResponse(request, "progress/index.html", context)


@router.get("/reviews")
def review_queue(
    request: Request, user: CurrentUserDep, session: SessionDep, catalog: CatalogDep
) -> Response:
    assert user.id is not None
    served = catalog.questions
    due = reviews.due_question_ids(session, user_id=user.id, served=served)
    items = [questions.get_question(catalog, q) for q in due if q in served]
    forecast = reviews.forecast(session, user_id=user.id, served=served)
    upcoming = [
        (catalog.questions[q].question.title, due, days)
        for q, due, days in forecast.upcoming
        if q in catalog.questions
    ]
    context = {
        "due": items,
        "next_review": reviews.next_due(session, user_id=user.id, served=served),
        "forecast": forecast,
        "upcoming": upcoming,
    }
    return templates.TemplateResponse(request, "progress/reviews.html", context)


@router.get("/questions")
def question_browser(
    request: Request,
    user: CurrentUserDep,
    catalog: CatalogDep,
    pack: Filter = "",
    topic: Filter = "",
    type: Filter = "",
    difficulty: Filter = "",
    q: str = Query(default="", max_length=100),
) -> Response:
    found = browse.browse(
        catalog,
        pack=pack or None,
        topic=topic or None,
        qtype=type or None,
        difficulty=difficulty or None,
        text=q or None,
    )
    filters = {"pack": pack, "topic": topic, "type": type, "difficulty": difficulty, "q": q}
    context = {"questions": found, "packs": browse.menu(catalog), "filters": filters}
    return templates.TemplateResponse(request, "questions/index.html", context)


@router.get("/questions/{question_id}")
def question_detail(
    request: Request, question_id: str, user: CurrentUserDep, catalog: CatalogDep
) -> Response:
    detail = questions.get_question(catalog, question_id)
    return templates.TemplateResponse(request, "questions/detail.html", {"q": detail})


@router.get("/questions/{question_id}/submissions")
def question_submissions(
    request: Request,
    question_id: str,
    user: CurrentUserDep,
    session: SessionDep,
    catalog: CatalogDep,
    old: int | None = None,
    new: int | None = None,
) -> Response:
    detail = questions.get_question(catalog, question_id)
    found = submissions.submissions_of(session, user=user, question_id=question_id)
    if old is None and new is None and len(found) >= 2:
        old, new = found[1].id, found[0].id  # the last fix, by default
    lines = []
    if old is not None and new is not None:
        lines = submissions.diff(
            session, catalog, user=user, question_id=question_id, old=old, new=new
        )
    context = {
        "q": detail,
        "attempts": [attempt_view(catalog, a) for a in found],
        "diff": lines,
        "old": old,
        "new": new,
    }
    return templates.TemplateResponse(request, "questions/submissions.html", context)
