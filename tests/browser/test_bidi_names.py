"""A cohort name with a right-to-left override, in a real browser (app/web/bidi.py): the
name reads as its author wrote it, and the "joined" chip after it stays after it instead of
being pulled to its left by the override."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import LiveServer
from tests.browser.test_instructor_journey import _become_instructor, shoot

pytestmark = pytest.mark.browser


def test_a_reversed_cohort_name_does_not_move_the_chip_after_it(
    page: Page, live_server: LiveServer
) -> None:
    _become_instructor(page, live_server)
    page.goto(f"{live_server.url}/instructor")
    page.get_by_label("Cohort name").fill("\u202eSpring 2027 cohort")
    page.get_by_role("button", name="Create cohort").click()
    page.goto(f"{live_server.url}/instructor")
    code = page.locator("#cohorts-title ~ ul code").first.inner_text()
    page.goto(f"{live_server.url}/join")
    page.get_by_label("Join code").fill(code)
    page.get_by_role("button", name="Join").click()
    row = page.locator("#my-cohorts li").first
    chip = row.locator(".chip").bounding_box()
    name = row.locator("span").first.bounding_box()
    shoot(page, "rtl-cohort-name")
    assert chip is not None and name is not None
    assert chip["x"] > name["x"] + 100  # the chip is at the name's end, not before it
