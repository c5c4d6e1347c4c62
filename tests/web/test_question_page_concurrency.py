"""The question page under real concurrency (issue 16): a live server, many visitors at once,
each page built from the right visitor's rows; no cookie verdict, question view or answer
field of one visitor ever shows on another's page."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import httpx

from tests.web.live import live_server

DRAFT = re.compile(r"tapequiz:draft:(\d+):mini-code")
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


async def _visitor(url: str) -> tuple[httpx.AsyncClient, str]:
    client = httpx.AsyncClient(base_url=url, timeout=60)
    reply = await client.post("/api/sessions", json={"question_ids": ["mini-code"]})
    reply.raise_for_status()
    return client, f"/sessions/{reply.json()['id']}"


def _seen(page: httpx.Response) -> tuple[int, str, str]:
    draft, token = DRAFT.search(page.text), CSRF.search(page.text)
    assert draft is not None and token is not None, page.text[:500]
    return page.status_code, draft.group(1), token.group(1)


async def _crowd(url: str) -> None:
    visitors = [await _visitor(url) for _ in range(20)]
    own = {path: _seen(await client.get(path)) for client, path in visitors}
    assert len({user for _, user, _ in own.values()}) == 20  # 20 identities
    calls = [(client, path) for client, path in visitors for _ in range(10)]
    random.Random(16).shuffle(calls)
    pages = await asyncio.gather(*(client.get(path) for client, path in calls))
    for (_, path), page in zip(calls, pages, strict=True):
        assert _seen(page) == own[path]
    strangers = [(visitors[n][0], visitors[(n + 1) % 20][1]) for n in range(20)]
    refused = await asyncio.gather(*(client.get(path) for client, path in strangers))
    assert [page.status_code for page in refused] == [404] * 20
    for client, _ in visitors:
        await client.aclose()


def test_many_visitors_at_once_each_get_their_own_question_page(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        asyncio.run(_crowd(server.url))
