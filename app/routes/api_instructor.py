"""JSON API for instructors: publish packs, run cohorts, export and import GIFT.

Every route needs the instructor role (403 otherwise). Uploads are multipart, which a
browser may send cross-site without a preflight, so state-changing calls here also need an
`X-Requested-With` header: a custom header forces a CORS preflight this app never grants.
"""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Depends, Request, UploadFile
from pydantic import BaseModel

from app.deps import CatalogDep, CodeGraderDep, SessionDep, SettingsDep
from app.identity import InstructorDep
from app.schemas import ErrorBody
from app.security import Forbidden
from app.services import publishing
from app.services.selftest import SelfTestReport

router = APIRouter(prefix="/api/instructor", tags=["instructor"])
ERRORS: dict[int | str, dict[str, object]] = {
    403: {"model": ErrorBody, "description": "Not an instructor, or no X-Requested-With header"},
    409: {"model": ErrorBody, "description": "Version not newer, or pack owned by someone else"},
    422: {"model": ErrorBody, "description": "Refused upload; `details` lists each problem"},
}


def require_custom_header(request: Request) -> None:
    if not request.headers.get("x-requested-with"):
        raise Forbidden("send an X-Requested-With header with state-changing instructor calls")


CustomHeaderDep = Depends(require_custom_header)


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


@router.get("/packs", response_model=list[PackVersionOut], responses=ERRORS)
def list_pack_versions(_user: InstructorDep, session: SessionDep) -> list[PackVersionOut]:
    return [
        PackVersionOut.model_validate(v, from_attributes=True)
        for v in publishing.list_versions(session)
    ]


async def read_upload(file: UploadFile, limit: int) -> bytes:
    return await file.read(limit + 1)  # one byte over is enough to refuse it as too large


@router.post(
    "/packs",
    response_model=PublishedOut,
    status_code=201,
    responses=ERRORS,
    dependencies=[CustomHeaderDep],
)
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
