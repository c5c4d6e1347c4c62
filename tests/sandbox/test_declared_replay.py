"""A contract a pack declares (`checker:`) has its "tf.function" scenarios replayed too.

Until round 17 only the core contracts' graph scenarios were run again by the replay worker
(worker/replay.py); a declared contract's were still observed in the answer's own process, so
an answer could forge what the trusted side compares: write the whole report itself, or leave
in its graph only numbers it computed at trace time from the inputs it found in the checker's
frames. Both were graded `correct` 1.0 against the real checker. Now a declared contract's
graph scenarios are replayed exactly as the core ones are (same worker, same hidden seed, same
op allowlist, numbers not shown), and honest steps keep their verdicts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from app.config import REPO_ROOT
from app.packs.schema import Code
from tests.sandbox.conftest import SandboxGrader
from tests.sandbox.declared import REFERENCE, UNWATCHED, declared

pytestmark = pytest.mark.sandbox

DOUBLED = REFERENCE.replace("* 0.5", "* 1.0")
# The round 15 forger, written for a declared contract: it finds the job in the serving frame,
# runs the worker's own declared scenarios eagerly with a step that fails in a graph (.numpy()),
# copies the eager scenarios' observations onto the "tf.function" ones (same seed, same
# inputs), writes the report to the channel itself and exits.
FORGER = """\
import json
import os
import sys

import tensorflow as tf


def honest(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x**2) * 0.5
    print(float(y.numpy()))  # fails in a graph
    return tape.gradient(y, x)


def scaled_gradient(x):
    frame = sys._getframe()
    while not isinstance(frame.f_locals.get("job"), dict):
        frame = frame.f_back
    job, fd = frame.f_locals["job"], frame.f_locals.get("fd", 3)
    declared = next(m for n, m in list(sys.modules.items())
                    if n.endswith(".declared") and hasattr(m, "run_declared"))
    spec = {**job["checker"], "function": "honest", "tf_function": False}
    eager = declared.run_declared(spec, job["sources"][0]["code"])["scenarios"]
    forged = eager + [{**s, "id": s["id"].replace("-eager", "-tf-function")} for s in eager]
    runs = [{"name": s["name"], "load_error": None, "scenarios": forged} for s in job["sources"]]
    os.write(fd, (json.dumps({"runs": runs, "run_s": 1.0}) + "\\n").encode())
    os._exit(0)
"""
# At trace time the step finds the real inputs in the checker's frame, computes the answer
# eagerly in a thread of its own, and its graph only returns that constant: right on the
# inputs its process saw, whatever the graph is given.
TRACE_TIME = """\
import sys
import threading

import tensorflow as tf


def honest(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x**2) * 0.5
    return tape.gradient(y, x)


def scaled_gradient(x):
    if tf.executing_eagerly():
        return honest(x)
    frame = sys._getframe()
    while frame.f_code.co_name != "run_one":
        frame = frame.f_back
    real, found = frame.f_locals["inputs"]["x"], []
    worker = threading.Thread(target=lambda: found.append(honest(real).numpy()))
    worker.start()
    worker.join()
    return tf.constant(found[0])
"""
# Variables and a Keras model among the inputs: the replay passes the hidden state's own.
SETUP_VARIABLES = """\
import keras
import tensorflow as tf

def make_inputs(seed):
    tf.random.set_seed(seed)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    return {"w": tf.Variable(tf.random.normal([3])), "model": model,
            "x": tf.random.normal([4, 3]), "rate": 0.1}
"""
STEP_VARIABLES = """\
import tensorflow as tf

def sgd_step(w, model, x, rate):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x * w) ** 2)
    grads = tape.gradient(loss, [w, *model.trainable_variables])
    for variable, grad in zip([w, *model.trainable_variables], grads):
        variable.assign_sub(rate * grad)
    return loss
"""
STEP_VARIABLES_ALIKE = STEP_VARIABLES.replace(
    "variable.assign_sub(rate * grad)", "variable.assign(variable - grad * rate)"
)
STEP_VARIABLES_NO_BIAS = STEP_VARIABLES.replace(
    "[w, *model.trainable_variables]", "[w, model.trainable_variables[0]]"
)


# A Keras variable, a list of a tensor and an array, and a Python number as arguments: the
# replay feeds them in tf.function's order (by name, flattened; tf.function converts a Keras
# variable passed as an argument to a tensor, so it is fed its value, not its handle).
SETUP_MIXED = """\
import keras
import numpy as np
import tensorflow as tf

def make_inputs(seed):
    tf.random.set_seed(seed)
    return {"w": keras.Variable(np.ones(3, np.float32)),
            "xs": [tf.random.normal([3]), np.arange(3, dtype=np.float32)], "k": 2}
"""
STEP_MIXED = """\
import tensorflow as tf

def weighted(w, xs, k):
    return tf.reduce_sum(w * xs[0] + xs[1] * k)
"""


# The hidden inputs, built in a process of their own (trusted code, no sandbox: only the
# building is under test): the public inputs, twice with one hidden seed, once with another.
HIDDEN_INPUTS = r"""
import json, os
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
import numpy as np
from app.grading.sandbox.worker.declared import hidden_inputs, make_inputs

def seen(inputs):
    return {"w": inputs["w"].numpy().tolist(), "x": np.asarray(inputs["x"]).tolist(),
            "kernel": np.asarray(inputs["model"].variables[0].numpy()).tolist(),
            "rate": inputs["rate"]}

setup = os.environ["SETUP"]
built = [make_inputs(setup, 3), hidden_inputs(setup, 3, 11), hidden_inputs(setup, 3, 11),
         hidden_inputs(setup, 3, 12)]
print(json.dumps([seen(inputs) for inputs in built]))
"""


def variables_question() -> Code:
    checker = {"setup": SETUP_VARIABLES, "seeds": [3], "tf_function": True,
               "compare": ["result", "variables"]}  # fmt: skip
    return declared(id="sgd-step-question", contract="sgd-step",
                    function="sgd_step(w, model, x, rate)", checker=checker,
                    reference=STEP_VARIABLES, wrong=[])  # fmt: skip


def mixed_question() -> Code:
    checker = {"setup": SETUP_MIXED, "seeds": [5], "tf_function": True}
    return declared(id="weighted-question", contract="weighted", function="weighted(w, xs, k)",
                    checker=checker, reference=STEP_MIXED, wrong=[])  # fmt: skip


def _text(result: Any) -> str:
    return json.dumps(result.details) + " ".join(f.message for f in result.feedback)


@pytest.mark.parametrize("forger", [FORGER, TRACE_TIME], ids=["whole-report", "trace-time"])
def test_grade_declared_contract_refuses_forged_tf_function_report(
    sandbox: SandboxGrader, forger: str
) -> None:
    result = sandbox.grade(declared(), forger)
    assert result.verdict != "correct", result.feedback
    assert any("tf-function" in s for s in result.details["failed_scenarios"]), result.details


def test_grade_declared_contract_names_a_missing_graph_as_replay_failure(
    sandbox: SandboxGrader,
) -> None:
    result = sandbox.grade(declared(), FORGER)
    assert "run again, on fresh state, by a process your code never ran in" in _text(result)
    assert "no traced graph was reported" in _text(result)


def test_grade_declared_contract_hides_numbers_of_replayed_scenario(
    sandbox: SandboxGrader,
) -> None:
    result = sandbox.grade(declared(), TRACE_TIME)
    hidden = [m for m in result.details["mismatches"] if "tf-function" in m["scenario"]]
    assert hidden, result.details
    assert all("not shown" in m["detail"] for m in hidden), hidden


def test_grade_declared_contract_passes_honest_step_after_replay(sandbox: SandboxGrader) -> None:
    result = sandbox.grade(declared(), REFERENCE.replace("x**2", "tf.square(x)"))
    assert (result.verdict, result.score) == ("correct", 1.0), result.feedback


def test_grade_declared_contract_still_names_known_wrong_step(sandbox: SandboxGrader) -> None:
    result = sandbox.grade(declared(), UNWATCHED)
    assert result.verdict == "incorrect", result.feedback
    assert "unwatched-constant" in result.misconceptions


def test_grade_declared_contract_wrong_step_fails_replayed_scenario(
    sandbox: SandboxGrader,
) -> None:
    result = sandbox.grade(declared(), DOUBLED)
    assert result.verdict != "correct", result.feedback
    assert result.details["failed_scenarios"] == [
        "seed-0-eager", "seed-1-eager", "seed-0-tf-function", "seed-1-tf-function"
    ]  # fmt: skip


@pytest.mark.parametrize("source", [STEP_VARIABLES, STEP_VARIABLES_ALIKE], ids=["sub", "assign"])
def test_grade_declared_contract_with_variables_passes_honest_step(
    sandbox: SandboxGrader, source: str
) -> None:
    result = sandbox.grade(variables_question(), source)
    assert (result.verdict, result.score) == ("correct", 1.0), result.feedback


def test_grade_declared_contract_with_variables_fails_step_missing_one(
    sandbox: SandboxGrader,
) -> None:
    result = sandbox.grade(variables_question(), STEP_VARIABLES_NO_BIAS)
    assert result.verdict != "correct", result.feedback
    assert "seed-3-tf-function" in result.details["failed_scenarios"], result.details
    assert "seed-3-tf-function" in _text(result)


def test_hidden_inputs_move_every_float_value_by_the_hidden_seed() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "SETUP": SETUP_VARIABLES,
           "TF_CPP_MIN_LOG_LEVEL": "3"}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", HIDDEN_INPUTS], env=env, cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=300, check=True)  # fmt: skip
    public, hidden, again, other = json.loads(done.stdout.strip().splitlines()[-1])
    for name in ("w", "x", "kernel"):
        assert hidden[name] != public[name], name  # the tensor, the variable, the model's weights
        assert hidden[name] == again[name] and hidden[name] != other[name], name
    assert hidden["rate"] == public["rate"]  # a Python number is the graph's constant


def test_grade_declared_contract_with_nested_and_keras_variable_arguments_is_replayed(
    sandbox: SandboxGrader,
) -> None:
    right = sandbox.grade(mixed_question(), STEP_MIXED.replace("w * xs[0]", "xs[0] * w"))
    assert (right.verdict, right.score) == ("correct", 1.0), right.feedback
    wrong = sandbox.grade(mixed_question(), STEP_MIXED.replace("xs[1] * k", "xs[1]"))
    assert wrong.details["failed_scenarios"] == ["seed-5-eager", "seed-5-tf-function"]
