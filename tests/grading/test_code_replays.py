"""The trusted side of the graph replay (app/grading/code/replays.py): which scenarios are
replayed, and what the replay's observations replace in the candidate's report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.grading.code.judge import judge
from app.grading.code.replays import graph_seed, merge, replay_job
from app.grading.code.static import SourceFacts

CALL = {"out": {"kind": "tensor", "dtype": "float32", "shape": [], "values": [0.5]},
        "weights": [], "state": [], "iterations": [1]}  # fmt: skip
HIDDEN = {**CALL, "out": {**CALL["out"], "values": [0.25]}}


def scenario(sid: str, *, graph: bool, calls: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    return {"id": sid, "graph": graph, "initial": [], "calls": calls, "error": None,
            "probes": {}, **more}  # fmt: skip


def runs() -> tuple[dict[str, Any], dict[str, Any]]:
    reference = {"load_error": None, "scenarios": [
        scenario("eager", graph=False, calls=[CALL]), scenario("g-tf-function", graph=True,
                                                                calls=[HIDDEN])]}  # fmt: skip
    candidate = {
        "load_error": None,
        "scenarios": [
            scenario("eager", graph=False, calls=[CALL]),
            scenario("g-tf-function", graph=False, calls=[CALL], export={"library": ["x"]}),
        ],
    }
    return reference, candidate


def test_only_graph_scenarios_the_reference_names_are_replayed() -> None:
    reference, candidate = runs()
    job = replay_job("train-step", 7, reference, candidate)
    assert job is not None
    assert [s["id"] for s in job["scenarios"]] == ["g-tf-function"]
    assert job["graph_seed"] == 7 and job["kind"] == "replay"


def test_forged_report_without_graphs_fails_its_graph_scenarios() -> None:
    """Round 15's forger: numbers for every scenario, no graph. Its own numbers for the graph
    scenario are not believed; the replay reported nothing for it."""
    reference, candidate = runs()
    merge(candidate, reference, [])
    forged = candidate["scenarios"][1]
    assert forged["calls"] == [] and forged["error"]["type"] == "GraphReplayFailed"
    result = judge(contract="train-step", reference=reference, candidate=candidate, known=[],
                   facts=SourceFacts())  # fmt: skip
    assert result.verdict != "correct"
    assert "run again, on fresh state, by a process your code never ran in" in (
        result.feedback[0].message
    )


def test_replayed_numbers_replace_the_candidate_process_own() -> None:
    reference, candidate = runs()
    merge(candidate, reference, [{"id": "g-tf-function", "initial": [], "calls": [HIDDEN],
                                  "error": None}])  # fmt: skip
    result = judge(contract="train-step", reference=reference, candidate=candidate, known=[],
                   facts=SourceFacts())  # fmt: skip
    assert (result.verdict, result.score) == ("correct", 1.0)


def test_replay_stopped_by_a_limit_says_so() -> None:
    reference, candidate = runs()
    merge(candidate, reference, None, "Your code exceeded the wall time limit (15 s)")
    assert "wall time limit" in candidate["scenarios"][1]["error"]["message"]


def test_graph_seed_is_kept_private_in_the_data_dir(tmp_path: Path) -> None:
    first = graph_seed(tmp_path)
    assert graph_seed(tmp_path) == first
    assert (tmp_path / "grading" / "graph-seed").stat().st_mode & 0o077 == 0
