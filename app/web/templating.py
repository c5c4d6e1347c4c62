"""The one Jinja2 environment for every page: autoescaping, safe Markdown, CSRF, labels.

Question prompts and explanations are Markdown written by pack authors; they are rendered
with raw HTML disabled, so a pack (or anything a learner typed) can never inject markup.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

import jinja2
from fastapi.templating import Jinja2Templates
from markdown_it import MarkdownIt
from markupsafe import Markup, escape
from starlette.requests import Request

from app.config import REPO_ROOT
from app.grading.dispatch import MAX_FREE_TEXT_CHARS
from app.identity import csrf_token
from app.web.bidi import isolate

_md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
_md.enable("table")

QUESTION_TYPE_LABELS = {
    "single-choice": "Single choice",
    "multiple-choice": "Multiple choice",
    "true-false": "True or false",
    "ordering": "Put in order",
    "predict-output": "Predict the output",
    "free-text": "Explain in words",
    "code": "Write the code",
    "code-fix": "Fix the code",
}
VERDICT_LABELS = {
    "correct": "Correct",
    "partial": "Partly right",
    "incorrect": "Not quite",
    "error": "Could not grade",
}


@functools.lru_cache(maxsize=4096)  # prompts and explanations: the same few texts every page
def markdown(text: str | None) -> Markup:
    return Markup(_md.render(text or ""))  # noqa: S704 (markdown-it escapes; raw HTML is off)


# A CommonMark code span: a run of backticks, then text, then a run of the same length.
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def inline_code(text: str | None) -> Markup:
    """Backtick code spans as <code>, everything else escaped text: for short strings that
    mix pack Markdown (choice texts) with what learners typed, where full Markdown would
    turn a learner's `# comment` into a heading or `[x](url)` into a link."""
    parts, last = [], 0
    source = text or ""
    for found in _CODE_SPAN.finditer(source):
        code = found.group(2)
        if code.strip() and code.startswith(" ") and code.endswith(" "):
            code = code[1:-1]  # CommonMark: one space each side is padding
        parts += [escape(source[last : found.start()]), Markup("<code>%s</code>") % code]
        last = found.end()
    parts.append(escape(source[last:]))
    return Markup("").join(parts)


def humanize_tag(tag: str | None) -> str:
    return (tag or "").replace("-", " ").replace("_", " ").capitalize()


def code_lines(items: list[object]) -> bool:
    """Ordering items that are lines of code keep their indentation and get a code font."""
    texts = [str(getattr(i, "text", "")) for i in items]
    if any(t[:1].isspace() for t in texts):
        return True
    return all(any(tok in t for tok in ("(", " = ", ":")) and ". " not in t for t in texts)


def indent_levels(items: list[object]) -> dict[str, int]:
    """Each code line's nesting depth (0, 1, 2, ...) from its leading whitespace, whatever
    the indent unit: the page draws the depth, so a wrapped line keeps its structure."""
    texts = {str(getattr(i, "id", "")): str(getattr(i, "text", "")).expandtabs(4) for i in items}
    widths = {key: len(t) - len(t.lstrip(" ")) for key, t in texts.items()}
    depth = {w: n for n, w in enumerate(sorted(set(widths.values())))}
    return {key: depth[w] for key, w in widths.items()}


def when(moment: datetime | None) -> str:
    return moment.strftime("%d %b %Y, %H:%M") if moment else ""


def short_when(moment: datetime | None) -> str:
    return moment.strftime("%d %b, %H:%M") if moment else ""


def sentence(text: str | None) -> str:
    """Capitalise the first letter only (Jinja's `capitalize` lowercases the rest)."""
    return (text or "")[:1].upper() + (text or "")[1:]


templates = Jinja2Templates(directory=str(REPO_ROOT / "templates"))
# Templates change only with a deploy: checking every file's mtime on each render cost ~14% of
# the question page under load (issue 16 profile). Restart the server to see template edits.
templates.env.auto_reload = False
templates.env.finalize = isolate  # before any template compiles: each {{ }} passes through it
templates.env.filters.update(
    markdown=markdown,
    inline_code=inline_code,
    humanize=humanize_tag,
    when=when,
    short_when=short_when,
    sentence=sentence,
    code_lines=code_lines,
    indent_levels=indent_levels,
)


@jinja2.pass_context
def url_for(context: dict[str, Any], name: str, /, **path_params: Any) -> str:
    """A root-relative URL path (`/static/css/app.css`), never an absolute URL built from
    the request: behind an HTTPS proxy an `http://` asset is blocked as mixed content, and a
    forged Host header must not reach a page (or a cache) through `<script src>`.

    Remembered: resolving a name walks every route, raising and catching NoMatchFound on
    each (~0.7 ms a call, 4 calls per page: issue 16 profile)."""
    request: Request = context["request"]
    root = str(request.scope.get("root_path", ""))
    key = (root, name, tuple(sorted(path_params.items())))
    found = _urls.get(key)
    if found is None:
        found = root + str(request.app.url_path_for(name, **path_params))
        if len(_urls) < 4096:  # static files and a few pages; ids would only fill it
            _urls[key] = found
    return found


@jinja2.pass_context
def csrf_input(context: dict[str, Any]) -> Markup:
    """The hidden CSRF field of a form, as a function rather than a macro: a page that needs
    no other macro with its context imports its macros without one (cached by Jinja)."""
    token = csrf_token(context["request"])  # hex digits: nothing to escape
    return Markup(f'<input type="hidden" name="csrf_token" value="{token}">')  # noqa: S704


def answer_fields(question: Any, answer: object) -> Markup:
    """A question's answer fields (`questions/_<type>.html`: options, editor, text box).

    They depend on the question and the answer being shown only; with no answer yet (every
    first look at a question) they are rendered once per question view and reused: ~6% of
    the question page's CPU (issue 16 profile). An answer (the learner's own) is rendered
    for its request and never remembered.
    """
    template = templates.env.get_template(f"questions/_{question.type}.html")
    if answer is not None:
        return Markup(template.render(q=question, answer=answer))  # noqa: S704 (autoescaped)
    return _per_view(question, "fields", lambda: template.render(q=question, answer=None))


def question_chips(question: Any) -> Markup:
    """`_macros.html`'s chips (type, difficulty, topic) of a question, once per view."""
    return _per_view(question, "chips", lambda: _macros().chips(question))


def _per_view(question: Any, part: str, render: Callable[[], str]) -> Markup:
    """`render()` remembered for this question view. Views are what `questions.get_question`
    builds once per loaded catalog, so a publish, which loads a new catalog, brings new
    views and so new renderings; the identity check keeps an old view's from being used."""
    known = _parts.get((part, question.id))
    if known is None or known[0] is not question:
        known = (question, Markup(render()))  # noqa: S704 (rendered with autoescape)
        if len(_parts) >= 8192:  # ids of many published catalogs over a long run
            _parts.clear()
        _parts[(part, question.id)] = known
    return known[1]


@functools.lru_cache(maxsize=1024)
def progress_meter(position: int, total: int) -> Markup:
    """The session's progress meter (`_macros.html`'s meter) for `position` of `total`."""
    value = position / total if total else 0.0
    return Markup(_macros().meter(value, "Session progress"))  # noqa: S704 (autoescaped)


def _macros() -> Any:
    return templates.env.globals["macros"]


_parts: dict[tuple[str, str], tuple[Any, Markup]] = {}
_urls: dict[tuple[str, str, tuple[tuple[str, Any], ...]], str] = {}
templates.env.globals.update(
    url_for=url_for,
    csrf_token=csrf_token,
    csrf_input=csrf_input,
    answer_fields=answer_fields,
    question_chips=question_chips,
    progress_meter=progress_meter,
    type_labels=QUESTION_TYPE_LABELS,
    verdict_labels=VERDICT_LABELS,
    free_text_limit=MAX_FREE_TEXT_CHARS,
)
# `_macros.html` as a module built once, for pages that call its macros many times a second:
# `{% from ... import %}` re-checks the importing context's globals on every render (~3% of
# the question page, issue 16). Its macros need nothing but their arguments and these globals.
templates.env.globals["macros"] = templates.env.get_template("_macros.html").module
