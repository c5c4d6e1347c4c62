"""Sentences that carry another framework's topic from the sentence before (round 15).

"In PyTorch, backward() accumulates into .grad. That's why you have to zero it every step.
In TF, tape.gradient returns new tensors." The middle sentence names no framework, yet it
is about PyTorch: it sits between a sentence about another framework and the sentence that
turns back to TensorFlow. Read alone it states `needs-zero-grad`; read in its paragraph it
describes the contrast. Two of round 14's five fresh false tells had this shape.

A run of prose sentences that name no framework and no TensorFlow API is about the
framework before it when that sentence names only other frameworks (not "like PyTorch", a
comparison) and the next sentence that names one opens on TensorFlow. Without the turn
back, the run stays TensorFlow's: "In PyTorch you zero the gradients. You have to do it
every step." states the tell.
"""

from __future__ import annotations

import re

from app.grading.freetext.matching import _mentions
from app.grading.freetext.normalise import Unit

# TensorFlow's own API: a sentence naming it is about TensorFlow whatever came before.
_TF_API = re.compile(
    r"\b(?:tape|GradientTape|apply_gradients|trainable_variables|tf\.\w+|keras)\b", re.IGNORECASE
)


def carried_foreign(units: tuple[Unit, ...]) -> frozenset[int]:
    """Indexes of the units that take another framework's topic from the run around them."""
    carried: set[int] = set()
    run: list[int] = []
    lead_foreign = False
    for index, unit in enumerate(units):
        mentions = [] if unit.is_code else _mentions(unit.text)
        api = not unit.is_code and _TF_API.search(unit.text) is not None
        if unit.is_code or mentions or api:
            own_first = not min(mentions)[1] if mentions else api
            if run and lead_foreign and own_first:
                carried.update(run)
            run = []
            lead_foreign = bool(mentions) and all(f for _, f in mentions) and not api
        elif lead_foreign:
            run.append(index)
    return frozenset(carried)
