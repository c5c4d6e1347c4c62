"""A class signing up and logging in at the same moment, against a live server (round 11, Q1).

40 learners posting the sign-up form at once, each from its own address as on a classroom
network, got 7 x 503 "database is locked": 40 argon2id hashes at once (4 lanes and 64 MiB
each) starved the threads holding SQLite's write lock past the 5 s busy time-out. Hashing
is now bounded to the host's cores (app/security.py), so nobody is refused.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import httpx

from tests.web.live import live_server

CLASS = 40
ARGON2_BYTES = 64 * 1024 * 1024  # argon2-cffi's default memory cost per hash


def _device(url: str, index: int) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{10 + index}")
    return httpx.AsyncClient(base_url=url, timeout=120, transport=transport)


async def _post_form(client: httpx.AsyncClient, path: str, form: dict[str, str]) -> int:
    page = (await client.get(path)).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token, page[:300]
    return (await client.post(path, data={**form, "csrf_token": token.group(1)})).status_code


async def _class_arrives(url: str, path: str) -> list[int]:
    devices = [_device(url, i) for i in range(CLASS)]
    forms = [
        {"email": f"learner{i}@class.example", "password": f"Tape-class-{i}-ok!"}
        for i in range(CLASS)
    ]
    statuses = await asyncio.gather(
        *[_post_form(d, path, f) for d, f in zip(devices, forms, strict=True)]
    )
    for device in devices:
        await device.aclose()
    return list(statuses)


def test_class_of_40_signing_up_then_logging_in_at_once_all_get_in(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        signed_up = asyncio.run(_class_arrives(server.url, "/signup"))
        assert signed_up == [303] * CLASS, sorted(signed_up)
        logged_in = asyncio.run(_class_arrives(server.url, "/login"))
        assert logged_in == [303] * CLASS, sorted(logged_in)
        assert server.rows("user") == 2 * CLASS  # each sign-up and log-in device's guest row


def test_class_signing_up_at_once_hashes_one_password_per_core(tmp_path: Path) -> None:
    """40 argon2id hashes side by side took 40 x 64 MiB; one per core takes a few."""
    with live_server(tmp_path) as server:
        teacher = _device(server.url, CLASS)  # warms pages, pool and the hasher first
        form = {"email": "teacher@class.example", "password": "Tape-teacher-ok!"}
        assert asyncio.run(_post_form(teacher, "/signup", form)) == 303
        before = server.peak_rss_bytes()
        asyncio.run(_class_arrives(server.url, "/signup"))
        grown = server.peak_rss_bytes() - before
        assert grown < ARGON2_BYTES * ((os.cpu_count() or 1) + 4), f"{grown >> 20} MiB"
