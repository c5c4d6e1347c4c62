"""Round 54 (W12): a pack's `_misconceptions.yaml` is read once per load.

`read_shared` parsed the file (`read_yaml`) and then read it again for the version digest, so a
file replaced between the two reads gave entries of one text and a digest of another (and two
reads per load). It now parses and hashes the same bytes, with `read_yaml`'s checks and their
messages kept.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.packs import shared as shared_module
from app.packs.shared import SHARED_FILE, read_shared
from app.packs.yamlfiles import MAX_FILE_BYTES
from tests.packs.test_shared_misconceptions import SHARED

OTHER = SHARED.replace("backwards.", "backwards, op by op.")


def _replaced_after_parsing(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Validation writes other bytes to the file: what a reader after the parse would see."""
    validate = shared_module.SharedMisconceptions.model_validate

    def validate_then_replace(data: object) -> object:
        path.write_text(OTHER)
        return validate(data)

    monkeypatch.setattr(shared_module.SharedMisconceptions, "model_validate", validate_then_replace)


def test_the_digest_is_of_the_bytes_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / SHARED_FILE
    path.write_text(SHARED)
    _replaced_after_parsing(monkeypatch, path)
    entries, problems = read_shared(tmp_path)
    assert problems == [] and entries.digest_bytes == SHARED.encode()


def test_a_broken_file_hashes_the_bytes_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / SHARED_FILE
    broken = SHARED.replace("misconceptions:", "misconceptions:\n  - tag: Not A Slug", 1)
    path.write_text(broken)
    _replaced_after_parsing(monkeypatch, path)
    entries, problems = read_shared(tmp_path)
    assert entries.broken and problems and entries.digest_bytes == broken.encode()


def test_the_file_is_opened_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / SHARED_FILE
    path.write_text(SHARED)
    opened: list[Path] = []
    path_open = Path.open

    def counting_open(self: Path, *args: object, **kwargs: object) -> object:
        opened.append(self)
        return path_open(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "open", counting_open)
    entries, problems = read_shared(tmp_path)
    assert problems == [] and entries.entries
    assert opened == [path]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.mkdir(), "not a regular file"),
        (lambda p: os.mkfifo(p), "not a regular file"),
        (lambda p: p.write_bytes(b"#" * (MAX_FILE_BYTES + 1)), "file is larger than 256 KiB"),
        (lambda p: p.write_bytes(b"misconceptions: \xff\n"), "file is not UTF-8 text"),
    ],
)
def test_the_checks_and_their_messages_are_kept(tmp_path: Path, make: object, message: str) -> None:
    make(tmp_path / SHARED_FILE)  # type: ignore[operator]
    entries, problems = read_shared(tmp_path)
    assert entries.broken and len(problems) == 1
    assert problems[0].line == 1 and problems[0].message.startswith(message)


def test_crlf_lines_read_as_before(tmp_path: Path) -> None:
    (tmp_path / SHARED_FILE).write_bytes(SHARED.replace("\n", "\r\n").encode())
    crlf, problems = read_shared(tmp_path)
    (tmp_path / SHARED_FILE).write_text(SHARED)
    assert problems == [] and crlf.entries == read_shared(tmp_path)[0].entries
