"""Bursts of concurrent free-text answers from distinct identities against a live server.

Starts uvicorn on 127.0.0.1 (fresh data dir, sandbox off, built-in packs), then for each
burst size: N learners (one cookie jar and one connection each) start a session, and all N
answer at the same moment. Prints the statuses, p50/p99/max latency, the slowest /healthz
during the burst, and answers stored (rows in the database) vs acknowledged (201s).
Baseline in the same run: one learner answering alone.

    .venv/bin/python benchmarks/burst.py            # bursts of 50, 50, 50 and 200
    .venv/bin/python benchmarks/burst.py 20 100     # other sizes
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
QUESTION = "gradient-vs-apply"
ANSWER = (
    "tape.gradient only computes the gradients of the loss with respect to the variables; "
    "optimizer.apply_gradients then updates the weights with them."
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(data_dir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {
        **os.environ,
        "TAPEQUIZ_DATA_DIR": str(data_dir),
        "TAPEQUIZ_SANDBOX_ENABLED": "false",
        "TAPEQUIZ_SECRET_KEY": "burst-benchmark",
        "TAPEQUIZ_GRADES_PER_MINUTE": "10000",
        "TAPEQUIZ_GRADES_PER_MINUTE_PER_ADDRESS": "100000",
    }
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)]
    log = (data_dir.parent / "server.log").open("wb")
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    for _ in range(900):
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1):
                return process, url
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.2)
    process.kill()
    raise SystemExit("server did not start:\n" + (data_dir.parent / "server.log").read_text())


def stored(data_dir: Path) -> int:
    with sqlite3.connect(data_dir / "tapequiz.db") as db:
        return int(db.execute("SELECT count(*) FROM attempt").fetchone()[0])


async def _learner(url: str) -> tuple[httpx.AsyncClient, int]:
    limits = httpx.Limits(max_keepalive_connections=0)  # a fresh connection per request
    client = httpx.AsyncClient(base_url=url, timeout=120, limits=limits)
    reply = await client.post("/api/sessions", json={"question_ids": [QUESTION]})
    reply.raise_for_status()
    return client, int(reply.json()["id"])


async def _answer(client: httpx.AsyncClient, sid: int, go: asyncio.Event) -> tuple[int, float]:
    await go.wait()
    started = time.perf_counter()
    try:
        reply = await client.post(f"/api/sessions/{sid}/answers", json={"answer": ANSWER})
        status = reply.status_code
    except httpx.HTTPError:
        status = 0  # no answer at all (time-out, reset)
    return status, time.perf_counter() - started


async def _health_during(url: str, done: asyncio.Event) -> list[float]:
    times: list[float] = []
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:
        while not done.is_set():
            started = time.perf_counter()
            with contextlib.suppress(httpx.HTTPError):  # no answer: counted as its full wait
                await client.get("/healthz")
            times.append(time.perf_counter() - started)
            await asyncio.sleep(0.05)
    return times


async def burst(url: str, size: int) -> dict[str, object]:
    learners = [await _learner(url) for _ in range(size)]
    go, done = asyncio.Event(), asyncio.Event()
    tasks = [asyncio.create_task(_answer(c, s, go)) for c, s in learners]
    health = asyncio.create_task(_health_during(url, done))
    await asyncio.sleep(0.1)
    go.set()
    results = await asyncio.gather(*tasks)
    done.set()
    health_times = await health
    for client, _ in learners:
        await client.aclose()
    latencies = sorted(t for _, t in results)
    return {
        "statuses": collections.Counter(s for s, _ in results),
        "p50": statistics.median(latencies),
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "max": latencies[-1],
        "acknowledged": sum(1 for s, _ in results if s == 201),
        "healthz_max": max(health_times) if health_times else float("nan"),
    }


def main(sizes: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        process, url = start_server(data_dir)
        try:
            print(f"server {url}, sandbox off, {os.cpu_count()} CPUs, question {QUESTION}")
            for label, size in [("baseline (alone)", 1), *[(f"burst {n}", n) for n in sizes]]:
                before = stored(data_dir)
                figures = asyncio.run(burst(url, size))
                kept = stored(data_dir) - before
                statuses = ", ".join(f"{k}x{v}" for k, v in sorted(figures["statuses"].items()))  # type: ignore[attr-defined]
                print(
                    f"{label:>17}: {statuses:<16} p50 {figures['p50']:.3f} s  "
                    f"p99 {figures['p99']:.3f} s  max {figures['max']:.3f} s  "
                    f"healthz max {figures['healthz_max']:.3f} s  "
                    f"stored {kept} / acknowledged {figures['acknowledged']}"
                )
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [50, 50, 50, 200])
