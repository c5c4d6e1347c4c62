"""The declared contract the sandbox suites grade: a pack question with a `checker:` block.

`scale-grad` (the gradient of half the sum of squares of a constant, two seeds, eager and
"tf.function" scenarios), its reference and its known-wrong answer, shared by the declared
contract's end-to-end tests, its replay's tests and the replay's id checks;
benchmarks/declared_question.yaml is the same question as a file.
"""

from __future__ import annotations

from typing import Any

from app.packs.schema import Code

SETUP = """\
import tensorflow as tf

def make_inputs(seed):
    tf.random.set_seed(seed)
    return {"x": tf.random.normal([4, 3])}
"""
REFERENCE = """\
import tensorflow as tf

def scaled_gradient(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x**2) * 0.5
    return tape.gradient(y, x)
"""
UNWATCHED = REFERENCE.replace("        tape.watch(x)\n", "")


def declared(setup: str = SETUP, **overrides: Any) -> Code:
    """The question with `setup` as its checker's; `overrides` replace any field."""
    data: dict[str, Any] = {
        "id": "scale-grad-question",
        "type": "code",
        "title": "Scaled gradient",
        "prompt": "Return the gradient of half the sum of squares of a constant x.",
        "difficulty": "easy",
        "topic": "tape-recording",
        "section": "what-a-tape-is",
        "hints": ["Constants are not watched."],
        "explanation": "A constant is only recorded when watched.",
        "contract": "scale-grad",
        "function": "scaled_gradient(x)",
        "checker": {"setup": setup, "seeds": [0, 1], "tf_function": True},
        "reference": REFERENCE,
        "wrong": [{"tag": "unwatched-constant", "label": "No tape.watch", "code": UNWATCHED}],
        **overrides,
    }
    return Code.model_validate(data)
