"""Liveness for load balancers and the Docker HEALTHCHECK: cheap, no database writes."""

from __future__ import annotations

from fastapi import APIRouter

from app.deps import CatalogDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz(catalog: CatalogDep) -> dict[str, object]:
    return {"status": "ok", "packs": len(catalog.packs), "questions": len(catalog.questions)}
