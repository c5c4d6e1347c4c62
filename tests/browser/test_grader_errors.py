"""With code grading switched off, a code answer shows a clear 501 message, keeps the code
the learner typed, and the session can move on."""

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
    page.evaluate("text => window.tapequizEditor.setValue(text)", MINE)
    page.get_by_role("button", name="Submit answer").click()
    expect(page.get_by_role("alert")).to_contain_text("cannot be graded on this server")
    assert page.evaluate("window.tapequizEditor.getValue()") == MINE
    page.get_by_role("button", name="Skip this question").click()
    expect(page.get_by_role("heading", name="Your answers")).to_be_visible()
