"""What "Your interviews" and the next report's comparison say about an interview whose
code answers are still being graded (round 17's Finish returns before they are): its stored
score leaves them out, so the list says it is still grading rather than show that score as
final, and no change is measured against it until it is graded.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.routes.test_interview_drain import (
    JSON,
    GatedGrader,
    answer,
    app_client,
    report_when_graded,
    to_code,
)
from tests.services.interview_kit import PACK


@pytest.fixture
def gated(tmp_path: Path) -> Iterator[tuple[TestClient, GatedGrader]]:
    """A server whose code grader grades only once the test opens the gate."""
    grader = GatedGrader()
    client = app_client(tmp_path / "data", grader)
    yield client, grader
    client.portal.call(grader.gate.set)  # type: ignore[union-attr]
    client.__exit__(None, None, None)


def finished_with_code_out(client: TestClient) -> str:
    """An interview finished while its code answer waits in the (gated) drain."""
    interview, question = to_code(client)
    answer(client, interview, question)
    client.post(f"/api/interviews/{interview}/finish", json={}, headers=JSON)
    return interview


def listed(client: TestClient, interview: str) -> dict[str, Any]:
    rows = client.get("/api/interviews").json()
    return next(r for r in rows if r["id"] == interview)


def history_row(page: str, interview: str) -> str:
    table = page.split('id="history-h"')[1]
    return next(r for r in table.split("<tr>") if f"/interviews/{interview}/report" in r)


def test_interview_list_says_an_interview_is_still_grading(
    gated: tuple[TestClient, GatedGrader],
) -> None:
    client, _grader = gated
    interview = finished_with_code_out(client)
    assert listed(client, interview)["grading"] == 1
    row = history_row(client.get("/interviews").text, interview)
    assert "Grading…" in row and "1 answer left" in row
    assert "%" not in row  # the partial score is not shown as if final


def test_interview_list_shows_the_score_once_graded(
    gated: tuple[TestClient, GatedGrader],
) -> None:
    client, grader = gated
    interview = finished_with_code_out(client)
    client.portal.call(grader.gate.set)  # type: ignore[union-attr]
    report = report_when_graded(client, interview)
    item = listed(client, interview)
    assert (item["grading"], item["score"]) == (0, report["scores"]["overall"])
    row = history_row(client.get("/interviews").text, interview)
    assert "Grading…" not in row and f"{round(item['score'] * 100)}%" in row


def second_interview(client: TestClient) -> str:
    started = client.post("/api/interviews", json={"pack": PACK, "minutes": 10}, headers=JSON)
    interview = started.json()["id"]
    client.post(f"/api/interviews/{interview}/finish", json={}, headers=JSON)
    return interview


def test_next_report_measures_no_change_against_an_interview_still_grading(
    gated: tuple[TestClient, GatedGrader],
) -> None:
    client, _grader = gated
    first = finished_with_code_out(client)
    report = client.get(f"/api/interviews/{second_interview(client)}/report").json()
    comparison = report["comparison"]
    assert (comparison["change"], comparison["compared_with"]) == (None, None)
    assert comparison["topic_changes"] == {}
    assert [(p["id"], p["grading"]) for p in comparison["previous"]] == [(first, 1)]


def test_next_report_compares_with_the_earlier_interview_once_graded(
    gated: tuple[TestClient, GatedGrader],
) -> None:
    client, grader = gated
    first = finished_with_code_out(client)
    second = second_interview(client)
    client.portal.call(grader.gate.set)  # type: ignore[union-attr]
    graded = report_when_graded(client, first)["scores"]["overall"]
    report = client.get(f"/api/interviews/{second}/report").json()
    comparison = report["comparison"]
    assert comparison["compared_with"] == first
    assert comparison["change"] == round(report["scores"]["overall"] - graded, 3)
    assert comparison["previous"][0]["grading"] == 0


def test_report_page_lists_an_earlier_interview_still_grading_without_its_score(
    gated: tuple[TestClient, GatedGrader],
) -> None:
    client, _grader = gated
    first = finished_with_code_out(client)
    page = client.get(f"/interviews/{second_interview(client)}/report").text
    section = page.split('id="compare-h"')[1].split("</section>")[0]
    earlier = next(li for li in section.split("<li") if f"/interviews/{first}/report" in li)
    assert "Grading…" in earlier and "%" not in earlier
    assert "points</b> since" not in section
    assert "No change measured yet: your earlier interviews on this pack are still" in section


def test_report_measures_the_change_from_the_newest_interview_fully_graded(
    gated: tuple[TestClient, GatedGrader],
) -> None:
    client, _grader = gated
    graded = second_interview(client)
    finished_with_code_out(client)
    latest = second_interview(client)
    comparison = client.get(f"/api/interviews/{latest}/report").json()["comparison"]
    assert comparison["compared_with"] == graded and comparison["change"] is not None
    page = client.get(f"/interviews/{latest}/report").text
    section = page.split('id="compare-h"')[1].split("</section>")[0]
    assert "points</b> since your interview of" in section
    assert "(the newest one whose score is final)" in section
