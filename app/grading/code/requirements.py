"""Rules for what a prompt requires beyond matching numbers.

A step can reproduce the reference's numbers and still not be what the question asked for:
clipping done by hand or by reconfiguring the optimizer, a Python float returned where the
loss tensor is asked for, sums kept outside tf.Variables. These rules read the source facts
and probe records; the judge reports the ones in its FLAGS even when every number matches.
"""

from __future__ import annotations

from typing import Any

from app.grading.code.findings import Finding, records
from app.grading.code.messages import message_for
from app.grading.code.static import SourceFacts

TENSOR_RESULT = {"train-step", "clip-step"}  # prompts that say "returns the scalar loss tensor"


def _returned_number(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    """The prompt asks for the scalar loss *tensor*; float(loss) or loss.numpy() is not one
    (AutoGraph quietly turns float() into a cast under tf.function, so only eager shows it)."""
    if contract not in TENSOR_RESULT:
        return []
    for ref_call, cand_call in zip(ref["calls"], cand["calls"], strict=False):
        if "python" not in ref_call["out"] and cand_call["out"].get("python"):
            return [Finding("returned-python-number", message_for("returned-python-number"))]
    return []


def _reconfigured(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    want, got = records(ref, "optimizer_config"), records(cand, "optimizer_config")
    if not want or not got or want == got:
        return []
    changed = {key for w, g in zip(want, got, strict=False) for key in w if w[key] != g.get(key)}
    if changed <= {"learning_rate"}:  # the clipping advice below would answer another mistake
        return [Finding("optimizer-reconfigured", LEARNING_RATE_CHANGED)]
    return [Finding("optimizer-reconfigured", message_for("optimizer-reconfigured"))]


LEARNING_RATE_CHANGED = (
    "The step changed the optimizer's learning rate. The optimizer belongs to the caller, "
    "which chose that rate and keeps it for every later step; a training step only applies "
    "gradients (a rate that must change over time is the optimizer's schedule, set where it "
    "is created)."
)


def _accumulators(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    """The accumulate prompt asks for tf.Variable accumulators; sums kept as Python tensors
    match eagerly but are not what was asked (and freeze into the trace under tf.function)."""
    if contract != "accumulate" or "Variable" in facts.calls:
        return []
    # An optimizer step on every call means nothing was accumulated at all: that is the
    # stepping diagnosis's to explain, and "summed as plain tensors" would be untrue.
    if cand["calls"] and len(records(cand, "apply")) >= len(cand["calls"]):
        return []
    return [Finding("accumulators-not-variables", message_for("accumulators-not-variables"))]


def _clipping(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    if contract != "clip-step":
        return []
    if "clip_by_global_norm" in facts.calls:
        wrong = sorted({norm for norm in facts.clip_norms if norm != 1.0})
        if not wrong:
            return []
        message = (
            f"The gradients were clipped to a global norm of {wrong[0]:g}; the question asks "
            "for 1.0 (tf.clip_by_global_norm(grads, 1.0)). Above the limit every gradient is "
            "scaled by clip_norm / global_norm, so another clip_norm changes every large update."
        )
        return [Finding("clip-wrong-norm", message)]
    if "clip_by_norm" in facts.calls:
        tag = "clip-per-tensor"
    elif "clip_by_value" in facts.calls or "clip" in facts.calls:  # keras.ops.clip, np.clip
        tag = "clip-by-value"
    elif "global_norm" in facts.calls or "norm" in facts.calls:
        tag = "clip-by-hand"
    else:
        tag = "no-clip"
    return [Finding(tag, message_for(tag))]


def _nested(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    """second-derivative asks for nested tapes; one persistent tape asked twice gives the
    same numbers but is not what the question tests (the outer tape recording the inner)."""
    if contract != "second-derivative" or cand["error"]:
        return []
    nested = any(r["open_tapes"] for r in records(ref, "gradient"))
    tapes = {r["tape"] for r in records(cand, "tape")}
    # One gradient call is a first derivative, not a tape asked twice: that is a wrong
    # answer for the numbers and the known-wrong fingerprints to explain, not this flag.
    twice = len(records(cand, "gradient")) >= 2
    if nested and len(tapes) == 1 and twice:
        return [Finding("not-nested-tapes", message_for("not-nested-tapes"))]
    return []


def _loss_scale(
    contract: str, ref: dict[str, Any], cand: dict[str, Any], facts: SourceFacts
) -> list[Finding]:
    """The returned loss is a whole multiple (2 or more) of the reference's on every call: the
    per-example losses were summed (reduce_sum, a hand-written loss) or the mean scaled by the
    batch size. Said with the factor: "the returned value differs" did not say why (round 15)."""
    if contract not in TENSOR_RESULT or not cand["calls"]:
        return []
    factors = {
        _factor(r["out"], c["out"]) for r, c in zip(ref["calls"], cand["calls"], strict=False)
    }
    if len(factors) != 1 or not (factor := factors.pop()):
        return []
    return [Finding("loss-summed", LOSS_SUMMED.format(factor=factor), lines=facts.gradient_lines)]


def _factor(want: dict[str, Any], got: dict[str, Any]) -> int:
    if want.get("kind") != "tensor" or got.get("kind") != "tensor":
        return 0
    if len(want["values"]) != 1 or len(got["values"]) != 1:
        return 0
    expected, returned = want["values"][0], got["values"][0]
    if not isinstance(expected, float) or not isinstance(returned, float) or expected <= 0:
        return 0
    ratio = returned / expected
    whole = round(ratio)
    return whole if whole >= 2 and abs(ratio - whole) <= 1e-4 * whole else 0


LOSS_SUMMED = (
    "The returned loss is {factor} times a correct step's on every call: the per-example "
    "losses were summed over the batch (tf.reduce_sum, or a loss written by hand) or the "
    "mean was multiplied by a constant. That makes every gradient, and so every update, "
    "{factor} times larger, and ties the step size to the batch size; Keras losses average "
    "over the batch: use loss_fn(y, predictions) as it is."
)
REQUIREMENTS = (
    _clipping, _returned_number, _reconfigured, _accumulators, _nested, _loss_scale
)  # fmt: skip
