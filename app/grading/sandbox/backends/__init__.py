"""Sandbox backends: how a worker's process tree is started, limited, measured and killed.

Every worker runs in the same bubblewrap sandbox (see `launcher`); what differs between hosts
is who enforces memory, processes and CPU priority, and how the whole tree is killed. One
backend is chosen once at start-up, strongest first, and the pool and workers use only the
two protocols below, never asking which one they got:

- `cgroup1`: root on a cgroup v1 host; a uid per worker, cgroup memory/pids/cpu.
- `cgroup2`: root, or an ordinary user owning a delegated subtree, on the unified hierarchy.
- `rootless`: an ordinary user with unprivileged user namespaces; the supervisor samples
  the tree's memory and kills it past the limit.
"""

from __future__ import annotations

import importlib
import logging
from typing import Protocol

from app.grading.sandbox.launcher import Limits

log = logging.getLogger(__name__)
ORDER = ("cgroup1", "cgroup2", "rootless")
CHOICES = ("auto", *ORDER)


class Unavailable(RuntimeError):
    """This backend cannot run here. The message is plain words for users: no host paths."""


class Tree(Protocol):
    """One sandboxed process tree (a worker and anything it starts)."""

    name: str
    pausable: bool  # False: never paused to make room for a job (a zygote: see rootless.py)

    def command(self, result_fd: int) -> tuple[list[str], dict[str, str]]:
        """argv and environment that start the worker inside this tree."""

    def started(self, pid: int) -> None:
        """The pid of the process `command` started (the tree's root on the host)."""

    def adopt(self, pid: int, handle: int) -> None:
        """Instead of `started`: move host `pid`, already running (a child a zygote forked,
        before it touched memory of its own), and all it starts later into this prepared tree.
        `handle` is a pidfd on it that the caller opened and checked (the backend did not spawn
        it, so its number alone may have changed hands): the tree signals through a copy of
        it, or raises ProcessLookupError if it ended before its number was used."""

    def set_busy(self) -> None:
        """The worker got a job: give it full CPU priority where the backend can."""

    async def watch(self) -> str:
        """Return the name of a limit the supervisor itself had to enforce (the tree is then
        already killed). Kernel-enforced backends never return: cancel it."""

    def kill(self) -> dict[str, int]:
        """SIGKILL the whole tree, wait until it is empty, release what it held; return the
        counters that name a breached limit (`oom_kills`, ...). Safe to call twice."""

    def processes(self) -> list[int]:
        """Host pids still in the tree (empty once killed)."""


class Backend(Protocol):
    name: str

    def prepare(self, name: str, limits: Limits) -> Tree:
        """Create an empty tree (blocking; run it in a thread). Raises OSError or Unavailable."""

    def sweep(self) -> None:
        """Remove what server instances that died left behind."""

    def close(self) -> None:
        """Remove this instance's own bookkeeping once every tree is killed."""


def load(name: str, *, uid_base: int) -> Backend:
    """Probe one backend; raises Unavailable with the reason it cannot run here."""
    module = importlib.import_module(f"{__name__}.{name}")
    backend: Backend = module.probe(uid_base=uid_base)
    return backend


def choose(wanted: str, *, uid_base: int) -> tuple[Backend | None, dict[str, str]]:
    """The strongest backend that works here (or exactly `wanted`), and why others did not."""
    refused: dict[str, str] = {}
    for name in ORDER if wanted == "auto" else (wanted,):
        try:
            return load(name, uid_base=uid_base), refused
        except Unavailable as err:
            refused[name] = str(err)
    return None, refused


def describe(backend: Backend | None, refused: dict[str, str]) -> str:
    """The start-up log line: what runs, and why the stronger ones did not."""
    why = "; ".join(f"{name}: {reason}" for name, reason in refused.items())
    if backend is None:
        return f"sandbox backend: none, code answers cannot be graded ({why})"
    return f"sandbox backend: {backend.name}" + (f" (not used: {why})" if why else "")
