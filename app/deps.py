"""FastAPI dependencies shared by the routers: the catalog, the code grader, a DB session,
the interview graders."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Path, Request
from sqlmodel import Session

from app.config import Settings
from app.grading.dispatch import CodeGraderLike
from app.identity import Visitor, get_visitor
from app.offload import OnLoop
from app.packs.catalog import Catalog
from app.packs.schema import SLUG
from app.services.interviews.answers import Graders
from app.web.reads import PageReads


# The cheap dependencies are `async def`: FastAPI runs a plain `def` dependency in the thread
# pool, and each such hop cost more than the work it wrapped (issue 16 profile).
async def get_catalog(request: Request) -> Catalog:
    catalog: Catalog = request.app.state.catalog
    return catalog


async def get_code_grader(request: Request) -> CodeGraderLike | None:
    """The code grader, wrapped so that a use case run by `offload()` in a worker thread
    still grades on the main loop, where the sandbox pool lives."""
    grader: CodeGraderLike | None = request.app.state.code_grader
    loop = getattr(request.app.state, "loop", None)
    if grader is None or loop is None or isinstance(grader, OnLoop):
        return grader
    return OnLoop(grader, loop)


async def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_session(request: Request) -> Iterator[Session]:
    with Session(request.app.state.engine) as session:
        yield session


@dataclass(frozen=True)
class AsyncPage:
    """What an `async def` page handler takes from the app, solved as one dependency
    (FastAPI spent ~6 us on each of four separate ones: issue 16). Its reads go through
    `reads`, one thread hop for the lot; `code_grader` is used on the loop as it is."""

    visitor: Visitor
    reads: PageReads
    catalog: Catalog
    code_grader: CodeGraderLike | None


async def get_async_page(request: Request) -> AsyncPage:
    state = request.app.state
    return AsyncPage(get_visitor(request), state.page_reads, state.catalog, state.code_grader)


SessionDep = Annotated[Session, Depends(get_session)]
AsyncPageDep = Annotated[AsyncPage, Depends(get_async_page)]
MAX_ROW_ID = 2**63 - 1  # database integers are signed 64-bit: a larger id is a 422
RowId = Annotated[int, Path(ge=0, le=MAX_ROW_ID)]
# A pack id and a version from a URL: checked before they name any file or row.
PackIdPath = Annotated[str, Path(pattern=SLUG, max_length=64)]
VersionPath = Annotated[str, Path(pattern=r"^\d+\.\d+\.\d+$", max_length=32)]
CatalogDep = Annotated[Catalog, Depends(get_catalog)]
CodeGraderDep = Annotated[CodeGraderLike | None, Depends(get_code_grader)]
SettingsDep = Annotated[Settings, Depends(get_app_settings)]


async def get_graders(
    request: Request, catalog: CatalogDep, code_grader: CodeGraderDep, settings: SettingsDep
) -> Graders:
    """What an interview answer is graded with (the JSON API and the pages alike): code
    answers go to the background drain the app started (none without a code grader)."""
    return Graders(
        catalog=catalog,
        code_grader=code_grader,
        busy_wait_seconds=settings.interview_busy_wait_seconds,
        drain=getattr(request.app.state, "drain", None),
    )


GradersDep = Annotated[Graders, Depends(get_graders)]
