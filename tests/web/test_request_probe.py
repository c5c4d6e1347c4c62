"""Every JSON body field of every API write, walked from the app's own routes, meets what a
broken client or an attacker sends: the wrong type, a string or a boolean where a number is
expected, negative and overflowing numbers, NUL and lone surrogates and text over its limit.
Each is refused with a readable 4xx JSON error and stores nothing; right-to-left overrides
and other odd but well-formed text are never a 500; a field the API does not have is ignored.

A new route with a JSON body fails test_every_json_write_has_a_baseline until it gets a valid
example below, and is then probed like the rest.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import BaseModel
from sqlalchemy import inspect, text

from app.config import REPO_ROOT, Settings
from app.main import create_app
from tests.routes.test_api_instructor import promote_current_user

RTL = "\u202egnirts desrever\u202c \u2067isolate\u2069"
LONE_SURROGATE = "\\ud800"  # written into the raw JSON: Python cannot encode it
NOT_STORED = {"user", "rate_limit_event", "alembic_version"}  # a refused write may touch these


@dataclass(frozen=True)
class Write:
    path: str
    body: dict[str, Any]
    headers: dict[str, str]


def _walk(routes: list[Any]) -> Iterator[Any]:
    for route in routes:
        inner = getattr(route, "original_router", None)
        yield from _walk(inner.routes) if inner is not None else [route]


def _json_writes() -> dict[str, type[BaseModel]]:
    """Each API route whose body is one JSON object (a pydantic model), by path template."""
    found = {}
    for route in _walk(create_app(Settings(sandbox_enabled=False)).routes):
        if not isinstance(route, APIRoute) or not route.path.startswith("/api/"):
            continue
        params = route.dependant.body_params
        if len(params) == 1 and isinstance(params[0].field_info.annotation, type):
            model = params[0].field_info.annotation
            if issubclass(model, BaseModel):
                found[route.path] = model
    return found


@pytest.fixture
def probe(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        data_dir=tmp_path / "data",
        packs_dir=REPO_ROOT / "questions",
        sandbox_enabled=False,
        secret_key="test-secret-key-not-for-production",
        grades_per_minute=10_000,  # the probe sends hundreds; the limit is tested elsewhere
        grades_per_minute_per_address=100_000,
    )
    with TestClient(create_app(settings)) as client:
        promote_current_user(client)
        yield client


def _single_choice(client: TestClient) -> tuple[str, str]:
    listed = client.get("/api/questions", params={"type": "single-choice"}).json()
    question = client.get(f"/api/questions/{listed[0]['id']}").json()
    return question["id"], question["choices"][0]["id"]


def _baselines(client: TestClient) -> dict[str, Write]:
    """A valid request for each JSON write (it would succeed as it is)."""
    question, choice = _single_choice(client)
    session = client.post("/api/sessions", json={"question_ids": [question]}).json()
    started = client.post("/api/interviews", json={"pack": "gradient-tape", "minutes": 10})
    interview = started.json()
    instructor = {"X-Requested-With": "probe"}
    cohort = client.post(
        "/api/instructor/cohorts",
        json={"name": "Probe", "pack_id": "gradient-tape"},
        headers=instructor,
    ).json()
    return {
        "/api/questions/{question_id}/grade": Write(
            f"/api/questions/{question}/grade", {"answer": choice, "hints_used": 0}, {}
        ),
        "/api/sessions": Write(
            "/api/sessions",
            {"mode": "practice", "pack": "gradient-tape", "count": 2, "question_ids": None},
            {},
        ),
        "/api/sessions/{session_id}/answers": Write(
            f"/api/sessions/{session['id']}/answers",
            {"answer": choice, "question_id": question},
            {},
        ),
        "/api/interviews": Write(
            "/api/interviews", {"pack": "gradient-tape", "minutes": 10, "difficulty": "easy"}, {}
        ),
        "/api/interviews/{interview_id}/answers": Write(
            f"/api/interviews/{interview['id']}/answers",
            {"question_id": interview["question"]["id"], "answer": None, "skip": False},
            {},
        ),
        "/api/instructor/cohorts": Write(
            "/api/instructor/cohorts", {"name": "Spring", "pack_id": "gradient-tape"}, instructor
        ),
        "/api/cohorts/join": Write("/api/cohorts/join", {"code": cohort["join_code"]}, {}),
        "/api/instructor/gift/convert": Write(
            "/api/instructor/gift/convert",
            {"text": "::Q1:: The tape records operations. {T}", "prefix": "m-"},
            instructor,
        ),
    }


def _kinds(annotation: Any) -> set[str]:
    """What a field takes, read from its annotation: int, bool, str, list, literal, any."""
    if annotation is Any:
        return {"any"}
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal:
        return {"literal"}
    if origin in (list, tuple, set):
        return {"list"}
    if args:  # X | None and other unions
        return set().union(*(_kinds(a) for a in args if a is not type(None)))
    return {annotation.__name__} if annotation in (int, bool, str, float) else {"other"}


# Values each kind of field must refuse (a raw JSON fragment, so surrogates can be sent).
REFUSED: dict[str, list[str]] = {
    "int": ['"5"', "true", "1.5", "-1", str(2**63), "1" + "0" * 30, "[]", "{}", '"x"'],
    "bool": ['"yes"', '"true"', "1", "0", "[]", "{}", "null"],
    "str": ["5", "true", "[]", "{}", json.dumps("\x00"), f'"{LONE_SURROGATE}"'],
    "list": ['"x"', "{}", "[5]", json.dumps(["\x00"]), f'["{LONE_SURROGATE}"]', "[[]]"],
    "literal": ['"NOT-ONE-OF-THEM"', "5", "true", "[]", "{}"],
    "any": [json.dumps("\x00"), f'"{LONE_SURROGATE}"', '{"a": 1}', json.dumps([[["deep"]]])],
}


def _cases() -> Iterator[tuple[str, str, str]]:
    for path, model in sorted(_json_writes().items()):
        for name, field in model.model_fields.items():
            kinds = _kinds(field.annotation)
            for kind in sorted(kinds):
                for value in REFUSED.get(kind, []):
                    if kind == "int" and "literal" in kinds:
                        continue
                    yield path, name, value


def _table_counts(client: TestClient) -> dict[str, int]:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with engine.connect() as db:
        return {
            t: db.execute(text(f'SELECT COUNT(*) FROM "{t}"')).scalar_one()
            for t in inspect(engine).get_table_names()
            if t not in NOT_STORED
        }


def _send(client: TestClient, write: Write, name: str, raw_value: str | None) -> Any:
    body = json.dumps(write.body)
    if raw_value is not None:
        fields = {k: json.dumps(v) for k, v in write.body.items() if k != name}
        fields[name] = raw_value
        body = "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in fields.items()) + "}"
    headers = {"content-type": "application/json", **write.headers}
    return client.post(write.path, content=body.encode("utf-8", "surrogatepass"), headers=headers)


def _refused(reply: Any) -> str | None:
    """None if the reply is a readable refusal; otherwise what is wrong with it."""
    if reply.status_code not in (400, 404, 409, 413, 422):
        return f"status {reply.status_code}: {reply.text[:160]}"
    message = reply.json().get("message", "")
    return None if message else f"no message: {reply.text[:160]}"


def test_every_json_write_has_a_baseline(probe: TestClient) -> None:
    assert set(_json_writes()) == set(_baselines(probe))


@pytest.mark.parametrize("route", sorted(_json_writes()))
def test_the_baseline_of_each_write_succeeds(probe: TestClient, route: str) -> None:
    write = _baselines(probe)[route]
    reply = _send(probe, write, "", None)
    assert reply.status_code in (200, 201), reply.text[:300]


def test_each_field_refuses_hostile_values_and_stores_nothing(probe: TestClient) -> None:
    baselines, wrong = _baselines(probe), []
    cases = list(_cases())
    assert len(cases) > 80
    for path, name, value in cases:
        before = _table_counts(probe)
        reply = _send(probe, baselines[path], name, value)
        problem = _refused(reply)
        if problem is None and _table_counts(probe) != before:
            problem = "refused but stored something"
        if problem:
            wrong.append(f"{path} {name}={value[:40]}: {problem}")
    assert wrong == []


def test_unknown_fields_are_ignored_as_before(probe: TestClient) -> None:
    """A field an endpoint does not have changes nothing: clients may send more than the
    API reads (a public contract), so each write answers as its baseline does."""
    wrong = []
    for path, write in _baselines(probe).items():
        body = Write(write.path, {**write.body, "unexpected_field": 1}, write.headers)
        reply = _send(probe, body, "", None)
        if reply.status_code not in (200, 201):
            wrong.append(f"{path}: {reply.status_code} {reply.text[:200]}")
    assert wrong == []


def test_a_key_given_twice_is_refused_naming_it_and_stores_nothing(probe: TestClient) -> None:
    """Last-wins (what Python's JSON reader did) silently picked one of two values: each
    field of each write, sent twice with its baseline value first and itself again, is a
    422 naming the key, and nothing is stored."""
    wrong = []
    for path, write in _baselines(probe).items():
        for name, value in write.body.items():
            before = _table_counts(probe)
            reply = _send(probe, write, name, f"{json.dumps(value)}, {json.dumps(name)}: "
                          f"{json.dumps(value)}")  # fmt: skip
            problem = _refused(reply)
            if problem is None and (reply.status_code != 422 or name not in reply.text):
                problem = f"{reply.status_code} without the key's name: {reply.text[:160]}"
            if problem is None and _table_counts(probe) != before:
                problem = "refused but stored something"
            if problem:
                wrong.append(f"{path} {name}: {problem}")
    assert wrong == []


def test_whole_numbers_written_as_decimals_are_refused_naming_the_field(
    probe: TestClient,
) -> None:
    """Every field whose valid value is an integer (a count, a length in minutes) refuses
    the same number written as a decimal, `10.0`, with a 422 naming the field."""
    wrong, probed = [], 0
    for path, write in _baselines(probe).items():
        for name, value in write.body.items():
            if type(value) is not int:
                continue
            probed += 1
            reply = _send(probe, write, name, f"{value}.0")
            if reply.status_code != 422 or name not in reply.json().get("message", ""):
                wrong.append(f"{path} {name}={value}.0: {reply.status_code} {reply.text[:160]}")
    assert probed >= 3 and wrong == []


def test_over_long_text_in_any_field_is_refused(probe: TestClient) -> None:
    wrong = []
    for path, write in _baselines(probe).items():
        for name in write.body:
            reply = _send(probe, write, name, json.dumps("x" * 300_000))
            if reply.status_code not in (413, 422):
                wrong.append(f"{path} {name}: {reply.status_code}")
    assert wrong == []


@pytest.mark.parametrize("value", [RTL, "\u05e9\u05dc\u05d5\u05dd", "\ufeffbom", "a\u200bb"])
def test_odd_but_well_formed_text_is_never_a_server_error(probe: TestClient, value: str) -> None:
    wrong = []
    for path, write in _baselines(probe).items():
        for name, field in _json_writes()[path].model_fields.items():
            if _kinds(field.annotation) & {"str", "any"}:
                reply = _send(probe, write, name, json.dumps(value))
                if reply.status_code >= 500:
                    wrong.append(f"{path} {name}: {reply.status_code}")
    assert wrong == []


def test_the_probe_reads_field_kinds() -> None:
    kinds: Callable[[Any], set[str]] = _kinds
    assert kinds(int | None) == {"int"}
    assert kinds(list[str] | None) == {"list"}
    assert kinds(typing.Literal[10, 20]) == {"literal"}
