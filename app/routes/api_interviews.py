"""JSON API for mock interviews: start, answer against the clock, finish, read the report.

While an interview runs, no response carries grading (no verdict, score or feedback); the
report holds all of it. Writes need `Content-Type: application/json` (the CSRF guard, see
app/identity.py). Another identity's interview is a 404, never a 403, so ids reveal nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field, field_validator

from app.clock import ClockDep, as_utc
from app.deps import GradersDep, SessionDep
from app.identity import CurrentUserDep, GradeLimitDep, JsonBodyDep
from app.models.interviews import (
    InterviewReport,
    InterviewStarted,
    InterviewStatus,
    NextQuestion,
)
from app.offload import offloaded, offloads_itself
from app.schemas import ErrorBody, RequestBody
from app.services.interviews import lifecycle as interviews
from app.services.interviews import waiting

router = APIRouter(prefix="/api/interviews", tags=["interviews"])
ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "Not JSON (CSRF guard)"},
    404: {"model": ErrorBody, "description": "No such interview (or pack) for this identity"},
    409: {
        "model": ErrorBody,
        "description": "Finished interview, not the current question, still running (report), "
        "or `deadline_passed`: the answer came after the deadline and the interview finished",
    },
    422: {"model": ErrorBody, "description": "Malformed request or answer"},
}


class StartRequest(RequestBody):
    pack: str = Field(max_length=64, examples=["gradient-tape"])
    minutes: Literal[10, 20, 45] = Field(description="Length of the interview.")
    difficulty: Literal["easy", "medium", "hard"] | None = Field(
        default=None, description="Preferred difficulty (warm-ups stay easy)."
    )

    @field_validator("minutes", mode="before")
    @classmethod
    def _whole_minutes(cls, value: object) -> object:
        """A count of minutes is a JSON integer like every count here (`count: 5.0` is a 422
        too); `10.0` was taken as 10 because a Literal compares by equality."""
        if isinstance(value, float):
            raise ValueError("minutes must be a whole number written as one: 10, 20 or 45")
        return value


class AnswerRequest(RequestBody):
    question_id: str = Field(max_length=64, description="Must be the question being asked.")
    answer: Any = Field(
        default=None,
        description="Same shapes as POST /api/questions/{id}/grade. `null` skips the question.",
    )
    skip: bool = Field(default=False, description="Skip the question (the answer is ignored).")


class InterviewSummary(BaseModel):
    id: str
    pack: str
    minutes: int
    started_at: datetime
    finished_at: datetime | None
    score: float | None
    grading: int = Field(
        default=0,
        description="Answers still being graded: score leaves them out and is not final "
        "until this is 0.",
    )


@router.post(
    "",
    response_model=InterviewStarted,
    status_code=201,
    responses=ERRORS,
    dependencies=[JsonBodyDep],
)
@offloaded
async def start(
    body: StartRequest,
    db: SessionDep,
    user: CurrentUserDep,
    graders: GradersDep,
    clock: ClockDep,
) -> InterviewStarted:
    """Start an interview; the deadline is `ends_at` and the server enforces it."""
    return await interviews.start_interview(
        db,
        graders=graders,
        user=user,
        pack=body.pack,
        minutes=body.minutes,
        difficulty=body.difficulty,
        clock=clock,
    )


@router.get("", response_model=list[InterviewSummary])
def list_mine(db: SessionDep, user: CurrentUserDep) -> list[InterviewSummary]:
    return [
        InterviewSummary(
            id=listed.interview.id,
            pack=listed.interview.pack_id,
            minutes=listed.interview.minutes,
            started_at=as_utc(listed.interview.started_at),
            finished_at=as_utc(listed.interview.finished_at)
            if listed.interview.finished_at
            else None,
            score=listed.interview.score,
            grading=listed.grading,
        )
        for listed in interviews.list_interviews(db, user=user)
    ]


@router.get("/{interview_id}", response_model=InterviewStatus, responses=ERRORS)
@offloaded
async def status(
    interview_id: str, db: SessionDep, user: CurrentUserDep, graders: GradersDep, clock: ClockDep
) -> InterviewStatus:
    """Time left and the current question (an expired interview is finished on the way)."""
    return await interviews.get_status(
        db, graders=graders, user=user, interview_id=interview_id, clock=clock
    )


@router.post(
    "/{interview_id}/answers",
    response_model=NextQuestion,
    responses=ERRORS,
    dependencies=[JsonBodyDep, GradeLimitDep],
)
@offloads_itself
async def answer(
    interview_id: str,
    body: AnswerRequest,
    db: SessionDep,
    user: CurrentUserDep,
    graders: GradersDep,
    clock: ClockDep,
) -> NextQuestion:
    """Answer (or skip) the current question; the reply is the next question or null."""
    return await waiting.submit_answer(
        db,
        graders=graders,
        user=user,
        interview_id=interview_id,
        question_id=body.question_id,
        answer=None if body.skip else body.answer,
        clock=clock,
    )


@router.post(
    "/{interview_id}/finish",
    response_model=InterviewReport,
    responses=ERRORS,
    dependencies=[JsonBodyDep],
)
@offloads_itself
async def finish(
    interview_id: str, db: SessionDep, user: CurrentUserDep, graders: GradersDep, clock: ClockDep
) -> InterviewReport:
    """End the interview now and get the report (finishing twice returns the same report)."""
    return await waiting.finish_interview(
        db, graders=graders, user=user, interview_id=interview_id, clock=clock
    )


@router.get("/{interview_id}/report", response_model=InterviewReport, responses=ERRORS)
@offloads_itself
async def report(
    interview_id: str, db: SessionDep, user: CurrentUserDep, graders: GradersDep, clock: ClockDep
) -> InterviewReport:
    """The report of a finished (or expired) interview; 409 while it still runs."""
    return await waiting.get_report(
        db, graders=graders, user=user, interview_id=interview_id, clock=clock
    )
