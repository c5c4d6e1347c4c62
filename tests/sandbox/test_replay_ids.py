"""The replay worker checks the scenario ids of the exports it is given (worker/replay.py).

The trusted side sends only the ids of the reference's "tf.function" scenarios, but until
round 18 that was all that stood between a forged id and a KeyError that ended the replay
worker with a traceback and no report (the whole replay failed, read as the answer exiting by
itself), and an eager scenario's id was replayed on public state. Now one loop serves the core
and the declared contracts, and an id that is not a "tf.function" scenario of the job's
contract, or that came already, gets a readable refusal of its own; the others replay as before.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
import yaml

from app.config import REPO_ROOT
from app.grading.code.references import contract_job
from tests.sandbox.conftest import SandboxGrader, load_question
from tests.sandbox.declared import declared

pytestmark = pytest.mark.sandbox
TRAIN_STEP = yaml.safe_load((REPO_ROOT / "questions/gradient-tape/train-step.yaml").read_text())
# The exports a candidate's process would report, then the replay on forged entries: in a
# process of its own (trusted code, no sandbox: only the worker's loop is under test).
SCRIPT = r"""
import json, os, sys
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
from app.grading.sandbox.worker.declared import run_declared
from app.grading.sandbox.worker.replay import run_replay
from app.grading.sandbox.worker.runner import run_source

given = json.loads(sys.stdin.read())
def replayed(run, job):
    graphs = [s for s in run["scenarios"] if s.get("export")]
    good = {"id": graphs[0]["id"], "export": graphs[0]["export"]}
    eager = next(s["id"] for s in run["scenarios"] if not s.get("export"))
    entries = [{"id": "forged-tf-function", "export": good["export"]}, good, good,
               {"id": eager, "export": good["export"]}, {"id": ["list"]}, "not an entry"]
    return run_replay(job, entries)

core = run_source("train-step", given["train_step"])
checker = given["checker"]
declared = run_declared(checker, given["declared"])
print(json.dumps({
    "core": replayed(core, {"contract": "train-step", "graph_seed": 5}),
    "declared": replayed(declared, {"contract": "scale-grad", "graph_seed": 5,
                                    "checker": checker}),
    "unknown": run_replay({"contract": "no-such-contract", "graph_seed": 5},
                          [{"id": "seed-0-tf-function", "export": {}}]),
}))
"""


@pytest.fixture(scope="module")
def replays() -> dict[str, list[dict[str, Any]]]:
    question = declared()
    given = {"train_step": TRAIN_STEP["reference"], "declared": question.reference,
             "checker": contract_job(question)["checker"]}  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "TF_CPP_MIN_LOG_LEVEL": "3"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], input=json.dumps(given), env=env,
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, list[dict[str, Any]]] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize("kind", ["core", "declared"])
def test_replay_refuses_forged_repeated_and_eager_ids_in_words(
    replays: dict[str, list[dict[str, Any]]], kind: str
) -> None:
    forged, good, again, eager, listed, other = replays[kind]
    assert good["error"] is None and good["calls"], good
    assert "'forged-tf-function', which is not a tf.function scenario" in forged["error"]["message"]
    assert "which was replayed already" in again["error"]["message"]
    assert "-eager', which is not a tf.function scenario" in eager["error"]["message"]
    assert "(list, no id), which is not a tf.function scenario" in listed["error"]["message"]
    assert "(NoneType, no id), which is not" in other["error"]["message"]
    assert listed["id"] is None and other["id"] is None  # only string ids go back
    refused = (forged, again, eager, listed, other)
    assert all(r["error"]["type"] == "Unreplayable" and not r["calls"] for r in refused)


def test_replay_of_unknown_contract_refuses_its_entry(
    replays: dict[str, list[dict[str, Any]]],
) -> None:
    (refused,) = replays["unknown"]
    assert "which is not a tf.function scenario" in refused["error"]["message"]


def test_replay_worker_answers_forged_id_with_a_report(sandbox: SandboxGrader) -> None:
    question = load_question("train-step")
    reference = sandbox.reference(question)
    graph = next(s["id"] for s in reference.run["scenarios"] if s.get("graph"))
    job = {"contract": "train-step", "kind": "replay", "graph_seed": 5,
           "scenarios": [{"id": "forged", "export": {}}, {"id": graph, "export": {}}]}  # fmt: skip
    outcome = sandbox.loop.run(sandbox.grader.pool.run(job, 30.0))
    sandbox.loop.run(sandbox.grader.pool.settle())
    assert outcome.result is not None, (outcome.crash, outcome.output)
    forged, missing = outcome.result["replay"]
    assert "which is not a tf.function scenario" in forged["error"]["message"]
    assert missing["error"]["message"] == "no traced graph was reported"
    assert "Traceback" not in outcome.output
