"""The replay runs a graph only if every op in it is on the allowlist (worker/replay_ops.py).

Each case traces a step with tf.function in a fresh process (trusted code, no sandbox: only
the check is under test; test_code_round17_sandbox.py sends the same steps through the real
checker), exports its graphs as the worker does, and asks the check. Steps that reach files,
Python, random streams, summaries, datasets, tables or variables by name are refused with a
readable reason; a training step written the usual ways (Keras model, clipping, tf.print to
the console, an assertion) passes. Crafted libraries cover what tracing cannot produce but a
forged export can: a call of a bare op by name, a resource constant.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from app.config import REPO_ROOT

pytestmark = pytest.mark.sandbox
SCRIPT = r"""
import json, os, sys
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
import numpy as np
import keras
import tensorflow as tf
from tensorflow.core.framework import function_pb2
from app.grading.sandbox.worker.replay_ops import refused

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"),
                          keras.layers.Dense(2)])
optimizer = keras.optimizers.SGD(0.1)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
x, y = np.ones((2, 3), np.float32), np.array([0, 1])
rng = tf.random.Generator.from_seed(7)
writer = tf.summary.create_file_writer(os.environ["LOGS"])

def step(extra):
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        grads, _ = tf.clip_by_global_norm(grads, 1.0)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss + extra(loss)
    return train_step

def library(fn):
    concrete = tf.function(fn).get_concrete_function(x, y)
    lib = function_pb2.FunctionDefLibrary()
    lib.function.extend([*concrete.graph.as_graph_def().library.function, concrete.function_def])
    return lib, [concrete.function_def.signature.name]

def summary(loss):
    with writer.as_default():
        tf.summary.write("loss", loss, step=0)
    return 0.0

EXTRA = {
    "plain": lambda loss: 0.0,
    "print-to-console": lambda loss: (tf.print("loss", loss, output_stream=sys.stderr), 0.0)[1],
    "assertion": lambda loss: tf.debugging.assert_all_finite(loss, "nan") * 0.0,
    "py-function": lambda loss: tf.py_function(lambda: tf.constant(0.0), [], tf.float32),
    "numpy-function": lambda loss: tf.numpy_function(lambda: np.float32(0), [], tf.float32),
    "write-file": lambda loss: (tf.io.write_file("/proc/self/fd/3", "{}"), 0.0)[1],
    "read-file": lambda loss: 0.0 * tf.cast(tf.strings.length(tf.io.read_file("/etc/hostname")),
                                            tf.float32),
    "summary": summary,
    "stateful-random-seeded": lambda loss: 0.0 * tf.random.uniform([], seed=7),
    "stateless-random": lambda loss: 0.0 * tf.random.stateless_uniform([], seed=[1, 2]),
    "random-generator": lambda loss: 0.0 * rng.normal([]),
    "variable-by-name": lambda loss: (tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[],
                                                             shared_name="v"), 0.0)[1],
    "print-to-file": lambda loss: (tf.print(loss, output_stream="file:///proc/self/fd/3"), 0.0)[1],
    "timestamp": lambda loss: 0.0 * tf.cast(tf.timestamp(), tf.float32),
}
found = {name: refused(*library(step(extra))) for name, extra in EXTRA.items()}

lib, called = library(step(EXTRA["plain"]))
found["call-outside-library"] = refused(lib, ["WriteFile"])
bare = function_pb2.FunctionDefLibrary()
bare.CopyFrom(lib)
node = bare.function[-1].node_def.add()
node.name, node.op = "forged", "PartitionedCall"
node.attr["f"].func.name = "ReadFile"
found["bare-op-call"] = refused(bare, called)
constant = function_pb2.FunctionDefLibrary()
constant.CopyFrom(lib)
node = constant.function[-1].node_def.add()
node.name, node.op = "forged", "Const"
node.attr["dtype"].type = 20
found["resource-constant"] = refused(constant, called)
print("RESULT", json.dumps(found))
"""
ALLOWED = ["plain", "print-to-console", "assertion"]
REFUSED = {
    "py-function": "calls back into Python",
    "numpy-function": "calls back into Python",
    "write-file": "reads or writes a file",
    "read-file": "reads or writes a file",
    "summary": "writes a summary",
    "stateful-random-seeded": "random stream",
    "stateless-random": "random stream",
    "random-generator": "op, which a training step does not need",
    "variable-by-name": "by name",
    "print-to-file": "tf.print writes to file:///proc/self/fd/3, not to the console",
    "timestamp": "holds a Timestamp op",
    "call-outside-library": "calls WriteFile, which is not one of its functions",
    "bare-op-call": "calls ReadFile, which is not one of its functions",
    "resource-constant": "constant resource",
}


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    logs = tmp_path_factory.mktemp("logs")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "LOGS": str(logs)}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          env=env, timeout=300, check=False, cwd=REPO_ROOT)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    [line] = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    return json.loads(line.removeprefix("RESULT "))  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", ALLOWED)
def test_training_step_graph_is_allowed(verdicts: dict[str, str], case: str) -> None:
    assert verdicts[case] == "", verdicts[case]


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_graph_reaching_outside_a_training_step_is_refused(
    verdicts: dict[str, str], case: str
) -> None:
    assert REFUSED[case] in verdicts[case], verdicts[case]
