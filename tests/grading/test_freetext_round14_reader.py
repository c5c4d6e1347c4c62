"""Round 14 (engineer R): a sentence whose subject is "it" or "they" states its claim about
the sentence before's subject. Statements written before the change; *_HELD lists were
run once before it, to see them fail, and once at the end (docs/freetext-rounds.md
"Round 14: reader (engineer R)"). Rules alone.
"""

# ruff: noqa: E501 - statements read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules as _tells
from tests.grading.held_statements import names_nothing, names_the_tell

# Each one's subject is in the sentence before; in one sentence ("tape.gradient updates
# the weights ...", "The tape sums the gradients across steps") the tell is named.
PRONOUN_WRONG = [
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient does the heavy lifting. It updates the weights using the gradients it computes."),
    ("no-zero-grad", "tape-accumulates", "The tape? It sums the gradients across steps."),
    ("no-zero-grad", "tape-accumulates", "GradientTape is the culprit here. It accumulates gradients between steps."),
]  # fmt: skip
PRONOUN_WRONG_HELD = [
    ("gradient-vs-apply", "gradient-updates-weights", "tape.gradient is where the learning happens. It changes the model's variables directly."),
    ("no-zero-grad", "tape-accumulates", "The GradientTape is clever. It keeps summing gradients across steps until you reset it."),
]  # fmt: skip
# Named before the change too: the tell's phrasing opens on "it" itself.
PRONOUN_KEPT = [
    ("numpy-inside-tape", "numpy-is-recorded", "The tape is smart. It records numpy ops too."),
]  # fmt: skip
# A denial in the pronoun's sentence, another subject after it, a question before it.
PRONOUN_TRUE = [
    ("gradient-vs-apply", "tape.gradient computes the gradients. It does not update the weights; apply_gradients does."),
    ("gradient-vs-apply", "tape.gradient returns a list of tensors. They are then passed to apply_gradients, which updates the weights."),
    ("numpy-inside-tape", "The tape records TensorFlow ops only. It cannot see NumPy maths."),
]  # fmt: skip
PRONOUN_TRUE_HELD = [
    ("gradient-vs-apply", "tape.gradient only reads the tape. It leaves the variables untouched."),
    ("gradient-vs-apply", "Does tape.gradient update the weights? It does not; it only returns gradients."),
]  # fmt: skip
# Written and dropped after the first run, before any tuning: "The tape? It adds the new
# gradients to the old ones every step" (tape-accumulates) and "NumPy calls inside the tape
# are fine. They are recorded like any TensorFlow op" (numpy-is-recorded) - neither is
# named as one sentence either ("The tape adds ...", "NumPy calls inside the tape are
# recorded ..."): no phrasing reads those words (rubric content, engineer C).


test_a_pronoun_subject_takes_the_sentence_befores_subject = names_the_tell(
    PRONOUN_WRONG + PRONOUN_WRONG_HELD + PRONOUN_KEPT, fields="qid tag text", tells=_tells
)
test_a_true_pronoun_sentence_names_no_tell = names_nothing(
    PRONOUN_TRUE + PRONOUN_TRUE_HELD, fields="qid text", tells=_tells
)
