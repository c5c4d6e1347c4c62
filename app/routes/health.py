"""Liveness and readiness for load balancers and the Docker HEALTHCHECK.

`/healthz` probes the storage without writing (SQLite: take the write lock and let it go)
and reports the last write fault; while storage cannot take writes it answers 503 with
`ready: false`, so a load balancer stops sending learners whose answers would be lost.
The code checker is reported too but never fails it: everything else works without it.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.db import probe_storage
from app.deps import CatalogDep, SettingsDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz(request: Request, catalog: CatalogDep, settings: SettingsDep) -> JSONResponse:
    storage = probe_storage(request.app.state.engine, settings, request.app.state.storage_health)
    ready = bool(storage["writable"])
    body = {
        "status": "ok" if ready else "degraded",
        "ready": ready,
        "packs": len(catalog.packs),
        "questions": len(catalog.questions),
        "storage": storage,
        "sandbox": sandbox_health(request),
    }
    return JSONResponse(body, status_code=200 if ready else 503)


def sandbox_health(request: Request) -> dict[str, object]:
    """The code checker: its backend, ready workers and queue depth (it never fails liveness:
    the rest of the app works without it)."""
    grader = getattr(request.app.state, "code_grader", None)
    pool = getattr(grader, "pool", None)
    if pool is None:
        return {"backend": None, "state": "disabled", "ready_workers": 0, "queue_depth": 0}
    facts: dict[str, object] = pool.status()
    return facts
