"""Instructor JSON API: role and header checks, pack upload, refusal details."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.config import Settings
from app.grading.freetext import budget
from app.grading.freetext.budget import STOPPED_EARLY_MESSAGE
from app.grading.results import GradeResult
from app.main import create_app
from app.models.users import User
from app.packs.schema import Code, CodeFix
from app.services.instructor import publishing
from tests.grading.test_freetext_budget import CATASTROPHIC, PUMPED, order_reading_off
from tests.services.instructor_fakes import EXAMPLE, FakeGrader, zip_folder
from tests.services.test_phrasing_timing import CATASTROPHIC as SLOW_SHAPES
from tests.services.test_phrasing_timing import FIRST
from tests.services.test_phrasing_timing_busy import starved_check

HEADERS = {"X-Requested-With": "test"}


def promote_current_user(client: TestClient) -> None:
    # A first write stores the guest (reads store nothing); a refused join is one.
    client.post("/api/cohorts/join", json={"code": "NO-SUCH-CODE"})
    with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
        for user in session.exec(select(User)).all():
            user.role = "instructor"
            session.add(user)
        session.commit()


@pytest.fixture
def teacher(client: TestClient) -> Iterator[TestClient]:
    promote_current_user(client)
    client.app.state.code_grader = FakeGrader()  # type: ignore[attr-defined]
    yield client


def _upload(client: TestClient, data: bytes, headers: dict[str, str] = HEADERS) -> httpx.Response:
    files = {"file": ("pack.zip", data, "application/zip")}
    return client.post("/api/instructor/packs", files=files, headers=headers)


def test_list_packs_refuses_learner(client: TestClient) -> None:
    response = client.get("/api/instructor/packs")
    assert response.status_code == 403 and response.json()["error"] == "forbidden"


def test_upload_refuses_without_custom_header(teacher: TestClient) -> None:
    response = _upload(teacher, zip_folder(EXAMPLE), headers={})
    assert response.status_code == 403


def test_upload_publishes_and_serves_questions(teacher: TestClient) -> None:
    response = _upload(teacher, zip_folder(EXAMPLE))
    assert response.status_code == 201
    body = response.json()
    assert (body["pack_id"], body["version"], body["question_count"]) == (
        "tape-example",
        "1.0.0",
        8,
    )
    assert teacher.get("/api/questions/ex-what-records").status_code == 200


def test_upload_refused_lists_problems_in_details(teacher: TestClient) -> None:
    edits = {"ex-what-records.yaml": "id: ex-what-records\ntype: single-choice\n"}
    response = _upload(teacher, zip_folder(EXAMPLE, edits))
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "pack_invalid"
    assert any(d.startswith("ex-what-records.yaml:") for d in body["details"])
    assert teacher.get("/api/questions/ex-what-records").status_code == 404


def test_list_packs_shows_published_version(teacher: TestClient) -> None:
    _upload(teacher, zip_folder(EXAMPLE))
    [row] = teacher.get("/api/instructor/packs").json()
    assert (row["pack_id"], row["version"]) == ("tape-example", "1.0.0")


def _create_cohort(client: TestClient) -> dict:
    body = {"name": "Spring cohort", "pack_id": "gradient-tape"}
    response = client.post("/api/instructor/cohorts", json=body)
    assert response.status_code == 201
    return response.json()


def test_create_cohort_returns_join_code(teacher: TestClient) -> None:
    cohort = _create_cohort(teacher)
    assert len(cohort["join_code"]) == 9 and cohort["members"] == 0


def test_join_cohort_as_guest_shows_on_dashboard(teacher: TestClient) -> None:
    cohort = _create_cohort(teacher)
    instructor_cookies = dict(teacher.cookies)
    teacher.cookies.clear()  # a new visitor: a guest learner
    joined = teacher.post("/api/cohorts/join", json={"code": cohort["join_code"].lower()})
    assert joined.json() == {"name": "Spring cohort", "pack_id": "gradient-tape"}
    assert teacher.get(f"/api/instructor/cohorts/{cohort['id']}").status_code == 403
    teacher.cookies.clear()
    teacher.cookies.update(instructor_cookies)
    board = teacher.get(f"/api/instructor/cohorts/{cohort['id']}").json()
    assert [learner["name"] for learner in board["learners"]] == ["Guest #2"]


def test_join_cohort_unknown_code_is_404(client: TestClient) -> None:
    response = client.post("/api/cohorts/join", json={"code": "AAAA-AAAA"})
    assert response.status_code == 404


def test_export_cohort_csv_has_header(teacher: TestClient) -> None:
    cohort = _create_cohort(teacher)
    response = teacher.get(f"/api/instructor/cohorts/{cohort['id']}/export.csv")
    assert response.headers["content-type"].startswith("text/csv")
    assert response.text.startswith("learner,email,question_id")


def test_export_gift_of_builtin_pack_is_text(teacher: TestClient) -> None:
    response = teacher.get("/api/instructor/packs/gradient-tape/gift")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    assert "(single-choice)\n::" in response.text


def test_convert_gift_returns_yaml_with_free_ids(teacher: TestClient) -> None:
    gift_text = "::Q::Pick one {=yes ~no}"
    body = teacher.post("/api/instructor/gift/convert", json={"text": gift_text, "prefix": "m-"})
    assert body.status_code == 200
    [question] = body.json()["questions"]
    assert question["id"] == "m-q" and "type: single-choice" in question["yaml"]


def test_upload_over_configured_limit_is_refused(settings: Settings) -> None:
    small = settings.model_copy(update={"pack_upload_max_bytes": 2048})
    with TestClient(create_app(small)) as client:
        promote_current_user(client)
        response = _upload(client, zip_folder(EXAMPLE))
    assert response.status_code == 422
    assert "larger than the limit of 2,048 bytes" in " ".join(response.json()["details"])


class StepCountingGrader(FakeGrader):
    """Like the checker's step rule: more apply_gradients calls than the reference makes is
    'optimizer-applied-too-often' (the real sandbox compares optimizer.iterations)."""

    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        want, have = (s.count(".apply_gradients(") for s in (question.reference, source))
        if have > want:
            return GradeResult("incorrect", 0.0, misconceptions=["optimizer-applied-too-often"])
        return await super().grade(question, source)


def test_upload_refuses_a_reference_that_never_steps_the_optimizer(teacher: TestClient) -> None:
    """QA Q2: a train-step reference without apply_gradients passed its self-test, was
    published, and then graded the textbook step 'incorrect: stepped more often'."""
    teacher.app.state.code_grader = StepCountingGrader()  # type: ignore[attr-defined]
    question = (EXAMPLE / "ex-write-train-step.yaml").read_text()
    apply = "      optimizer.apply_gradients(zip(grads, model.trainable_variables))\n"
    reference, wrong = question.split("wrong:", 1)
    edits = {"ex-write-train-step.yaml": reference.replace(apply, "", 1) + "wrong:" + wrong}
    response = _upload(teacher, zip_folder(EXAMPLE, edits))
    assert response.status_code == 422, response.text
    detail = response.json()["details"][0]
    assert detail.startswith("ex-write-train-step.yaml:24: ex-write-train-step: reference steps:")
    assert "once per call, as the train-step contract says" in detail
    assert teacher.get("/api/questions/ex-write-train-step").status_code == 404


def test_upload_with_an_overlong_version_is_refused_not_a_500(
    teacher: TestClient, settings: Settings
) -> None:
    """QA Q2: version 999...9.0.0 (300 digits) validated, then publishing failed renaming the
    staging folder to it ('File name too long'): a 500 and an empty folder under packs/."""
    meta = (
        (EXAMPLE / "pack.yaml").read_text().replace("version: 1.0.0", f"version: {'9' * 300}.0.0")
    )
    response = _upload(teacher, zip_folder(EXAMPLE, {"pack.yaml": meta}))
    assert response.status_code == 422, response.text
    [detail] = response.json()["details"]
    assert detail.startswith("pack.yaml:8: version: String should have at most 32 characters")
    assert not (settings.data_dir / "packs" / "tape-example").exists()


def test_upload_with_two_correct_single_choices_names_the_second_ones_line(
    teacher: TestClient,
) -> None:
    """QA round 12: this was reported at line 1 of the file, far from the mistake."""
    text = (EXAMPLE / "ex-what-records.yaml").read_text()
    two = text.replace("    text: The optimizer\n", "    text: The optimizer\n    correct: true\n")
    response = _upload(teacher, zip_folder(EXAMPLE, {"ex-what-records.yaml": two}))
    assert response.status_code == 422
    [detail] = response.json()["details"]
    assert detail.startswith("ex-what-records.yaml:22: choices: ")
    assert "exactly one correct choice; tape, optimizer are all marked" in detail


def test_upload_refuses_a_backtracking_phrasing_naming_it(teacher: TestClient) -> None:
    """Round 18: round 17's code phrasing (nested with-blocks, cubic in the lines under `re`)
    passed the phrasing timer, which pumped one character or word at a time. Round 19: it is
    timed with `regex`, which grades with it and reads it in under a second; a phrasing that
    is exponential under `regex` too is refused."""
    slow = SLOW_SHAPES["overlapping alternatives of several words"]
    text = (EXAMPLE / "ex-explain-none.yaml").read_text()
    line = text[: text.index(FIRST)].count("\n") + 2
    added = FIRST.replace("any:\n", f"any:\n        - {json.dumps(slow)}\n", 1)
    edits = {"ex-explain-none.yaml": text.replace(FIRST, added, 1)}
    response = _upload(teacher, zip_folder(EXAMPLE, edits))
    assert response.status_code == 422, response.text
    [detail] = response.json()["details"]
    assert detail.startswith(f"ex-explain-none.yaml:{line}: phrasing {slow!r} took more")
    assert "'the tape the tape" in detail  # the answer's start: what it repeats
    assert teacher.get("/api/questions/ex-explain-none").status_code == 404


@pytest.fixture
def order_off(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # Since round 38 the pumped run is read as words out of English order and cut as padding
    # (tests/grading/test_freetext_budget.py); the subject here is the budget.
    yield from order_reading_off(monkeypatch)


@pytest.mark.usefixtures("order_off")
def test_catastrophic_phrasing_the_timer_missed_is_graded_within_the_budget(
    teacher: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 19: a phrasing that backtracks on a pumped answer (here as if the pack-time
    timer had let it through) is stopped at the answer's CPU budget, over HTTP: a 200 with
    the note, not correct, in bounded time."""
    monkeypatch.setattr(budget, "ANSWER_SECONDS", 0.3)
    monkeypatch.setattr(publishing, "slow_phrasings", _none_slow)
    text = (EXAMPLE / "ex-explain-none.yaml").read_text()
    tell = (
        "        - (need|must|have to|should)\\w* ~ (call )?(tape\\.)?watch ~ (variables|weights)"
    )
    assert tell in text, "the example pack's tell phrasing moved"
    added = f"{tell}\n        - {json.dumps(CATASTROPHIC)}"  # the tell's second phrasing
    response = _upload(
        teacher, zip_folder(EXAMPLE, {"ex-explain-none.yaml": text.replace(tell, added)})
    )
    assert response.status_code == 201, response.text
    began = time.monotonic()
    response = teacher.post("/api/questions/ex-explain-none/grade", json={"answer": PUMPED})
    assert time.monotonic() - began < 60  # unbudgeted, this answer does not finish
    assert response.status_code == 200, response.text[:300]
    body = response.json()
    assert body["verdict"] == "partial"
    assert STOPPED_EARLY_MESSAGE in [f["message"] for f in body["feedback"]]


async def _none_slow(pack: object) -> list[str]:
    return []


def test_upload_answers_a_starved_phrasing_check_with_503_and_retry_after(
    teacher: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 54: a host too busy to time the phrasings is no fault of the pack: retry."""
    monkeypatch.setattr(publishing, "slow_phrasings", starved_check)
    response = _upload(teacher, zip_folder(EXAMPLE))
    assert response.status_code == 503 and response.headers["retry-after"] == "60"
    assert response.json()["error"] == "pack_check_busy"
    assert teacher.get("/api/instructor/packs", headers=HEADERS).json() == []
