"""What a process reads once for its first free-text answer, read at the web process's
start-up instead, so that no learner's answer waits for it (round 29).

A fresh process's first answer read the lemma dictionary, lemminflect's whole inflection
table (the shared lexicon's group members in every inflection, lexicon.member_forms; ~0.1-0.25
s of CPU), the shipped artefacts' per-question tables (tell_caps.json, second_opinion.json,
and tag_classifier.json where it is on) and built the neighbours' index (~2 s; rounds 17 and
25 moved the first and the last to start-up). benchmarks/freetext_first_answer.py measures
what is left of the first answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.grading.freetext import second_opinion, tag_classifier, tell_caps
from app.grading.freetext.artefacts import artefact_questions
from app.grading.freetext.lemmas import lemma
from app.grading.freetext.lexicon import group_forms
from app.grading.freetext.neighbours import shipped_index

if TYPE_CHECKING:
    from app.config import Settings


def preload(settings: Settings) -> None:
    """Read now what the first answer graded under these settings would read."""
    lemma("gradients")  # the lemma dictionary
    group_forms()
    artefact_questions(tell_caps.ARTEFACT)  # read on every answer (grade_freetext's caps)
    if settings.freetext_second_opinion:
        artefact_questions(second_opinion.ARTEFACT)
    if settings.freetext_neighbours and settings.freetext_tag_classifier:
        artefact_questions(tag_classifier.ARTEFACT)
    if settings.freetext_neighbours:
        shipped_index()  # the labelled answers' index
