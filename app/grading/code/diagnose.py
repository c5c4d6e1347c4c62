"""From observations to named mistakes: rules over probes, counters and source facts.

Each rule looks for the evidence of one misconception (gradients that are None where the
reference's are not, plus the loss assigned after the tape block; optimizer.iterations
advanced twice; moving statistics handed to the optimizer; a runtime error whose text says
what happened) and returns a Finding with its tag, teaching message and lines. Rules only
ever add findings, and the judge shows them only for scenarios whose numbers differ (except
the flags Keras forgives); a "correct" verdict is decided elsewhere, by the numbers.
"""

from __future__ import annotations

from typing import Any

from app.grading.code.findings import Finding, records
from app.grading.code.messages import GENERIC, message_for, runtime_error_tag, training_flag
from app.grading.code.requirements import REQUIREMENTS
from app.grading.code.static import SourceFacts

__all__ = ["Finding", "scenario_findings"]

_LOSS_OUTSIDE_ZERO = (
    "The loss was computed after the `with tf.GradientTape()` block closed, so the tape never "
    "recorded the operations that produced it and no weight is connected to it. Compute the "
    "forward pass and the loss inside the block."
)
# Errors that other rules explain better, because they know why (which variables, which tape).
_EXPLAINED_ELSEWHERE = ("No gradients provided", "Unknown variable", "originally built with")


def scenario_findings(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    error = cand["error"]
    if error and error["type"] == REPLAY_FAILED:  # the rules below read what the answer's
        return [Finding("exception", error["message"], ref["id"])]  # process said: not here
    found: list[Finding] = []
    rules = (
        _exception,
        _none_gradients,
        _variables,
        _targets,
        _left_out,
        _training_flag,
        _steps,
        _forward_passes,
        _numpy_changed_gradient,
        *REQUIREMENTS,
    )
    for rule in rules:
        found += rule(contract, ref, cand, facts)
    if any(f.tag not in GENERIC for f in found):  # the specific finding explains the rest
        found = [f for f in found if f.tag not in GENERIC]
    return [Finding(f.tag, f.message, ref["id"], f.lines) for f in found]


def _exception(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    error = cand["error"]
    if not error:
        return []
    text, lines = error["message"], error["lines"]
    for marker, tag, said in _OS_LIMITS:  # the kernel's words for a sandbox limit (round 16)
        if marker in text:
            return [Finding(tag, said.format(call=error["call"] + 1), lines=lines)]
    if "non-persistent" in text or _second_call_on_tape(cand):
        return [Finding("second-gradient-call", message_for("second-gradient-call"), lines=lines)]
    tag = runtime_error_tag(error["type"], text, lines, facts.apply_lines)
    if tag == "unconnected-zero-keras3" and facts.loss_outside_tape:  # the cut, then the error
        cut = Finding("loss-outside-tape", _LOSS_OUTSIDE_ZERO, lines=facts.loss_outside_tape)
        return [cut, Finding(tag, message_for(tag), lines=lines)]
    if tag:
        return [Finding(tag, message_for(tag), lines=lines)]
    if facts.numpy_on_path and "numpy" in text.lower():  # a NumPy value where a tensor was due
        return [Finding("numpy-inside-tape", message_for("numpy-inside-tape"), lines=lines)]
    if any(marker in text for marker in _EXPLAINED_ELSEWHERE):
        fallback = "none-gradients" if "No gradients" in text else "unknown-variable"
        return [Finding(fallback, message_for(fallback), lines=lines)]
    # The judge adds "[line N]" from `lines`; saying "(line N)" here too read "(line 7). [line 7]"
    message = f"Call {error['call'] + 1} raised {text.rstrip('. ')}."
    return [Finding("exception", message, lines=lines)]


REPLAY_FAILED = "GraphReplayFailed"
# Raised where Python's SIGXFSZ/SIGPIPE handling was reset (a forked worker, pid 1, never gets
# the default action): the bare "[Errno 27] File too large" named no limit (round 14, left).
_OS_LIMITS = (
    ("[Errno 27] File too large", "resource-limit",
     "Call {call} wrote a file past the sandbox's file size limit (1 MiB), so the write failed "
     "(File too large). A training step writes no files."),
    ("[Errno 32] Broken pipe", "exception",
     "Call {call} wrote to a pipe whose reading end was closed (Broken pipe): a pipe of its own "
     "or one of the checker's streams it had closed or replaced. A training step writes to no "
     "pipe; print() to show a value."),
)  # fmt: skip


def _second_call_on_tape(cand: dict[str, Any]) -> bool:
    seen: set[int] = set()
    for record in records(cand, "gradient"):
        if record["tape"] in seen and not record["persistent"]:
            return True
        seen.add(record["tape"])
    return False


def _missing_gradients(record: dict[str, Any]) -> bool:
    # None for BatchNorm statistics is the model-variables mistake, reported by its own rule.
    expected_none = record["sources"].get("non_trainable", 0)
    return record.get("none", 0) > expected_none


def _none_gradients(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    if _no_tape(ref, cand, facts):
        return [Finding("no-tape", message_for("no-tape"))]
    bad = [r for r in records(cand, "gradient") if _missing_gradients(r)]
    no_grads_error = bool(cand["error"] and "No gradients provided" in cand["error"]["message"])
    if not bad and not no_grads_error:
        return []
    if any(_missing_gradients(r) for r in records(ref, "gradient")):
        return []  # the reference sees None here too: not a mistake of the candidate
    return [_why_none(bad, ref, cand, facts)]


def _no_tape(ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts) -> bool:
    """The reference recorded on a tape and the candidate ran to the end (or to the
    optimizer's "No gradients") without ever opening one."""
    if not records(ref, "tape") or records(cand, "tape"):
        return False
    error = cand["error"]  # an error before any tape says nothing about tapes: shown as is
    return not error or any(m in error["message"] for m in _EXPLAINED_ELSEWHERE)


def _why_none(
    bad: list[dict[str, Any]], ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> Finding:
    ref_nested = [r for r in records(ref, "gradient") if r["open_tapes"]]
    cand_nested = [r for r in records(cand, "gradient") if r["open_tapes"]]
    if ref_nested and not cand_nested and len({r["tape"] for r in records(cand, "tape")}) > 1:
        return Finding("gradient-outside-outer-tape", message_for("gradient-outside-outer-tape"))
    if facts.loss_outside_tape:
        return Finding(
            "loss-outside-tape", message_for("loss-outside-tape"), lines=facts.loss_outside_tape
        )
    if facts.numpy_on_path:
        return Finding(
            "numpy-inside-tape", message_for("numpy-inside-tape"), lines=facts.numpy_on_path
        )
    watched = {w["tape"] for w in records(cand, "watch")}
    if any(r["sources"].get("tensor") and r["tape"] not in watched for r in bad):
        return Finding("no-watch", message_for("no-watch"))
    if any(r["sources"].get("tensor") for r in bad):
        return Finding("no-watch", message_for("no-watch"))
    return Finding("none-gradients", message_for("none-gradients"))


def _numpy_changed_gradient(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    """NumPy on a differentiable value inside the tape, no None gradient, no error: if the
    numbers then differ (the judge shows findings only then), part of the chain was cut."""
    if not facts.numpy_on_path or cand["error"]:
        return []
    if any(_missing_gradients(r) for r in records(cand, "gradient")):
        return []  # _none_gradients has the stronger evidence
    return [
        Finding("numpy-inside-tape", message_for("numpy-inside-tape"), lines=facts.numpy_on_path)
    ]


def _variables(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    seen = records(cand, "gradient") + records(cand, "apply")
    handed = [r.get("sources", r.get("variables", {})) for r in seen]
    if any(kinds.get("non_trainable") for kinds in handed):
        return [
            Finding("model-variables", message_for("model-variables"), lines=facts.gradient_lines)
        ]
    return []


def _targets(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    """Each optimizer must update the network it belongs to (GAN: generator vs discriminator)."""
    want = {r["optimizer"]: tuple(r["models"]) for r in records(ref, "apply")}
    got = {r["optimizer"]: tuple(r["models"]) for r in records(cand, "apply")}
    if any(got.get(opt) not in (None, models) for opt, models in want.items()) and len(want) > 1:
        return [
            Finding(
                "optimizers-swapped", message_for("optimizers-swapped"), lines=facts.apply_lines
            )
        ]
    ref_sources = {k for r in records(ref, "gradient") for k in r["sources"]}
    cand_sources = {k for r in records(cand, "gradient") for k in r["sources"]}
    if ref_sources == {"tensor"} and "trainable" in cand_sources:
        return [
            Finding(
                "gradient-wrt-weights",
                message_for("gradient-wrt-weights"),
                lines=facts.gradient_lines,
            )
        ]
    return []


def _left_out(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    """Fewer variables reached an optimizer than in the reference, or gradient and variable
    lists of different lengths: zip() stops at the shorter list without a word."""
    uneven = any(0 < r.get("count", 0) != r.get("grads", -1) >= 0 for r in records(cand, "apply"))
    want = {r["optimizer"]: r.get("count", 0) for r in records(ref, "apply")}
    got = {r["optimizer"]: r.get("count", 0) for r in records(cand, "apply")}
    short = any(0 < got.get(opt, want[opt]) < want[opt] for opt in want)
    if uneven or short:
        return [Finding("zip-mismatch", message_for("zip-mismatch"), lines=facts.apply_lines)]
    return []


def _training_flag(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    ref_modes = {(r["model"], bool(r["training"])) for r in records(ref, "model_call")}
    cand_modes = {(r["model"], bool(r["training"])) for r in records(cand, "model_call")}
    for model, training in sorted(ref_modes):
        if training and (model, True) not in cand_modes and (model, False) in cand_modes:
            return [Finding("missing-training-flag", training_flag(contract, model))]
        if not training and (model, True) in cand_modes:
            return [
                Finding("training-true-for-inference", message_for("training-true-for-inference"))
            ]
    return []


def _steps(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    if not ref["calls"] or not cand["calls"] or cand["error"]:
        return []
    expected, got = ref["calls"][-1]["iterations"], cand["calls"][-1]["iterations"]
    if expected != got and _applies(cand) and _applies(ref) == _applies(cand):
        return [Finding("iterations-edited", message_for("iterations-edited"))]
    for want, have in zip(expected, got, strict=False):
        tag = _step_tag(contract, want, have, len(cand["calls"]), cand)
        if tag:
            return [Finding(tag, message_for(tag), lines=facts.apply_lines)]
    return []


def _applies(run: dict[str, Any]) -> dict[int, int]:
    """How many times each optimizer's apply was called (at trace time under tf.function)."""
    tally: dict[int, int] = {}
    for record in records(run, "apply"):
        tally[record["optimizer"]] = tally.get(record["optimizer"], 0) + 1
    return tally


# The tags _step_tag gives a step that applies the optimizer a wrong number of times, on any
# contract (the instructor self-test checks a reference against them).
STEP_COUNT_TAGS = frozenset(
    {
        "missing-apply",
        "iterations-edited",
        "optimizer-bypassed",
        "optimizer-stepped-twice",
        "optimizer-applied-too-often",
        "optimizer-applied-too-rarely",
    }
)


def _step_tag(contract: str, want: int, have: int, calls: int, cand: dict[str, Any]) -> str:
    if have == want:
        return ""
    if have == 0:
        unchanged = cand["initial"] == cand["calls"][-1]["weights"]
        return "missing-apply" if unchanged else "optimizer-bypassed"
    if contract == "accumulate" and have == calls:
        return "applied-every-step"
    if have == 2 * want:
        return "optimizer-stepped-twice"
    return "optimizer-applied-too-often" if have > want else "optimizer-applied-too-rarely"


def _forward_passes(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    def counts(run: dict[str, Any]) -> dict[int, int]:
        tally: dict[int, int] = {}
        for record in records(run, "model_call"):
            tally[record["model"]] = tally.get(record["model"], 0) + 1
        return tally

    ref_counts, cand_counts = counts(ref), counts(cand)
    if any(cand_counts.get(model, 0) > n for model, n in ref_counts.items()):
        return [Finding("extra-forward-pass", message_for("extra-forward-pass"))]
    return []
