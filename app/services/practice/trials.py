"""*Run* on a code question: the sandbox's observations of one try, turned into plain lines.

A run never counts: no attempt is stored, no review is scheduled. It exists so a candidate
can check their step (does it return a loss? do gradients come back None? do the weights
move? does the step counter advance once per call?) before submitting, as they would with
print statements at a real keyboard.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from pydantic import BaseModel
from sqlmodel import Session

from app.errors import Conflict, GraderUnavailable
from app.grading.dispatch import CodeGraderLike
from app.models.users import User
from app.packs.catalog import Catalog
from app.packs.schema import Code, CodeFix
from app.services.practice.sessions import current_question, get_session
from app.services.progress.misconceptions import describe_scenario


class Trying(Protocol):
    async def trial(self, question: Code | CodeFix, source: str) -> dict[str, Any]: ...


class Observation(BaseModel):
    kind: str  # "ok" | "warn" | "error"
    text: str
    lines: list[int] = []


class TrialView(BaseModel):
    scenario: str
    observations: list[Observation]
    output: str = ""
    counted: bool = False


def can_run(code_grader: object) -> bool:
    """The in-process grader runs trials; a grader reached through a queue may not."""
    return code_grader is not None and callable(getattr(code_grader, "trial", None))


async def run_current(
    session: Session,
    catalog: Catalog,
    *,
    user: User,
    session_id: int,
    source: str,
    code_grader: CodeGraderLike | None,
) -> TrialView:
    quiz = get_session(session, user=user, session_id=session_id)
    item = current_question(catalog, quiz)
    if item is None or not isinstance(item.question, Code | CodeFix):
        raise Conflict("Run is for the current code question of a session")
    if code_grader is None:
        raise GraderUnavailable("code can't be run on this server: the sandbox is switched off")
    if not can_run(code_grader):
        raise GraderUnavailable("Run is not available with this server's grader; Submit still is")
    session.rollback()  # no transaction held while the sandbox runs
    report = await cast(Trying, code_grader).trial(item.question, source)
    return describe(report)


MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError)


def describe(report: object) -> TrialView:
    """The worker's report as sentences; numbers are the candidate's own, on public data.

    The report crossed from the sandbox, where the candidate's code ran: a forged or broken
    one is said to be so, never a server error."""
    try:
        if not isinstance(report, dict):
            raise TypeError("not an object")
        return _describe(report)
    except MALFORMED as err:
        text = f"The sandbox's report of this run was malformed ({type(err).__name__})."
        return TrialView(scenario="", observations=[Observation(kind="error", text=text)])


def _describe(report: dict[str, Any]) -> TrialView:
    scenario = describe_scenario(str(report.get("scenario", "")))
    notes: list[Observation] = []
    if report.get("unsupported"):
        notes.append(Observation(kind="warn", text=str(report["unsupported"])))
    for index, call in enumerate(report.get("calls", []), 1):
        notes.append(_returned(index, call.get("returned", {})))
    notes += _gradients(report.get("gradients"))
    notes += _variables(report.get("variables"))
    notes += _iterations(report.get("iterations"), len(report.get("calls", [])))
    error = report.get("error")
    if isinstance(error, dict):
        lines = [int(n) for n in error.get("lines", []) if isinstance(n, int)]
        where = f" (line {', '.join(map(str, lines))})" if lines else ""
        notes.append(
            Observation(kind="error", text=f"{error.get('message', '')}{where}", lines=lines)
        )
    return TrialView(
        scenario=scenario, observations=notes, output=str(report.get("output", ""))[:2000]
    )


def _returned(index: int, returned: dict[str, Any]) -> Observation:
    value = returned.get("value")
    if returned.get("kind") == "tensor" and value in ("nan", "inf", "-inf"):
        return Observation(kind="warn", text=f"Call {index} returned the loss {value}.")
    if returned.get("kind") == "tensor" and value is not None:
        return Observation(kind="ok", text=f"Call {index} returned the loss {float(value):.6g}.")
    if returned.get("kind") == "tensor":
        return Observation(
            kind="warn",
            text=f"Call {index} returned a tensor of shape {returned.get('shape')}, not a scalar.",
        )
    if returned.get("kind") == "none":
        return Observation(kind="warn", text=f"Call {index} returned None.")
    return Observation(
        kind="warn", text=f"Call {index} returned a {returned.get('type') or returned.get('kind')}."
    )


def _gradients(grads: Any) -> list[Observation]:
    if not isinstance(grads, dict):
        return []
    if not grads.get("calls"):
        return [Observation(kind="warn", text="tape.gradient was never called.")]
    none, total = int(grads.get("none", 0)), int(grads.get("results", 0))
    kind = "warn" if none else "ok"
    text = f"tape.gradient returned {total} gradient(s); {none} of them None."
    if not grads.get("applied"):
        return [
            Observation(kind=kind, text=text),
            Observation(kind="warn", text="The optimizer never applied gradients."),
        ]
    return [Observation(kind=kind, text=text)]


def _variables(models: Any) -> list[Observation]:
    notes = []
    for model in models or []:
        rows = model.get("variables", [])
        moved = [r["name"] for r in rows if r.get("changed")]
        still = [r["name"] for r in rows if not r.get("changed")]
        kind = "ok" if rows and not still else "warn"
        text = f"{len(moved)} of {model.get('total', len(rows))} trainable variables changed."
        if still:
            text += " Unchanged: " + ", ".join(still[:6]) + ("…" if len(still) > 6 else "")
        notes.append(Observation(kind=kind, text=text))
    return notes


def _iterations(counts: Any, calls: int) -> list[Observation]:
    if not isinstance(counts, dict):
        return []
    notes = []
    for before, after in zip(counts.get("before", []), counts.get("after", []), strict=False):
        kind = "ok" if after - before == calls else "warn"
        text = f"optimizer.iterations went from {before} to {after} over {calls} call(s)."
        notes.append(Observation(kind=kind, text=text))
    return notes
