"""The supervisor's edges that need no sandbox: admission, refusals, limit and crash verdicts."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from app.config import REPO_ROOT, Settings
from app.errors import GraderBusy
from app.grading.code.grader import CodeGrader, limit_or_crash, precheck
from app.grading.code.messages import MESSAGES
from app.grading.code.workers import REPORT_LOST, Outcome, _explain_death
from app.grading.sandbox.launcher import Limits
from app.packs.schema import Code

PACK = REPO_ROOT / "questions" / "gradient-tape"
CODE_IDS = [
    "train-step",
    "clip-step",
    "accumulate",
    "gan-step",
    "second-derivative",
    "input-gradient",
]
WORKER = REPO_ROOT / "app" / "grading" / "sandbox" / "worker"
ALLOWED_TOP = {"tensorflow", "keras", "numpy", "seccomp", "__future__"} | set(
    sys.stdlib_module_names
)


def test_import_of_code_grader_loads_no_tensorflow() -> None:
    code = "import sys, app.grading.code; print(sorted({'tensorflow', 'keras'} & set(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, check=True
    )
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("path", sorted(WORKER.glob("*.py")), ids=lambda p: p.name)
def test_worker_module_imports_nothing_from_the_web_side(path: Path) -> None:
    import ast

    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            assert {a.name.split(".")[0] for a in node.names} <= ALLOWED_TOP, path
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            assert (node.module or "").split(".")[0] in ALLOWED_TOP, path


def test_report_lost_status_is_the_same_on_both_sides() -> None:
    """The worker cannot import the supervisor (nor the other way), so each writes the
    status down; a change on one side alone would grade a lost report as an exit."""
    import ast

    tree = ast.parse((WORKER / "__main__.py").read_text())
    written = [
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and [getattr(t, "id", "") for t in node.targets] == ["REPORT_LOST"]
        and isinstance(node.value, ast.Constant)
    ]
    assert written == [REPORT_LOST]


@pytest.mark.parametrize(
    ("source", "fragment"), [("x" * (65 * 1024), "64 KiB"), ("   \n", "empty")]
)
def test_precheck_refuses_before_any_worker(source: str, fragment: str) -> None:
    result = precheck(source, Limits())
    assert (
        result is not None
        and result.verdict == "incorrect"
        and fragment in result.feedback[0].message
    )


def test_grade_raises_busy_when_queue_is_full(tmp_path: Path) -> None:
    grader = CodeGrader(Settings(data_dir=tmp_path, sandbox_pool_size=1, sandbox_queue_size=1))
    grader._in_flight = grader.capacity
    question = Code.model_validate(yaml.safe_load((PACK / "train-step.yaml").read_text()))
    with pytest.raises(GraderBusy) as raised:
        asyncio.run(grader.grade(question, question.reference))
    assert raised.value.retry_after >= 1


@pytest.mark.parametrize(
    ("outcome", "verdict", "fragment"),
    [
        (
            Outcome(None, limit="memory", limit_value="1024 MiB"),
            "incorrect",
            "memory limit (1024 MiB)",
        ),
        (
            Outcome(None, limit="wall time", limit_value="15 s"),
            "incorrect",
            "wall time limit (15 s)",
        ),
        (  # what the reaper reports when the answer's own code exits before reporting
            Outcome(
                None,
                crash="the worker process ended without reporting (it exited with status 0)",
                ended="exited",
            ),
            "incorrect",
            "exited with status 0",
        ),
        (  # SIGPIPE reset to its default, then a write to a closed pipe (round 16)
            Outcome(
                None,
                crash="the worker process ended without reporting (signal SIGPIPE)",
                ended="crashed",
            ),
            "incorrect",
            "a pipe whose reading end was closed",
        ),
        (  # no cause known at all (never produced today): the product's fallback
            Outcome(None, crash="the worker process ended without reporting (exit status 0)"),
            "error",
            "exit status 0",
        ),
    ],
)
def test_limit_or_crash_names_the_reason(outcome: Outcome, verdict: str, fragment: str) -> None:
    result = limit_or_crash(outcome)
    assert result.verdict == verdict and fragment in result.feedback[0].message


@pytest.mark.parametrize(
    ("status", "usage", "cpu", "limit"),
    [
        (-signal.SIGKILL, {"oom_kills": 1}, 0.5, "memory"),
        # reached the memory ceiling, then the CPU limit while the kernel reclaimed its pages
        (-signal.SIGXCPU, {"memory_failcnt": 40}, 3.0, "memory"),
        (-signal.SIGKILL, {"memory_failcnt": 40}, 3.2, "memory"),
        (-signal.SIGXCPU, {"memory_failcnt": 0}, 3.0, "CPU time"),
        (-signal.SIGKILL, {}, 3.2, "CPU time"),
        (-signal.SIGKILL, {}, 0.4, None),  # killed from outside: no limit, run again
        (-signal.SIGXFSZ, {}, 0.4, "file size"),  # SIGXFSZ reset to its default (round 16)
    ],
)
def test_a_dead_worker_is_given_the_limit_it_reached(
    status: int, usage: dict[str, int], cpu: float, limit: str | None
) -> None:
    outcome = Outcome(None, usage=usage)
    _explain_death(status, outcome, Limits(cpu_seconds=3), ran_on=False, cpu=cpu)
    assert outcome.limit == limit


@pytest.mark.parametrize("qid", CODE_IDS)
def test_every_known_wrong_tag_has_a_teaching_message(qid: str) -> None:
    question = Code.model_validate(yaml.safe_load((PACK / f"{qid}.yaml").read_text()))
    assert len(question.wrong) >= 4
    assert {w.tag for w in question.wrong} <= set(MESSAGES)
