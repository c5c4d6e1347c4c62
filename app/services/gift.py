"""Moodle GIFT interop: export a pack's choice and free-text questions, import choice ones.

Instructors move questions between systems; GIFT is the plain-text format Moodle imports
and exports. Export covers what GIFT can express (single and multiple choice, true/false,
predict-the-output as a choice with its snippet, free-text as an essay whose general
feedback is the model answer). Import turns GIFT choice and true/false questions into pack
YAML files for the author to finish (topic, section, hints). GIFT's special characters
`~ = # { } :` are escaped with a backslash, and newlines inside text are written as `\\n`.
"""

from __future__ import annotations

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
MAX_IMPORT_CHARS = 200_000


def escape(text: str) -> str:
    escaped = "".join("\\" + ch if ch in SPECIAL else ch for ch in text.strip())
    return escaped.replace("\r\n", "\n").replace("\n", "\\n")


def unescape(text: str) -> str:
    return re.sub(r"\\([~=#{}:n])", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


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


_UNESCAPED = r"(?<!\\)"
_BLOCK = re.compile(
    r"^(?:::(?P<title>.*?)"
    + _UNESCAPED
    + r"::)?\s*(?:\[(?P<format>\w+)\])?(?P<text>.*?)"
    + _UNESCAPED
    + r"\{(?P<answers>.*)"
    + _UNESCAPED
    + r"\}(?P<tail>.*)$",
    re.DOTALL,
)
_ITEM = re.compile(_UNESCAPED + r"([=~])")


def _blocks(text: str) -> list[str]:
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    return [b.strip() for b in re.split(r"\n\s*\n", "\n".join(lines)) if b.strip()]


def _split_feedback(item: str) -> tuple[str, str]:
    parts = re.split(_UNESCAPED + r"#", item, maxsplit=1)
    return unescape(parts[0].strip()), unescape(parts[1].strip()) if len(parts) > 1 else ""


def _parse_items(answers: str) -> tuple[list[tuple[str, float, str]], str]:
    """(text, weight, feedback) per answer, plus the general feedback after ####."""
    general = ""
    found = re.search(_UNESCAPED + r"####", answers)
    if found:
        answers, general = answers[: found.start()], unescape(answers[found.end() :].strip())
    pieces = _ITEM.split(answers)
    items = []
    for mark, body in zip(pieces[1::2], pieces[2::2], strict=True):
        weight = 100.0 if mark == "=" else 0.0
        percent = re.match(r"\s*%(-?[\d.]+)%", body)
        if percent:
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


def _question(block: str) -> tuple[dict[str, Any] | None, str, str]:
    """(fields, title, reason skipped) for one GIFT block."""
    match = _BLOCK.match(block)
    if match is None:
        return None, block[:60], "no answer block {...} found"
    text = unescape((match["text"] + " " + match["tail"]).strip()).strip()
    title = unescape(match["title"] or "").strip() or text[:60] or "Imported question"
    answers = match["answers"].strip()
    fields: dict[str, Any] = {"title": title[:200], "prompt": text or title}
    if re.fullmatch(r"(?i)(T|TRUE|F|FALSE)(\s*#.*)?(\s*####.*)?", answers, re.DOTALL):
        items, general = _parse_items(re.sub(r"^\w+", "", answers))
        fields |= {"type": "true-false", "answer": answers[0].upper() == "T"}
        return fields | {"explanation": general}, title, ""
    if "->" in answers or not re.search(_UNESCAPED + r"~", answers):
        return None, title, "only choice and true/false questions are imported"
    items, general = _parse_items(answers)
    if not any(w > 0 for _, w, _ in items):
        return None, title, "no answer is marked correct"
    kind, choices = _choices(items)
    return fields | {"type": kind, "choices": choices, "explanation": general}, title, ""


class _BlockDumper(yaml.SafeDumper):
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
    imported, skipped = [], []
    for block in _blocks(text[:MAX_IMPORT_CHARS]):
        fields, title, reason = _question(block)
        if fields is None:
            skipped.append(Skipped(title=title, reason=reason))
            continue
        question_id = _slug(title, taken, prefix)
        imported.append(Imported(question_id, fields["type"], _to_yaml(question_id, fields)))
    return imported, skipped
