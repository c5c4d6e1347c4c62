"""Cohorts: join codes, ownership, the per-question and per-learner dashboard, CSV export."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session

from app.config import Settings
from app.errors import NotFound
from app.models.progress import Attempt
from app.models.publishing import Cohort
from app.models.users import User
from app.packs.catalog import Catalog
from app.packs.schema import SingleChoice
from app.services.instructor import cohorts
from app.services.instructor.cohort_reports import dashboard, export_csv, learner_report, safe_cell
from app.services.instructor.publishing import load_serving_catalog
from app.services.progress import misconceptions
from tests.services.instructor_fakes import make_user


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_serving_catalog(Settings())


@pytest.fixture
def cohort(session: Session, teacher: User, catalog: Catalog) -> Cohort:
    return cohorts.create_cohort(
        session, owner=teacher, name="Spring", pack_id="gradient-tape", catalog=catalog
    )


def _single_choice(catalog: Catalog) -> SingleChoice:
    return next(
        q.question
        for q in catalog.packs["gradient-tape"].questions
        if isinstance(q.question, SingleChoice)
    )


def _attempt(
    session: Session,
    user: User,
    question_id: str,
    answer: object,
    verdict: str,
    tags: tuple[str, ...] = (),
    pack_id: str = "gradient-tape",
    when: datetime | None = None,
) -> None:
    assert user.id is not None
    session.add(
        Attempt(
            user_id=user.id,
            question_id=question_id,
            question_version="v1",
            pack_id=pack_id,
            topic="t",
            qtype="single-choice",
            answer=answer,
            verdict=verdict,
            score=1.0 if verdict == "correct" else 0.0,
            misconceptions=list(tags),
            created_at=when or datetime.now(UTC) + timedelta(seconds=1),
        )
    )
    session.commit()


def _learner(session: Session, cohort: Cohort, email: str) -> User:
    user = make_user(session, email, role="learner")
    cohorts.join_cohort(session, user=user, code=cohort.join_code)
    return user


def test_create_cohort_refuses_unknown_pack(
    session: Session, teacher: User, catalog: Catalog
) -> None:
    with pytest.raises(NotFound):
        cohorts.create_cohort(session, owner=teacher, name="x", pack_id="nope", catalog=catalog)


def test_join_cohort_accepts_code_in_any_case_and_spacing(session: Session, cohort: Cohort) -> None:
    user = make_user(session, "ada@example.com", role="learner")
    sloppy = " " + cohort.join_code.replace("-", " ").lower()
    assert cohorts.join_cohort(session, user=user, code=sloppy).id == cohort.id


def test_join_cohort_twice_keeps_one_membership(session: Session, cohort: Cohort) -> None:
    user = _learner(session, cohort, "ada@example.com")
    cohorts.join_cohort(session, user=user, code=cohort.join_code)
    assert len(cohorts.members_of(session, cohort)) == 1


def test_join_cohort_refuses_unknown_code(session: Session, cohort: Cohort) -> None:
    user = make_user(session, "ada@example.com", role="learner")
    with pytest.raises(NotFound, match="join code"):
        cohorts.join_cohort(session, user=user, code="ZZZZ-ZZZZ")


def test_get_cohort_hides_other_instructors_cohort(session: Session, cohort: Cohort) -> None:
    rival = make_user(session, "rival@example.com")
    assert cohort.id is not None
    with pytest.raises(NotFound):
        cohorts.get_cohort(session, owner=rival, cohort_id=cohort.id)


def test_dashboard_counts_attempts_success_and_misconceptions(
    session: Session, cohort: Cohort, catalog: Catalog
) -> None:
    question = _single_choice(catalog)
    [right] = question.correct_ids()
    wrong = next(c for c in question.choices if not c.correct)
    ada, bob = (_learner(session, cohort, f"{n}@example.com") for n in ("ada", "bob"))
    _attempt(session, ada, question.id, wrong.id, "incorrect", ("tag-a",))
    _attempt(session, bob, question.id, wrong.id, "incorrect", ("tag-a", "tag-b"))
    _attempt(session, bob, question.id, right, "correct")
    stats = next(
        q
        for q in dashboard(session, cohort=cohort, catalog=catalog).questions
        if q.question_id == question.id
    )
    assert (stats.attempts, stats.learners, stats.success_rate) == (
        3,
        2,
        pytest.approx(1 / 3, abs=1e-3),
    )
    assert stats.wrong_answers == [(wrong.text, 2)]
    assert stats.misconceptions == [("tag-a", 2), ("tag-b", 1)]


def test_dashboard_ignores_attempts_before_joining_and_on_other_packs(
    session: Session, cohort: Cohort, catalog: Catalog
) -> None:
    question = _single_choice(catalog)
    ada = _learner(session, cohort, "ada@example.com")
    _attempt(
        session, ada, question.id, "x", "incorrect", when=datetime.now(UTC) - timedelta(days=1)
    )
    _attempt(session, ada, "other-q", "x", "incorrect", pack_id="other-pack")
    board = dashboard(session, cohort=cohort, catalog=catalog)
    assert sum(q.attempts for q in board.questions) == 0
    assert board.learners[0].attempts == 0


def test_dashboard_per_learner_scores(session: Session, cohort: Cohort, catalog: Catalog) -> None:
    question = _single_choice(catalog)
    ada = _learner(session, cohort, "ada@example.com")
    _attempt(session, ada, question.id, "x", "incorrect", ("tag-a",))
    _attempt(session, ada, question.id, "y", "correct")
    [learner] = dashboard(session, cohort=cohort, catalog=catalog).learners
    assert (learner.name, learner.attempts, learner.correct, learner.mean_score) == (
        "ada",
        2,
        1,
        0.5,
    )
    assert learner.misconceptions == [("tag-a", 1)]


def test_export_csv_defuses_formula_cells(
    session: Session, cohort: Cohort, catalog: Catalog
) -> None:
    ada = make_user(session, "ada@example.com", role="learner")
    ada.display_name = '=HYPERLINK("http://evil")'
    session.add(ada)
    session.commit()
    cohorts.join_cohort(session, user=ada, code=cohort.join_code)
    _attempt(session, ada, "free-q", "@SUM(A1:A9)", "incorrect")
    rows = list(csv.reader(io.StringIO(export_csv(session, cohort=cohort, catalog=catalog))))
    assert rows[0][:3] == ["learner", "email", "question_id"]
    assert rows[1][0] == '\'=HYPERLINK("http://evil")'
    assert rows[1][7] == "'@SUM(A1:A9)"


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+2", "'=1+2"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@x", "'@x"),
        ("\tx", "'\tx"),
        ("ok", "ok"),
        (None, ""),
    ],
)
def test_safe_cell_prefixes_formula_starts(value: object, cell: str) -> None:
    assert safe_cell(value) == cell


def test_drop_duplicate_memberships_lets_guest_rows_move(session: Session, cohort: Cohort) -> None:
    account = _learner(session, cohort, "ada@example.com")
    guest = _learner(session, cohort, "guest@example.com")
    cohorts.drop_duplicate_memberships(session, guest=guest, account=account)
    assert [user.id for _, user in cohorts.members_of(session, cohort)] == [account.id]


def test_learner_report_lists_member_attempts_newest_first(
    session: Session, cohort: Cohort, catalog: Catalog
) -> None:
    question = _single_choice(catalog)
    ada = _learner(session, cohort, "ada@example.com")
    _attempt(session, ada, question.id, "x", "incorrect", ("tag-a",))
    _attempt(session, ada, question.id, "y", "correct", when=datetime.now(UTC) + timedelta(hours=1))
    assert ada.id is not None
    report = learner_report(session, cohort=cohort, catalog=catalog, user_id=ada.id)
    assert [a.verdict for a in report.attempts] == ["correct", "incorrect"]
    assert report.attempts[1].misconceptions == ["tag-a"]


def test_learner_report_refuses_non_member(
    session: Session, cohort: Cohort, catalog: Catalog
) -> None:
    outsider = make_user(session, "out@example.com", role="learner")
    assert outsider.id is not None
    with pytest.raises(NotFound):
        learner_report(session, cohort=cohort, catalog=catalog, user_id=outsider.id)


def test_dashboard_keeps_errors_out_of_misconceptions_and_names_each_once(
    session: Session, cohort: Cohort, catalog: Catalog
) -> None:
    question = _single_choice(catalog)
    ada = _learner(session, cohort, "ada@example.com")
    _attempt(session, ada, question.id, "x", "incorrect", ("syntax-error", "numpy-inside-tape"))
    board = dashboard(session, cohort=cohort, catalog=catalog)
    stats = next(q for q in board.questions if q.question_id == question.id)
    assert stats.misconceptions == [("numpy-inside-tape", 1)]
    assert board.learners[0].misconceptions == [("numpy-inside-tape", 1)]
    assert board.labels["numpy-inside-tape"] == misconceptions.label(catalog, "numpy-inside-tape")
    assert board.labels["numpy-inside-tape"] != "Numpy inside tape"  # an author's label


def test_guest_who_gives_a_name_is_shown_by_it(session: Session, cohort: Cohort) -> None:
    guest = make_user(session, "guest@example.com", role="learner")
    guest.is_guest = True
    cohorts.join_cohort(session, user=guest, code=cohort.join_code, display_name="  Ada   L. ")
    assert cohorts.learner_name(guest) == "Ada L. (guest)"
