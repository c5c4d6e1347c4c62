"""Unpacking uploaded zips: the pack shapes we accept and every hostile shape we refuse."""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path

import pytest

from app.services.instructor.pack_archives import ArchiveRefused, Limits, extract_pack

LIMITS = Limits(max_compressed=64 * 1024, max_unpacked=256 * 1024, max_files=10)
PACK = b"id: p\n"


def _zip(entries: list[tuple[str | zipfile.ZipInfo, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return buffer.getvalue()


def _symlink(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info


def _refusal(tmp_path: Path, data: bytes, limits: Limits = LIMITS) -> str:
    with pytest.raises(ArchiveRefused) as caught:
        extract_pack(data, tmp_path, limits)
    return " | ".join(caught.value.problems)


@pytest.mark.parametrize(
    "entries",
    [
        [("pack.yaml", PACK), ("q.yaml", b"id: q\n")],
        [("my-pack/pack.yaml", PACK), ("my-pack/q.yaml", b"id: q\n"), ("my-pack/", b"")],
        [("pack.yaml", PACK), ("README.md", b"# notes"), ("__MACOSX/._q.yaml", b"junk")],
    ],
)
def test_extract_pack_accepts_flat_or_one_folder(tmp_path: Path, entries: list) -> None:
    folder = extract_pack(_zip(entries), tmp_path, LIMITS)
    assert (folder / "pack.yaml").read_bytes() == PACK
    assert not (folder / "__MACOSX").exists()


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([("pack.yaml", PACK), ("../evil.yaml", b"x")], "leaves the pack folder"),
        ([("pack.yaml", PACK), ("a/../../evil.yaml", b"x")], "leaves the pack folder"),
        ([("pack.yaml", PACK), ("/etc/cron.d/evil.yaml", b"x")], "absolute paths"),
        ([("pack.yaml", PACK), ("C:/evil.yaml", b"x")], "absolute paths"),
        ([("pack.yaml", PACK), ("..\\evil.yaml", b"x")], "leaves the pack folder"),
        ([("pack.yaml", PACK), ("sub\\q.yaml", b"x")], "backslashes"),
        ([("pack.yaml", PACK), (_symlink("link.yaml"), b"/etc/passwd")], "symbolic links"),
        ([("pack.yaml", PACK), ("run.py", b"import os")], "only .yaml"),
        ([("pack.yaml", PACK), ("q.yml", b"id: q")], "rename to .yaml"),
        ([("pack.yaml", PACK), ("sub/q.yaml", b"id: q")], "sub-folders"),
        ([("q.yaml", b"id: q")], "pack.yaml not found"),
        ([("a/pack.yaml", PACK), ("b/q.yaml", b"id: q")], "pack.yaml not found"),
    ],
)
def test_extract_pack_refuses_hostile_entry(tmp_path: Path, entries: list, message: str) -> None:
    staging = tmp_path / "staging"
    staging.mkdir()
    assert message in _refusal(staging, _zip(entries))
    assert not (tmp_path / "evil.yaml").exists()


def test_extract_pack_refuses_duplicate_entry(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive, pytest.warns(UserWarning):
        archive.writestr("pack.yaml", PACK)
        archive.writestr("pack.yaml", PACK)
    assert "appears twice" in _refusal(tmp_path, buffer.getvalue())


def test_extract_pack_refuses_non_zip(tmp_path: Path) -> None:
    assert "not a zip file" in _refusal(tmp_path, b"PK\x03\x04 this is not really a zip")


def test_extract_pack_refuses_too_many_files(tmp_path: Path) -> None:
    entries = [("pack.yaml", PACK)] + [(f"q{i}.yaml", b"id: q") for i in range(10)]
    assert "11 files; the limit is 10" in _refusal(tmp_path, _zip(entries))


def test_extract_pack_refuses_oversized_upload(tmp_path: Path) -> None:
    small = Limits(max_compressed=100, max_unpacked=10_000, max_files=10)
    assert "larger than the limit of 100 bytes" in _refusal(
        tmp_path, _zip([("pack.yaml", PACK * 50)]), small
    )


def test_extract_pack_refuses_zip_bomb_by_declared_size(tmp_path: Path) -> None:
    bomb = _zip([("pack.yaml", PACK), ("q.yaml", b"\0" * 1_000_000)])
    assert len(bomb) < LIMITS.max_compressed
    assert "unpack to 1,000,006 bytes" in _refusal(tmp_path, bomb)


def test_extract_pack_refuses_entry_that_lies_about_its_size(tmp_path: Path) -> None:
    data = bytearray(_zip([("pack.yaml", PACK), ("q.yaml", b"a" * 5000)]))
    # Shrink the declared size of q.yaml in both headers: inflating must stop at the lie.
    for header, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = data.find(header, data.find(b"q.yaml") - 60 if header == b"PK\x03\x04" else 0)
        while start != -1:
            name_len = int.from_bytes(data[start + (26 if offset == 22 else 28) :][:2], "little")
            name_at = start + (30 if offset == 22 else 46)
            if bytes(data[name_at : name_at + name_len]) == b"q.yaml":
                data[start + offset : start + offset + 4] = (10).to_bytes(4, "little")
            start = data.find(header, start + 4)
    message = _refusal(tmp_path, bytes(data))
    assert "q.yaml" in message
