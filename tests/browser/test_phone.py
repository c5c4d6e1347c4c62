"""At phone width (390 px) every key page fits the screen without sideways scrolling."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import ServerFactory
from tests.browser.test_journey import shoot
from tests.browser.test_pages import CORE, open_question

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_context_args() -> dict[str, object]:
    return {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_pages_fit_a_phone_screen(page: Page, make_live_server: ServerFactory) -> None:
    server = make_live_server(packs=CORE)
    too_wide = {}
    for path in ["/", "/sessions/new", "/questions", "/progress", "/signup"]:
        page.goto(server.url + path)
        too_wide[path] = page.evaluate("document.documentElement.scrollWidth") > 391
    shoot_name = "phone-home"
    page.goto(server.url + "/")
    shoot(page, shoot_name)
    open_question(page, server, "order-basic-train-step")
    too_wide["question"] = page.evaluate("document.documentElement.scrollWidth") > 391
    shoot(page, "phone-question")
    assert not any(too_wide.values()), too_wide
