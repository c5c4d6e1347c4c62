"""Withdrawing a published pack version (QA round 12): only the owner, only the live version;
the one before is served again or the pack leaves the catalog; attempts, progress and the
text they were graded against are kept; a session in progress passes over withdrawn
questions; a running mock interview on the pack holds the withdrawal off."""

from __future__ import annotations

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.clock import FakeClock
from app.models.publishing import PackVersion
from app.models.users import User
from tests.routes.quiz.conftest import token
from tests.routes.test_api_instructor import HEADERS, _upload, promote_current_user
from tests.services.instructor_fakes import EXAMPLE, FakeGrader, zip_folder

BUILT_IN = "accumulate"  # a question of the built-in pack, which cannot be withdrawn
RECORDS = "ex-what-records"
WRONG_TITLE = "A title that turned out wrong"


@pytest.fixture
def teacher(client: TestClient) -> TestClient:
    promote_current_user(client)
    client.app.state.code_grader = FakeGrader()  # type: ignore[attr-defined]
    return client


def _v101() -> bytes:
    meta = (EXAMPLE / "pack.yaml").read_text().replace("version: 1.0.0", "version: 1.0.1")
    text = (EXAMPLE / f"{RECORDS}.yaml").read_text()
    wrong = text.replace("title: Which object records the forward pass?", f"title: {WRONG_TITLE}")
    return zip_folder(EXAMPLE, {"pack.yaml": meta, f"{RECORDS}.yaml": wrong})


def _withdraw(client: TestClient, version: str, pack: str = "tape-example") -> httpx.Response:
    path = f"/api/instructor/packs/{pack}/versions/{version}/withdraw"
    return client.post(path, headers=HEADERS)


def test_withdraw_live_version_serves_the_one_before(teacher: TestClient) -> None:
    assert _upload(teacher, zip_folder(EXAMPLE)).status_code == 201
    assert _upload(teacher, _v101()).status_code == 201
    assert teacher.get(f"/api/questions/{RECORDS}").json()["title"] == WRONG_TITLE
    reply = _withdraw(teacher, "1.0.1")
    assert reply.status_code == 200, reply.text
    assert (reply.json()["version"], reply.json()["live"]) == ("1.0.1", "1.0.0")
    assert reply.json()["withdrawn_at"]
    assert teacher.get(f"/api/questions/{RECORDS}").json()["title"] != WRONG_TITLE
    listed = {v["version"]: v["withdrawn_at"] for v in teacher.get("/api/instructor/packs").json()}
    assert listed["1.0.0"] is None and listed["1.0.1"] is not None
    again = _upload(teacher, _v101())  # a withdrawn number is never reused
    assert again.status_code == 409 and "not newer" in again.json()["message"]


def test_withdraw_keeps_attempts_and_sessions_pass_over_withdrawn(teacher: TestClient) -> None:
    _upload(teacher, zip_folder(EXAMPLE))
    ids = [RECORDS, "ex-gradient-updates", BUILT_IN]
    sid = teacher.post("/api/sessions", json={"question_ids": ids}).json()["id"]
    teacher.post(f"/api/sessions/{sid}/answers", json={"answer": "optimizer"})
    graded = teacher.get("/api/progress/attempts").json()[0]
    reply = _withdraw(teacher, "1.0.0")
    assert (reply.status_code, reply.json()["live"]) == (200, None)
    assert teacher.get("/api/packs").json()[0]["id"] != "tape-example"
    assert teacher.get(f"/api/questions/{RECORDS}").status_code == 404
    now = teacher.get(f"/api/sessions/{sid}").json()
    assert (now["current"]["id"], now["position"], now["finished"]) == (BUILT_IN, 2, False)
    summary = teacher.get(f"/api/sessions/{sid}/summary")
    assert summary.status_code == 200 and len(summary.json()["attempts"]) == 1
    assert teacher.get("/api/progress").json()["attempts"] == 1
    assert teacher.get("/progress").status_code == 200
    kept = f"/instructor/questions/{RECORDS}/versions/{graded['question_version']}"
    page = teacher.get(kept)
    assert page.status_code == 200 and "1.0.0 (withdrawn)" in page.text


def test_withdraw_only_the_live_version(teacher: TestClient) -> None:
    _upload(teacher, zip_folder(EXAMPLE))
    _upload(teacher, _v101())
    old = _withdraw(teacher, "1.0.0")
    assert old.status_code == 409 and "only the live version" in old.json()["message"]
    assert _withdraw(teacher, "9.9.9").status_code == 404
    assert _withdraw(teacher, "1.0.0", pack="gradient-tape").status_code == 404  # built-in


def test_withdraw_refused_for_another_instructor(teacher: TestClient) -> None:
    _upload(teacher, zip_folder(EXAMPLE))
    with Session(teacher.app.state.engine) as session:  # type: ignore[attr-defined]
        other = User(email="other@example.com", display_name="other", is_guest=False)
        session.add(other)
        session.commit()
        row = session.get(PackVersion, 1)
        assert row is not None
        row.published_by = other.id
        session.add(row)
        session.commit()
    refused = _withdraw(teacher, "1.0.0")
    assert refused.status_code == 409 and "another instructor" in refused.json()["message"]
    assert teacher.get(f"/api/questions/{RECORDS}").status_code == 200


def test_withdraw_waits_for_a_running_interview(teacher: TestClient) -> None:
    clock = teacher.app.state.clock = FakeClock()  # type: ignore[attr-defined]
    _upload(teacher, zip_folder(EXAMPLE))
    started = teacher.post("/api/interviews", json={"pack": "tape-example", "minutes": 10})
    assert started.status_code == 201
    refused = _withdraw(teacher, "1.0.0")
    assert refused.status_code == 409 and "mock interview(s)" in refused.json()["message"]
    clock.advance(minutes=11)
    assert _withdraw(teacher, "1.0.0").status_code == 200
    report = teacher.get(f"/api/interviews/{started.json()['id']}/report")
    assert report.status_code == 200  # it finished itself; its report is readable


def test_withdraw_refuses_hostile_paths_and_forged_posts(teacher: TestClient) -> None:
    _upload(teacher, zip_folder(EXAMPLE))
    for pack, version in (("..", "1.0.0"), ("tape-example", "1.0.0.withdrawn"), ("X" * 99, "1")):
        assert _withdraw(teacher, version, pack=pack).status_code in (404, 422)
    no_header = teacher.post("/api/instructor/packs/tape-example/versions/1.0.0/withdraw")
    assert no_header.status_code == 403
    form = teacher.post("/instructor/packs/tape-example/versions/1.0.0/withdraw", data={})
    assert form.status_code == 403  # no CSRF token
    assert teacher.get(f"/api/questions/{RECORDS}").status_code == 200


def test_withdraw_form_redirects_and_marks_the_version(teacher: TestClient) -> None:
    _upload(teacher, zip_folder(EXAMPLE))
    _upload(teacher, _v101())
    page = teacher.get("/instructor").text
    assert 'action="/instructor/packs/tape-example/versions/1.0.1/withdraw"' in page
    assert 'action="/instructor/packs/tape-example/versions/1.0.0/withdraw"' not in page
    done = teacher.post(
        "/instructor/packs/tape-example/versions/1.0.1/withdraw",
        data={"csrf_token": token(teacher, "/instructor")},
    )
    assert (
        done.status_code == 200
        and "Withdrawn <strong>tape-example 1.0.1; 1.0.0 is live" in done.text
    )
    assert (
        "withdrawn " in done.text
        and 'action="/instructor/packs/tape-example/versions/1.0.0/withdraw"' in done.text
    )
    again = teacher.post(
        "/instructor/packs/tape-example/versions/1.0.1/withdraw",
        data={"csrf_token": token(teacher, "/instructor")},
    )
    assert again.status_code == 409 and "Not withdrawn:" in again.text


def test_review_counts_leave_out_withdrawn_questions(teacher: TestClient) -> None:
    """Found clicking through (QA round 12): after a withdrawal the reviews page said
    "Nothing is due right now. Next review: 23 minutes ago." above "5 due now"."""
    _upload(teacher, zip_folder(EXAMPLE))
    sid = teacher.post("/api/sessions", json={"question_ids": [RECORDS, BUILT_IN]}).json()["id"]
    teacher.post(f"/api/sessions/{sid}/answers", json={"answer": "optimizer"})  # missed: due
    assert teacher.get("/api/progress").json()["reviews_due"] == 1
    _withdraw(teacher, "1.0.0")
    assert teacher.get("/api/progress").json()["reviews_due"] == 0
    assert teacher.get("/api/progress").json()["next_review"] is None
    assert teacher.get("/api/reviews").json()["count"] == 0
    for page in ("/reviews", "/progress"):
        assert "<b>0</b> due now" in teacher.get(page).text
    assert teacher.get(f"/api/sessions/{sid}/summary").json()["reviews_due"] == 0
    _upload(teacher, _v101())  # served again: the card was kept, so it is due again
    assert teacher.get("/api/progress").json()["reviews_due"] == 1


BANNERS = ('id="published"', 'id="withdrawn"')


@pytest.mark.parametrize(
    "query",
    [
        "published=tape-example%201.0.0",  # nothing was published
        "withdrawn=tape-example%201.0.0%3B%20all%20your%20learners%20were%20deleted",
        "published=gradient-tape%201.0.0",  # built in: nobody published it
    ],
)
def test_instructor_page_ignores_a_banner_the_link_claims(teacher: TestClient, query: str) -> None:
    page = teacher.get(f"/instructor?{query}")
    assert page.status_code == 200
    assert not any(banner in page.text for banner in BANNERS)
    assert "deleted" not in page.text


def test_instructor_page_ignores_another_instructors_publication(teacher: TestClient) -> None:
    _upload(teacher, zip_folder(EXAMPLE))
    with Session(teacher.app.state.engine) as session:  # type: ignore[attr-defined]
        other = User(email="other@example.com", display_name="other", is_guest=False)
        session.add(other)
        session.commit()
        row = session.get(PackVersion, 1)
        assert row is not None
        row.published_by = other.id
        session.add(row)
        session.commit()
    page = teacher.get("/instructor?published=tape-example%201.0.0").text
    assert 'id="published"' not in page


def test_withdrawn_banner_states_the_records_not_the_link(teacher: TestClient) -> None:
    clock = teacher.app.state.clock = FakeClock()  # type: ignore[attr-defined]
    _upload(teacher, zip_folder(EXAMPLE))
    _upload(teacher, _v101())
    assert _withdraw(teacher, "1.0.1").status_code == 200
    page = teacher.get("/instructor?withdrawn=tape-example%201.0.1%3B%20hacked").text
    assert "Withdrawn <strong>tape-example 1.0.1; 1.0.0 is live again</strong>" in page
    assert "hacked" not in page
    clock.advance(minutes=11)  # an old link no longer announces anything
    assert 'id="withdrawn"' not in teacher.get("/instructor?withdrawn=tape-example%201.0.1").text
