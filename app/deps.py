"""FastAPI dependencies shared by the routers: the catalog, the code grader, a DB session."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Path, Request
from sqlmodel import Session

from app.config import Settings
from app.grading.dispatch import CodeGraderLike
from app.offload import OnLoop
from app.packs.catalog import Catalog


def get_catalog(request: Request) -> Catalog:
    catalog: Catalog = request.app.state.catalog
    return catalog


def get_code_grader(request: Request) -> CodeGraderLike | None:
    """The code grader, wrapped so that a use case run by `offload()` in a worker thread
    still grades on the main loop, where the sandbox pool lives."""
    grader: CodeGraderLike | None = request.app.state.code_grader
    loop = getattr(request.app.state, "loop", None)
    if grader is None or loop is None or isinstance(grader, OnLoop):
        return grader
    return OnLoop(grader, loop)


def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_session(request: Request) -> Iterator[Session]:
    with Session(request.app.state.engine) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]
MAX_ROW_ID = 2**63 - 1  # database integers are signed 64-bit: a larger id is a 422
RowId = Annotated[int, Path(ge=0, le=MAX_ROW_ID)]
CatalogDep = Annotated[Catalog, Depends(get_catalog)]
CodeGraderDep = Annotated[CodeGraderLike | None, Depends(get_code_grader)]
SettingsDep = Annotated[Settings, Depends(get_app_settings)]
