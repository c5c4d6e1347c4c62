"""The grader's queue as the waiting page sees it: place, count and an estimate."""

from __future__ import annotations

from app.grading.code.queue import GradingQueue, current_ticket


def test_a_later_submission_sees_the_ones_ahead_of_it() -> None:
    queue = GradingQueue(workers=1)
    current_ticket.set("first-ticket")
    with queue.holding():
        current_ticket.set("second-ticket")
        with queue.holding():
            first, second = queue.status("first-ticket"), queue.status("second-ticket")
    assert (first.known, first.ahead, first.in_progress) == (True, 0, 2)
    assert (second.ahead, second.estimate_seconds) == (1, 10)  # two rounds of the 5 s default
    assert not queue.status("second-ticket").known  # answered: it left the queue


def test_estimate_comes_from_real_durations() -> None:
    queue = GradingQueue(workers=2)
    current_ticket.set(None)
    with queue.holding():
        pass
    assert queue.typical_seconds() < 1.0


def test_a_malformed_ticket_is_not_trusted() -> None:
    queue = GradingQueue(workers=1)
    current_ticket.set("<script>")
    with queue.holding() as ticket:
        assert ticket.startswith("anon-")
