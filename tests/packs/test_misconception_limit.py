"""The rubric schema's misconception limit stays bounded by the grading budget (issue 14, round 26).

MAX_MISCONCEPTIONS went from 30 to 40 in round 26 and to 48 in round 45. What a limit protects
is the worst-case grading time of a hostile uploaded pack; since round 24 the loops that read an
answer end at the whole-answer deadline, so the count of tells no longer sets that time. This
grades the hostile pack of benchmarks/misconception_limit.py at the limit (every tell and concept
with the schema's 60 + 60 phrasings, each matching every sentence; a cold first answer, so the
phrasings are compiled too) and checks it is stopped early within the budget's bound. Slow:
one grading costs about WHOLE_ANSWER_SECONDS of CPU (6.0 s measured in round 26).
"""

from __future__ import annotations

import time

from app.grading.freetext import budget, phrasings
from app.packs.rubric import MAX_MISCONCEPTIONS
from tests.grading.benchmark_scripts import load_benchmark

limit = load_benchmark("misconception_limit.py", "misconception_limit_benchmark")

# Past the deadline the loops end at the next phrasing; what is left is the work in flight.
BOUND_SECONDS = budget.WHOLE_ANSWER_SECONDS + 4.0


def test_the_limit_is_forty_eight() -> None:
    assert MAX_MISCONCEPTIONS == 48


def test_hostile_pack_at_the_limit_is_stopped_within_the_budget() -> None:
    phrasings.compile_phrasing.cache_clear()
    question = limit.hostile_question("broad", MAX_MISCONCEPTIONS)
    assert len(question.rubric.misconceptions) == MAX_MISCONCEPTIONS
    began = time.thread_time()
    result = limit.grade_freetext(
        question, limit.answers()["sentences"], second_opinion=False, neighbours=False
    )
    seconds = time.thread_time() - began
    assert result.details.get("stopped_early") is True
    assert result.verdict != "correct"
    assert seconds <= BOUND_SECONDS, f"{seconds:.2f} CPU s"
