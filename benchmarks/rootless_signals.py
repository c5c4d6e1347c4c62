"""What checking each pid costs the rootless backend: memory samples and pauses, side by side.

The supervisor samples a busy tree's memory every 5 ms on the event loop, and pauses and
continues every other tree when a job starts and ends. Since round 20 each process is reached
through a pidfd checked to be the tree's (`processes.walk`) instead of by number. This builds
a tree shaped like a worker's (a root, an init below it, a worker below that, plus `--extra`
processes the answer started) from plain `sleep`s, and times in one run, alternating, the
old way (read the numbers, then read or signal each) and the checked way.

    .venv/bin/python benchmarks/rootless_signals.py [--rounds 2000] [--extra 4]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import subprocess
import time
from collections.abc import Callable

from app.grading.sandbox.backends import processes, rootless
from app.grading.sandbox.launcher import Limits


def build(extra: int) -> subprocess.Popen[bytes]:
    """root (sh) -> init (sh) -> worker (sleep) -> `extra` sleeps; returns the root."""
    inner = "sleep 600 & " * extra + "exec sleep 600"
    root = subprocess.Popen(["sh", "-c", f"sh -c 'sh -c \"{inner}\" & wait' & wait"])
    deadline = time.monotonic() + 10
    while len(processes.descendants(root.pid)) < 3 + extra and time.monotonic() < deadline:
        time.sleep(0.01)
    return root


def by_number_sample(root: int) -> int:
    return sum(processes.resident(pid) for pid in processes.descendants(root)[1:])


def by_number_signal(root: int, number: int) -> None:
    for pid in processes.descendants(root):
        os.kill(pid, number)


def timed(call: Callable[[], object], rounds: int) -> list[float]:
    spent = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        spent.append((time.perf_counter() - start) * 1e6)
    return spent


def show(label: str, old: list[float], new: list[float]) -> None:
    o, n = statistics.median(old), statistics.median(new)
    p95 = statistics.quantiles
    print(
        f"{label:22} by number p50 {o:7.1f} us p95 {p95(old, n=20)[18]:7.1f} us | "
        f"checked p50 {n:7.1f} us p95 {p95(new, n=20)[18]:7.1f} us | x{n / o:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--extra", type=int, default=4)
    args = parser.parse_args()
    root = build(args.extra)
    tree = rootless.Rootless().prepare("bench", Limits())
    tree.started(root.pid)
    members = processes.descendants(root.pid)
    try:
        assert tree.used() > 0 and by_number_sample(root.pid) > 0
        samples: tuple[list[float], list[float]] = ([], [])
        pauses: tuple[list[float], list[float]] = ([], [])
        for _ in range(10):  # alternate, so a change of load hits both sides alike
            samples[0].extend(timed(lambda: by_number_sample(root.pid), args.rounds // 10))
            samples[1].extend(timed(tree.used, args.rounds // 10))

            def old_pair() -> None:
                by_number_signal(root.pid, signal.SIGSTOP)
                by_number_signal(root.pid, signal.SIGCONT)

            def new_pair() -> None:
                tree.signal(signal.SIGSTOP)
                tree.signal(signal.SIGCONT)

            pauses[0].extend(timed(old_pair, args.rounds // 10))
            pauses[1].extend(timed(new_pair, args.rounds // 10))
        load = os.getloadavg()[0]
        print(f"tree of {len(members)} processes, {args.rounds} rounds each, load {load:.1f}")
        show("memory sample", *samples)
        show("SIGSTOP + SIGCONT", *pauses)
    finally:
        for pid in reversed(members):  # our own tree; a shell ends when its child does
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        root.wait()
        tree.kill()


if __name__ == "__main__":
    main()
