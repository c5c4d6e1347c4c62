"""Quiz pages over HTTP: forms, CSRF, grader errors shown clearly, and one identity never
seeing another's sessions."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.errors import GraderBusy
from app.main import create_app
from tests.routes.quiz.conftest import FIXTURES, answer, mini_settings, start, token

PAGES = ["/", "/sessions/new", "/questions", "/questions/mini-order", "/progress", "/reviews"]


@pytest.mark.parametrize("path", [*PAGES, "/login", "/signup"])
def test_page_renders_html(web: TestClient, path: str) -> None:
    reply = web.get(path)
    assert (reply.status_code, reply.headers["content-type"][:9]) == (200, "text/html")


@pytest.mark.parametrize(
    ("question", "qtype", "fields", "verdict"),
    [
        ("mini-single", "single-choice", {"answer": "tape"}, "Correct"),
        ("mini-tf", "true-false", {"answer": "true"}, "Not quite"),
        ("mini-multi", "multiple-choice", {"answer": ["trainable"]}, "Partly right"),
        ("mini-order", "ordering", {"order": ["forward", "loss", "grads", "apply"]}, "Correct"),
        ("mini-predict", "predict-output", {"answer": "runtime-error"}, "Correct"),
    ],
)
def test_answer_form_leads_to_feedback(
    web: TestClient,
    question: str,
    qtype: str,
    fields: dict[str, object],
    verdict: str,
) -> None:
    url = start(web, question)
    reply = answer(web, url, question, qtype, **fields)
    page = web.get(reply.headers["location"])  # type: ignore[attr-defined]
    assert f'<h1 id="verdict">{verdict}</h1>' in page.text


def test_form_without_csrf_token_is_forbidden(web: TestClient) -> None:
    web.get("/")
    assert web.post("/sessions", data={"count": "3"}).status_code == 403


def test_code_answer_without_grader_shows_501_and_keeps_the_code(
    web: TestClient,
) -> None:
    url = start(web, "mini-code")
    reply = answer(web, url, "mini-code", "code", answer="def train_step():\n    return 42  # mine")
    assert reply.status_code == 501  # type: ignore[attr-defined]
    assert "cannot be graded on this server" in reply.text  # type: ignore[attr-defined]
    assert "return 42  # mine" in reply.text  # type: ignore[attr-defined]


class BusyGrader:
    async def grade(self, question: object, source: str) -> object:
        raise GraderBusy("all graders are busy", retry_after=7)


def test_busy_grader_answers_503_with_retry_after(tmp_path: Path) -> None:
    with TestClient(create_app(mini_settings(tmp_path))) as client:
        client.app.state.code_grader = BusyGrader()  # type: ignore[attr-defined]
        url = start(client, "mini-code")
        reply = answer(client, url, "mini-code", "code", answer="def f(): pass")
    assert (reply.status_code, reply.headers["retry-after"]) == (503, "7")  # type: ignore[attr-defined]
    assert 'data-retry-after="7"' in reply.text  # type: ignore[attr-defined]


def test_grading_is_rate_limited(tmp_path: Path) -> None:
    with TestClient(create_app(mini_settings(tmp_path, grades_per_minute=2))) as client:
        statuses = []
        for _ in range(3):
            url = start(client, "mini-single")
            reply = answer(client, url, "mini-single", "single-choice", answer="tape")
            statuses.append(reply.status_code)  # type: ignore[attr-defined]
    assert statuses == [303, 303, 429]


@pytest.mark.parametrize("suffix", ["", "/summary", "/attempts/1"])
def test_other_identity_cannot_see_a_session(web: TestClient, suffix: str) -> None:
    url = start(web, "mini-single")
    answer(web, url, "mini-single", "single-choice", answer="tape")
    web.cookies.clear()
    assert web.get(url + suffix).status_code == 404


def test_learner_text_is_escaped_in_history(web: TestClient) -> None:
    url = start(web, "mini-explain")
    answer(web, url, "mini-explain", "free-text", answer="<script>alert(1)</script> records")
    page = web.get("/progress").text
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page


def test_hint_request_returns_the_hint_as_json_for_scripts(web: TestClient) -> None:
    url = start(web, "mini-single")
    reply = web.post(
        f"{url}/hint", data={"csrf_token": token(web)}, headers={"accept": "application/json"}
    )
    assert reply.json()["text"] == "It is used as a context manager."


def test_double_submit_does_not_answer_the_next_question(web: TestClient) -> None:
    sid_url = web.post(
        "/sessions",
        data={"csrf_token": token(web), "type": "single-choice", "count": "1"},
        follow_redirects=False,
    ).headers["location"]
    first = answer(web, sid_url, "mini-single", "single-choice", answer="tape")
    second = answer(web, sid_url, "mini-single", "single-choice", answer="tape")
    assert (first.status_code, second.headers["location"]) == (303, sid_url)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", 7),
        ("?type=ordering", 1),
        ("?difficulty=medium", 3),
        ("?type=code&difficulty=easy", 0),
        ("?q=gradient", 2),
        ("?topic=tapes", 7),
    ],
)
def test_question_browser_filters(web: TestClient, query: str, expected: int) -> None:
    assert web.get(f"/questions{query}").text.count('class="title"') == expected


def test_free_text_page_states_the_limit_in_characters(web: TestClient) -> None:
    page = web.get(start(web, "mini-explain")).text
    wanted = ('maxlength="10000"', 'data-limit="10000"', "0 of 10,000 characters")
    assert [w in page for w in wanted] == [True, True, True]


def test_free_text_page_grades_a_long_cjk_explanation(web: TestClient) -> None:
    url = start(web, "mini-explain")
    reply = answer(web, url, "mini-explain", "free-text", answer="梯度带记录前向计算。" * 400)
    assert reply.status_code == 303, reply.text[:300]  # type: ignore[attr-defined]


def test_hint_json_carries_the_hint_rendered_as_the_page_renders_it(tmp_path: Path) -> None:
    """QA Q2: hints revealed in place showed raw Markdown (`with` in backticks) until a reload."""
    packs = tmp_path / "packs"
    shutil.copytree(FIXTURES, packs)
    single = packs / "mini" / "mini-single.yaml"
    hint = "hints: [It is used as a context manager.]"
    marked = "hints: ['Open it with `with`, <b>not</b> by hand.']"
    single.write_text(single.read_text().replace(hint, marked))
    with TestClient(create_app(mini_settings(tmp_path, packs_dir=packs))) as client:
        url = start(client, "mini-single")
        reply = client.post(
            f"{url}/hint",
            data={"csrf_token": token(client)},
            headers={"accept": "application/json"},
        ).json()
    assert reply["text"] == "Open it with `with`, <b>not</b> by hand."
    assert (
        reply["html"].strip()
        == "<p>Open it with <code>with</code>, &lt;b&gt;not&lt;/b&gt; by hand.</p>"
    )
