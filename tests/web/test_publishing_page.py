"""The publishing progress page tells the truth: a pack waiting for another publication is
shown as queued (no step under way), its seconds count, and the page is never cached."""

from __future__ import annotations

import re
import time

from fastapi.testclient import TestClient

from tests.routes.test_api_instructor import promote_current_user
from tests.services.instructor_fakes import EXAMPLE, GatedGrader, zip_folder


def _start(client: TestClient, version: str) -> str:
    text = (EXAMPLE / "pack.yaml").read_text().replace("version: 1.0.0", f"version: {version}")
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/instructor").text)
    assert token
    files = {"file": ("pack.zip", zip_folder(EXAMPLE, {"pack.yaml": text}), "application/zip")}
    started = client.post(
        "/instructor/publishing", files=files, data={"csrf_token": token.group(1)},
        follow_redirects=False,
    )  # fmt: skip
    return started.headers["location"]


def _page_until(client: TestClient, url: str, marker: str) -> str:
    for _ in range(600):  # bounded (30 s): a stuck job fails the test instead of hanging it
        page = client.get(url, follow_redirects=False)
        if page.status_code != 200 or marker in page.text:
            return page.text if page.status_code == 200 else str(page.headers["location"])
        time.sleep(0.05)
    raise AssertionError(f"{url} never showed {marker!r}")


def test_publishing_page_shows_queued_job_behind_running_one(client: TestClient) -> None:
    promote_current_user(client)
    grader = client.app.state.code_grader = GatedGrader()  # type: ignore[attr-defined]
    first = _start(client, "1.0.0")
    _page_until(client, first, 'data-step="2"')  # self-testing, held at the gate
    second = _start(client, "1.0.1")
    time.sleep(0.3)
    page = client.get(second)
    assert page.headers["cache-control"] == "no-store"
    assert 'data-state="queued"' in page.text and "Queued:" in page.text
    assert 'class="current"' not in page.text and "spinner" not in page.text
    words = " ".join(page.text.split())
    assert "1 publication ahead of this one has not finished" in words
    assert re.search(r'Waiting <span data-seconds="\d+">', page.text)
    assert 'data-state="running"' in client.get(first).text
    grader.gate.set()
    assert _page_until(client, second, "never") == "/instructor?published=tape-example%201.0.1"
