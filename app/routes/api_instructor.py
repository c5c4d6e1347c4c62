"""JSON API for instructors: publish packs, run cohorts, export and import GIFT.

Every route needs the instructor role (403 otherwise). Uploads are multipart, which a
browser may send cross-site without a preflight, so state-changing calls here also need an
`X-Requested-With` header: a custom header forces a CORS preflight this app never grants.
"""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Request, UploadFile
from fastapi.responses import Response
from pydantic import BaseModel, Field

from app.clock import ClockDep
from app.deps import (
    CatalogDep,
    CodeGraderDep,
    PackIdPath,
    RowId,
    SessionDep,
    SettingsDep,
    VersionPath,
)
from app.errors import NotFound
from app.identity import CurrentUserDep, CustomHeaderDep, InstructorDep, JsonBodyDep
from app.models.publishing import Cohort
from app.offload import offloaded
from app.schemas import ErrorBody, RequestBody
from app.services.instructor import cohort_reports, cohorts, gift, publishing, withdrawals
from app.services.instructor.cohort_reports import LearnerReport
from app.services.instructor.cohorts import CohortDashboard
from app.services.instructor.publication_queue import Turn, one_publication
from app.services.instructor.selftest import SelfTestReport

router = APIRouter(tags=["instructor"])  # full paths: /api/cohorts/join is for learners
ERRORS: dict[int | str, dict[str, object]] = {
    403: {"model": ErrorBody, "description": "Not an instructor, or no X-Requested-With header"},
    409: {"model": ErrorBody, "description": "Version not newer, or pack owned by someone else"},
    422: {"model": ErrorBody, "description": "Refused upload; `details` lists each problem"},
}


class SelfTestRow(BaseModel):
    question_id: str
    type: str
    passed: int
    failed: int
    skipped: int


class PackVersionOut(BaseModel):
    pack_id: str
    version: str
    title: str
    question_count: int
    created_at: datetime
    withdrawn_at: datetime | None = None


class WithdrawnOut(PackVersionOut):
    withdrawn_at: datetime
    live: str | None = Field(description="The version served now; null: the pack is not served")


class PublishedOut(PackVersionOut):
    selftest: list[SelfTestRow]


def selftest_rows(report: SelfTestReport) -> list[SelfTestRow]:
    return [
        SelfTestRow(
            question_id=row.question_id,
            type=row.type,
            passed=row.count("pass"),
            failed=row.count("fail"),
            skipped=row.count("skip"),
        )
        for row in report.rows
    ]


@router.get("/api/instructor/packs", response_model=list[PackVersionOut], responses=ERRORS)
def list_pack_versions(_user: InstructorDep, session: SessionDep) -> list[PackVersionOut]:
    return [
        PackVersionOut.model_validate(v, from_attributes=True)
        for v in publishing.list_versions(session)
    ]


async def read_upload(file: UploadFile, limit: int) -> bytes:
    return await file.read(limit + 1)  # one byte over is enough to refuse it as too large


@router.post(
    "/api/instructor/packs",
    response_model=PublishedOut,
    status_code=201,
    responses=ERRORS,
    dependencies=[CustomHeaderDep],
)
@offloaded
async def publish_pack(
    file: UploadFile,
    request: Request,
    user: InstructorDep,
    session: SessionDep,
    settings: SettingsDep,
    catalog: CatalogDep,
    code_grader: CodeGraderDep,
) -> PublishedOut:
    """Upload a zipped pack; it is validated and self-tested before it is published."""
    data = await read_upload(file, settings.pack_upload_max_bytes)
    published = await publishing.publish_zip(
        session, settings=settings, catalog=catalog, user=user, data=data, code_grader=code_grader
    )
    request.app.state.catalog = published.catalog
    version = PackVersionOut.model_validate(published.version, from_attributes=True)
    return PublishedOut(**version.model_dump(), selftest=selftest_rows(published.selftest))


@router.post(
    "/api/instructor/packs/{pack_id}/versions/{version}/withdraw",
    response_model=WithdrawnOut,
    responses={
        **ERRORS,
        404: {"model": ErrorBody, "description": "No such published version"},
        409: {"model": ErrorBody, "description": "Not the live version, not your pack, or"
              " a mock interview on it is running"},
    },
    dependencies=[CustomHeaderDep],
)  # fmt: skip
@offloaded
async def withdraw_pack_version(
    pack_id: PackIdPath,
    version: VersionPath,
    request: Request,
    user: InstructorDep,
    session: SessionDep,
    settings: SettingsDep,
    clock: ClockDep,
) -> WithdrawnOut:
    """Take the live version out of service (the one before it is served again); every
    attempt, progress and review state is kept. See docs/authoring.md."""
    async with one_publication(Turn()):  # never between a publication's checks and its move
        done = withdrawals.withdraw_version(
            session, settings=settings, user=user, pack_id=pack_id, version=version,
            now=clock.now(),
        )  # fmt: skip
    request.app.state.catalog = done.catalog
    version_out = PackVersionOut.model_validate(done.version, from_attributes=True)
    return WithdrawnOut(**{**version_out.model_dump(), "live": done.live})


class CohortIn(RequestBody):
    name: str = Field(min_length=1, max_length=120)
    pack_id: str = Field(min_length=1, max_length=64)


class CohortOut(BaseModel):
    id: int
    name: str
    pack_id: str
    join_code: str
    members: int
    created_at: datetime


class JoinIn(RequestBody):
    code: str = Field(min_length=4, max_length=20)


class JoinedOut(BaseModel):
    name: str
    pack_id: str


def cohort_out(cohort: Cohort, members: int) -> CohortOut:
    return CohortOut(**cohort.model_dump(exclude={"owner_id"}), members=members)


@router.post(
    "/api/instructor/cohorts",
    response_model=CohortOut,
    status_code=201,
    responses=ERRORS,
    dependencies=[JsonBodyDep],
)
def create_cohort(
    body: CohortIn, user: InstructorDep, session: SessionDep, catalog: CatalogDep
) -> CohortOut:
    cohort = cohorts.create_cohort(
        session, owner=user, name=body.name, pack_id=body.pack_id, catalog=catalog
    )
    return cohort_out(cohort, 0)


@router.get("/api/instructor/cohorts", response_model=list[CohortOut], responses=ERRORS)
def list_cohorts(user: InstructorDep, session: SessionDep) -> list[CohortOut]:
    return [cohort_out(c, n) for c, n in cohorts.list_cohorts(session, owner=user)]


@router.get("/api/instructor/cohorts/{cohort_id}", response_model=CohortDashboard, responses=ERRORS)
def cohort_dashboard(
    cohort_id: RowId, user: InstructorDep, session: SessionDep, catalog: CatalogDep
) -> CohortDashboard:
    cohort = cohorts.get_cohort(session, owner=user, cohort_id=cohort_id)
    return cohort_reports.dashboard(session, cohort=cohort, catalog=catalog)


@router.get(
    "/api/instructor/cohorts/{cohort_id}/learners/{user_id}",
    response_model=LearnerReport,
    responses=ERRORS,
)
def cohort_learner(
    cohort_id: RowId, user_id: RowId, user: InstructorDep, session: SessionDep, catalog: CatalogDep
) -> LearnerReport:
    """One member's attempts on the cohort's pack since joining, newest first."""
    cohort = cohorts.get_cohort(session, owner=user, cohort_id=cohort_id)
    return cohort_reports.learner_report(session, cohort=cohort, catalog=catalog, user_id=user_id)


@router.get("/api/instructor/cohorts/{cohort_id}/export.csv", responses=ERRORS)
def export_cohort(
    cohort_id: RowId, user: InstructorDep, session: SessionDep, catalog: CatalogDep
) -> Response:
    """Every attempt of the cohort as CSV (formula-like cells are prefixed with ')."""
    cohort = cohorts.get_cohort(session, owner=user, cohort_id=cohort_id)
    text = cohort_reports.export_csv(session, cohort=cohort, catalog=catalog)
    filename = f"cohort-{cohort_id}-{cohort.pack_id}.csv"
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
    return Response(text, media_type="text/csv; charset=utf-8", headers=headers)


@router.post(
    "/api/cohorts/join",
    response_model=JoinedOut,
    responses={404: {"model": ErrorBody, "description": "Unknown join code"}},
    dependencies=[JsonBodyDep],
)
def join_cohort(body: JoinIn, user: CurrentUserDep, session: SessionDep) -> JoinedOut:
    """Any visitor (guest or account) joins a cohort with the code their instructor gave."""
    cohort = cohorts.join_cohort(session, user=user, code=body.code)
    return JoinedOut(name=cohort.name, pack_id=cohort.pack_id)


@router.get(
    "/api/instructor/packs/{pack_id}/gift",
    responses={**ERRORS, 200: {"content": {"text/plain": {}}, "description": "GIFT text"}},
)
def export_gift(
    pack_id: str, user: InstructorDep, session: SessionDep, catalog: CatalogDep
) -> Response:
    """The pack's choice, true/false, predict-output and free-text (essay) questions in GIFT.

    With their answer keys, so only for the instructor who published the pack (built-in
    packs are public: their keys are in the repository). Another's pack is a 404."""
    pack = catalog.packs.get(pack_id)
    versions = publishing.list_versions(session, pack_id=pack_id)
    owner = versions[-1].published_by if versions else None  # the first publisher owns it
    if pack is None or owner not in (None, user.id):
        raise NotFound(f"no pack with id {pack_id[:80]!r}")
    headers = {"Content-Disposition": f'attachment; filename="{pack_id}.gift.txt"'}
    return Response(gift.export_pack(pack), media_type="text/plain; charset=utf-8", headers=headers)


class GiftIn(RequestBody):
    text: str = Field(min_length=1, max_length=gift.MAX_IMPORT_CHARS)
    prefix: str = Field(default="", max_length=20, pattern=r"^([a-z0-9][a-z0-9-]*-)?$")


class GiftQuestionOut(BaseModel):
    id: str
    type: str
    yaml: str


class GiftSkippedOut(BaseModel):
    title: str
    reason: str


class GiftOut(BaseModel):
    questions: list[GiftQuestionOut]
    skipped: list[GiftSkippedOut]


@router.post(
    "/api/instructor/gift/convert",
    response_model=GiftOut,
    responses=ERRORS,
    dependencies=[JsonBodyDep],
)
def convert_gift(body: GiftIn, _user: InstructorDep, catalog: CatalogDep) -> GiftOut:
    """GIFT choice and true/false questions as pack YAML files (ids avoid existing ones)."""
    imported, skipped = gift.import_gift(
        body.text, prefix=body.prefix, taken=set(catalog.questions)
    )
    return GiftOut(
        questions=[GiftQuestionOut(id=q.id, type=q.type, yaml=q.yaml) for q in imported],
        skipped=[GiftSkippedOut(title=s.title, reason=s.reason) for s in skipped],
    )
