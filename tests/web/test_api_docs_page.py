"""/docs (Swagger UI) loads nothing from another host: its script, stylesheet and icon are
the vendored files under static/vendor/ (the README promises no CDN); /openapi.json stays."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

ASSET = re.compile(r"""(?:src|href)=["']([^"']+)["']|url:\s*'([^']+)'""")


def assets(html: str) -> list[str]:
    return [a or b for a, b in ASSET.findall(html)]


def test_docs_page_loads_only_local_assets(client: TestClient) -> None:
    page = client.get("/docs")

    assert page.status_code == 200
    assert "cdn." not in page.text and "tiangolo.com" not in page.text
    assert assets(page.text) and all(url.startswith("/") for url in assets(page.text))


def test_docs_page_assets_are_served(client: TestClient) -> None:
    urls = assets(client.get("/docs").text)

    served = {url: client.get(url) for url in urls}

    assert {url: r.status_code for url, r in served.items()} == dict.fromkeys(urls, 200)
    assert any(url.endswith(".js") and len(r.content) > 1_000_000 for url, r in served.items())


def test_openapi_json_is_still_served(client: TestClient) -> None:
    assert client.get("/openapi.json").json()["info"]["title"] == "tapequiz"
