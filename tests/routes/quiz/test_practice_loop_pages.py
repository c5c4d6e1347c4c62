"""The practice loop over HTTP: resubmits, Try again, submissions and their diff, one
identity never seeing another's submissions, and hostile query values."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.routes.quiz.conftest import answer, start, token


def _feedback_url(reply: object) -> str:
    assert reply.status_code == 303, reply.text  # type: ignore[attr-defined]
    return str(reply.headers["location"])  # type: ignore[attr-defined]


def test_double_submit_of_the_same_answer_records_it_once(web: TestClient) -> None:
    url = start(web, "mini-single")
    first = _feedback_url(answer(web, url, "mini-single", "single-choice", answer="tape"))
    again = answer(web, url, "mini-single", "single-choice", answer="tape")
    assert _feedback_url(again) == url  # back to the session (now its summary), nothing new
    rows = web.get("/questions/mini-single/submissions").text
    assert rows.count("data-attempt=") == 1 and first.endswith("/attempts/1")


def _three_questions(client: TestClient) -> str:
    ids = ["mini-tf", "mini-single", "mini-multi"]
    started = client.post("/api/sessions", json={"question_ids": ids})
    assert started.status_code == 201
    return f"/sessions/{started.json()['id']}"


def test_changed_answer_from_a_stale_page_is_a_new_attempt_in_the_same_session(
    web: TestClient,
) -> None:
    url = _three_questions(web)
    answer(web, url, "mini-tf", "true-false", answer="true")  # now at Q2 of 3
    fixed = _feedback_url(answer(web, url, "mini-tf", "true-false", answer="false"))
    assert fixed.startswith(url + "/attempts/")  # no new session: recorded in this one
    assert '<h1 id="verdict">Correct</h1>' in web.get(fixed).text
    assert "Question 2 of 3" in web.get(url).text  # and the learner is still at Q2


def test_stale_double_submit_goes_back_to_where_the_learner_is(web: TestClient) -> None:
    url = _three_questions(web)
    answer(web, url, "mini-tf", "true-false", answer="true")
    again = answer(web, url, "mini-tf", "true-false", answer="true")  # Back, then resubmit
    assert _feedback_url(again) == url
    assert "Question 2 of 3" in web.get(url).text


def test_try_again_retries_in_the_session_then_continues(web: TestClient) -> None:
    url = _three_questions(web)
    feedback = _feedback_url(answer(web, url, "mini-tf", "true-false", answer="true"))
    reply = web.post(f"{feedback}/retry", data={"csrf_token": token(web)}, follow_redirects=False)
    assert reply.status_code == 303 and reply.headers["location"] == f"{feedback}/again"
    page = web.get(reply.headers["location"]).text
    assert 'name="question_id" value="mini-tf"' in page and 'name="again" value="1"' in page
    assert "Question 1 of 3 · trying it again" in page and 'id="hint-form"' not in page
    same = answer(web, url, "mini-tf", "true-false", answer="true", again="1")
    retried = _feedback_url(same)  # the same answer again is a new attempt when retrying
    assert retried.startswith(url + "/attempts/") and retried != feedback
    assert f'href="{url}" id="next"' in web.get(retried).text
    assert "Question 2 of 3" in web.get(url).text
    assert web.get(f"{url}/summary").status_code == 200


def test_submissions_of_another_identity_are_neither_listed_nor_diffed(
    web: TestClient, tmp_path: object
) -> None:
    url = start(web, "mini-multi")
    answer(web, url, "mini-multi", "multiple-choice", answer=["trainable"])
    page = web.get("/questions/mini-multi/submissions").text
    mine = re.findall(r'data-attempt="(\d+)"', page)
    web.cookies.clear()  # a new guest
    other = web.get("/questions/mini-multi/submissions")
    assert 'data-attempt="' not in other.text
    spy = web.get(f"/questions/mini-multi/submissions?old={mine[0]}&new={mine[0]}")
    assert spy.status_code == 404


@pytest.mark.parametrize("query", ["page=0", "page=-3", "page=abc", "page=99999999999999999999"])
def test_hostile_history_page_numbers_are_422(web: TestClient, query: str) -> None:
    assert web.get(f"/progress?{query}").status_code == 422


def test_history_page_past_the_end_shows_the_last_page(web: TestClient) -> None:
    assert web.get("/progress?page=500").status_code == 200


def test_queue_status_of_an_unknown_ticket_says_so(web: TestClient) -> None:
    assert web.get("/grading/queue?ticket=whatever-123").json() == {
        "known": False,
        "grading": False,
    }


@pytest.mark.parametrize(
    ("question", "qtype", "fields", "shown"),
    [
        ("mini-tf", "true-false", {"answer": "true"}, "<b>The right answer:</b> False"),
        ("mini-predict", "predict-output", {"answer": "same"}, '<pre class="snippet"><code>'),
        ("mini-order", "ordering", {"order": ["apply", "grads", "loss", "forward"]}, "right-order"),
    ],
)
def test_feedback_repeats_the_question_and_shows_the_right_answer(
    web: TestClient, question: str, qtype: str, fields: dict[str, object], shown: str
) -> None:
    url = start(web, question)
    page = web.get(_feedback_url(answer(web, url, question, qtype, **fields))).text
    assert 'id="question-recap"' in page and shown in page


def test_session_with_fewer_questions_than_asked_says_so(web: TestClient) -> None:
    form = {"csrf_token": token(web), "type": "single-choice", "count": "3"}
    started = web.post("/sessions", data=form, follow_redirects=False)
    assert started.status_code == 303 and started.headers["location"].endswith("?asked=3")
    page = " ".join(web.get(started.headers["location"]).text.split())
    assert "Only 1 question of this kind." in page and "You asked for 3" in page
    assert "Question 1 of 1" in page


def test_session_with_as_many_questions_as_asked_says_nothing(web: TestClient) -> None:
    form = {"csrf_token": token(web), "type": "single-choice", "count": "1"}
    started = web.post("/sessions", data=form, follow_redirects=False)
    assert "?" not in started.headers["location"]
    assert 'id="fewer-questions"' not in web.get(started.headers["location"]).text
    assert 'id="fewer-questions"' not in web.get(started.headers["location"] + "?asked=1").text
