"""Real throwaway servers for the scale-out tests: Redis and PostgreSQL from Debian, each on
a free port in a private folder, stopped at the end. Skipped when the binaries are absent
(scripts/install-system-deps installs both)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

PG_BIN = next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin"))), None)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


@contextmanager
def redis_server() -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server not installed (apt-get install redis-server)")
    pytest.importorskip("redis")
    port = free_port()
    folder = tempfile.mkdtemp(prefix="tapequiz-redis-")
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", folder]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def _as_postgres(*command: str) -> None:
    subprocess.run(["runuser", "-u", "postgres", "--", *command], check=True,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=60)  # fmt: skip


@contextmanager
def postgres_server() -> Iterator[str]:
    """A cluster listening on 127.0.0.1:<free port> (TCP: web processes connect like hosts)."""
    if PG_BIN is None or shutil.which("runuser") is None:
        pytest.skip("PostgreSQL server binaries not installed (apt-get install postgresql)")
    pytest.importorskip("psycopg")
    root = Path(tempfile.mkdtemp(prefix="tapequiz-pg-"))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    shutil.chown(root, "postgres")
    shutil.chown(sock, "postgres")
    port = free_port()
    _as_postgres(str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres")
    options = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off"
    log = str(root / "server.log")
    _as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", log, "-o", options, "-w", "start")
    try:
        _as_postgres(str(PG_BIN / "createdb"), "-h", str(sock), "-p", str(port), "tapequiz")
        yield f"postgresql://postgres@127.0.0.1:{port}/tapequiz"
    finally:
        _as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(root, ignore_errors=True)
