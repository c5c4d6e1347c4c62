"""Free-text grading: rubric concepts and misconceptions matched with negation scope.

The public surface is `grade_freetext` (one answer) and `calibrate` (agreement with
labelled answers, used by the benchmark and `tapequiz packs calibrate`).
"""

from app.grading.freetext.grader import grade_freetext

__all__ = ["grade_freetext"]
