"""What the Dockerfile runs, exercised outside Docker (no engine here): its ENV, CMD and
HEALTHCHECK must start a serving app and report it healthy."""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

from app.config import REPO_ROOT

DOCKERFILE = (REPO_ROOT / "Dockerfile").read_text()


def _instruction(name: str) -> str:
    """The text of a (possibly continued) instruction, without the keyword."""
    match = re.search(rf"^{name}\s+((?:.*\\\n)*.*)$", DOCKERFILE, re.MULTILINE)
    assert match, f"Dockerfile has no {name}"
    return match.group(1).replace("\\\n", " ")


def _env() -> dict[str, str]:
    pairs = shlex.split(_instruction("ENV"))
    return dict(pair.split("=", 1) for pair in pairs)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_dockerfile_uses_slim_base_non_root_user_and_volume() -> None:
    assert re.search(r"^FROM python:3\.11-slim", DOCKERFILE, re.MULTILINE)
    assert re.search(r"^USER (?!root)\w+", DOCKERFILE, re.MULTILINE)
    assert json.loads(_instruction("VOLUME")) == [_env()["TAPEQUIZ_DATA_DIR"]]


def test_dockerfile_cmd_serves_and_healthcheck_passes(tmp_path: Path) -> None:
    env = {**os.environ, **_env(), "TAPEQUIZ_DATA_DIR": str(tmp_path / "data")}
    port = _free_port()
    env["TAPEQUIZ_HOST"], env["TAPEQUIZ_PORT"] = "127.0.0.1", str(port)
    cmd = json.loads(_instruction("CMD"))
    executable = str(Path(sys.executable).parent / cmd[0])
    server = subprocess.Popen([executable, *cmd[1:]], env=env, cwd=tmp_path)
    try:
        probe = _instruction("HEALTHCHECK").split(" CMD ", 1)[1].replace("8000", str(port))
        probe = probe.replace("python ", f"{sys.executable} ", 1)
        deadline = time.monotonic() + 60
        while True:
            result = subprocess.run(probe, shell=True, capture_output=True, timeout=10)
            if result.returncode == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        assert result.returncode == 0, result.stderr.decode()[-500:]
        assert (tmp_path / "data" / "tapequiz.db").exists()
    finally:
        server.terminate()
        server.wait(timeout=15)
