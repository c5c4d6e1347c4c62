"""A real uvicorn server on 127.0.0.1 for tests that need real concurrency.

The in-process TestClient serialises requests through one portal, so it cannot show a
frozen event loop or an exhausted connection pool; these tests start the real server in a
subprocess with a fresh data dir and hit it from many connections at once.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from app.config import REPO_ROOT

FIXTURE_PACKS = REPO_ROOT / "tests" / "packs" / "fixtures"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class Server:
    url: str
    data_dir: Path
    log: Path
    pid: int = 0

    def peak_rss_bytes(self) -> int:
        """The server process's peak resident memory so far (VmHWM)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError("no VmHWM in /proc")

    def rows(self, table: str) -> int:
        with sqlite3.connect(self.data_dir / "tapequiz.db") as db:
            return int(db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])


@contextmanager
def live_server(tmp_path: Path, **env: str) -> Iterator[Server]:
    """uvicorn serving the mini fixture pack with grading off, stopped on exit."""
    data_dir, port = tmp_path / "data", free_port()
    values = {
        "TAPEQUIZ_DATA_DIR": str(data_dir),
        "TAPEQUIZ_PACKS_DIR": str(FIXTURE_PACKS),
        "TAPEQUIZ_SANDBOX_ENABLED": "false",
        "TAPEQUIZ_SECRET_KEY": "live-test-secret",
        "TAPEQUIZ_GRADES_PER_MINUTE": "10000",
        "TAPEQUIZ_GRADES_PER_MINUTE_PER_ADDRESS": "100000",  # bursts all come from 127.0.0.1
        **env,
    }
    log = tmp_path / f"server-{port}.log"
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=REPO_ROOT, env={**os.environ, **values}, stdout=out, stderr=out
        )
    server = Server(url=f"http://127.0.0.1:{port}", data_dir=data_dir, log=log, pid=process.pid)
    try:
        _wait_up(process, server)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_up(process: subprocess.Popen[bytes], server: Server) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early:\n{server.log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{server.url}/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"server did not come up:\n{server.log.read_text()[-3000:]}")


@dataclass(frozen=True)
class Burst:
    statuses: list[int]
    retry_after: list[str | None]
    acknowledged: int


async def _learner(url: str, question: str) -> tuple[httpx.AsyncClient, int]:
    # No keep-alive: the burst opens fresh connections, as distinct learners would, and
    # never reuses one the server closed while the other learners were being set up.
    limits = httpx.Limits(max_keepalive_connections=0)
    client = httpx.AsyncClient(base_url=url, timeout=120, limits=limits)
    reply = await client.post("/api/sessions", json={"question_ids": [question]})
    reply.raise_for_status()
    return client, int(reply.json()["id"])


async def answer_burst(url: str, *, count: int, question: str, answer: object) -> Burst:
    """`count` distinct identities (one cookie jar each) answer at the same moment."""
    learners = [await _learner(url, question) for _ in range(count)]
    start = asyncio.Event()

    async def one(client: httpx.AsyncClient, session_id: int) -> httpx.Response | None:
        await start.wait()
        try:
            return await client.post(f"/api/sessions/{session_id}/answers", json={"answer": answer})
        except httpx.HTTPError:
            return None  # counted as status 0: no answer at all

    tasks = [asyncio.create_task(one(c, s)) for c, s in learners]
    await asyncio.sleep(0.05)
    start.set()
    replies = await asyncio.gather(*tasks)
    for client, _ in learners:
        await client.aclose()
    return Burst(
        statuses=[r.status_code if r else 0 for r in replies],
        retry_after=[r.headers.get("retry-after") if r else None for r in replies],
        acknowledged=sum(1 for r in replies if r and r.status_code == 201),
    )
