"""Hostile YAML in a pack file: each is refused with a readable problem at its line.

An uploaded pack is attacker-controlled text. Nesting deep enough to exhaust the parser's
recursion, aliases that expand a small file into millions of values, keys written twice
(the second silently wins) and a directory or pipe named like a question file were each
met in round 14 of product testing (a crash, an unbounded self-test, a silently dropped
field, a crash or a hang).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml

from app.packs import yamlfiles
from app.packs.loader import load_pack
from tests.conftest import FIXTURE_PACKS

MINI = FIXTURE_PACKS / "mini"


def _pack_with(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    (folder / name).write_text(text)
    return folder


def _problems(folder: Path) -> list[tuple[str, int, str]]:
    report = load_pack(folder)
    assert report.pack is None
    return [(Path(p.file).name, p.line, p.message) for p in report.problems]


def _single(extra: str) -> str:
    return (MINI / "mini-single.yaml").read_text() + extra


@pytest.mark.parametrize(
    "nesting",
    ["tags: " + "[" * 5000 + "]" * 5000 + "\n", "tags: " + "{a: " * 3000 + "1" + "}" * 3000],
)
def test_load_pack_refuses_deep_nesting_at_its_line(tmp_path: Path, nesting: str) -> None:
    problems = _problems(_pack_with(tmp_path, "mini-single.yaml", _single(nesting)))
    [(name, line, message)] = problems
    assert (name, line) == ("mini-single.yaml", 19)
    assert "nested more than" in message


def test_load_pack_refuses_alias_expansion(tmp_path: Path) -> None:
    laughs = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        laughs += f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]\n"
    problems = _problems(_pack_with(tmp_path, "mini-single.yaml", laughs + _single("")))
    [(name, line, message)] = problems
    assert (name, line) == ("mini-single.yaml", 1)
    assert "aliases" in message and "values" in message


def test_load_pack_refuses_many_samples_through_one_alias(tmp_path: Path) -> None:
    explain = (MINI / "mini-explain.yaml").read_text()
    samples = "samples:\n  - &s {answer: It records ops., verdict: correct}\n" + "  - *s\n" * 500
    problems = _problems(_pack_with(tmp_path, "mini-explain.yaml", explain + samples))
    assert any("samples" in m and "at most" in m for _, _, m in problems), problems


def test_load_pack_refuses_duplicate_key_at_second_line(tmp_path: Path) -> None:
    problems = _problems(_pack_with(tmp_path, "mini-single.yaml", _single("prompt: again\n")))
    assert problems == [("mini-single.yaml", 19, "duplicate key `prompt` (first on line 4)")]


def test_load_pack_refuses_duplicate_key_in_pack_meta(tmp_path: Path) -> None:
    meta = (MINI / "pack.yaml").read_text() + "id: other\n"
    problems = _problems(_pack_with(tmp_path, "pack.yaml", meta))
    assert problems == [("pack.yaml", 11, "duplicate key `id` (first on line 1)")]


def test_load_pack_refuses_directory_named_like_a_question(tmp_path: Path) -> None:
    folder = _pack_with(tmp_path, "mini-single.yaml", _single(""))
    (folder / "folder.yaml").mkdir()
    assert _problems(folder) == [("folder.yaml", 1, "not a regular file")]


def test_load_pack_refuses_pipe_named_like_a_question(tmp_path: Path) -> None:
    folder = _pack_with(tmp_path, "mini-single.yaml", _single(""))
    os.mkfifo(folder / "pipe.yaml")  # reading it would wait for a writer forever
    assert _problems(folder) == [("pipe.yaml", 1, "not a regular file")]


def test_pack_files_are_parsed_by_libyaml_when_pyyaml_has_it() -> None:
    # the pure-Python scanner made loading the core pack ~27x slower (benchmarks/pack_yaml.py)
    assert yamlfiles.LOADER is (yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)
