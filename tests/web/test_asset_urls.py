"""Pages link their assets by root-relative path, never by an absolute URL built from the
request (QA round 10: `http://` assets blocked behind an HTTPS proxy, a forged Host header
echoed into `<script src>`); `tapequiz serve` trusts proxy headers only when told to."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from app.cli import proxy_options
from app.config import Settings


def test_page_links_assets_by_root_relative_path(client: TestClient) -> None:
    page = client.get("/").text
    assert 'href="/static/css/app.css"' in page
    assert 'src="/static/js/app.js"' in page
    assert not re.search(r'(?:href|src|action)="https?://', page)


def test_forged_host_header_is_not_echoed_into_a_page(client: TestClient) -> None:
    page = client.get("/", headers={"Host": "evil.example"}).text
    assert "evil.example" not in page
    assert 'src="/static/js/app.js"' in page


def test_serve_ignores_proxy_headers_by_default(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, trusted_proxies=["10.0.0.0/8"])
    assert proxy_options(settings) == (False, None)


def test_serve_trusts_proxy_headers_from_trusted_proxies_only(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, trusted_proxies=["10.0.0.0/8", "127.0.0.1"])
    settings.proxy_headers = True
    assert proxy_options(settings) == (True, "10.0.0.0/8,127.0.0.1")
    assert proxy_options(Settings(data_dir=tmp_path, proxy_headers=True)) == (False, None)
