"""Round 5 of issue 14: the partial/correct line fitted to labels (fitting.py), the causes
of missed misconceptions (misses.py), the shared lexicon (lexicon.py, off: it did not pay
leave-one-persona-out), two new tells and the nesting-order-reversed false tell. Answers
are written for these tests, not copied from the labelled sets."""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from app.config import REPO_ROOT
from app.grading.freetext import grade_freetext
from app.grading.freetext.evaluation import load_sides
from app.grading.freetext.fitting import Evidence, Line, fit_line, line_verdict
from app.grading.freetext.lexicon import CANDIDATE_GROUPS, GROUPS, widen
from app.grading.freetext.misses import miss_cause
from app.grading.freetext.phrasings import compile_phrasing
from app.packs.rubric import Rubric
from tests.grading.benchmark_scripts import load_benchmark
from tests.grading.core_questions import question
from tests.grading.held_statements import names_nothing, names_the_tell

LABELLED = Path(__file__).parent / "freetext_labelled"


def _rubric() -> Rubric:
    return Rubric.model_validate({
        "model_answer": "A and B.",
        "thresholds": {"correct": 0.9, "partial": 0.4},
        "concepts": [
            {"id": "a", "label": "a", "required": True, "any": ["alpha"]},
            {"id": "b", "label": "b", "any": ["beta"]},
        ],
        "misconceptions": [
            {"tag": "t", "correction": "no", "cap": "incorrect", "any": ["(gamma|delta) ~ weights"]},
        ],
    })  # fmt: skip


def _ev(rubric: Rubric, found: set[str], caps: tuple[str, ...] = ()) -> Evidence:
    return Evidence.read(rubric, found, caps, False)


def test_grader_score_is_the_line_score_of_its_own_rubric() -> None:
    q = question("gradient-vs-apply")
    result = grade_freetext(
        q, "tape.gradient computes the gradients; apply_gradients updates the weights."
    )
    from app.grading.freetext.fitting import evidence_of, line_score

    assert result.score == line_score(q.rubric, evidence_of(q.rubric, result), Line.of(q.rubric))


def test_fit_line_moves_the_line_where_the_labels_put_it() -> None:
    rubric = _rubric()
    # Labellers call "a" alone correct (the rubric says partial: 0.5 < 0.9) ten times.
    data = [(_ev(rubric, {"a"}), "correct")] * 10 + [(_ev(rubric, {"b"}), "partial")] * 3
    line = fit_line(rubric, data)
    assert line_verdict(rubric, _ev(rubric, {"a"}), line) == "correct"
    assert line_verdict(rubric, _ev(rubric, {"b"}), line) == "partial"
    assert (
        line_verdict(rubric, _ev(rubric, {"a"}, ("incorrect",)), line) == "incorrect"
    )  # caps hold


def test_fit_line_keeps_the_rubric_line_unless_it_gains_the_margin() -> None:
    rubric = _rubric()
    data = [(_ev(rubric, {"a"}), "correct")] + [(_ev(rubric, {"a", "b"}), "correct")] * 5
    assert fit_line(rubric, data, margin=2) == Line.of(rubric)
    assert fit_line(rubric, data, margin=1) != Line.of(rubric)


def test_miss_causes() -> None:
    rubric = _rubric()
    assert miss_cause(rubric, "anything", "unknown-tag", []) == "no-rubric"
    assert miss_cause(rubric, "gamma changes the weights", "t", ["other"]) == "wrong-tag"
    assert miss_cause(rubric, "gamma does not change the weights.", "t", []) == "polarity"
    assert miss_cause(rubric, "Gamma, as I said before; the weights.", "t", []) == "clause-split"
    assert miss_cause(rubric, "gamma changes the params.", "t", []) == "role-word"
    assert miss_cause(rubric, "Something else entirely.", "t", []) == "no-phrasing"


def test_lexicon_widens_word_alternatives_but_grading_uses_one_group() -> None:
    pattern = r"tape\.gradient ~ (updates?|changes?) ~ (weights?|model) & !(track\w*)"
    widened = widen(pattern, CANDIDATE_GROUPS)
    assert "params?" in widened and "modified" in widened and widened.endswith("!(track\\w*)")
    # round 8: record|track is on (the one group chosen in every LOPO fold); round 15 adds
    # the keep group, which this phrasing does not use; round 16 spells groups as lemmas
    assert GROUPS[0] == ("record", "track") and widen(pattern) == pattern
    assert compile_phrasing(r"the (weights?|model) ~ moved").search("the params moved") is None


def test_sides_name_the_personas_read_this_round() -> None:
    sides = load_sides(LABELLED / "meta" / "sides.yaml")
    assert {"bootcamp-grad", "research-scientist"} <= sides.read <= sides.tune


NEW_TELLS = [
    ("persistent-tape", "runtime-error-from-loss-outside-tape", "The RuntimeError is because loss2 was computed outside the with block."),
    ("persistent-tape", "runtime-error-from-loss-outside-tape", "That error comes from the second loss not being computed inside the tape."),
    ("gradient-vs-apply", "gradient-computes-loss", "tape.gradient computes the loss and the gradients, then apply_gradients updates the weights."),
    ("higher-order-derivatives", "nesting-order-reversed", "Two nested tapes: the inner tape takes the second derivative, the outer one the first."),
]  # fmt: skip

CORRECT = [
    ("persistent-tape", "The RuntimeError is because a default tape frees its recording after the first gradient call; compute both losses inside the block with persistent=True."),
    ("persistent-tape", "A loss computed outside the with block gives None, not a RuntimeError."),
    ("gradient-vs-apply", "tape.gradient computes the gradients of the loss; apply_gradients updates the weights."),
    ("higher-order-derivatives", "Nest the tapes. The inner one is giving the first derivative and the outer one is giving the second derivative, because the outer tape records the inner gradient."),
    ("higher-order-derivatives", "Nest them: the inner tape computes dy_dx while the outer records; then outer.jacobian(dy_dx, x) gives the second derivative."),
]  # fmt: skip


test_round5_tells_fire = names_the_tell(NEW_TELLS)
test_round5_tells_spare_the_correct_statement = names_nothing(CORRECT)


def test_benchmark_lopo_and_miss_causes_run_on_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In-process since round 25: the subprocess spent ~2-5 min (of the 300 s timeout it hit
    under load) in the benchmark's closing latency readings (compiling every phrasing,
    building the neighbours' index, 50 adversarial gradings), which this test does not read;
    test_freetext_evaluation's benchmark test still runs the whole command in a subprocess."""
    import yaml

    answers = [
        {"question": "why-none-gradients", "verdict": v, "misconceptions": [], "answer": a}
        for v, a in (("partial", "Put the loss inside the with block."), ("incorrect", "No idea."))
    ]
    for persona in ("p-one", "p-two"):
        (tmp_path / f"{persona}.yaml").write_text(
            yaml.safe_dump({"persona": persona, "answers": answers}), encoding="utf-8"
        )
    sides = tmp_path / "sides.yaml"
    sides.write_text("tune: [p-one, p-two]\nread: [p-one]\n", encoding="utf-8")
    benchmark = _benchmark_module()
    monkeypatch.setattr(benchmark, "worst_case_ms", lambda pack: {})
    monkeypatch.setattr(sys, "argv", [
        "freetext.py", "--labelled", str(tmp_path), "--sides", str(sides), "--repeat", "1",
        "--lopo", "--miss-causes",
    ])  # fmt: skip
    assert benchmark.main() == 0
    out = capsys.readouterr().out
    assert "leave-one-persona-out" in out and " *p-one" in out
    assert "missed stated misconceptions by cause" in out


def _benchmark_module() -> ModuleType:
    return load_benchmark("freetext.py", "benchmark_freetext")


# The lines fitted to the labels (written into the rubrics with their provenance): each of
# these was one step short of correct under the hand-set line.
FITTED_CORRECT = [
    # Round 18 (engineer Q): gradient-vs-apply's correct line is 0.4 now (the tune labels): the
    # apply_gradients side alone, saying nothing of tape.gradient, is partial by the rules. The
    # retrained second opinion may raise it again (then drop this mark).
    pytest.param(
        "gradient-vs-apply",
        "Only apply_gradients changes the weights: it applies the optimizer's rule, like Adam's moments, and assigns the new values.",
        marks=pytest.mark.xfail(strict=True, reason="round 18: says nothing of tape.gradient, partial"),
    ),
    ("no-zero-grad", "tape.gradient returns a brand-new list of gradient tensors every step."),
    ("numpy-inside-tape", "Every layer before h gets None gradients because the gradient can't flow back past the NumPy step, and nothing raises an error."),
    # Round 43 (engineer K3): `reset` is required (tf.Variable accumulators never reset carry
    # one cycle's sums into the next update: the labellers' partial), so this answer is partial.
    pytest.param(
        "gradient-accumulation",
        "Keep tf.Variable accumulators, add each micro-batch's gradients into them, and divide the sums by 4 before applying.",
        marks=pytest.mark.xfail(strict=True, reason="round 43: no reset of the accumulators, partial"),
    ),
]  # fmt: skip


@pytest.mark.parametrize(("question_id", "answer"), FITTED_CORRECT)
def test_fitted_line_credits_what_labellers_credit(question_id: str, answer: str) -> None:
    assert grade_freetext(question(question_id), answer).verdict == "correct"


def test_fitted_line_still_asks_no_zero_grad_for_the_why() -> None:
    answer = "TensorFlow has no zero_grad, you don't need one."
    assert grade_freetext(question("no-zero-grad"), answer).verdict == "partial"


@pytest.mark.parametrize(
    "question_id",
    ["gradient-accumulation", "gradient-vs-apply", "no-zero-grad", "numpy-inside-tape"],
)
def test_fitted_thresholds_say_where_they_came_from(question_id: str) -> None:
    text = (REPO_ROOT / "questions" / "gradient-tape" / f"{question_id}.yaml").read_text()
    before = text[: text.index("\n  thresholds:")]
    assert "# Fitted (issue 14 round 5" in before[-700:] and "--lopo" in before[-700:]


def test_second_opinion_moves_only_untold_partial_or_correct_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.grading.freetext import second_opinion as so

    # These answers differ in words only; since round 7 a raise also needs the rules'
    # evidence alone at EVIDENCE_FLOOR (test_freetext_second_opinion.py tests that), so the
    # floor is off here: this test is about which answers may move at all.
    monkeypatch.setattr(so, "EVIDENCE_FLOOR", 0.0)

    rubric = _rubric()
    good = [(so.features("alpha and beta explained well", _ev(rubric, {"a"})), True)] * 8
    bad = [(so.features("alpha only, vaguely", _ev(rubric, {"a"})), False)] * 8
    model = so.train(good + bad)
    assert model is not None and so.train(good) is None  # one class: no model
    ev = _ev(rubric, {"a"})
    feats = so.features("alpha and beta explained well", ev)
    assert so.second_verdict(model, feats, ev, "partial") == "correct"
    told = _ev(rubric, {"a"}, ("partial",))
    assert so.second_verdict(model, feats, told, "partial") == "partial"  # a named tell
    assert so.second_verdict(model, feats, ev, "incorrect") == "incorrect"
    assert so.second_verdict(None, feats, ev, "partial") == "partial"
