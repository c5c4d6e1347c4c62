"""Round 19 (issue 14, engineer L): a learned per-tag tell finder (tag_classifier.py).

A per-question, per-tag ridge regression over the neighbours' words names a tell where the
rules and the neighbours named none; off by default (docs/freetext-rounds.md "Round 19: a
learned per-tag tell finder"). Its bounds are the neighbours': never on an answer graded
correct or with a tell named, never on a word the answer only denies.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from app.config import Settings, get_settings
from app.grading.freetext import grade_freetext
from app.grading.freetext import labelled_tag_classifier as ltc
from app.grading.freetext import neighbours as nb
from app.grading.freetext import tag_classifier as tc
from tests.conftest import env_setting
from tests.grading.artefact_freshness import assert_fresh
from tests.grading.core_questions import question

MODELS = {
    "resets": tc.TagModel(0.0, {"optimizer": 0.4, "reset": 2.0, "optimizer|reset": 0.5}),
    "other": tc.TagModel(0.0, {"numpy": 3.0}),
}
SAID = "The optimizer resets the gradients after each step for you."


@pytest.fixture
def setting_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from env_setting(monkeypatch, "TAPEQUIZ_FREETEXT_TAG_CLASSIFIER", "true")


def test_the_setting_is_on_by_default() -> None:
    assert Settings().freetext_tag_classifier is True
    assert get_settings().freetext_tag_classifier is True


def test_a_stated_tag_above_the_threshold_is_named() -> None:
    assert tc.suggested_tag(MODELS, nb.bag(SAID), ["resets", "other"], SAID) == "resets"


def test_a_tag_outside_the_rubric_is_never_named() -> None:
    assert tc.suggested_tag(MODELS, nb.bag(SAID), ["other"], SAID) is None


def test_a_score_below_the_threshold_names_nothing() -> None:
    weak = {"resets": tc.TagModel(-1.0, MODELS["resets"].weights)}
    assert tc.suggested_tag(weak, nb.bag(SAID), ["resets"], SAID) is None


@pytest.mark.parametrize(
    "denied",
    [
        "The optimizer never resets the gradients; each tape returns fresh ones.",
        "Does the optimizer reset the gradients after each step?",
    ],
)
def test_a_carrying_word_only_denied_or_asked_names_nothing(denied: str) -> None:
    words = nb.bag(denied)
    assert tc.best_tag(MODELS, words, ["resets"]) is not None
    assert tc.suggested_tag(MODELS, words, ["resets"], denied) is None


def test_malformed_stored_models_read_as_none() -> None:
    assert tc.models_of({"t": {"bias": "x", "weights": {}}}) == {}
    assert tc.models_of(None) == {}
    assert tc.models_of({"t": {"bias": 0.1, "weights": {"w": 1}}})["t"].weights == {"w": 1.0}


def test_training_finds_the_words_of_a_tag() -> None:
    stated = [ltc.Sample(nb.bag(f"{SAID} case {i}"), ("resets",)) for i in range(12)]
    right = [
        ltc.Sample(nb.bag(f"each tape returns fresh gradients, case {i}"), ()) for i in range(24)
    ]
    models = ltc.train_question([*stated, *right], ["resets", "unseen"])
    assert set(models) == {"resets"}  # "unseen": no support, no model
    assert tc.suggested_tag(models, nb.bag(SAID), ["resets"], SAID) == "resets"
    fresh = "Each tape returns fresh gradients."
    assert tc.suggested_tag(models, nb.bag(fresh), ["resets"], fresh) is None


# The shipped artefact, in the grader (setting on). "Named": statements of a tell in words
# no phrasing fits; "kept": nearby statements it must not change.
NAMED = [
    pytest.param(
        "training-flag",
        "You pass training=True so that the tape records gradients; without it nothing "
        "is differentiated.",
        "training-flag-enables-gradients",
        # Round 33 (L3): one-line answers are scaled as if of the question's median length
        # (tag_classifier.scale_of), which took the held true statements' tells away; this
        # short wrong statement now scores 0.485 against its cut of 0.5 (docs/freetext-rounds.md
        # "Round 33: the tag classifier on answers graded correct (engineer L3)").
        marks=pytest.mark.xfail(strict=True, reason="the median-length floor's price (round 33)"),
    ),
]
KEPT = [
    ("no-zero-grad", "You never need to wipe old gradients: each tape computes fresh gradients."),
    ("numpy-inside-tape", "Calling .numpy() breaks the chain: the tape cannot see NumPy ops."),
    (
        "training-flag",
        "training=True only switches layers such as dropout and batch norm to their training "
        "behaviour; the tape records gradients either way.",
    ),
]


@pytest.mark.parametrize(("qid", "answer", "tag"), NAMED)
def test_the_shipped_classifier_names_a_tell_no_phrasing_fits(
    qid: str, answer: str, tag: str, setting_on: None
) -> None:
    assert grade_freetext(question(qid), answer, tag_classifier=False).misconceptions == []
    result = grade_freetext(question(qid), answer)
    assert result.misconceptions == [tag]
    assert result.details["tag_classifier"] == tag
    assert result.verdict != "correct"


@pytest.mark.parametrize(("qid", "answer"), KEPT)
def test_the_shipped_classifier_leaves_true_statements_alone(
    qid: str, answer: str, setting_on: None
) -> None:
    off = grade_freetext(question(qid), answer, tag_classifier=False)
    on = grade_freetext(question(qid), answer)
    assert (on.verdict, on.misconceptions) == (off.verdict, off.misconceptions)
    assert "tag_classifier" not in on.details


def test_a_tell_the_rules_named_is_kept() -> None:
    answer = "tape.gradient already changes the weights; apply_gradients just logs them."
    on = grade_freetext(question("gradient-vs-apply"), answer, tag_classifier=True)
    assert on.misconceptions == ["gradient-updates-weights"]
    assert "tag_classifier" not in on.details


# Round 25: the first reader in a worker grades every labelled answer (core_rules_rows).
@pytest.mark.timeout(1200)
def test_the_artefact_is_what_the_labelled_tune_personas_give() -> None:
    """New labelled data without retraining fails here: run
    `python -m app.grading.freetext.tag_classifier train`."""
    assert_fresh(
        tc.ARTEFACT.read_text(encoding="utf-8"),
        ltc.dumps(ltc.build_artefact()),
        f"python -m {tc.__name__} train",
    )


def test_the_artefact_names_its_data_and_its_prompts() -> None:
    data = json.loads(tc.ARTEFACT.read_text(encoding="utf-8"))
    assert data["trained_on"]["answers"] > 4000
    assert all(len(v["prompt"]) == 16 for v in data["questions"].values())


def test_grading_never_imports_the_trainer() -> None:
    """The trainer imports numpy for the fit; grading reads the JSON in pure Python (numpy
    itself is in the web process already: lemminflect imports it)."""
    code = (
        "import sys; from app.grading.freetext import tag_classifier as tc, grader; "
        "from tests.grading.core_questions import question; "
        "assert tc.models_for(question('training-flag'))[0]; "
        "print('app.grading.freetext.labelled_tag_classifier' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_the_train_entry_point_prints_its_usage() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app.grading.freetext.tag_classifier"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "python -m app.grading.freetext.tag_classifier train" in done.stdout
    assert "RuntimeWarning" not in done.stderr, done.stderr


# The one false tell on a correct answer the classifier adds, leave one persona out and leave
# one round out alike (audio-dsp-engineer, not read): first and second gradient of one
# persistent tape, the first taken inside the block - true, and worded as the answers stating
# a tell are (trained without its writer: gradient-twice-same-tape; the shipped artefact, its
# writer in: persistent-gives-second-order). Why it stayed off by default until round 34.
# Whether the shipped artefact names it has changed with retrains (named in rounds 19 and 24-26,
# not in 23 and 27): a plain test while the shipped classifier is right, so a retrain that
# brings it back fails.
SAME_TAPE_INSIDE = (
    "You can do it with a single persistent tape as long as you take the first gradient inside "
    "the with-block: with tf.GradientTape(persistent=True) as tape: y = tf.sin(x); dy_dx = "
    "tape.gradient(y, x). Then d2y_dx2 = tape.gradient(dy_dx, x). Because the first gradient "
    "is computed while the tape is still recording, its ops get captured, and the second call "
    "can differentiate through them."
)


# Flip-prone (retrain churn): round 28's retrain named it (a strict xfail then, on evidence read
# loosely without the belief's subject, 'with ... persistent'); round 29's retrain does not;
# round 34's start retrain named it again on the same loose evidence: the three-role phrasing
# '(second ...) derivative ~ (need|...|with) ~ persistent' read with one role to spare was
# 'with & persistent'. Round 34 (engineer C14): "with" is joined to "persistent" in a phrasing
# of its own and both exclude a first gradient taken inside the block, so no loose reading of
# them is evidence here (a plain test again).
def test_one_persistent_tape_with_the_first_gradient_inside_is_no_tell() -> None:
    on = grade_freetext(question("higher-order-derivatives"), SAME_TAPE_INSIDE, tag_classifier=True)
    assert "tag_classifier" not in on.details
