"""The trusted side of the graph replay (app/grading/code/replays.py): which scenarios are
replayed, and what the replay's observations replace in the candidate's report."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from app.grading.code.compare import compare_scenario
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


def test_graph_seed_is_created_private_with_no_chmod_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 16 wrote the file, then chmod-ed it: for that moment another user could read the
    seed. Now it is private from its creation (umask 0 here: os.open's mode alone decides),
    written in full under a temporary name, and appears under its own name by a link."""
    seen: list[tuple[int, str]] = []
    real_link = os.link

    def link(source: Any, target: Any) -> None:
        seen.append((os.stat(source).st_mode & 0o777, Path(source).read_text()))
        real_link(source, target)

    def no_chmod(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the seed file was chmod-ed after its creation")

    monkeypatch.setattr(os, "link", link)
    monkeypatch.setattr(os, "chmod", no_chmod)
    monkeypatch.setattr(Path, "chmod", no_chmod)
    old = os.umask(0)
    try:
        seed = graph_seed(tmp_path)
    finally:
        os.umask(old)
    path = tmp_path / "grading" / "graph-seed"
    assert seen == [(0o600, str(seed))]
    assert path.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["graph-seed"]  # no temporary left


def test_graph_seed_written_first_by_another_process_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_link = os.link

    def raced(source: Any, target: Any) -> None:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, b"12345")
        os.close(fd)
        real_link(source, target)

    monkeypatch.setattr(os, "link", raced)
    assert graph_seed(tmp_path) == 12345


def test_graph_seed_readable_by_others_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "grading" / "graph-seed"
    path.parent.mkdir()
    path.write_text("12345")
    path.chmod(0o644)
    seed = graph_seed(tmp_path)
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.read_text() == str(seed)


def test_replay_refusal_reads_as_its_reason() -> None:
    reference, candidate = runs()
    refusal = {"type": "Unreplayable", "message": "the traced graph holds a ReadFile op"}
    merge(candidate, reference, [{"id": "g-tf-function", "initial": [], "calls": [],
                                  "error": refusal}])  # fmt: skip
    message = candidate["scenarios"][1]["error"]["message"]
    assert "(the traced graph holds a ReadFile op)" in message, message


@pytest.mark.parametrize(("graph", "shown"), [(True, False), (False, True)])
def test_numbers_of_a_scenario_on_hidden_state_are_not_shown(graph: bool, shown: bool) -> None:
    """Round 16: "value 0: expected 0.25, got 0.5" for a replayed scenario said a number of
    the hidden state; answer after answer could read them all off the feedback."""
    reference = scenario("s", graph=graph, calls=[HIDDEN])
    candidate = scenario("s", graph=False, calls=[CALL])
    [mismatch] = compare_scenario(reference, candidate)
    assert ("0.25" in mismatch.detail) is shown, mismatch.detail
    assert ("not shown" in mismatch.detail) is not shown, mismatch.detail


def test_declared_contract_replay_job_carries_its_checker_but_no_source() -> None:
    """A declared contract's replay builds its inputs from the pack's setup
    (worker/replay_declared.py); the candidate's code still never travels with the seed."""
    reference, candidate = runs()
    checker = {"setup": "def make_inputs(seed): ...", "seeds": [0], "tf_function": True}
    job = replay_job("scale-grad", 7, reference, candidate, checker)
    assert job is not None and job["checker"] == checker
    assert "sources" not in job and job["graph_seed"] == 7


def test_built_in_contract_replay_job_has_no_checker() -> None:
    reference, candidate = runs()
    job = replay_job("train-step", 7, reference, candidate)
    assert job is not None and "checker" not in job
