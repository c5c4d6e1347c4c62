"""Round 29 of issue 14 (engineer M): three places where the matcher, not a phrasing, read an
answer wrong (round 28's "left" part, docs/freetext-rounds.md "Round 29: clauses, code lines and
denials (engineer M)").

1. A relative clause after a statement that names another framework ("..., which is what you
   would fix with zero_grad in PyTorch") is that clause's own statement: the TensorFlow claim
   before it keeps its topic. Likewise a comparison after it ("..., the same way it happens in
   JAX", "..., as step() does in PyTorch") compares, it does not scope.
2. A prose line that opens with a decorator or a call ("@tf.function does not escape the GIL; ...",
   "jax.grad(f) returns a function (not a tape)") is code only if Python parses it.
3. A denial after the verb and its object, as German, Dutch and Scandinavian speakers place it
   ("it updates the variables not", "you need zero_grad not") denies the statement.

Statements written for this file, in words of their own; read by the rules alone."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import pytest

from app.grading.freetext.normalise import split_units
from app.grading.freetext.polarity import denied_after_verb
from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    # 1. a relative clause or a comparison after the statement, naming another framework
    ("no-zero-grad", "tape-accumulates", "The tape keeps summing gradients across steps, which is what you would fix with zero_grad in PyTorch."),
    ("no-zero-grad", "tape-accumulates", "Gradients pile up in the tape from step to step, which is the reason zero_grad exists in PyTorch Lightning."),
    ("no-zero-grad", "tape-accumulates", "The tape accumulates gradients between steps, the same way it happens in JAX with a manual sum."),
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient updates the weights directly, which is what optimizer.step() does in PyTorch."),
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient updates the weights in place, as step() does in PyTorch."),
    # 2. a prose line opening with a decorator
    ("gradient-vs-apply", "gradient-updates-weights", "@tf.function updates the weights when it runs tape.gradient."),
    # 3. words after the statement that are no denial of it
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient updates the weights more often than not."),
]  # fmt: skip

CORRECT = [
    # 1. a later mention that scopes the statement still does
    ("no-zero-grad", "Gradients accumulate across steps, at least in PyTorch."),
    ("no-zero-grad", "Gradients accumulate across steps as long as you stay in PyTorch."),
    ("no-zero-grad", "Gradients accumulate across steps, that is how it works in PyTorch."),
    ("no-zero-grad", "In Lightning, gradients accumulate across steps until you zero them."),
    ("no-zero-grad", "Gradients accumulate across steps, at least in Lightning."),
    # 2. a decorator line is prose when it is a sentence: its denial is read
    ("tf-function-speedup", "@tf.function does not escape the GIL; the gain is that the graph runs without per-op Python overhead."),
    ("tf-function-speedup", "@tf.function never runs loop iterations in parallel threads, it removes the Python dispatch per op."),
    ("gradient-vs-apply", "@tf.function does not change what tape.gradient does: it computes the gradients and updates no weights."),
    # 3. a denial after the verb and its object
    ("gradient-vs-apply", "tape.gradient gives you the gradients as tensors; it updates the variables not."),
    ("gradient-vs-apply", "tape.gradient modifies the weights never, that is the job of apply_gradients."),
    ("gradient-vs-apply", "tape.gradient changes the model not directly, apply_gradients does the assign_sub."),
    ("no-zero-grad", "In TensorFlow you need zero_grad not, every gradient call starts from zero."),
    ("why-none-gradients", "Variables you must watch not, the tape tracks trainable ones on its own."),
]  # fmt: skip


test_grade_freetext_names_a_round29_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round29_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)


@pytest.mark.parametrize(
    "line",
    [
        "@tf.function turns the step into a graph, so Python overhead goes away.",
        "@jax.jit compiles the function with XLA",
        "jax.grad(f) returns a function, unlike the tape (which is an object)",
        "tape.gradient(loss, w) returns the gradients (as tensors)",
    ],
)
def test_a_sentence_opening_with_a_decorator_or_call_is_prose(line: str) -> None:
    units = split_units(line)
    assert [u.is_code for u in units] == [False]


@pytest.mark.parametrize(
    "code",
    [
        "@tf.function\ndef step(x):\n    return x",
        "@tf.function(jit_compile=True)",
        "print(tape.gradient(y, x))",
        "opt.apply_gradients(zip(grads, model.trainable_variables))",
    ],
)
def test_a_decorator_or_call_line_that_python_parses_stays_code(code: str) -> None:
    assert all(u.is_code for u in split_units(code))


def test_a_call_shaped_sentence_keeps_its_own_paragraph() -> None:
    units = split_units(
        "tape.gradient(loss, w) returns the gradients (as tensors)\n"
        "apply_gradients(zip(g, v)) then updates the weights."
    )
    assert [u.text for u in units] == [
        "tape.gradient(loss, w) returns the gradients (as tensors)",
        "apply_gradients(zip(g, v)) then updates the weights.",
    ]


@pytest.mark.parametrize(
    ("text", "after", "denied"),
    [
        ("it updates the variables not.", "variables", True),
        ("it updates the variables not at all.", "variables", True),
        ("you need zero_grad here never.", "zero_grad", True),
        ("it updates the variables or not.", "variables", False),
        ("it updates the variables more often than not.", "variables", False),
        ("it updates the variables not only in eager mode.", "variables", False),
        ("it updates the variables, not the gradients.", "variables", False),
    ],
)
def test_a_denial_closing_the_clause_after_its_verb(text: str, after: str, denied: bool) -> None:
    end = text.index(after) + len(after)
    assert denied_after_verb(text, end) is denied


def test_a_hinglish_sentence_keeps_its_own_denials() -> None:
    # the English-order twin of a code-switched sentence may leave a "not" after a verbless
    # clause ("... zero_grad zaroorat not": the need is denied, not what comes before it)
    twin = "optimizer khud clear gradient, so zero_grad zaroorat of likhne not."
    written = "optimizer khud gradients ko clear karta hai, toh zero_grad likhne ki zaroorat nahi."
    end = twin.index("zero_grad") + len("zero_grad")
    assert denied_after_verb(twin, end)
    assert not denied_after_verb(twin, end, written)
