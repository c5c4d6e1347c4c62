"""Eager ops run as kernels, not as one-op functions, and a grade observes exactly the same.

The worker turns TF's `run_eager_op_as_function` off when its runtime starts (~0.1 CPU-s less
per forked child, docs/grading-benchmark.md round 3). That is only allowed if every number a
grade reports stays bit-identical, for correct and wrong answers alike: here each contract's
reference and wrong answers run once with the switch as the worker sets it and once with TF's
default, in two fresh processes (no sandbox: trusted code only), and the observations match.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import yaml

from app.config import REPO_ROOT

pytestmark = pytest.mark.sandbox
PACK = REPO_ROOT / "questions" / "gradient-tape"
QUESTIONS = ["train-step", "clip-step", "gan-step"]
SCRIPT = """
import json, os, sys
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
import tensorflow as tf
from tensorflow.python.eager import context
from app.grading.sandbox.worker import __main__ as worker, runner

if sys.argv[1] == "as-functions":  # TF's default: only start the runtime
    worker.direct_eager_ops = lambda: context.context().ensure_initialized()
jobs = json.loads(sys.stdin.read())
tf.debugging.set_log_device_placement(True)  # before the runtime starts, or it logs nothing
contracts = list(dict.fromkeys(job["contract"] for job in jobs))  # train-step first
worker.warm_up(contracts, step=sys.argv[1] == "warm-step")  # eager ops only, no tf.function
print("WARM", file=sys.stderr, flush=True)
runs = [runner.run_source(job["contract"], job["code"]) for job in jobs]
for run in runs:
    for scenario in run["scenarios"]:
        scenario.pop("s")  # elapsed seconds
        scenario.pop("export", None)  # graphs for the replay: named by the process's trace count
print("RESULT", json.dumps(runs, sort_keys=True), flush=True)
"""


def _jobs() -> list[dict[str, str]]:
    jobs = []
    for qid in QUESTIONS:
        data = yaml.safe_load((PACK / f"{qid}.yaml").read_text())
        codes = [data["reference"], *(wrong["code"] for wrong in data.get("wrong", []))]
        jobs += [{"contract": data["contract"], "code": code} for code in codes]
    return jobs


def _observe(mode: str, jobs: list[dict[str, str]]) -> tuple[list[object], str]:
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "0", "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, mode], input=json.dumps(jobs), capture_output=True,
        text=True, env=env, timeout=300, check=True, cwd=REPO_ROOT,
    )  # fmt: skip
    warm_up_log = done.stderr.split("WARM\n")[0]  # where TF placed each op, if it did
    [result] = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    return json.loads(result.removeprefix("RESULT ")), warm_up_log


def test_a_grade_observes_the_same_numbers_with_eager_ops_run_directly() -> None:
    jobs = _jobs()
    direct, direct_placed = _observe("direct", jobs)
    default, default_placed = _observe("as-functions", jobs)
    assert "_Retval" in default_placed  # the default really ran eager ops as functions...
    assert "_Retval" not in direct_placed  # ...and the worker's switch really turned that off
    assert len(direct) == len(jobs) > len(QUESTIONS)
    assert any(run["scenarios"] and run["scenarios"][0]["calls"] for run in direct)
    for job, ours, theirs in zip(jobs, direct, default, strict=True):
        assert ours == theirs, job["code"]


def test_the_warm_step_changes_no_number_a_grade_observes() -> None:
    """A forked child may run one eager training step before its job (on the prebuilt state of
    the contract, restored afterwards): the job must observe exactly what it would without."""
    jobs = _jobs()
    stepped, _ = _observe("warm-step", jobs)
    plain, _ = _observe("direct", jobs)
    for job, ours, theirs in zip(jobs, stepped, plain, strict=True):
        assert ours == theirs, job["code"]
