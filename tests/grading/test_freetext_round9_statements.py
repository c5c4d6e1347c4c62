"""Round 9 of issue 14 (engineer C2): phrasings for other people's words.

A sample of the statements four writers wrote for every rubric misconception of the ten
core questions, knowing each belief and its correction but not the phrasings (provenance in
`freetext_statements_r9.yaml`). Wrong statements must be named with their tag by the rules
alone; true statements written close to a belief must name nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from app.grading.freetext import grade_freetext
from tests.grading.core_questions import question

DATA = Path(__file__).with_name("freetext_statements_r9.yaml")
STATEMENTS = yaml.safe_load(DATA.read_text(encoding="utf-8"))
ROWS = [(s["kind"], (s["split"], s["question"], s["tag"], s["text"])) for s in STATEMENTS]
NAMED = [row for kind, row in ROWS if kind == "named"]
TRUE = [row for kind, row in ROWS if kind == "true"]


def test_the_sample_covers_both_splits_and_every_core_question() -> None:
    assert {s["split"] for s in STATEMENTS} == {"dev", "held"}
    assert len({s["question"] for s in STATEMENTS}) == 10
    assert len(NAMED) >= 40 and len(TRUE) >= 40


@pytest.mark.parametrize(("split", "question_id", "tag", "text"), NAMED)
def test_a_wrong_statement_in_another_writer_s_words_is_named(
    split: str, question_id: str, tag: str, text: str
) -> None:
    result = grade_freetext(question(question_id), text, second_opinion=False, neighbours=False)
    assert tag in result.misconceptions, (split, result.misconceptions)


@pytest.mark.parametrize(("split", "question_id", "tag", "text"), TRUE)
def test_a_true_statement_close_to_a_belief_names_nothing(
    split: str, question_id: str, tag: str, text: str
) -> None:
    result = grade_freetext(question(question_id), text, second_opinion=False, neighbours=False)
    assert result.misconceptions == [], (split, tag, result.misconceptions)
