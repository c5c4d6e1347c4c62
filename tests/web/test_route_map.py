"""The routers are matched in order with the busiest pages first (issue 16); that order may
only change speed, so no route of one router may match a path that another router serves."""

from __future__ import annotations

import re

from fastapi.routing import APIRoute

from app.config import Settings
from app.main import create_app


def _routers() -> list[list[APIRoute]]:
    app = create_app(Settings(sandbox_enabled=False))
    routers = [getattr(r, "original_router", None) for r in app.routes]
    return [[r for r in found.routes if isinstance(r, APIRoute)] for found in routers if found]


def _sample(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "1", path)


def test_no_route_of_one_router_matches_another_routers_paths() -> None:
    routers = _routers()
    assert len(routers) >= 10
    clashes = []
    for index, routes in enumerate(routers):
        others = [r for j, rs in enumerate(routers) if j != index for r in rs]
        for route in routes:
            for other in others:
                same_method = route.methods & other.methods
                if same_method and other.path_regex.match(_sample(route.path)):
                    clashes.append((route.path, other.path))
    assert clashes == []
