"""The interview set-up page in a real browser at desktop and phone width: the pack menu
shows its whole text (round 17: "The GradientTape training step (76 ques" at 1200 px) and
the chosen pack's question count stays on screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ServerFactory
from tests.browser.test_journey import shoot
from tests.browser.test_pages import CORE

pytestmark = pytest.mark.browser
ARROW = 28  # px Chromium keeps for the menu's arrow at the right edge

MENU_TEXT = """() => {
  const menu = document.querySelector('#pack');
  const style = getComputedStyle(menu);
  const ruler = document.createElement('canvas').getContext('2d');
  ruler.font = style.font;
  const text = menu.options[menu.selectedIndex].text;
  const room = menu.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {text: text, needs: ruler.measureText(text).width, room: room,
          page: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize(
    ("width", "shot"), [(1200, "interview-setup"), (390, "phone-interview-setup")]
)
def test_pack_menu_shows_its_whole_text(
    make_live_server: ServerFactory, page: Page, width: int, shot: str
) -> None:
    server = make_live_server(packs=CORE)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{server.url}/interviews")
    menu = page.evaluate(MENU_TEXT)
    assert menu["needs"] + ARROW <= menu["room"], menu
    assert menu["page"] <= width, menu  # nothing pushed past the screen's edge
    expect(page.locator("#pack-summary")).to_have_text(
        re.compile(r"^\d+ questions in this pack\.$")
    )
    expect(page.locator("#pack-summary")).to_be_visible()
    shoot(page, shot)
