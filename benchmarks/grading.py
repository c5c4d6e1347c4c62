"""Code-grading latency: warm pool vs a fresh sandboxed process per submission, and 8 at once.

Prints p50/p95 for a correct `train-step` answer graded on the warm pool (waiting for the
pool to be full before each sample, so the figure is the warm path, not refill contention),
the same for a cold baseline (a new sandboxed worker started per submission: TensorFlow
import and warm-up included), their ratio, and the wall time for 8 concurrent submissions
on a pool of 8. Needs root, bubblewrap and cgroup v1, like the grader itself.

    .venv/bin/python benchmarks/grading.py [--samples 10] [--cold-samples 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import yaml

from app.config import REPO_ROOT, Settings
from app.grading.code import CodeGrader
from app.grading.code.judge import judge
from app.grading.code.static import analyse
from app.grading.code.workers import close, run, spawn
from app.packs.schema import Code

QUESTION = REPO_ROOT / "questions" / "gradient-tape" / "train-step.yaml"


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def wait_full(grader: CodeGrader) -> None:
    while grader.pool._ready.qsize() < grader.pool.size:
        await asyncio.sleep(0.2)


async def warm(grader: CodeGrader, question: Code, samples: int) -> list[float]:
    times = []
    for _ in range(samples):
        await wait_full(grader)
        began = time.monotonic()
        result = await grader.grade(question, question.reference)
        times.append(time.monotonic() - began)
        assert result.verdict == "correct", result
    return times


async def cold(grader: CodeGrader, question: Code, samples: int) -> list[float]:
    reference = await grader.references.get(question, grader._trusted)
    times = []
    for index in range(samples):
        began = time.monotonic()
        assert grader.pool.backend is not None
        worker = await spawn(grader.pool.backend, grader.limits, f"cold{index}")
        job = {
            "contract": question.contract,
            "sources": [{"name": "candidate", "code": question.reference}],
        }
        outcome = await run(worker, job, grader.limits, grader.limits.wall_seconds)
        await close(worker)
        assert outcome.result is not None
        result = judge(contract=question.contract, reference=reference.run,
                       candidate=outcome.result["runs"][0], known=reference.known,
                       facts=analyse(question.reference))  # fmt: skip
        times.append(time.monotonic() - began)
        assert result.verdict == "correct", result
    return times


async def concurrent(grader: CodeGrader, question: Code, count: int) -> float:
    await wait_full(grader)
    began = time.monotonic()
    results = await asyncio.gather(
        *(grader.grade(question, question.reference) for _ in range(count))
    )
    elapsed = time.monotonic() - began
    assert all(r.verdict == "correct" for r in results), [
        (r.verdict, r.feedback) for r in results if r.verdict != "correct"
    ]
    return elapsed


async def main(samples: int, cold_samples: int) -> None:
    question = Code.model_validate(yaml.safe_load(QUESTION.read_text()))
    with tempfile.TemporaryDirectory() as data:
        settings = Settings(data_dir=Path(data), sandbox_pool_size=8, sandbox_queue_size=16)
        grader = CodeGrader(settings)
        await grader.start()
        try:
            await wait_full(grader)
            await grader.grade(question, question.reference)  # computes and caches the reference
            warm_times = await warm(grader, question, samples)
            cold_times = await cold(grader, question, cold_samples)
            burst = await concurrent(grader, question, 8)
        finally:
            await grader.stop()
    warm_p50, cold_p50 = statistics.median(warm_times), statistics.median(cold_times)
    for name, times in (("warm pool ", warm_times), ("cold start", cold_times)):
        p50, p95 = statistics.median(times), percentile(times, 0.95)
        print(f"{name} n={len(times):2d}  p50 {p50:.3f} s  p95 {p95:.3f} s")
    print(f"warm/cold p50 ratio {warm_p50 / cold_p50:.3f}")
    print(f"8 concurrent submissions (pool of 8): {burst:.3f} s wall")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--cold-samples", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.samples, args.cold_samples))
