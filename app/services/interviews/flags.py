"""Red flags: the tells an interviewer notes, each with the evidence that showed it.

The source document names five tells (asking for zero_grad, "tape.gradient updates the
weights", gradients against model.variables, the loss after the tape block, NumPy inside the
tape). Graders report misconception tags; this module maps them to tells and finds the
evidence: the sentence the free-text grader quoted, the code line that does it, or the
wrong statement a candidate picked. Other misconceptions a grader names are kept too, as
lesser flags. Only graded results are read: nothing here grades.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.grading.freetext import affirms, stated_core_tells
from app.models.interviews import RedFlag
from app.packs.loader import LoadedQuestion
from app.packs.schema import ChoiceQuestionBase, TrueFalse
from app.services.interviews import code_tells as code
from app.services.interviews.plans import related

MAX_EVIDENCE = 300
_QUOTE = re.compile(r"\u201c(.+?)\u201d", re.DOTALL)
_NAMED = re.compile(r"^Misconception\s*[\u2013-]\s*(.+?):")
_LINES = re.compile(r"\[lines? ([\d, ]+)\]")
# Code-checker outcomes that say the code failed, not what the candidate believes.
NOT_MISCONCEPTIONS = {
    "exception", "wrong-result", "syntax-error", "missing-function", "wrong-signature",
    "resource-limit",
}  # fmt: skip


@dataclass(frozen=True)
class Tell:
    id: str
    label: str
    correction: str
    tags: tuple[str, ...]  # misconception tags graders use for it
    statement: re.Pattern[str]  # a wrong claim a candidate may pick in a closed question
    code_lines: Callable[[str], list[str]]  # lines of source that show it


TELLS: tuple[Tell, ...] = (
    Tell(
        "zero-grad",
        "Reached for zero_grad",
        "TensorFlow has no gradient-zeroing step: tape.gradient returns fresh tensors every "
        "step and nothing accumulates on the variables.",
        ("needs-zero-grad", "zero-grad"),
        re.compile(r"zero_grad|zero(ing)? (out )?the grad", re.IGNORECASE),
        code.lines_matching(r"\bzero_grad\b"),
    ),
    Tell(
        "gradient-updates-weights",
        '"tape.gradient updates the weights"',
        "tape.gradient only computes gradients; optimizer.apply_gradients changes the weights.",
        ("gradient-updates-weights",),
        re.compile(r"tape\.gradient\b.{0,60}\b(updat|modif|chang|assign)", re.IGNORECASE),
        code.no_lines,
    ),
    Tell(
        "model-variables",
        "Took gradients against model.variables",
        "Pass model.trainable_variables: model.variables also holds non-trainable state such "
        "as batch-norm moving statistics that no optimizer should update.",
        ("model-variables", "pass-model-variables"),
        re.compile(r"\bmodel\.variables\b"),
        code.lines_matching(r"\.variables\b"),
    ),
    Tell(
        "loss-after-tape",
        "Computed the loss after the tape block",
        "The forward pass and the loss must both run inside the `with` block, or the loss is "
        "not connected to the recording and the gradients come back None.",
        ("loss-outside-tape", "loss-outside-is-fine", "loss-after-tape"),
        re.compile(r"loss.{0,40}\b(after|outside)\b.{0,30}(block|tape|with)", re.IGNORECASE),
        code.loss_after_tape,
    ),
    Tell(
        "numpy-in-tape",
        "Used NumPy inside the tape",
        "NumPy operations are not recorded: converting to NumPy inside the block silently "
        "breaks the chain. Keep everything in TensorFlow ops.",
        ("numpy-in-tape", "numpy-inside-tape"),
        re.compile(
            r"(numpy|\bnp\.).{0,80}\b(record|watch|track|fine|differentiat)"
            r"|\b(record|watch|track)\w*.{0,80}numpy",
            re.IGNORECASE,
        ),
        code.numpy_in_tape,
    ),
)


def tell_for_tag(tag: str) -> Tell | None:
    return next((t for t in TELLS if any(related(tag, known) for known in t.tags)), None)


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_EVIDENCE else text[: MAX_EVIDENCE - 1] + "\u2026"


@dataclass(frozen=True)
class Quote:
    """What the free-text grader said about one misconception tag."""

    quote: str
    label: str
    correction: str


def _quotes_by_tag(result: dict[str, Any], source: str, is_code: bool) -> dict[str, Quote]:
    """What the grader said per tag: the free-text grader's tells come first among its
    misconception feedback, in tag order; the code checker gives one message per tag, in
    order, naming the lines (`[line 4, 6]`) that show it."""
    feedback = result.get("feedback", [])
    items = [f["message"] for f in feedback if is_code or f["kind"] == "misconception"]
    found: dict[str, Quote] = {}
    for tag, message in zip(result.get("misconceptions", []), items, strict=False):
        if is_code:
            label = tag.replace("-", " ").capitalize()
            found[tag] = Quote(_cited_lines(message, source), label, message.split(" [line")[0])
            continue
        quote, named = _QUOTE.search(message), _NAMED.search(message)
        correction = message.rsplit("\u201d.", 1)[-1].strip() if quote else ""
        found[tag] = Quote(
            quote.group(1) if quote else "", named.group(1) if named else tag, correction
        )
    return found


def _cited_lines(message: str, source: str) -> str:
    cited = _LINES.search(message)
    if not cited:
        return ""
    lines = source.splitlines()
    numbers = [int(n) for n in re.findall(r"\d+", cited.group(1))]
    return " / ".join(lines[n - 1].strip() for n in numbers if 0 < n <= len(lines))


def _affirmed_statements(item: LoadedQuestion, answer: object) -> list[tuple[str, str]]:
    """What a closed answer claims that is false, with how it was claimed: wrong picks, or
    a false statement answered true."""
    q = item.question
    if isinstance(q, TrueFalse):
        says_true = answer is True or answer == "true"
        return [("Answered true to", q.prompt.strip())] if says_true and not q.answer else []
    if isinstance(q, ChoiceQuestionBase):
        picked = set(answer) if isinstance(answer, list) else {answer}
        return [("Chose", c.text) for c in q.choices if c.id in picked and not c.correct]
    return []


def _flag(tell: Tell, evidence: str, item: LoadedQuestion, position: int) -> RedFlag:
    return RedFlag(
        tell=tell.id,
        kind="tell",
        label=tell.label,
        evidence=_clip(evidence),
        correction=tell.correction,
        question_id=item.question.id,
        position=position,
    )


def _from_tags(
    item: LoadedQuestion, position: int, answer: object, result: dict[str, Any]
) -> list[RedFlag]:
    source = answer if isinstance(answer, str) else ""
    is_code = item.question.type in ("code", "code-fix")
    quotes = _quotes_by_tag(result, source, is_code)
    flags = []
    for tag in result.get("misconceptions", []):
        said = quotes.get(tag, Quote("", tag, ""))
        tell = tell_for_tag(tag)
        if tell is None and tag not in NOT_MISCONCEPTIONS:
            flags.append(_lesser_flag(tag, said, source, item, position))
        elif tell is not None:
            lines = tell.code_lines(source) if is_code else []
            evidence = (lines[0] if lines else "") or said.quote or source
            flags.append(_flag(tell, evidence, item, position))
    return flags


def _lesser_flag(
    tag: str, said: Quote, source: str, item: LoadedQuestion, position: int
) -> RedFlag:
    return RedFlag(
        tell=tag,
        kind="misconception",
        label=said.label,
        evidence=_clip(said.quote or source or "(named by the grader)"),
        correction=said.correction,
        question_id=item.question.id,
        position=position,
    )


def find_red_flags(
    item: LoadedQuestion, position: int, answer: object, result: dict[str, Any] | None
) -> list[RedFlag]:
    """Every tell (and other named misconception) one answer showed, with its evidence;
    an answer that addressed the grader, as a conduct flag."""
    flags = _from_tags(item, position, answer, result) if result else []
    if result and (result.get("details") or {}).get("injection") and isinstance(answer, str):
        flags.insert(0, _addressed_grader(answer, item, position))
    if item.question.type in ("code", "code-fix") and isinstance(answer, str):
        for tell in TELLS:
            lines = tell.code_lines(answer)
            if lines:
                flags.append(_flag(tell, lines[0], item, position))
    for how, statement in _affirmed_statements(item, answer):
        flags += [
            _flag(tell, f"{how}: {statement}", item, position)
            for tell in TELLS
            if _states(tell, statement)
        ]
    return _unique(flags)


def _addressed_grader(answer: str, item: LoadedQuestion, position: int) -> RedFlag:
    """An answer the free-text grader read as instructions to itself (signals.is_injection):
    an interviewer notes that before any content."""
    return RedFlag(
        tell="addressed-the-grader",
        kind="conduct",
        label="Wrote to the grader instead of answering",
        evidence=_clip(answer),
        correction="An interviewer reads the explanation, not instructions about how to mark "
        "it: answer the question in your own words.",
        question_id=item.question.id,
        position=position,
    )


def _states(tell: Tell, statement: str) -> bool:
    """Whether a picked statement asserts the tell, read as practice feedback reads free
    text: the free-text grader's matcher with the rubric phrasings, or with the tell's own
    pattern for terse choices ("`model.variables`"); a denial is no tell either way."""
    stated = stated_core_tells(statement)
    if any(related(tag, known) for tag in stated for known in tell.tags):
        return True
    return affirms(statement, tell.statement.pattern)


def _unique(flags: list[RedFlag]) -> list[RedFlag]:
    seen: set[tuple[str, str]] = set()
    kept = []
    for flag in flags:
        if (flag.tell, flag.question_id) not in seen:
            seen.add((flag.tell, flag.question_id))
            kept.append(flag)
    return kept
