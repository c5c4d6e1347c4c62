"""The trusted side of the graph replay: the "tf.function" scenarios' numbers come from a
worker that never ran the candidate's Python (worker/replay.py).

The candidate's process reports the graphs its step traced; this module sends them to a fresh
worker with the hidden seed, and puts what that worker observed in place of what the
candidate's process said about those scenarios. A scenario the reference ran in tf.function
(the reference's report is trusted: it says which) whose candidate report has calls but no
graph, or whose replay failed, is an error of the answer's: it earns nothing.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

SEED_FILE = "graph-seed"


def graph_seed(data_dir: Path | None) -> int:
    """The server's hidden seed: random once, kept in the data dir so cached references stay
    valid across restarts. Never sent in a job that carries candidate code."""
    path = data_dir / "grading" / SEED_FILE if data_dir else None
    kept = _kept_seed(path) if path is not None else None
    if kept is not None:
        return kept
    seed = secrets.randbelow(2**31)
    try:
        if path is not None:
            return _create_seed(path, seed)
    except OSError:
        pass  # a seed of this process only: references are recomputed after a restart
    return seed


def _kept_seed(path: Path) -> int | None:
    """The seed in `path`, unless another user could read it: a file some group or other
    bit opens (written by round 16's write-then-chmod, or by hand) is no longer hidden, so it
    is replaced (references keyed by the old seed are recomputed)."""
    try:
        found = path.stat()
        if found.st_mode & 0o077:
            path.unlink()
            return None
        return int(path.read_text().strip()) % 2**31
    except (OSError, ValueError):
        return None


def _create_seed(path: Path, seed: int) -> int:
    """Write the seed to a private temporary file created with mode 0600 (os.open applies the
    mode at creation: there is no moment it is readable by others), then link it into place,
    which fails if another process got there first: then its seed is the one kept."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = path.with_name(f".{SEED_FILE}.{secrets.token_hex(8)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "w") as file:
            file.write(str(seed))
            file.flush()
            os.fsync(file.fileno())
        os.link(temporary, path)
    except FileExistsError:
        kept = _kept_seed(path)
        return seed if kept is None else kept
    finally:
        temporary.unlink(missing_ok=True)
    return seed


def graph_scenarios(reference: dict[str, Any]) -> set[str]:
    return {s["id"] for s in reference.get("scenarios", []) if s.get("graph")}


def replay_job(contract: str, seed: int, reference: dict[str, Any], candidate: dict[str, Any],
               checker: dict[str, Any] | None = None) -> dict[str, Any] | None:  # fmt: skip
    """The replay of every graph scenario the candidate ran without an error, or None. A
    contract the pack declares carries its `checker` (the instructor's setup builds the
    replay's inputs: worker/replay_declared.py); the candidate's code is never in the job."""
    wanted = graph_scenarios(reference)
    scenarios = [
        {"id": s["id"], "export": s.get("export") or {}}
        for s in candidate.get("scenarios", [])
        if s.get("id") in wanted and not s.get("error") and s.get("calls")
    ]
    if candidate.get("load_error") or not scenarios:
        return None
    job = {"contract": contract, "kind": "replay", "graph_seed": seed, "scenarios": scenarios}
    return job if checker is None else {**job, "checker": checker}


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
            kind = "" if error.get("type") == "Unreplayable" else f"{error.get('type', 'Error')}: "
            why = f"{kind}{error.get('message', '')}".rstrip(": ")
            scenario["error"] = _failed(why, len(found["calls"]))


def _failed(why: str, call: int) -> dict[str, Any]:
    message = (
        "In a tf.function scenario the graph your step traced is run again, on fresh state, "
        f"by a process your code never ran in; that run failed ({why.rstrip('. ')}). A step "
        "that works in tf.function runs there exactly as it did, so it earns no credit."
    )
    return {"type": "GraphReplayFailed", "message": message, "lines": [], "call": call}
