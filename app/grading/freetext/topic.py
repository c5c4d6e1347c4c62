"""Whether an answer is about its question at all.

An answer about something else entirely (a recipe, another subject) earns nothing, and its
feedback used to be the rubric's list of missed concepts, as if the learner had tried and
fallen short. It should say the answer does not address the question (issue 14, round 10).
The test is the words: an answer of MIN_WORDS+ content words of which at most SHARED_SHARE
have a dictionary form that occurs in anything the question says (title, prompt, hints,
explanation, model answer, the rubric's labels and corrections) is off-topic. Only an
answer that earned nothing and stated no tell is asked. Of the 2,799 labelled answers two
share no word with their question (both labelled incorrect: "I would use PyTorch instead
...", "Use tf.keras.optimizers.SGD with a small learning rate ..."); the next share 12.5%.
"""

from __future__ import annotations

import re
from functools import lru_cache

from app.grading.freetext.lemmas import lemma
from app.grading.freetext.normalise import Normalised
from app.grading.freetext.signals import FUNCTION_WORDS
from app.packs.schema import FreeText

_WORD = re.compile(r"[A-Za-z][A-Za-z_]+")
# Words any answer may use whatever it is about (beyond the function words).
_GENERIC = frozenset(
    """think know sure maybe probably because thing things something really actually just
    use used using way work works need want like also much many well good yes""".split()  # noqa: SIM905
)
MIN_WORDS = 4  # shorter answers ("no idea") are too short to tell what they are about
SHARED_SHARE = 0.1  # of its content words an off-topic answer may share with the question


def _content(text: str) -> frozenset[str]:
    return frozenset(
        lemma(w)
        for w in (m.group().lower() for m in _WORD.finditer(text))
        if len(w) > 2 and w not in FUNCTION_WORDS and w not in _GENERIC
    )


@lru_cache(maxsize=256)
def _vocabulary(text: str) -> frozenset[str]:
    return _content(text)


def question_words(question: FreeText) -> frozenset[str]:
    """The dictionary forms of the content words the question and its rubric use."""
    rubric = question.rubric
    parts = [question.title, question.prompt, question.explanation, rubric.model_answer]
    parts += question.hints
    parts += [f"{c.label} {c.missing or ''}" for c in rubric.concepts]
    parts += [f"{m.label or ''} {m.correction}" for m in rubric.misconceptions]
    return _vocabulary("\n".join(parts))


def is_off_topic(question: FreeText, normalised: Normalised) -> bool:
    """True when at most SHARED_SHARE of the answer's MIN_WORDS+ content words occur in the
    question (above): it is about something else."""
    words = _content(" ".join(u.text for u in normalised.units))
    shared = words & question_words(question)
    return len(words) >= MIN_WORDS and len(shared) <= SHARED_SHARE * len(words)
