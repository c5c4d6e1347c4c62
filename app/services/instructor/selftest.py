"""Prove a pack grades its own answers correctly before anyone else sees it.

Schema validation says a pack is well-formed; only running the graders says it is right.
Every code question's reference must pass through the real sandbox and each known-wrong
solution must fail with its labelled misconception, every labelled free-text sample must
get its labelled verdict and tags, and every choice question must grade its own key as
correct (and the alternatives as not). Each failure carries the file and line of the
sample, solution or field at fault, like the loader's problems (CodeRunner's bulk tester).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from app.errors import AnswerInvalid
from app.grading.code.diagnose import STEP_COUNT_TAGS
from app.grading.dispatch import CodeGraderLike, grade_closed
from app.grading.results import GradeResult
from app.packs.loader import LoadedQuestion, Pack
from app.packs.schema import (
    ChoiceQuestionBase,
    Code,
    CodeFix,
    FreeText,
    MultipleChoice,
    Ordering,
    TrueFalse,
)
from app.packs.yamlfiles import YamlDoc, YamlFileError, read_yaml

Status = str  # "pass" | "fail" | "skip"


@dataclass(frozen=True)
class Check:
    question_id: str
    what: str  # "choices", "sample 2", "reference", "wrong loss-outside-tape"
    status: Status
    file: str
    line: int
    message: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.question_id}: {self.what}: {self.message}"


@dataclass(frozen=True)
class QuestionRow:
    question_id: str
    type: str
    checks: tuple[Check, ...]

    def count(self, status: Status) -> int:
        return sum(c.status == status for c in self.checks)

    @property
    def status(self) -> Status:
        if self.count("fail"):
            return "fail"
        return "skip" if self.count("skip") else "pass"


@dataclass(frozen=True)
class SelfTestReport:
    pack_id: str
    rows: tuple[QuestionRow, ...] = ()
    problems: tuple[str, ...] = field(default=())  # load problems: the pack did not validate

    @property
    def failures(self) -> list[Check]:
        return [c for row in self.rows for c in row.checks if c.status == "fail"]

    @property
    def passed(self) -> bool:
        return not self.problems and not self.failures


class _Where:
    """Line numbers inside one question file, read lazily and only when a check fails."""

    def __init__(self, item: LoadedQuestion) -> None:
        self.item = item
        self._doc: YamlDoc | None = None

    def check(self, what: str, ok: bool, loc: tuple[int | str, ...], message: str = "") -> Check:
        line = 1 if ok else self._line(loc)
        status = "pass" if ok else "fail"
        return Check(self.item.question.id, what, status, str(self.item.file), line, message)

    def _line(self, loc: tuple[int | str, ...]) -> int:
        if self._doc is None:
            try:
                self._doc = read_yaml(self.item.file)
            except (OSError, YamlFileError):
                return 1
        return self._doc.line_of(loc)


def _is_correct(question: object, answer: object) -> bool:
    try:
        result = grade_closed(question, answer)
    except AnswerInvalid:  # a key the grader rejects as malformed is not a correct key
        return False
    return result is not None and result.verdict == "correct"


def _choice_checks(question: ChoiceQuestionBase, where: _Where) -> list[Check]:
    key = sorted(question.correct_ids())
    answer: object = key if isinstance(question, MultipleChoice) else key[0]
    checks = [where.check("key", _is_correct(question, answer), ("choices",), "key not correct")]
    for index, choice in enumerate(question.choices):
        wrong: object = [choice.id] if isinstance(question, MultipleChoice) else choice.id
        if wrong != answer and _is_correct(question, wrong):
            message = f"choice {choice.id!r} alone grades as correct"
            checks.append(where.check(f"choice {choice.id}", False, ("choices", index), message))
    return checks


def _true_false_checks(question: TrueFalse, where: _Where) -> list[Check]:
    ok = _is_correct(question, question.answer) and not _is_correct(question, not question.answer)
    return [where.check("answer", ok, ("answer",), "the stated answer does not grade correct")]


def _ordering_checks(question: Ordering, where: _Where) -> list[Check]:
    order = [item.id for item in question.items]
    ok = len(order) >= 3 and _is_correct(question, order)
    ok = ok and not _is_correct(question, order[::-1])
    return [where.check("order", ok, ("items",), "needs 3+ items; listed order must be the key")]


def _sample_checks(question: FreeText, where: _Where) -> list[Check]:
    from app.grading.freetext import grade_freetext

    checks = []
    for index, sample in enumerate(question.samples):
        result = grade_freetext(question, sample.answer)
        want, got = set(sample.misconceptions), set(result.misconceptions)
        ok = result.verdict == sample.verdict and want == got
        message = (
            f"labelled {sample.verdict} {sorted(want)}, graded {result.verdict}"
            f" (score {result.score:.2f}) {sorted(got)}"
        )
        checks.append(where.check(f"sample {index + 1}", ok, ("samples", index), message))
    return checks


def closed_checks(item: LoadedQuestion) -> list[Check]:
    """Checks that need no sandbox: choices, true-false, ordering and free-text samples."""
    question, where = item.question, _Where(item)
    match question:
        case ChoiceQuestionBase():
            return _choice_checks(question, where)
        case TrueFalse():
            return _true_false_checks(question, where)
        case Ordering():
            return _ordering_checks(question, where)
        case FreeText():
            return _sample_checks(question, where)
    return []


def _describe(result: GradeResult) -> str:
    tags = ", ".join(result.misconceptions) or "none"
    first = next((f.message for f in result.feedback if f.kind != "correct"), "")
    return f"graded {result.verdict}, misconceptions: {tags}" + (f"; {first}" if first else "")


Grade = Callable[[Code | CodeFix, str], Awaitable[GradeResult]]


async def _run(grade: Grade, question: Code | CodeFix, source: str) -> GradeResult | str:
    try:
        return await grade(question, source)
    except Exception as exc:  # infrastructure fault: a failed check, not a crashed self-test
        return f"the sandbox could not grade it: {exc}"


# The plain step of a built-in contract, graded against a pack's reference: if it is told it
# steps the optimizer too often or too rarely, the reference does not step the way the contract
# says (QA Q2: a reference without apply_gradients passed, then marked every right answer wrong).
STANDARD_STEPS = {
    "train-step": (
        "def train_step(model, optimizer, loss_fn, x, y):\n"
        "    import tensorflow as tf\n"
        "    with tf.GradientTape() as tape:\n"
        "        loss = loss_fn(y, model(x, training=True))\n"
        "    grads = tape.gradient(loss, model.trainable_variables)\n"
        "    optimizer.apply_gradients(zip(grads, model.trainable_variables))\n"
        "    return loss\n"
    ),
}


async def _contract_check(grade: Grade, question: Code | CodeFix, where: _Where) -> list[Check]:
    standard = STANDARD_STEPS.get(question.contract) if question.checker is None else None
    if standard is None:
        return []
    outcome = await _run(grade, question, standard)
    if isinstance(outcome, str):  # a sandbox fault: the reference check reports it already
        return []
    ok = not STEP_COUNT_TAGS & set(outcome.misconceptions)
    expect = (
        f"must step the optimizer once per call, as the {question.contract} contract says; "
        f"the plain step (loss on the tape, one apply_gradients) against it: {_describe(outcome)}"
    )
    return [where.check("reference steps", ok, ("reference",), expect)]


async def code_checks(item: LoadedQuestion, grade: Grade) -> list[Check]:
    question, where = item.question, _Where(item)
    assert isinstance(question, Code | CodeFix)
    outcome = await _run(grade, question, question.reference)
    ok = not isinstance(outcome, str) and outcome.verdict == "correct"
    message = outcome if isinstance(outcome, str) else _describe(outcome)
    checks = [where.check("reference", ok, ("reference",), f"must pass; {message}")]
    checks += await _contract_check(grade, question, where)
    for index, wrong in enumerate(question.wrong):
        outcome = await _run(grade, question, wrong.code)
        ok = not isinstance(outcome, str) and outcome.verdict != "correct"
        ok = ok and wrong.tag in outcome.misconceptions  # type: ignore[union-attr]
        message = outcome if isinstance(outcome, str) else _describe(outcome)
        what = f"wrong {wrong.tag}"
        expect = f"must fail with {wrong.tag!r}; {message}"
        checks.append(where.check(what, ok, ("wrong", index), expect))
    return checks


def _skipped(item: LoadedQuestion, reason: str) -> list[Check]:
    question_id, file = item.question.id, str(item.file)
    return [Check(question_id, "code", "skip", file, 1, reason)]


async def run_selftest(
    pack: Pack, *, code_grader: CodeGraderLike | None, concurrency: int = 2
) -> SelfTestReport:
    """Check every question of a validated pack; code questions skip without a grader."""
    gate = asyncio.Semaphore(concurrency)

    async def check(item: LoadedQuestion) -> QuestionRow:
        checks = closed_checks(item)
        if isinstance(item.question, Code | CodeFix):
            if code_grader is None:
                checks = _skipped(item, "no sandbox: code questions were not run")
            else:
                async with gate:
                    checks = await code_checks(item, code_grader.grade)
        return QuestionRow(item.question.id, item.question.type, tuple(checks))

    rows = await asyncio.gather(*(check(item) for item in pack.questions))
    return SelfTestReport(pack.meta.id, tuple(rows))


def has_code(pack: Pack) -> bool:
    return any(isinstance(item.question, Code | CodeFix) for item in pack.questions)


def format_report(report: SelfTestReport) -> str:
    """The summary table and one `file:line:` line per failure, for the terminal."""
    if report.problems:
        lines = [*report.problems, f"{len(report.problems)} problem(s): pack does not validate"]
        return "\n".join(lines)
    width = max([len(r.question_id) for r in report.rows] + [8])
    lines = [f"{'question':<{width}}  {'type':<15}  pass  fail  skip  result"]
    for row in report.rows:
        counts = "  ".join(f"{row.count(s):>4}" for s in ("pass", "fail", "skip"))
        lines.append(f"{row.question_id:<{width}}  {row.type:<15}  {counts}  {row.status}")
    lines += [str(check) for check in report.failures]
    total = sum(len(r.checks) for r in report.rows)
    skipped = sum(row.count("skip") for row in report.rows)
    verdict = "PASSED" if report.passed else f"FAILED ({len(report.failures)} failing)"
    verdict += f", {skipped} skipped" if skipped else ""
    lines.append(f"{report.pack_id}: {len(report.rows)} questions, {total} checks: {verdict}")
    return "\n".join(lines)
