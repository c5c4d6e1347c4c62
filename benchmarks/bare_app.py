"""The baseline for benchmarks/scaling.py: a bare FastAPI route returning a 4 KB page."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

PAGE = "<!doctype html><title>bare</title>" + "<p>" + "x" * 4000 + "</p>"
app = FastAPI()


@app.get("/bare")
def bare() -> HTMLResponse:
    return HTMLResponse(PAGE)
