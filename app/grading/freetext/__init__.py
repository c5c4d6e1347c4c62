"""Free-text grading: rubric concepts and misconceptions matched with negation scope.

The public surface is `grade_freetext` (one answer), `calibrate` (agreement with
labelled answers, used by the benchmark) and `run_calibrate_cli` (`tapequiz packs
calibrate`).
"""

from app.grading.freetext.calibration import CalibrationReport, calibrate
from app.grading.freetext.grader import grade_freetext
from app.grading.freetext.labelled import LabelledAnswer, load_labelled
from app.grading.freetext.reports import run_calibrate_cli

__all__ = [
    "CalibrationReport",
    "LabelledAnswer",
    "calibrate",
    "grade_freetext",
    "load_labelled",
    "run_calibrate_cli",
]
