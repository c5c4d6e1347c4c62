"""With code grading switched off, a code question says so before anything is written (once,
not repeated after a submit), keeps the code the learner typed, and the session moves on."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ServerFactory
from tests.browser.test_pages import open_question

pytestmark = pytest.mark.browser
MINE = "def train_step(model, optimizer, loss_fn, x, y):\n    return 'mine'\n"


def test_code_answer_without_grader_is_explained_and_kept(
    page: Page, make_live_server: ServerFactory
) -> None:
    server = make_live_server(sandbox=False)
    open_question(page, server, "mini-code")
    expect(page.get_by_role("alert")).to_contain_text("cannot be graded on this server")
    expect(page.get_by_role("alert")).to_have_count(1)
    expect(page.get_by_role("button", name="Submit answer")).to_be_disabled()
    page.evaluate("text => window.tapequizEditor.setValue(text)", MINE)
    page.reload()
    expect(page.locator(".CodeMirror")).to_be_visible()
    assert page.evaluate("window.tapequizEditor.getValue()") == MINE
    page.get_by_role("button", name="Skip this question").click()
    expect(page.get_by_role("heading", name="Your answers")).to_be_visible()
