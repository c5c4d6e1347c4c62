"""Keep a running interview honest: its questions are not gradable elsewhere meanwhile.

The stateless grade endpoint (POST /api/questions/{id}/grade) answers any question with its
verdict and explanation; a candidate could try answers there before committing one in the
interview. While an interview runs, the questions it has served are refused there (409).
"""

from __future__ import annotations

from sqlmodel import Session, col, select

from app.models.interviews import Interview, InterviewAnswer


def in_running_interview(session: Session, *, user_id: int, question_id: str) -> bool:
    """Whether `question_id` was served in one of this user's unfinished interviews."""
    query = (
        select(InterviewAnswer.id)
        .join(Interview, col(Interview.id) == col(InterviewAnswer.interview_id))
        .where(
            Interview.user_id == user_id,
            col(Interview.finished_at).is_(None),
            InterviewAnswer.question_id == question_id,
        )
        .limit(1)
    )
    return session.exec(query).first() is not None
