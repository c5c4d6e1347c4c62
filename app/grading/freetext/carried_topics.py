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

Round 16: an aside in brackets is a turn of its own. When the sentence about another
framework opens a bracket it does not close ("(Nit: in PyTorch it's not the optimizer's
job either; model.zero_grad() does the same thing. optimizer.zero_grad() is a
convenience.)"), the sentences of the run up to the one that closes it are that
framework's too, whether or not TensorFlow comes back after (round 15's fresh set).
"""

from __future__ import annotations

import re

from app.grading.freetext.matching import framework_mentions
from app.grading.freetext.normalise import Unit
from app.grading.freetext.per_answer import remembered_per_answer

# TensorFlow's own API: a sentence naming it is about TensorFlow whatever came before.
_TF_API = re.compile(
    r"\b(?:tape|GradientTape|apply_gradients|trainable_variables|tf\.\w+|keras)\b", re.IGNORECASE
)


@remembered_per_answer
def carried_foreign(units: tuple[Unit, ...]) -> frozenset[int]:
    """Indexes of the units that take another framework's topic from the run around them
    (read once per answer, not once per tell: round 25)."""
    carried: set[int] = set()
    run: list[int] = []
    lead_foreign = False
    aside = 0  # brackets the sentence about another framework left open
    for index, unit in enumerate(units):
        mentions = () if unit.is_code else framework_mentions(unit.text)
        api = not unit.is_code and _TF_API.search(unit.text) is not None
        if unit.is_code or mentions or api:
            own_first = not min(mentions)[1] if mentions else api
            if run and lead_foreign and own_first:
                carried.update(run)
            run = []
            lead_foreign = bool(mentions) and all(f for _, f in mentions) and not api
            aside = _open_brackets(unit.text) if lead_foreign else 0
        elif lead_foreign:
            run.append(index)
            if aside > 0:
                aside -= unit.text.count(")") - unit.text.count("(")
                if aside <= 0:  # the aside closes here: the run so far was the framework's
                    carried.update(run)
                    run, lead_foreign = [], False
    return frozenset(carried)


def _open_brackets(text: str) -> int:
    """How many brackets a sentence opens and leaves open (0 when it closes them all)."""
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
    return depth
