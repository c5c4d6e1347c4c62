"""Pack-declared contracts: a `checker:` block validates, and a contract id that is neither
built in nor declared is a problem reported at its file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.packs.loader import load_pack
from tests.conftest import FIXTURE_PACKS

DECLARED = """\
id: mini-scale
type: code
title: Scaled gradient
prompt: Return the gradient of half the sum of squares of a constant x.
difficulty: easy
topic: tapes
section: basics
hints: [Constants are not watched.]
explanation: A constant must be watched.
contract: scale-grad
function: scaled_gradient(x)
checker:
  setup: |
    import tensorflow as tf

    def make_inputs(seed):
        tf.random.set_seed(seed)
        return {"x": tf.random.normal([4, 3])}
  seeds: [0, 1]
  tf_function: true
  compare: [result]
  rtol: 1.0e-5
  atol: 1.0e-6
reference: |
  import tensorflow as tf

  def scaled_gradient(x):
      with tf.GradientTape() as tape:
          tape.watch(x)
          y = tf.reduce_sum(x**2) * 0.5
      return tape.gradient(y, x)
"""


def _pack_with(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "mini"
    shutil.copytree(FIXTURE_PACKS / "mini", folder)
    (folder / "mini-scale.yaml").write_text(text)
    return folder


def test_load_pack_accepts_declared_contract(tmp_path: Path) -> None:
    report = load_pack(_pack_with(tmp_path, DECLARED))
    assert report.problems == []
    assert report.pack is not None
    question = next(q.question for q in report.pack.questions if q.question.id == "mini-scale")
    assert question.checker is not None
    assert question.checker.seeds == [0, 1]


BROKEN = [
    # (old text, new text, expected line, expected message fragment)
    ("checker:\n", "unused:\n", 10, "unknown contract 'scale-grad'"),
    ("contract: scale-grad", "contract: train-step", 10, "'train-step' is a built-in contract"),
    ("rtol: 1.0e-5", "rtol: 0", 22, "rtol: Input should be greater than 0"),
    ("atol: 1.0e-6", "atol: -1.0", 23, "atol: Input should be greater than 0"),
    ("seeds: [0, 1]", "seeds: []", 19, "seeds: List should have at least 1 item"),
    ("seeds: [0, 1]", "seeds: [0, 1, 2, 3, 4, 5]", 19, "seeds: List should have at most 5"),
    ("seeds: [0, 1]", "seeds: [3, 3]", 19, "entries must be distinct"),
    ("compare: [result]", "compare: [gradients]", 21, "compare.0: Input should be"),
    ("def make_inputs(seed):", "def inputs(seed):", 13, "must define make_inputs(seed)"),
]


@pytest.mark.parametrize(("old", "new", "line", "fragment"), BROKEN)
def test_load_pack_reports_checker_problem_with_line(
    tmp_path: Path, old: str, new: str, line: int, fragment: str
) -> None:
    assert old in DECLARED, "test table out of date with the declared question"
    text = DECLARED.replace(old, new, 1)
    if old == "checker:\n":  # drop the whole block, not just its key
        text = text.split("unused:\n")[0] + "reference:" + text.split("reference:", 1)[1]
    report = load_pack(_pack_with(tmp_path, text))
    found = [p for p in report.problems if p.file.endswith("mini-scale.yaml")]
    assert [(p.line, fragment in p.message) for p in found] == [(line, True)], found


def test_load_pack_rejects_oversized_setup(tmp_path: Path) -> None:
    padding = "    # " + "x" * 70_000 + "\n"
    text = DECLARED.replace("    import tensorflow as tf\n", padding, 1)
    report = load_pack(_pack_with(tmp_path, text))
    assert any("setup: String should have at most 65536" in p.message for p in report.problems)
