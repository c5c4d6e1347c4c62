"""A class of N learners logging in at the same moment, against a live server.

The question it answers: can a class start a session together? Each learner is one laptop
(its own source address on the loopback, 127.0.0.N, and its own cookie jar). The accounts
are made first, one after another, from N addresses (so the per-client sign-up limit sees N
clients). Then, in the same run:

- baseline: one learner logs in alone (median of 3), on the same server and the same load;
- class: all N open the log-in page, then post the form at the same moment, then start a
  practice session (`POST /api/sessions`) and answer 3 questions, as a class told "log in
  and start" does (a status other than 303 and 200s is counted in place of the 303).

Prints p50/p95/max of the log-in and of log-in-then-session, the statuses, and the ratio of
the class's p50 to the baseline (1.0 would be "as fast as alone"; N/cores is what running
every hash side by side costs at best). Run as an ordinary user:

    .venv/bin/python benchmarks/class_login.py http://127.0.0.1:8031 [learners=40] [--one-address]

`--one-address`: every learner comes from 127.0.0.1, as a class behind a school's NAT does
(sign-ups and answers share that address's limits).
"""

from __future__ import annotations

import asyncio
import collections
import re
import secrets
import statistics
import sys
import time

import httpx

TIMEOUT = 120.0
ONE_ADDRESS = "--one-address" in sys.argv
GRADE = "/api/questions/tape-watch-accessed-false/grade"
ANSWERS = 3  # 40 learners x 3 is over one address's old limit of 30 answers a minute


def _client(url: str, index: int) -> httpx.AsyncClient:
    address = "127.0.0.1" if ONE_ADDRESS else f"127.0.0.{10 + index}"
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=url, timeout=TIMEOUT, transport=transport)


def _csrf(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, "no CSRF token on the page"
    return found.group(1)


def _account(run: str, index: int) -> tuple[str, str]:
    return f"learner{index}-{run}@class.example", f"Tape-{run}-{index}-ok!"


async def sign_up(url: str, run: str, index: int) -> int:
    email, password = _account(run, index)
    async with _client(url, index) as device:
        page = await device.get("/signup")
        form = {"csrf_token": _csrf(page.text), "email": email, "password": password}
        return (await device.post("/signup", data=form)).status_code


async def log_in(
    url: str, run: str, index: int, start: asyncio.Event | None = None
) -> tuple[int, float, float]:
    """(status, seconds to the log-in's answer, seconds until the session was started)."""
    email, password = _account(run, index)
    async with _client(url, index) as device:
        page = await device.get("/login")
        form = {"csrf_token": _csrf(page.text), "email": email, "password": password}
        if start is not None:
            await start.wait()
        began = time.perf_counter()
        reply = await device.post("/login", data=form)
        logged_in = time.perf_counter() - began
        session = await device.post("/api/sessions", json={"count": 1})
        started = time.perf_counter() - began
        status = reply.status_code if session.status_code == 201 else session.status_code
        for _ in range(ANSWERS):  # and answers, as the class does (per-client grade limits)
            graded = await device.post(GRADE, json={"answer": False})
            status = status if graded.status_code == 200 else graded.status_code
        return status, logged_in, started


def _quantiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95, ordered[-1]


async def main(url: str, count: int) -> int:
    run = secrets.token_hex(3)
    signed_up = collections.Counter([await sign_up(url, run, i) for i in range(count)])
    alone = [(await log_in(url, run, 0))[1] for _ in range(3)]
    baseline = statistics.median(alone)
    start = asyncio.Event()
    tasks = [asyncio.create_task(log_in(url, run, i, start)) for i in range(count)]
    await asyncio.sleep(1.0)  # every learner has its log-in page and waits at the door
    start.set()
    results = await asyncio.gather(*tasks)
    statuses = collections.Counter(status for status, _, _ in results)
    p50, p95, worst = _quantiles([seconds for _, seconds, _ in results])
    s50, s95, sworst = _quantiles([seconds for _, _, seconds in results])
    print(f"{'one address (NAT)' if ONE_ADDRESS else f'{count} addresses'}")
    print(f"sign-ups one after another: statuses {dict(signed_up)}")
    print(f"baseline: one learner alone logs in in {baseline:.3f} s (median of 3)")
    print(f"class of {count}: log-in p50 {p50:.2f} s, p95 {p95:.2f} s, max {worst:.2f} s")
    print(f"class of {count}: log-in + session p50 {s50:.2f} s, p95 {s95:.2f} s, max {sworst:.2f}")
    print(f"ratio p50 / baseline: {p50 / baseline:.1f}x; statuses {dict(statuses)}")
    return 0 if set(statuses) == {303} and set(signed_up) == {303} else 1


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    target = arguments[0] if arguments else "http://127.0.0.1:8031"
    learners = int(arguments[1]) if len(arguments) > 1 else 40
    sys.exit(asyncio.run(main(target, learners)))
