"""Mock interviews: one row per interview, one row per question served in it.

An answer row is written before its grading starts, so a grader that is busy, switched off
or crashing can never lose what the candidate typed; the grading result is kept server-side
(never sent back while the interview runs) and read only by the report. Times are stored as
naive UTC like the rest of the schema (SQLite has no zones).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel
from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel

from app.packs.public import QuestionDetail
from app.schemas import FeedbackItem


class Interview(SQLModel, table=True):
    id: str = Field(primary_key=True, max_length=32)  # random: ids appear in URLs
    user_id: int = Field(foreign_key="user.id", index=True, ondelete="CASCADE")
    pack_id: str = Field(max_length=64)
    minutes: int
    difficulty: str | None = Field(default=None, max_length=10)
    started_at: datetime
    ends_at: datetime
    finished_at: datetime | None = Field(default=None, index=True)
    finish_reason: str | None = Field(default=None, max_length=20)  # candidate|deadline|completed
    # Slot kinds still to serve, e.g. ["explanation", "code"]; follow-ups are chosen live.
    plan: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    followups_left: int = Field(default=0)
    score: float | None = Field(default=None)  # overall score, set at finish (for comparisons)
    topic_scores: dict[str, float] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False)
    )


class InterviewAnswer(SQLModel, table=True):
    __tablename__ = "interview_answer"
    __table_args__ = (UniqueConstraint("interview_id", "position"),)

    id: int | None = Field(default=None, primary_key=True)
    interview_id: str = Field(
        foreign_key="interview.id", index=True, ondelete="CASCADE", max_length=32
    )
    position: int  # 0-based order of serving
    question_id: str = Field(max_length=64)
    question_version: str = Field(max_length=64)
    kind: str = Field(max_length=20)  # warm-up | explanation | code | follow-up
    reason: str = Field(default="", max_length=300)  # why a follow-up was chosen (report only)
    served_at: datetime
    answered_at: datetime | None = Field(default=None)
    answer: Any = Field(default=None, sa_column=Column(JSON))
    # open (being answered) | skipped | graded | pending (stored, the background drain will
    # grade it) | grading (being graded now) | ungraded (no grader) | unanswered (time ran out)
    status: str = Field(default="open", max_length=20)
    result: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    grading_error: str | None = Field(default=None, max_length=500)
    recorded_at: datetime | None = Field(default=None)  # entered the progress history
    # A follow-up was weighed on this answer's settled result (services/interviews/followups)
    weighed: bool = Field(default=False)


# Public forms: what the API returns while an interview runs (no grading in any of them).


class InterviewQuestion(QuestionDetail):
    position: int = Field(description="0-based place in the interview")


class InterviewStarted(BaseModel):
    id: str
    ends_at: datetime
    question: InterviewQuestion


class NextQuestion(BaseModel):
    next: InterviewQuestion | None


class InterviewStatus(BaseModel):
    id: str
    pack: str
    minutes: int
    difficulty: str | None
    started_at: datetime
    ends_at: datetime
    remaining_seconds: float
    finished: bool
    question: InterviewQuestion | None
    answered: int


# The report: everything held back while the interview ran.


class RedFlag(BaseModel):
    tell: str  # a tell id, or the grader's misconception tag for lesser flags
    kind: str  # "tell" | "misconception" | "conduct" (the answer addressed the grader)
    label: str
    evidence: str
    correction: str
    question_id: str
    position: int


class ReportAnswer(BaseModel):
    position: int
    question_id: str
    title: str
    type: str
    topic: str
    kind: str = Field(description="warm-up | explanation | code | follow-up")
    reason: str = Field(description="Why a follow-up was asked (empty for planned questions).")
    answer: Any
    answer_text: str = Field(description="The answer in words (choice texts, not ids).")
    status: str = Field(
        description="graded | skipped | ungraded | pending (still being graded: read the "
        "report again shortly) | unanswered"
    )
    verdict: str = Field(description="correct | partial | incorrect | error | skipped | ungraded")
    score: float | None
    feedback: list[FeedbackItem]
    misconceptions: list[str]
    model_answer: str = Field(description="Markdown: what a strong answer says or does.")
    explanation: str
    grading_error: str | None
    seconds: float | None = Field(description="Time from being shown to being answered.")
    solution: Any = Field(
        default=None,
        description="The right choice id(s), order or true/false (closed questions only); "
        "shown only in the report, after the interview.",
    )
    answer_items: list[str] = Field(
        default_factory=list,
        description="Ordering questions: the candidate's order, each item's text as shown.",
    )
    model_items: list[str] = Field(
        default_factory=list, description="Ordering questions: the right order, item texts."
    )


class TopicScore(BaseModel):
    topic: str
    title: str
    score: float | None
    questions: int


class Scores(BaseModel):
    overall: float | None = Field(
        description="0..1, weighted; unanswered and planned-but-unreached questions count 0; "
        "null when nothing was scored"
    )
    scored: int
    questions: int
    topics: list[TopicScore]
    unreached: int = Field(default=0, description="Planned questions never reached (count 0).")
    unanswered: int = Field(default=0, description="Questions shown but not answered (count 0).")
    skipped: int = Field(default=0, description="Questions skipped (answer null; count 0).")
    grading: int = Field(
        default=0,
        description="Answers still being graded (status pending): not scored yet; the report "
        "read again includes them once graded.",
    )


class Dimension(BaseModel):
    id: str = Field(description="concepts | code | explanation | speed")
    title: str
    score: float | None
    standing: str = Field(
        description="strength | mixed | thin (too little to call) | gap | untested | grading "
        "(an answer of it is still being graded: not called yet)"
    )
    evidence: str


class Signal(BaseModel):
    label: str = Field(description="strong | lean yes | lean no | not yet")
    title: str
    reasons: list[str]


class PastInterview(BaseModel):
    id: str
    minutes: int
    finished_at: datetime
    score: float | None
    grading: int = Field(
        default=0,
        description="Its answers still being graded: its score is not final yet and no "
        "change is measured against it.",
    )


class Comparison(BaseModel):
    previous: list[PastInterview] = Field(description="Earlier interviews, newest first.")
    change: float | None = Field(
        description="Overall score minus that of the interview in compared_with; null while "
        "an answer of this interview is still being graded (see waiting_for)."
    )
    topic_changes: dict[str, float]
    recurring_tells: list[str] = Field(
        default_factory=list, description="Tells shown again after an earlier interview."
    )
    compared_with: str | None = Field(
        default=None,
        description="The earlier interview change and topic_changes are measured against: the "
        "newest one with nothing still being graded (null: no change measured).",
    )
    waiting_for: int = Field(
        default=0,
        description="Answers of this interview still being graded: no change is measured "
        "until they are (read the report again).",
    )


class Review(BaseModel):
    question_id: str
    title: str
    reason: str


class InterviewReport(BaseModel):
    id: str
    pack: str
    pack_title: str
    minutes: int
    difficulty: str | None
    started_at: datetime
    ends_at: datetime
    finished_at: datetime
    finish_reason: str
    scores: Scores
    answers: list[ReportAnswer]
    red_flags: list[RedFlag]
    total_seconds: float
    comparison: Comparison
    recommended_reviews: list[Review]
    summary: str
    dimensions: list[Dimension] = Field(default_factory=list)
    strengths: list[str] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)
    signal: Signal | None = None
