"""A report read while an answer of it is still being graded (round 17: a finish no longer
waits for the code checker): the answer shows as grading, not as untested, and the page
fills it in by itself once it is graded, as a learner with the page open would see it."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ServerFactory
from tests.browser.test_interview import answer_current
from tests.browser.test_journey import shoot
from tests.services.interview_kit import FIXTURES

pytestmark = pytest.mark.browser


def set_status(database: Path, position: int, status: str) -> None:
    """Mark an answer as a grader would (a row "grading" in a live process is left alone
    by the drain, so the test decides when it is graded)."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.execute("UPDATE interview_answer SET status = ? WHERE position = ?", (status, position))
        db.commit()


def test_report_shows_an_answer_being_graded_then_fills_it_in(
    make_live_server: ServerFactory, page: Page
) -> None:
    server = make_live_server(packs=FIXTURES)
    page.goto(f"{server.url}/interviews")
    page.get_by_label("10 minutes").check()
    page.get_by_role("button", name="Start the interview").click()
    answer_current(page)
    page.wait_for_load_state()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finish the interview now").click()
    expect(page.locator("#report-h")).to_be_visible()

    set_status(server.data_dir / "tapequiz.db", 0, "grading")
    page.reload()
    expect(page.locator("#grading-notice")).to_be_visible()
    expect(page.locator(".glance tbody tr").first.locator(".still-grading")).to_be_visible()
    concepts = page.locator('#dimensions [data-dimension="concepts"]')
    expect(concepts.locator(".standing")).to_have_text("grading…")
    expect(concepts.locator(".standing")).to_be_visible()  # app.css hides a `.grading`
    shoot(page, "interview-report-still-grading")

    set_status(server.data_dir / "tapequiz.db", 0, "graded")
    expect(page.locator("#grading-notice")).to_have_count(0, timeout=20_000)  # no reload by us
    expect(page.locator(".glance tbody tr").first.locator(".still-grading")).to_have_count(0)
    expect(concepts.locator(".standing")).not_to_have_text("grading…")


def test_interview_list_says_still_grading_then_shows_the_score(
    make_live_server: ServerFactory, page: Page
) -> None:
    """The list showed the score stored at the finish, which leaves out answers still being
    graded, as if it were final."""
    server = make_live_server(packs=FIXTURES)
    page.goto(f"{server.url}/interviews")
    page.get_by_label("10 minutes").check()
    page.get_by_role("button", name="Start the interview").click()
    answer_current(page)
    page.wait_for_load_state()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finish the interview now").click()
    expect(page.locator("#report-h")).to_be_visible()

    set_status(server.data_dir / "tapequiz.db", 0, "grading")
    page.goto(f"{server.url}/interviews")
    row = page.locator("table tbody tr").first
    expect(row.locator(".still-grading")).to_have_text("Grading…")
    expect(row).not_to_contain_text("%")
    shoot(page, "interviews-list-still-grading")

    set_status(server.data_dir / "tapequiz.db", 0, "graded")
    expect(row.locator(".still-grading")).to_have_count(0, timeout=20_000)  # no reload by us
    expect(row).to_contain_text("%")
