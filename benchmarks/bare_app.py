"""The baselines for benchmarks/scaling.py: a bare FastAPI route returning a 4 KB page, as a
plain `def` (run in the thread pool, the issue's baseline) and as an `async def`.

Served by the same uvicorn as the app (`uvicorn` picks uvloop and httptools when installed,
as they are here, for both), with the access log off in both (log level warning)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

PAGE = "<!doctype html><title>bare</title>" + "<p>" + "x" * 4000 + "</p>"
app = FastAPI()


@app.get("/bare")
def bare() -> HTMLResponse:
    return HTMLResponse(PAGE)


@app.get("/bare-async")
async def bare_async() -> HTMLResponse:
    return HTMLResponse(PAGE)
