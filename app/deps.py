"""FastAPI dependencies shared by the routers: the catalog and the code grader."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlmodel import Session

from app.config import Settings
from app.grading.dispatch import CodeGraderLike
from app.packs.catalog import Catalog


def get_catalog(request: Request) -> Catalog:
    catalog: Catalog = request.app.state.catalog
    return catalog


def get_code_grader(request: Request) -> CodeGraderLike | None:
    grader: CodeGraderLike | None = request.app.state.code_grader
    return grader


def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_session(request: Request) -> Iterator[Session]:
    with Session(request.app.state.engine) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]
CatalogDep = Annotated[Catalog, Depends(get_catalog)]
CodeGraderDep = Annotated[CodeGraderLike | None, Depends(get_code_grader)]
SettingsDep = Annotated[Settings, Depends(get_app_settings)]
