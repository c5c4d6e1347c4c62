"""Warm grading latency per sandbox backend, side by side in one run: root vs rootless.

Run as root. Measures the warm p50/p95 of grading a correct `train-step` answer on the
backend the server would choose as root (cgroup1 on a cgroup v1 host), then runs itself as an
ordinary user with the rootless backend (an interpreter that user can read, with the
dependencies: the venv scripts/test-rootless builds), and prints both and their ratio. Each
sample waits for the pool to be full first, so it is the warm path, not refill contention.

    .venv/bin/python benchmarks/backends.py [--samples 15] [--user tqsandbox]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from app.config import REPO_ROOT, Settings
from app.grading.code import CodeGrader
from app.packs.schema import Code

QUESTION = REPO_ROOT / "questions" / "gradient-tape" / "train-step.yaml"


async def warm(backend: str, samples: int) -> tuple[str, list[float]]:
    question = Code.model_validate(yaml.safe_load(QUESTION.read_text()))
    with tempfile.TemporaryDirectory() as data:
        settings = Settings(data_dir=Path(data), sandbox_pool_size=2, sandbox_backend=backend)
        grader = CodeGrader(settings)
        await grader.start()
        try:
            await grader.grade(question, question.reference)  # computes and caches the reference
            times = []
            for _ in range(samples):
                while len(grader.pool.ready_workers()) < grader.pool.size:
                    await asyncio.sleep(0.2)
                began = time.monotonic()
                result = await grader.grade(question, question.reference)
                times.append(time.monotonic() - began)
                assert result.verdict == "correct", result
            name = grader.pool.backend.name if grader.pool.backend else "none"
        finally:
            await grader.stop()
    return name, times


def line(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{name:9s} n={len(times):2d}  p50 {statistics.median(times):.3f} s  p95 {p95:.3f} s"


def as_user(args: argparse.Namespace) -> str:
    argv = ["runuser", "-u", args.user, "--", "env", "-i", "PATH=/usr/bin:/bin", "HOME=/tmp",
            "PYTHONDONTWRITEBYTECODE=1", f"PYTHONPATH={REPO_ROOT}", args.python,
            str(Path(__file__).resolve()), "--only", "rootless",
            "--samples", str(args.samples)]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, cwd="/tmp", check=False)
    found = [x for x in done.stdout.splitlines() if x.startswith("rootless")]
    if not found:
        sys.exit(f"the rootless run failed:\n{done.stderr[-3000:]}")
    return found[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--user", default="tqsandbox")
    parser.add_argument("--python", default="/opt/tapequiz-rootless/venv/bin/python")
    parser.add_argument("--only", help="measure this backend alone (used for the user's run)")
    args = parser.parse_args()
    if args.only:
        print(line(*asyncio.run(warm(args.only, args.samples))))
        return
    if os.geteuid() != 0:
        sys.exit("run as root: it measures the root backend, then rootless as --user")
    name, times = asyncio.run(warm("auto", args.samples))
    root = line(name, times)
    rootless = as_user(args)
    print(root)
    print(rootless)
    ratio = float(rootless.split("p50 ")[1].split(" s")[0]) / statistics.median(times)
    print(f"rootless/{name} warm p50 ratio {ratio:.2f}")


if __name__ == "__main__":
    main()
