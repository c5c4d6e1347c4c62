"""The scale-out deployment for real, on this machine: PostgreSQL, Redis, two web processes
and two grading hosts (`tapequiz grader`, real sandboxes), all separate processes.

One module-scoped deployment, then one behaviour per test: a burst of 40 answers (code, free
text and choice, 20 identities, through both web processes) is graded and stored exactly
once each; a grader killed with SIGKILL in the middle of a job leaves it to the other; a
rate limit hit through one web process counts on the other; a pack published through one
is served by the other."""

from __future__ import annotations

import functools
import io
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from itsdangerous import URLSafeTimedSerializer
from sqlalchemy import create_engine, text

from app.db import normalize_url
from app.grading.remote import jobs
from tests.conftest import FIXTURE_PACKS
from tests.scale.servers import free_port, postgres_server, redis_server, wait_for_port

pytestmark = pytest.mark.sandbox
SECRET = "multi-process-test-key"
GRADES_PER_MINUTE = 5
STEP = """import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
"""
OUTSIDE = STEP.replace(
    "        loss = loss_fn(y, model(x, training=True))\n",
    "        logits = model(x, training=True)\n    loss = loss_fn(y, logits)\n",
)
SLEEP_ONCE = "    if not _slept:\n        _slept.append(1)\n        time.sleep(4)\n"
SLOW = "import time\n_slept = []\n" + STEP.replace(
    "    with tf.GradientTape()", SLEEP_ONCE + "    with tf.GradientTape()"
)


@dataclass
class Deployment:
    webs: list[str]
    graders: list[subprocess.Popen[bytes]]
    redis_url: str
    database_url: str
    logs: Path

    def engine_query(self, sql: str, **params: Any) -> list[Any]:
        engine = create_engine(normalize_url(self.database_url))
        with engine.begin() as conn:
            result = conn.execute(text(sql), params)
            rows = list(result) if result.returns_rows else []
        engine.dispose()
        return rows


def _env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAPEQUIZ_")}
    return env | {f"TAPEQUIZ_{k.upper()}": v for k, v in values.items()}


def _start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    out = log.open("wb")
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", *args],
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
        cwd=Path(__file__).parents[2],
    )


def _wait_until(check: Callable[[], bool], seconds: float, what: str) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _listening(port: int, process: subprocess.Popen[bytes]) -> bool:
    if process.poll() is not None:
        raise AssertionError(f"a web process exited with {process.returncode}")
    try:
        wait_for_port(port, 0.1)
    except TimeoutError:
        return False
    return True


def _workers(web: str) -> int:
    try:
        health = httpx.get(f"{web}/healthz", timeout=5).json()
    except httpx.HTTPError:
        return -1
    return int(health["sandbox"]["ready_workers"])


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap not installed: no sandbox for the grading hosts")
    root = tmp_path_factory.mktemp("deploy")
    with postgres_server() as database_url, redis_server() as redis_url:
        common = dict(
            database_url=database_url,
            redis_url=redis_url,
            secret_key=SECRET,
            packs_dir=str(FIXTURE_PACKS),
        )
        upgrade = subprocess.run(
            [sys.executable, "-m", "app.cli", "db", "upgrade"],
            env=_env(**common, data_dir=str(root / "web")),
            capture_output=True,
            timeout=120,
        )
        assert upgrade.returncode == 0, upgrade.stderr
        web_env = _env(
            **common,
            data_dir=str(root / "web"),
            sandbox_enabled="false",
            migrate_on_start="false",
            web_processes="2",
            grades_per_minute=str(GRADES_PER_MINUTE),
            catalog_check_seconds="0.5",
        )
        ports = [free_port(), free_port()]
        processes = [
            _start(["serve", "--port", str(port)], web_env, root / f"web{i}.log")
            for i, port in enumerate(ports)
        ]
        graders = [
            _start(
                ["grader"],
                _env(**common, data_dir=str(root / f"grader{i}"), sandbox_pool_size="1"),
                root / f"grader{i}.log",
            )
            for i in range(2)
        ]
        try:
            for port, process, i in zip(ports, processes, range(2), strict=True):
                up = functools.partial(_listening, port, process)
                _wait_until(up, 60, f"web {i}: {root}/web{i}.log")
            webs = [f"http://127.0.0.1:{port}" for port in ports]
            _wait_until(lambda: min(map(_workers, webs)) >= 2, 60, "two graders announced")
            yield Deployment(webs, graders, redis_url, database_url, root)
        finally:
            for process in processes + graders:
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
            for process in processes + graders:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()


def _client(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=120)


def _answer(web: str, question: str, answer: object) -> tuple[int, int, str]:
    """A new identity answers one question through `web`: (status, user id, verdict)."""
    with _client(web) as client:
        started = client.post("/api/sessions", json={"question_ids": [question]})
        assert started.status_code == 201, started.text
        reply = client.post(
            f"/api/sessions/{started.json()['id']}/answers", json={"answer": answer}
        )
        user = URLSafeTimedSerializer(SECRET, salt="tapequiz.identity").loads(
            client.cookies["tapequiz_id"]
        )[0]
        verdict = reply.json()["attempt"]["verdict"] if reply.status_code == 201 else ""
        return reply.status_code, int(user), verdict


def _burst() -> list[tuple[str, object]]:
    """40 answers: 10 code (half right, half wrong), 15 explanations, 15 choices."""
    code = [("mini-code", STEP), ("mini-code", OUTSIDE)] * 5
    explain = [("mini-explain", "The tape records the operations so it can replay them.")] * 15
    choice = [("mini-single", "tape" if i % 2 else "session") for i in range(15)]
    return code + explain + choice


def test_burst_is_graded_and_stored_exactly_once(deployment: Deployment) -> None:
    burst = _burst()
    with ThreadPoolExecutor(max_workers=len(burst)) as pool:
        results = list(
            pool.map(lambda n: _answer(deployment.webs[n % 2], *burst[n]), range(len(burst)))
        )
    users = [user for _status, user, _verdict in results]
    stored = deployment.engine_query(
        "SELECT user_id, question_id, verdict FROM attempt WHERE user_id = ANY(:ids)", ids=users
    )
    code_verdicts = {
        v for (_s, _u, v), (q, _a) in zip(results, burst, strict=True) if q == "mini-code"
    }
    assert (len(burst), [s for s, _u, _v in results if s != 201], len(set(users))) == (40, [], 40)
    assert sorted((u, q) for u, q, _v in stored) == sorted(
        (u, q) for u, (q, _a) in zip(users, burst, strict=True)
    )  # 0 lost, 0 duplicated
    assert code_verdicts == {"correct", "incorrect"}


def test_job_of_a_killed_grader_is_finished_by_the_other(deployment: Deployment) -> None:
    queue = redis.Redis.from_url(deployment.redis_url, decode_responses=True)
    with ThreadPoolExecutor(max_workers=1) as pool:
        answering = pool.submit(_answer, deployment.webs[0], "mini-code", SLOW)

        def held() -> bool:
            return int(queue.xpending(jobs.STREAM, jobs.GROUP)["pending"]) == 1

        _wait_until(held, 60, "a grader to take the slow job")
        holder = queue.xpending(jobs.STREAM, jobs.GROUP)["consumers"][0]["name"]
        time.sleep(1.0)  # inside the 4 s sleep of the candidate's first call
        victim = int(holder.split("-")[-2])
        os.kill(victim, signal.SIGKILL)
        status, user, verdict = answering.result(timeout=120)
    stored = deployment.engine_query("SELECT verdict FROM attempt WHERE user_id = :u", u=user)
    taken_over = queue.xinfo_consumers(jobs.STREAM, jobs.GROUP)
    queue.close()
    assert victim in [g.pid for g in deployment.graders]
    assert (status, [row[0] for row in stored]) == (201, [verdict])
    assert all(c["pending"] == 0 for c in taken_over)


def test_rate_limit_hit_through_one_process_counts_on_the_other(deployment: Deployment) -> None:
    first, second = deployment.webs
    body = {"answer": "tape"}
    with _client(first) as client:
        allowed = [
            client.post("/api/questions/mini-single/grade", json=body).status_code
            for _ in range(GRADES_PER_MINUTE)
        ]
    with _client(second) as client:
        refused = client.post("/api/questions/mini-single/grade", json=body)
    assert (allowed, refused.status_code) == ([200] * GRADES_PER_MINUTE, 429)
    assert int(refused.headers["retry-after"]) >= 1


def _pack_zip() -> bytes:
    buffer = io.BytesIO()
    meta = (FIXTURE_PACKS / "mini" / "pack.yaml").read_text().replace("id: mini", "id: extra")
    question = (FIXTURE_PACKS / "mini" / "mini-single.yaml").read_text()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("extra/pack.yaml", meta.replace("version: 0.1.0", "version: 1.0.0"))
        archive.writestr(
            "extra/extra-single.yaml", question.replace("id: mini-single", "id: extra-single")
        )
    return buffer.getvalue()


def test_pack_published_through_one_process_is_served_by_the_other(
    deployment: Deployment,
) -> None:
    first, second = deployment.webs

    def served() -> bool:
        return any(p["id"] == "extra" for p in httpx.get(f"{second}/api/packs").json())

    before = served()
    with _client(first) as client:
        client.post("/api/sessions", json={"question_ids": ["mini-single"]})  # an identity
        user = URLSafeTimedSerializer(SECRET, salt="tapequiz.identity").loads(
            client.cookies["tapequiz_id"]
        )[0]
        deployment.engine_query("UPDATE \"user\" SET role = 'instructor' WHERE id = :u", u=user)
        published = client.post(
            "/api/instructor/packs",
            headers={"X-Requested-With": "test"},
            files={"file": ("extra.zip", _pack_zip(), "application/zip")},
        )
    assert (before, published.status_code) == (False, 201), published.text
    _wait_until(served, 10, "the other process to serve the new pack")
