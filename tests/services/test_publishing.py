"""Publishing uploaded packs: refused uploads leave published packs untouched; versions kept."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session

from app.config import Settings
from app.errors import Conflict, NotFound, PackInvalid
from app.models.users import User
from app.packs.catalog import Catalog
from app.services.instructor import publishing
from app.services.instructor.publishing import (
    Published,
    latest_folders,
    load_serving_catalog,
    publish_zip,
    question_at_version,
)
from tests.services.instructor_fakes import EXAMPLE, FakeGrader, make_user, zip_folder


def _publish(
    session: Session,
    settings: Settings,
    user: User,
    data: bytes,
    grader: FakeGrader | None = None,
    catalog: Catalog | None = None,
) -> Published:
    return asyncio.run(
        publish_zip(
            session,
            settings=settings,
            catalog=catalog or load_serving_catalog(settings),
            user=user,
            data=data,
            code_grader=grader or FakeGrader(),
        )
    )


def _published(settings: Settings) -> list[str]:
    root = settings.data_dir / "packs"
    return sorted(str(p.relative_to(root)) for p in root.glob("*/*")) if root.exists() else []


def _refused(session: Session, settings: Settings, user: User, data: bytes, **kw: object) -> str:
    before = _published(settings)
    with pytest.raises((PackInvalid, Conflict)) as caught:
        _publish(session, settings, user, data, **kw)  # type: ignore[arg-type]
    assert _published(settings) == before
    assert list((settings.data_dir / "staging").iterdir()) == []
    problems = getattr(caught.value, "problems", [])
    return " | ".join([caught.value.message, *problems])


def _bump(version: str, title: str = "GradientTape, an example pack") -> dict[str, str]:
    text = (EXAMPLE / "pack.yaml").read_text()
    text = text.replace("version: 1.0.0", f"version: {version}")
    return {"pack.yaml": text.replace("GradientTape, an example pack", title)}


def test_publish_example_pack_moves_it_into_versioned_folder(
    session: Session, settings: Settings, teacher: User
) -> None:
    published = _publish(session, settings, teacher, zip_folder(EXAMPLE))
    assert _published(settings) == ["tape-example/1.0.0"]
    assert published.version.question_count == 8
    assert "ex-what-records" in published.catalog.questions


def test_publish_accepts_zip_with_one_folder(
    session: Session, settings: Settings, teacher: User
) -> None:
    _publish(session, settings, teacher, zip_folder(EXAMPLE, prefix="tape-example/"))
    assert _published(settings) == ["tape-example/1.0.0"]


def test_publish_refuses_failing_selftest_with_file_and_line(
    session: Session, settings: Settings, teacher: User
) -> None:
    text = (EXAMPLE / "ex-explain-none.yaml").read_text()
    edits = {"ex-explain-none.yaml": text.replace("verdict: partial", "verdict: correct")}
    message = _refused(session, settings, teacher, zip_folder(EXAMPLE, edits))
    assert "self-test failed" in message
    assert "ex-explain-none.yaml:43: ex-explain-none: sample 2" in message  # the sample's line


def test_publish_refuses_wrong_solution_with_other_tag(
    session: Session, settings: Settings, teacher: User
) -> None:
    grader = FakeGrader(tags={"loss-outside-tape": ["something-else"]})
    message = _refused(session, settings, teacher, zip_folder(EXAMPLE), grader=grader)
    assert "ex-write-train-step.yaml:" in message and "something-else" in message


def test_publish_refuses_malformed_yaml_with_line(
    session: Session, settings: Settings, teacher: User
) -> None:
    edits = {"ex-gradient-updates.yaml": "id: ex-gradient-updates\ntitle: [unclosed\n"}
    message = _refused(session, settings, teacher, zip_folder(EXAMPLE, edits))
    assert "ex-gradient-updates.yaml:" in message and "invalid YAML" in message
    assert str(settings.data_dir) not in message  # paths are the author's, not the server's


# Round 19: `.*.*z` left the list: `regex`, which grades phrasings (and times them here), reads
# a 3,000-character probe in 0.01 ms (measured); overlapping alternatives stay exponential.
BACKTRACKING = ["(a+)+$", "(\\w+\\s?)+$", "(?:the tape |the tapes? )+x"]


@pytest.mark.parametrize("phrasing", BACKTRACKING)
def test_publish_refuses_backtracking_phrasing_with_line(
    session: Session, settings: Settings, teacher: User, phrasing: str
) -> None:
    name = "ex-explain-none.yaml"
    text = (EXAMPLE / name).read_text()
    first = "      any:\n        - (loss|forward pass)"
    assert first in text, "the example pack's first phrasing moved"
    line = text[: text.index(first)].count("\n") + 2
    added = f"      any:\n        - {json.dumps(phrasing)}\n        - (loss|forward pass)"
    edited = text.replace(first, added, 1)
    message = _refused(session, settings, teacher, zip_folder(EXAMPLE, {name: edited}))
    assert f"{name}:{line}: phrasing {phrasing!r} took more than" in message


def test_publish_refuses_zip_slip_entry(
    session: Session, settings: Settings, teacher: User
) -> None:
    data = zip_folder(EXAMPLE, {"../../escape.yaml": "id: x"})
    assert "leaves the pack folder" in _refused(session, settings, teacher, data)
    assert not (settings.data_dir / "escape.yaml").exists()


def test_publish_refuses_question_id_owned_by_other_pack(
    session: Session, settings: Settings, teacher: User
) -> None:
    _publish(session, settings, teacher, zip_folder(EXAMPLE))
    other = (EXAMPLE / "pack.yaml").read_text().replace("id: tape-example", "id: other-pack")
    message = _refused(session, settings, teacher, zip_folder(EXAMPLE, {"pack.yaml": other}))
    assert "question id 'ex-what-records' is already used by pack 'tape-example'" in message


def test_publish_refuses_builtin_question_ids(
    session: Session, settings: Settings, teacher: User
) -> None:
    core = settings.packs_dir / "gradient-tape"
    meta = (core / "pack.yaml").read_text().replace("id: gradient-tape", "id: copy-of-core")
    message = _refused(session, settings, teacher, zip_folder(core, {"pack.yaml": meta}))
    assert "already used by pack 'gradient-tape'" in message


def test_publish_refuses_builtin_pack_id(
    session: Session, settings: Settings, teacher: User
) -> None:
    meta = (EXAMPLE / "pack.yaml").read_text().replace("id: tape-example", "id: gradient-tape")
    message = _refused(session, settings, teacher, zip_folder(EXAMPLE, {"pack.yaml": meta}))
    assert "belongs to a built-in pack" in message


@pytest.mark.parametrize("version", ["1.0.0", "0.9.0"])
def test_publish_refuses_version_not_newer(
    session: Session, settings: Settings, teacher: User, version: str
) -> None:
    _publish(session, settings, teacher, zip_folder(EXAMPLE))
    data = zip_folder(EXAMPLE, _bump(version))
    assert "not newer than the published 1.0.0" in _refused(session, settings, teacher, data)


def test_publish_refuses_new_version_by_other_instructor(
    session: Session, settings: Settings, teacher: User
) -> None:
    _publish(session, settings, teacher, zip_folder(EXAMPLE))
    rival = make_user(session, "rival@example.com")
    data = zip_folder(EXAMPLE, _bump("2.0.0"))
    assert "published by another instructor" in _refused(session, settings, rival, data)


def test_publish_refuses_code_questions_without_sandbox(
    session: Session, settings: Settings, teacher: User
) -> None:
    with pytest.raises(PackInvalid, match="sandbox is off"):
        asyncio.run(
            publish_zip(
                session,
                settings=settings,
                catalog=load_serving_catalog(settings),
                user=teacher,
                data=zip_folder(EXAMPLE),
                code_grader=None,
            )
        )
    assert _published(settings) == []


def test_publish_new_version_keeps_old_and_serves_new(
    session: Session, settings: Settings, teacher: User
) -> None:
    first = _publish(session, settings, teacher, zip_folder(EXAMPLE))
    old_hash = first.catalog.questions["ex-gradient-updates"].version
    text = (EXAMPLE / "ex-gradient-updates.yaml").read_text() + "tags: [edited]\n"
    edits = {**_bump("1.1.0", "Renamed"), "ex-gradient-updates.yaml": text}
    second = _publish(session, settings, teacher, zip_folder(EXAMPLE, edits))
    assert _published(settings) == ["tape-example/1.0.0", "tape-example/1.1.0"]
    assert second.catalog.packs["tape-example"].meta.title == "Renamed"
    assert second.catalog.questions["ex-gradient-updates"].version != old_hash


def test_load_serving_catalog_picks_highest_version_numerically(tmp_path: Path) -> None:
    for version in ("1.9.0", "1.10.0", "1.2.0"):
        (tmp_path / "p" / version).mkdir(parents=True)
    assert [f.name for f in latest_folders(tmp_path)] == ["1.10.0"]


def test_load_serving_catalog_serves_published_pack_after_restart(
    session: Session, settings: Settings, teacher: User
) -> None:
    _publish(session, settings, teacher, zip_folder(EXAMPLE))
    restarted = load_serving_catalog(settings)
    assert restarted.questions["ex-what-records"].pack_id == "tape-example"
    assert restarted.problems == []


def test_question_at_version_finds_text_of_older_version(
    session: Session, settings: Settings, teacher: User
) -> None:
    first = _publish(session, settings, teacher, zip_folder(EXAMPLE))
    old_hash = first.catalog.questions["ex-gradient-updates"].version
    edited = (EXAMPLE / "ex-gradient-updates.yaml").read_text() + "tags: [edited]\n"
    edits = {**_bump("1.1.0"), "ex-gradient-updates.yaml": edited}
    second = _publish(session, settings, teacher, zip_folder(EXAMPLE, edits))
    found = question_at_version(
        settings, second.catalog, question_id="ex-gradient-updates", version=old_hash
    )
    assert found.pack_versions == ["1.0.0"] and "edited" not in found.text


@pytest.mark.parametrize(
    ("question_id", "version"),
    [("../../secret_key", "0123456789ab"), ("ex-what-records", "../../x"), ("nope", "0" * 12)],
)
def test_question_at_version_refuses_odd_or_unknown(
    settings: Settings, question_id: str, version: str
) -> None:
    with pytest.raises(NotFound):
        question_at_version(
            settings, load_serving_catalog(settings), question_id=question_id, version=version
        )


def test_publishing_reads_the_published_packs_questions(
    session: Session, settings: Settings, teacher: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[tuple[str, int]] = []

    def spy(pack: Any) -> int:
        read.append((pack.meta.id, threading.get_ident()))
        return 0

    monkeypatch.setattr(publishing, "read_uploaded", spy)  # round 31
    _publish(session, settings, teacher, zip_folder(EXAMPLE))
    assert [pack_id for pack_id, _ in read] == ["tape-example"]
    assert read[0][1] != threading.get_ident()  # off the event loop's thread


def test_a_failed_read_ahead_still_publishes(
    session: Session,
    settings: Settings,
    teacher: User,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The reading runs after the commit: if it fails, the pack is published all the same and
    its questions are read at their first answers, as before round 31."""

    def broken(pack: Any) -> int:
        raise RuntimeError("reading failed")

    monkeypatch.setattr(publishing, "read_uploaded", broken)
    published = _publish(session, settings, teacher, zip_folder(EXAMPLE))
    assert published.version.pack_id == "tape-example"
    assert _published(settings) == ["tape-example/1.0.0"]
    assert "reading the published pack tape-example" in caplog.text
