"""The instructor's journey in a real browser: a pack refused by its self-test, fixed and
published; a cohort; a learner who joins and answers; the dashboard showing that attempt."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from app.config import REPO_ROOT
from tests.browser.conftest import LiveServer
from tests.services.instructor_fakes import EXAMPLE, zip_folder

pytestmark = pytest.mark.browser
EMAIL, PASSWORD = "teacher@example.com", "correct horse battery"
CODE_QUESTIONS = ("ex-write-train-step.yaml", "ex-fix-apply.yaml")  # the server runs sandbox-off
SHOTS = os.environ.get("TAPEQUIZ_SCREENSHOT_DIR", "")
JOB_TIMEOUT_MS = 45_000


def shoot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def _pack_zips(tmp_path: Path) -> tuple[Path, Path]:
    """A good and a broken zip of the example pack (choice + free-text questions)."""
    folder = Path(shutil.copytree(EXAMPLE, tmp_path / "tape-example"))
    for name in CODE_QUESTIONS:
        (folder / name).unlink()
    good, broken = tmp_path / "good.zip", tmp_path / "broken.zip"
    good.write_bytes(zip_folder(folder))
    text = (folder / "ex-explain-none.yaml").read_text()
    mislabelled = text.replace("    verdict: partial", "    verdict: correct")
    broken.write_bytes(zip_folder(folder, {"ex-explain-none.yaml": mislabelled}))
    return good, broken


def _become_instructor(page: Page, server: LiveServer) -> None:
    page.goto(f"{server.url}/signup")
    page.get_by_label("Email").fill(EMAIL)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    command = [sys.executable, "-m", "app.cli", "users", "promote", EMAIL]
    subprocess.run(command, cwd=REPO_ROOT, env=server.env, check=True, capture_output=True)


def _upload(page: Page, server: LiveServer, zip_path: Path) -> None:
    page.goto(f"{server.url}/instructor")
    page.get_by_label("Pack zip").set_input_files(str(zip_path))
    page.get_by_role("button", name="Validate, self-test and publish").click()


def _learner_answers_wrong(browser: Browser, server: LiveServer, join_code: str) -> None:
    context = browser.new_context()
    learner = context.new_page()
    learner.goto(server.url)
    learner.get_by_role("link", name="Join a cohort").click()  # visible from every page
    learner.get_by_label("Join code").fill(join_code.lower())
    learner.get_by_label("Your name").fill("Ada L.")
    learner.get_by_role("button", name="Join").click()
    expect(learner.locator("#my-cohorts")).to_contain_text("Evening group")
    learner.locator("#my-cohorts").get_by_role("link", name="Practise").click()
    expect(learner.get_by_label("Pack")).to_have_value("tape-example")  # the cohort's pack
    learner.get_by_label("Question type").select_option("single-choice")
    learner.get_by_label("Questions").fill("1")
    learner.get_by_role("button", name="Start session").click()
    learner.get_by_label("The optimizer").check()
    learner.get_by_role("button", name="Submit answer").click()
    expect(learner.locator("#verdict")).to_be_visible()
    context.close()


def test_instructor_publishes_pack_and_sees_cohort_attempt(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    good, broken = _pack_zips(tmp_path)
    _become_instructor(page, live_server)

    _upload(page, live_server, broken)
    refusal = page.locator("#refused")
    # Publishing is a background job (self-test included) behind a progress page that
    # refreshes itself: on a loaded 2-core CI host it can outlast expect's 5 s default.
    expect(refusal).to_contain_text("the self-test failed", timeout=JOB_TIMEOUT_MS)
    expect(refusal).to_contain_text("ex-explain-none.yaml:43: ex-explain-none: sample 2")
    shoot(page, "instructor-upload-refused")

    progress_pages: list[str] = []
    page.on("response", lambda r: progress_pages.append(r.url) if "/publishing/" in r.url else None)
    _upload(page, live_server, good)
    expect(page.locator("#published")).to_contain_text("tape-example 1.0.0", timeout=JOB_TIMEOUT_MS)
    expect(page.locator("#versions tr.live")).to_contain_text("1.0.0")
    expect(page.locator("#versions tr.live .live-badge")).to_have_text("live")
    assert progress_pages, "publishing goes through its background job's progress page"

    page.get_by_label("Cohort name").fill("Evening group")
    page.get_by_label("Pack", exact=True).select_option("tape-example")
    page.get_by_role("button", name="Create cohort").click()
    join_code = page.locator("#join-code").inner_text()

    assert page.context.browser is not None
    _learner_answers_wrong(page.context.browser, live_server, join_code)

    page.reload()
    row = page.locator('tr[data-question="ex-what-records"]')
    expect(row).to_contain_text("0%")
    expect(row).to_contain_text("The optimizer ×1")
    shoot(page, "instructor-cohort-dashboard")
    expect(page.locator("#learner-stats")).to_contain_text("Ada L. (guest)")
    page.locator("#learner-stats a").first.click()
    expect(page.locator("#learner-attempts")).to_contain_text("The optimizer")
    shoot(page, "instructor-learner")


def test_instructor_withdraws_a_version_after_confirming(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """QA round 12: a wrong published version could only be replaced by a higher one."""
    good, _broken = _pack_zips(tmp_path)
    _become_instructor(page, live_server)
    _upload(page, live_server, good)
    expect(page.locator("#published")).to_contain_text("tape-example 1.0.0", timeout=JOB_TIMEOUT_MS)
    withdraw = page.locator("#versions tr.live").get_by_role("button", name="Withdraw")
    page.set_viewport_size({"width": 390, "height": 844})  # the versions table scrolls alone:
    assert page.evaluate("document.documentElement.scrollWidth") <= 391  # hidden header clipped
    shoot(page, "phone-instructor-versions")
    page.set_viewport_size({"width": 1280, "height": 860})
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    withdraw.click()
    expect(page.locator("#versions tr.live")).to_contain_text("1.0.0")  # dismissed: still live
    assert asked and "the pack is no longer offered" in asked[0]
    page.once("dialog", lambda dialog: dialog.accept())
    withdraw.click()
    expect(page.locator("#withdrawn")).to_contain_text("tape-example 1.0.0")
    expect(page.locator("#versions")).to_contain_text("withdrawn")
    expect(page.locator("#versions tr.live")).to_have_count(0)
    shoot(page, "instructor-version-withdrawn")
