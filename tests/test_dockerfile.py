"""What the Dockerfile builds and runs, exercised outside Docker (there is no engine here).

The image's CMD, ENV and HEALTHCHECK must start a serving app; and run as an ordinary user
under the repository's Docker seccomp profile, with no writable cgroup (what the container
gets), the same command must grade code with the rootless backend. That last test runs only
as a non-root user: `scripts/test-rootless` runs it so (`make test`). Not reproduced here:
Docker's AppArmor profile, its masked /proc paths and the image build itself.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.config import REPO_ROOT

DOCKERFILE = (REPO_ROOT / "Dockerfile").read_text()
FINAL = DOCKERFILE[DOCKERFILE.rindex("\nFROM ") :]  # the image's own stage
PROFILE = REPO_ROOT / "deploy" / "docker-seccomp.json"
# Applies the Docker profile's rules to this process and everything it starts, then execs:
# the same filter the container's processes would get (libseccomp, as Docker uses).
SECCOMP_EXEC = """
import errno, json, os, sys, seccomp
profile = json.load(open(sys.argv[1]))
assert profile["defaultAction"] == "SCMP_ACT_ALLOW"
rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
for group in profile["syscalls"]:
    for name in group["names"]:
        try:
            rules.add_rule(seccomp.ERRNO(group.get("errnoRet", errno.EPERM)), name)
        except (RuntimeError, ValueError, OSError):
            pass  # unknown on this architecture: cannot be called either
rules.load()
os.execv(sys.argv[2], sys.argv[2:])
"""


def _instruction(name: str, text: str = DOCKERFILE) -> str:
    """The text of a (possibly continued) instruction, without the keyword."""
    match = re.search(rf"^{name}\s+((?:.*\\\n)*.*)$", text, re.MULTILINE)
    assert match, f"Dockerfile has no {name}"
    return match.group(1).replace("\\\n", " ")


def _env() -> dict[str, str]:
    pairs = shlex.split(_instruction("ENV", FINAL))
    return dict(pair.split("=", 1) for pair in pairs)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return dict(json.load(response))


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return dict(json.load(response))


def _serve(tmp_path: Path, env_update: dict[str, str], wrap: list[str]) -> tuple[Any, int]:
    env = {**os.environ, **_env(), "TAPEQUIZ_DATA_DIR": str(tmp_path / "data"), **env_update}
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"  # the image's venv is first
    port = _free_port()
    env["TAPEQUIZ_HOST"], env["TAPEQUIZ_PORT"] = "127.0.0.1", str(port)
    cmd = json.loads(_instruction("CMD", FINAL))
    executable = str(Path(sys.executable).parent / cmd[0])
    server = subprocess.Popen([*wrap, executable, *cmd[1:]], env=env, cwd=tmp_path)
    return server, port


def _healthy(port: int) -> subprocess.CompletedProcess[bytes]:
    probe = _instruction("HEALTHCHECK", FINAL).split(" CMD ", 1)[1].replace("8000", str(port))
    probe = probe.replace("python ", f"{sys.executable} ", 1)
    deadline = time.monotonic() + 60
    while True:
        result = subprocess.run(probe, shell=True, capture_output=True, timeout=10)
        if result.returncode == 0 or time.monotonic() > deadline:
            return result
        time.sleep(0.3)


def test_dockerfile_builds_in_two_stages_and_runs_as_non_root() -> None:
    assert len(re.findall(r"^FROM ", DOCKERFILE, re.MULTILINE)) == 2
    assert re.search(r"^USER (?!root)\w+", FINAL, re.MULTILINE)
    assert json.loads(_instruction("VOLUME", FINAL)) == [_env()["TAPEQUIZ_DATA_DIR"]]
    assert "PIP_NO_CACHE_DIR=1" in DOCKERFILE and ".[grading]" in DOCKERFILE


def test_final_stage_has_the_sandbox_packages_and_no_build_tools() -> None:
    packages = set(_instruction("RUN", FINAL).split())
    assert {"bubblewrap", "python3-seccomp", "--no-install-recommends"} <= packages
    assert not packages & {"gcc", "build-essential", "python3-pip", "python3-dev", "git"}
    assert "rm -rf /var/lib/apt/lists/*" in _instruction("RUN", FINAL)
    assert _env()["TAPEQUIZ_SANDBOX_ENABLED"] == "true"


def test_dockerfile_cmd_serves_and_healthcheck_passes(tmp_path: Path) -> None:
    # The worker pool is off here: this is the serving path; grading is the test below.
    server, port = _serve(tmp_path, {"TAPEQUIZ_SANDBOX_ENABLED": "false"}, [])
    try:
        result = _healthy(port)
        assert result.returncode == 0, result.stderr.decode()[-500:]
        assert (tmp_path / "data" / "tapequiz.db").exists()
    finally:
        server.terminate()
        server.wait(timeout=15)


@pytest.mark.sandbox
@pytest.mark.skipif(os.geteuid() == 0, reason="the image runs as a non-root user: see module doc")
def test_image_command_grades_code_as_non_root_under_docker_seccomp(tmp_path: Path) -> None:
    wrap = ["/usr/bin/python3", "-c", SECCOMP_EXEC, str(PROFILE)]
    server, port = _serve(tmp_path, {"TAPEQUIZ_SANDBOX_POOL_SIZE": "1"}, wrap)
    base = f"http://127.0.0.1:{port}"
    try:
        assert _healthy(port).returncode == 0
        assert _get(f"{base}/healthz")["sandbox"]["backend"] == "rootless"
        question = _get(f"{base}/api/questions/train-step")
        pack = REPO_ROOT / "questions" / "gradient-tape" / "train-step.yaml"
        source = yaml.safe_load(pack.read_text())["reference"]
        graded = _post(f"{base}/api/questions/train-step/grade", {"answer": source})
        assert (question["id"], graded["verdict"]) == ("train-step", "correct"), graded
        hostile = "import os\ndef train_step(model, optimizer, loss_fn, x, y):\n    os.fork()\n"
        contained = _post(f"{base}/api/questions/train-step/grade", {"answer": hostile})
        assert contained["verdict"] != "correct", contained
    finally:
        server.terminate()
        server.wait(timeout=30)
