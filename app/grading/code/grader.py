"""CodeGrader: the web process's entry point for code and code-fix answers.

It owns the warm pool, the bounded queue in front of it (full -> GraderBusy, which the API
turns into 503 + Retry-After) and the reference cache. Every submission that is accepted gets
a GradeResult: limits, crashes and hostile code become verdicts; only a broken host or pack
becomes an "error" verdict with the reason. No TensorFlow is imported on this side.
"""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any

from app.config import Settings
from app.errors import GraderBusy, GraderInterrupted
from app.grading.code.judge import judge
from app.grading.code.pool import PoolBroken, WorkerPool
from app.grading.code.queue import GradingQueue
from app.grading.code.references import (
    Reference,
    ReferenceFailed,
    ReferenceStore,
    contract_job,
    tolerance_of,
)
from app.grading.code.replays import graph_seed, merge, replay_job
from app.grading.code.static import analyse
from app.grading.code.workers import (
    CHANNEL,
    CRASHED,
    DIED,
    EXITED,
    FORBIDDEN,
    GARBLED,
    Outcome,
    died,
)
from app.grading.results import Feedback, GradeResult
from app.grading.sandbox.launcher import MIB, Limits
from app.packs.schema import Code, CodeFix

TRUSTED_WALL_FACTOR = 3.0  # the trusted job runs the reference and every known-wrong solution
KILLED_RUNS = 3  # a run whose worker is killed from outside is tried on up to this many workers
INTERRUPTED = (
    "The grader was interrupted: the sandbox running your code was stopped from outside (not "
    "by your code) on {runs} fresh workers. Nothing was graded or recorded; please try again "
    "in a moment."
)
MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError)


class InfrastructureError(RuntimeError):
    """A job could not be run for reasons that are not the submitted code's doing."""


def limits_from(settings: Settings) -> Limits:
    return Limits(
        wall_seconds=settings.sandbox_wall_seconds,
        cpu_seconds=settings.sandbox_cpu_seconds,
        memory_bytes=settings.sandbox_memory_mb * MIB,
        pids=settings.sandbox_pids,
    )


class CodeGrader:
    def __init__(self, settings: Settings) -> None:
        self.limits = limits_from(settings)
        self.pool = WorkerPool(
            size=settings.sandbox_pool_size,
            uid_base=settings.sandbox_uid_base,
            limits=self.limits,
            backend=settings.sandbox_backend,
            fork_server=settings.sandbox_fork_server,
            zygote_max_forks=settings.sandbox_zygote_max_forks,
        )
        self.capacity = settings.sandbox_pool_size + settings.sandbox_queue_size
        self.graph_seed = graph_seed(settings.data_dir)
        self.references = ReferenceStore(
            settings.data_dir / "grading" / "references", graph_seed=self.graph_seed
        )
        self._in_flight = 0
        self.queue = GradingQueue(settings.sandbox_pool_size)

    async def start(self) -> None:
        await self.pool.start()

    async def stop(self) -> None:
        await self.pool.stop()

    async def grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        began = time.monotonic()
        refused = precheck(source, self.limits)
        if refused:
            return refused
        if self._in_flight >= self.capacity:
            raise GraderBusy("The code checker is busy; try again shortly.", self._retry_after())
        self._in_flight += 1
        try:
            with self.queue.holding():
                result = await self._grade(question, source)
        finally:
            self._in_flight -= 1
        result.details["elapsed_ms"] = round((time.monotonic() - began) * 1000)
        return result

    async def _grade(self, question: Code | CodeFix, source: str) -> GradeResult:
        facts = analyse(source)
        if facts.syntax_error:
            message = f"SyntaxError: {facts.syntax_error} (line {facts.syntax_line})."
            return GradeResult(
                "incorrect",
                0.0,
                [Feedback("error", message)],
                ["syntax-error"],
                {"lines": [facts.syntax_line]},
            )
        job = {**contract_job(question), "sources": [{"name": "candidate", "code": source}]}
        # Both runs are awaited even when one fails, so no sandbox job outlives its grade.
        reference, outcome = await asyncio.gather(
            self.references.get(question, self._trusted),
            self._run_candidate(job),
            return_exceptions=True,
        )
        for failed in (reference, outcome):
            if isinstance(failed, ReferenceFailed | InfrastructureError | PoolBroken):
                return infrastructure_error(str(failed))
            if isinstance(failed, BaseException):
                raise failed
        assert isinstance(reference, Reference) and isinstance(outcome, Outcome)
        if outcome.result is None:
            return with_sandbox(limit_or_crash(outcome), outcome)
        if outcome.result.get("worker_error") == TOO_LARGE:
            return with_sandbox(report_too_large(outcome), outcome)
        try:  # the report crossed from the sandbox: a forged or broken one is a verdict
            candidate = outcome.result["runs"][0]
            await self._replay(question, reference.run, candidate)
            result = judge(contract=question.contract, reference=reference.run,
                           candidate=candidate, known=reference.known, facts=facts,
                           tolerance=tolerance_of(question))  # fmt: skip
            return with_sandbox(result, outcome)
        except MALFORMED as err:
            return with_sandbox(malformed_report(err, outcome), outcome)

    async def _replay(self, question: Code | CodeFix, reference: dict[str, Any],
                      candidate: dict[str, Any]) -> None:  # fmt: skip
        """The graph scenarios' numbers, from a worker that never ran the candidate's Python
        (replays.py), built-in and declared contracts alike; a replay killed from outside is
        run again, as any job is."""
        checker = contract_job(question).get("checker")
        job = replay_job(question.contract, self.graph_seed, reference, candidate, checker)
        if job is None:
            return
        wall = self.limits.wall_seconds
        outcome = await self._unless_killed(await self.pool.run(job, wall), job, wall)
        replayed = (outcome.result or {}).get("replay")
        stopped = "" if outcome.result else limit_or_crash(outcome).feedback[0].message
        merge(candidate, reference, replayed if isinstance(replayed, list) else None, stopped)

    async def _run_candidate(self, job: dict[str, Any]) -> Outcome:
        """A worker killed from outside is no verdict on the answer: the job runs on a fresh
        worker, up to KILLED_RUNS in all, then the grade is refused as interrupted (503:
        nothing stored, the learner tries again). A crash (SIGSEGV, ...) gets one fresh worker
        more before it is the answer's; what the code plainly did itself (an exit, a signal
        sent, a closed channel) is graded at once."""
        wall = self.limits.wall_seconds
        outcome = await self.pool.run(job, wall)
        if outcome.ended == CRASHED:
            outcome = await self.pool.run(job, wall)
        return await self._unless_killed(outcome, job, wall)

    async def _unless_killed(self, outcome: Outcome, job: dict[str, Any], wall: float) -> Outcome:
        for _ in range(KILLED_RUNS - 1):
            if not died(outcome):
                return outcome
            outcome = await self.pool.run(job, wall)
        if died(outcome):
            raise GraderInterrupted(INTERRUPTED.format(runs=KILLED_RUNS), retry_after=2)
        return outcome

    async def trial(self, question: Code | CodeFix, source: str) -> dict[str, Any]:
        """*Run*: the worker's observations of one call on a public scenario (see
        worker/trial.py). Nothing is graded or compared; limits and crashes are reported."""
        refused = precheck(source, self.limits)
        if refused:
            return {"error": {"type": "refused", "message": refused.feedback[0].message}}
        if self._in_flight >= self.capacity:
            raise GraderBusy("The code checker is busy; try again shortly.", self._retry_after())
        job = {**contract_job(question), "kind": "trial", "sources": [{"code": source}]}
        self._in_flight += 1
        try:
            with self.queue.holding():
                outcome = await self._run_candidate(job)
        except PoolBroken as err:
            return {"error": {"type": "unavailable", "message": str(err)}}
        finally:
            self._in_flight -= 1
        trial = (outcome.result or {}).get("trial")
        if not isinstance(trial, dict):
            stopped = limit_or_crash(outcome).feedback[0].message
            return {"error": {"type": "stopped", "message": stopped}, "output": outcome.output}
        return {**trial, "output": outcome.output, "run_ms": round(outcome.elapsed * 1000)}

    async def _trusted(self, job: dict[str, Any]) -> dict[str, Any]:
        # Trusted code only, but several solutions: scale the budgets with their number.
        job = {**job, "cpu_seconds": self.limits.cpu_seconds * len(job["sources"])}
        wall = self.limits.wall_seconds * TRUSTED_WALL_FACTOR
        outcome = await self._unless_killed(await self.pool.run(job, wall), job, wall)
        if outcome.result is None:
            reason = outcome.crash or f"{outcome.limit} limit ({outcome.limit_value})"
            raise InfrastructureError(f"the reference run failed: {reason}")
        return outcome.result

    def _retry_after(self) -> int:
        return max(1, math.ceil(self._in_flight / max(1, self.pool.size)))


def precheck(source: str, limits: Limits) -> GradeResult | None:
    size = len(source.encode())
    if size > limits.source_bytes:
        message = f"The answer is {size} bytes; the limit is {limits.source_bytes // 1024} KiB."
        return GradeResult(
            "incorrect",
            0.0,
            [Feedback("error", message)],
            ["resource-limit"],
            {"limit": "source size"},
        )
    if not source.strip():
        return GradeResult(
            "incorrect", 0.0, [Feedback("error", "The answer is empty.")], ["missing-function"], {}
        )
    return None


# What the code did to its worker, in the learner's words (Outcome.ended -> tag, message).
SELF_INFLICTED = {
    FORBIDDEN: ("tampering",
        "Your code tried to signal or end its own process (os.kill, signal.raise_signal, "
        "os.abort, or an exit status from 128 up); the sandbox stopped it with its whole "
        "process tree, so it earns no credit. A training step sends no signals."),
    EXITED: ("tampering",
        "Your code ended the checker's process before its results were reported "
        "({detail}): os._exit, or an exit forced from the step. A training step returns."),
    CHANNEL: ("tampering",
        "Your code closed or replaced the checker's report channel, so no results could be "
        "reported; the sandbox stopped it, so it earns no credit."),
    GARBLED: ("tampering",
        "The sandbox's report for this answer was malformed, so it cannot be graded correct. "
        "Code that writes to the checker's channels ends up here."),
    CRASHED: ("exception",
        "Your code crashed the Python process ({detail}) on two fresh workers: ctypes, or an "
        "operation that takes the interpreter down. A training step needs neither."),
}  # fmt: skip


BROKEN_PIPE = (
    "Your code wrote to a pipe whose reading end was closed, after resetting Python's handling "
    "of SIGPIPE, so the kernel ended its process (signal SIGPIPE): a pipe of its own, or one "
    "of the checker's streams it had closed or replaced. A training step writes to no pipe."
)


def limit_or_crash(outcome: Outcome) -> GradeResult:
    """A run that produced no observations: a breached limit or what the code did to its
    worker (incorrect), or a death nobody can explain (error)."""
    details: dict[str, object] = {"output": outcome.output, "usage": outcome.usage}
    if outcome.crash.endswith("(signal SIGPIPE)"):  # the kernel's, once Python's SIG_IGN is reset
        details["ended"] = outcome.ended
        return GradeResult("incorrect", 0.0, [Feedback("error", BROKEN_PIPE)], ["exception"],
                           details)  # fmt: skip
    if outcome.ended in SELF_INFLICTED:
        tag, message = SELF_INFLICTED[outcome.ended]
        detail = outcome.crash.removeprefix(DIED).strip(" :()") or outcome.crash
        details["ended"] = outcome.ended
        message = message.format(detail=detail)
        return GradeResult("incorrect", 0.0, [Feedback("error", message)], [tag], details)
    if outcome.limit:
        message = (
            f"Your code exceeded the {outcome.limit} limit ({outcome.limit_value}); the sandbox "
            "stopped it with its whole process tree. A training step needs far less."
        )
        details["limit"] = outcome.limit
        details["limit_value"] = outcome.limit_value
        return GradeResult(
            "incorrect", 0.0, [Feedback("error", message)], ["resource-limit"], details
        )
    message = (
        f"The checker could not grade this answer: {outcome.crash}. Code that exits the process "
        "(os._exit) or crashes the interpreter ends up here."
    )
    return GradeResult("error", 0.0, [Feedback("error", message)], [], details)


def with_sandbox(result: GradeResult, outcome: Outcome) -> GradeResult:
    result.details["sandbox"] = {"group": outcome.group, "run_ms": round(outcome.elapsed * 1000)}
    return result


TOO_LARGE = "result larger than 1 MiB"  # the worker's own words (worker/__main__.py send)


def report_too_large(outcome: Outcome) -> GradeResult:
    """What the code returned or raised made the worker's report pass its 1 MiB cap. Said as
    such: it read "malformed ... writes to the checker's channels" (round 14)."""
    message = (
        "What your code returned or raised was too large for the checker to report (over "
        "1 MiB once described), so it cannot be compared with a correct step. A training step "
        "returns what the question asks for, such as the scalar loss tensor."
    )
    details: dict[str, object] = {"output": outcome.output, "limit": "report size"}
    return GradeResult("incorrect", 0.0, [Feedback("error", message)], ["resource-limit"], details)


def malformed_report(err: Exception, outcome: Outcome) -> GradeResult:
    message = (
        "The sandbox's report for this answer was malformed, so it cannot be graded correct "
        f"({type(err).__name__}). Code that writes to the checker's channels ends up here."
    )
    details: dict[str, object] = {"output": outcome.output}
    return GradeResult("incorrect", 0.0, [Feedback("error", message)], ["tampering"], details)


def infrastructure_error(reason: str) -> GradeResult:
    message = f"The code checker is unavailable: {reason}."
    return GradeResult("error", 0.0, [Feedback("error", message)], [], {"reason": reason})
