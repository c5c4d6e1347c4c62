"""The JSON API over packs and questions, against the fixture pack and the core pack."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.grading.results import GradeResult
from app.main import create_app
from app.packs.loader import load_pack
from tests.conftest import CORE_PACK, FIXTURE_PACKS

FREE_TEXT_IDS = {
    "why-none-gradients", "no-zero-grad", "trainable-vs-all-variables", "gradient-vs-apply",
    "persistent-tape", "numpy-inside-tape", "tf-function-speedup", "training-flag",
    "higher-order-derivatives", "gradient-accumulation",
}  # fmt: skip
CODE_IDS = {
    "train-step", "accumulate", "gan-step", "second-derivative", "input-gradient", "clip-step",
}  # fmt: skip


def test_list_packs_returns_summaries(mini_client: TestClient) -> None:
    response = mini_client.get("/api/packs")
    assert response.status_code == 200
    assert response.json() == [
        {
            "id": "mini",
            "title": "Mini pack",
            "description": "A tiny pack with one question of each type, for tests.",
            "question_count": 7,
            "version": "0.1.0",
        }
    ]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", 7),
        ("?pack=mini", 7),
        ("?type=ordering", 1),
        ("?topic=tapes&type=code", 1),
        ("?section=basics", 7),
        ("?section=elsewhere", 0),
    ],
)
def test_list_questions_filters(mini_client: TestClient, query: str, expected: int) -> None:
    response = mini_client.get(f"/api/questions{query}")
    assert response.status_code == 200
    assert len(response.json()) == expected


def test_list_questions_unknown_pack_is_404(mini_client: TestClient) -> None:
    response = mini_client.get("/api/questions?pack=nope")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_list_questions_unknown_type_is_422(mini_client: TestClient) -> None:
    response = mini_client.get("/api/questions?type=essay")
    assert response.status_code == 422
    assert "type" in response.json()["message"]


def test_get_question_unknown_id_is_404_json(mini_client: TestClient) -> None:
    response = mini_client.get("/api/questions/does-not-exist")
    assert response.status_code == 404
    assert response.json() == {
        "error": "not_found",
        "message": "no question with id 'does-not-exist'",
        "details": [],
    }


def test_get_question_serves_ordering_items_shuffled(mini_client: TestClient) -> None:
    body = mini_client.get("/api/questions/mini-order").json()
    assert [i["id"] for i in body["items"]] != ["forward", "loss", "grads", "apply"]
    assert sorted(i["id"] for i in body["items"]) == ["apply", "forward", "grads", "loss"]


def test_get_hint_by_index(mini_client: TestClient) -> None:
    assert mini_client.get("/api/questions/mini-tf/hints/0").json()["text"] == (
        "What does it return?"
    )
    assert mini_client.get("/api/questions/mini-tf/hints/3").status_code == 404


GRADES = [
    ("mini-single", "tape", "correct", 1.0),
    ("mini-single", "session", "incorrect", 0.0),
    ("mini-multi", ["trainable", "dense-kernel"], "correct", 1.0),
    ("mini-multi", ["trainable"], "partial", 0.5),
    ("mini-multi", ["trainable", "constant"], "partial", 0.25),  # half found x half right
    ("mini-multi", ["trainable", "dense-kernel", "constant"], "partial", 0.667),
    ("mini-multi", ["constant", "numpy"], "incorrect", 0.0),
    ("mini-multi", [], "incorrect", 0.0),
    ("mini-tf", False, "correct", 1.0),
    ("mini-tf", "false", "correct", 1.0),
    ("mini-tf", True, "incorrect", 0.0),
    ("mini-order", ["forward", "loss", "grads", "apply"], "correct", 1.0),
    ("mini-order", ["forward", "loss", "apply", "grads"], "partial", 0.833),
    ("mini-order", ["apply", "grads", "loss", "forward"], "incorrect", 0.0),
    ("mini-predict", "runtime-error", "correct", 1.0),
    ("mini-predict", "same", "incorrect", 0.0),
]


@pytest.mark.parametrize(("question_id", "answer", "verdict", "score"), GRADES)
def test_grade_closed_question(
    mini_client: TestClient, question_id: str, answer: object, verdict: str, score: float
) -> None:
    response = mini_client.post(f"/api/questions/{question_id}/grade", json={"answer": answer})
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["verdict"], body["score"]) == (verdict, score)
    assert body["question_id"] == question_id
    assert body["explanation"] and body["section"] == "Basics"
    assert body["elapsed_ms"] >= 0


SOLUTIONS = [
    ("mini-multi", ["trainable", "dense-kernel"]),
    ("mini-tf", False),
    ("mini-order", ["forward", "loss", "grads", "apply"]),
    ("mini-predict", "runtime-error"),
    ("mini-explain", None),
]


@pytest.mark.parametrize(("question_id", "solution"), SOLUTIONS)
def test_grade_response_carries_solution_for_closed_questions(
    mini_client: TestClient, question_id: str, solution: object
) -> None:
    wrong: object = "x" if question_id == "mini-explain" else None
    answers = {"mini-multi": ["numpy"], "mini-tf": True, "mini-predict": "same"}
    answers["mini-order"] = ["apply", "grads", "loss", "forward"]
    body = {"answer": answers.get(question_id, wrong)}
    response = mini_client.post(f"/api/questions/{question_id}/grade", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["solution"] == solution


MALFORMED = [
    ("mini-single", 3, "must be a choice id"),
    ("mini-single", "nope", "unknown choice 'nope'"),
    ("mini-single", ["tape"], "must be a choice id"),
    ("mini-multi", "trainable", "must be a list of choice ids"),
    ("mini-multi", ["trainable", "trainable"], "repeats"),
    ("mini-multi", ["ghost"], "unknown choice id(s): 'ghost'"),
    ("mini-tf", "yes", "true or false"),
    ("mini-tf", None, "true or false"),
    ("mini-order", ["forward", "loss"], "must order all 4 items"),
    ("mini-order", {"a": 1}, "must be a list of item ids"),
    ("mini-explain", 42, "answer must be a string"),
    ("mini-explain", "x" * 20_000, "too long"),
    ("mini-explain", "x" * 10_001, "too long: the limit is 10,000 characters"),
    ("mini-explain", "梯" * 10_001, "too long: the limit is 10,000 characters"),
    ("mini-code", ["def f(): pass"], "answer must be a string"),
    ("mini-code", "#" * 70_000, "too long: the limit is 64 KiB"),
]


@pytest.mark.parametrize(("question_id", "answer", "fragment"), MALFORMED)
def test_grade_malformed_answer_is_422(
    mini_client: TestClient, question_id: str, answer: object, fragment: str
) -> None:
    response = mini_client.post(f"/api/questions/{question_id}/grade", json={"answer": answer})
    assert response.status_code == 422, response.text
    assert fragment in response.json()["message"]


@pytest.mark.parametrize("text", ["梯度" * 5_000, "🙂" * 10_000, "x" * 10_000])
def test_grade_explanation_up_to_10000_characters_in_any_script(
    mini_client: TestClient, text: str
) -> None:
    """The limit counts characters: 10,000 CJK characters are 30,000 UTF-8 bytes."""
    response = mini_client.post("/api/questions/mini-explain/grade", json={"answer": text})
    assert response.status_code == 200, response.text[:300]


def test_grade_missing_answer_field_is_422(mini_client: TestClient) -> None:
    response = mini_client.post("/api/questions/mini-single/grade", json={"choice": "tape"})
    assert response.status_code == 422
    assert "answer" in response.json()["message"]


def test_grade_non_json_body_is_422(mini_client: TestClient) -> None:
    response = mini_client.post(
        "/api/questions/mini-single/grade",
        content=b"not json",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422


def test_grade_one_megabyte_body_is_refused(mini_client: TestClient) -> None:
    body = json.dumps({"answer": "x" * 1_000_000})
    response = mini_client.post(
        "/api/questions/mini-explain/grade",
        content=body,
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413
    assert "request body over" in response.json()["message"]


def test_grade_unknown_question_is_404(mini_client: TestClient) -> None:
    response = mini_client.post("/api/questions/ghost/grade", json={"answer": "a"})
    assert response.status_code == 404


def test_grade_code_with_sandbox_off_is_501(mini_client: TestClient) -> None:
    response = mini_client.post("/api/questions/mini-code/grade", json={"answer": "def f(): pass"})
    assert response.status_code == 501
    assert response.json()["error"] == "grader_unavailable"


def test_openapi_documents_the_api(mini_client: TestClient) -> None:
    paths = mini_client.get("/openapi.json").json()["paths"]
    assert {"/api/packs", "/api/questions", "/api/questions/{question_id}"} <= set(paths)
    assert "/api/questions/{question_id}/grade" in paths


# --- the core pack -----------------------------------------------------------------------


def test_core_pack_lists_required_questions(client: TestClient) -> None:
    listed = client.get("/api/questions?pack=gradient-tape").json()
    ids = {q["id"] for q in listed}
    assert len(listed) >= 60
    assert len({q["type"] for q in listed}) >= 6
    assert ids >= FREE_TEXT_IDS | CODE_IDS
    by_id = {q["id"]: q["type"] for q in listed}
    assert all(by_id[i] == "free-text" for i in FREE_TEXT_IDS)
    assert all(by_id[i] == "code" for i in CODE_IDS)


def _secrets(question: object) -> list[str]:
    """Every text of a question that would give its answer away if a detail showed it."""
    q = question
    found = [q.explanation, *q.hints]  # type: ignore[attr-defined]
    for choice in getattr(q, "choices", []):
        if choice.why:
            found.append(choice.why)
    rubric = getattr(q, "rubric", None)
    if rubric is not None:
        found.append(rubric.model_answer)
        found += [m.correction for m in rubric.misconceptions]
    found += [s.answer for s in getattr(q, "samples", [])]
    if hasattr(q, "reference"):
        found.append(q.reference)  # type: ignore[attr-defined]
        # A code-fix question shows its broken code on purpose; other wrong solutions stay hidden.
        shown = getattr(q, "broken", None)
        found += [w.code for w in q.wrong if w.code != shown]  # type: ignore[attr-defined]
    return [s.strip() for s in found if len(s.strip()) > 12]


def test_question_detail_never_leaks_answers(client: TestClient) -> None:
    report = load_pack(CORE_PACK)
    assert report.pack is not None, report.problems
    for item in report.pack.questions:
        body = client.get(f"/api/questions/{item.question.id}").json()
        text = json.dumps(body)
        assert '"correct"' not in text and "rubric" not in text
        shown = " ".join(str(v) for v in body.values())
        for secret in _secrets(item.question):
            assert secret not in shown, f"{item.question.id} leaks: {secret[:60]}"
        if item.question.type == "true-false":
            assert [c["id"] for c in body["choices"]] == ["true", "false"]


def test_grade_rate_limit_answers_429_with_retry_after(settings: Settings) -> None:
    limited = settings.model_copy(update={"packs_dir": FIXTURE_PACKS, "grades_per_minute": 2})
    with TestClient(create_app(limited)) as client:
        for _ in range(2):
            ok = client.post("/api/questions/mini-tf/grade", json={"answer": True})
            assert ok.status_code == 200
        refused = client.post("/api/questions/mini-tf/grade", json={"answer": True})
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) >= 1
    assert refused.json()["error"] == "rate_limited"


def test_unknown_api_path_is_json_404(mini_client: TestClient) -> None:
    response = mini_client.get("/api/nothing-here")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_unknown_page_is_html_404(mini_client: TestClient) -> None:
    response = mini_client.get("/nothing-here")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert "Not found" in response.text


class _TaggingGrader:
    """A code grader whose verdict carries fixed tags (a sandbox is not needed to see how
    the endpoint reports them)."""

    def __init__(self, tags: list[str]) -> None:
        self.tags = tags

    async def grade(self, question: object, source: str) -> GradeResult:
        return GradeResult("incorrect", 0.0, misconceptions=list(self.tags))


@pytest.mark.parametrize(
    ("tag", "label"),
    [
        ("syntax-error", "Syntax error"),
        ("exception", "The code raised an exception"),
        ("missing-function", "The required function is missing"),
        ("resource-limit", "Exceeded a sandbox limit"),
    ],
)
def test_grade_code_error_is_never_a_misconception(
    mini_client: TestClient, tag: str, label: str
) -> None:
    mini_client.app.state.code_grader = _TaggingGrader([tag, "tape-outside"])  # type: ignore[attr-defined]
    graded = mini_client.post("/api/questions/mini-code/grade", json={"answer": "def f(:"})
    assert graded.status_code == 200
    assert graded.json()["misconceptions"] == ["tape-outside"]
    assert graded.json()["errors"] == [label]
    started = mini_client.post("/api/sessions", json={"question_ids": ["mini-code"]}).json()
    answered = mini_client.post(
        f"/api/sessions/{started['id']}/answers", json={"answer": "def f(:"}
    ).json()  # a session's answer: the same split
    assert answered["attempt"]["misconceptions"] == graded.json()["misconceptions"]
    assert answered["attempt"]["errors"] == graded.json()["errors"]
