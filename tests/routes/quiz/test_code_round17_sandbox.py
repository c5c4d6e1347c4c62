"""Round 17 hunt (real sandbox, JSON API): steps that attack the graph replay, and the
candidate's process, in ways the earlier suites do not.

Each graph attack is a correct step that adds something only while tf.function traces it
(`if not tf.executing_eagerly()`), so its eager scenarios stay correct and only the replay of
its graph (worker/replay.py) can stop it: an op outside the replay's allowlist (replay_ops.py),
a kernel error whose message would carry numbers of the hidden state, a loop or an allocation
that only the hidden state sets off. `SEEN` makes a condition true in the answer's own process
(the weights the trace saw) and false in the replay's (other, hidden weights). The process
attacks try what the sandbox must refuse (real-time scheduling, userfaultfd, raised hard
limits), or look for the hidden seed where a process could find it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.routes.quiz.sandbox_api import graded, sandbox_client

pytestmark = pytest.mark.sandbox
STEP = """import ctypes, os, resource, sys, zlib
import numpy as np
import tensorflow as tf
{top}

def seen(model, optimizer):
    # True where the step was traced (its first call: the weights it saw), False in the replay
    w = model.trainable_weights[0]
    with tf.init_scope():
        total = float(np.sum(w.numpy()))
    return tf.logical_or(optimizer.iterations > 0, tf.abs(tf.reduce_sum(w) - total) < 1e-2)

def attack(model):  # in the graph, run only where `seen` is False: in the replay
{attack}
    return tf.constant(0.0)

def train_step(model, optimizer, loss_fn, x, y):
    here = None if tf.executing_eagerly() else seen(model, optimizer)
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_weights)
    optimizer.apply(grads, model.trainable_weights)
    if not tf.executing_eagerly():
        {graph}
    return loss
"""
IN_REPLAY = "loss += tf.cond(here, lambda: tf.constant(0.0), lambda: attack(model))"
REFUSED = "only the math, shape and variable ops of a training step are run again"
HIDDEN = "its message is not shown"
# name -> (module-level code, the attack's body, words the feedback must hold)
GRAPH: dict[str, tuple[str, str, str | tuple[str, ...]]] = {
    "py-function": ("", "    tf.py_function(lambda: tf.constant(0.0), [], tf.float32)",
                    "calls back into Python"),
    "numpy-function": ("", "    tf.numpy_function(lambda: np.float32(0), [], tf.float32)",
                       "calls back into Python"),
    "write-report-channel": ("", "    tf.io.write_file('/proc/self/fd/3', '{}\\n')",
                             "reads or writes a file"),
    "read-file": ("", "    tf.io.read_file('/etc/hostname')", "reads or writes a file"),
    "summary-writer": ("writer = tf.summary.create_file_writer('/tmp/logs')",
                       "    with writer.as_default():\n"
                       "        tf.summary.write('w', model.trainable_weights[0], step=0)",
                       "writes a summary"),
    "stateful-random-seeded": ("", "    tf.random.uniform([], seed=7)", "random stream"),
    "random-generator": ("rng = tf.random.Generator.from_seed(7)", "    rng.normal([])",
                         REFUSED),
    "stateless-random": ("", "    tf.random.stateless_uniform([], seed=[1, 2])",
                         "random stream"),
    "lookup-table": ("table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer("
                     "[1], [2.0]), -1.0)", "    table.lookup(tf.constant(1))", REFUSED),
    "dataset": ("", "    tf.data.Dataset.range(3).reduce(tf.constant(0, tf.int64), "
                    "lambda a, b: a + b)", ("reads a dataset", "cannot import name 'range_op'")),
    "variable-by-name": ("", "    tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[], "
                             "shared_name='cd2c89b7-88b7-44c8-ad83-06c2a9158347')",
                         "by name"),
    "print-to-report-channel": ("", "    tf.print(model.trainable_weights[0], "
                                    "output_stream='file:///proc/self/fd/3')",
                                "not to the console"),
    "timestamp": ("", "    tf.timestamp()", REFUSED),
    "assert-carries-hidden-weights": (
        "", "    tf.debugging.Assert(False, [model.trainable_weights[0]], summarize=1000)",
        HIDDEN),
    "index-carries-hidden-weight": (
        "", "    index = tf.cast(tf.abs(model.trainable_weights[0][0, 0]) * 1e6, tf.int32)\n"
            "    return tf.gather(tf.zeros([4]), index + 1000)", HIDDEN),
    "loop-only-on-hidden-state": (
        "", "    return tf.cast(tf.while_loop(lambda i: tf.constant(True), lambda i: i + 1,"
            " [0])[0], tf.float32)", "limit"),
    "allocation-only-on-hidden-state": (
        "", "    n = tf.cast(60000 + 0 * model.trainable_weights[0][0, 0], tf.int32)\n"
            "    return tf.reduce_sum(tf.fill(tf.stack([n, n]), 1.0))", "run again"),
    "graph-over-the-size-limit": (
        "", "    return tf.reduce_sum(tf.constant(np.arange(200000, dtype=np.float32)))",
        "bytes"),
    "large-captured-tensor": ("big = tf.zeros([100000])", "    return tf.reduce_sum(big)",
                              "captured"),
    # the export forged in the answer's process: zlib.compress is the zlib module's, which
    # the worker's seal does not cover
    "forged-export-bare-op-call": ("""
from tensorflow.core.framework import function_pb2
real_compress = zlib.compress
def forged(data, level=-1):
    library = function_pb2.FunctionDefLibrary.FromString(data)
    for fdef in library.function:
        node = fdef.node_def.add()
        node.name, node.op = "forged", "PartitionedCall"
        node.attr["f"].func.name = "Timestamp"
        node.attr["Tin"].list.SetInParent()
        node.attr["Tout"].list.type.append(2)
    return real_compress(library.SerializeToString(), level)
zlib.compress = forged""", "    pass", "not one of its functions"),
}  # fmt: skip
# A wrong step that differs only in its graph: the feedback names the differing value but
# says no number of the hidden state.
WRONG_IN_GRAPH = "loss = loss * 1.5"
# Process attacks: the step raises ESCAPED if the sandbox let it through.
PROCESS = {
    "real-time-scheduling": "os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))",
    "userfaultfd": "assert ctypes.CDLL(None, use_errno=True).syscall(323, 0) >= 0",
    "raise-hard-cpu-limit": "resource.setrlimit(resource.RLIMIT_CPU, (-1, -1))",
    "raise-hard-open-files": "resource.setrlimit(resource.RLIMIT_NOFILE, (1 << 20, 1 << 20))",
    "memfd-beyond-file-size": "os.ftruncate(os.memfd_create('m'), 1 << 30)",
    "raise-own-priority": "os.setpriority(os.PRIO_PROCESS, 0, -5)",
}
PROCESS_STEP = """import ctypes, os, resource
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    try:
        {attack}
    except (OSError, AssertionError, ValueError):
        pass
    else:
        raise RuntimeError("ESCAPED")
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_weights)
    optimizer.apply(grads, model.trainable_weights)
    return loss
"""
SEED_HUNT = """import os
import tensorflow as tf

def train_step(model, optimizer, loss_fn, x, y):
    found = []
    for path in ("/proc/self/cmdline", "/proc/self/environ", "/proc/1/cmdline",
                 "/proc/1/environ"):
        try:
            found.append(open(path, "rb").read().decode(errors="replace"))
        except OSError as err:
            found.append(repr(err))
    for top in ("/tmp", "/dev/shm", "/run", "/var", "/home", "/root", "/work", "/srv"):
        for folder, _, names in os.walk(top):
            found += [folder + "/" + name for name in names]
    raise RuntimeError(" | ".join(found)[:1800])
"""


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from sandbox_client(tmp_path_factory, "round17")


def _seed(api: TestClient) -> str:
    return str(api.app.state.code_grader.graph_seed)  # type: ignore[attr-defined]


@pytest.mark.parametrize("case", sorted(GRAPH))
def test_graph_attack_fails_its_tf_function_scenario(api: TestClient, case: str) -> None:
    top, attack, words = GRAPH[case]
    began = time.monotonic()
    body = graded(api, STEP.format(top=top, attack=attack, graph=IN_REPLAY))
    assert body["verdict"] != "correct", body
    assert any("tf-function" in s for s in body["details"]["failed_scenarios"]), body
    text = " ".join(item["message"] for item in body["feedback"])
    # `dataset` is refused by the replay (its ops are not on the allowlist) or, on a fresh
    # venv (the clean-clone CI at 14739a1), already while the answer traces it: the worker
    # cannot import tf.data's range_op module then. Either way the attack earns nothing.
    assert any(w in text for w in ((words,) if isinstance(words, str) else words)), text
    assert _seed(api) not in str(body)
    assert time.monotonic() - began < 120  # the wall limit of two jobs, and queueing


def test_graph_difference_names_no_hidden_number(api: TestClient) -> None:
    body = graded(api, STEP.format(top="", attack="    pass", graph=WRONG_IN_GRAPH))
    assert body["verdict"] != "correct", body
    text = " ".join(item["message"] for item in body["feedback"]) + str(body["details"])
    assert "not shown" in text, text
    assert not re.search(r"expected -?\d", text), text


def test_correct_step_printing_in_its_graph_stays_correct(api: TestClient) -> None:
    """tf.print is on the allowlist (to the console); the replay's own output, which prints
    hidden weights, never reaches the answer's output."""
    graph = "tf.print('MARK', model.trainable_weights[0][0, 0])"
    body = graded(api, STEP.format(top="", attack="    pass", graph=graph))
    assert (body["verdict"], body["score"]) == ("correct", 1.0), body
    output = str(body["details"].get("output", ""))
    assert output.count("MARK") <= 2, output  # the answer's process: one trace-time call each


@pytest.mark.parametrize("case", sorted(PROCESS))
def test_process_attack_is_refused(api: TestClient, case: str) -> None:
    body = graded(api, PROCESS_STEP.format(attack=PROCESS[case]))
    assert (body["verdict"], body["score"]) == ("correct", 1.0), body


def test_hidden_seed_is_nowhere_the_answer_can_look(api: TestClient) -> None:
    body = graded(api, SEED_HUNT)
    assert body["verdict"] == "incorrect", body
    assert "RuntimeError" in str(body), body
    assert _seed(api) not in str(body), body
