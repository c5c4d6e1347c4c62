"""GIFT export and import: escaping, every exported type, choice import that validates."""

from __future__ import annotations

import pytest
import yaml
from pydantic import TypeAdapter

from app.packs.loader import load_pack
from app.packs.schema import ChoiceQuestionBase, Question, SingleChoice
from app.services.instructor.gift import escape, export_pack, export_question, import_gift, unescape
from tests.services.instructor_fakes import EXAMPLE

SAMPLE = r"""
// A comment line is ignored.
::Tape scope::Which block records operations? {
  =The tape's with block#Right.
  ~The optimizer#It only applies gradients.
  ~The loss function
  ####Only ops inside the block are recorded.
}

::Watched::[markdown]Which are watched automatically? {
  ~%50%Trainable variables
  ~%50%A Dense kernel
  ~%-100%A tf.constant\: no
}

::Claim::tape.gradient updates the weights. {F}

::Short::Name the method that applies gradients. {=apply_gradients =apply}

::Match::Pair them. {=a -> b =c -> d}

::Escapes::What does x \= 1\; y \{2\} mean\? {=It uses \~ and \# chars ~Nothing}
"""


@pytest.mark.parametrize("text", ["a ~ b = c # d { e } f : g", "line one\nline two", "plain"])
def test_escape_then_unescape_round_trips(text: str) -> None:
    assert unescape(escape(text)) == text


def test_escape_hides_every_special_character() -> None:
    assert escape("~=#{}:") == r"\~\=\#\{\}\:"


def _example():
    report = load_pack(EXAMPLE)
    assert report.pack is not None
    return report.pack


def test_export_pack_skips_ordering_and_code() -> None:
    text = export_pack(_example())
    for exported in (
        "ex-what-records",
        "ex-watched-automatically",
        "ex-gradient-updates",
        "ex-predict-constant",
        "ex-explain-none",
    ):
        assert f"// {exported} (" in text
    for skipped in ("ex-order-step", "ex-write-train-step", "ex-fix-apply"):
        assert skipped not in text


def test_export_multiple_choice_splits_weight_between_correct_choices() -> None:
    question = next(
        q.question for q in _example().questions if q.question.id == "ex-watched-automatically"
    )
    text = export_question(question)
    assert text is not None
    assert text.count("~%50%") == 2 and text.count("~%-100%") == 2


def test_export_true_false_writes_answer_keyword() -> None:
    question = next(
        q.question for q in _example().questions if q.question.id == "ex-gradient-updates"
    )
    assert "{FALSE\n" in (export_question(question) or "")


def test_import_gift_reads_choice_and_true_false_only() -> None:
    imported, skipped = import_gift(SAMPLE)
    assert [(q.id, q.type) for q in imported] == [
        ("tape-scope", "single-choice"),
        ("watched", "multiple-choice"),
        ("claim", "true-false"),
        ("escapes", "single-choice"),
    ]
    assert [s.title for s in skipped] == ["Short", "Match"]


def _parsed(yaml_text: str) -> Question:
    data = yaml.safe_load(yaml_text)
    return TypeAdapter(Question).validate_python(data)


def test_import_gift_yaml_validates_against_the_schema() -> None:
    imported, _ = import_gift(SAMPLE)
    questions = [_parsed(q.yaml) for q in imported]
    single = questions[0]
    assert isinstance(single, SingleChoice)
    assert single.correct_ids() == {"a"} and single.choices[1].why == "It only applies gradients."
    assert single.explanation == "Only ops inside the block are recorded."


def test_import_gift_unescapes_special_characters() -> None:
    imported, _ = import_gift(SAMPLE)
    question = _parsed(imported[-1].yaml)
    assert isinstance(question, ChoiceQuestionBase)
    assert question.prompt == "What does x = 1\\; y {2} mean\\?"
    assert question.choices[0].text == "It uses ~ and # chars"


def test_import_gift_avoids_taken_ids() -> None:
    imported, _ = import_gift(SAMPLE, prefix="m-", taken={"m-tape-scope"})
    assert imported[0].id == "m-tape-scope-2"


def test_export_then_import_keeps_choice_keys() -> None:
    pack = _example()
    imported, _ = import_gift(export_pack(pack))
    originals = [q.question for q in pack.questions if isinstance(q.question, ChoiceQuestionBase)]
    round_tripped = [
        q for q in map(_parsed, (i.yaml for i in imported)) if isinstance(q, ChoiceQuestionBase)
    ]
    for original, copy in zip(originals, round_tripped, strict=True):
        assert [c.text for c in copy.choices] == [c.text for c in original.choices]
        assert [c.correct for c in copy.choices] == [c.correct for c in original.choices]
