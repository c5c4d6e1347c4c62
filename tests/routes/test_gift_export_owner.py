"""GIFT exports carry answer keys: only the pack's publisher may export it (built-in packs
are public). Another instructor's pack is a 404, as if it did not exist (issue 12)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.models.publishing import PackVersion
from app.models.users import User
from tests.routes.test_api_instructor import promote_current_user


def _published_by(client: TestClient, owner: int | None = None) -> None:
    """Record the pack as published by `owner` (default: another instructor)."""
    with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
        if owner is None:
            other = User(email="other@example.com", is_guest=False, role="instructor")
            session.add(other)
            session.commit()
            owner = other.id
        session.add(PackVersion(pack_id="gradient-tape", version="9.9.9", title="T",
                                question_count=1, published_by=owner))  # fmt: skip
        session.commit()


def test_builtin_pack_exports_for_any_instructor(client: TestClient) -> None:
    promote_current_user(client)
    assert client.get("/api/instructor/packs/gradient-tape/gift").status_code == 200


def test_another_instructors_pack_is_not_exported(client: TestClient) -> None:
    promote_current_user(client)
    _published_by(client)
    assert client.get("/api/instructor/packs/gradient-tape/gift").status_code == 404


def test_the_publisher_exports_their_pack(client: TestClient) -> None:
    promote_current_user(client)
    _published_by(client, owner=1)  # the promoted instructor is the first stored user
    assert client.get("/api/instructor/packs/gradient-tape/gift").status_code == 200
