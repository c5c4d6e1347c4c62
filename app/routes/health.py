"""Liveness for load balancers and the Docker HEALTHCHECK: cheap, no database writes."""

from __future__ import annotations

from fastapi import APIRouter, Request

from app.db import probe_storage
from app.deps import CatalogDep, SettingsDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz(request: Request, catalog: CatalogDep, settings: SettingsDep) -> dict[str, object]:
    storage = probe_storage(request.app.state.engine, settings, request.app.state.storage_health)
    return {
        "status": "ok",
        "packs": len(catalog.packs),
        "questions": len(catalog.questions),
        "storage": storage,
        "sandbox": sandbox_health(request),
    }


def sandbox_health(request: Request) -> dict[str, object]:
    """The code checker: its backend, ready workers and queue depth (it never fails liveness:
    the rest of the app works without it)."""
    grader = getattr(request.app.state, "code_grader", None)
    pool = getattr(grader, "pool", None)
    if pool is None:
        return {"backend": None, "state": "disabled", "ready_workers": 0, "queue_depth": 0}
    facts: dict[str, object] = pool.status()
    return facts
