"""Key pages with the core pack in a real browser: each renders what a learner needs, fits a
phone screen, and (with TAPEQUIZ_SCREENSHOT_DIR set) is saved as a screenshot for the docs."""

from __future__ import annotations

import importlib.util

import pytest
from playwright.sync_api import Page, expect

from app.config import REPO_ROOT
from tests.browser.conftest import LiveServer, ServerFactory
from tests.browser.test_journey import SHOTS, read_verdict, shoot

pytestmark = pytest.mark.browser
CORE = REPO_ROOT / "questions"
HAS_CODE_GRADER = importlib.util.find_spec("app.grading.code") is not None
LOSS_OUTSIDE = """import tensorflow as tf


def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        predictions = model(x, training=True)
    loss = loss_fn(y, predictions)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
"""


STAGE_GRADING = """() => {
    document.getElementById('grading').classList.add('active');
    const button = document.getElementById('submit-answer');
    button.disabled = true;
    button.textContent = 'Grading…';
}"""


def open_question(page: Page, server: LiveServer, question_id: str) -> None:
    page.goto(f"{server.url}/questions/{question_id}")
    page.get_by_role("button", name="Answer this question").click()
    expect(page.locator("input[name=question_id]")).to_have_value(question_id)


def submit(page: Page) -> str:
    page.get_by_role("button", name="Submit answer").click()
    return read_verdict(page)


def run_true_false_session(page: Page, server: LiveServer) -> None:
    """Four true/false questions answered from the keyboard (1 = True)."""
    page.goto(f"{server.url}/sessions/new?type=true-false")
    page.get_by_label("Questions").fill("4")
    page.get_by_role("button", name="Start session").click()
    for _ in range(4):
        expect(page.locator("#answer-form")).to_be_visible()
        page.keyboard.press("1")
        page.keyboard.press("Control+Enter")
        read_verdict(page)
        page.keyboard.press("Enter")  # Enter continues from the feedback page
    expect(page.get_by_role("heading", name="Your answers")).to_be_visible()


def test_key_pages_show_questions_feedback_and_progress(
    page: Page, make_live_server: ServerFactory
) -> None:
    server = make_live_server(sandbox=HAS_CODE_GRADER, packs=CORE)
    open_question(page, server, "tape-auto-watches-trainable")
    shoot(page, "question-choice")
    page.keyboard.press("2")
    submit(page)

    open_question(page, server, "order-basic-train-step")
    shoot(page, "question-ordering")
    submit(page)

    open_question(page, server, "why-none-gradients")
    page.get_by_label("Your explanation").fill(
        "The loss is computed after the with block, which is fine, but you must call "
        "tape.watch on the model variables or they are not tracked."
    )
    shoot(page, "question-free-text")
    submit(page)
    expect(page.get_by_role("heading", name="Misconception spotted")).to_be_visible()
    shoot(page, "feedback-misconception")

    if HAS_CODE_GRADER:
        open_question(page, server, "train-step")
        set_editor(page, LOSS_OUTSIDE)
        if SHOTS is not None:  # the grading state, staged: a real one may end before a shot
            page.evaluate(STAGE_GRADING)
            shoot(page, "code-grading")
            page.reload()
            set_editor(page, LOSS_OUTSIDE)
        page.get_by_role("button", name="Submit answer").click(no_wait_after=True)
        assert read_verdict(page, timeout=120_000) != "Correct"
        shoot(page, "feedback-code")

    run_true_false_session(page, server)
    shoot(page, "summary")

    page.goto(f"{server.url}/progress")
    expect(page.get_by_role("heading", name="Mastery by topic")).to_be_visible()
    shoot(page, "progress")
    page.goto(f"{server.url}/")
    expect(page.get_by_role("heading", name="Topics")).to_be_visible()
    shoot(page, "home")
    page.goto(f"{server.url}/questions?type=code")
    expect(page.locator(".question-list li").first).to_be_visible()
    shoot(page, "question-browser")
    page.goto(f"{server.url}/reviews")
    expect(page.locator(".question-list")).to_contain_text("Why")


def set_editor(page: Page, text: str) -> None:
    """Type into the CodeMirror editor once its script has created it."""
    page.wait_for_function("() => window.tapequizEditor !== undefined")
    page.evaluate("text => window.tapequizEditor.setValue(text)", text)
