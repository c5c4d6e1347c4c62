"""Liveness for load balancers and the Docker HEALTHCHECK: cheap, no database writes."""

from __future__ import annotations

from fastapi import APIRouter, Request

from app.deps import CatalogDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz(request: Request, catalog: CatalogDep) -> dict[str, object]:
    return {
        "status": "ok",
        "packs": len(catalog.packs),
        "questions": len(catalog.questions),
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
