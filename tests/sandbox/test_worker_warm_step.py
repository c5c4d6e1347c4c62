"""A forked child runs the eager warm step only when no job will wait for it.

The step (one eager training step on a throw-away model) moves the first use of each op kernel
off the job's clock, but costs more CPU than it saves the job: a child that a job will wait for
(start-up, a burst: nothing ready, or jobs queued) is forked without it. No sandbox starts
here: a fork server whose children are ready at once stands in for the zygote.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from app.grading.code import pool as pools
from app.grading.code import zygotes
from app.grading.sandbox.launcher import Limits


@dataclass
class InstantForks:
    """Records whether each fork was asked for the warm step; its children are ready at once."""

    steps: list[bool] = field(default_factory=list)

    async def spawn(self, name: str, *, step: bool = True) -> object:
        self.steps.append(step)
        await asyncio.sleep(0)
        return type("Ready", (), {"process": type("Alive", (), {"returncode": None})()})()


@dataclass
class AnyBackend:
    name: str = "fake"


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("condition not reached")


def test_child_is_forked_with_the_warm_step_only_when_no_job_will_wait_for_it() -> None:
    pool = pools.WorkerPool(size=2, uid_base=60000, limits=Limits())
    forks = InstantForks()

    async def scenario() -> list[list[bool]]:
        pool.backend, pool.forks = AnyBackend(), forks  # type: ignore[assignment]
        pool._wanted.set()
        pool._tasks = [asyncio.create_task(pool._fill()) for _ in range(pools.SPAWN_PARALLEL)]
        seen = []
        for take in (0, 1, 2):  # take workers from a full pool, then let it refill
            await _until(lambda: len(pool.ready_workers()) == 2 and not pool._spawning)
            seen.append(forks.steps[:])
            forks.steps.clear()
            for _ in range(take):
                await pool._take()
        await _until(lambda: len(pool.ready_workers()) == 2 and not pool._spawning)
        seen.append(forks.steps[:])
        pool._stopping = True
        for task in pool._tasks:
            task.cancel()
        await asyncio.gather(*pool._tasks, return_exceptions=True)
        return seen

    at_start, after_none, after_one, after_two = asyncio.run(scenario())
    assert at_start == [False, False]  # start-up: the first job waits for these
    assert after_none == []
    assert after_one == [True]  # another worker is ready: the refill warms fully
    assert False in after_two  # the pool was emptied: the next job waits for a refill


def test_children_prebuild_only_the_latest_jobs_contract() -> None:
    """A child grades one job: it builds the scenario state of the latest job's contract only
    (a second contract cost 0.02-0.045 CPU-s per child and was never used)."""
    forks = zygotes.ForkServer(AnyBackend(), Limits(), max_forks=10, max_children=4)  # type: ignore[arg-type]
    for contract in ("train-step", "gan-step", "gan-step", None, "", 7):
        forks.saw(contract)
    assert forks.recent == ["gan-step"]
    forks.saw("clip-step")
    assert forks.recent == ["clip-step"]
