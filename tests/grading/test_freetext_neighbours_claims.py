"""Round 8 (issue 14): a tell the nearest labelled answers suggest must be stated.

A bag of words keeps "watch" and "persistent" but not the denial around them, so round 7's
suggestion named a tell on true one-sentence statements. It now needs a margin (at most
`UNTAGGED` of the 7 nearest answers carry no tag of the rubric), a single word that marks
the tag, and no marking word that the answer only denies while the answers voting for the
tag state it (read by the rules' own reader). The true statements below were written in
many shapes before any gate was tried (engineer N, round 8); with the neighbours on, none
may gain a tell. (Some already get one from the rules alone - that is the rules' reading,
measured in docs/freetext-rounds.md, not what this file checks.)"""

# ruff: noqa: E501 - answers read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext import grade_freetext
from app.grading.freetext import neighbours as nb
from tests.grading.core_questions import question

# The test suites' true statements that round 7's suggestion named a tell.
SUITE_STATEMENTS = [
    (
        "why-none-gradients",
        "Trainable variables are watched automatically; you never need tape.watch for them.",
    ),
    (
        "higher-order-derivatives",
        "Nest two tapes; persistent is not needed unless you call one tape's gradient more than once.",
    ),
    (
        "persistent-tape",
        "Delete it with del tape; otherwise Python only frees it when it goes out of scope.",
    ),
    (
        "trainable-vs-all-variables",
        "Frozen weights would get real gradients and the optimizer would train them again.",
    ),
    ("no-zero-grad", "In PyTorch you have to call zero_grad before each step."),
    ("training-flag", "The tape records the forward pass either way; the flag is about layers."),
]

TRUE_STATEMENTS = [
    # denials
    (
        "why-none-gradients",
        "You don't have to call tape.watch on trainable variables; the tape watches them itself.",
    ),
    ("why-none-gradients", "tape.watch is never needed for the model's weights."),
    ("why-none-gradients", "Watching the loss with tape.watch does not fix None gradients."),
    (
        "why-none-gradients",
        "Compiling the model has nothing to do with it; model.compile is not needed for tape.gradient.",
    ),
    (
        "no-zero-grad",
        "There is no zero_grad in TensorFlow: gradients are not accumulated between steps.",
    ),
    (
        "no-zero-grad",
        "You don't call it anywhere, because tape.gradient returns fresh gradients every time.",
    ),
    (
        "no-zero-grad",
        "Nothing needs zeroing; the tape does not keep gradients around after the step.",
    ),
    (
        "gradient-vs-apply",
        "tape.gradient does not touch the weights; it only returns the gradients.",
    ),
    (
        "gradient-vs-apply",
        "The weights never change when you call tape.gradient; only apply_gradients updates them.",
    ),
    (
        "persistent-tape",
        "A persistent tape is not free: it holds its recording until you delete it.",
    ),
    ("persistent-tape", "Tapes are not persistent by default, so the second gradient call raises."),
    (
        "higher-order-derivatives",
        "You don't need persistent=True for a second derivative, just two nested tapes.",
    ),
    (
        "higher-order-derivatives",
        "The inner tape's gradient must not be taken after the outer tape closes.",
    ),
    (
        "numpy-inside-tape",
        "The tape cannot record NumPy operations, so no error is raised but the gradient stops there.",
    ),
    (
        "numpy-inside-tape",
        "It does not give zero gradients; the variables before the conversion get None.",
    ),
    (
        "training-flag",
        "The flag does not decide whether gradients are recorded; the tape records either way.",
    ),
    (
        "training-flag",
        "Leaving it out does not stop learning, but dropout and BatchNorm behave as at inference.",
    ),
    (
        "tf-function-speedup",
        "tf.function does not move anything to the GPU; eager ops already run there.",
    ),
    ("tf-function-speedup", "It is not XLA by default; you have to ask for jit_compile=True."),
    (
        "trainable-vs-all-variables",
        "model.variables is not the same list: it also holds the non-trainable BatchNorm statistics.",
    ),
    (
        "gradient-accumulation",
        "TensorFlow does not accumulate gradients for you; you sum them yourself in a list of variables.",
    ),
    (
        "gradient-accumulation",
        "You must not apply after every micro-batch; apply once after the fourth.",
    ),
    # other frameworks
    ("no-zero-grad", "Unlike PyTorch, TensorFlow needs no zero_grad call."),
    (
        "no-zero-grad",
        "In PyTorch gradients accumulate in .grad, so you zero them there; TensorFlow has no such buffer.",
    ),
    (
        "gradient-vs-apply",
        "In PyTorch loss.backward() stores gradients on the parameters; in TensorFlow tape.gradient just returns them.",
    ),
    (
        "persistent-tape",
        "PyTorch has retain_graph=True; the TensorFlow equivalent is persistent=True.",
    ),
    # questions
    (
        "no-zero-grad",
        "Do you need zero_grad in TensorFlow? No, tape.gradient returns new gradients each step.",
    ),
    (
        "why-none-gradients",
        "Do you have to watch trainable variables? No, they are watched automatically.",
    ),
    (
        "persistent-tape",
        "Is the tape persistent by default? No; pass persistent=True to call gradient twice.",
    ),
    # reported beliefs and myths
    (
        "no-zero-grad",
        "People coming from PyTorch often think you need zero_grad, but TensorFlow does not.",
    ),
    (
        "why-none-gradients",
        "It's a myth that you must watch every variable; trainable ones are watched automatically.",
    ),
    (
        "gradient-vs-apply",
        "A common mistake is to think tape.gradient updates the weights - it does not.",
    ),
    # hedged refusals, counterfactuals
    (
        "training-flag",
        "I wouldn't say the flag turns gradients on; it only changes how some layers behave.",
    ),
    (
        "gradient-vs-apply",
        "If tape.gradient updated the weights, you would not need an optimizer at all.",
    ),
    (
        "no-zero-grad",
        "If the tape accumulated gradients you would need to reset them, but it doesn't.",
    ),
]


@pytest.mark.parametrize(("qid", "text"), SUITE_STATEMENTS + TRUE_STATEMENTS)
def test_a_true_statement_gains_no_tell(qid: str, text: str) -> None:
    q = question(qid)
    assert grade_freetext(q, text, neighbours=True) == grade_freetext(q, text, neighbours=False)


def test_a_misconception_in_new_words_is_still_named() -> None:
    # Round 11's strict xfail (the neighbours never named it: the nearest answer is 0.13
    # alike). Since round 13 the rules read "moves the weights" as an update of them
    # (lemmas._UPDATE_VERB), so the tell is named with the neighbours on or off.
    q = question("gradient-vs-apply")
    text = "tape.gradient already moves the weights a little; apply_gradients just finalises it."
    for neighbours in (False, True):
        result = grade_freetext(q, text, neighbours=neighbours)
        assert result.misconceptions == ["gradient-updates-weights"]


VOTERS = [
    "You must call tape.watch on every variable or it is not recorded.",
    "Each weight needs tape.watch before the forward pass.",
    "Call tape.watch on the trainable variables first.",
]


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("Always call tape.watch on the weights.", True),
        ("You never need tape.watch for trainable weights.", False),
        ("tape.watch is not needed for them.", False),
        ("In PyTorch you would call tape.watch on them.", False),  # another framework
        ("Do you need tape.watch? It is automatic.", False),  # a question states nothing
        ("", True),  # no text to read: nothing denied
    ],
)
def test_reads_a_marking_word_as_the_voters_state_it(text: str, stated: bool) -> None:
    assert nb.reads_as_stated(text, ["tape.watch"], VOTERS) is stated


def test_a_denial_the_voters_share_is_no_conflict() -> None:
    voters = ["You do not need apply_gradients; tape.gradient already updates them."] * 3
    assert nb.reads_as_stated("No need for apply_gradients here.", ["apply_gradients"], voters)


def _entry(question_id: str, text: str, tags: tuple[str, ...]) -> nb.Entry:
    """A labelled answer as the shipped index holds it: its words and its text (round 11:
    the voters' text says which marking words they state)."""
    return nb.Entry(question_id, nb.bag(text), tags, text)


def _index(near: int, untagged: int) -> nb.Index:
    said = "the optimizer resets the gradients after each step for you"
    entries = [_entry("q", f"{said} variant {i}", ("resets",)) for i in range(near)]
    entries += [_entry("q", f"{said} other {i}", ()) for i in range(untagged)]
    entries += [_entry("q", f"tape returns fresh tensors {i}", ()) for i in range(40)]
    entries += [_entry("other", f"filler words {i} apple pear", ()) for i in range(20)]
    return nb.build_index(entries)


@pytest.mark.parametrize(("near", "untagged", "named"), [(5, 2, True), (4, 3, False), (7, 0, True)])
def test_needs_a_margin_over_untagged_neighbours(near: int, untagged: int, named: bool) -> None:
    said = nb.bag("the optimizer resets the gradients after each step for you")
    tag = nb.nearest_tag(_index(near, untagged), "q", said, ["resets"])
    assert (tag == "resets") is named


def _ordered_index(extra: str) -> nb.Index:
    """Tagged and untagged answers with the same words in another order: only word pairs
    (and `extra`, if given) tell the tagged ones apart."""
    tagged = [_entry("q", f"weights update gradient step {extra}", ("t",))] * 5
    untagged = [_entry("q", "gradient update weights step", ())] * 12
    filler = [_entry("other", f"filler words {i} apple pear", ()) for i in range(20)]
    return nb.build_index([*tagged, *untagged, *filler])


def test_word_pairs_alone_do_not_mark_a_tell() -> None:
    said = nb.bag("weights update gradient step")
    assert nb.speaks_of(_ordered_index(""), "q", said, "t")  # round 7 would name it
    assert nb.nearest_tag(_ordered_index(""), "q", said, ["t"]) is None
    said = nb.bag("weights update gradient step always")
    assert nb.nearest_tag(_ordered_index("always"), "q", said, ["t"]) == "t"


def test_a_marking_word_in_an_open_condition_is_not_stated() -> None:
    voters = ["You pass model.variables instead and it trains fine."] * 3
    text = "If you pass model.variables instead, the frozen layers get trained too."
    assert not nb.reads_as_stated(text, ["model.variables"], voters)


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("Delete it with del tape; otherwise Python only frees it when it goes out of scope.",
         False),
        ("Call del tape, otherwise it lingers until it goes out of scope.", False),
        ("Nothing to do: it is freed when it goes out of scope.", True),
        ("Otherwise fine. It is freed when it goes out of scope.", True),
    ],
)  # fmt: skip
def test_a_marking_word_only_after_otherwise_is_not_stated(text: str, stated: bool) -> None:
    voters = ["Nothing special, it gets cleaned up when it goes out of scope."] * 3
    assert nb.reads_as_stated(text, ["scope"], voters) is stated
