"""The interview pages, driven through forms without JavaScript (the browser test adds JS)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.clock import FakeClock
from app.config import Settings
from app.main import create_app
from tests.services.interview_kit import FIXTURES, PACK, WRONG, ScriptedCodeGrader


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def web(tmp_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    settings = Settings(
        data_dir=tmp_path / "data",
        packs_dir=FIXTURES,
        sandbox_enabled=False,
        secret_key="test-secret-key-not-for-production",
    )
    with TestClient(create_app(settings), follow_redirects=False) as client:
        client.app.state.clock = clock  # type: ignore[attr-defined]
        client.app.state.code_grader = ScriptedCodeGrader()  # type: ignore[attr-defined]
        yield client


def csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def start(web: TestClient, minutes: int = 10) -> str:
    token = csrf(web.get("/interviews").text)
    form = {"csrf_token": token, "pack": PACK, "minutes": str(minutes), "difficulty": ""}
    response = web.post("/interviews", data=form)
    assert response.status_code == 303
    return response.headers["location"]


def current_question(page: str) -> tuple[str, str]:
    qid = re.search(r'name="question_id" value="([^"]+)"', page)
    qtype = re.search(r'name="question_type" value="([^"]+)"', page)
    assert qid and qtype
    return qid.group(1), qtype.group(1)


def test_setup_page_offers_the_three_lengths(web: TestClient) -> None:
    page = web.get("/interviews").text
    assert re.findall(r'name="minutes" id="minutes-(\d+)"', page) == ["10", "20", "45"]


def test_question_page_shows_server_countdown(web: TestClient, clock: FakeClock) -> None:
    url = start(web)
    clock.advance(75)
    page = web.get(url).text
    assert 'data-remaining="525.0"' in page
    assert ">8:45<" in page


def test_start_with_other_length_is_422_page(web: TestClient) -> None:
    token = csrf(web.get("/interviews").text)
    response = web.post("/interviews", data={"csrf_token": token, "pack": PACK, "minutes": "15"})
    assert response.status_code == 422
    assert "minutes must be one of 10, 20, 45" in response.text


def test_skip_then_finish_shows_report(web: TestClient) -> None:
    url = start(web)
    page = web.get(url).text
    qid, qtype = current_question(page)
    form = {"csrf_token": csrf(page), "question_id": qid, "question_type": qtype, "skip": "1"}
    assert web.post(f"{url}/answer", data=form).status_code == 303
    finished = web.post(f"{url}/finish", data={"csrf_token": csrf(page)})
    assert finished.headers["location"] == f"{url}/report"
    report = web.get(f"{url}/report").text
    assert "Skipped" in report and "Review next" in report


def test_report_after_skipping_every_question_counts_them_as_not_answered(
    web: TestClient,
) -> None:
    url = start(web)
    for _ in range(20):  # bounded: the plan of a 10-minute interview is a few questions
        page = web.get(url)
        if page.status_code != 200 or 'name="question_id"' not in page.text:
            break
        qid, qtype = current_question(page.text)
        form = {"csrf_token": csrf(page.text), "question_id": qid, "question_type": qtype}
        assert web.post(f"{url}/answer", data={**form, "skip": "1"}).status_code == 303
    report = " ".join(web.get(f"{url}/report").text.split())
    planned = re.search(r"Answered 0 of (\d+) planned question\(s\)\.", report)
    assert planned and int(planned.group(1)) >= 3  # skips are not answers
    assert f"<b>{planned.group(1)}</b><span>planned, not answered</span>" in report
    assert "all questions answered" not in report


def test_late_form_answer_lands_on_report_with_notice(web: TestClient, clock: FakeClock) -> None:
    url = start(web)
    page = web.get(url).text
    qid, qtype = current_question(page)
    clock.advance(minutes=11)
    form = {"csrf_token": csrf(page), "question_id": qid, "question_type": qtype,
            "answer": str(WRONG[qid]).lower()}  # fmt: skip
    response = web.post(f"{url}/answer", data=form)
    assert response.headers["location"] == f"{url}/report?late=1"
    assert "Time was up." in web.get(response.headers["location"]).text


def test_report_of_running_interview_redirects_to_question(web: TestClient) -> None:
    url = start(web)
    assert web.get(f"{url}/report").headers["location"] == url


def test_other_visitor_gets_404_page(web: TestClient) -> None:
    url = start(web)
    web.cookies.clear()
    assert web.get(url).status_code == 404


@pytest.mark.parametrize(("grader_on", "warned"), [(True, False), (False, True)])
def test_code_question_warns_when_code_is_not_graded(
    web: TestClient, grader_on: bool, warned: bool
) -> None:
    if not grader_on:
        web.app.state.code_grader = None  # type: ignore[attr-defined]
    token = csrf(web.get("/interviews").text)
    form = {"csrf_token": token, "pack": PACK, "minutes": "45", "difficulty": ""}
    url = web.post("/interviews", data=form).headers["location"]
    page = web.get(url).text
    while current_question(page)[1] != "code":
        qid, qtype = current_question(page)
        skip = {"csrf_token": csrf(page), "question_id": qid, "question_type": qtype, "skip": "1"}
        web.post(f"{url}/answer", data=skip)
        page = web.get(url).text
    assert ('id="code-grading-off"' in page) is warned


def test_written_answers_carry_a_draft_key_per_interview_and_question(web: TestClient) -> None:
    """A reload must not cost a candidate the answer being written (QA Q2: it was lost)."""
    url = start(web, minutes=45)
    interview_id = url.rsplit("/", 1)[1]
    page, keys = web.get(url).text, {}
    for _ in range(12):
        qid, qtype = current_question(page)
        key = re.search(r'data-draft-key="([^"]+)"', page)
        keys[qtype] = (qid, key.group(1) if key else None)
        if "code" in keys and "free-text" in keys:
            break
        skip = {"csrf_token": csrf(page), "question_id": qid, "question_type": qtype, "skip": "1"}
        web.post(f"{url}/answer", data=skip)
        page = web.get(url).text
    for qtype in ("free-text", "code"):
        qid, key = keys[qtype]
        assert key == f"tapequiz:interview-draft:{interview_id}:{qid}"
    closed = [key for qtype, (_, key) in keys.items() if qtype not in ("free-text", "code")]
    assert closed and closed == [None] * len(closed)


def test_answer_in_the_grace_after_the_deadline_ends_it_by_the_clock(
    web: TestClient, clock: FakeClock
) -> None:
    """QA Q2: an answer sent as the countdown hit zero (the page sends it; the server takes it
    for 2 s) was recorded, then the plan's remaining slots were dropped as not fitting and the
    report said 'all questions answered', 0 unreached, as if the interview had completed."""
    url = start(web)
    interview_id = url.rsplit("/", 1)[1]
    page = web.get(url).text
    qid, qtype = current_question(page)
    clock.advance(minutes=10, seconds=1)  # past ends_at, inside the grace
    form = {"csrf_token": csrf(page), "question_id": qid, "question_type": qtype,
            "answer": str(WRONG[qid]).lower()}  # fmt: skip
    response = web.post(f"{url}/answer", data=form)
    assert response.headers["location"] == f"{url}/report"  # taken, not refused as late
    report = web.get(f"/api/interviews/{interview_id}/report").json()
    assert report["finish_reason"] == "deadline"
    assert report["scores"]["unreached"] >= 2
    assert [a["question_id"] for a in report["answers"]][:1] == [qid]
    assert "ended by the clock" in web.get(f"{url}/report").text


INDENTED_ITEMS = """items:
  - id: forward
    text: "with tf.GradientTape() as tape:"
  - id: loss
    text: "    loss = loss_fn(y, model(x, training=True))"
  - id: grads
    text: "grads = tape.gradient(loss, model.trainable_variables)"
  - id: apply
    text: "optimizer.apply_gradients(zip(grads, model.trainable_variables))"
"""


def test_report_lists_ordered_code_lines_as_shown(tmp_path: Path, clock: FakeClock) -> None:
    """QA round 12: an ordering answer of indented code lines was rendered as Markdown, so each
    indented line became a code block under an empty bullet and the others lost their code
    font, in both the candidate's answer and the model answer."""
    packs = Path(shutil.copytree(FIXTURES, tmp_path / "packs"))
    path = packs / PACK / "o-lines.yaml"
    text = path.read_text()
    path.write_text(text[: text.index("items:")] + INDENTED_ITEMS)
    settings = Settings(
        data_dir=tmp_path / "data", packs_dir=packs, sandbox_enabled=False,
        secret_key="test-secret-key-not-for-production",
    )  # fmt: skip
    with TestClient(create_app(settings), follow_redirects=False) as web:
        web.app.state.clock = clock  # type: ignore[attr-defined]
        url = start(web, minutes=45)
        for _ in range(20):
            page = web.get(url).text
            qid, qtype = current_question(page)
            form = {"csrf_token": csrf(page), "question_id": qid, "question_type": qtype}
            if qid == "o-lines":
                order = ["forward", "loss", "grads", "apply"]
                assert web.post(f"{url}/answer", data={**form, "order": order}).status_code == 303
                break
            assert web.post(f"{url}/answer", data={**form, "skip": "1"}).status_code == 303
        web.post(f"{url}/finish", data={"csrf_token": csrf(page)})
        report = web.get(f"{url}/report").text
    indented = "<li><code>    loss = loss_fn(y, model(x, training=True))</code></li>"
    assert report.count(indented) == 2  # the answer and the model answer
    assert "<li></li>" not in report and "<li>\n<pre>" not in report
