"""Diagnoses fire on their evidence and stay silent without it (synthetic observations).

Each diagnosis gets a pair: the observations that are evidence of the mistake, and a nearby
correct variant (same source facts, numbers matching the reference) on which it must not
fire. The real-sandbox versions of these pairs are the golden cases and the corpus.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from app.grading.code.judge import KnownWrong, judge
from app.grading.code.static import SourceFacts, analyse

W0 = {"path": "k", "kind": "tensor", "dtype": "float32", "shape": [2], "values": [0.1, 0.2]}
W1 = {**W0, "values": [0.09, 0.19]}
LOSS = {"kind": "tensor", "dtype": "float32", "shape": [], "values": [0.5]}
TAPE = {"tape": 0}
GRADIENT = {"tape": 0, "persistent": False, "open_tapes": [], "sources": {"trainable": 2},
            "none": 0, "results": 2}  # fmt: skip
APPLY = {"optimizer": 0, "variables": {"trainable": 2}, "models": [0], "none_grads": 0,
         "grads": 2, "count": 2}  # fmt: skip
CONFIG = {"learning_rate": 0.1, "clipnorm": None, "global_clipnorm": None, "clipvalue": None}


def scenario(
    *,
    weights: dict[str, Any] = W1,
    out: dict[str, Any] = LOSS,
    error: dict[str, Any] | None = None,
    **probes: list[dict[str, Any]],
) -> dict[str, Any]:
    records = {"tape": [TAPE], "gradient": [GRADIENT], "apply": [APPLY],
               "optimizer_config": [CONFIG], **probes}  # fmt: skip
    calls = [] if error else [{"out": out, "weights": [[weights]], "state": [[]],
                               "iterations": [1]}]  # fmt: skip
    return {"id": "s1", "initial": [[W0]], "calls": calls, "error": error, "probes": records}


def grade(
    cand: dict[str, Any],
    facts: SourceFacts | None = None,
    contract: str = "train-step",
    known: list[KnownWrong] | None = None,
) -> Any:
    return judge(
        contract=contract,
        reference={"load_error": None, "scenarios": [scenario()]},
        candidate={"load_error": None, "scenarios": [cand]},
        known=known or [],
        facts=facts or SourceFacts(),
    )


def error(kind: str, message: str, lines: list[int] | None = None) -> dict[str, Any]:
    return {"type": kind, "message": f"{kind}: {message}", "lines": lines or [], "call": 0}


NONE_GRADS = {"gradient": [{**GRADIENT, "none": 2}], "apply": []}
NO_GRADS = error("ValueError", "No gradients provided for any variable.")
NUMPY_ON_OUTPUT = """
import numpy as np
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, np.asarray(model(x, training=True)))
    return loss
"""
NUMPY_ON_INPUTS = """
import numpy as np
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        x = np.asarray(x, dtype=np.float32)
        loss = loss_fn(np.asarray(y), model(x, training=True))
    return loss
"""
NUMPY_AND_LOSS_AFTER = """
import numpy as np
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        x = np.asarray(x)
        predictions = model(x, training=True)
    loss = loss_fn(y, predictions)
    return tape.gradient(loss, model.trainable_variables)
"""


@pytest.mark.parametrize(
    ("source", "tag"),
    [
        (NUMPY_ON_OUTPUT, "numpy-inside-tape"),
        (NUMPY_ON_INPUTS, "none-gradients"),  # NumPy did not cut the chain: no blame
        (NUMPY_AND_LOSS_AFTER, "loss-outside-tape"),
    ],
)
def test_none_gradients_are_blamed_on_what_cut_the_chain(source: str, tag: str) -> None:
    result = grade(scenario(weights=W0, error=NO_GRADS, **NONE_GRADS), analyse(source))
    assert result.misconceptions == [tag]


@pytest.mark.parametrize("source", [NUMPY_ON_OUTPUT, NUMPY_ON_INPUTS, NUMPY_AND_LOSS_AFTER])
def test_numpy_is_not_blamed_when_the_numbers_match(source: str) -> None:
    result = grade(scenario(), analyse(source))
    assert (result.verdict, result.misconceptions) == ("correct", [])


def test_numpy_on_the_path_explains_a_changed_gradient() -> None:
    changed = scenario(weights={**W1, "values": [0.095, 0.195]})
    assert grade(changed, analyse(NUMPY_ON_OUTPUT)).misconceptions == ["numpy-inside-tape"]
    assert "numpy-inside-tape" not in grade(changed, analyse(NUMPY_ON_INPUTS)).misconceptions


def test_no_tape_is_told_apart_from_loss_outside_tape() -> None:
    no_tape = scenario(weights=W0, error=NO_GRADS, tape=[], gradient=[], apply=[])
    facts = analyse("def train_step(model, optimizer, loss_fn, x, y):\n    return None\n")
    assert grade(no_tape, facts).misconceptions == ["no-tape"]
    with_tape = scenario(weights=W0, error=NO_GRADS, **NONE_GRADS)
    assert grade(with_tape, analyse(NUMPY_AND_LOSS_AFTER)).misconceptions == ["loss-outside-tape"]


@pytest.mark.parametrize("source", [NUMPY_ON_INPUTS, "def train_step(m, o, l, x, y): pass"])
def test_no_tape_is_not_claimed_when_the_code_failed_before_any_tape(source: str) -> None:
    early = scenario(error=error("TypeError", "bad operand"), tape=[], gradient=[], apply=[])
    assert grade(early, analyse(source)).misconceptions == ["exception"]


def test_builtin_fingerprint_is_not_added_when_a_rule_explains_the_run() -> None:
    no_apply = scenario(weights=W0, apply=[])
    no_apply["calls"][0]["iterations"] = [0]
    run = {"load_error": None, "scenarios": [no_apply]}
    known = [
        KnownWrong("numpy-inside-tape", "Converts the predictions to NumPy.", run),
        KnownWrong("pack-own-slug", "A mistake only this pack names.", run),
    ]
    result = grade(copy.deepcopy(no_apply), known=known)
    assert result.misconceptions == ["missing-apply", "pack-own-slug"]


@pytest.mark.parametrize(
    ("failure", "tag"),
    [
        (error("ValueError", "tf.function only supports singleton tf.Variables created on the "
               "first call."), "variable-in-tf-function"),
        (error("AttributeError", "'SymbolicTensor' object has no attribute 'numpy'"),
         "numpy-in-tf-function"),
        (error("NotImplementedError", "Cannot convert a symbolic tf.Tensor (x:0) to a numpy "
               "array."), "numpy-in-tf-function"),
        (error("InvalidArgumentError", "Cannot update variable with shape [3] using a Tensor "
               "with shape [4,8], shapes must be equal."), "gradient-variable-mismatch"),
        (error("ValueError", "zip() argument 2 is shorter than argument 1"), "zip-mismatch"),
        (error("ValueError", "Attempt to convert a value (None) with an unsupported type"),
         "none-gradient-used"),
        (error("TypeError", "unsupported operand type(s) for *: 'NoneType' and 'float'"),
         "none-gradient-used"),
        (error("AttributeError", "'EagerTensor' object has no attribute 'backward'"),
         "pytorch-backward"),
        (error("AttributeError", "'SGD' object has no attribute 'step'"), "pytorch-step"),
        (error("AttributeError", "'SGD' object has no attribute 'zero_grad'"), "zero-grad"),
        (error("AttributeError", "'SGD' object has no attribute 'minimize'"), "keras3-minimize"),
        (error("RuntimeError", "tf.gradients is not supported when eager execution is "
               "enabled. Use tf.GradientTape instead."), "tf-gradients-eager"),
        (error("ValueError", "too many values to unpack (expected 2)", [9]),
         "apply-gradients-pairs"),
        (error("ValueError", "Passed in object <Variable> of type 'Variable', not tf.Tensor or "
               "tf.Variable or ExtensionType."), "watch-keras-variable"),
        (error("ValueError", "No loss to compute. Provide a `loss` argument in `compile()`."),
         "compute-loss-uncompiled"),
        (error("GraphModeSwitchedOff", "tf.config.run_functions_eagerly(True) was called, so "
               "tf.function would run the step eagerly"), "graph-mode-switched-off"),
    ],
)  # fmt: skip
def test_runtime_error_gets_a_teaching_message(failure: dict[str, Any], tag: str) -> None:
    facts = SourceFacts(apply_lines=[9], calls=frozenset({"GradientTape"}))
    result = grade(scenario(error=failure), facts)
    assert result.misconceptions == [tag]
    assert "raised" not in result.feedback[0].message  # a lesson, not a traceback


@pytest.mark.parametrize(
    ("text", "tag", "words"),
    [("[Errno 27] File too large", "resource-limit", "file size limit (1 MiB)"),
     ("[Errno 32] Broken pipe", "exception", "a pipe whose reading end was closed")],
)  # fmt: skip
def test_kernel_limit_error_names_the_limit(text: str, tag: str, words: str) -> None:
    """Round 16: with SIGXFSZ or SIGPIPE reset, a forked worker's write fails with these."""
    result = grade(scenario(error=error("OSError", text)), SourceFacts(calls=frozenset()))
    assert result.misconceptions == [tag]
    assert words in result.feedback[0].message and "Errno" not in result.feedback[0].message


def test_unknown_runtime_error_is_reported_with_its_line() -> None:
    failure = error("KeyError", "'labels'", [7])
    result = grade(scenario(error=failure), SourceFacts(calls=frozenset({"GradientTape"})))
    assert result.misconceptions == ["exception"]
    assert "KeyError" in result.feedback[0].message and "line 7" in result.feedback[0].message


def test_short_zip_is_diagnosed_from_the_apply_record() -> None:
    short = scenario(weights={**W1, "values": [0.09, 0.2]}, apply=[{**APPLY, "count": 1}])
    assert grade(short).misconceptions == ["zip-mismatch"]


def test_apply_with_gradients_only_is_not_a_zip_mismatch() -> None:
    built = scenario(apply=[{**APPLY, "variables": {}, "count": 0}])
    assert grade(built).verdict == "correct"


@pytest.mark.parametrize(
    ("contract", "verdict"), [("train-step", "partial"), ("accumulate", "correct")]
)
def test_python_number_is_flagged_only_where_the_prompt_asks_for_a_tensor(
    contract: str, verdict: str
) -> None:
    number = scenario(out={**LOSS, "python": "float"})
    facts = SourceFacts(calls=frozenset({"Variable"}))
    assert grade(number, facts, contract).verdict == verdict


def test_reconfigured_optimizer_is_flagged_even_when_the_numbers_match() -> None:
    changed = scenario(optimizer_config=[{**CONFIG, "global_clipnorm": 1.0}])
    result = grade(changed)
    assert (result.verdict, result.misconceptions) == ("partial", ["optimizer-reconfigured"])


def two_calls(applies: int) -> dict[str, Any]:
    """An accumulate scenario of two micro-batch calls with `applies` optimizer steps."""
    cand = scenario(apply=[APPLY] * applies)
    cand["calls"] = cand["calls"] * 2
    return cand


def test_python_sums_are_flagged_for_accumulate_and_variables_are_not() -> None:
    reference = two_calls(1)
    for facts, tags in ((SourceFacts(), ["accumulators-not-variables"]),
                        (SourceFacts(calls=frozenset({"Variable"})), [])):  # fmt: skip
        result = judge(contract="accumulate",
                       reference={"load_error": None, "scenarios": [reference]},
                       candidate={"load_error": None, "scenarios": [two_calls(1)]}, known=[],
                       facts=facts)  # fmt: skip
        assert result.misconceptions == tags


def test_stepping_every_call_is_not_called_summing_in_python() -> None:
    """No accumulation at all (a step per micro-batch) must not be told it summed tensors."""
    result = judge(contract="accumulate",
                   reference={"load_error": None, "scenarios": [two_calls(1)]},
                   candidate={"load_error": None, "scenarios": [two_calls(2)]}, known=[],
                   facts=SourceFacts())  # fmt: skip
    assert "accumulators-not-variables" not in result.misconceptions


@pytest.mark.parametrize(("model", "network"), [(0, "The generator"), (1, "The discriminator")])
def test_missing_training_flag_names_the_gan_network(model: int, network: str) -> None:
    ref_calls = [{"model": 0, "training": True}, {"model": 1, "training": True}]
    cand_calls = [dict(c, training=None if c["model"] == model else True) for c in ref_calls]
    reference = scenario(model_call=ref_calls)
    cand = scenario(weights={**W1, "values": [0.0, 0.0]}, model_call=cand_calls)
    result = judge(contract="gan-step", reference={"load_error": None, "scenarios": [reference]},
                   candidate={"load_error": None, "scenarios": [cand]}, known=[],
                   facts=SourceFacts())  # fmt: skip
    assert result.misconceptions == ["missing-training-flag"]
    assert result.feedback[0].message.startswith(network)


def test_single_persistent_tape_is_flagged_where_nested_tapes_are_asked_for() -> None:
    nested = [{**GRADIENT, "tape": 1, "open_tapes": [0]}, GRADIENT]
    reference = scenario(tape=[TAPE, {"tape": 1}], gradient=nested)
    single = scenario(gradient=[{**GRADIENT, "persistent": True}] * 2)
    two = scenario(tape=[TAPE, {"tape": 1}], gradient=nested)
    first_only = scenario(gradient=[GRADIENT])  # one tape, one call: a first derivative
    for cand, tags in ((single, ["not-nested-tapes"]), (two, []), (first_only, [])):
        result = judge(contract="second-derivative",
                       reference={"load_error": None, "scenarios": [reference]},
                       candidate={"load_error": None, "scenarios": [cand]}, known=[],
                       facts=SourceFacts())  # fmt: skip
        assert result.misconceptions == tags


def test_counter_moved_by_hand_is_not_called_a_second_apply() -> None:
    """Round 14: `optimizer.iterations.assign_add(1)` after one apply_gradients read "apply_
    gradients was called more than once", which the code never did."""
    edited = scenario()
    edited["calls"][0]["iterations"] = [2]
    assert grade(edited).misconceptions == ["iterations-edited"]
    twice = scenario(apply=[APPLY, APPLY])
    twice["calls"][0]["iterations"] = [2]
    assert grade(twice).misconceptions == ["optimizer-stepped-twice"]


@pytest.mark.parametrize(
    ("changed", "words"),
    [
        ({"learning_rate": 0.001}, "changed the optimizer's learning rate"),
        ({"global_clipnorm": 1.0}, "tf.clip_by_global_norm"),
    ],
)
def test_reconfigured_optimizer_message_names_what_changed(
    changed: dict[str, Any], words: str
) -> None:
    result = grade(scenario(optimizer_config=[{**CONFIG, **changed}]))
    assert result.misconceptions == ["optimizer-reconfigured"]
    assert words in result.feedback[0].message
    assert ("clip" in result.feedback[0].message) == ("global_clipnorm" in changed)


@pytest.mark.parametrize(
    ("line", "tag"),
    [
        ("grads = [keras.ops.clip(g, -1.0, 1.0) for g in grads]", "clip-by-value"),
        ("grads, _ = tf.clip_by_global_norm(grads, 5.0)", "clip-wrong-norm"),
        ("grads, _ = tf.clip_by_global_norm(grads, clip_norm=0.5)", "clip-wrong-norm"),
    ],
)
def test_clipping_of_another_kind_or_norm_is_named(line: str, tag: str) -> None:
    facts = analyse(f"import keras\nimport tensorflow as tf\ndef f(grads):\n    {line}\n")
    result = grade(scenario(weights={**W1, "values": [0.5, 0.5]}), facts, "clip-step")
    assert result.misconceptions == [tag]
    if tag == "clip-wrong-norm":
        assert "clipped to a global norm of " in result.feedback[0].message


@pytest.mark.parametrize("norm", ["1.0", "1", "clip_norm=1.0", "norm_value"])
def test_clipping_to_one_or_an_unknown_norm_is_not_a_wrong_norm(norm: str) -> None:
    facts = analyse(f"import tensorflow as tf\ndef f(g):\n    tf.clip_by_global_norm(g, {norm})\n")
    assert grade(scenario(), facts, "clip-step").verdict == "correct"


def test_exception_message_gives_its_line_once() -> None:
    result = grade(scenario(error=error("KeyError", "'labels'.", [7])))
    assert result.feedback[0].message == "Call 1 raised KeyError: 'labels'. [line 7]"
