"""Every control a learner can use has an accessible name, on every kind of page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import ServerFactory
from tests.browser.test_pages import CORE, open_question

pytestmark = pytest.mark.browser
UNNAMED = """() => [...document.querySelectorAll(
    'input:not([type=hidden]), select, textarea, button, a[href]')]
  .filter(el => el.offsetParent !== null || el.closest('.CodeMirror'))
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                && !el.textContent.trim() && !el.getAttribute('title'))
  .map(el => el.outerHTML.slice(0, 120))"""
QUESTIONS = [
    "tape-auto-watches-trainable",
    "order-basic-train-step",
    "why-none-gradients",
    "train-step",
    "fix-none-gradients",
]


def test_every_control_has_an_accessible_name(page: Page, make_live_server: ServerFactory) -> None:
    server = make_live_server(packs=CORE)
    unnamed: dict[str, list[str]] = {}
    pages = ["/", "/sessions/new", "/questions", "/progress", "/reviews", "/signup", "/login"]
    pages += ["/join", "/questions/train-step/submissions"]
    for path in pages:
        page.goto(server.url + path)
        unnamed[path] = page.evaluate(UNNAMED)
    for question_id in QUESTIONS:
        open_question(page, server, question_id)
        unnamed[question_id] = page.evaluate(UNNAMED)
    open_question(page, server, QUESTIONS[0])  # a choice question: its feedback and history
    page.locator("[data-choices] input").first.check()
    page.get_by_role("button", name="Submit answer").click()
    page.locator("#verdict").wait_for()
    unnamed["feedback"] = page.evaluate(UNNAMED)
    page.get_by_role("link", name="Your submissions").click()
    page.locator("#submissions").wait_for()
    unnamed["submissions"] = page.evaluate(UNNAMED)
    # The check itself must catch an unnamed control, or it proves nothing.
    page.evaluate("document.querySelector('main').append(document.createElement('input'))")
    assert page.evaluate(UNNAMED) == ["<input>"]
    assert {k: v for k, v in unnamed.items() if v} == {}
