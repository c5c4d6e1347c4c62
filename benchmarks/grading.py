"""Code-grading cost and latency: the exec-per-worker pool (baseline) vs the fork server.

One run measures both, one after the other, through the real `CodeGrader` with the same
settings except `sandbox_fork_server`, grading the `train-step` reference (a correct answer):

- first grade after start-up, and a second one sent right after it returned;
- six in a row (each sent when the previous returned; the pool full at the start): p50/max;
- warm p50/p95: the pool allowed to refill before each sample;
- bursts of 12 and 24 at once (pool full at the start): wall time for all, throughput,
  p50/max latency, and CPU-seconds per graded submission: the whole worker tree's CPU (cgroup
  `cpuacct` of this process and everything it starts, minus the supervisor's own
  `getrusage`) from the burst until the pool is full again, divided by the burst size, the
  cores that CPU kept busy during the burst, and the supervisor's own CPU per submission
  (its `getrusage` over the same span: not in the figure before it);
- PSS per ready worker (the zygote's share included: its PSS divided by the ready count);
- the cold baseline: a fresh process that imports TensorFlow and runs one training step.

Needs root and cgroup v1 with `cpuacct` for the CPU figure (elsewhere it prints n/a).

    .venv/bin/python benchmarks/grading.py [--pool-size N] [--samples 8] [--only fork]
    .venv/bin/python benchmarks/grading.py --replay [--samples 8]   # replay off vs on
    .venv/bin/python benchmarks/grading.py --replay --question benchmarks/declared_question.yaml
        # the same for a contract a pack declares (round 17: its graphs are replayed too)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from app.config import REPO_ROOT, Settings
from app.grading.code import CodeGrader
from app.packs.schema import Code

QUESTION = REPO_ROOT / "questions" / "gradient-tape" / "train-step.yaml"
CPUACCT = Path("/sys/fs/cgroup/cpuacct")
WALL = 120.0  # a busy shared machine must not turn a slow grade into a failed run
COLD = """
import time; began = time.monotonic()
import tensorflow as tf, keras
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"),
                          keras.layers.Dense(1)])
optimizer, x, y = keras.optimizers.SGD(0.05), tf.ones((8, 4)), tf.ones((8, 1))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print(time.monotonic() - began)
"""


class CpuMeter:
    """CPU of this process and every descendant, from a cpuacct group of our own."""

    def __init__(self) -> None:
        self.group: Path | None = None
        if os.geteuid() == 0 and (CPUACCT / "cpuacct.usage").exists():
            self.group = CPUACCT / f"tapequiz-bench-{os.getpid()}"
            self.group.mkdir(exist_ok=True)
            (self.group / "cgroup.procs").write_text(str(os.getpid()))

    def workers(self) -> float | None:
        """CPU-seconds used so far by everything but this (supervisor) process."""
        if self.group is None:
            return None
        total = int((self.group / "cpuacct.usage").read_text()) / 1e9
        own = resource.getrusage(resource.RUSAGE_SELF)
        return total - own.ru_utime - own.ru_stime

    @staticmethod
    def supervisor() -> float:
        """CPU-seconds this process (the supervisor: event loop, JSON, pipes, and the threads
        that create, join and remove cgroups) has used so far."""
        own = resource.getrusage(resource.RUSAGE_SELF)
        return own.ru_utime + own.ru_stime

    def close(self) -> None:
        if self.group is not None:
            (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
            with contextlib.suppress(OSError):
                self.group.rmdir()


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def pss(pid: int) -> int:
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    return 0


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        with contextlib.suppress(OSError):
            text = Path(f"/proc/{current}/task/{current}/children").read_text()
            todo += [int(child) for child in text.split()]
    return found


async def wait_full(grader: CodeGrader) -> float:
    began = time.monotonic()
    while len(grader.pool.ready_workers()) < grader.pool.size or grader.pool._spawning:
        await asyncio.sleep(0.05)
    return time.monotonic() - began


async def timed(grader: CodeGrader, question: Code, verdict: str = "correct") -> float:
    began = time.monotonic()
    result = await grader.grade(question, question.reference)
    assert verdict in ("", result.verdict), (result.verdict, result.feedback)
    return time.monotonic() - began


async def burst(grader: CodeGrader, question: Code, count: int, cpu: CpuMeter) -> dict[str, Any]:
    await wait_full(grader)
    used, supervised = cpu.workers(), cpu.supervisor()
    began = time.monotonic()
    latencies = await asyncio.gather(*(timed(grader, question) for _ in range(count)))
    wall = time.monotonic() - began
    await grader.pool.settle()
    await wait_full(grader)  # the refills this burst caused are part of its cost
    after = cpu.workers()
    return {
        "supervisor_per": (cpu.supervisor() - supervised) / count,
        "wall": wall,
        "throughput": count / wall,
        "p50": statistics.median(latencies),
        "max": max(latencies),
        "cpu_per": None if used is None or after is None else (after - used) / count,
    }


def ready_pss(grader: CodeGrader) -> dict[str, float]:
    """PSS of every process of the pool's ready workers (and the zygote), per ready worker."""
    workers = grader.pool.ready_workers()
    own = sum(pss(pid) for w in workers for pid in descendants(w.process.pid))
    forks = grader.pool.forks
    zygote = 0
    if forks is not None and forks.zygote is not None:
        zygote = sum(pss(pid) for pid in descendants(forks.zygote.process.pid))
        zygote -= sum(pss(pid) for w in workers for pid in descendants(w.process.pid))
    count = max(1, len(workers))
    mib = 1024 * 1024
    return {"per_worker": (own + zygote) / count / mib, "zygote": zygote / mib, "ready": count}


async def measure(mode: str, question: Code, data: Path, samples: int, pool: int) -> dict:
    cpu = CpuMeter()
    settings = Settings(
        data_dir=data,
        sandbox_pool_size=pool,
        sandbox_queue_size=64,
        sandbox_fork_server=mode == "fork",
        sandbox_wall_seconds=WALL,
    )
    grader = CodeGrader(settings)
    figures: dict[str, Any] = {}
    try:
        began = time.monotonic()
        await grader.start()
        result = await grader.grade(question, question.reference)
        assert result.verdict == "correct", result.feedback
        figures["first"] = time.monotonic() - began
        figures["second"] = await timed(grader, question)
        await grader.pool.settle()
        await wait_full(grader)
        figures["pss"] = ready_pss(grader)
        used = cpu.workers()
        six = [await timed(grader, question) for _ in range(6)]
        await grader.pool.settle()
        await wait_full(grader)
        after = cpu.workers()
        figures["six"] = {"p50": statistics.median(six), "max": max(six)}
        figures["six"]["cpu_per"] = None if used is None or after is None else (after - used) / 6
        warm = []
        for _ in range(samples):
            await wait_full(grader)
            warm.append(await timed(grader, question))
        figures["warm"] = {"p50": statistics.median(warm), "p95": percentile(warm, 0.95)}
        figures["burst12"] = await burst(grader, question, 12, cpu)
        figures["burst24"] = await burst(grader, question, 24, cpu)
    finally:
        await grader.stop()
        cpu.close()
    return figures


async def replay_cost(question: Code, data: Path, samples: int, pool: int) -> dict[str, Any]:
    """The graph replay's share of a grade: warm grades and six-in-a-row runs on one fork-server
    pool, alternating with the replay switched off (the baseline: `_replay` a no-op, which
    grades a forger as correct, so only here) and on, so load drift falls on both alike.
    Without the replay the "tf.function" scenario's own numbers (public state) meet the
    reference's on hidden state, so the baseline's verdict is not checked."""
    settings = Settings(data_dir=data, sandbox_pool_size=pool, sandbox_queue_size=64,
                        sandbox_wall_seconds=WALL)  # fmt: skip
    grader = CodeGrader(settings)
    replay = grader._replay

    async def skipped(*args: Any) -> None:
        return None

    figures: dict[str, dict[str, list[float]]] = {"warm": {}, "six": {}}
    await grader.start()
    try:
        await timed(grader, question)
        for turn in range(2 * samples):
            mode = ("off", "on")[turn % 2 if turn % 4 < 2 else 1 - turn % 2]
            grader._replay = replay if mode == "on" else skipped  # type: ignore[method-assign]
            await grader.pool.settle()
            await wait_full(grader)
            verdict = "correct" if mode == "on" else ""
            figures["warm"].setdefault(mode, []).append(await timed(grader, question, verdict))
            if turn < 4:
                await wait_full(grader)
                six = [await timed(grader, question, verdict) for _ in range(6)]
                figures["six"].setdefault(mode, []).extend(six)
    finally:
        await grader.stop()
    return figures


def report_replay(figures: dict[str, dict[str, list[float]]]) -> None:
    print(f"{'replay off (baseline) vs on':<34}{'off':>12}{'on':>12}{'ratio':>8}")
    for kind, label in (("warm", "warm"), ("six", "six in a row")):
        for name, fraction in (("p50", 0.5), ("p95", 0.95)):
            off, on = (percentile(figures[kind][m], fraction) for m in ("off", "on"))
            print(f"{label + ' ' + name:<34}{off:>11.2f}s{on:>11.2f}s{on / off:>8.2f}")
    print(f"samples: warm {len(figures['warm']['on'])} each, six in a row "
          f"{len(figures['six']['on'])} each")  # fmt: skip


def cold_baseline(samples: int) -> list[float]:
    times = []
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"}
    for _ in range(samples):
        began = time.monotonic()
        subprocess.run([sys.executable, "-c", COLD], check=True, capture_output=True, env=env)
        times.append(time.monotonic() - began)
    return times


@contextlib.contextmanager
def data_dir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder)


def row(name: str, values: list[str]) -> str:
    return f"| {name} | " + " | ".join(values) + " |"


def report(results: dict[str, dict], cold: list[float], loads: tuple[str, str]) -> None:
    cold_p50 = statistics.median(cold)
    modes = list(results)
    s = "{:.2f} s".format

    def ratio(value: float) -> str:
        return f"{value / cold_p50:.2f}x"

    def pair(figures: dict[str, Any], one: str, two: str, show: Any) -> str:
        return f"{show(figures[one])} / {show(figures[two])}"

    def cpu(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.2f} CPU-s"

    def cores(figures: dict[str, Any], size: int) -> str:
        # ~2.0 on this host: the burst kept both cores busy; less: it waited on something
        # else (other processes' load, a serialised refill). The pool's refill after the
        # burst is in the CPU, not in the wall: a slight overestimate.
        per = figures["cpu_per"]
        return "n/a" if per is None else f"{per * size / figures['wall']:.2f}"

    lines = [row("figure", modes), row("---", ["---"] * len(modes))]
    get = [results[m] for m in modes]
    lines += [
        row("first grade after start-up", [s(f["first"]) for f in get]),
        row("second, right after the first", [s(f["second"]) for f in get]),
        row("six in a row: p50 / max", [pair(f["six"], "p50", "max", s) for f in get]),
        row("six in a row: p50 / max vs cold", [pair(f["six"], "p50", "max", ratio) for f in get]),
        row("six in a row: CPU per submission", [cpu(f["six"]["cpu_per"]) for f in get]),
        row("warm p50 / p95", [f"{s(f['warm']['p50'])} / {s(f['warm']['p95'])}" for f in get]),
    ]  # fmt: skip
    for size in (12, 24):
        key = f"burst{size}"
        lines += [
            row(f"burst of {size}: all done", [s(f[key]["wall"]) for f in get]),
            row(f"burst of {size}: vs cold baseline", [ratio(f[key]["wall"]) for f in get]),
            row(f"burst of {size}: submissions/s", [f"{f[key]['throughput']:.2f}" for f in get]),
            row(f"burst of {size}: p50 / max",
                [f"{s(f[key]['p50'])} / {s(f[key]['max'])}" for f in get]),
            row(f"burst of {size}: CPU per submission", [cpu(f[key]["cpu_per"]) for f in get]),
            row(f"burst of {size}: cores used (CPU-s / wall)", [cores(f[key], size) for f in get]),
            row(f"burst of {size}: supervisor CPU per submission",
                [f"{f[key]['supervisor_per']:.3f} CPU-s" for f in get]),
        ]  # fmt: skip
    lines += [
        row("PSS per ready worker (zygote share incl.)",
            [f"{f['pss']['per_worker']:.0f} MiB ({f['pss']['ready']} ready, zygote "
             f"{f['pss']['zygote']:.0f} MiB)" for f in get]),
    ]  # fmt: skip
    print("\n".join(lines))
    print(f"\ncold baseline (fresh process: import tensorflow + one step): p50 {s(cold_p50)} "
          f"({', '.join(s(t) for t in cold)})")  # fmt: skip
    print(f"load average at start: {loads[0]}; at end: {loads[1]}")


async def main(
    samples: int, pool: int, only: str | None, cold_samples: int, replay: bool = False,
    path: Path = QUESTION,
) -> None:  # fmt: skip
    question = Code.model_validate(yaml.safe_load(path.read_text()))
    loads = [Path("/proc/loadavg").read_text().split()[:3]]
    if replay:
        with data_dir() as data:
            figures = await replay_cost(question, data, samples, pool)
        print(f"load average at start: {' '.join(loads[0])}; at end: "
              f"{' '.join(Path('/proc/loadavg').read_text().split()[:3])}")  # fmt: skip
        report_replay(figures)
        return
    with data_dir() as data:
        # The reference run is cached once (memory and disk), so no mode pays for it.
        settings = Settings(
            data_dir=data, sandbox_pool_size=1, sandbox_fork_server=False, sandbox_wall_seconds=WALL
        )
        grader = CodeGrader(settings)
        await grader.start()
        try:
            await grader.references.get(question, grader._trusted)
        finally:
            await grader.stop()
        cold = cold_baseline(cold_samples)
        results = {}
        for mode in ("exec", "fork"):
            if only in (None, mode):
                results[mode] = await measure(mode, question, data, samples, pool)
                print(f"{mode}: {results[mode]}", flush=True)
    loads.append(Path("/proc/loadavg").read_text().split()[:3])
    report(results, cold, (" ".join(loads[0]), " ".join(loads[1])))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--samples", type=int, default=8, help="warm samples")
    parser.add_argument("--cold-samples", type=int, default=3)
    parser.add_argument("--pool-size", type=int, default=Settings().sandbox_pool_size)
    parser.add_argument("--only", choices=("exec", "fork"))
    what = "only the graph replay's cost: fork server, replay off vs on"
    parser.add_argument("--replay", action="store_true", help=what)
    parser.add_argument("--question", type=Path, default=QUESTION, help="a code question's YAML")
    args = parser.parse_args()
    asyncio.run(main(args.samples, args.pool_size, args.only, args.cold_samples, args.replay,
                     args.question))  # fmt: skip
