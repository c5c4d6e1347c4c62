"""The home page under real concurrency: a live server, many learners at once, each home
page built from that learner's rows only (their answer count, their sessions to resume),
while what depends only on the catalog is built once and shared."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import httpx

from tests.web.live import live_server

ANSWERS = re.compile(r"<b>(\d+)</b><span>answers graded</span>")
SESSIONS = re.compile(r'href="/sessions/(\d+)(?:/summary)?"')


async def _learner(url: str, answers: int) -> tuple[httpx.AsyncClient, tuple[str, set[str]]]:
    """A learner who answered `answers` questions, one session each: (client, what their
    home page must show)."""
    client = httpx.AsyncClient(base_url=url, timeout=60)
    sessions = set()
    for _ in range(max(1, answers)):
        reply = await client.post("/api/sessions", json={"question_ids": ["mini-single"]})
        reply.raise_for_status()
        sessions.add(str(reply.json()["id"]))
        if answers:
            graded = await client.post(
                f"/api/sessions/{reply.json()['id']}/answers", json={"answer": "tape"}
            )
            graded.raise_for_status()
    return client, (str(answers), sessions)


def _seen(page: httpx.Response) -> tuple[str, set[str]]:
    answers = ANSWERS.search(page.text)
    assert page.status_code == 200 and answers is not None, page.text[:500]
    return answers.group(1), set(SESSIONS.findall(page.text))


async def _crowd(url: str) -> None:
    learners = [await _learner(url, n % 4) for n in range(16)]
    calls = [(client, own) for client, own in learners for _ in range(8)]
    random.Random(4).shuffle(calls)
    pages = await asyncio.gather(*(client.get("/") for client, _ in calls))
    for (_, own), page in zip(calls, pages, strict=True):
        assert _seen(page) == own
    visitor = httpx.AsyncClient(base_url=url, timeout=60)  # no cookie: nobody's numbers
    assert _seen(await visitor.get("/")) == ("0", set())
    for client, _ in learners:
        await client.aclose()
    await visitor.aclose()


def test_many_learners_at_once_each_get_their_own_home_page(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        asyncio.run(_crowd(server.url))
