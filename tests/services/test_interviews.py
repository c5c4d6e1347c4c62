"""The interview service: deadlines on a fake clock, hidden grading, follow-ups, the finish."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from app.clock import FakeClock
from app.errors import Conflict, GraderBusy, GraderUnavailable, NotFound
from app.models.interviews import Interview, InterviewAnswer
from app.models.progress import Attempt, ReviewState
from app.models.users import User
from app.services.interviews import answers as interview_answers
from app.services.interviews import endings
from app.services.interviews import lifecycle as interviews
from app.services.interviews.lifecycle import DeadlinePassed, Graders, InterviewQuestion
from tests.services.interview_kit import PACK, RIGHT, WRONG, ScriptedCodeGrader, make_user

pytest_plugins = ["tests.services.interview_support"]
pytestmark = pytest.mark.anyio
GRADING_KEYS = {"verdict", "score", "feedback", "misconceptions", "explanation", "details"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def start(
    session: Session, graders: Graders, user: User, clock: FakeClock, minutes: int = 20
):
    return await interviews.start_interview(
        session,
        graders=graders,
        user=user,
        pack=PACK,
        minutes=minutes,
        difficulty=None,
        clock=clock,
    )


async def answer(
    session: Session,
    graders: Graders,
    user: User,
    clock: FakeClock,
    interview_id: str,
    question: InterviewQuestion,
    value: object,
) -> InterviewQuestion | None:
    result = await interviews.submit_answer(
        session,
        graders=graders,
        user=user,
        interview_id=interview_id,
        question_id=question.id,
        answer=value,
        clock=clock,
    )
    return result.next


async def test_start_sets_deadline_from_minutes(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock, minutes=10)
    assert (started.ends_at - clock.now()).total_seconds() == 600
    assert started.question.position == 0


async def test_start_opens_with_an_easy_warm_up(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    assert started.question.type in ("single-choice", "true-false")
    assert started.question.difficulty == "easy"


@pytest.mark.parametrize("minutes", [0, 5, 15, 30, 60])
async def test_start_with_other_lengths_is_refused(session, graders, user, clock, minutes) -> None:
    with pytest.raises(Exception, match="minutes must be one of 10, 20, 45"):
        await start(session, graders, user, clock, minutes=minutes)


async def test_start_with_unknown_difficulty_is_refused(session, graders, user, clock) -> None:
    with pytest.raises(Exception, match="difficulty must be easy, medium or hard"):
        await interviews.start_interview(
            session, graders=graders, user=user, pack=PACK, minutes=10, difficulty="brutal",
            clock=clock,
        )  # fmt: skip


async def test_start_with_unknown_pack_is_not_found(session, graders, user, clock) -> None:
    with pytest.raises(NotFound):
        await interviews.start_interview(
            session,
            graders=graders,
            user=user,
            pack="nope",
            minutes=10,
            difficulty=None,
            clock=clock,
        )


async def test_answer_response_carries_no_grading(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    result = await interviews.submit_answer(
        session,
        graders=graders,
        user=user,
        interview_id=started.id,
        question_id=started.question.id,
        answer=WRONG[started.question.id],
        clock=clock,
    )
    dumped = result.model_dump()
    assert set(dumped) == {"next"}
    assert not GRADING_KEYS & set(dumped["next"])


async def test_answer_is_graded_and_stored_server_side(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    await answer(
        session, graders, user, clock, started.id, started.question, WRONG[started.question.id]
    )
    row = session.exec(select(InterviewAnswer).where(InterviewAnswer.position == 0)).one()
    assert (row.status, row.result["verdict"]) == ("graded", "incorrect")


async def test_answer_records_time_taken(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    clock.advance(42)
    await answer(
        session, graders, user, clock, started.id, started.question, RIGHT[started.question.id]
    )
    report = await interviews.finish_interview(
        session, graders=graders, user=user, interview_id=started.id, clock=clock
    )
    assert report.answers[0].seconds == 42


async def test_answer_after_deadline_is_refused(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock, minutes=10)
    clock.advance(minutes=10, seconds=endings.GRACE_SECONDS + 1)
    with pytest.raises(DeadlinePassed, match="Time is up"):
        await answer(session, graders, user, clock, started.id, started.question, "tape")


async def test_answer_within_grace_is_accepted(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock, minutes=10)
    clock.advance(minutes=10, seconds=endings.GRACE_SECONDS - 1)
    await answer(
        session, graders, user, clock, started.id, started.question, RIGHT[started.question.id]
    )
    row = session.exec(select(InterviewAnswer).where(InterviewAnswer.position == 0)).one()
    assert row.status == "graded"


async def test_late_answer_finishes_the_interview(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock, minutes=10)
    clock.advance(minutes=11)
    with pytest.raises(DeadlinePassed):
        await answer(session, graders, user, clock, started.id, started.question, "tape")
    report = await interviews.get_report(
        session, graders=graders, user=user, interview_id=started.id, clock=clock
    )
    assert (report.finish_reason, report.answers[0].status) == ("deadline", "unanswered")
    assert report.finished_at == started.ends_at


async def test_report_of_expired_interview_finishes_it(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock, minutes=10)
    clock.advance(minutes=30)
    report = await interviews.get_report(
        session, graders=graders, user=user, interview_id=started.id, clock=clock
    )
    assert report.finish_reason == "deadline"


async def test_report_of_running_interview_is_conflict(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    with pytest.raises(Conflict, match="still running"):
        await interviews.get_report(
            session, graders=graders, user=user, interview_id=started.id, clock=clock
        )


async def test_answer_after_finish_is_conflict(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    await interviews.finish_interview(
        session, graders=graders, user=user, interview_id=started.id, clock=clock
    )
    with pytest.raises(Conflict, match="finished"):
        await answer(session, graders, user, clock, started.id, started.question, "tape")


async def test_answer_to_other_question_is_conflict(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    other = started.question.model_copy(update={"id": "p-tf-function"})
    with pytest.raises(Conflict, match="not the one being asked"):
        await answer(session, graders, user, clock, started.id, other, "graph")


async def test_malformed_answer_is_refused_and_question_stays(
    session, graders, user, clock
) -> None:
    started = await start(session, graders, user, clock)
    with pytest.raises(Exception, match="answer must be"):
        await answer(session, graders, user, clock, started.id, started.question, {"x": 1})
    next_question = await answer(
        session, graders, user, clock, started.id, started.question, RIGHT[started.question.id]
    )
    assert next_question is not None


async def test_other_users_interview_is_not_found(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    intruder = make_user(session, "Eve")
    with pytest.raises(NotFound):
        await interviews.get_status(
            session, graders=graders, user=intruder, interview_id=started.id, clock=clock
        )


async def test_skip_counts_as_zero_and_is_reviewed(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    await answer(session, graders, user, clock, started.id, started.question, None)
    report = await interviews.finish_interview(
        session, graders=graders, user=user, interview_id=started.id, clock=clock
    )
    first = report.answers[0]
    assert (first.verdict, first.score) == ("skipped", 0.0)
    assert first.question_id in {r.question_id for r in report.recommended_reviews}


@pytest.mark.parametrize(
    ("failure", "status"),
    [
        (GraderUnavailable("code grading is switched off on this server"), "ungraded"),
        (GraderBusy("queue full", retry_after=3), "ungraded"),
    ],
)
async def test_code_grader_failure_keeps_the_answer(
    session, catalog, user, clock, failure, status
) -> None:
    graders = Graders(catalog=catalog, code_grader=ScriptedCodeGrader(fail_with=failure))
    interview_id, _ = await run_to_code(session, graders, user, clock)
    report = await interviews.finish_interview(
        session, graders=graders, user=user, interview_id=interview_id, clock=clock
    )
    code = next(a for a in report.answers if a.type == "code")
    assert (code.status, code.answer, code.grading_error) == (
        status,
        RIGHT[code.question_id],
        failure.message,
    )


async def test_busy_code_grading_is_retried_at_finish(session, catalog, user, clock) -> None:
    grader = ScriptedCodeGrader(fail_with=GraderBusy("queue full"))
    graders = Graders(catalog=catalog, code_grader=grader)
    interview_id, _ = await run_to_code(session, graders, user, clock)
    grader.fail_with = None
    report = await interviews.finish_interview(
        session, graders=graders, user=user, interview_id=interview_id, clock=clock
    )
    code = next(a for a in report.answers if a.type == "code")
    assert (code.status, code.verdict) == ("graded", "correct")


async def run_to_code(session, graders, user, clock, book=RIGHT):
    """Answer from the book until a code question has been answered; returns its position."""
    started = await start(session, graders, user, clock, minutes=45)
    question = started.question
    while question is not None:
        was_code = question.type == "code"
        next_question = await answer(
            session, graders, user, clock, started.id, question, book[question.id]
        )
        if was_code:
            return started.id, question.position
        question = next_question
    raise AssertionError("no code question was served")


async def test_passing_train_step_brings_harder_step(session, graders, user, clock) -> None:
    _, position = await run_to_code(session, graders, user, clock)
    row = session.exec(
        select(InterviewAnswer).where(InterviewAnswer.position == position + 1)
    ).one()
    assert (row.question_id, row.kind) == ("k-clip-step", "follow-up")
    assert "train-step passed" in row.reason


async def test_missed_explanation_brings_follow_up_on_it(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock, minutes=45)
    question = started.question
    while question is not None and question.id != "e-zero-grad":
        question = await answer(
            session, graders, user, clock, started.id, question, RIGHT[question.id]
        )
    assert question is not None
    follow_up = await answer(
        session, graders, user, clock, started.id, question, WRONG["e-zero-grad"]
    )
    assert follow_up is not None and follow_up.id == "f-zero-grad"


async def test_interview_ends_when_nothing_fits_the_time(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock, minutes=10)
    clock.advance(minutes=9, seconds=30)  # 30 s left: no question fits
    next_question = await answer(
        session, graders, user, clock, started.id, started.question, RIGHT[started.question.id]
    )
    status = await interviews.get_status(
        session, graders=graders, user=user, interview_id=started.id, clock=clock
    )
    assert next_question is None and status.finished


async def test_finish_reports_red_flags_with_evidence(session, graders, user, clock) -> None:
    interview_id, _ = await run_to_code(session, graders, user, clock, book=WRONG)
    report = await interviews.finish_interview(
        session, graders=graders, user=user, interview_id=interview_id, clock=clock
    )
    evidence = {(f.tell, f.evidence) for f in report.red_flags}
    assert ("zero-grad", "optimizer.zero_grad()") in evidence


async def test_finish_feeds_attempts_and_review_queue(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    await answer(
        session, graders, user, clock, started.id, started.question, WRONG[started.question.id]
    )
    await interviews.finish_interview(
        session, graders=graders, user=user, interview_id=started.id, clock=clock
    )
    attempts = session.exec(select(Attempt).where(Attempt.source == "interview")).all()
    cards = session.exec(select(ReviewState).where(ReviewState.user_id == user.id)).all()
    assert [a.question_id for a in attempts] == [started.question.id]
    assert [c.question_id for c in cards] == [started.question.id]


async def test_finish_twice_returns_the_same_report(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    first = await interviews.finish_interview(
        session, graders=graders, user=user, interview_id=started.id, clock=clock
    )
    clock.advance(60)
    second = await interviews.finish_interview(
        session, graders=graders, user=user, interview_id=started.id, clock=clock
    )
    assert first == second
    assert len(session.exec(select(Attempt)).all()) == 0  # nothing answered, nothing recorded


async def test_report_compares_with_earlier_interviews(session, graders, user, clock) -> None:
    ids = []
    for book in (WRONG, RIGHT):
        started = await start(session, graders, user, clock)
        await answer(
            session, graders, user, clock, started.id, started.question, book[started.question.id]
        )
        await interviews.finish_interview(
            session, graders=graders, user=user, interview_id=started.id, clock=clock
        )
        ids.append(started.id)
        clock.advance(minutes=30)
    report = await interviews.get_report(
        session, graders=graders, user=user, interview_id=ids[1], clock=clock
    )
    assert [p.id for p in report.comparison.previous] == [ids[0]]
    # One right answer then Finish: the questions not reached count, so it is no +100.
    assert report.comparison.change == report.scores.overall
    assert 0 < report.comparison.change < 0.5


async def test_clock_stops_while_code_is_graded(session, catalog, user, clock) -> None:
    grader = ScriptedCodeGrader(clock=clock, seconds=30)
    graders = Graders(catalog=catalog, code_grader=grader)
    interview_id, _ = await run_to_code(session, graders, user, clock)
    status = await interviews.get_status(
        session, graders=graders, user=user, interview_id=interview_id, clock=clock
    )
    assert grader.calls == ["k-train-step"]
    assert (status.ends_at - status.started_at).total_seconds() == 45 * 60 + 30


async def test_interview_finished_while_grading_serves_nothing_more(
    session, catalog, user, clock
) -> None:
    grader = ScriptedCodeGrader()
    graders = Graders(catalog=catalog, code_grader=grader)
    started = await start(session, graders, user, clock, minutes=45)
    question = started.question
    while question.type != "code":
        question = await answer(
            session, graders, user, clock, started.id, question, RIGHT[question.id]
        )

    async def finish_elsewhere() -> None:  # e.g. the report page opened in another tab
        with Session(session.get_bind()) as other:
            same_user = other.get(User, user.id)
            assert same_user is not None
            await interviews.finish_interview(
                other,
                graders=graders,
                user=same_user,
                interview_id=started.id,
                clock=clock,
            )

    grader.during = finish_elsewhere
    assert (
        await answer(session, graders, user, clock, started.id, question, RIGHT[question.id])
        is None
    )
    statuses = session.exec(select(InterviewAnswer.status)).all()
    assert "open" not in statuses


@pytest.mark.parametrize(("minutes", "kind"), [(10, "explanation"), (20, "follow-up")])
async def test_missed_warm_up_follow_up_keeps_some_in_reserve(
    session, graders, user, clock, minutes, kind
) -> None:
    started = await start(session, graders, user, clock, minutes=minutes)
    await answer(
        session, graders, user, clock, started.id, started.question, WRONG[started.question.id]
    )
    row = session.exec(select(InterviewAnswer).where(InterviewAnswer.position == 1)).one()
    assert row.kind == kind


async def test_double_submit_answers_once(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    with Session(session.get_bind()) as other:  # a second tab loaded the same open question
        stale = other.exec(select(InterviewAnswer).where(InterviewAnswer.position == 0)).one()
        await answer(session, graders, user, clock, started.id, started.question, None)
        with pytest.raises(Conflict, match="answered already"):
            await interview_answers.take_answer(
                other, stale, graders, answer="tape", now=clock.now()
            )
    row = session.exec(select(InterviewAnswer).where(InterviewAnswer.position == 0)).one()
    session.refresh(row)
    assert (row.status, row.answer) == ("skipped", None)


async def test_two_finishes_at_once_record_answers_once(session, graders, user, clock) -> None:
    started = await start(session, graders, user, clock)
    await answer(
        session, graders, user, clock, started.id, started.question, RIGHT[started.question.id]
    )
    with Session(session.get_bind()) as other:  # e.g. the clock and the candidate together
        stale = other.get(Interview, started.id)
        same_user = other.get(User, user.id)
        assert stale is not None and same_user is not None
        await interviews.finish_interview(
            session, graders=graders, user=user, interview_id=started.id, clock=clock
        )
        await endings.close(
            other, stale, graders=graders, user=same_user, now=clock.now(), reason="candidate"
        )
    assert len(session.exec(select(Attempt)).all()) == 1


async def test_report_names_tells_repeated_across_interviews(session, graders, user, clock) -> None:
    ids = []
    for _ in range(2):
        interview_id, _ = await run_to_code(session, graders, user, clock, book=WRONG)
        await interviews.finish_interview(
            session, graders=graders, user=user, interview_id=interview_id, clock=clock
        )
        ids.append(interview_id)
        clock.advance(minutes=60)
    first, second = [
        await interviews.get_report(
            session, graders=graders, user=user, interview_id=i, clock=clock
        )
        for i in ids
    ]
    assert first.comparison.recurring_tells == []
    assert "Reached for zero_grad" in second.comparison.recurring_tells
