"""Round 53's merge (lead, issue 14): what the merged branches lost, held for the next round.

C52's guard on needs-zero-grad's bare `optimizer.zero_grad()` phrasing skips a unit that also
holds PyTorch's `backward()` or `optimizer.step()` (a "PyTorch:" block beside the TensorFlow one:
round 52's false tell on a correct answer). It does not read who the loop is said of, so the
whole PyTorch loop said of TensorFlow names nothing now (no tune answer has that shape; found by
the lead's probe at the merge, after the retrain had started). The shorter statements still name
the tag. The mend (the guard only where the loop is attributed to PyTorch) needs a rubric change
and a retrain: next round."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from app.grading.freetext.subjects import holds_verb
from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_the_tell

NZG, NEEDS = "no-zero-grad", "needs-zero-grad"

STILL_NAMED = [
    (NZG, NEEDS, "You have to call optimizer.zero_grad() at the start of every step."),
    (NZG, NEEDS, "Yes, TF also needs optimizer.zero_grad() before loss.backward() and optimizer.step(), otherwise the gradients pile up."),
]  # fmt: skip

LOST_AT_THE_MERGE = [
    (NZG, NEEDS, "In TensorFlow you call optimizer.zero_grad(), then loss.backward(), then optimizer.step(), same as PyTorch."),
]  # fmt: skip

test_round53_zero_grad_said_of_tensorflow_names_needs_zero_grad = names_the_tell(
    STILL_NAMED, tells=tells_by_rules
)

# Round 54 (C54): the guard reads who the loop is said of (PyTorch named before the call, or the
# call on a code line of its own); a plain test since.
test_round53_the_pytorch_loop_said_of_tensorflow_names_needs_zero_grad = names_the_tell(
    LOST_AT_THE_MERGE, tells=tells_by_rules
)


# The grading half at the merge: W11's colon reading joined a clause whose only verb stands
# before the full stop ("... the inner gradient is."): `holds_verb` took the stop for an
# identifier's dot, so round 40's true statement named `nested-tapes-need-persistent`.
def test_round53_a_verb_before_the_full_stop_is_a_verb() -> None:
    assert holds_verb("the outer tape recording the inner gradient is.", 0, 48)
    assert not holds_verb("call tape.reset() on the model.", 5, 17)
