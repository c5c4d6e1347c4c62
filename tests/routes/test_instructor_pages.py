"""Instructor pages: upload form with listed problems, cohorts, the join page, escaping."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient

from app.services.instructor import publishing
from tests.routes.test_api_instructor import promote_current_user
from tests.services.instructor_fakes import EXAMPLE, FakeGrader, zip_folder
from tests.services.test_phrasing_timing_busy import starved_check


@pytest.fixture
def teacher(client: TestClient) -> Iterator[TestClient]:
    promote_current_user(client)
    client.app.state.code_grader = FakeGrader()  # type: ignore[attr-defined]
    yield client


def _token(client: TestClient, path: str = "/instructor") -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', client.get(path).text)
    assert match, "no CSRF token on the page"
    return match.group(1)


def _upload(client: TestClient, data: bytes) -> httpx.Response:
    files = {"file": ("pack.zip", data, "application/zip")}
    form = {"csrf_token": _token(client)}
    return client.post("/instructor/packs", files=files, data=form, follow_redirects=False)


def test_instructor_page_refuses_learner(client: TestClient) -> None:
    response = client.get("/instructor")
    assert response.status_code == 403 and "text/html" in response.headers["content-type"]


def test_upload_form_publishes_and_redirects(teacher: TestClient) -> None:
    response = _upload(teacher, zip_folder(EXAMPLE))
    assert response.status_code == 303
    page = teacher.get(response.headers["location"]).text
    assert "Published <strong>tape-example 1.0.0</strong>" in page


def test_upload_form_lists_problems_escaped(teacher: TestClient) -> None:
    edits = {"<i>x.yaml": (EXAMPLE / "ex-gradient-updates.yaml").read_text()}
    response = _upload(teacher, zip_folder(EXAMPLE, edits))
    assert response.status_code == 422
    assert "&lt;i&gt;x.yaml:1: id &#39;ex-gradient-updates&#39; must match" in response.text
    assert "<i>x" not in response.text


def test_upload_form_names_the_line_of_a_duplicate_section_and_topic(teacher: TestClient) -> None:
    meta = (EXAMPLE / "pack.yaml").read_text()
    meta = meta.replace("topics:\n", "  - id: recording\n    title: Again\ntopics:\n")
    meta += "  - id: applying\n    title: Again\n"
    response = _upload(teacher, zip_folder(EXAMPLE, {"pack.yaml": meta}))
    assert response.status_code == 422
    assert "pack.yaml:15: sections: Value error, duplicate section id: recording" in response.text
    assert "pack.yaml:22: topics: Value error, duplicate topic id: applying" in response.text


def test_upload_form_without_csrf_token_is_refused(teacher: TestClient) -> None:
    files = {"file": ("pack.zip", zip_folder(EXAMPLE), "application/zip")}
    assert teacher.post("/instructor/packs", files=files).status_code == 403


def test_create_cohort_form_shows_join_code(teacher: TestClient) -> None:
    form = {"csrf_token": _token(teacher), "name": "Evening group", "pack_id": "gradient-tape"}
    response = teacher.post("/instructor/cohorts", data=form)
    assert response.status_code == 200
    assert re.search(r'id="join-code">[A-Z2-9]{4}-[A-Z2-9]{4}<', response.text)


def test_join_page_with_unknown_code_shows_error(client: TestClient) -> None:
    form = {"csrf_token": _token(client, "/join"), "code": "NOPE-NOPE"}
    response = client.post("/join", data=form)
    assert response.status_code == 404 and "no cohort has that join code" in response.text


def test_learner_page_of_non_member_is_404(teacher: TestClient) -> None:
    form = {"csrf_token": _token(teacher), "name": "Group", "pack_id": "gradient-tape"}
    cohort_url = teacher.post("/instructor/cohorts", data=form, follow_redirects=False)
    response = teacher.get(cohort_url.headers["location"] + "/learners/1")
    assert response.status_code == 404 and "not in this cohort" in response.text


def test_question_version_page_shows_the_graded_text(teacher: TestClient) -> None:
    _upload(teacher, zip_folder(EXAMPLE))
    item = teacher.app.state.catalog.questions["ex-what-records"]  # type: ignore[attr-defined]
    page = teacher.get(f"/instructor/questions/ex-what-records/versions/{item.version}")
    assert page.status_code == 200
    assert "pack version <strong>1.0.0</strong>" in page.text
    assert "Which object records the forward pass?" in page.text


def test_gift_form_shows_converted_yaml_escaped(teacher: TestClient) -> None:
    text = "::<b>Q</b>::Pick one {=yes ~no}\n\n::Short::Name it {=apply}"
    form = {"csrf_token": _token(teacher), "text": text, "prefix": "m-"}
    page = teacher.post("/instructor/gift", data=form)
    assert page.status_code == 200
    assert "m-b-q-b.yaml" in page.text and "type: single-choice" in page.text
    assert "&lt;b&gt;Q&lt;/b&gt;" in page.text and "<b>Q</b>" not in page.text
    assert "Short — only choice and true/false questions are imported" in page.text


def _publish_in_background(client: TestClient, data: bytes) -> str:
    files = {"file": ("pack.zip", data, "application/zip")}
    form = {"csrf_token": _token(client)}
    started = client.post("/instructor/publishing", files=files, data=form, follow_redirects=False)
    assert started.status_code == 303
    assert started.headers["location"].startswith("/instructor/publishing/")
    return started.headers["location"]


def _until_done(client: TestClient, url: str) -> httpx.Response:
    for _ in range(200):  # bounded: a stuck job fails the test instead of hanging it
        page = client.get(url, follow_redirects=False)
        if page.status_code != 200 or 'data-done="yes"' in page.text:
            return page
        assert "Self-testing" in page.text and 'http-equiv="refresh"' in page.text
        time.sleep(0.05)
    raise AssertionError("the publishing job never finished")


def test_background_publishing_shows_steps_then_the_published_pack(teacher: TestClient) -> None:
    url = _publish_in_background(teacher, zip_folder(EXAMPLE))
    done = _until_done(teacher, url)
    assert done.status_code == 303, done.text[done.text.find("<main") :][:1500]
    page = teacher.get(done.headers["location"]).text
    assert "Published <strong>tape-example 1.0.0</strong>" in page
    assert 'class="live"' in page and "live-badge" in page


def test_background_publishing_refusal_lists_problems(teacher: TestClient) -> None:
    edits = {"ex-what-records.yaml": "id: ex-what-records\ntype: single-choice\n"}
    done = _until_done(teacher, _publish_in_background(teacher, zip_folder(EXAMPLE, edits)))
    assert done.status_code == 422
    assert 'id="refused"' in done.text and "ex-what-records.yaml" in done.text


def test_another_identity_cannot_see_a_publishing_job(teacher: TestClient) -> None:
    url = _publish_in_background(teacher, zip_folder(EXAMPLE))
    _until_done(teacher, url)
    teacher.cookies.clear()
    assert teacher.get(url, follow_redirects=False).status_code in (403, 404)


def _cohort_with_answers(client: TestClient, answers: dict[str, object]) -> tuple[str, int]:
    """A cohort of one guest learner who answered `answers`; the client ends as the teacher.
    Returns the dashboard's path and the learner's id."""
    promote_current_user(client)
    body = {"name": "Spring", "pack_id": "gradient-tape"}
    cohort = client.post("/api/instructor/cohorts", json=body).json()
    teacher = dict(client.cookies)
    client.cookies.clear()
    client.post("/api/cohorts/join", json={"code": cohort["join_code"]})
    for question, answer in answers.items():
        sid = client.post("/api/sessions", json={"question_ids": [question]}).json()["id"]
        client.post(f"/api/sessions/{sid}/answers", json={"answer": answer})
    client.cookies.clear()
    client.cookies.update(teacher)
    board = f"/instructor/cohorts/{cohort['id']}"
    return board, client.get(f"/api{board}").json()["learners"][0]["user_id"]


def test_cohort_pages_show_backticked_answers_as_code_and_nothing_else(
    client: TestClient,
) -> None:
    board, learner = _cohort_with_answers(
        client,
        {
            "tape-auto-watches-trainable": "only-x",  # choice text: "Only `x`: the tape ..."
            "gradient-vs-apply": "see [docs](http://evil.example) and `apply_gradients`",
        },
    )
    for page in (client.get(board).text, client.get(f"{board}/learners/{learner}").text):
        shown = ("Only <code>x</code>:" in page, "<code>apply_gradients</code>" in page)
        assert (shown, "`" in page, "http://evil.example" in page) == ((True, True), False, True)
        assert '<a href="http://evil.example' not in page


def test_upload_form_shows_a_starved_phrasing_check_as_not_published(
    teacher: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 54: a host too busy to time the phrasings: the server's refusal, to retry."""
    monkeypatch.setattr(publishing, "slow_phrasings", starved_check)
    response = _upload(teacher, zip_folder(EXAMPLE))
    assert response.status_code == 503
    assert "<strong>Not published:</strong> the server was too busy" in response.text
