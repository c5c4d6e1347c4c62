"""The trusted side of the graph replay: the "tf.function" scenarios' numbers come from a
worker that never ran the candidate's Python (worker/replay.py).

The candidate's process reports the graphs its step traced; this module sends them to a fresh
worker with the hidden seed, and puts what that worker observed in place of what the
candidate's process said about those scenarios. A scenario the reference ran in tf.function
(the reference's report is trusted: it says which) whose candidate report has calls but no
graph, or whose replay failed, is an error of the answer's: it earns nothing.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

SEED_FILE = "graph-seed"


def graph_seed(data_dir: Path | None) -> int:
    """The server's hidden seed: random once, kept in the data dir so cached references stay
    valid across restarts. Never sent in a job that carries candidate code."""
    path = data_dir / "grading" / SEED_FILE if data_dir else None
    try:
        if path is not None and path.is_file():
            return int(path.read_text().strip()) % 2**31
    except (OSError, ValueError):
        pass
    seed = secrets.randbelow(2**31)
    try:
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(str(seed))
            path.chmod(0o600)
    except OSError:
        pass  # a seed of this process only: references are recomputed after a restart
    return seed


def graph_scenarios(reference: dict[str, Any]) -> set[str]:
    return {s["id"] for s in reference.get("scenarios", []) if s.get("graph")}


def replay_job(contract: str, seed: int, reference: dict[str, Any],
               candidate: dict[str, Any]) -> dict[str, Any] | None:  # fmt: skip
    """The replay of every graph scenario the candidate ran without an error, or None."""
    wanted = graph_scenarios(reference)
    scenarios = [
        {"id": s["id"], "export": s.get("export") or {}}
        for s in candidate.get("scenarios", [])
        if s.get("id") in wanted and not s.get("error") and s.get("calls")
    ]
    if candidate.get("load_error") or not scenarios:
        return None
    return {"contract": contract, "kind": "replay", "graph_seed": seed, "scenarios": scenarios}


def merge(candidate: dict[str, Any], reference: dict[str, Any],
          replayed: list[dict[str, Any]] | None, stopped: str = "") -> None:  # fmt: skip
    """Put the replay's observations in place of the candidate process's own for every graph
    scenario; `stopped` says why the replay produced none (a limit, a crash)."""
    wanted = graph_scenarios(reference)
    seen = {r.get("id"): r for r in replayed or [] if isinstance(r, dict)}
    for scenario in candidate.get("scenarios", []):
        if scenario.get("id") not in wanted or scenario.get("error"):
            continue
        found = seen.get(scenario["id"])
        if found is None:
            why = stopped or "no graph of it came back"
            scenario.update(calls=[], error=_failed(why, 0))
            continue
        scenario.update(initial=found["initial"], calls=found["calls"])
        if found.get("error"):
            error = found["error"]
            why = f"{error.get('type', 'Error')}: {error.get('message', '')}".rstrip(": ")
            scenario["error"] = _failed(why, len(found["calls"]))


def _failed(why: str, call: int) -> dict[str, Any]:
    message = (
        "In a tf.function scenario the graph your step traced is run again, on fresh state, "
        f"by a process your code never ran in; that run failed ({why.rstrip('. ')}). A step "
        "that works in tf.function runs there exactly as it did, so it earns no credit."
    )
    return {"type": "GraphReplayFailed", "message": message, "lines": [], "call": call}
