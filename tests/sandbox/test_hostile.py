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
from app.grading.sandbox.backends import processes, rootless
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

# Round 13: the step taken late (when the checker reads the result, after a garbage collection,
# on a thread), the worker ended by a signal armed for later, the checker's own state changed.
TAKE_STEP = (
    "        with tf.GradientTape() as tape:\n"
    "            loss = loss_fn(y, model(x, training=True))\n"
    "        grads = tape.gradient(loss, model.trainable_variables)\n"
    "        optimizer.apply_gradients(zip(grads, model.trainable_variables))\n"
    "        return loss\n"
)
SIGEVENT = (
    "    import ctypes\n"
    "    class Event(ctypes.Structure):\n"
    "        _fields_ = [('value', ctypes.c_void_p), ('signo', ctypes.c_int),\n"
    "                    ('notify', ctypes.c_int), ('pad', ctypes.c_byte * 48)]\n"
    "    libc, timer = ctypes.CDLL(None, use_errno=True), ctypes.c_void_p()\n"
    "    assert libc.timer_create(1, ctypes.byref(Event(None, 9, 0)), ctypes.byref(timer)) == 0\n"
    "    libc.timer_settime(timer, 0, (ctypes.c_long * 4)(0, 0, 0, 1_000_000), None)\n"
    "    time.sleep(0.5)"
)
ROUND_13 = {
    "lazy-tensor-like-return": (
        "    class Loss:\n        is_tensor_like = True\n        dtype = tf.float32\n"
        "        def numpy(self):\n            return step().numpy()\n"
        "    def step():\n" + TAKE_STEP + "    return Loss()"
    ),
    "lazy-array-protocol-return": (
        "    class Loss(float):\n        def __array__(self, dtype=None, copy=None):\n"
        "            return step().numpy()\n"
        "    def step():\n" + TAKE_STEP + "    return Loss(0.0)"
    ),
    "lazy-dict-key-str": (
        "    class Key:\n        def __str__(self):\n"
        "            step()\n            return 'loss'\n"
        "        def __lt__(self, other):\n            return False\n"
        "    def step():\n" + TAKE_STEP + "    return {Key(): 0.0}"
    ),
    "step-in-gc-callback": (
        "    import gc\n    def late(phase, info):\n        gc.callbacks.clear()\n        step()\n"
        "    def step():\n" + TAKE_STEP + "    gc.callbacks.append(late)"
    ),
    "step-on-thread-after-return": (
        "    def step():\n"
        + TAKE_STEP
        + "    threading.Thread(target=lambda: (time.sleep(0.05), step()), daemon=True).start()"
    ),
    "generator-step": "    yield loss_fn(y, model(x, training=True))",
    "monkeypatch-optimizer-class": (
        "    import keras\n    type(optimizer).apply_gradients = lambda *a, **k: None\n"
        "    keras.optimizers.Optimizer.apply = lambda *a, **k: None"
    ),
    "poison-sys-modules": (
        "    for name in ('numpy', 'json', 'tensorflow', 'keras'):\n"
        "        sys.modules[name] = None"
    ),
    "os-fork-in-step": "    if os.fork() == 0:\n        time.sleep(60)",
    "close-fds-0-to-2": "    os.close(0)\n    os.close(1)\n    os.close(2)",
    "devnull-over-report-fd": "    os.dup2(os.open('/dev/null', os.O_WRONLY), 3)",
    "half-report-then-sleep": "    os.write(3, b'{}\\n')\n    time.sleep(30)",
    "timer-armed-with-sigkill": SIGEVENT,
    "sigkill-on-io-f-setsig": (
        "    import fcntl\n    r, w = os.pipe()\n    fcntl.fcntl(r, fcntl.F_SETOWN, os.getpid())\n"
        "    fcntl.fcntl(r, 10, 9)\n"
        "    fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_ASYNC)\n"
        "    os.write(w, b'x')\n    time.sleep(0.5)"
    ),
    "itimer-sigalrm": "    signal.setitimer(signal.ITIMER_REAL, 0.001)\n    time.sleep(0.5)",
    "own-seccomp-filter-kills-all": (
        "    import ctypes, struct\n    libc = ctypes.CDLL(None)\n    libc.prctl(38, 1, 0, 0, 0)\n"
        "    code = ctypes.create_string_buffer(struct.pack('HBBI', 0x06, 0, 0, 0x80000000))\n"
        "    prog = struct.pack('HxxxxxxQ', 1, ctypes.addressof(code))\n"
        "    libc.prctl(22, 2, ctypes.c_char_p(prog), 0, 0)"
    ),
    "raise-systemexit-137": "    raise SystemExit(137)",
    "raise-keyboardinterrupt": "    raise KeyboardInterrupt",
}

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
    **ROUND_13,
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
            try:
                memberships = Path(f"/proc/{pid}/cgroup").read_text()
            except FileNotFoundError:  # it ended between ps and here (any grader's process)
                continue
            if own not in memberships:
                escaped.append(f"{uid} {pid} {state} {memberships!r}")
    return escaped


EXIT_GRACE = 10.0  # seconds a SIGKILLed process may take to finish exiting under load


def _left_in(namespace: str, sandbox: SandboxGrader) -> list[int]:
    """Live processes in `namespace`, less those of the pool's ready (never used) workers."""
    ready = sandbox.grader.pool.ready_workers()
    spares = {pid for worker in ready for pid in processes.descendants(worker.tree.pid or 0)}
    return [pid for pid in rootless.in_namespace(namespace) if pid not in spares]


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
        assert namespace
        # A killed process still exiting (its memory being freed, on a loaded machine) is no
        # escape: look again for up to EXIT_GRACE seconds. An escaped one (the cases sleep
        # 30-60 s or loop) is still there after it.
        # The kernel reuses a dead namespace's inode number: the pool's next spare worker,
        # forked after this tree died, may sit in a namespace with the same name (seen in CI's
        # rootless leg: a sleeping ready worker, its zygote's command line). Its processes are
        # descendants of a ready worker's reaper, which no candidate process can become.
        # The tree itself holds its namespace open until its kill saw it empty (so its own
        # kill never reaches a spare: test_rootless_handles.py), then lets go: this check, by
        # name and after the fact, can still meet the number on a spare.
        deadline = time.monotonic() + EXIT_GRACE
        while _left_in(namespace, sandbox) and time.monotonic() < deadline:
            time.sleep(0.25)
        assert not _left_in(namespace, sandbox), (group, namespace)
        return
    assert not (cgroups.instance_dir("memory") / group).exists()
    escaped = _escaped_processes(sandbox.grader.pool.uid_base)
    deadline = time.monotonic() + EXIT_GRACE  # a killed process may still be exiting
    while escaped and time.monotonic() < deadline:
        time.sleep(0.25)
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
        .rsplit(". [line", 1)[0]
    )
    assert uid != 0 and caps == ["0000000000000000"]
    if not isinstance(sandbox.grader.pool.backend, rootless.Rootless):
        assert uid >= sandbox.grader.pool.uid_base  # root backends: a uid of its own per worker
    assert "sys" not in top and "home" not in top
    assert interfaces == ["lo"]
