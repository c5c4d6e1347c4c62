"""The wire format between web processes and grading hosts, and the Redis keys they share.

A job is one Redis Streams entry; its verdict travels back through a per-job list that the
submitting web process waits on. Everything that must not race (admission against the real
queue depth, "the first result wins", acknowledging a job) is one Lua script, so it is atomic
on the Redis server whatever the number of web processes and graders.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable
from dataclasses import asdict
from typing import Any

from pydantic import TypeAdapter
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.errors import GraderBusy, GraderInterrupted
from app.grading.results import Feedback, GradeResult
from app.packs.schema import Code, CodeFix

PREFIX = "tapequiz:grading:"
STREAM = PREFIX + "jobs"
GROUP = "graders"
GRADERS = PREFIX + "graders:"  # + grader name -> its worker count, expires unless renewed
RESULT_TTL = 600  # seconds a verdict (and a cancel mark) is kept for late readers
_questions: TypeAdapter[Code | CodeFix] = TypeAdapter(Code | CodeFix)

# KEYS: stream. ARGV: capacity, then the entry's field/value pairs. Returns [entry id, jobs
# ahead of it (the entries already there)], or false when the queue (waiting + running jobs
# of the whole deployment) is full.
SUBMIT = """
local ahead = redis.call('XLEN', KEYS[1])
if ahead >= tonumber(ARGV[1]) then return false end
return {redis.call('XADD', KEYS[1], '*', unpack(ARGV, 2)), ahead}
"""

# KEYS: result, reply list, stream. ARGV: payload, ttl, group, entry id. Only the first
# result for a job id is kept and delivered; every finisher acknowledges and deletes.
FINISH = """
local won = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])
if won then
  redis.call('RPUSH', KEYS[2], ARGV[1])
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
redis.call('XACK', KEYS[3], ARGV[3], ARGV[4])
redis.call('XDEL', KEYS[3], ARGV[4])
if won then return 1 end
return 0
"""


def result_key(job_id: str) -> str:
    return f"{PREFIX}result:{job_id}"


def reply_key(job_id: str) -> str:
    return f"{PREFIX}reply:{job_id}"


def cancel_key(job_id: str) -> str:
    return f"{PREFIX}cancel:{job_id}"


def ticket_key(ticket: str) -> str:
    """The waiting page's ticket -> its job's stream entry, for polls reaching any process."""
    return f"{PREFIX}ticket:{ticket}"


def attempts_key(job_id: str) -> str:
    return f"{PREFIX}attempts:{job_id}"


def encode_job(
    *, job_id: str, kind: str, question: Code | CodeFix, source: str, deadline: float
) -> dict[str, str]:
    return {
        "id": job_id,
        "kind": kind,
        "question": json.dumps(question.model_dump(mode="json")),
        "source": source,
        "deadline": repr(deadline),
    }


def decode_question(fields: dict[str, str]) -> Code | CodeFix:
    return _questions.validate_python(json.loads(fields["question"]))


def encode_result(result: GradeResult) -> str:
    return json.dumps({"grade": asdict(result)}, default=str)


def encode_trial(report: dict[str, Any]) -> str:
    return json.dumps({"trial": report}, default=str)


def encode_refusal(err: GraderBusy) -> str:
    """A grade or trial the grading host refused (its sandbox was interrupted on every
    worker): the web process raises the same refusal the in-process grader raises, so the
    learner gets the same 503 and nothing is stored, whichever path graded."""
    refused = {"code": err.code, "message": err.message, "retry_after": err.retry_after}
    return json.dumps({"refused": refused})


REFUSALS: dict[str, type[GraderBusy]] = {
    GraderInterrupted.code: GraderInterrupted,
    GraderBusy.code: GraderBusy,
}


def decode_reply(payload: str) -> GradeResult | dict[str, Any]:
    """The verdict or trial report; a refusal is raised (GraderBusy or GraderInterrupted)."""
    body = json.loads(payload)
    if "refused" in body:
        refused = body["refused"]
        refusal = REFUSALS.get(refused["code"], GraderBusy)
        raise refusal(refused["message"], int(refused["retry_after"]))
    if "trial" in body:
        trial: dict[str, Any] = body["trial"]
        return trial
    grade = body["grade"]
    feedback = [Feedback(f["kind"], f["message"]) for f in grade["feedback"]]
    return GradeResult(
        grade["verdict"], grade["score"], feedback, grade["misconceptions"], grade["details"]
    )


# No Redis command may wait forever: the longest blocking reads here are BLPOP (<= 2 s) and
# XREADGROUP (0.5 s), so a reply missing for 10 s means a dead or wedged connection, which
# then raises (a RedisError/TimeoutError every caller already handles) instead of hanging.
SOCKET_TIMEOUT = 10.0
STOP_SECONDS = 5.0  # the most a web process or a grader spends tidying Redis when it stops


def client(url: str) -> Redis:
    return Redis.from_url(
        url, decode_responses=True, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=5.0
    )


async def tidy(step: Awaitable[Any]) -> None:
    """One stop-time step (tasks winding down, a key deleted, the client closed): waited for
    at most STOP_SECONDS, and a Redis fault or time-out there does not stop the stopping."""
    with contextlib.suppress(RedisError, OSError, TimeoutError):
        await asyncio.wait_for(step, STOP_SECONDS)


def cancel_requested() -> bool:
    """Whether the running task was asked to stop. A Redis call cancelled mid-read can return
    normally instead of raising CancelledError (seen in ~1 of 15 stops of a grader blocked
    in XREADGROUP, which then looped for ever); loops check this and stop anyway."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def stop_if_cancel_requested() -> None:
    if cancel_requested():
        raise asyncio.CancelledError
