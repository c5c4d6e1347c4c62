"""The embedding verdict as shipped (round 22, docs/freetext-rounds.md "Round 22: the embedding
verdict, wired (engineer E3)"): behind `freetext_embedding_verdict`, off by default; it moves
a verdict only where it is at least 0.7 sure, only along the second opinion's moves, never on
an answer with a tell, a keyword list, an injection or no answer; without its encoder (file
missing or different, package missing) grading goes on without it, logged once; with it off
the process never imports onnxruntime; padding never reaches the encoder."""

from __future__ import annotations

import json
import logging
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.config import REPO_ROOT, Settings, get_settings
from app.grading.freetext import embedding_verdict as ev
from app.grading.freetext import encoder, grader
from app.grading.freetext import second_opinion as so
from app.grading.freetext.fitting import Evidence
from app.grading.freetext.grader import grade_freetext
from app.grading.results import GradeResult
from tests.grading.core_questions import question

QUESTION = "why-none-gradients"
# written for this test (not a labelled answer): partial-ish, no tell
ANSWER = (
    "The gradients are None because the loss was computed outside the tape's context, so "
    "the tape never recorded the operations that connect the loss to the variables."
)
PLAIN = Evidence(frozenset({"a"}), 0.5, (), False)


def head(p: tuple[float, float, float]) -> ev.Head:
    """A model whose probabilities are `p` (incorrect, partial, correct) for any answer."""
    return ev.Head({}, [[0.0, 0.0, 0.0]] * ev.DIMENSIONS, [math.log(x) for x in p])


VECTOR = [0.0] * ev.DIMENSIONS


@pytest.fixture
def settings_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    get_settings.cache_clear()
    encoder.forget_encoder()
    yield monkeypatch
    monkeypatch.undo()
    get_settings.cache_clear()
    encoder.forget_encoder()


def test_the_setting_is_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAPEQUIZ_FREETEXT_EMBEDDING_VERDICT", raising=False)
    assert Settings().freetext_embedding_verdict is False
    monkeypatch.setenv("TAPEQUIZ_FREETEXT_EMBEDDING_VERDICT", "true")
    assert Settings().freetext_embedding_verdict is True


def test_it_moves_only_where_at_least_0_7_sure() -> None:
    assert ev.moved_verdict(head((0.1, 0.2, 0.7)), VECTOR, {}, "partial", (), PLAIN) == "correct"
    assert ev.moved_verdict(head((0.1, 0.21, 0.69)), VECTOR, {}, "partial", (), PLAIN) == "partial"
    assert ev.moved_verdict(head((0.8, 0.1, 0.1)), VECTOR, {}, "partial", (), PLAIN) == "incorrect"
    assert ev.moved_verdict(head((0.1, 0.8, 0.1)), VECTOR, {}, "correct", (), PLAIN) == "partial"


def test_it_never_moves_an_answer_with_a_tell_no_credit_or_no_answer() -> None:
    sure = head((0.01, 0.01, 0.98))
    assert ev.moved_verdict(sure, VECTOR, {}, "partial", ("a-tell",), PLAIN) == "partial"
    no_credit = Evidence(frozenset({"a"}), 0.5, (), True)  # keyword list, injection
    assert ev.moved_verdict(sure, VECTOR, {}, "partial", (), no_credit) == "partial"
    empty = Evidence(frozenset(), 0.0, (), False, empty=True)
    assert ev.moved_verdict(sure, VECTOR, {}, "partial", (), empty) == "partial"


def test_it_moves_only_as_the_second_opinion_does() -> None:
    """Never raises an incorrect answer, never lowers a correct one past partial."""
    assert ev.moved_verdict(head((0.01, 0.01, 0.98)), VECTOR, {}, "incorrect", (), PLAIN) == (
        "incorrect"
    )
    assert ev.moved_verdict(head((0.01, 0.98, 0.01)), VECTOR, {}, "incorrect", (), PLAIN) == (
        "incorrect"
    )
    assert ev.moved_verdict(head((0.98, 0.01, 0.01)), VECTOR, {}, "correct", (), PLAIN) == (
        "correct"
    )


def _result(verdict: str, misconceptions: list[str], **details: object) -> GradeResult:
    return GradeResult(
        verdict=verdict,  # type: ignore[arg-type]
        score=0.5,
        feedback=[],
        misconceptions=misconceptions,
        details={"concepts_found": [], "keyword_list": False, **details},
    )


def test_in_the_grader_an_answer_naming_a_tell_is_not_moved_nor_encoded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    q = question(QUESTION)
    tag = q.rubric.misconceptions[0].tag
    monkeypatch.setattr(grader, "head_for", lambda *_: head((0.01, 0.01, 0.98)))
    encoded: list[str] = []
    monkeypatch.setattr(grader, "shared_encoder", lambda: lambda t: encoded.append(t) or VECTOR)
    tell = _result("partial", [tag])
    assert grader.with_embedding_verdict(q, ANSWER, tell, tell) is tell
    listed = _result("partial", [], keyword_list=True)
    assert grader.with_embedding_verdict(q, ANSWER, listed, listed) is listed
    wrong = _result("incorrect", [])  # no move starts at incorrect: not even encoded
    assert grader.with_embedding_verdict(q, ANSWER, wrong, wrong) is wrong
    assert encoded == []
    # every required concept found (round 27: no raise with one missing)
    plain = _result("partial", [], concepts_found=[c.id for c in q.rubric.concepts if c.required])
    moved = grader.with_embedding_verdict(q, ANSWER, plain, plain)
    assert (moved.verdict, moved.details["embedding_verdict"]) == ("correct", "raised")
    assert encoded == [ev.embedded_text(ANSWER)]


def test_a_missing_or_wrong_model_file_grades_with_the_chain_logged_once(
    settings_env: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    q = question(QUESTION)
    settings_env.setattr(grader, "head_for", lambda *_: head((0.01, 0.01, 0.98)))
    without = grade_freetext(q, ANSWER, embedding_verdict=False)
    for path in (tmp_path / "missing.onnx", tmp_path / "wrong.onnx"):
        if path.name == "wrong.onnx":
            path.write_bytes(b"not a model")
        settings_env.setenv("TAPEQUIZ_FREETEXT_EMBEDDING_VERDICT", "true")
        settings_env.setenv("TAPEQUIZ_FREETEXT_ENCODER_PATH", str(path))
        get_settings.cache_clear()
        encoder.forget_encoder()
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="app.grading.freetext.encoder"):
            first = grade_freetext(q, ANSWER)
            second = grade_freetext(q, ANSWER)
        assert first == second == without
        warnings = [r.getMessage() for r in caplog.records]
        assert len(warnings) == 1, warnings
        assert str(path) in warnings[0]
        assert ("missing" if path.name == "missing.onnx" else "sha256") in warnings[0]


def test_the_web_process_does_not_import_onnxruntime_when_off() -> None:
    code = (
        "import sys; import app.main; "
        "from app.grading.freetext.grader import grade_freetext; "
        "from tests.grading.core_questions import question; "
        f"grade_freetext(question({QUESTION!r}), {ANSWER!r}); "
        "print(sorted(m for m in ('onnxruntime', 'tokenizers') if m in sys.modules))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAPEQUIZ_FREETEXT_")}
    env["PYTHONPATH"] = str(REPO_ROOT)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO_ROOT
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_padding_never_reaches_the_encoder() -> None:
    """The second opinion's top words appended (as `--second-opinion-padding`) are cut
    before the text is encoded."""
    q = question(QUESTION)
    model = so.model_for(q.id, q.rubric)
    assert model is not None
    ranked = sorted(
        ((w, k[2:]) for k, w in model.weights.items() if k.startswith("w:") and w > 0),
        reverse=True,
    )
    top = [word for _, word in ranked[:30]]
    for pad in (" ".join(top[:10]), " ".join(top), ", ".join(top[:10]) + "."):
        # a comma list's full stop is left behind: one piece, no word
        padded = ev.embedded_text(f"{ANSWER} {pad}").removesuffix(" .")
        assert padded == ev.embedded_text(ANSWER), pad


def test_the_inputs_hash_reads_labels_and_the_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    one = ev.Example("q", "p", "partial", "text", {"v:partial": 1.0})
    base = ev.inputs_hash([one])
    relabelled = ev.Example("q", "p", "correct", "text", {"v:partial": 1.0})
    assert ev.inputs_hash([relabelled]) != base
    monkeypatch.setattr(ev, "INT8_SHA256", "0" * 64)
    assert ev.inputs_hash([one]) != base


# Round 25: the first reader in a worker grades every labelled answer (core_rules_rows).
@pytest.mark.timeout(1200)
def test_the_shipped_artefact_is_trained_on_the_current_inputs() -> None:
    """Not a retrain (onnxruntime's int8 kernels may differ by CPU): the hash of what a
    training reads."""
    if not ev.ARTEFACT.is_file():
        pytest.skip(f"{ev.ARTEFACT.name} not built: python -m {ev.__name__} train")
    shipped = json.loads(ev.ARTEFACT.read_text(encoding="utf-8"))
    assert shipped["encoder_sha256"] == encoder.INT8_SHA256
    assert shipped["inputs"] == ev.inputs_hash(ev.tune_examples()[0])


def test_the_installed_encoder_gives_unit_vectors_at_any_length() -> None:
    """With the `embedding` extra and its int8 file (`make venv` builds both)."""
    pytest.importorskip("onnxruntime")
    path = encoder.configured_path()
    if not path.is_file():
        pytest.skip(f"{path} not built: python -m app.grading.freetext.encoder quantize")
    encode = encoder.Encoder(path)
    for text in (ANSWER, "gradient " * 2000):  # past MAX_PIECES: truncated
        vector = encode(text)
        assert len(vector) == ev.DIMENSIONS
        assert abs(sum(v * v for v in vector) - 1) < 1e-3


def test_a_reading_without_the_second_opinion_reads_no_embedding_verdict(
    settings_env: pytest.MonkeyPatch,
) -> None:
    """Round 22 (lead): the rules alone (`second_opinion=False`, as benchmarks and
    evaluation.py read them) stay the rules alone with the setting on."""
    q = question(QUESTION)
    settings_env.setenv("TAPEQUIZ_FREETEXT_EMBEDDING_VERDICT", "true")
    get_settings.cache_clear()
    called: list[str] = []
    settings_env.setattr(
        grader, "with_embedding_verdict", lambda *args: called.append("moved") or args[-1]
    )
    grade_freetext(q, ANSWER, second_opinion=False)
    assert called == []
    grade_freetext(q, ANSWER)
    assert called == ["moved"]
