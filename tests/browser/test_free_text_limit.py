"""A long explanation in Chinese is counted and graded by characters, as the page says: the
counter counts what the server counts (an emoji is one character) and nothing is refused
below 10,000 characters, however many UTF-8 bytes they take."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import LiveServer, ServerFactory
from tests.browser.test_journey import read_verdict, shoot
from tests.browser.test_pages import CORE, open_question

pytestmark = pytest.mark.browser
ANSWER = "梯度带在前向计算时记录运算，然后对损失求导。" * 180 + "🙂"  # 3,961 characters


@pytest.fixture
def live_server(make_live_server: ServerFactory) -> LiveServer:
    return make_live_server(packs=CORE)


def test_cjk_explanation_is_counted_and_graded_by_characters(
    page: Page, live_server: LiveServer
) -> None:
    open_question(page, live_server, "gradient-vs-apply")
    page.get_by_label("Your explanation").fill(ANSWER)
    expect(page.locator("[data-count]")).to_have_text(f"{len(ANSWER):,} of 10,000 characters")
    shoot(page, "free-text-cjk-counted")
    page.get_by_role("button", name="Submit answer").click()
    assert read_verdict(page)
    shoot(page, "free-text-cjk-graded")
