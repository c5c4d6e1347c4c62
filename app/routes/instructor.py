"""Instructor pages: publish a pack, run cohorts and read their dashboards; the join page.

Forms post with a CSRF token and redirect after success (post/redirect/get); a refused
upload re-renders the page with every problem listed, file and line first, so the author
can fix the pack and upload again without losing their place.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Request, UploadFile
from fastapi.responses import RedirectResponse
from starlette.responses import Response

from app.clock import ClockDep, get_clock
from app.deps import CatalogDep, CodeGraderDep, PackIdPath, SessionDep, SettingsDep, VersionPath
from app.errors import Conflict, NotFound, PackCheckBusy, PackInvalid
from app.identity import CsrfFormDep, CurrentUserDep, InstructorDep
from app.models.users import User
from app.offload import offloaded
from app.packs.catalog import Catalog
from app.services.instructor import (
    cohort_reports,
    cohorts,
    gift,
    notices,
    publish_jobs,
    publishing,
    withdrawals,
)
from app.services.instructor.publication_queue import Turn, one_publication
from app.web.htmlerrors import HtmlErrorRoute
from app.web.templating import templates

router = APIRouter(route_class=HtmlErrorRoute, include_in_schema=False)
Text = Annotated[str, Form(max_length=120)]


def _overview(
    request: Request,
    session: SessionDep,
    catalog: Catalog,
    user: User,
    *,
    refused: PackInvalid | Conflict | PackCheckBusy | None = None,
    not_withdrawn: Conflict | NotFound | None = None,
) -> Response:
    versions = publishing.list_versions(session)
    claims = request.query_params  # which version to look for; the banners say what happened
    now = get_clock(request).now()
    context = {
        "versions": versions,
        "mine": withdrawals.withdrawable_packs(versions, user),
        "withdrawn": notices.withdrawn(
            versions, user=user, claimed=claims.get("withdrawn", ""), now=now
        ),
        "not_withdrawn": not_withdrawn,
        "cohorts": cohorts.list_cohorts(session, owner=user),
        "packs": sorted(catalog.packs.values(), key=lambda p: p.meta.title),
        "published": notices.published(versions, user=user, claimed=claims.get("published", "")),
        "refused": refused,
        "problems": getattr(refused, "problems", []),
    }
    failed = refused or not_withdrawn
    status = failed.status_code if failed else 200
    return templates.TemplateResponse(request, "instructor/index.html", context, status_code=status)


@router.get("/instructor")
def overview(
    request: Request, user: InstructorDep, session: SessionDep, catalog: CatalogDep
) -> Response:
    return _overview(request, session, catalog, user)


@router.post("/instructor/packs", dependencies=[CsrfFormDep])
@offloaded
async def upload_pack(
    request: Request,
    file: UploadFile,
    user: InstructorDep,
    session: SessionDep,
    settings: SettingsDep,
    catalog: CatalogDep,
    code_grader: CodeGraderDep,
) -> Response:
    data = await file.read(settings.pack_upload_max_bytes + 1)
    try:
        published = await publishing.publish_zip(
            session,
            settings=settings,
            catalog=catalog,
            user=user,
            data=data,
            code_grader=code_grader,
        )
    except (PackInvalid, Conflict, PackCheckBusy) as exc:
        return _overview(request, session, catalog, user, refused=exc)
    request.app.state.catalog = published.catalog
    label = f"{published.version.pack_id} {published.version.version}"
    return RedirectResponse(f"/instructor?published={label}", status_code=303)


@router.post("/instructor/packs/{pack_id}/versions/{version}/withdraw", dependencies=[CsrfFormDep])
@offloaded
async def withdraw_version(
    request: Request,
    pack_id: PackIdPath,
    version: VersionPath,
    user: InstructorDep,
    session: SessionDep,
    settings: SettingsDep,
    catalog: CatalogDep,
    clock: ClockDep,
) -> Response:
    try:
        async with one_publication(Turn()):
            done = withdrawals.withdraw_version(
                session, settings=settings, user=user, pack_id=pack_id, version=version,
                now=clock.now(),
            )  # fmt: skip
    except (Conflict, NotFound) as exc:
        return _overview(request, session, catalog, user, not_withdrawn=exc)
    request.app.state.catalog = done.catalog
    live = f"; {done.live} is live again" if done.live else "; the pack is no longer offered"
    query = urlencode({"withdrawn": f"{pack_id} {version}{live}"})
    return RedirectResponse(f"/instructor?{query}", status_code=303)


def _jobs(request: Request) -> publish_jobs.PublishJobs:
    jobs = getattr(request.app.state, "publish_jobs", None)
    if jobs is None:
        jobs = request.app.state.publish_jobs = publish_jobs.PublishJobs()
    return jobs


@router.post("/instructor/publishing", dependencies=[CsrfFormDep])
async def start_publishing(
    request: Request,
    file: UploadFile,
    user: InstructorDep,
    settings: SettingsDep,
    catalog: CatalogDep,
    code_grader: CodeGraderDep,
) -> Response:
    """Start publishing in the background and show its progress page at once."""
    data = await file.read(settings.pack_upload_max_bytes + 1)

    def serve(published: Catalog) -> None:
        request.app.state.catalog = published

    job = _jobs(request).start(
        publish_jobs.Upload(
            engine=request.app.state.engine, settings=settings, catalog=catalog, user=user,
            data=data, code_grader=code_grader, on_published=serve,
        )
    )  # fmt: skip
    return RedirectResponse(f"/instructor/publishing/{job.id}", status_code=303)


@router.get("/instructor/publishing/{job_id}")
def publishing_progress(
    request: Request, job_id: str, user: InstructorDep, session: SessionDep, catalog: CatalogDep
) -> Response:
    job = _jobs(request).get(job_id, user=user)
    if job is None:
        raise NotFound("no such publishing job (jobs are kept for an hour)")
    if job.done and job.label:
        return RedirectResponse(f"/instructor?published={job.label}", status_code=303)
    if job.done and job.refused is not None:
        return _overview(request, session, catalog, user, refused=job.refused)
    context = {"job": job, "steps": publish_jobs.STEPS}
    page = templates.TemplateResponse(request, "instructor/publishing.html", context)
    page.headers["Cache-Control"] = "no-store"  # a status page: never shown from a cache
    return page


@router.post("/instructor/cohorts", dependencies=[CsrfFormDep])
def create_cohort(
    user: InstructorDep,
    session: SessionDep,
    catalog: CatalogDep,
    name: Text,
    pack_id: Annotated[str, Form(max_length=64)],
) -> Response:
    cohort = cohorts.create_cohort(session, owner=user, name=name, pack_id=pack_id, catalog=catalog)
    return RedirectResponse(f"/instructor/cohorts/{cohort.id}", status_code=303)


@router.get("/instructor/cohorts/{cohort_id}")
def cohort_page(
    request: Request,
    cohort_id: int,
    user: InstructorDep,
    session: SessionDep,
    catalog: CatalogDep,
) -> Response:
    cohort = cohorts.get_cohort(session, owner=user, cohort_id=cohort_id)
    board = cohort_reports.dashboard(session, cohort=cohort, catalog=catalog)
    return templates.TemplateResponse(request, "instructor/cohort.html", {"board": board})


@router.get("/instructor/cohorts/{cohort_id}/learners/{user_id}")
def learner_page(
    request: Request,
    cohort_id: int,
    user_id: int,
    user: InstructorDep,
    session: SessionDep,
    catalog: CatalogDep,
) -> Response:
    cohort = cohorts.get_cohort(session, owner=user, cohort_id=cohort_id)
    report = cohort_reports.learner_report(session, cohort=cohort, catalog=catalog, user_id=user_id)
    return templates.TemplateResponse(request, "instructor/learner.html", {"report": report})


@router.get("/instructor/questions/{question_id}/versions/{version}")
def question_version_page(
    request: Request,
    question_id: str,
    version: str,
    _user: InstructorDep,
    settings: SettingsDep,
    catalog: CatalogDep,
) -> Response:
    found = publishing.question_at_version(
        settings, catalog, question_id=question_id, version=version
    )
    return templates.TemplateResponse(request, "instructor/question_version.html", {"q": found})


@router.post("/instructor/gift", dependencies=[CsrfFormDep])
def convert_gift(
    request: Request,
    _user: InstructorDep,
    catalog: CatalogDep,
    text: Annotated[str, Form(max_length=gift.MAX_IMPORT_CHARS)],
    prefix: Annotated[str, Form(max_length=20, pattern=r"^([a-z0-9][a-z0-9-]*-)?$")] = "",
) -> Response:
    imported, skipped = gift.import_gift(text, prefix=prefix, taken=set(catalog.questions))
    context = {"imported": imported, "skipped": skipped}
    return templates.TemplateResponse(request, "instructor/gift.html", context)


@router.get("/join")
def join_page(request: Request, user: CurrentUserDep, session: SessionDep) -> Response:
    joined = cohorts.cohorts_of_learner(session, user=user)
    context = {"joined": joined, "error": None, "just_joined": request.query_params.get("joined")}
    return templates.TemplateResponse(request, "instructor/join.html", context)


@router.post("/join", dependencies=[CsrfFormDep])
def join(
    request: Request,
    user: CurrentUserDep,
    session: SessionDep,
    code: Annotated[str, Form(max_length=20)],
    name: Annotated[str, Form(max_length=80)] = "",
) -> Response:
    try:
        cohort = cohorts.join_cohort(session, user=user, code=code, display_name=name or None)
    except NotFound as exc:
        joined = cohorts.cohorts_of_learner(session, user=user)
        context = {"joined": joined, "error": exc.message, "just_joined": None}
        return templates.TemplateResponse(request, "instructor/join.html", context, status_code=404)
    return RedirectResponse(f"/join?joined={cohort.id}", status_code=303)
