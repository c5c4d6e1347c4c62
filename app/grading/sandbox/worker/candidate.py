"""Load candidate source into a fresh namespace and turn its failures into line-numbered facts.

The source is executed afresh for every scenario, so a module-level `@tf.function` never
meets a second model or optimizer. It is registered in `linecache` because AutoGraph reads a
function's source (through `inspect`) before converting it.
"""

from __future__ import annotations

import builtins
import inspect
import linecache
import re
import traceback
from typing import Any

CANDIDATE_FILE = "/candidate/answer.py"
MAX_MESSAGE = 2_000


class CandidateError(Exception):
    """The candidate's code could not be loaded or called as the contract says."""

    def __init__(self, kind: str, message: str, lines: list[int]) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.lines = lines


def register_source(source: str) -> None:
    lines = source.splitlines(keepends=True)
    linecache.cache[CANDIDATE_FILE] = (len(source), None, lines, CANDIDATE_FILE)


def load_function(source: str, name: str, arity: int, keywords: tuple[str, ...] = ()) -> Any:
    """Execute the source in a new module namespace and return the contract's function."""
    register_source(source)
    namespace: dict[str, Any] = {"__name__": "answer", "__builtins__": builtins}
    try:
        code = compile(source, CANDIDATE_FILE, "exec")
    except SyntaxError as err:
        raise CandidateError("syntax", f"{err.msg}", [err.lineno or 0]) from None
    try:
        exec(code, namespace)  # noqa: S102 - running the candidate's code is the point
    except BaseException as err:
        raise CandidateError("load", describe(err), candidate_lines(err)) from None
    fn = namespace.get(name)
    if not callable(fn):
        raise CandidateError("missing", f"no function named {name!r} is defined", [])
    check_plain(fn, name)
    check_arity(fn, name, arity, keywords)
    return fn


def check_plain(fn: Any, name: str) -> None:
    """An `async def` or a generator runs none of its body when called: the checker saw no
    tape and unchanged weights, and said so, which sent the learner looking in the wrong
    place. Said plainly instead."""
    if inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn):
        what, returns = "defined with async def", "a coroutine"
    elif inspect.isgeneratorfunction(fn):
        what, returns = "a generator (its body contains yield)", "a generator"
    else:
        return
    message = (
        f"{name} is {what}: calling it returns {returns} and runs none of its body, so "
        "nothing is computed. Define it with a plain def and return the result."
    )
    lines = [fn.__code__.co_firstlineno] if hasattr(fn, "__code__") else []
    raise CandidateError("not-plain", message, lines)


def check_arity(fn: Any, name: str, arity: int, keywords: tuple[str, ...] = ()) -> None:
    try:
        inspect.signature(fn).bind(*range(arity), **dict.fromkeys(keywords))
    except TypeError as err:
        lines = [fn.__code__.co_firstlineno] if hasattr(fn, "__code__") else []
        wanted = f"the arguments {', '.join(keywords)}" if keywords else f"{arity} arguments"
        message = f"{name} cannot take {wanted}: {err}"
        raise CandidateError("signature", message, lines) from None
    except ValueError:
        return  # no introspectable signature (a C callable): let the call decide


def describe(err: BaseException) -> str:
    text = f"{error_type(err)}: {without_internal_frames(message_of(err))}"
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "..."


def without_internal_frames(message: str) -> str:
    """A graph error's message without the frames that are not the answer's.

    TF lists where the failing op was defined, from runpy through the worker's own modules
    (`File "/opt/tapequiz/tqworker/runner.py", line 45, ...`), each followed by a blank line,
    before the error itself; the feedback showed a screen of the checker's internals and the
    2,000-character cut could drop the one line that said what went wrong (round 14)."""
    if "(most recent call last):" not in message:
        return message
    kept = [
        line
        for line in message.split("\n")
        if not line.lstrip().startswith('File "') or CANDIDATE_FILE in line
    ]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept))


def error_type(err: BaseException) -> str:
    """The exception's class name, read past any metaclass (which could run code or lie)."""
    return str(type.__dict__["__name__"].__get__(type(err), type))[:80]


def message_of(err: BaseException) -> str:
    """str(err), which runs the code's own __str__ when it raised its own exception class: one
    that raised or recursed made the worker's report incomplete, and the learner read
    "malformed report ... writes to the checker's channels" (round 14)."""
    try:
        return str(err)
    except BaseException as inner:  # whatever its __str__ raised is the answer's doing
        return f"<the exception's message could not be read: {error_type(inner)}>"


def call_error(err: BaseException, call: int) -> dict[str, Any]:
    """The report of an exception raised during the candidate's `call`-th call (0-based)."""
    return {
        "type": error_type(err),
        "message": describe(err),
        "lines": candidate_lines(err),
        "call": call,
    }


def candidate_lines(err: BaseException) -> list[int]:
    """Lines of the candidate's file in the traceback, innermost last."""
    frames = traceback.extract_tb(BaseException.__dict__["__traceback__"].__get__(err))
    lines = [f.lineno or 0 for f in frames if f.filename == CANDIDATE_FILE]
    lines += _lines_in_message(message_of(err)[:100_000])
    seen: list[int] = []
    for line in lines:
        if line not in seen:
            seen.append(line)
    return seen[-5:]


def _lines_in_message(message: str) -> list[int]:
    # tf.function errors carry the user's frames as text: 'File "/candidate/answer.py", line 7'
    marker = f'File "{CANDIDATE_FILE}", line '
    found = []
    for chunk in message.split(marker)[1:]:
        digits = "".join(ch for ch in chunk[:8] if ch.isdigit() or ch == ",").split(",")[0]
        if digits.isdigit():
            found.append(int(digits))
    return found
