"""Round 33 of issue 14 (engineer S1): the second opinion does not lower a correct answer on
the question's own words (docs/freetext-rounds.md "Round 33: the second opinion on topic
words"). Every answer to a question uses its prompt's words; learned from imbalance they
pulled rules-complete answers to partial (round 10's Keras option answers)."""

from __future__ import annotations

from app.grading.freetext import chain
from app.grading.freetext import second_opinion as so
from app.grading.freetext.evaluation import Row
from app.grading.freetext.fitting import Evidence
from tests.grading.core_questions import question

QID = "gradient-accumulation"
CLEAN = so.Evidence(frozenset({"a"}), 0.5, (), False)
TOPIC = frozenset({"gradient", "update"})


def test_topic_words_are_the_prompts_feature_words() -> None:
    words = so.topic_words(question(QID).prompt)
    assert {"gradient", "update", "accumulate", "loop"} <= words
    assert "the" not in words and "how" not in words  # stop and glue words are no features


def test_a_correct_answer_is_not_lowered_on_the_questions_own_words() -> None:
    model = so.Model({"w:gradient": -2.0, "w:update": -2.0}, 0.5)
    feats = {"w:gradient": 1.0, "w:update": 1.0}
    assert model.probability(feats) < so.LOWER
    assert so.second_verdict(model, feats, CLEAN, "correct") == "partial"  # as before
    assert so.second_verdict(model, feats, CLEAN, "correct", topic=TOPIC) == "correct"


def test_a_correct_answer_is_still_lowered_on_other_words() -> None:
    model = so.Model({"w:gradient": -2.0, "w:persistent": -3.0}, 0.5)
    feats = {"w:gradient": 1.0, "w:persistent": 1.0}
    assert so.second_verdict(model, feats, CLEAN, "correct", topic=TOPIC) == "partial"


def test_padding_with_topic_words_cannot_lower_what_it_could_not_before() -> None:
    """Leaving words out only keeps a verdict: with topic words the answer is lowered at
    most when it was without them."""
    model = so.Model({"w:gradient": 3.0, "w:persistent": -3.0}, 0.0)
    feats = {"w:gradient": 1.0, "w:persistent": 1.0}  # 0.5 with, 0.05 without
    assert so.second_verdict(model, feats, CLEAN, "correct") == "correct"
    assert so.second_verdict(model, feats, CLEAN, "correct", topic=TOPIC) == "correct"


def test_the_chain_leaves_the_prompts_words_out_as_the_grader() -> None:
    rubric = question(QID).rubric
    prepared = chain.prepare([], {QID: rubric}, prompts={QID: question(QID).prompt})
    assert prepared.topics[QID] == so.topic_words(question(QID).prompt)
    assert chain.prepare([], {QID: rubric}).topics == {}


def test_the_chain_keeps_a_correct_answer_on_topic_words() -> None:
    """Fold models learned where 'gradient' goes with partial: the left-out correct answer
    using it stays correct with the prompt given, and is lowered without it."""
    rubric = question(QID).rubric
    complete = Evidence.read(rubric, [c.id for c in rubric.concepts], [], False)

    def row(persona: str, n: int, label: str, answer: str) -> Row:
        return Row(QID, persona, "tune", label, "correct", (), (), 0.0, answer, "x.yaml", complete)

    rows = [row(f"p{n}", n, "partial", "gradient gradient update") for n in range(6)]
    rows += [row(f"c{n}", n, "correct", "sums divided apply once") for n in range(6)]
    rows.append(row("left", 0, "correct", "gradient update"))
    for prompts, verdict in (({QID: question(QID).prompt}, "correct"), (None, "partial")):
        prepared = chain.prepare(rows, {QID: rubric}, prompts=prompts)
        after = chain.chain_rows(rows, prepared, chain.by_persona)
        assert after[id(rows[-1])].verdict == verdict
