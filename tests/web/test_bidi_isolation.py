"""Right-to-left overrides in text users and pack authors write stay inside that text on every
page (app/web/bidi.py): a cohort or display name with U+202E cannot reverse the page after it.
"""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from markupsafe import Markup

from app.web.bidi import isolate
from tests.routes.test_api_instructor import promote_current_user

OVERRIDE = "\u202eSpring cohort"
INSTRUCTOR = {"X-Requested-With": "test"}


def _csrf(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found
    return found.group(1)


def test_a_cohort_name_with_an_override_is_isolated_on_the_page(client: TestClient) -> None:
    promote_current_user(client)
    body = {"name": OVERRIDE, "pack_id": "gradient-tape"}
    assert client.post("/api/instructor/cohorts", json=body, headers=INSTRUCTOR).status_code == 201
    page = client.get("/instructor").text
    assert f"\u2068{OVERRIDE}\u2069" in page
    assert page.count("\u202e") == page.count("\u2068\u202e")  # none outside an isolate


def test_a_display_name_with_an_override_is_isolated_in_the_nav(client: TestClient) -> None:
    form = {
        "csrf_token": _csrf(client.get("/signup").text),
        "email": "rtl@example.com",
        "password": "correct horse battery staple 42",
        "display_name": "\u202eAda",
    }
    assert client.post("/signup", data=form, follow_redirects=False).status_code == 303
    assert "\u2068\u202eAda\u2069</span>" in client.get("/").text


def test_plain_text_and_plain_right_to_left_text_are_left_as_they_are() -> None:
    assert isolate("Tape basics") == "Tape basics"
    assert isolate("\u05e9\u05dc\u05d5\u05dd") == "\u05e9\u05dc\u05d5\u05dd"
    assert isolate(3) == 3


def test_markup_with_an_override_stays_markup() -> None:
    wrapped = isolate(Markup("<code>\u202ex</code>"))
    assert isinstance(wrapped, Markup)
    assert wrapped == Markup("\u2068<code>\u202ex</code>\u2069")
