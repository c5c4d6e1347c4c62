"""Round 32 of issue 14 (engineer C12, rubric content): round 31's final set, now tuned on
(russian-native-engineer, econometrician, caffe-veteran, database-engineer), read one answer at a
time for stated misconceptions the rules did not name and for its three false tells on correct
answers. New phrasings read two beliefs' claims rather than one answer's words: the gradients
given a place on the variables (a gradient slot, buffer or diff side of each variable, gradients
kept on the variables as their gradient, read off or cleared on them, staying inside them;
apply_gradients reading the pending gradients) and the optimizer clearing them (cleared in the
passive beside the optimizer; the step leaving the next one starting clean). Guards: the same words
in true statements (PyTorch's .grad field, your own accumulators, "most of the time" on a large
batch, fine-tuning, a tape that is non-persistent by default). Statements written for this file, in
words of their own (docs/freetext-rounds.md "Round 32: rubric content from round 31's set
(engineer C12)"). Read by the rules alone: the learned parts are retrained by the lead after
merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("gradient-vs-apply", "grads-stored-on-variables", "The backward call fills each weight's gradient buffer, and the optimizer uses that."),
    ("gradient-vs-apply", "grads-stored-on-variables", "tape.gradient writes into the grad slot of every variable before returning."),
    ("gradient-vs-apply", "grads-stored-on-variables", "The computed values are saved on each variable as its gradient."),
    ("gradient-vs-apply", "grads-stored-on-variables", "The optimizer then pulls the gradients off the variables and steps them."),
    ("gradient-vs-apply", "grads-stored-on-variables", "apply_gradients just consumes the pending gradients and updates the weights."),
    ("no-zero-grad", "grads-stored-on-variables", "The optimizer wipes the gradients on the weights once it has stepped."),
    ("no-zero-grad", "grads-stored-on-variables", "Otherwise the old gradients remain in the variables for the next step."),
    ("gradient-accumulation", "grads-stored-on-variables", "Each call adds into the weights' gradient slots, so four calls give the total."),
    ("no-zero-grad", "optimizer-clears-grads", "After the optimizer has stepped, the gradients it used are zeroed."),
    ("no-zero-grad", "optimizer-clears-grads", "apply_gradients consumes them, so the next step begins from a clean slate."),
    ("gradient-accumulation", "optimizer-clears-grads", "apply_gradients steps the weights and the gradients get cleared as part of it."),
]  # fmt: skip

CORRECT = [
    ("no-zero-grad", "tape.gradient hands back new tensors rather than accumulating into a .grad field on each variable, so nothing is left to clear."),
    ("no-zero-grad", "In PyTorch zero_grad clears the gradients of the parameters; TensorFlow has nothing like it."),
    ("gradient-accumulation", "After apply_gradients the accumulators are reset to zero by you, so the next batch starts clean."),
    ("gradient-vs-apply", "tape.gradient returns a list of tensors; apply_gradients takes them from that list together with the variables."),
    ("tf-function-speedup", "For a big convnet with a large batch most time is spent inside cuDNN kernels, so the speedup is small."),
    ("trainable-vs-all-variables", "If you pass model.variables the optimizer could touch frozen weights and fine-tuning breaks."),
    ("persistent-tape", "A GradientTape is non-persistent: it holds the intermediate results only until the first gradient call."),
]  # fmt: skip


test_grade_freetext_names_a_round32_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round32_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
