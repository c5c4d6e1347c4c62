"""A learned tell's evidence reads a claim, not its topic (round 28).

learned_evidence.py lets a loose reading of a tell's phrasing miss one role. Missing an end of
an ordered phrasing left its topic: "(moving|bn) ~ (mean|variance) ~ (are|is) differentiable"
without its end is "moving mean", and the neighbours or the classifier named a tell on true
statements that only share it. Now only a ` ~ ` piece between the ends, or one of three or
more ` & ` roles, may be missing.
"""

from __future__ import annotations

from app.grading.freetext.grader import has_evidence
from app.grading.freetext.learned_evidence import loosened
from tests.grading.core_questions import question


def test_an_ordered_phrasing_may_miss_only_a_piece_between_its_ends() -> None:
    assert loosened(r"\ba\b ~ \bb\b ~ \bc\b ~ \bd\b") == [
        r"\ba\b ~ \bb\b ~ \bc\b ~ \bd\b",
        r"\ba\b & \bb\b & \bc\b & \bd\b",
        r"\ba\b & \bc\b & \bd\b",
        r"\ba\b & \bb\b & \bd\b",
    ]


def test_a_claim_may_miss_a_whole_role_or_a_piece_inside_one() -> None:
    assert loosened(r"\ba\b ~ \bb\b ~ \bc\b & \bd\b & \be\b") == [
        r"\ba\b ~ \bb\b ~ \bc\b & \bd\b & \be\b",
        r"\ba\b & \bb\b & \bc\b & \bd\b & \be\b",
        r"\bd\b & \be\b",
        r"\ba\b & \bb\b & \bc\b & \be\b",
        r"\ba\b & \bb\b & \bc\b & \bd\b",
        r"\ba\b & \bc\b & \bd\b & \be\b",
    ]


def test_two_roles_are_both_needed() -> None:
    assert loosened(r"\ba\b & \bb\b ~ \bc\b") == [
        r"\ba\b & \bb\b ~ \bc\b",
        r"\ba\b & \bb\b & \bc\b",
    ]


def _tell(qid: str, tag: str):
    return next(m for m in question(qid).rubric.misconceptions if m.tag == tag)


def test_the_statistics_named_as_a_topic_are_no_evidence_they_get_gradients() -> None:
    text = (
        "model.variables is not legacy - it is current Keras 3 API and lists every variable, "
        "including BatchNorm's moving mean and variance."
    )
    assert not has_evidence(_tell("trainable-vs-all-variables", "bn-stats-get-gradients"), text)


def test_a_persistent_tape_named_as_a_topic_is_no_evidence_it_gives_second_order() -> None:
    text = (
        "You can do it with a single persistent tape as long as you take the first gradient "
        "inside the with-block, so its ops get recorded."
    )
    tell = _tell("higher-order-derivatives", "persistent-gives-second-order")
    assert not has_evidence(tell, text)


def test_the_belief_with_its_ends_is_still_evidence() -> None:
    text = "The BN moving statistics are differentiable, so the optimizer moves them too."
    assert has_evidence(_tell("trainable-vs-all-variables", "bn-stats-get-gradients"), text)
