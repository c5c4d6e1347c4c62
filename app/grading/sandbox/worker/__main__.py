"""Worker entry point: warm TensorFlow up, say ready, run exactly one job, report, exit.

Started by the launcher inside bubblewrap with one JSON argument (result fd and limits).
Protocol: a `{"ready": ...}` line on the result fd once warm; the job as JSON on stdin (read to
EOF); one result line on the result fd; then `os._exit(0)` (TF's normal teardown costs ~0.8 s).
Candidate output goes to stdout/stderr, which the supervisor reads with a cap; results never do.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from typing import Any

from . import lockdown

MAX_JOB = 4 * 1024 * 1024
MAX_RESULT = 1024 * 1024


def send(fd: int, payload: dict[str, object]) -> None:
    data = (json.dumps(payload, allow_nan=False, separators=(",", ":")) + "\n").encode()
    if len(data) > MAX_RESULT:
        data = b'{"worker_error":"result larger than 1 MiB"}\n'
    while data:
        data = data[os.write(fd, data) :]


def warm_up(prebuild: list[str] | None = None, step: bool = False) -> dict[str, str]:
    """Import TF, pin threads, make ops deterministic, and trace one step of each kind.

    With `prebuild` (a forked child: TF is imported, no op has run), do only what a job
    cannot skip cheaply: start the runtime and build the named contracts' scenario state,
    plus, with `step`, one eager training step (the supervisor asks for it only when no job
    will wait for this child: the step costs ~0.02 CPU-s more than it saves the job, measured
    per child as 0.29 vs 0.27 CPU-s, and only pays off, in ~0.03 s of latency, when the CPU
    would otherwise idle)."""
    import keras
    import tensorflow as tf

    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(2)
    tf.config.experimental.enable_op_determinism()
    from . import models, observe, probes, replay_declared, runner, scenarios, trial  # noqa: F401

    direct_eager_ops()  # starts the runtime (thread pools) before the job
    observe.tensor_types()  # read before candidate code could replace tf.Variable and the rest
    if prebuild is not None:
        for contract_id in prebuild:
            _prebuild(contract_id)
        if step and not any(_step_on_prebuilt(c) for c in prebuild[:1]):
            _eager_step()
        probes.install()
        return {"tensorflow": tf.__version__, "keras": keras.__version__}
    model, step, optimizers = _eager_step()
    optimizers.append(models.sgd(0.05, 0.9))  # the other optimizer family, traced this time
    optimizers[-1].build(model.trainable_variables)
    tf.function(step)(models.batch(0, 8, 4), models.labels(0, 8, 3))
    keras.backend.clear_session()
    scenarios.prebuild()
    probes.install()
    return {"tensorflow": tf.__version__, "keras": keras.__version__}


def direct_eager_ops() -> None:
    """Start TF's runtime with each eager op run as its kernel, not wrapped in a one-op function.

    TF 2.21 runs every eager op as a function by default (`run_eager_op_as_function`, on since
    TF 2.9 and no longer settable from its public API): each new op signature is then placed,
    instantiated and run as a one-node graph, ~1 ms the first time and ~20 us more per call.
    A grade is ~1,600 eager ops and ~40 variable creations on tiny tensors, so this cost ~0.07
    CPU-s of a forked child's ~0.38 (docs/grading-benchmark.md, round 3). The kernels are the
    same either way: a grade's observations are bit-identical (tests/sandbox/
    test_worker_eager_ops.py). Here, in the worker's own code, so that the reference cache's
    fingerprint changes with it and the reference always runs as the candidate does."""
    from tensorflow.python import pywrap_tfe
    from tensorflow.python.eager import context

    ctx = context.context()
    ctx.ensure_initialized()
    # Private to TF: under a later TF without the switch or the handle, ops run as functions,
    # slower but observing the same numbers (tests/sandbox/test_worker_eager_ops.py then fails
    # on its placement check, saying the switch no longer takes).
    setter = getattr(pywrap_tfe, "TFE_ContextSetRunEagerOpAsFunction", None)
    handle = getattr(ctx, "_handle", None)
    if setter is not None and handle is not None:
        setter(handle, False)


def _eager_step() -> tuple[Any, Any, list[Any]]:
    """One eager training step (BatchNorm + Dropout, Adam, cross-entropy) on a throw-away model:
    the first use of each op kernel (~0.1 CPU-s in a fresh runtime) is paid here rather than
    during the job. Returns the model, the step (which uses the last optimizer of the list) and
    that list."""
    import keras
    import tensorflow as tf

    from . import models

    keras.utils.set_random_seed(0)
    model, loss_fn = models.with_bn_dropout(4, 3), models.sparse_ce()
    optimizers = [models.adam(0.01)]

    def step(x: object, y: object) -> object:
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizers[-1].apply_gradients(zip(grads, model.trainable_variables, strict=True))
        return loss

    step(models.batch(0, 8, 4), models.labels(0, 8, 3))
    return model, step, optimizers


def _step_on_prebuilt(contract_id: str) -> bool:
    """The warm step on the contract's own prebuilt state, then every variable put back.

    Its first eager scenario's model, optimizer, loss and first batch take one training step
    (the first use of each op kernel the job's eager scenarios need, off the job's clock), then
    the model's and optimizer's variables (weights, BatchNorm statistics, dropout seed state,
    slots, step counter) get back the values they had, so the job observes exactly what it
    would have (tests/sandbox/test_worker_eager_ops.py), error messages included: a throw-away
    model shifted Keras's layer numbering, so the names in them. Costs what the throw-away step
    did, ~0.055 CPU-s per child, and saves the job ~0.034 (docs/grading-benchmark.md, round 3).
    False when the contract has no such scenario (the caller then steps a throw-away model)."""
    import tensorflow as tf

    from . import scenarios

    contract = scenarios.CONTRACTS.get(contract_id)
    for scenario in contract.scenarios if contract else []:
        plan = scenarios._PREBUILT.get((contract_id, scenario.id))
        if plan is None or not plan.calls or len(plan.calls[0]) != 5:
            continue
        model, optimizer, loss_fn, x, y = plan.calls[0]
        if plan.models[:1] != [model] or plan.optimizers[:1] != [optimizer]:
            continue
        if plan.start(_plain_step) is not _plain_step:  # wrapped in tf.function: not eager
            continue
        variables = [*model.variables, *optimizer.variables]
        saved = [variable.numpy() for variable in variables]
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
        for variable, value in zip(variables, saved, strict=True):
            variable.assign(value)
        return True
    return False


def _plain_step(*args: Any) -> Any:
    return args


def _prebuild(contract_id: str) -> None:
    """One contract's scenario state, seeded exactly as `scenarios.prebuild` seeds it."""
    import keras

    from . import scenarios

    contract = scenarios.CONTRACTS.get(contract_id)
    for scenario in contract.scenarios if contract else []:
        keras.utils.set_random_seed(scenario.seed)
        scenarios._PREBUILT[(contract_id, scenario.id)] = scenario.build()


def main() -> None:
    # Before anything imports TensorFlow: Eigen's kernels instead of oneDNN's, whose first use
    # in each process (primitive creation) cost ~0.1 CPU-s per submission on these tiny models.
    # Here rather than in the launcher's environment so that the reference cache's fingerprint
    # (the worker files) changes with it: reference and candidate always run the same kernels.
    os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
    config = json.loads(sys.argv[1])
    if config.get("zygote"):  # a fork server: the result fd is its control socket
        from .zygote import serve as fork_server

        fork_server(config, int(config["result_fd"]))
        return
    lockdown.start_limits(int(config["nproc"]), int(config["file_size"]))
    serve(config)


def serve(config: dict[str, Any]) -> None:
    """Warm up, say ready, run one job, report, exit: in an exec-spawned worker, or in a child
    forked by the zygote (`zygote.isolate` done, TF imported but no op run yet)."""
    fd = int(config["result_fd"])
    began = time.monotonic()
    versions = warm_up(config.get("prebuild"), bool(config.get("warm_step")))
    send(fd, {"ready": True, "versions": versions, "warm_up_s": round(time.monotonic() - began, 3)})
    channel = _identity(fd)
    job = json.loads(sys.stdin.buffer.read(MAX_JOB))
    os.close(0)
    cpu_seconds = int(job.get("cpu_seconds", config["cpu_seconds"]))  # set by the supervisor
    # a forked child is its namespace's init (see lockdown.lock: the CPU limit's signal)
    lockdown.lock(cpu_seconds, int(config["open_files"]), init=os.getpid() == 1)
    from . import probes, seal
    from .runner import run_source

    sealed = seal.checker(probes.INSTALLED)  # before any candidate or instructor code runs
    began = time.monotonic()
    if job.get("kind") == "trial":  # *Run*: observe once on a public scenario, grade nothing
        from .trial import run_trial

        trial = run_trial(job["contract"], job["sources"][0]["code"], job.get("checker"))
        _flush()
        ran = round(time.monotonic() - began, 3)
        report(fd, channel, {"trial": trial, "versions": versions, "run_s": ran})
    if job.get("kind") == "replay":  # graphs traced elsewhere, run on hidden state (replay.py)
        from .replay import run_replay

        # several runs' graphs (a corpus batch, whose sources ran in one process) or one run's
        replayed = [run_replay(job, entries) for entries in job.get("batch", [job["scenarios"]])]
        _flush()
        report(fd, channel, {"replay": replayed[0], "replays": replayed,
                             "run_s": round(time.monotonic() - began, 3)})  # fmt: skip
    checker = job.get("checker")  # instructor code: runs only now, after the lockdown
    hidden = job.get("graph_seed")  # trusted jobs only: never sent with a candidate's code
    runs = [
        {"name": s["name"],
         **run_source(job["contract"], s["code"], checker, sealed,
                      None if hidden is None else int(hidden))}
        for s in job["sources"]
    ]  # fmt: skip
    _flush()
    report(fd, channel, {"runs": runs, "versions": versions,
                         "run_s": round(time.monotonic() - began, 3)})  # fmt: skip


# The exit status of a worker whose report channel the job closed or replaced (with /dev/null,
# say): its report cannot reach the supervisor, which names this status (workers.CHANNEL)
# instead of "it exited by itself". Mirrors app/grading/code/workers.py's REPORT_LOST.
REPORT_LOST = 125


def report(fd: int, channel: tuple[int, int] | None, payload: dict[str, object]) -> None:
    """Send the job's one report and exit; exit REPORT_LOST if the channel is not ours."""
    try:
        if _identity(fd) != channel:
            os._exit(REPORT_LOST)
        send(fd, payload)
    except OSError:
        os._exit(REPORT_LOST)
    os._exit(0)


def _identity(fd: int) -> tuple[int, int] | None:
    try:
        found = os.fstat(fd)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # the candidate may have closed or replaced it
            stream.flush()


if __name__ == "__main__":
    main()
