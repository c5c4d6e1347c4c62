"""Free-text grading: rubric concepts and misconceptions matched with negation scope.

The public surface is `grade_freetext` (one answer), `stated_core_tells` (the source
document's five tells in any statement, for interviews), `calibrate` (agreement with
labelled answers) and `run_calibrate_cli` (`tapequiz packs calibrate`).
"""

from app.grading.freetext.calibration import CalibrationReport, calibrate
from app.grading.freetext.grader import affirms, grade_freetext, stated_misconceptions
from app.grading.freetext.labelled import LabelledAnswer, load_labelled
from app.grading.freetext.reports import run_calibrate_cli
from app.grading.freetext.tells import stated_core_tells

__all__ = [
    "CalibrationReport",
    "LabelledAnswer",
    "affirms",
    "calibrate",
    "grade_freetext",
    "load_labelled",
    "run_calibrate_cli",
    "stated_core_tells",
    "stated_misconceptions",
]
