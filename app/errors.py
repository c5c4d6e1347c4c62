"""Domain errors: raised by services, turned into HTML or JSON by one handler in main.py."""

from __future__ import annotations

from collections.abc import Sequence


class TapequizError(Exception):
    status_code = 400
    code = "bad_request"

    def __init__(self, message: str, details: Sequence[object] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.details = list(details)  # the JSON body's `details`: what the client can act on


class NotFound(TapequizError):
    status_code = 404
    code = "not_found"


class AnswerInvalid(TapequizError):
    status_code = 422
    code = "invalid_answer"


class RequestInvalid(AnswerInvalid):
    """A request body the API cannot read one way only (a JSON key given twice)."""

    code = "invalid_request"


class Conflict(TapequizError):
    status_code = 409
    code = "conflict"


class PackInvalid(TapequizError):
    status_code = 422
    code = "pack_invalid"

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


class RetryLater(TapequizError):
    """The server cannot do this now: the client should retry after `retry_after` seconds
    (503; the JSON and HTML handlers send it as Retry-After)."""

    status_code = 503
    code = "retry_later"
    RETRY_AFTER = 5  # seconds, where the raiser does not say

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = self.RETRY_AFTER if retry_after is None else retry_after


class PackCheckBusy(RetryLater):
    """The server was too busy to finish timing a pack's phrasings: nothing is published, and
    nothing is wrong with the pack as far as the check got; the client should retry (503)."""

    code = "pack_check_busy"
    RETRY_AFTER = 60


class GraderUnavailable(TapequizError):
    """No grader for this question type yet, or the grader is switched off (501)."""

    status_code = 501
    code = "grader_unavailable"


class GraderBusy(RetryLater):
    """The grading queue is full: the client should retry after `retry_after` seconds (503)."""

    code = "grader_busy"


class GraderInterrupted(GraderBusy):
    """The sandbox worker running this answer (or the question's reference) was killed from
    outside, again on every retry: nothing is graded or stored; the client should try again
    (503, handled wherever GraderBusy is)."""

    code = "grader_interrupted"


class StorageUnavailable(RetryLater):
    """The database cannot take the request now (busy, read-only, full): retry later (503)."""

    code = "storage_unavailable"
