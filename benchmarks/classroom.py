"""A class of N learners signing up and submitting at the same moment, against a live server.

Each learner is one laptop: its own source address on the loopback (127.0.0.N, so per-client
limits see N clients, as on a classroom network), its own cookie jar. Each signs up through
the form, logs in again from a fresh cookie jar (a second device), starts a practice session
and then all submit at once: correct code, wrong code (None gradients, optimizer bypassed),
hostile code (infinite loop, fork bomb, reading files, huge output, os.system), free text,
double submits and malformed JSON. A 503 is retried after its Retry-After, as the page does.
Then every learner's history is compared with what the server acknowledged to that learner.

Point it at a running server (run it as an ordinary user, as the README says):

    .venv/bin/python benchmarks/classroom.py http://127.0.0.1:8031 [learners=40]

With --wait-restart it waits for the server to come back before checking histories (kill it
mid-way and restart it): an answer that got no reply may or may not be stored, one that got
a 201 must be.

Prints statuses, p50/p95/max per kind of request and the history check; exits 1 on a 500,
a hang past the client's time-out, or a history that does not match what was acknowledged.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import re
import secrets
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

CODE_QUESTION, TEXT_QUESTION = "train-step", "gradient-vs-apply"
TIMEOUT = 120.0  # seconds; the sandbox's own wall limit is 15 s per submission
RETRIES = 20

CORRECT = """import tensorflow as tf


def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
"""
NONE_GRADIENTS = CORRECT.replace(
    "        loss = loss_fn(y, model(x, training=True))\n",
    "        predictions = model(x, training=True)\n    loss = loss_fn(y, predictions)\n",
)
BYPASSED = CORRECT.replace(
    "    optimizer.apply_gradients(zip(grads, model.trainable_variables))\n",
    "    for g, v in zip(grads, model.trainable_variables):\n        v.assign_sub(0.01 * g)\n",
)
HOSTILE = {
    "infinite-loop": (
        "def train_step(model, optimizer, loss_fn, x, y):\n    while True:\n        pass\n"
    ),
    "fork-bomb": (
        "import os\n\n\ndef train_step(model, optimizer, loss_fn, x, y):\n"
        "    while True:\n        os.fork()\n"
    ),
    "read-files": (
        "def train_step(model, optimizer, loss_fn, x, y):\n"
        "    secrets = [open(p).read() for p in ('/etc/passwd', 'data/secret_key',"
        " '/tmp/q1live/data/secret_key')]\n"
        "    raise RuntimeError(repr(secrets)[:2000])\n"
    ),
    "huge-output": (
        "def train_step(model, optimizer, loss_fn, x, y):\n"
        "    for _ in range(10**6):\n        print('x' * 10**4)\n"
    ),
    "import-os": (
        "import os\n\n\ndef train_step(model, optimizer, loss_fn, x, y):\n"
        "    os.system('id > /tmp/pwned; cat /etc/shadow')\n    return os.listdir('/')\n"
    ),
}
TEXT_RIGHT = (
    "tape.gradient only computes the gradients of the loss with respect to the variables; "
    "optimizer.apply_gradients then updates the weights with them."
)
TEXT_WRONG = "tape.gradient updates the weights of the model, so apply_gradients is not needed."
ROLES = [
    "correct",
    "none-gradients",
    "bypassed",
    *HOSTILE,
    "text-right",
    "text-wrong",
    "double-code",
    "double-text",
    "malformed",
]


@dataclass
class Learner:
    index: int
    role: str
    client: httpx.AsyncClient
    session_id: int = 0
    sent: list[Any] = field(default_factory=list)  # answers acknowledged with 201
    unanswered: list[Any] = field(default_factory=list)  # no reply: stored or not, unknown
    statuses: list[int] = field(default_factory=list)


@dataclass
class Timings:
    by_kind: dict[str, list[float]] = field(default_factory=lambda: collections.defaultdict(list))
    statuses: dict[str, collections.Counter[int]] = field(
        default_factory=lambda: collections.defaultdict(collections.Counter)
    )
    unreadable: list[str] = field(default_factory=list)

    async def call(self, kind: str, send: Any) -> httpx.Response | None:
        start = time.perf_counter()
        try:
            reply: httpx.Response = await send
        except httpx.HTTPError as exc:
            self.statuses[kind][0] += 1
            self.unreadable.append(
                f"{kind}: {type(exc).__name__} after {time.perf_counter() - start:.1f} s"
            )
            return None
        self.by_kind[kind].append(time.perf_counter() - start)
        self.statuses[kind][reply.status_code] += 1
        if (reply.status_code >= 500 and reply.status_code != 503) or not _readable(reply):
            self.unreadable.append(f"{kind}: {reply.status_code} {reply.text[:200]!r}")
        return reply


def _readable(reply: httpx.Response) -> bool:
    """A reply a learner can read: JSON with a message for errors, a page otherwise."""
    kind = reply.headers.get("content-type", "")
    if reply.status_code < 400 or "text/html" in kind:
        return True
    try:
        return bool(reply.json().get("message"))
    except ValueError:
        return False


def _csrf(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, "no CSRF token on the page"
    return found.group(1)


def _client(url: str, index: int) -> httpx.AsyncClient:
    # httpx keeps an idle connection 5 s, exactly uvicorn's keep-alive time-out: a retry sent
    # 5 s after a 503 met a connection the server was closing (ReadError). A browser resends
    # then; this client lets idle connections go first.
    limits = httpx.Limits(keepalive_expiry=2.0)
    transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{10 + index}", limits=limits)
    return httpx.AsyncClient(base_url=url, timeout=TIMEOUT, transport=transport)


async def enrol(url: str, index: int, run: str, timings: Timings) -> Learner:
    email, password = f"learner{index}-{run}@class.example", f"Tape-{run}-{index}-ok!"
    device = _client(url, index)
    page = await timings.call("GET /signup", device.get("/signup"))
    form = {
        "csrf_token": _csrf(page.text if page else ""),
        "email": email,
        "password": password,
        "display_name": f"Learner {index}",
    }
    await timings.call("POST /signup", device.post("/signup", data=form))
    await device.aclose()
    client = _client(url, index)  # a second device: log in there
    page = await timings.call("GET /login", client.get("/login"))
    form = {"csrf_token": _csrf(page.text if page else ""), "email": email, "password": password}
    await timings.call("POST /login", client.post("/login", data=form))
    role = ROLES[index % len(ROLES)]
    learner = Learner(index=index, role=role, client=client)
    question = (
        TEXT_QUESTION
        if role.startswith("text") or role in {"double-text", "malformed"}
        else CODE_QUESTION
    )
    reply = await timings.call(
        "POST /api/sessions", client.post("/api/sessions", json={"question_ids": [question]})
    )
    learner.session_id = int(reply.json()["id"]) if reply and reply.status_code == 201 else 0
    return learner


def _answer(learner: Learner) -> str:
    marker = f"learner {learner.index}"
    code = {
        "correct": CORRECT,
        "none-gradients": NONE_GRADIENTS,
        "bypassed": BYPASSED,
        "double-code": CORRECT,
        **HOSTILE,
    }.get(learner.role)
    if code is not None:
        return f"# {marker}\n{code}"
    text = TEXT_WRONG if learner.role == "text-wrong" else TEXT_RIGHT
    return f"{text} ({marker})"


async def submit(learner: Learner, body: Any, timings: Timings, kind: str) -> int:
    """One answer, retried after Retry-After on 503/429 as the page's script does."""
    path = f"/api/sessions/{learner.session_id}/answers"
    start = time.perf_counter()
    for _ in range(RETRIES):
        if isinstance(body, bytes):
            send = learner.client.post(
                path, content=body, headers={"content-type": "application/json"}
            )
        else:
            send = learner.client.post(path, json=body)
        reply = await timings.call(kind, send)
        if reply is None:
            if not isinstance(body, bytes):
                learner.unanswered.append(body["answer"])
            return 0
        learner.statuses.append(reply.status_code)
        if reply.status_code not in (429, 503):
            break
        await asyncio.sleep(float(reply.headers.get("retry-after", "1")))
    timings.by_kind[f"{kind} (until graded)"].append(time.perf_counter() - start)
    assert reply is not None  # RETRIES >= 1
    if reply.status_code == 201 and not isinstance(body, bytes):
        learner.sent.append(body["answer"])
    return reply.status_code


async def answer(learner: Learner, timings: Timings) -> None:
    body = {"answer": _answer(learner)}
    if learner.role.startswith("double"):
        await asyncio.gather(*(submit(learner, body, timings, "answer (double)") for _ in range(2)))
    elif learner.role == "malformed":
        await submit(learner, b'{"answer": "unterminated', timings, "answer (malformed)")
        await submit(learner, b'{"answer": 1e999999}', timings, "answer (malformed)")
        await submit(learner, body, timings, "answer (text)")
    else:
        kind = (
            "answer (code)" if learner.role not in ("text-right", "text-wrong") else "answer (text)"
        )
        await submit(learner, body, timings, kind)


async def resend(learner: Learner, timings: Timings) -> None:
    """After a restart, a learner whose answer got no reply sends it again: a 201 grades it
    now, a 409 says the first one was stored before the server went."""
    if learner.unanswered:
        body = {"answer": learner.unanswered[0]}
        status = await submit(learner, body, timings, "answer again after restart")
        if status == 201:
            learner.unanswered.remove(body["answer"])


async def check_history(learners: list[Learner], timings: Timings) -> list[str]:
    problems = []
    for learner in learners:
        reply = await timings.call(
            "GET /api/progress/attempts", learner.client.get("/api/progress/attempts")
        )
        stored = [a["answer"] for a in reply.json()] if reply and reply.status_code == 200 else []
        lost = collections.Counter(map(str, learner.sent)) - collections.Counter(map(str, stored))
        extra = collections.Counter(map(str, stored)) - collections.Counter(
            map(str, learner.sent + learner.unanswered)
        )
        if lost or extra:
            problems.append(
                f"learner {learner.index} ({learner.role}): acknowledged "
                f"{len(learner.sent)}, no reply {len(learner.unanswered)}, "
                f"history has {len(stored)}"
            )
        strangers = [
            s
            for s in stored
            if f"learner {learner.index})" not in str(s)
            and f"# learner {learner.index}\n" not in str(s)
        ]
        if strangers:
            problems.append(f"learner {learner.index}: {len(strangers)} answers of others")
    return problems


def _print(timings: Timings) -> None:
    print(f"{'request':38} {'n':>4} {'p50':>8} {'p95':>8} {'max':>8}  statuses")
    for kind, values in timings.by_kind.items():
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        counts = dict(timings.statuses.get(kind, {})) if "until" not in kind else ""
        print(
            f"{kind:38} {len(values):>4} {statistics.median(values):>7.3f}s {p95:>7.3f}s "
            f"{ordered[-1]:>7.3f}s  {counts}"
        )


async def _wait_up(client: httpx.AsyncClient) -> None:
    for _ in range(600):
        with contextlib.suppress(httpx.HTTPError):
            if (await client.get("/healthz")).status_code == 200:
                return
        await asyncio.sleep(1)
    raise SystemExit("the server did not come back within 10 minutes")


async def main(url: str, count: int, *, wait_restart: bool = False) -> int:
    timings, run = Timings(), secrets.token_hex(3)
    learners = await asyncio.gather(*(enrol(url, i, run, timings) for i in range(count)))
    roles = collections.Counter(learner.role for learner in learners)
    print(f"{count} learners, roles: {dict(roles)}")
    started = time.perf_counter()
    await asyncio.gather(*(answer(learner, timings) for learner in learners))
    print(f"all answered in {time.perf_counter() - started:.1f} s")
    unanswered = sum(len(learner.unanswered) for learner in learners)
    print(f"answers without a reply (server or connection gone): {unanswered}")
    if wait_restart:  # the server was killed mid-way: wait for it, then press Submit again
        await _wait_up(learners[0].client)
        await asyncio.gather(*(resend(learner, timings) for learner in learners))
    problems = await check_history(learners, timings)
    _print(timings)
    for learner in learners:
        if learner.role.startswith("double"):
            print(f"double submit, learner {learner.index}: statuses {learner.statuses}")
    print(
        "history:",
        "every learner's history = what was acknowledged to them"
        if not problems
        else "\n  ".join(["MISMATCH", *problems]),
    )
    for line in timings.unreadable:
        print("UNREADABLE or 5xx:", line)
    for learner in learners:
        await learner.client.aclose()
    return 1 if problems or timings.unreadable else 0


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--wait-restart"]
    target = arguments[0] if arguments else "http://127.0.0.1:8031"
    size = int(arguments[1]) if len(arguments) > 1 else 40
    sys.exit(asyncio.run(main(target, size, wait_restart="--wait-restart" in sys.argv)))
