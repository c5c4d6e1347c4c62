"""Live-server and Playwright fixtures for the real-browser tests (marked `browser`).

`live_server` runs uvicorn in a subprocess on a free port with a fresh data dir; it can be
stopped and started again on the same data dir, which is how tests prove nothing is lost
across a restart. `page` is Playwright's sync API driving Debian's Chromium headless.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.config import REPO_ROOT

CHROMIUM = "/usr/bin/chromium"
FIXTURE_PACKS = REPO_ROOT / "tests" / "packs" / "fixtures"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LiveServer:
    data_dir: Path
    env: dict[str, str]
    port: int = field(default_factory=_free_port)
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        self.log = self.data_dir.parent / f"server-{self.port}-{int(time.time() * 1000)}.log"
        command = [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(self.port)]
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                command, cwd=REPO_ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"server did not come up:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


ServerFactory = Callable[..., LiveServer]


@pytest.fixture
def make_live_server(tmp_path: Path) -> Iterator[ServerFactory]:
    """Start a server: `make_live_server(sandbox=False, packs=FIXTURE_PACKS)`."""
    servers: list[LiveServer] = []

    def start(*, sandbox: bool = False, packs: Path = FIXTURE_PACKS) -> LiveServer:
        data_dir = tmp_path / f"data{len(servers)}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("TAPEQUIZ_")}
        env.update(
            TAPEQUIZ_DATA_DIR=str(data_dir),
            TAPEQUIZ_PACKS_DIR=str(packs),
            TAPEQUIZ_SANDBOX_ENABLED="true" if sandbox else "false",
            TAPEQUIZ_SANDBOX_POOL_SIZE="1",
        )
        server = LiveServer(data_dir=data_dir, env=env)
        servers.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def live_server(make_live_server: ServerFactory) -> LiveServer:
    return make_live_server()


@pytest.fixture
def browser_context_args() -> dict[str, object]:
    return {"viewport": {"width": 1280, "height": 860}}


@pytest.fixture
def page(browser_context_args: dict[str, object]) -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(**browser_context_args)  # type: ignore[arg-type]
        context.set_default_timeout(15_000)
        yield context.new_page()
        context.close()
        browser.close()
