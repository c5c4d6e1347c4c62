"""The practice loop of issue 15 in a real browser: choice feedback that teaches, try again and
resubmit, submissions with a diff, code kept across reloads, and honest behaviour when code
grading is off. Screenshots go to TAPEQUIZ_SCREENSHOT_DIR when it is set."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, Route, expect

from app.config import REPO_ROOT
from tests.browser.conftest import LiveServer, ServerFactory
from tests.browser.test_interview import answer_current as answer_interview_question
from tests.browser.test_journey import read_verdict, shoot, sign_up
from tests.browser.test_pages import open_question
from tests.services.interview_kit import FIXTURES

pytestmark = pytest.mark.browser
MINE = "def train_step(model, optimizer, loss_fn, x, y):\n    return 42  # my draft\n"


def test_wrong_multiple_choice_shows_question_right_options_and_why(
    page: Page, live_server: LiveServer
) -> None:
    open_question(page, live_server, "mini-multi")
    page.get_by_label("A trainable tf.Variable").check()
    page.get_by_label("A tf.constant").check()
    page.get_by_role("button", name="Submit answer").click()
    assert "Partly" in read_verdict(page)
    expect(page.locator(".verdict")).to_contain_text("score 25%")  # coverage x accuracy
    recap = page.locator("#question-recap")
    expect(recap).to_contain_text("Which are watched automatically?")
    expect(recap.locator("li[data-choice=dense-kernel]")).to_contain_text("you left it out")
    expect(recap.locator("li[data-choice=constant]")).to_contain_text("Wrong: you picked it")
    expect(recap.locator("li[data-choice=constant] .why")).to_contain_text(
        "Constants must be watched explicitly"
    )
    expect(page.locator("body")).not_to_contain_text("INFO")
    shoot(page, "feedback-choice")


def test_try_again_records_a_new_attempt_and_submissions_diff(
    page: Page, live_server: LiveServer
) -> None:
    open_question(page, live_server, "mini-multi")
    page.get_by_label("A trainable tf.Variable").check()
    page.get_by_role("button", name="Submit answer").click()
    read_verdict(page)
    page.get_by_role("button", name="Try again").click()
    expect(page.locator("input[name=question_id]")).to_have_value("mini-multi")
    page.get_by_label("A trainable tf.Variable").check()
    page.get_by_label("A Dense layer's kernel").check()
    page.get_by_role("button", name="Submit answer").click()
    assert "Correct" in read_verdict(page)
    page.get_by_role("link", name="Your submissions").click()
    expect(page.locator("#submissions tbody tr")).to_have_count(2)
    diff = page.locator("#diff")
    expect(diff.locator(".add")).to_contain_text("A Dense layer's kernel")
    shoot(page, "submissions-diff")


def test_going_back_and_resubmitting_a_fix_is_recorded_not_dropped(
    page: Page, live_server: LiveServer
) -> None:
    open_question(page, live_server, "mini-single")
    stale = page.context.new_page()  # the same question left open in another tab
    stale.goto(page.url)
    expect(stale.locator("input[name=question_id]")).to_have_value("mini-single")
    page.locator("[data-choices] input").nth(1).check()
    page.get_by_role("button", name="Submit answer").click()
    first = read_verdict(page)
    stale.locator("[data-choices] input").nth(0).check()  # the fix, sent from the old page
    stale.get_by_role("button", name="Submit answer").click()
    second = read_verdict(stale)
    assert first != second  # graded afresh, not dropped on the summary
    page.goto(f"{live_server.url}/questions/mini-single/submissions")
    expect(page.locator("#submissions tbody tr")).to_have_count(2)


def test_code_editor_keeps_the_learners_code_across_reloads(
    page: Page, live_server: LiveServer
) -> None:
    open_question(page, live_server, "mini-code")
    expect(page.locator(".CodeMirror")).to_be_visible()
    page.evaluate("text => window.tapequizEditor.setValue(text)", MINE)
    page.reload()
    expect(page.locator(".CodeMirror")).to_be_visible()
    assert page.evaluate("window.tapequizEditor.getValue()") == MINE
    open_question(page, live_server, "mini-code")  # a fresh attempt, same question
    expect(page.locator(".CodeMirror")).to_be_visible()
    assert page.evaluate("window.tapequizEditor.getValue()") == MINE


def test_code_grading_off_is_said_up_front_and_not_offered(
    page: Page, live_server: LiveServer
) -> None:
    page.goto(f"{live_server.url}/sessions/new")
    expect(page.locator("#no-code-note")).to_be_visible()
    options = page.locator("#type option").all_inner_texts()
    assert not any("code" in o.lower() for o in options), options
    page.get_by_label("Questions").fill("30")
    page.get_by_role("button", name="Start session").click()
    expect(page.locator("#answer-form")).to_be_visible()
    total = int(page.locator(".steps").inner_text().split(" of ")[1].split()[0])
    assert total == 6  # the mini pack's seven questions less its code question
    open_question(page, live_server, "mini-code")
    expect(page.locator("#grading-off")).to_contain_text("cannot be graded on this server")
    expect(page.get_by_role("button", name="Submit answer")).to_be_disabled()
    expect(page.locator("#run-code")).to_have_count(0)
    shoot(page, "code-grading-off")


def test_interview_finished_early_counts_the_unanswered_and_gives_a_signal(
    page: Page, make_live_server: ServerFactory
) -> None:
    server = make_live_server(packs=FIXTURES)
    page.goto(f"{server.url}/interviews")
    page.get_by_label("10 minutes").check()
    page.get_by_role("button", name="Start the interview").click()
    answer_interview_question(page)
    expect(page.locator("#countdown")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name=re.compile("Finish")).click()
    expect(page.locator("#report-h")).to_contain_text("Not yet")
    big = page.locator(".big-score").inner_text()
    assert big != "100%", big
    expect(page.locator("#signal")).to_contain_text("Answered 1 of")
    expect(page.locator("#gaps")).to_contain_text("not answered")
    expect(page.locator("#dimensions tr[data-dimension=code]")).to_be_visible()
    expect(page.locator(".answer-card").first).not_to_contain_text("`")  # Markdown rendered
    shoot(page, "interview-report-early-finish")
    page.goto(f"{server.url}/interviews")
    expect(page.locator("main")).not_to_contain_text("100%")


def test_progress_pages_history_and_shows_relative_times_and_forecast(
    page: Page, live_server: LiveServer
) -> None:
    page.goto(live_server.url)  # the guest cookie the API calls below share
    for _ in range(11):  # 22 answers: two pages of history
        started = page.request.post(
            f"{live_server.url}/api/sessions", data={"question_ids": ["mini-tf", "mini-single"]}
        ).json()
        sid = started["id"] if "id" in started else started["session"]["id"]
        page.request.post(f"{live_server.url}/api/sessions/{sid}/answers", data={"answer": False})
        page.request.post(f"{live_server.url}/api/sessions/{sid}/answers", data={"answer": "tape"})
    page.goto(f"{live_server.url}/progress")
    expect(page.locator("table tbody tr")).to_have_count(20)
    expect(page.locator("table time[data-relative]").first).to_contain_text(
        re.compile("now|ago|second|minute")
    )
    expect(page.locator("#forecast")).to_contain_text("due now")
    page.get_by_role("link", name="Older →").click()
    expect(page.locator("table tbody tr").first).to_be_visible()
    assert page.locator("table tbody tr").count() >= 2
    shoot(page, "progress-paged")


def test_dark_mode_follows_the_system(page: Page, live_server: LiveServer) -> None:
    page.emulate_media(color_scheme="dark")
    page.goto(f"{live_server.url}/progress")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(15, 19, 32)", background
    shoot(page, "progress-dark")


def test_phone_nav_shows_every_area(page: Page, live_server: LiveServer) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url)
    for name in ("Practice", "Reviews", "Progress", "Questions", "Mock interview", "Join a cohort"):
        link = page.locator(".nav-links").get_by_role("link", name=name)
        expect(link).to_be_in_viewport(ratio=1)
    shoot(page, "phone-nav")


NO_APPLY = """import tensorflow as tf


def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    return loss
"""


@pytest.mark.sandbox
def test_run_reports_what_the_step_did_without_counting(
    page: Page, make_live_server: ServerFactory
) -> None:
    server = make_live_server(sandbox=True)
    open_question(page, server, "mini-code")
    expect(page.locator(".CodeMirror")).to_be_visible()
    page.evaluate("text => window.tapequizEditor.setValue(text)", NO_APPLY)
    page.get_by_role("button", name="Run").click()
    expect(page.locator("#trial")).to_have_attribute("data-state", "done", timeout=90_000)
    observations = page.locator("#trial-observations")
    expect(observations).to_contain_text("returned the loss")
    expect(observations).to_contain_text("0 of them None")
    expect(observations).to_contain_text("The optimizer never applied gradients.")
    expect(observations).to_contain_text("optimizer.iterations went from 0 to 0")
    expect(page.locator("#trial-scenario")).not_to_contain_text("-eager")
    shoot(page, "code-run")
    page.goto(f"{server.url}/questions/mini-code/submissions")
    expect(page.locator(".empty")).to_contain_text("not answered this question yet")


LOSS_OUTSIDE = NO_APPLY.replace(
    "        loss = loss_fn(y, model(x, training=True))\n",
    "        predictions = model(x, training=True)\n    loss = loss_fn(y, predictions)\n",
).replace(
    "    return loss\n",
    "    optimizer.apply_gradients(zip(grads, model.trainable_variables))\n    return loss\n",
)


@pytest.mark.sandbox
def test_one_name_per_misconception_and_errors_shown_as_errors(
    page: Page, make_live_server: ServerFactory
) -> None:
    server = make_live_server(sandbox=True)
    label = "Loss computed after the block"  # mini-code's label for loss-outside-tape
    open_question(page, server, "mini-code")
    expect(page.locator(".CodeMirror")).to_be_visible()
    page.evaluate("text => window.tapequizEditor.setValue(text)", LOSS_OUTSIDE)
    page.get_by_role("button", name="Submit answer").click(no_wait_after=True)
    read_verdict(page, timeout=90_000)
    expect(page.locator("li.misconception[data-tag]")).to_have_text(label)
    expect(page.locator("main")).not_to_contain_text(re.compile(r"-eager|-tf-function"))
    page.get_by_role("link", name=re.compile("summary")).click()
    expect(page.locator("main")).to_contain_text(label)
    page.goto(f"{server.url}/progress")
    expect(page.locator(".misconceptions")).to_contain_text(label)

    open_question(page, server, "mini-code")
    expect(page.locator(".CodeMirror")).to_be_visible()
    page.evaluate("text => window.tapequizEditor.setValue(text)", "def train_step(:\n")
    page.get_by_role("button", name="Submit answer").click(no_wait_after=True)
    read_verdict(page, timeout=90_000)
    expect(page.locator("#err-h")).to_have_text("What went wrong")
    expect(page.locator("main")).to_contain_text("Syntax error")
    expect(page.locator("#mis-h")).to_have_count(0)
    page.goto(f"{server.url}/progress")
    expect(page.locator(".misconceptions")).not_to_contain_text("Syntax error")
    expect(page.locator("table")).to_contain_text("Syntax error")  # listed with the answer


SLOW = NO_APPLY.replace(
    "import tensorflow as tf", "import time\n\nimport tensorflow as tf"
).replace("    return loss\n", "    time.sleep(1.5)\n    return loss\n")


@pytest.mark.sandbox
def test_waiting_submission_shows_its_place_in_the_real_queue(
    page: Page, make_live_server: ServerFactory
) -> None:
    server = make_live_server(sandbox=True)
    tabs = [page, page.context.new_page()]
    for tab in tabs:  # two slow steps (1.5 s a call), so both are still checked together
        open_question(tab, server, "mini-code")
        expect(tab.locator(".CodeMirror")).to_be_visible()
        tab.evaluate("text => window.tapequizEditor.setValue(text)", SLOW)
    polled: dict[int, list[dict[str, object]]] = {0: [], 1: []}

    def keeper(tab: int) -> Callable[[Route], None]:
        def keep(route: Route) -> None:  # what the waiting page was told, as it was told
            reply = route.fetch()
            polled[tab].append(reply.json())
            route.fulfill(response=reply)

        return keep

    for index, tab in enumerate(tabs):
        tab.route("**/grading/queue*", keeper(index))
    tabs[0].get_by_role("button", name="Submit answer").click(no_wait_after=True)
    for _ in range(300):  # until the grader holds the first one (bounded)
        if any(p.get("known") for p in polled[0]):
            break
        tabs[1].wait_for_timeout(100)
    tabs[1].get_by_role("button", name="Submit answer").click(no_wait_after=True)
    for tab in tabs:
        read_verdict(tab, timeout=120_000)
    waiting = [p for p in polled[1] if p.get("known")]
    assert waiting, polled
    assert waiting[0]["ahead"] == 1 and waiting[0]["in_progress"] == 2, waiting
    assert int(str(waiting[0]["estimate_seconds"])) > 0


def test_reviews_page_forecasts_with_relative_times_and_intervals(
    page: Page, live_server: LiveServer
) -> None:
    open_question(page, live_server, "mini-single")
    page.get_by_label("tf.GradientTape").check()
    page.get_by_role("button", name="Submit answer").click()
    assert "Correct" in read_verdict(page)
    page.goto(f"{live_server.url}/reviews")
    expect(page.locator("#forecast")).to_contain_text("0 due now")
    upcoming = page.locator("#upcoming li")
    expect(upcoming).to_have_count(1)
    expect(upcoming).to_contain_text("What records ops")
    expect(upcoming.locator("time")).to_contain_text(re.compile(r"^in \d+ (day|days|week)"))
    expect(upcoming).to_contain_text(re.compile(r"interval \d+(\.\d)? days?"))
    shoot(page, "reviews-forecast")


def test_hint_revealed_in_place_shows_its_markdown(
    page: Page, make_live_server: ServerFactory
) -> None:
    """QA Q2: a hint shown without reloading printed `with tf.GradientTape()` with its
    backticks; it reads as code, the way the page renders it after a reload."""
    server = make_live_server(packs=REPO_ROOT / "questions")
    open_question(page, server, "train-step")
    page.get_by_role("button", name=re.compile("Show a hint")).click()
    hint = page.locator("#hint-list .hint").first
    expect(hint.locator("code")).to_have_text("with tf.GradientTape()")
    expect(hint).not_to_contain_text("`")
    shoot(page, "hint-in-place")
    page.reload()
    expect(page.locator("#hint-list .hint code").first).to_have_text("with tf.GradientTape()")


PRACTICE_DRAFTS = """() => Object.keys(localStorage).filter(k => k.startsWith("tapequiz:draft:"))"""


def test_log_out_drops_the_practice_code_drafts(page: Page, live_server: LiveServer) -> None:
    """Round 13: a learner's code stayed in localStorage after logging out, for whoever used
    the browser next (interview drafts were already dropped)."""
    sign_up(page, live_server)
    open_question(page, live_server, "mini-code")
    expect(page.locator(".CodeMirror")).to_be_visible()
    page.evaluate("text => window.tapequizEditor.setValue(text)", MINE)
    assert len(page.evaluate(PRACTICE_DRAFTS)) == 1
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert page.evaluate(PRACTICE_DRAFTS) == []
    shoot(page, "logged-out-drafts-dropped")


def test_a_page_drops_practice_drafts_of_another_identity(
    page: Page, live_server: LiveServer
) -> None:
    """A log-out elsewhere (or an expired cookie) never ran this browser's log-out form: the
    next page drops every practice draft but the current identity's."""
    open_question(page, live_server, "mini-code")
    page.evaluate("text => window.tapequizEditor.setValue(text)", MINE)
    mine = page.evaluate(PRACTICE_DRAFTS)
    page.evaluate("() => localStorage.setItem('tapequiz:draft:99999:mini-code', 'not yours')")
    page.goto(f"{live_server.url}/progress")
    assert page.evaluate(PRACTICE_DRAFTS) == mine
