"""/docs: Swagger UI for the JSON API, served from static/vendor/ rather than a CDN.

FastAPI's built-in page loads Swagger UI from cdn.jsdelivr.net and its favicon from
fastapi.tiangolo.com; the README promises that no page fetches anything from a CDN, so the
app turns that page off (docs_url=None) and serves the same page with vendored files.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse

SWAGGER_UI = "/static/vendor/swagger-ui-5.35.0"

router = APIRouter(include_in_schema=False)


@router.get("/docs")
async def api_docs(request: Request) -> HTMLResponse:
    return get_swagger_ui_html(
        openapi_url=request.app.openapi_url,
        title=f"{request.app.title} - JSON API",
        swagger_js_url=f"{SWAGGER_UI}/swagger-ui-bundle-5.35.0.js",
        swagger_css_url=f"{SWAGGER_UI}/swagger-ui-5.35.0.css",
        swagger_favicon_url=f"{SWAGGER_UI}/favicon-32x32.png",
    )
