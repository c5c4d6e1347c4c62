"""Moodle GIFT interop: export a pack's choice and free-text questions, import choice ones.

Instructors move questions between systems; GIFT is the plain-text format Moodle imports
and exports. Export covers what GIFT can express (single and multiple choice, true/false,
predict-the-output as a choice with its snippet, free-text as an essay whose general
feedback is the model answer). Import turns GIFT choice and true/false questions into pack
YAML files for the author to finish (topic, section, hints). GIFT's special characters
`~ = # { } :` are escaped with a backslash, and newlines inside text are written as `\\n`.
"""

from __future__ import annotations

import contextlib
import functools
import re
from dataclasses import dataclass
from typing import Any

import yaml

from app.packs.loader import Pack
from app.packs.schema import (
    ChoiceQuestionBase,
    FreeText,
    MultipleChoice,
    PredictOutput,
    TrueFalse,
)

SPECIAL = "~=#{}:"
MAX_IMPORT_CHARS = 100_000  # fits the built-in pack (75 KB of GIFT) with room
MAX_QUESTIONS = 100  # per conversion: with these limits the worst case stays under 100 ms
MAX_CHOICES = 26  # choice ids are the letters a-z


def escape(text: str) -> str:
    escaped = "".join("\\" + ch if ch in SPECIAL else ch for ch in text.strip())
    return escaped.replace("\r\n", "\n").replace("\n", "\\n")


def unescape(text: str) -> str:
    # str.replace, not re.sub with a callback: 100,000 escapes cost one C pass each. The
    # passes cannot interact: each leaves a plain character, never a new backslash pair.
    text = text.replace("\\n", "\n")
    for char in SPECIAL:
        text = text.replace("\\" + char, char)
    return text


def _weight(count: int) -> str:
    return f"{100 / count:.5f}".rstrip("0").rstrip(".")


def _choice_lines(question: ChoiceQuestionBase) -> list[str]:
    correct = question.correct_ids()
    multiple = isinstance(question, MultipleChoice)
    lines = []
    for choice in question.choices:
        feedback = f"#{escape(choice.why)}" if choice.why else ""
        if not multiple:
            mark = "=" if choice.id in correct else "~"
        else:
            mark = f"~%{_weight(len(correct))}%" if choice.id in correct else "~%-100%"
        lines.append(f"  {mark}{escape(choice.text)}{feedback}")
    return lines


def _prompt(question: Any) -> str:
    text = question.prompt
    if isinstance(question, PredictOutput):
        text = f"{text.rstrip()}\n\n```python\n{question.code.rstrip()}\n```"
    return escape(text)


def export_question(question: Any) -> str | None:
    """One question in GIFT, or None for types GIFT cannot express (ordering, code)."""
    head = f"// {question.id} ({question.type})\n::{escape(question.title)}::[markdown]"
    general = f"  ####{escape(question.explanation)}"
    if isinstance(question, ChoiceQuestionBase):
        body = "\n".join([*_choice_lines(question), general])
        return f"{head}{_prompt(question)} {{\n{body}\n}}"
    if isinstance(question, TrueFalse):
        answer = "TRUE" if question.answer else "FALSE"
        return f"{head}{_prompt(question)} {{{answer}\n{general}\n}}"
    if isinstance(question, FreeText):
        model = f"  ####{escape(question.rubric.model_answer)}"
        return f"{head}{_prompt(question)} {{\n{model}\n}}"
    return None


def export_pack(pack: Pack) -> str:
    blocks = [f"// {pack.meta.title} ({pack.meta.id} {pack.meta.version}), exported by tapequiz"]
    blocks += [text for item in pack.questions if (text := export_question(item.question))]
    return "\n\n".join(blocks) + "\n"


@dataclass(frozen=True)
class Imported:
    id: str
    type: str
    yaml: str


@dataclass(frozen=True)
class Skipped:
    title: str
    reason: str


@functools.cache
def _scanner(wanted: str) -> re.Pattern[str]:
    # One token at a time, no nesting: a backslash pair, or one of the wanted characters.
    return re.compile(r"\\.|([" + re.escape(wanted) + "])", re.DOTALL)


@functools.cache
def _token_scanner(token: str) -> re.Pattern[str]:
    return re.compile(r"\\.|(" + re.escape(token) + ")", re.DOTALL)


def _first_token(text: str, token: str, start: int = 0) -> int | None:
    """Where the first unescaped `token` (e.g. `::`, `####`) starts, scanning once."""
    for match in _token_scanner(token).finditer(text, start):
        if match.start(1) >= 0:
            return match.start(1)
    return None


def _specials(text: str, wanted: str) -> list[int]:
    """Positions of the unescaped characters of `wanted` in `text`, in one left-to-right pass
    (a backslash escapes the next character). Every search below is over this list: the old
    regex cascade backtracked catastrophically (`"::{" * 800` took seconds)."""
    return [m.start(1) for m in _scanner(wanted).finditer(text) if m.start(1) >= 0]


def _last(text: str, char: str) -> int | None:
    """The last unescaped `char`: one odd run of backslashes before it escapes it."""
    position = text.rfind(char)
    while position >= 0:
        run = position - len(text[:position].rstrip("\\"))
        if run % 2 == 0:
            return position
        position = text.rfind(char, 0, position)
    return None


def _more_than(text: str, wanted: str, limit: int) -> bool:
    """Whether `text` holds more than `limit` unescaped `wanted` characters (stops early)."""
    found = 0
    for match in _scanner(wanted).finditer(text):
        found += match.start(1) >= 0
        if found > limit:
            return True
    return False


def _first(text: str, wanted: str, start: int = 0) -> int | None:
    """The first unescaped `wanted` character at or after `start` (stops there)."""
    for match in _scanner(wanted).finditer(text, start):
        if match.start(1) >= 0:
            return match.start(1)
    return None


def _blocks(text: str) -> list[str]:
    """Questions are separated by blank lines; `//` lines are comments."""
    blocks: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.lstrip().startswith("//"):
            continue
        if line.strip():
            current.append(line)
        elif current:
            blocks.append("\n".join(current).strip())
            current = []
    if current:
        blocks.append("\n".join(current).strip())
    return blocks


@dataclass(frozen=True)
class _Parts:
    title: str
    text: str
    answers: str
    tail: str


def _title(block: str) -> tuple[str, str]:
    """(`::title::`, the rest) or ("", block) when there is no complete title."""
    if not block.startswith("::"):
        return "", block
    position = _first_token(block, "::", 2)
    if position is None:
        return "", block
    return block[2:position], block[position + 2 :]


def _skip_format(rest: str) -> str:
    """Drop leading whitespace and a `[markdown]`-style format tag."""
    rest = rest.lstrip()
    close = rest.find("]", 0, 40)
    if rest.startswith("[") and close > 1 and rest[1:close].isidentifier():
        return rest[close + 1 :]
    return rest


def _split_block(block: str) -> _Parts | None:
    """Title, question text, the answer block between the first `{` and the last `}`, and
    what follows it; None without an answer block."""
    title, rest = _title(block)
    rest = _skip_format(rest)
    opening = _first(rest, "{")
    closing = None if opening is None else _last(rest, "}")
    if opening is None or closing is None or closing <= opening:
        return None
    return _Parts(title, rest[:opening], rest[opening + 1 : closing], rest[closing + 1 :])


def _split_at(text: str, position: int | None, width: int = 1) -> tuple[str, str | None]:
    if position is None:
        return text, None
    return text[:position], text[position + width :]


def _split_feedback(item: str) -> tuple[str, str]:
    body, feedback = _split_at(item, _first(item, "#"))
    return unescape(body.strip()), unescape(feedback.strip()) if feedback is not None else ""


def _general_feedback(answers: str) -> tuple[str, str]:
    """(the answers, the general feedback after the first unescaped `####`)."""
    position = _first_token(answers, "####")
    if position is None:
        return answers, ""
    return answers[:position], unescape(answers[position + 4 :].strip())


_PERCENT = re.compile(r"\s*%(-?[0-9.]{1,12})%")


def _parse_items(answers: str) -> tuple[list[tuple[str, float, str]], str]:
    """(text, weight, feedback) per answer, plus the general feedback after ####."""
    answers, general = _general_feedback(answers)
    marks = _specials(answers, "=~")
    items = []
    for index, position in enumerate(marks):
        end = marks[index + 1] if index + 1 < len(marks) else len(answers)
        body = answers[position + 1 : end]
        weight = 100.0 if answers[position] == "=" else 0.0
        percent = _PERCENT.match(body)
        if percent:
            with contextlib.suppress(ValueError):
                weight, body = float(percent.group(1)), body[percent.end() :]
        text, feedback = _split_feedback(body)
        items.append((text, weight, feedback))
    return items, general


def _slug(text: str, taken: set[str], prefix: str) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40].strip("-") or "question"
    slug, n = f"{prefix}{base}" if prefix else base, 2
    while slug in taken:
        slug, n = f"{prefix}{base}-{n}", n + 1
    taken.add(slug)
    return slug


def _choices(items: list[tuple[str, float, str]]) -> tuple[str, list[dict[str, Any]]]:
    positive = [w for _, w, _ in items if w > 0]
    kind = "single-choice" if len(positive) == 1 and max(positive) == 100 else "multiple-choice"
    choices = []
    for index, (text, weight, why) in enumerate(items):
        choice: dict[str, Any] = {"id": chr(ord("a") + index), "text": text}
        if weight > 0:
            choice["correct"] = True
        if why:
            choice["why"] = why
        choices.append(choice)
    return kind, choices


TRUE_FALSE = {"T": True, "TRUE": True, "F": False, "FALSE": False}


def _true_false(answers: str) -> tuple[bool, str] | None:
    """(the answer, the feedback after it) of a `{T}` / `{FALSE#fb####general}` block."""
    stripped = answers.lstrip()
    word_end = next((i for i, ch in enumerate(stripped) if not ch.isalpha()), len(stripped))
    word, rest = stripped[:word_end].upper(), stripped[word_end:].lstrip()
    if word in TRUE_FALSE and (not rest or rest.startswith("#")):
        return TRUE_FALSE[word], rest
    return None


def _question(block: str) -> tuple[dict[str, Any] | None, str, str]:
    """(fields, title, reason skipped) for one GIFT block."""
    parts = _split_block(block)
    if parts is None:
        return None, block[:60], "no answer block {...} found"
    text = unescape((parts.text + " " + parts.tail).strip()).strip()
    title = unescape(parts.title).strip() or text[:60] or "Imported question"
    answers = parts.answers.strip()
    fields: dict[str, Any] = {"title": title[:200], "prompt": text or title}
    truth = _true_false(answers)
    if truth is not None:
        _items, general = _parse_items(truth[1])
        fields |= {"type": "true-false", "answer": truth[0]}
        return fields | {"explanation": general}, title, ""
    if "->" in answers or _first(answers, "~") is None:
        return None, title, "only choice and true/false questions are imported"
    if _more_than(answers, "=~", MAX_CHOICES):
        return None, title, f"more than {MAX_CHOICES} answers"
    items, general = _parse_items(answers)
    if not any(w > 0 for _, w, _ in items):
        return None, title, "no answer is marked correct"
    kind, choices = _choices(items)
    return fields | {"type": kind, "choices": choices, "explanation": general}, title, ""


_SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml: ~5x faster


class _BlockDumper(_SafeDumper):  # type: ignore[misc,valid-type]
    """Multi-line strings as `|` blocks, so imported prompts stay readable."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BlockDumper.add_representer(str, _str)


def _to_yaml(question_id: str, fields: dict[str, Any]) -> str:
    document = {
        "id": question_id,
        "type": fields["type"],
        "title": fields["title"],
        "prompt": fields["prompt"],
        "difficulty": "medium",
        "topic": "imported",  # declare it in pack.yaml, or change it
        "section": "imported",
        "hints": ["TODO: write a hint"],
        "explanation": fields["explanation"] or "TODO: explain the answer.",
    }
    document |= {k: fields[k] for k in ("answer", "choices") if k in fields}
    header = "# Imported from GIFT: set topic, section, difficulty and hints, then validate.\n"
    dumped = yaml.dump(document, Dumper=_BlockDumper, sort_keys=False, allow_unicode=True)
    return header + dumped


def import_gift(
    text: str, *, prefix: str = "", taken: set[str] | None = None
) -> tuple[list[Imported], list[Skipped]]:
    """Pack YAML for every choice or true/false question in `text`; the rest is skipped."""
    taken = set(taken or ())
    imported: list[Imported] = []
    skipped: list[Skipped] = []
    blocks = _blocks(text[:MAX_IMPORT_CHARS])
    if len(blocks) > MAX_QUESTIONS:
        reason = f"only the first {MAX_QUESTIONS} questions are converted at once; split the file"
        skipped.append(Skipped(title=f"{len(blocks) - MAX_QUESTIONS} more", reason=reason))
    for block in blocks[:MAX_QUESTIONS]:
        fields, title, reason = _question(block)
        if fields is None:
            skipped.append(Skipped(title=title, reason=reason))
            continue
        question_id = _slug(title, taken, prefix)
        imported.append(Imported(question_id, fields["type"], _to_yaml(question_id, fields)))
    return imported, skipped
