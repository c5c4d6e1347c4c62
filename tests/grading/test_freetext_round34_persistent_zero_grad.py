"""Round 34 of issue 14 (engineer C15, rubric content for persistent-tape and no-zero-grad): the
two questions with the most stated misconceptions the grader did not name. Three labeller tags no
rubric knew become persistent-tape tells (the tape locked to its first target, the RuntimeError
said to protect the first call's results, a default tape said reusable for other variables);
tape-accumulates reads a tape reused across steps said to make the gradients add up and a tape said
to still hold the previous step's gradients; its oldest phrasing no longer fires on accumulation
you write yourself; and it reads the belief as the denied purpose of a zeroing ("call it at the top
of each step so the old gradients do not leak in"). Statements written for this file, in words of their own (docs/freetext-rounds.md
"Round 34: persistent-tape and no-zero-grad content (engineer C15)"). Read by the rules alone: the
learned parts are retrained by the lead after merging."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

from tests.grading.core_questions import tells_by_rules
from tests.grading.held_statements import names_nothing, names_the_tell

WRONG = [
    ("persistent-tape", "tape-locked-to-first-target", "After the first call the tape is bound to that loss, so it cannot answer for another one."),
    ("persistent-tape", "tape-locked-to-first-target", "A tape can only differentiate with respect to a single objective, which is why the second loss fails."),
    ("persistent-tape", "tape-locked-to-first-target", "You can only take one loss per tape; the second one raises."),
    ("persistent-tape", "second-call-blocked-to-protect-results", "TensorFlow forbids a second gradient call because it would overwrite the gradients the first one produced."),
    ("persistent-tape", "second-call-blocked-to-protect-results", "The first call already wrote its results, and TF refuses to overwrite them."),
    ("persistent-tape", "second-call-blocked-to-protect-results", "The RuntimeError is there to protect against double counting the first gradients."),
    ("persistent-tape", "non-persistent-reusable-for-disjoint-vars", "A default tape can be reused as long as the second call asks for different variables."),
    ("persistent-tape", "non-persistent-reusable-for-disjoint-vars", "A plain tape can be used once for each variable, so split the variables between the two losses."),
    ("no-zero-grad", "tape-accumulates", "Hold on to one tape across training steps and the gradients keep growing, the same bug as forgetting zero_grad in torch."),
    ("no-zero-grad", "tape-accumulates", "Reusing a tape over many iterations makes the gradients accumulate unless you reset it."),
    ("no-zero-grad", "tape-accumulates", "Without a reset the tape still has the derivative terms from the previous batch in it."),
    ("no-zero-grad", "tape-accumulates", "Do it first thing in every iteration so the old gradients from the last step do not bleed into the new update."),
]  # fmt: skip

CORRECT = [
    ("persistent-tape", "A tape is not tied to one target; a default tape simply frees its recording after the first gradient call."),
    ("persistent-tape", "Nothing gets overwritten by a second call; the recording of a default tape is already gone, so it raises."),
    ("persistent-tape", "Asking for different variables does not help: a default tape raises on any second call, so use persistent=True and del it afterwards."),
    ("persistent-tape", "Use two tapes, one loss per tape, both opened over the same forward pass."),
    ("persistent-tape", "A GradientTape is non-persistent: it holds the intermediate results of the forward pass until the first gradient call."),
    ("no-zero-grad", "Summing gradients across steps happens only if you write the accumulation yourself."),
    ("no-zero-grad", "Nobody reuses a tape across steps; each step opens a new one and the gradients never add up."),
    ("no-zero-grad", "The tape does not hold the gradients from the previous step; tape.gradient returns fresh tensors."),
    ("no-zero-grad", "You never call it in TensorFlow, so old gradients do not get mixed into the new ones."),
    ("no-zero-grad", "Each step opens its own tape, so the previous gradients can't leak into this step."),
]  # fmt: skip


test_grade_freetext_names_a_round34_c15_tell = names_the_tell(WRONG, tells=tells_by_rules)
test_grade_freetext_round34_c15_true_statements_name_nothing = names_nothing(
    CORRECT, tells=tells_by_rules
)
