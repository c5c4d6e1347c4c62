"""Free-text grading: rubric concepts and misconceptions matched with negation scope.

The public surface is `grade_freetext` (one answer), `stated_core_tells` (the source
document's five tells in any statement, for interviews), `calibrate` (agreement with
labelled answers) and `run_calibrate_cli` (`tapequiz packs calibrate`).

The names are imported on first use, not with the package: `python -m
app.grading.freetext.second_opinion train` (and `.neighbours`) imports this package first,
and an eager import of the grader would load the module it is about to run as `__main__`
(runpy's RuntimeWarning, and two copies of the module).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.grading.freetext.calibration import CalibrationReport, calibrate
    from app.grading.freetext.grader import affirms, grade_freetext, stated_misconceptions
    from app.grading.freetext.labelled import LabelledAnswer, load_labelled
    from app.grading.freetext.reports import run_calibrate_cli
    from app.grading.freetext.tells import stated_core_tells

_HOMES = {
    "CalibrationReport": "calibration",
    "calibrate": "calibration",
    "affirms": "grader",
    "grade_freetext": "grader",
    "stated_misconceptions": "grader",
    "LabelledAnswer": "labelled",
    "load_labelled": "labelled",
    "run_calibrate_cli": "reports",
    "stated_core_tells": "tells",
}

__all__ = [  # the names of _HOMES
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


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value  # read once
    return value
