"""Every page linked no icon and browsers then ask for /favicon.ico: each visit logged a 404.
The icon is a static file, linked from base.html and also served at the conventional path."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

ICO_HEADER = b"\x00\x00\x01\x00"  # reserved 0, type 1 (icon)


def test_favicon_is_served_at_the_conventional_path(client: TestClient) -> None:
    reply = client.get("/favicon.ico")
    got = (reply.status_code, reply.headers["content-type"], reply.content[:4])
    assert got == (200, "image/x-icon", ICO_HEADER)


def test_favicon_request_sets_no_cookie(client: TestClient) -> None:
    assert "set-cookie" not in client.get("/favicon.ico").headers


def test_pages_link_the_icon_and_it_loads(client: TestClient) -> None:
    linked = re.search(r'<link rel="icon" href="([^"]+)"', client.get("/").text)
    assert linked, "no icon linked"
    reply = client.get(linked.group(1))
    assert (reply.status_code, reply.content[:4]) == (200, ICO_HEADER)
