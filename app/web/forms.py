"""Turn an HTML answer form into the answer shape the graders (and the JSON API) take.

Forms only carry strings; this is the one place that knows a multiple-choice answer is a
list of checked ids and an ordering answer is the list of item ids in submitted order.
"""

from __future__ import annotations

from starlette.datastructures import FormData

LIST_TYPES = {"multiple-choice": "answer", "ordering": "order"}


def answer_from_form(question_type: str, form: FormData) -> object:
    if question_type in LIST_TYPES:
        return [str(v) for v in form.getlist(LIST_TYPES[question_type])]
    value = form.get("answer")
    if value is None or not isinstance(value, str):
        return None
    if question_type in ("code", "code-fix"):
        return value.replace("\r\n", "\n")  # browsers send CRLF from textareas
    return value
