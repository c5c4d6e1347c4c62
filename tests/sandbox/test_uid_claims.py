"""A uid claim's lock file is closed exactly once, however many threads release it."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from app.grading.sandbox import uids


@pytest.fixture
def locks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(uids, "LOCKS", tmp_path / "uids")
    return tmp_path / "uids"


def test_claims_differ_and_a_released_uid_is_claimed_again(locks: Path) -> None:
    first, second = uids.claim(70000), uids.claim(70000)
    assert (first.uid, second.uid) == (70000, 70001)
    first.release()
    again = uids.claim(70000)
    assert again.uid == 70000
    second.release()
    again.release()


def test_release_from_many_threads_at_once_closes_the_file_once(
    locks: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claim = uids.claim(70000)
    closed: list[int] = []
    real_close = os.close

    def slow_close(fd: int) -> None:  # widen the window between the check and the close
        closed.append(fd)
        time.sleep(0.05)
        real_close(fd)

    monkeypatch.setattr(uids.os, "close", slow_close)
    start = threading.Barrier(8)

    def release() -> None:
        start.wait()
        claim.release()

    threads = [threading.Thread(target=release) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(closed) == 1
    assert claim.fd == -1


def test_a_second_release_leaves_a_reused_descriptor_open(locks: Path) -> None:
    claim = uids.claim(70000)
    number = claim.fd
    claim.release()
    reader, writer = os.pipe()  # the lowest free numbers: very likely the claim's old one
    try:
        claim.release()
        os.fstat(reader)  # still open
        os.fstat(writer)
    finally:
        os.close(reader)
        os.close(writer)
    assert number >= 0
