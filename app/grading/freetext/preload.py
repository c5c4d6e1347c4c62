"""What a process reads once for its free-text answers, read at the web process's start-up
instead, so that no learner's answer waits for it (rounds 29-30).

A fresh process's first answer read the lemma dictionary, lemminflect's whole inflection
table (the shared lexicon's group members in every inflection, lexicon.member_forms; ~0.1-0.25
s of CPU), the shipped artefacts' per-question tables (tell_caps.json, second_opinion.json,
and tag_classifier.json where it is on) and built the neighbours' index (~2 s; rounds 17 and
25 moved the first and the last to start-up). Round 30: each question's first answer also
widened its phrasings to the lexicon and read their requirements (~50-90 ms a question, pure
Python), and the answers after it compiled the expressions the pack's loading had not (the
widened phrasings, claims' roles and their word-edged forms: ~1,000 for the core pack, spread
over a process's first ~700 answers). The built-in packs' free-text questions are read here
whole and their compiles kept for the process's life (rubric.PhrasingCompiles), so an
uploaded pack's phrasings cannot evict them. benchmarks/freetext_first_answer.py measures
what is left of the first answer. Round 31: an uploaded pack's questions are read when it is
published (read_uploaded), bounded, not kept; benchmarks/freetext_uploaded_first_answer.py.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import TYPE_CHECKING

import regex

from app.grading.freetext import second_opinion, tag_classifier, tell_caps
from app.grading.freetext.artefacts import artefact_questions
from app.grading.freetext.budget import BoundedPattern, kept_compiled
from app.grading.freetext.claims import is_claim, parse_claim, word_edged
from app.grading.freetext.lemmas import lemma
from app.grading.freetext.lexicon import group_forms
from app.grading.freetext.neighbours import shipped_index
from app.grading.freetext.phrasings import compile_phrasing
from app.grading.freetext.word_order import order_score
from app.packs.rubric import Rubric
from app.packs.schema import FreeText

if TYPE_CHECKING:
    from app.config import Settings
    from app.packs.catalog import Catalog
    from app.packs.loader import Pack

# CPU seconds an uploaded pack's publishing spends reading its questions (read_uploaded): the
# core pack's ten need ~1.5 s (round 31); an upload's phrasing count is its author's choice.
UPLOAD_READ_SECONDS = 5.0


def preload(settings: Settings, catalog: Catalog | None = None) -> None:
    """Read now what the first answers graded under these settings would read (the built-in
    packs' phrasings too, given the catalog)."""
    lemma("gradients")  # the lemma dictionary
    group_forms()
    order_score([])  # the word-order table (word_order.json, round 38), read on every answer
    artefact_questions(tell_caps.ARTEFACT)  # read on every answer (grade_freetext's caps)
    if settings.freetext_second_opinion:
        artefact_questions(second_opinion.ARTEFACT)
    if settings.freetext_neighbours and settings.freetext_tag_classifier:
        artefact_questions(tag_classifier.ARTEFACT)
    if settings.freetext_neighbours:
        shipped_index()  # the labelled answers' index
    if catalog is not None:
        for rubric in built_in_rubrics(catalog, settings.packs_dir):
            keep_phrasings(rubric)


def built_in_rubrics(catalog: Catalog, packs_dir: Path) -> list[Rubric]:
    """The free-text rubrics of the packs shipped in the repository (packs_dir), not the
    uploaded ones: what is kept compiled must be of a size known in advance."""
    root = packs_dir.resolve()
    return [
        rubric
        for pack in catalog.packs.values()
        if pack.path.resolve().parent == root
        for rubric in free_text_rubrics(pack)
    ]


def free_text_rubrics(pack: Pack) -> list[Rubric]:
    """The rubrics of a pack's free-text questions, in the pack's order."""
    return [q.question.rubric for q in pack.questions if isinstance(q.question, FreeText)]


def keep_phrasings(rubric: Rubric) -> int:
    """Every expression grading this rubric searches, read (widened, its requirement) and
    compiled now, its compile kept; how many. The grader's own caches hand back the same
    objects (compile_phrasing, parse_claim, word_edged), so nothing reads differently."""
    read = searched_expressions(rubric)
    for pattern in read:
        try:
            kept_compiled(pattern)
        except regex.error:  # refused at its first search, as before (the pack loaded)
            continue
    return len(read)


def read_uploaded(pack: Pack, seconds: float = UPLOAD_READ_SECONDS) -> int:
    """An uploaded pack's free-text questions read and compiled now (round 31: at its
    publishing, not at each question's first answer, in a learner's request); how many
    expressions. Nothing is kept: the compiles go to the recent part every upload shares
    (rubric.RECENT_COMPILES) and the readings to the grader's own bounded caches, so what an
    upload leaves is bounded in total whatever its size; and the reading stops after
    `seconds` of this thread's CPU (the rest is read at first answers, as before)."""
    began = time.thread_time()
    done = 0
    for rubric in free_text_rubrics(pack):
        for pattern in searched_expressions(rubric):
            if time.thread_time() - began > seconds:
                return done
            with contextlib.suppress(regex.error):  # refused at its first search, as before
                pattern.checked()
            done += 1
    return done


def searched_expressions(rubric: Rubric) -> list[BoundedPattern]:
    """What grading this rubric searches, read through the grader's caches: plain phrasings
    widened, claims' roles, their word-edged forms, excluded roles and answer guards (not
    compiled)."""
    read: list[BoundedPattern] = []
    for item in [*rubric.concepts, *rubric.misconceptions]:
        for phrasing in [*item.any, *item.negated]:
            if not is_claim(phrasing):
                read.append(compile_phrasing(phrasing))
                continue
            claim = parse_claim(phrasing)
            read += [*claim.roles, *map(word_edged, claim.roles), *claim.excluded]
            read += map(compile_phrasing, claim.guards)  # answer guards (round 36)
    return read
