"""A forked child's warm step runs only when no job is waiting for it.

The step (one eager training step on a throw-away model) moves the first use of each op kernel
off the job's clock, but costs more CPU than it saves the job: a child handed a job as soon as
it says ready (start-up, a burst) skips it. No sandbox starts here: the check reads the job
pipe exactly as the worker does, in a plain subprocess.
"""

from __future__ import annotations

import subprocess
import sys

from app.config import REPO_ROOT

PROBE = (
    "from app.grading.sandbox.worker.__main__ import _job_waiting, JOB_GRACE_SECONDS;"
    "print(_job_waiting(JOB_GRACE_SECONDS))"
)


def _waiting(job: bytes | None) -> str:
    process = subprocess.Popen(
        [sys.executable, "-c", PROBE], cwd=REPO_ROOT, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=False,
    )  # fmt: skip
    assert process.stdin is not None
    if job is not None:
        process.stdin.write(job)
        process.stdin.flush()
    out, _ = process.communicate(timeout=30) if job is not None else _without_job(process)
    return out.decode().strip()


def _without_job(process: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    assert process.stdout is not None and process.stdin is not None
    line = process.stdout.readline()  # answered while the pipe is still open and empty
    process.stdin.close()
    process.wait(timeout=30)
    return line, b""


def test_child_skips_the_warm_step_when_its_job_is_already_written() -> None:
    assert _waiting(b'{"contract": "train-step"}') == "True"


def test_child_runs_the_warm_step_when_no_job_is_waiting() -> None:
    assert _waiting(None) == "False"
