"""The publishing progress page in a real browser: a pack uploaded while another is being
published says it is queued (and how many are ahead), and the seconds shown keep counting
between reloads even when a reload brings nothing new (a busy server)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from app.config import Settings
from app.main import create_app
from app.models.users import User
from tests.browser.conftest import FIXTURE_PACKS, _free_port
from tests.services.instructor_fakes import EXAMPLE, GatedGrader, zip_folder

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("TAPEQUIZ_SCREENSHOT_DIR", "")
EMAIL, PASSWORD = "teacher@example.com", "correct horse battery"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, FastAPI]]:
    """The app in this process, so the test can hold its code grader (every pack's self-test
    then waits at the gate: a publication that stays under way as long as the test needs)."""
    settings = Settings(data_dir=tmp_path / "data", packs_dir=FIXTURE_PACKS,
                        sandbox_enabled=False, secret_key="browser-test-key")  # fmt: skip
    app = create_app(settings)
    served = uvicorn.Server(uvicorn.Config(app, port=_free_port(), log_level="warning"))
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not served.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    app.state.code_grader = GatedGrader()
    yield f"http://127.0.0.1:{served.config.port}", app
    app.state.code_grader.gate.set()
    served.should_exit = True
    thread.join(timeout=20)


def _instructor(page: Page, url: str, app: FastAPI) -> None:
    page.goto(f"{url}/signup")
    page.get_by_label("Email").fill(EMAIL)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    with Session(app.state.engine) as session:
        user = session.exec(select(User).where(User.email == EMAIL)).one()
        user.role = "instructor"
        session.add(user)
        session.commit()


def _upload(page: Page, url: str, zip_path: Path) -> None:
    page.goto(f"{url}/instructor")
    page.get_by_label("Pack zip").set_input_files(str(zip_path))
    page.get_by_role("button", name="Validate, self-test and publish").click()
    page.wait_for_url("**/instructor/publishing/**")


def _seconds(page: Page) -> int:
    return int(page.locator("#publishing-time [data-seconds]").inner_text())


def test_queued_publication_says_so_and_seconds_keep_counting(
    page: Page, server: tuple[str, FastAPI], tmp_path: Path
) -> None:
    url, app = server
    _instructor(page, url, app)
    zips = []
    for version in ("1.0.0", "1.0.1"):
        text = (EXAMPLE / "pack.yaml").read_text().replace("version: 1.0.0", f"version: {version}")
        zips.append(tmp_path / f"{version}.zip")
        zips[-1].write_bytes(zip_folder(EXAMPLE, {"pack.yaml": text}))
    _upload(page, url, zips[0])
    expect(page.locator("#publishing")).to_have_attribute("data-state", "running")
    second = page.context.new_page()
    _upload(second, url, zips[1])
    expect(second.locator("#publishing")).to_have_attribute("data-state", "queued")
    expect(second.locator("#publishing-time")).to_contain_text("1 publication ahead of this one")
    expect(second.locator(".publish-steps li.current")).to_have_count(0)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        second.screenshot(path=str(Path(SHOTS) / "instructor-publishing-queued.png"))

    # Reloads now bring nothing new (204: the browser keeps the page), as when a busy server
    # is slow to answer them: the seconds shown must still move.
    page.route("**/instructor/publishing/*", lambda route: route.fulfill(status=204))
    moved = (
        "n => Number(document.querySelector('#publishing-time [data-seconds]').textContent) >= n"
    )
    page.wait_for_function(moved, arg=_seconds(page) + 2, timeout=15_000)

    page.unroute("**/instructor/publishing/*")
    app.state.code_grader.gate.set()
    expect(second.locator("#published")).to_contain_text("tape-example 1.0.1", timeout=30_000)
