"""The source document's five tells, detected in any statement with the free-text matcher.

An interview flags a tell wherever it shows up: in a free-text explanation (the grader
names it from the question's rubric) and in a wrong statement picked in a closed question.
Both must read claims the same way - negation scope, another framework's habits, keyword
lists - so closed-question statements go through the same matcher and the same phrasings,
taken from the core pack's rubrics, instead of a second set of regular expressions.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from app.config import REPO_ROOT
from app.grading.freetext.grader import stated_misconceptions
from app.packs.rubric import Misconception, Rubric
from app.packs.shared import read_shared, resolve_references
from app.packs.yamlfiles import YamlFileError, read_yaml

CORE_PACK = REPO_ROOT / "questions" / "gradient-tape"
# Tag -> the core question whose rubric phrases it best.
CORE_TELLS = {
    "needs-zero-grad": "no-zero-grad",
    "gradient-updates-weights": "gradient-vs-apply",
    "pass-model-variables": "trainable-vs-all-variables",
    "loss-outside-is-fine": "why-none-gradients",
    "numpy-is-recorded": "numpy-inside-tape",
}


@lru_cache(maxsize=4)
def core_tell_misconceptions(pack: Path = CORE_PACK) -> tuple[Misconception, ...]:
    """The five tells as their rubrics phrase them (a missing or broken file: skipped)."""
    found = []
    shared, _ = read_shared(pack)  # round 51: a rubric may refer to the pack's shared entries
    for tag, question_id in CORE_TELLS.items():
        try:
            doc = read_yaml(pack / f"{question_id}.yaml")
            if resolve_references(doc, shared):
                continue
            rubric = Rubric.model_validate(doc.data["rubric"])
        except (OSError, YamlFileError, KeyError, TypeError, ValidationError):
            continue
        found += [m for m in rubric.misconceptions if m.tag == tag]
    return tuple(found)


def stated_core_tells(text: str) -> dict[str, str]:
    """Tag -> the sentence stating it, for each core tell the text asserts."""
    return stated_misconceptions(text, core_tell_misconceptions())
