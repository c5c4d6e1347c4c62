"""The trusted verdict: compare the candidate's run with the reference and name the mistakes.

Correct means every scenario's observations match the reference run and no flagged mistake
(such as handing BatchNorm statistics to the optimizer, which Keras forgives) was seen; a
candidate's prints, patches or exit codes cannot reach this code, only its numbers can.
Known-wrong solutions from the pack run beside the reference, so a submission that behaves
exactly like one of them gets that mistake's label even when no rule recognises it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.grading.code.compare import Mismatch, Tolerance, compare_scenario, same_behaviour
from app.grading.code.diagnose import Finding, scenario_findings
from app.grading.code.messages import MESSAGES, message_for
from app.grading.code.static import SourceFacts
from app.grading.results import Feedback, FeedbackKind, GradeResult

# Reported even when the numbers match: Keras tolerates them, or the prompt forbids them.
FLAGS = {
    "model-variables",
    "returned-python-number",
    "optimizer-reconfigured",
    "accumulators-not-variables",
    "not-nested-tapes",
}
_KINDS: dict[str, FeedbackKind] = {"exception": "error", "wrong-result": "info"}


@dataclass(frozen=True)
class KnownWrong:
    tag: str
    label: str
    run: dict[str, Any]


def judge(*, contract: str, reference: dict[str, Any], candidate: dict[str, Any],
          known: list[KnownWrong], facts: SourceFacts,
          tolerance: Tolerance = None) -> GradeResult:  # fmt: skip
    if candidate["load_error"]:
        return _load_failure(candidate["load_error"])
    passed, findings, mismatches, failed = 0, [], [], []
    for ref, cand in zip(reference["scenarios"], candidate["scenarios"], strict=False):
        diffs = compare_scenario(ref, cand, tolerance)
        ok = not diffs and not cand["error"] and len(cand["calls"]) == len(ref["calls"])
        passed += ok
        failed += [] if ok else [ref["id"]]
        mismatches += diffs
        findings += [
            f for f in scenario_findings(contract, ref, cand, facts) if not ok or f.tag in FLAGS
        ]
    total = len(reference["scenarios"])
    if passed == total and not findings:
        return _correct(reference)
    # A fingerprint is weaker evidence than a rule: a built-in tag comes from it only when no
    # rule fired; a pack's own tag (no rule can find it) is added either way.
    found = _known(known, candidate, tolerance)
    findings += [f for f in found if not findings or f.tag not in MESSAGES]
    if not findings:
        findings.append(_fallback(mismatches))
    result = _incorrect(findings, passed, total, mismatches)
    result.details["failed_scenarios"] = failed
    return result


def _known(
    known: list[KnownWrong], candidate: dict[str, Any], tolerance: Tolerance
) -> list[Finding]:
    runs = [(k, k.run["scenarios"]) for k in known]
    matches = [k for k, run in runs if same_behaviour(run, candidate["scenarios"], tolerance)]
    return [Finding(k.tag, message_for(k.tag, k.label)) for k in matches]


def _fallback(mismatches: list[Mismatch]) -> Finding:
    if not mismatches:
        return Finding("wrong-result", message_for("wrong-result"))
    first = mismatches[0]
    verb = "differ" if first.what.endswith(("weights", "steps")) else "differs"
    message = (
        f"In scenario {first.scenario}, after call {first.call}, the {first.what} {verb} from a "
        f"correct step run from the same state ({first.where}: {first.detail})."
    )
    return Finding("wrong-result", message, first.scenario)


def _correct(reference: dict[str, Any]) -> GradeResult:
    names = ", ".join(s["id"] for s in reference["scenarios"])
    message = f"Matches the reference step in every scenario ({names})."
    scenarios = [{"id": s["id"], "passed": True} for s in reference["scenarios"]]
    details: dict[str, object] = {"scenarios": scenarios}
    return GradeResult("correct", 1.0, [Feedback("correct", message)], [], details)


def _incorrect(
    findings: list[Finding], passed: int, total: int, mismatches: list[Mismatch]
) -> GradeResult:
    tags: list[str] = []
    feedback: list[Feedback] = []
    for finding in findings:
        if finding.tag in tags:
            continue
        tags.append(finding.tag)
        where = f" [line {', '.join(map(str, finding.lines))}]" if finding.lines else ""
        kind: FeedbackKind = _KINDS.get(finding.tag, "misconception")
        feedback.append(Feedback(kind, finding.message + where))
    score = round(0.5 * passed / total, 3) if total else 0.0
    details: dict[str, object] = {
        "scenarios_passed": f"{passed}/{total}",
        "mismatches": [m.__dict__ for m in mismatches[:6]],
        "lines": sorted({ln for f in findings for ln in f.lines}),
        "scenario_of_first_finding": findings[0].scenario if findings else "",
    }
    return GradeResult("partial" if score else "incorrect", score, feedback, tags, details)


def _load_failure(error: dict[str, Any]) -> GradeResult:
    tag = {
        "syntax": "syntax-error",
        "missing": "missing-function",
        "signature": "wrong-signature",
        "not-plain": "wrong-signature",  # async def or a generator: the message says which
    }.get(error["kind"], "exception")
    where = f" (line {error['lines'][-1]})" if error["lines"] else ""
    lead = "" if error["kind"] == "not-plain" else f"{message_for(tag)} "
    message = f"{lead}{error['message']}{where}"
    return GradeResult(
        "incorrect", 0.0, [Feedback("error", message)], [tag], {"lines": error["lines"]}
    )
