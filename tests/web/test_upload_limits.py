"""The larger body limit covers every upload route, and a browser form that sends too much
gets a page, not the API's JSON (QA round 10: a 347 KiB pack refused at 256 KiB as JSON)."""

from __future__ import annotations

import base64
import os
import re

from fastapi.testclient import TestClient

from app.routes import api_instructor, instructor
from app.web.limits import upload_paths
from tests.routes.test_api_instructor import promote_current_user
from tests.services.instructor_fakes import EXAMPLE, FakeGrader, zip_folder
from tests.web.test_publishing_page import _page_until


def _csrf(client: TestClient) -> str:
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/instructor").text)
    assert token
    return token.group(1)


def _padded_pack(kib: int) -> bytes:
    """The example pack with comments of random text spread over its files (each stays
    under the per-file limit): a valid pack whose zip is about `kib` KiB."""
    names = sorted(p.name for p in EXAMPLE.glob("*.yaml"))
    share = kib * 1024 // len(names)
    edits = {}
    for name in names:
        noise = base64.b64encode(os.urandom(share)).decode()
        lines = "\n".join(f"# {noise[i : i + 76]}" for i in range(0, len(noise), 76))
        edits[name] = (EXAMPLE / name).read_text() + lines + "\n"
    return zip_folder(EXAMPLE, edits)


def test_upload_paths_include_every_route_taking_a_file() -> None:
    found = upload_paths([*instructor.router.routes, *api_instructor.router.routes])
    assert sorted(found) == ["/api/instructor/packs", "/instructor/packs", "/instructor/publishing"]


def test_publishing_form_accepts_a_347_kib_pack(client: TestClient) -> None:
    promote_current_user(client)
    client.app.state.code_grader = FakeGrader()  # type: ignore[attr-defined]
    data = _padded_pack(347)
    assert 340 * 1024 < len(data) < 400 * 1024
    files = {"file": ("pack.zip", data, "application/zip")}
    started = client.post(
        "/instructor/publishing", files=files, data={"csrf_token": _csrf(client)},
        follow_redirects=False,
    )  # fmt: skip
    assert started.status_code == 303, started.text[:300]
    done = _page_until(client, started.headers["location"], "never")
    assert done == "/instructor?published=tape-example%201.0.0"


def test_too_large_form_upload_answers_a_page(client: TestClient) -> None:
    promote_current_user(client)
    files = {"file": ("pack.zip", b"x" * (3 * 1024 * 1024), "application/zip")}
    refused = client.post("/instructor/publishing", files=files, data={"csrf_token": _csrf(client)})
    assert refused.status_code == 413
    assert refused.headers["content-type"].startswith("text/html")
    assert "Too large to accept" in refused.text and "may be up to 2048 KiB" in refused.text
    assert '"error"' not in refused.text


def test_too_large_api_upload_stays_json(client: TestClient) -> None:
    files = {"file": ("pack.zip", b"x" * (3 * 1024 * 1024), "application/zip")}
    refused = client.post("/api/instructor/packs", files=files)
    assert refused.status_code == 413
    assert refused.json()["error"] == "too_large"
