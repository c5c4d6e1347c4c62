"""Figures for docs/scaling.md, each next to its baseline measured in the same run.

1. Pages: the question page (GET /sessions/{id}) and the home page (a learner with one
   session, then with 200 answers) against a bare FastAPI route returning a 4 KB page (as
   `def`, the baseline, and as `async def`), 50 connections, with `wrk` (Debian package
   `wrk`), one uvicorn process, then the question page with two processes
   (`tapequiz serve -w 2`). Each figure also gives the server's CPU per request
   and the CPU that the server and wrk used (cores): on 2 cores wrk competes with a second
   server process, so the gain from it is read next to the CPU per request, which does not
   depend on how many cores were free.
2. Grading: code answers per second through Redis with one, then two `tapequiz grader`
   processes (real sandboxes), answers submitted by one web process (`TAPEQUIZ_REDIS_URL`).

Needs redis-server, wrk and the sandbox (root). Usage:
    .venv/bin/python benchmarks/scaling.py [--seconds 10] [--connections 50] [--answers 24]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.scale.servers import free_port, redis_server, wait_for_port  # noqa: E402

PY = sys.executable
MINI = ROOT / "tests" / "packs" / "fixtures"
HISTORY = 200  # answers of the learner on the second home page figure
STEP = (MINI / "mini" / "mini-code.yaml").read_text().split("reference: |\n")[1].split("wrong:")[0]
STEP = "\n".join(line[2:] for line in STEP.splitlines())


def _env(data: Path, **values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAPEQUIZ_")}
    base = {"data_dir": str(data), "secret_key": "bench", "sandbox_enabled": "false"}
    return env | {f"TAPEQUIZ_{k.upper()}": v for k, v in (base | values).items()}


def _spawn(args: list[str], env: dict[str, str], port: int | None) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    if port:
        wait_for_port(port, 90)
    return process


def _stop(*processes: subprocess.Popen[bytes]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


@dataclass(frozen=True)
class Load:
    """One wrk run: throughput, p99, and the CPU the server and wrk itself used."""

    rate: float  # requests per second
    p99: float  # ms
    server_cpu: float  # CPU-seconds of the server process(es) during the run
    wrk_cpu: float  # CPU-seconds of wrk during the run
    seconds: int

    @property
    def cpu_ms(self) -> float:
        """Server CPU per request (ms): what one request costs, whatever the cores."""
        return 1000 * self.server_cpu / max(1.0, self.rate * self.seconds)


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _tree(pid: int) -> list[int]:
    """The process and its descendants (uvicorn's worker processes)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return [pid]
    return [pid, *(p for child in children for p in _tree(int(child)))]


def _cpu_seconds(pid: int) -> float:
    total = 0
    for each in _tree(pid):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime + stime, all threads
    return total / CLOCK_TICKS


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _wrk(url: str, seconds: int, connections: int, server: int, cookie: str = "") -> Load:
    """Throughput, p99 latency and CPU accounting for one URL."""
    header = ["-H", f"Cookie: {cookie}"] if cookie else []
    server_before, wrk_before = _cpu_seconds(server), _children_cpu()
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", *header, url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    server_cpu, wrk_cpu = _cpu_seconds(server) - server_before, _children_cpu() - wrk_before
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    assert p99 is not None, out
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    if "Non-2xx" in out:
        raise SystemExit(f"errors while measuring {url}:\n{out}")
    return Load(rate, float(p99.group(1)) * scale, server_cpu, wrk_cpu, seconds)


def _question_page(base: str) -> tuple[str, str]:
    """A learner with a session: (cookie header, question page URL)."""
    with httpx.Client(base_url=base) as client:
        sid = client.post("/api/sessions", json={"question_ids": ["mini-single"]}).json()["id"]
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
        client.get(f"/sessions/{sid}", headers={"Cookie": cookie})  # first display: clock set
    return cookie, f"{base}/sessions/{sid}"


def _answer_many(base: str, cookie: str, answers: int) -> None:
    """Give the learner a history: `answers` graded answers, one single-question session each."""
    with httpx.Client(base_url=base, headers={"Cookie": cookie}, timeout=30) as client:
        for n in range(answers):
            sid = client.post("/api/sessions", json={"question_ids": ["mini-single"]}).json()["id"]
            reply = client.post(
                f"/api/sessions/{sid}/answers", json={"answer": "tape" if n % 3 else "session"}
            )
            reply.raise_for_status()


def _line(label: str, load: Load, bare: Load | None = None) -> None:
    share = f"   {100 * load.rate / bare.rate:3.0f}% of bare" if bare else ""
    cpu = load.server_cpu / load.seconds
    print(
        f"{label:34s} {load.rate:7.0f} req/s  p99 {load.p99:5.0f} ms  {load.cpu_ms:5.2f} ms CPU/req"
        f"  (server {cpu:4.2f} cores, wrk {load.wrk_cpu / load.seconds:4.2f}){share}"
    )


def _load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def pages(seconds: int, connections: int) -> None:
    data = Path(tempfile.mkdtemp(prefix="tq-bench-"))
    print(f"load average before the page figures: {_load_average()}")
    port = free_port()
    uvicorn = [PY, "-m", "uvicorn", "benchmarks.bare_app:app", "--port", str(port)]
    bare_app = _spawn([*uvicorn, "--log-level", "warning"], _env(data), port)
    bare = _wrk(f"http://127.0.0.1:{port}/bare", seconds, connections, bare_app.pid)
    bare_async = _wrk(f"http://127.0.0.1:{port}/bare-async", seconds, connections, bare_app.pid)
    _stop(bare_app)
    _line("bare FastAPI route (def, 4 KB)", bare)
    _line("bare FastAPI route (async def)", bare_async)
    for workers in (1, 2):
        port = free_port()
        env = _env(
            data / f"w{workers}", packs_dir=str(MINI), grades_per_minute=str(10 * HISTORY),
            grades_per_minute_per_address=str(100 * HISTORY),
        )  # fmt: skip
        serve = ["serve", "--port", str(port), "-w", str(workers), "--log-level", "warning"]
        web = _spawn([PY, "-m", "app.cli", *serve], env, port)
        time.sleep(2 if workers > 1 else 0)  # every worker up
        cookie, url = _question_page(f"http://127.0.0.1:{port}")
        _wrk(url, 2, connections, web.pid, cookie)  # warm-up, not counted
        load = _wrk(url, seconds, connections, web.pid, cookie)
        _line(f"question page, {workers} process(es)", load, bare)
        if workers == 1:
            one = load
            print(f"{'':34s} ({100 * load.rate / bare_async.rate:.0f}% of the async bare route)")
            home = _wrk(f"http://127.0.0.1:{port}/", seconds, connections, web.pid, cookie)
            _line("home page, 1 process", home)
            _answer_many(f"http://127.0.0.1:{port}", cookie, HISTORY)
            home = _wrk(f"http://127.0.0.1:{port}/", seconds, connections, web.pid, cookie)
            _line(f"home page, {HISTORY} answers", home)
        else:
            print(
                f"{'':34s} ({load.rate / one.rate:.2f}x one process; server CPU per request "
                f"{load.cpu_ms / one.cpu_ms:.2f}x one process's)"
            )
        _stop(web)
    print(f"load average after the page figures: {_load_average()}")
    shutil.rmtree(data, ignore_errors=True)


def _grade_all(base: str, answers: int) -> float:
    """Seconds for `answers` code answers submitted at once (each a new identity)."""

    def one(_n: int) -> int:
        with httpx.Client(base_url=base, timeout=300) as client:
            reply = client.post("/api/questions/mini-code/grade", json={"answer": STEP})
            return reply.status_code

    began = time.monotonic()
    with ThreadPoolExecutor(max_workers=answers) as pool:
        statuses = list(pool.map(one, range(answers)))
    if set(statuses) != {200}:
        raise SystemExit(f"grading failed: {statuses}")
    return time.monotonic() - began


def grading(answers: int) -> None:
    with redis_server() as redis_url:
        data = Path(tempfile.mkdtemp(prefix="tq-bench-"))
        port = free_port()
        # The whole burst must be admitted: back-pressure (503) is not what this measures.
        common = {
            "redis_url": redis_url,
            "packs_dir": str(MINI),
            "grades_per_minute": "10000",
            "sandbox_queue_size": str(max(16, answers)),
        }
        web = _spawn(
            [PY, "-m", "app.cli", "serve", "--port", str(port)], _env(data / "web", **common), port
        )
        base = f"http://127.0.0.1:{port}"
        graders: list[subprocess.Popen[bytes]] = []
        try:  # a failed burst must not leave a web process and graders running
            for count in (1, 2):
                graders.append(
                    _spawn(
                        [PY, "-m", "app.cli", "grader"],
                        _env(data / f"g{count}", **common, sandbox_pool_size="2"),
                        None,
                    )
                )
                _warm(base, count)
                seconds = _grade_all(base, answers)
                print(
                    f"grading, {count} grader process(es): {answers} code answers in "
                    f"{seconds:5.1f} s = {answers / seconds:4.2f} answers/s"
                )
        finally:
            _stop(web, *graders)
            shutil.rmtree(data, ignore_errors=True)


def _warm(base: str, graders: int) -> None:
    """Until every grader announced itself and has graded (reference cached, zygote up)."""
    for _ in range(600):
        health = httpx.get(f"{base}/healthz").json()["sandbox"]
        if health.get("graders") == graders:
            break
        time.sleep(0.5)
    _grade_all(base, 2 * graders)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--answers", type=int, default=24)
    parser.add_argument("--only", choices=["pages", "grading"])
    args = parser.parse_args()
    if shutil.which("wrk") is None and args.only != "grading":
        raise SystemExit("wrk is needed for the page figures: apt-get install wrk")
    print(f"{os.cpu_count()} CPUs; wrk -c{args.connections} -d{args.seconds}s")
    if args.only != "grading":
        pages(args.seconds, args.connections)
    if args.only != "pages":
        grading(args.answers)


if __name__ == "__main__":
    main()
