"""A class of N learners doing a practice session and then a timed mock interview to the final
report, all at once, against a live server this script starts, kills with SIGKILL mid-interview
and starts again.

Each learner is one laptop: its own loopback address (127.0.0.N, so per-client limits see N
clients) and its own cookie jar (a guest identity). Every seventh answer is sent by a client
that gives up after 50 ms (a closed lid, a lost Wi-Fi): the server may or may not have stored
it, so the learner reads where the session or interview now is and sends it again only if it
is still asked. Some learners skip an interview question; some finish twice at once. While the
interviews run the server gets SIGKILL and is started again on the same data; a learner whose
request got no reply waits for it and carries on as the page would.

Checked at the end, for every learner:
- practice: the session summary holds exactly one attempt per question, each the answer the
  learner sent (and got a 201 for, or sent without a reply and then found stored), and a closed
  question's verdict is `correct` exactly when that answer equals the `solution` shown;
- interview: the report (from `finish`, and read again with GET until no answer in it is
  still being graded) lists each question at the position it was served, with the answer
  sent, skips as skipped, no answer left pending, and closed verdicts agree with the
  solution; an earlier read differs only by answers it marked as still being graded;
- storage: no duplicate attempt or interview-answer rows, no interview left unfinished or
  with an answer still `grading`/`pending`; no 500 anywhere (client statuses and the server's
  log).

Run it from the checkout (the server is `tapequiz serve`, as `make run` starts it, on a fresh
data directory; SQLite by default):

    .venv/bin/python benchmarks/class_interviews.py [--learners 50] [--no-kill] [--port 8041]
        [--checkout PATH]   # serve another checkout's code (e.g. main, for a before/after)

Prints statuses and p50/p95/max per kind of request, the server's threads (peak and mean,
sampled every 0.25 s: a request waiting for the grader holds one), the interview answers
left ungraded by type, the checks, and exits 1 on any problem.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import math
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
PACK = "gradient-tape"
TIMEOUT = 180.0  # a code answer waits for the sandbox, queued behind the class's
STUCK = 240.0  # seconds a running interview may show no question (an answer being graded)
IMPATIENT = 0.05  # seconds: the client that hangs up mid-request
CLOSED = {"single-choice", "predict-output", "multiple-choice", "true-false", "ordering"}
CODE = """import tensorflow as tf


def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
"""
TEXT = (
    "tape.gradient only computes the gradients of the loss with respect to the watched "
    "variables; optimizer.apply_gradients then updates the weights with them."
)


@dataclass
class Stats:
    times: dict[str, list[float]] = field(default_factory=lambda: collections.defaultdict(list))
    statuses: dict[str, collections.Counter[int]] = field(
        default_factory=lambda: collections.defaultdict(collections.Counter)
    )
    problems: list[str] = field(default_factory=list)

    async def call(
        self, client: httpx.AsyncClient, kind: str, method: str, path: str, **kw: Any
    ) -> httpx.Response | None:
        start = time.perf_counter()
        try:
            reply = await client.request(method, path, **kw)
        except httpx.HTTPError:
            self.statuses[kind][0] += 1  # 0: no reply (server gone or the client hung up)
            return None
        self.times[kind].append(time.perf_counter() - start)
        self.statuses[kind][reply.status_code] += 1
        if reply.status_code >= 500 and reply.status_code != 503:
            self.problems.append(f"{kind} {path}: {reply.status_code} {reply.text[:200]!r}")
        return reply


@dataclass
class Server:
    port: int
    data: Path
    log: Path
    code: Path = ROOT
    process: subprocess.Popen[bytes] | None = None
    restarts: int = 0
    threads: list[int] = field(default_factory=list)  # the server's thread count, sampled

    def start(self) -> None:
        env = {
            **os.environ,
            "TAPEQUIZ_DATA_DIR": str(self.data),
            "PYTHONPATH": str(self.code),
        }
        command = [str(Path(sys.executable).parent / "tapequiz"), "serve", "--port", str(self.port)]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(command, cwd=self.code, env=env, stdout=out, stderr=out)

    async def sample_threads(self) -> None:
        """Count the server's threads every 0.25 s (a request waiting holds one)."""
        while True:
            with contextlib.suppress(OSError, AttributeError, ValueError):
                assert self.process is not None
                status = Path(f"/proc/{self.process.pid}/status").read_text()
                line = next(x for x in status.splitlines() if x.startswith("Threads:"))
                self.threads.append(int(line.split()[1]))
            await asyncio.sleep(0.25)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.restarts += 1

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)

    async def wait_up(self) -> float:
        start = time.perf_counter()
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{self.port}") as client:
            for _ in range(1200):
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get("/healthz")).status_code == 200:
                        return time.perf_counter() - start
                await asyncio.sleep(0.25)
        raise SystemExit("the server did not come up within 5 minutes")


@dataclass
class Learner:
    index: int
    client: httpx.AsyncClient
    rng: random.Random
    practice_sent: dict[str, Any] = field(default_factory=dict)  # question id -> answer
    interview_id: str = ""
    served: dict[int, str] = field(default_factory=dict)  # position -> question id
    sent: dict[int, Any] = field(default_factory=dict)  # position -> answer (None: skipped)
    types: dict[str, str] = field(default_factory=dict)  # question id -> type
    sends: int = 0
    reports: list[dict[str, Any]] = field(default_factory=list)
    drafts: dict[Any, Any] = field(default_factory=dict)  # what is on screen, per question


def _client(url: str, index: int) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(
        local_address=f"127.0.0.{10 + index}", limits=httpx.Limits(keepalive_expiry=2.0)
    )
    return httpx.AsyncClient(base_url=url, timeout=TIMEOUT, transport=transport)


def answer_for(learner: Learner, question: dict[str, Any]) -> Any:
    """What this learner answers: right or wrong, chosen at random, marked as theirs."""
    kind, rng, mark = question["type"], learner.rng, f"learner {learner.index}"
    choices = [c["id"] for c in question.get("choices") or []]
    if kind in ("single-choice", "predict-output"):
        return rng.choice(choices)
    if kind == "multiple-choice":
        return sorted(rng.sample(choices, rng.randint(1, min(2, len(choices)))))
    if kind == "true-false":
        return rng.random() < 0.5
    if kind == "ordering":
        items = [i["id"] for i in question["items"]]
        return items if rng.random() < 0.5 else sorted(items)
    if kind == "free-text":
        return f"{TEXT} ({mark})"
    source = question.get("code") if kind == "code-fix" else question.get("starter") or CODE
    return f"# {mark}\n{source or CODE}"


async def send(
    learner: Learner, stats: Stats, kind: str, path: str, body: dict[str, Any]
) -> httpx.Response | None:
    """POST an answer; every seventh by a client that hangs up. 429/503 are retried after
    Retry-After as the pages do; None: no reply (the caller finds out what was stored)."""
    learner.sends += 1
    timeout = IMPATIENT if learner.sends % 7 == 0 else TIMEOUT
    for _ in range(30):
        reply = await stats.call(learner.client, kind, "POST", path, json=body, timeout=timeout)
        if reply is None or reply.status_code not in (429, 503):
            return reply
        await asyncio.sleep(float(reply.headers.get("retry-after", "1")))
    return reply


async def reread(learner: Learner, stats: Stats, server: Server, path: str) -> dict[str, Any]:
    """GET `path` until the server answers (it may be down for a restart)."""
    for _ in range(600):
        reply = await stats.call(learner.client, "GET (after no reply)", "GET", path)
        if reply is not None and reply.status_code == 200:
            return dict(reply.json())
        await asyncio.sleep(0.5)
    raise RuntimeError(f"learner {learner.index}: {path} never answered")


async def create(learner: Learner, stats: Stats, path: str, body: dict[str, Any]) -> Any:
    """POST `body` to `path` until it is created (201), once a second: what a learner does
    while the server is down or busy. The created object's JSON."""
    while True:
        reply = await stats.call(learner.client, f"POST {path}", "POST", path, json=body)
        if reply is not None and reply.status_code == 201:
            return reply.json()
        await asyncio.sleep(1)


async def practise(learner: Learner, stats: Stats, server: Server) -> int:
    view = await create(learner, stats, "/api/sessions", {"pack": PACK, "count": 4})
    path = f"/api/sessions/{view['id']}"
    while view["current"] is not None:
        question = view["current"]
        answer = learner.drafts.setdefault(question["id"], answer_for(learner, question))
        learner.types[question["id"]] = question["type"]
        body = {"answer": answer, "question_id": question["id"]}
        got = await send(
            learner, stats, f"practice answer ({question['type']})", path + "/answers", body
        )
        if got is not None and got.status_code == 201:
            learner.practice_sent[question["id"]] = answer
            view = got.json()["session"]
            continue
        if got is not None and got.status_code not in (409,):
            stats.problems.append(
                f"learner {learner.index} practice: {got.status_code} {got.text[:200]}"
            )
        await asyncio.sleep(0.5)  # what the page does: look again shortly
        view = await reread(learner, stats, server, path)
        current = view["current"]
        if current is None or current["id"] != question["id"]:
            learner.practice_sent[question["id"]] = answer  # stored before the reply was lost
    return int(view["id"])


async def interview(learner: Learner, stats: Stats, server: Server, halfway: asyncio.Event) -> None:
    started = await create(learner, stats, "/api/interviews", {"pack": PACK, "minutes": 10})
    learner.interview_id = started["id"]
    path = f"/api/interviews/{learner.interview_id}"
    question = started["question"]
    while question is not None:
        position = question["position"]
        learner.served[position], learner.types[question["id"]] = question["id"], question["type"]
        if position >= 2:
            halfway.set()
        skip = learner.index % 5 == 0 and position == 1
        # A resend is the answer still on screen, never a new pick.
        answer = (
            None if skip else learner.drafts.setdefault(position, answer_for(learner, question))
        )
        body = {"question_id": question["id"], "answer": answer}
        kind = f"interview answer ({'skip' if skip else question['type']})"
        got = await send(learner, stats, kind, path + "/answers", body)
        if got is not None and got.status_code == 200:
            learner.sent[position] = answer
            question = got.json()["next"]
            continue
        if got is not None and got.status_code != 409:
            stats.problems.append(
                f"learner {learner.index} interview: {got.status_code} {got.text[:200]}"
            )
        status = await settled_status(learner, stats, server, path)
        current = status["question"]
        if current is None or current["position"] != position:
            learner.sent[position] = answer  # stored before the reply was lost
        question = current
    await finish(learner, stats, path)


async def settled_status(
    learner: Learner, stats: Stats, server: Server, path: str
) -> dict[str, Any]:
    """The interview's status once no answer of it is being graded: a running interview with
    no current question is grading one (the reply to it was lost)."""
    waited = time.perf_counter()
    while True:
        await asyncio.sleep(0.5)
        status = await reread(learner, stats, server, path)
        if status["finished"] or status["question"] is not None:
            return status
        if time.perf_counter() - waited > STUCK:
            stats.problems.append(
                f"learner {learner.index}: interview {path} has had no question for {STUCK} s"
                " and is not finished (an answer left grading?)"
            )
            return status


async def finish(learner: Learner, stats: Stats, path: str) -> None:
    """Finish (twice at once for some: a double click), retried as the page does on a 503
    or no reply; then read the report again, and again while it marks answers still being
    graded (`scores.grading`), as the report page asks."""

    async def press() -> None:
        for _ in range(600):
            got = await stats.call(learner.client, "POST finish", "POST", path + "/finish", json={})
            if got is not None and got.status_code == 200:
                learner.reports.append(got.json())
                return
            await asyncio.sleep(float(got.headers.get("retry-after", "1")) if got else 1.0)

    pressed = time.perf_counter()
    await asyncio.gather(*(press() for _ in range(2 if learner.index % 6 == 0 else 1)))
    waited = time.perf_counter()
    while time.perf_counter() - waited < STUCK:
        got = await stats.call(learner.client, "GET report", "GET", path + "/report")
        if got is not None and got.status_code == 200:
            learner.reports.append(got.json())
            if not got.json()["scores"].get("grading"):
                # From Finish to a report with every answer graded (a figure, not a request).
                stats.times["report complete (from finish)"].append(time.perf_counter() - pressed)
                stats.statuses["report complete (from finish)"][200] += 1
                return
        await asyncio.sleep(2.0)


def same(kind: str, left: Any, right: Any) -> bool:
    if kind == "multiple-choice":
        return sorted(left or []) == sorted(right or [])
    return bool(left == right)


def check_practice(learner: Learner, summary: dict[str, Any]) -> list[str]:
    who, problems = f"learner {learner.index} practice", []
    attempts = summary["attempts"]
    ids = [a["question_id"] for a in attempts]
    if sorted(ids) != sorted(learner.practice_sent) or len(set(ids)) != len(ids):
        problems.append(f"{who}: attempts {ids}, sent {list(learner.practice_sent)}")
    for attempt in attempts:
        sent = learner.practice_sent.get(attempt["question_id"])
        if attempt["answer"] != sent:
            problems.append(f"{who}: {attempt['question_id']} stored {attempt['answer']!r}")
        kind = attempt["question_type"]
        if kind in CLOSED and (attempt["verdict"] == "correct") != same(
            kind, sent, attempt["solution"]
        ):
            problems.append(f"{who}: {attempt['question_id']} verdict {attempt['verdict']}")
    return problems


def check_report(learner: Learner) -> list[str]:
    who, problems = f"learner {learner.index} interview", []
    if not learner.reports:
        return [f"{who}: no report"]
    report = learner.reports[-1]  # graded throughout, unless it says otherwise
    for earlier in learner.reports[:-1]:
        problems += differences(who, earlier, report)
    by_position = {a["position"]: a for a in report["answers"]}
    if sorted(by_position) != sorted(learner.served) or len(report["answers"]) != len(by_position):
        problems.append(
            f"{who}: report positions {sorted(by_position)}, served {sorted(learner.served)}"
        )
    for position, shown in by_position.items():
        if learner.served.get(position) != shown["question_id"]:
            problems.append(f"{who}: position {position} is {shown['question_id']}")
        if shown["status"] in ("pending", "grading", "open"):
            problems.append(f"{who}: position {position} left {shown['status']}")
        if position not in learner.sent:
            continue
        sent, kind = learner.sent[position], shown["type"]
        if sent is None:
            if shown["status"] != "skipped":
                problems.append(f"{who}: skip at {position} is {shown['status']}")
            continue
        if shown["answer"] != sent:
            problems.append(f"{who}: position {position} stored {shown['answer']!r}")
        if shown["status"] == "ungraded" and not shown["grading_error"]:
            problems.append(f"{who}: position {position} ungraded with no reason")
        if kind in CLOSED and (shown["verdict"] == "correct") != same(
            kind, sent, shown["solution"]
        ):
            problems.append(f"{who}: position {position} verdict {shown['verdict']} for {sent!r}")
    skips = sum(1 for a in learner.sent.values() if a is None)
    if report["scores"]["skipped"] != skips:
        problems.append(f"{who}: scores.skipped {report['scores']['skipped']}, sent {skips}")
    return problems


def differences(who: str, earlier: dict[str, Any], final: dict[str, Any]) -> list[str]:
    """An earlier read of the report may only differ from the final one by answers it marked
    as still being graded (and what they change: scores, summary, signal, reviews)."""
    if not earlier["scores"].get("grading"):
        return [] if earlier == final else [f"{who}: two graded reads of the report differ"]
    problems = []
    for before, after in zip(earlier["answers"], final["answers"], strict=False):
        if before != after and before["status"] not in ("pending", "grading"):
            problems.append(f"{who}: position {before['position']} changed after it was graded")
    if len(earlier["answers"]) != len(final["answers"]):
        problems.append(f"{who}: the reads of the report list different answers")
    return problems


def check_storage(database: Path, known: set[str]) -> list[str]:
    queries = {
        "duplicate attempts in a session": "SELECT quiz_session_id, question_id, COUNT(*) "
        "FROM attempt WHERE quiz_session_id IS NOT NULL "
        "GROUP BY quiz_session_id, question_id HAVING COUNT(*) > 1",
        "duplicate interview positions": "SELECT interview_id, position, COUNT(*) FROM "
        "interview_answer GROUP BY interview_id, position HAVING COUNT(*) > 1",
        "answers left grading": "SELECT interview_id, position, status FROM interview_answer "
        "WHERE status IN ('open', 'grading', 'pending')",
        # Each graded or skipped answer of a finished interview enters the history once: an
        # answer graded by the drain after the finish, or again after the restart, is not
        # recorded twice (nor lost).
        "interview answers not in the history once": "SELECT user_id, question_id, "
        "SUM(answers), SUM(attempts) FROM (SELECT i.user_id, a.question_id, COUNT(*) AS answers, "
        "0 AS attempts FROM interview_answer a JOIN interview i ON i.id = a.interview_id "
        "WHERE i.finished_at IS NOT NULL AND a.status IN ('graded', 'skipped') "
        "GROUP BY 1, 2 UNION ALL SELECT user_id, question_id, 0, COUNT(*) FROM attempt "
        "WHERE source = 'interview' GROUP BY 1, 2) GROUP BY 1, 2 "
        "HAVING SUM(answers) != SUM(attempts)",
    }
    with contextlib.closing(sqlite3.connect(database)) as db:
        found = {name: db.execute(sql).fetchall() for name, sql in queries.items()}
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        running = {
            row[0] for row in db.execute("SELECT id FROM interview WHERE finished_at IS NULL")
        }
    # An interview whose start got no reply was started again: the first runs on unseen
    # until its deadline (it is in the learner's list); only a known one must be finished.
    found["known interviews not finished"] = sorted(running & known)
    found["answers left grading"] = [r for r in found["answers left grading"] if r[0] in known]
    print(
        f"interviews started whose reply was lost (left to their deadline): {len(running - known)}"
    )
    problems = [f"storage: {name}: {rows[:5]}" for name, rows in found.items() if rows]
    return problems + ([] if integrity == "ok" else [f"storage: integrity_check {integrity}"])


async def kill_mid_interview(
    server: Server, halfway: asyncio.Event, figures: dict[str, float]
) -> None:
    await halfway.wait()
    await asyncio.sleep(3)  # let answers be in flight, code ones in the sandbox
    server.kill()
    killed = time.perf_counter()
    server.start()
    await server.wait_up()
    figures["down (s)"] = time.perf_counter() - killed


async def run(arguments: argparse.Namespace) -> int:
    data = Path(tempfile.mkdtemp(prefix="tapequiz-class-"))
    code = Path(arguments.checkout).resolve() if arguments.checkout else ROOT
    server = Server(port=arguments.port, data=data, log=data / "server.log", code=code)
    print(f"serving the code of {code}")
    server.start()
    figures = {"start-up (s)": await server.wait_up()}
    url, stats, halfway = f"http://127.0.0.1:{arguments.port}", Stats(), asyncio.Event()
    learners = []
    for index in range(arguments.learners):
        learners.append(Learner(index, _client(url, index), random.Random(index)))
    alone, solo = (
        Stats(),
        Learner(arguments.learners, _client(url, arguments.learners), random.Random(-1)),
    )
    await practise_then_interview(solo, alone, server, asyncio.Event())  # the baseline
    started = time.perf_counter()
    sampler = asyncio.create_task(server.sample_threads())
    try:
        tasks = [practise_then_interview(learner, stats, server, halfway) for learner in learners]
        if not arguments.no_kill:
            tasks.append(kill_mid_interview(server, halfway, figures))
        await asyncio.gather(*tasks)
        figures["class (s)"] = time.perf_counter() - started
        problems = list(stats.problems) + list(alone.problems)
        for learner in [solo, *learners]:
            problems += check_report(learner)
            problems += learner_problems.get(learner.index, [])
    finally:
        sampler.cancel()
        server.stop()
        for learner in [solo, *learners]:
            await learner.client.aclose()
    known = {learner.interview_id for learner in [solo, *learners]}
    problems += check_storage(data / "tapequiz.db", known)
    log = server.log.read_text(errors="replace")
    problems += [f"server log: {line}" for line in log.splitlines() if '" 500' in line][:10]
    if "Traceback" in log:
        problems.append("server log has a Traceback")
    print("baseline, same run: one learner alone, before the class (same server, same data)")
    print_requests(alone)
    print()
    report(learners, stats, figures, server)
    print_ungraded(data / "tapequiz.db")
    print(f"data and server log: {data}")
    print("PROBLEMS:\n  " + "\n  ".join(problems) if problems else "checks: all passed")
    return 1 if problems else 0


learner_problems: dict[int, list[str]] = {}


async def practise_then_interview(
    learner: Learner, stats: Stats, server: Server, halfway: asyncio.Event
) -> None:
    session_id = await practise(learner, stats, server)
    summary = await reread(learner, stats, server, f"/api/sessions/{session_id}/summary")
    learner_problems[learner.index] = check_practice(learner, summary)
    await interview(learner, stats, server, halfway)


def percentile(ordered: list[float], share: float) -> float:
    """Nearest rank: the smallest value with at least `share` of the values at or below it."""
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def report(
    learners: list[Learner], stats: Stats, figures: dict[str, float], server: Server
) -> None:
    every = sorted(t for values in stats.times.values() for t in values)
    lost = sum(counts[0] for counts in stats.statuses.values())
    print(
        f"{len(learners)} learners, {len(every)} requests answered, {lost} without a reply "
        f"(the server down or the client hung up), server SIGKILLed {server.restarts} time(s)"
    )
    print(
        f"all requests answered: p50 {statistics.median(every):.3f}s "
        f"p95 {percentile(every, 0.95):.3f}s max {every[-1]:.3f}s"
    )
    for name, value in figures.items():
        print(f"{name}: {value:.1f}")
    if server.threads:
        mean = statistics.mean(server.threads)
        print(f"server threads: peak {max(server.threads)}, mean {mean:.1f}")
    print_requests(stats)
    positions = collections.Counter(len(learner.served) for learner in learners)
    print(f"interview questions served per learner: {dict(sorted(positions.items()))}")


def print_requests(stats: Stats) -> None:
    print(f"{'request':44} {'n':>5} {'p50':>8} {'p95':>8} {'max':>8}  statuses (0 = no reply)")
    for kind in sorted(stats.statuses):
        answered = len(stats.times.get(kind, []))
        values = sorted(stats.times.get(kind, [])) or [0.0]
        print(
            f"{kind:44} {answered:>5} {statistics.median(values):>7.3f}s "
            f"{percentile(values, 0.95):>7.3f}s {values[-1]:>7.3f}s  "
            f"{json.dumps(dict(sorted(stats.statuses[kind].items())))}"
        )


def print_ungraded(database: Path) -> None:
    """Interview answers by status at the end, and those not graded by slot kind."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        rows = db.execute(
            "SELECT kind, status, COUNT(*) FROM interview_answer GROUP BY kind, status"
        ).fetchall()
    statuses: collections.Counter[str] = collections.Counter()
    for _kind, status, count in rows:
        statuses[status] += count
    print(f"interview answers by status: {dict(sorted(statuses.items()))}")
    left = {f"{kind}/{status}": n for kind, status, n in rows if status not in GRADED_OR_SKIPPED}
    print(f"interview answers not graded, by slot: {left}")
    with contextlib.closing(sqlite3.connect(database)) as db:
        awaited, late = db.execute(
            "SELECT SUM(reason LIKE 'Chosen while question %'), "
            "SUM(reason LIKE '%was graded after the next question was chosen%') "
            "FROM interview_answer"
        ).fetchone()
    print(  # round 17's reasons (an older server's choices say nothing: None)
        f"questions chosen before the last answer's grade was in: {awaited}; "
        f"follow-ups on a grade that came in later: {late}"
    )


GRADED_OR_SKIPPED = ("graded", "skipped", "unanswered")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=50)
    parser.add_argument("--port", type=int, default=8041)
    parser.add_argument("--no-kill", action="store_true", help="do not SIGKILL the server")
    parser.add_argument("--checkout", help="serve the code of this checkout (default: this one)")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
