"""Hostile submissions: each ends with a non-correct verdict and leaves the host untouched.

Every case is a `train_step` that attacks instead of training (issue 3, item 8). Besides the
verdict, each test checks the host: no file appeared, no secret leaked into the result, no
connection arrived, the grading process and the pool survive, and no sandbox process remains.
"""

from __future__ import annotations

import ast
import json
import socket
import subprocess
import time
from pathlib import Path
from string import Template

import pytest

from app.config import REPO_ROOT
from app.grading.results import GradeResult
from app.grading.sandbox import cgroups
from app.grading.sandbox.backends import rootless
from tests.sandbox.conftest import SandboxGrader, load_question

pytestmark = pytest.mark.sandbox
MARKER = "TAPEQUIZ-SECRET-7f3a"
STEP = """
import os, sys, signal, time, threading
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
$body
    return tf.constant(0.0)
"""

CASES = {
    "read-etc-shadow": "    raise ValueError(open('/etc/shadow').read())",
    "read-app-database": "    raise ValueError(open('$secret').read())",
    "read-launcher-environment": "    raise ValueError(open('/proc/1/environ').read())",
    "write-outside-tmp": (
        "    for p in ('$repo/pwned', '$data/pwned', '/usr/pwned', '/pwned'):\n"
        "        try:\n            open(p, 'w').write('x')\n"
        "        except OSError:\n            pass"
    ),
    "open-socket": (
        "    import socket\n    s = socket.create_connection(('127.0.0.1', $port), timeout=1)\n"
        "    s.sendall(b'exfiltrate')"
    ),
    "ctypes-socket": (
        "    import ctypes\n    libc = ctypes.CDLL(None)\n    fd = libc.socket(2, 1, 0)\n"
        "    raise ValueError(f'socket fd {fd}')"
    ),
    "fork-bomb": "    while True:\n        os.fork()",
    "subprocess": (
        "    import subprocess\n"
        "    subprocess.run(['/bin/sh', '-c', 'touch $data/pwned'], check=True)"
    ),
    "os-system": "    assert os.system('touch $data/pwned') == 0",
    "ctypes-unshare": (
        "    import ctypes\n    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    assert libc.unshare(0x10000000) == 0, ctypes.get_errno()"
    ),
    "kill-the-parent": "    os.kill(os.getppid(), 9)\n    os.kill(1, 9)\n    os.killpg(0, 9)",
    "allocate-20-gib": "    block = bytearray(20 * 1024**3)",
    "touch-memory-gradually": (
        "    blocks = []\n    while True:\n        blocks.append(bytearray(b'x' * (64 * 1024**2)))"
    ),
    "infinite-loop": "    while True:\n        pass",
    "ignore-sigterm-and-sleep": (
        "    signal.signal(signal.SIGTERM, signal.SIG_IGN)\n    while True:\n        time.sleep(1)"
    ),
    "print-fake-verdict": (
        '    print(\'{"verdict": "correct", "score": 1.0}\')\n'
        "    sys.stderr.write('verdict: correct\\n')"
    ),
    "forge-result-channel": (
        "    import json\n"
        "    config = open('/proc/self/cmdline').read().split('\\0')[-2]\n"
        "    fd = json.loads(config)['result_fd']\n"
        "    os.write(fd, json.dumps({'runs': [{'name': 'candidate', 'load_error': None,"
        " 'scenarios': []}]}).encode() + b'\\n')\n    os._exit(0)"
    ),
    "forge-deeply-nested-report": (
        "    import json\n"
        "    config = open('/proc/self/cmdline').read().split('\\0')[-2]\n"
        "    os.write(json.loads(config)['result_fd'], b'[' * 500_000 + b'\\n')\n"
        "    os._exit(0)"
    ),
    "monkeypatch-comparisons": (
        "    import math, numpy as np\n    np.allclose = lambda *a, **k: True\n"
        "    np.testing.assert_allclose = lambda *a, **k: None\n"
        "    math.isclose = lambda *a, **k: True\n"
        "    tf.debugging.assert_near = lambda *a, **k: None"
    ),
    "sys-exit-mid-step": "    sys.exit(0)",
    "os-exit-mid-step": "    os._exit(0)",
    "daemon-thread-outlives-step": (
        "    def haunt():\n        while True:\n            for v in model.trainable_variables:\n"
        "                v.assign(v * 0.0)\n            time.sleep(0.001)\n"
        "    threading.Thread(target=haunt, daemon=True).start()"
    ),
    "daemon-process": (
        "    import multiprocessing\n"
        "    p = multiprocessing.Process(target=time.sleep, args=(60,), daemon=True)\n"
        "    p.start()"
    ),
    "print-100-mb": "    sys.stdout.write('x' * 100_000_000)\n    sys.stdout.flush()",
    "thread-bomb": (  # inside a tape: the checker reports the exception, not "no tape"
        "    with tf.GradientTape():\n        for _ in range(10_000):\n"
        "            threading.Thread(target=time.sleep, args=(30,), daemon=True).start()"
    ),
}


@pytest.fixture(scope="module")
def listener() -> socket.socket:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.setblocking(False)
    return server


def _source(body: str, sandbox: SandboxGrader, port: int) -> str:
    secret = sandbox.data_dir / "tapequiz.db"
    secret.write_text(MARKER)
    values = {"secret": secret, "repo": REPO_ROOT, "data": sandbox.data_dir, "port": port}
    return Template(STEP).substitute(body=Template(body).substitute(values))


def _escaped_processes(uid_base: int) -> list[str]:
    """Sandbox-uid processes outside every grader's cgroups (a process cannot leave by itself)."""
    own = f"/{cgroups.PARENT}/"  # other grader instances (parallel test runs) live there too
    listing = subprocess.run(
        ["ps", "-eo", "uid=,pid=,stat="], capture_output=True, text=True, check=True
    )
    escaped = []
    for line in listing.stdout.splitlines():
        uid, pid, state = int(line.split()[0]), int(line.split()[1]), line.split()[2]
        if uid_base <= uid < uid_base + 100 and not state.startswith("Z"):  # zombies hold nothing
            memberships = Path(f"/proc/{pid}/cgroup").read_text()
            if own not in memberships:
                escaped.append(f"{uid} {pid} {state} {memberships!r}")
    return escaped


def _host_untouched(sandbox: SandboxGrader, listener: socket.socket, result: GradeResult) -> None:
    assert MARKER not in json.dumps(result.__dict__, default=str)
    for path in (
        REPO_ROOT / "pwned",
        sandbox.data_dir / "pwned",
        Path("/usr/pwned"),
        Path("/pwned"),
    ):
        assert not path.exists(), path
    with pytest.raises(BlockingIOError):
        listener.accept()
    group = result.details["sandbox"]["group"]  # type: ignore[index]
    assert group
    backend = sandbox.grader.pool.backend
    if isinstance(backend, rootless.Rootless):  # one uid for all: the tree's pid namespace
        namespace = backend.namespaces[group]
        assert namespace and not rootless.in_namespace(namespace), (group, namespace)
        return
    assert not (cgroups.instance_dir("memory") / group).exists()
    escaped = _escaped_processes(sandbox.grader.pool.uid_base)
    if escaped:  # a killed process leaves its cgroup while it finishes exiting: look again
        time.sleep(1.0)
        escaped = [p for p in _escaped_processes(sandbox.grader.pool.uid_base) if p in escaped]
    assert not escaped


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_submission_is_contained(
    case: str, sandbox: SandboxGrader, listener: socket.socket
) -> None:
    question = load_question("train-step")
    result = sandbox.grade(question, _source(CASES[case], sandbox, listener.getsockname()[1]))
    assert result.verdict != "correct", (case, result)
    _host_untouched(sandbox, listener, result)


@pytest.mark.parametrize(
    ("case", "limit"),
    [("touch-memory-gradually", "memory"), ("infinite-loop", "CPU time"),
     ("ignore-sigterm-and-sleep", "wall time"), ("print-100-mb", "output")],
)  # fmt: skip
def test_breached_limit_is_named(
    case: str, limit: str, sandbox: SandboxGrader, listener: socket.socket
) -> None:
    result = sandbox.grade(load_question("train-step"), _source(CASES[case], sandbox, 1))
    assert (result.verdict, result.details.get("limit")) == ("incorrect", limit)
    assert limit in result.feedback[0].message


def test_process_limit_stops_a_thread_bomb(sandbox: SandboxGrader) -> None:
    result = sandbox.grade(load_question("train-step"), _source(CASES["thread-bomb"], sandbox, 1))
    assert result.verdict == "incorrect"
    assert any("can't start new thread" in f.message for f in result.feedback), result.feedback


def test_pool_still_grades_after_hostile_cases(sandbox: SandboxGrader) -> None:
    question = load_question("train-step")
    assert sandbox.grade(question, question.reference).verdict == "correct"


def test_sandbox_runs_as_unprivileged_uid_without_network(sandbox: SandboxGrader) -> None:
    body = (  # inside a tape: the checker reports the exception, not "no tape"
        "    lines = open('/proc/net/dev').readlines()[2:]\n"
        "    interfaces = [line.split(':')[0].strip() for line in lines]\n"
        "    caps = [l.split()[1] for l in open('/proc/self/status') if l.startswith('CapEff')]\n"
        "    with tf.GradientTape():\n"
        "        raise ValueError(repr((os.getuid(), sorted(os.listdir('/')), interfaces, caps)))"
    )
    result = sandbox.grade(load_question("train-step"), Template(STEP).substitute(body=body))
    uid, top, interfaces, caps = ast.literal_eval(
        next(f.message for f in result.feedback if "ValueError: " in f.message)
        .split("ValueError: ")[1]
        .split(" (line")[0]
    )
    assert uid != 0 and caps == ["0000000000000000"]
    if not isinstance(sandbox.grader.pool.backend, rootless.Rootless):
        assert uid >= sandbox.grader.pool.uid_base  # root backends: a uid of its own per worker
    assert "sys" not in top and "home" not in top
    assert interfaces == ["lo"]
