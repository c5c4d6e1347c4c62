"""One name per misconception everywhere, and errors kept apart from misconceptions.

Tags come from three graders (choice, free text, code) and pack authors label them per
question, so the same tag could read three ways on three pages. Every page asks here: the
first author label found across the catalog (in question-id order, so it is stable), else the
built-in label, else the tag made readable. Tags that say the answer failed to run or gave a
wrong number are errors, not beliefs: they are shown as what they are and never tracked.
"""

from __future__ import annotations

import re

from app.packs.catalog import Catalog
from app.packs.schema import Code, CodeFix, FreeText

ERRORS: dict[str, str] = {
    "syntax-error": "Syntax error",
    "exception": "The code raised an exception",
    "wrong-result": "Wrong numbers",
    "resource-limit": "Exceeded a sandbox limit",
    "missing-function": "The required function is missing",
    "wrong-signature": "The function takes the wrong arguments",
    "tampering": "Interfered with the checker",
}
# Plain words for every token of the code checker's scenario ids (the contracts in
# app/grading/sandbox/worker/scenarios.py, and `seed-<n>-eager` / `seed-<n>-tf-function` of
# pack-declared contracts). Keys may span several tokens; the longest match wins. A test walks
# every id the checker can emit, so a new token without words here fails the suite.
SCENARIO_WORDS = {
    "crossentropy": "cross-entropy loss",
    "mse": "MSE loss",
    "adam": "Adam",
    "sgd": "SGD",
    "momentum": "with momentum",
    "mlp": "a plain MLP",
    "frozen-layer": "a frozen layer",
    "large-gradients": "large gradients",
    "small-gradients": "small gradients",
    "different-rates": "different learning rates",
    "cubic": "x³ + 2x",
    "sin-times-x": "sin(x)·x",
    "batchnorm-dropout": "BatchNorm and Dropout",
    "eager": "run eagerly",
    "tf-function": "wrapped in tf.function",
}
NUMBERED = {  # "<n>-micro-batches", "seed-<n>": a number with words around it
    re.compile(r"(\d+)-micro-batches"): "{} micro-batches",
    re.compile(r"seed-(\d+)"): "seed {}",
}
SCENARIO_ID = re.compile(r"\b[a-z0-9]+(?:-[a-z0-9]+)*-(?:eager|tf-function|micro-batches)\b")
_LONGEST_KEY = max(3, *(key.count("-") + 1 for key in SCENARIO_WORDS))  # 3: n-micro-batches


def is_error(tag: str) -> bool:
    return tag in ERRORS


def readable(tag: str) -> str:
    return tag.replace("-", " ").capitalize()


_CACHE: dict[int, tuple[Catalog, dict[str, str]]] = {}


def _labels(catalog: Catalog) -> dict[str, str]:
    cached = _CACHE.get(id(catalog))
    if cached is not None and cached[0] is catalog:
        return cached[1]
    if len(_CACHE) > 8:  # catalogs are replaced when packs are published; keep a few
        _CACHE.clear()
    labels = _collect(catalog)
    _CACHE[id(catalog)] = (catalog, labels)
    return labels


def _collect(catalog: Catalog) -> dict[str, str]:
    """Rubric labels name beliefs, so they win; then labels of write-the-code questions;
    code-fix labels last (they often describe the broken snippet, not the belief)."""
    ranked: list[tuple[int, str, str, str]] = []
    for question_id, item in catalog.questions.items():
        q = item.question
        if isinstance(q, FreeText):
            ranked += [(0, question_id, m.tag, m.label) for m in q.rubric.misconceptions if m.label]
        if isinstance(q, Code | CodeFix):
            rank = 2 if isinstance(q, CodeFix) else 1
            ranked += [(rank, question_id, w.tag, w.label) for w in q.wrong if w.label]
    labels: dict[str, str] = {}
    for _, _, tag, text in sorted(ranked):
        labels.setdefault(tag, text)
    return labels


def label(catalog: Catalog, tag: str) -> str:
    """The one name shown for `tag` on every page."""
    return ERRORS.get(tag) or _labels(catalog).get(tag) or readable(tag)


def split(tags: list[str]) -> tuple[list[str], list[str]]:
    """(misconceptions, errors) of one answer's tags, in order."""
    return [t for t in tags if not is_error(t)], [t for t in tags if is_error(t)]


def tells_and_errors(catalog: Catalog, tags: list[str]) -> tuple[list[str], list[str]]:
    """(misconception tags, error labels) of one graded answer: what every view of an answer
    (a session's attempt, the stateless grade endpoint) reports, so none calls a syntax
    error a misconception."""
    beliefs, errors = split(tags)
    return beliefs, [label(catalog, t) for t in errors]


def scenario_words(scenario_id: str) -> tuple[list[str], list[str]]:
    """(plain words, tokens without words) of a scenario id, in order."""
    tokens, words, unknown = scenario_id.split("-"), [], []
    i = 0
    while i < len(tokens):
        for size in range(min(_LONGEST_KEY, len(tokens) - i), 0, -1):
            phrase = "-".join(tokens[i : i + size])
            found = SCENARIO_WORDS.get(phrase) or _numbered(phrase)
            if found:
                words.append(found)
                i += size
                break
        else:
            unknown.append(tokens[i])
            i += 1
    return words, unknown


def _numbered(phrase: str) -> str:
    for pattern, text in NUMBERED.items():
        match = pattern.fullmatch(phrase)
        if match:
            return text.format(match.group(1))
    return ""


def describe_scenario(scenario_id: str) -> str:
    """`crossentropy-adam-eager` -> 'the check with cross-entropy loss, Adam, run eagerly'."""
    words, _ = scenario_words(scenario_id)
    if not words:
        return "the check of this step"
    modes = ("run eagerly", "wrapped in tf.function")
    return "the check " + ("" if words[0] in modes else "with ") + ", ".join(words)


def _described(match: re.Match[str]) -> str:
    # Only ids made of known tokens are scenario ids: a misconception tag such as
    # `numpy-in-tf-function` in a message has the same shape and stays as written.
    scenario_id = match.group(match.lastindex or 0)
    if scenario_words(scenario_id)[1]:
        return match.group(0)
    return describe_scenario(scenario_id)


def without_scenario_ids(text: str) -> str:
    """Learners see what a check exercised, not the checker's internal scenario ids."""
    text = re.sub(
        r"\s*\((?:" + SCENARIO_ID.pattern + r")(?:,\s*" + SCENARIO_ID.pattern + r")*\)", "", text
    )
    text = re.sub(r"\b[Ss]cenario\s+(" + SCENARIO_ID.pattern + ")", _described, text)
    return SCENARIO_ID.sub(_described, text)
