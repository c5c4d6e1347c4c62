"""How long a worker's job waited for a CPU, so the wall time limit does not count it.

The wall time limit (15 s) is there for code that sleeps, blocks or waits; the CPU limit is
there for code that computes. On a host busy with other work a correct step is runnable but
not running for much of its wall time: round 15 measured correct GAN steps in their own
`tf.function` killed at the wall limit at load 10-12 on 2 vCPUs, with ~3 CPU-s of work. The
kernel counts that waiting per thread (`/proc/<pid>/task/<tid>/schedstat`, second field: time
spent runnable on a run queue, ns), readable for any process of the same user or by root, so
on every backend the supervisor extends a job's wall deadline by the wait of its busiest
thread (the one that ran longest: the step's), never past STRETCH times the limit. Sleeping
and blocking add nothing to it, so a sleeping job still ends at the limit itself.
"""

from __future__ import annotations

import os

STRETCH = 3.0  # a job never holds a worker longer than this many times the wall limit


def snapshot(pids: list[int]) -> dict[tuple[int, int], tuple[int, int]]:
    """(pid, tid) -> (ns run, ns waited on a run queue) for every thread of `pids`."""
    found: dict[tuple[int, int], tuple[int, int]] = {}
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as stat:
                    ran, waited = stat.read().split()[:2]
            except (OSError, ValueError):
                continue
            found[pid, int(tid)] = int(ran), int(waited)
    return found


def waited(before: dict[tuple[int, int], tuple[int, int]], pids: list[int]) -> float:
    """Seconds the busiest thread of `pids` waited for a CPU since `before` (0 if unknown)."""
    now = snapshot(pids)
    if not now:
        return 0.0
    deltas = [
        (ran - before.get(key, (0, 0))[0], wait - before.get(key, (0, 0))[1])
        for key, (ran, wait) in now.items()
    ]
    return max(deltas)[1] / 1e9
