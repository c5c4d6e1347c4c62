"""Tell caps read from labelled precedent (issue 14, round 15).

A stated misconception caps an answer's score: `cap: partial` (just below correct) or
`cap: incorrect` (below partial), set by hand per tell in the rubric. Labellers judge the
same tell differently from its author on some questions: "you have to watch the model's
variables" is a side remark to its author and makes the answer wrong to 45 of the 54 tune
answers labelled with that tag alone. So, per question, the tune answers whose labellers
named one tag and nothing else (tags mapped with meta/tag-map.yaml) are that tag's
precedent: with at least `MIN_ANSWERS` of them, the tag's cap follows the labellers'
majority, as far as the precedent is sure of it (round 24): `incorrect` when the Wilson
interval (z = `CONFIDENCE_Z`) of the share labelled incorrect lies at or above `MAJORITY`,
`partial` when it lies below, and the rubric's own cap while the interval straddles it (or
with fewer answers). Rounds 15-23 cut the bare share at 0.6, with the rubric's cap where one
answer more or fewer flipped it (round 16); a tag near that line (big-models-gain-most, 47 of
80 then 51 of 84 incorrect) changed cap as persona sets joined, although most labellers call
it wrong. Only the labels decide (not the rules' verdicts), so the caps do not depend on how
the grader read those answers. Measured by `benchmarks/freetext.py --chain` (docs/
freetext-rounds.md, "Round 15: the verdict line (engineer V)", "Round 16: the verdict line
(engineer V)" and "Round 24: tell caps by a sure majority (engineer A)").

Round 18 ("Round 18: the partial line (engineer V)"): labellers grade some tells by what
stands beside them. A tag capped `incorrect` by precedent (most answers saying it explain
nothing else) can be a side remark to labellers when the rest of the answer is complete. So
each tag also gets the same precedent restricted to the answers whose rules reading, caps left
out, is correct (`beside_full_core`); where that cap (by rounds 15-23's line, `share_cap`:
round 24's sure majority cost not read answers there) is a stable `partial`, also with each
writer's answers left out in turn, an answer the rules read as complete has an `incorrect` cap
on that tag lowered to `partial` (`core_caps_from`). That precedent depends on the rules'
reading of the precedent answers (retrain after a reader change; `train --check` says when).

Round 28 ("Round 28: the partial/incorrect boundary (engineer B)"): labellers call a right core
beside one stated belief partial ("None means the loss has no signal" beside "the loss was
computed outside the tape"), the same belief without that core incorrect. So a third precedent
per tag: the answers labelled with it alone whose rules credit every `required` concept but do
not read as complete (`beside_required_core`); where it is a sure `partial` (`stable_cap`,
jackknifed by writer as round 18's), such an answer's `incorrect` cap on that tag is `partial`.
And its mirror (`without_required_core`): among the answers with neither, a tag whose precedent
is a sure `incorrect` has its `partial` cap raised to `incorrect` on such an answer (the belief
with nothing right beside it).

Round 44 ("Round 44: where the incorrect line falls (engineer K4)"): labellers grade two
beliefs together differently from either alone on some questions: "tf.function helps big models
most" is partial alone to most of them (about a third of such answers labelled incorrect), and
with "it is faster because it runs on the GPU" beside it incorrect (122 of 123 tune answers
labelled with two or more tags, each capped `partial`). So a fourth precedent per question
(`TOGETHER`): the answers labelled with two or more of its tells, every one capped `partial`
(`derive_together`); where it is a sure `incorrect` that stands with each writer's answers left
out, an answer naming two or more tells, every one capped `partial`, has them capped
`incorrect` (`CoreCaps.together`). Labels only, as the caps: no rules reading.

Round 45 ("Round 45: the partial/incorrect line with more labels (engineer K5)"): round 28's
mirror reads every answer short of the required concepts alike, tag by tag, but labellers grade
a belief with none of the required concepts beside it harder than one beside part of the core
("big models gain most" is partial to most labellers, and incorrect to most where the answer
says nothing the prompt asks for). So a fifth precedent per question (`NO_REQUIRED`), pooled
over its tells as `TOGETHER` is: the answers labelled with one or more tags, every one a tell
capped `partial`, whose rules credit none of the rubric's required concepts
(`no_required_core`; `derive_no_required`); where it is a sure `incorrect` that stands with each
writer's answers left out, such an answer's `partial` caps are `incorrect` (`CoreCaps.nothing`).
Only ever lowers, and never reaches an answer without a named tell.

Round 47 ("Round 47: partial answers graded correct (engineer K7)"): round 44's precedent pools
the answers labelled with two or more tells whatever stands beside them, but labellers grade two
beliefs beside a right core as they grade one (round 28): on no-zero-grad ("the tape accumulates"
beside "reset the tape like zero_grad") 6 of 40 such answers are labelled incorrect where the rules
credit every required concept, 54 of 65 where they do not, and the pooled 60 of 105 made the cap
`incorrect` for both. So the same precedent over the answers whose rules credit every required
concept (`TOGETHER_BESIDE_CORE`, `derive_together` over them): where it is a sure `partial`
(jackknifed by writer), `together` does not reach an answer with that core
(`CoreCaps.together_core`). It only ever keeps an answer at its own tells' caps.

`python -m app.grading.freetext.tell_caps train [--check]` writes `tell_caps.json` beside
this file: per question, the rubric fingerprint and each tag's precedent (answers, of them
incorrect, the cap). The grader applies a question's caps only to the rubric they were
derived for (an edited rubric or an uploaded pack reusing the id gets its own caps).
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.grading.freetext.artefacts import artefact_main, artefact_questions, dump_artefact
from app.grading.freetext.fitting import Evidence, Line, line_verdict
from app.grading.freetext.second_opinion import rubric_key
from app.packs.rubric import Rubric

ARTEFACT = Path(__file__).with_name("tell_caps.json")
MIN_ANSWERS = 5  # precedents a derived cap needs; fewer: the rubric's own cap
MAJORITY = 0.5  # a sure share of them labelled incorrect above this: the cap is `incorrect`
CONFIDENCE_Z = 1.0  # the Wilson interval's z: how sure of the majority a derived cap must be
BESIDE_SHARE = 0.6  # round 18's cap beside a complete answer: rounds 15-23's line (see below)
BESIDE_FULL = "beside_full_core"  # round 18: answers the rules read as complete, caps left out
BESIDE_REQUIRED = "beside_required_core"  # round 28: every required concept, not complete
WITHOUT_CORE = "without_required_core"  # round 28: neither (a required concept missing)
TOGETHER = "together"  # round 44: a question's answers labelled with 2+ tells, each capped partial
NO_REQUIRED = "no_required_core"  # round 45: a question's partial-capped tells, no required concept
TOGETHER_BESIDE_CORE = "together_beside_core"  # round 47: TOGETHER over every required concept

Precedent = tuple[str, tuple[str, ...], str]  # question id, labelled (mapped) tags, verdict


def derive(
    precedents: Iterable[Precedent], cap_of: Callable[[int, int], str | None] | None = None
) -> dict[tuple[str, str], dict[str, Any]]:
    """(question id, tag) -> {answers, incorrect, cap} from answers labelled with that tag
    alone; tags with fewer than `MIN_ANSWERS` such answers are left out. `cap_of`: the cap
    from (incorrect, answers), `stable_cap` unless given."""
    cap_of = cap_of or stable_cap
    counts: dict[tuple[str, str], Counter[str]] = {}
    for question_id, tags, verdict in precedents:
        if len(tags) == 1:
            counts.setdefault((question_id, tags[0]), Counter())[verdict] += 1
    out = {}
    for key, labels in counts.items():
        answers = sum(labels.values())
        if answers >= MIN_ANSWERS:
            wrong = labels["incorrect"]
            out[key] = {"answers": answers, "incorrect": wrong, "cap": cap_of(wrong, answers)}
    return out


def stable_cap(wrong: int, answers: int) -> str | None:
    """`incorrect` when the labellers' majority calls the tag alone incorrect and the
    precedent is sure of it (the Wilson interval of the share lies at or above `MAJORITY`),
    `partial` when the interval lies below; None (the rubric's cap stands) while it
    straddles `MAJORITY` (round 24: a bare share against a line flips with each new set)."""
    low, high = wilson_interval(wrong, answers, CONFIDENCE_Z)
    if low >= MAJORITY:
        return "incorrect"
    return "partial" if high < MAJORITY else None


def share_cap(wrong: int, answers: int) -> str | None:
    """Rounds 15-23's cap, kept for the precedent beside a complete answer: `incorrect` at a
    share of at least `BESIDE_SHARE`, else `partial`; None when one answer more or fewer,
    labelled either way, gives the other cap (round 16)."""
    shares = [wrong / answers, wrong / (answers + 1), (wrong + 1) / (answers + 1)]
    if answers > 1:
        shares += [(wrong - 1) / (answers - 1)] if wrong else []
        shares += [wrong / (answers - 1)] if wrong < answers else []
    caps = {"incorrect" if share >= BESIDE_SHARE else "partial" for share in shares}
    return caps.pop() if len(caps) == 1 else None


def wilson_interval(hits: int, n: int, z: float) -> tuple[float, float]:
    """The Wilson score interval of the share hits / n at z standard errors."""
    share, spread = hits / n, z * z / n
    centre = share + spread / 2
    half = z * math.sqrt(share * (1 - share) / n + spread / (4 * n))
    return (centre - half) / (1 + spread), (centre + half) / (1 + spread)


def derive_beside_core(
    precedents: Iterable[tuple[str, tuple[str, ...], str, bool, str]],
    cap_of: Callable[[int, int], str | None] = share_cap,
) -> dict[tuple[str, str], dict[str, Any]]:
    """`derive` over the precedents whose rules reading, caps left out, is correct (the
    fourth item): how labellers cap a tag beside an otherwise complete answer (round 18),
    by `share_cap` (round 24: the sure majority here costs 8 not read LOPO, docs/
    freetext-rounds.md "Round 24: tell caps by a sure majority (engineer A)"). Round 28 reads
    the answers with every required concept but not complete the same way, by `stable_cap`.
    A cap stands only when the answers of each writer (the fifth item) left out in turn give
    the same cap, as round 17's neighbours vote: one persona's answers, added or taken away
    by a retrain, cannot make or unmake it."""
    kept = [(q, tags, verdict, writer) for q, tags, verdict, full, writer in precedents if full]
    out = derive(((q, tags, verdict) for q, tags, verdict, _ in kept), cap_of)
    # A tag's entry reads only the answers labelled with it alone: count them per writer once.
    by_writer: dict[tuple[str, str], Counter[tuple[str, bool]]] = {}
    for q, tags, verdict, writer in kept:
        if len(tags) == 1:
            by_writer.setdefault((q, tags[0]), Counter())[(writer, verdict == "incorrect")] += 1
    for key, entry in out.items():
        entry["cap"] = _left_out_cap(by_writer[key], entry["incorrect"], entry["answers"], cap_of)
    return out


def derive_together(
    precedents: Iterable[tuple[str, tuple[str, ...], str, str]],
    caps: Mapping[str, Mapping[str, str]],
) -> dict[str, dict[str, Any]]:
    """Question id -> {answers, incorrect, cap} from the answers (question id, labelled tags,
    verdict, writer) labelled with two or more tags that are all tells of the question capped
    `partial` (`caps`: question id -> tag -> cap); by `stable_cap`, kept only where each
    writer's answers left out in turn give the same cap (as `derive_beside_core`)."""
    return _by_question(
        (q, verdict, writer)
        for q, tags, verdict, writer in precedents
        if len(set(tags)) >= 2 and all(caps.get(q, {}).get(t) == "partial" for t in tags)
    )


def derive_no_required(
    precedents: Iterable[tuple[str, tuple[str, ...], str, str, bool]],
    caps: Mapping[str, Mapping[str, str]],
) -> dict[str, dict[str, Any]]:
    """Question id -> {answers, incorrect, cap} from the answers (question id, labelled tags,
    verdict, writer, whether the rules credit none of its required concepts) labelled with one
    or more tags, all tells of the question capped `partial`, that credit no required concept
    (round 45); by `stable_cap`, kept only where each writer left out gives the same cap."""
    return _by_question(
        (q, verdict, writer)
        for q, tags, verdict, writer, nothing in precedents
        if nothing and tags and all(caps.get(q, {}).get(t) == "partial" for t in tags)
    )


def _by_question(kept: Iterable[tuple[str, str, str]]) -> dict[str, dict[str, Any]]:
    """Question id -> {answers, incorrect, cap} over the kept answers (question id, verdict,
    writer): `stable_cap` with each writer's answers left out (`_left_out_cap`)."""
    by_writer: dict[str, Counter[tuple[str, bool]]] = {}
    for q, verdict, writer in kept:
        by_writer.setdefault(q, Counter())[(writer, verdict == "incorrect")] += 1
    out = {}
    for q, counts in by_writer.items():
        answers = sum(counts.values())
        wrong = sum(n for (_, incorrect), n in counts.items() if incorrect)
        if answers >= MIN_ANSWERS:
            cap = _left_out_cap(counts, wrong, answers, stable_cap)
            out[q] = {"answers": answers, "incorrect": wrong, "cap": cap}
    return out


def _left_out_cap(
    counts: Counter[tuple[str, bool]],
    wrong: int,
    answers: int,
    cap_of: Callable[[int, int], str | None],
) -> str | None:
    """`cap_of` the whole precedent, None unless each writer's answers (`counts`: (writer,
    labelled incorrect) -> answers) left out in turn give it too (rounds 18, 28 and 44)."""
    cap = cap_of(wrong, answers)
    for writer in {w for w, _ in counts}:
        left = answers - counts[(writer, True)] - counts[(writer, False)]
        if left < MIN_ANSWERS or cap_of(wrong - counts[(writer, True)], left) != cap:
            return None
    return cap


def question_caps(
    rubric: Rubric, derived: Mapping[tuple[str, str], Mapping[str, Any]], question_id: str
) -> dict[str, str]:
    """`caps_from` one question's entries of a (question id, tag)-keyed precedent."""
    return caps_from(rubric, {t: v for (q, t), v in derived.items() if q == question_id})


def core_caps_from(
    derived: Mapping[str, Mapping[str, Any]], key: str = BESIDE_FULL, cap: str = "partial"
) -> dict[str, str]:
    """Tag -> `cap` for the tags whose precedent `key` (beside a complete answer, round 18;
    beside every required concept or without them, round 28) is a stable `cap`: the cap such
    an answer takes instead of the tag's own."""
    return {
        str(tag): cap for tag, entry in derived.items() if (entry.get(key) or {}).get("cap") == cap
    }


@dataclass(frozen=True)
class CoreCaps:
    """A question's caps by the core beside a tell: tag -> `partial` beside a complete answer
    (round 18) and beside every required concept of an answer not complete (round 28); tag ->
    `incorrect` for an answer with neither (round 28); and, per question, the cap of 2+
    tells each capped partial (round 44) and of partial-capped tells with no required concept
    (round 45), where the precedent is sure."""

    complete: Mapping[str, str]
    required: Mapping[str, str]
    bare: Mapping[str, str] = dataclasses.field(default_factory=dict)
    together: str | None = None  # round 44: the cap of 2+ tells each capped partial, if sure
    nothing: str | None = None  # round 45: partial-capped tells, no required concept
    together_core: str | None = None  # round 47: `together` beside every required concept

    @classmethod
    def of(
        cls,
        derived: Mapping[str, Mapping[str, Any]],
        together: str | None = None,
        nothing: str | None = None,
        together_core: str | None = None,
    ) -> CoreCaps:
        return cls(
            core_caps_from(derived, BESIDE_FULL),
            core_caps_from(derived, BESIDE_REQUIRED),
            core_caps_from(derived, WITHOUT_CORE, "incorrect"),
            together,
            nothing,
            together_core,
        )

    def for_tells_together(
        self, caps: Mapping[str, str], named: Iterable[str], *, core: bool = False
    ) -> dict[str, str]:
        """`caps` with the named tells capped `incorrect` where two or more are named, every
        one capped `partial`, and the question's precedent of such answers is a sure
        `incorrect` (round 44); not where the rules credit every required concept (`core`)
        and that precedent beside the core is a sure `partial` (round 47). Only ever lowers."""
        tags = set(named)
        if (
            self.together != "incorrect"
            or (core and self.together_core == "partial")
            or len(tags) < 2
            or any(caps.get(t) != "partial" for t in tags)
        ):
            return dict(caps)
        return {t: "incorrect" if t in tags else c for t, c in caps.items()}

    def for_core(
        self, caps: Mapping[str, str], *, complete: bool, required: bool, nothing: bool = False
    ) -> dict[str, str]:
        """`caps` by the answer's core (the rules' reading, caps left out): complete, or every
        required concept credited, lowers an `incorrect` cap to `partial` where that core's
        precedent for the tag is a stable `partial`; neither raises a `partial` cap to
        `incorrect` where that precedent is a sure `incorrect`, and no required concept at all
        (`nothing`) raises every `partial` cap where the question's precedent of such answers
        is a sure `incorrect` (round 45). Never above partial."""
        if complete or required:
            core = self.complete if complete else self.required
            return {t: core.get(t, c) if c == "incorrect" else c for t, c in caps.items()}
        if nothing and self.nothing == "incorrect":
            return {t: "incorrect" for t in caps}
        return {t: self.bare.get(t, c) if c == "partial" else c for t, c in caps.items()}


def caps_from(rubric: Rubric, derived: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Tag -> cap for every tell of the rubric: the derived cap where there is a stable
    one, else the rubric's."""
    return {m.tag: str(derived.get(m.tag, {}).get("cap") or m.cap) for m in rubric.misconceptions}


def build_artefact() -> dict[str, Any]:
    """The caps of every free-text question of the core pack, from the labelled tune
    personas (meta/sides.yaml), with the precedent behind each."""
    from app.grading.freetext.evaluation import (
        ORIGINAL,
        core_labelled,
        free_text_rubrics,
        mapped_tags,
    )

    core = core_labelled()
    complete, required, nothing = _core_readings(core)
    rubrics = free_text_rubrics(core.pack)
    tune = [a for a in core.tune_answers if a.question_id in rubrics]
    derived = derive(
        (a.question_id, mapped_tags(core.tag_map, a.question_id, a.misconceptions), a.verdict)
        for a in tune
    )

    def by_core(
        kept: Callable[[Reading], bool], cap_of: Callable[[int, int], str | None] = stable_cap
    ) -> dict[tuple[str, str], dict[str, Any]]:
        return derive_beside_core(
            (
                (
                    a.question_id,
                    mapped_tags(core.tag_map, a.question_id, a.misconceptions),
                    a.verdict,
                    kept((a.source, a.question_id, a.answer)),
                    a.persona or ORIGINAL,
                )
                for a in tune
            ),
            cap_of,
        )

    labelled = [
        (a.question_id, mapped_tags(core.tag_map, a.question_id, a.misconceptions), a.verdict,
         a.persona or ORIGINAL, nothing.get((a.source, a.question_id, a.answer), False))
        for a in tune
    ]  # fmt: skip
    caps = {q: question_caps(r, derived, q) for q, r in rubrics.items()}
    together = derive_together([(q, tags, v, w) for q, tags, v, w, _ in labelled], caps)
    cored = [required.get(k, False) or complete.get(k, False)
             for k in ((a.source, a.question_id, a.answer) for a in tune)]  # fmt: skip
    together_core = derive_together(
        [(q, tags, v, w) for (q, tags, v, w, _), c in zip(labelled, cored, strict=True) if c], caps
    )
    no_required = derive_no_required(labelled, caps)
    beside = by_core(lambda k: complete.get(k, False), share_cap)
    beside_required = by_core(lambda k: required.get(k, False))
    without = by_core(lambda k: k in required and not (required[k] or complete[k]))
    cores = ((BESIDE_FULL, beside), (BESIDE_REQUIRED, beside_required), (WITHOUT_CORE, without))
    questions = {
        qid: {
            "rubric": rubric_key(rubric),
            "tells": {
                m.tag: {
                    **derived[(qid, m.tag)],
                    "rubric_cap": m.cap,
                    **{key: by[(qid, m.tag)] for key, by in cores if (qid, m.tag) in by},
                }
                for m in rubric.misconceptions
                if (qid, m.tag) in derived
            },
            **({TOGETHER: together[qid]} if qid in together else {}),
            **({TOGETHER_BESIDE_CORE: together_core[qid]} if qid in together_core else {}),
            **({NO_REQUIRED: no_required[qid]} if qid in no_required else {}),
        }
        for qid, rubric in sorted(rubrics.items())
    }
    return {
        "about": "issue 14 tell caps; python -m app.grading.freetext.tell_caps train",
        "trained_on": {
            "labelled": "tests/grading/freetext_labelled",
            "personas": sorted({a.persona or ORIGINAL for a in tune}),
            "answers": len(tune),
        },
        "min_answers": MIN_ANSWERS,
        "majority": MAJORITY,
        "confidence_z": CONFIDENCE_Z,
        "beside_share": BESIDE_SHARE,
        "questions": questions,
    }


Reading = tuple[str, str, str]  # source, question id, answer


def _core_readings(core: Any) -> tuple[dict[Reading, bool], ...]:
    """Per answer: whether the rules as written, caps left out, read it as correct (its
    concepts and required ones complete, some credit; round 18), whether they credit every
    required concept without reading it as complete (`required_core`, round 28), and whether
    they credit none of them (`no_required_core`, round 45)."""
    from app.grading.freetext.evaluation import core_rules_rows, free_text_rubrics

    rows = core_rules_rows()  # graded once per process, shared with the other builds
    rubrics = free_text_rubrics(core.pack)
    complete, required, nothing = {}, {}, {}
    for r in rows:
        key = (r.source, r.question_id, r.answer)
        complete[key] = complete_core(rubrics[r.question_id], r.evidence)
        required[key] = required_core(rubrics[r.question_id], r.evidence) and not complete[key]
        nothing[key] = no_required_core(rubrics[r.question_id], r.evidence)
    return complete, required, nothing


def complete_core(rubric: Rubric, evidence: Evidence | None) -> bool:
    """The rules read the answer, caps left out, as correct (round 18)."""
    if evidence is None or evidence.empty:
        return False
    uncapped = dataclasses.replace(evidence, caps=())
    return line_verdict(rubric, uncapped, Line.of(rubric)) == "correct"


def required_core(rubric: Rubric, evidence: Evidence | None) -> bool:
    """The rules credit every `required` concept of a rubric that has some, and the answer
    earns credit (not a keyword list, an injection or only a tell's words; round 28)."""
    if evidence is None or evidence.empty or evidence.no_credit:
        return False
    needed = Line.of(rubric).required
    return bool(needed) and needed <= evidence.found


def no_required_core(rubric: Rubric, evidence: Evidence | None) -> bool:
    """The rubric has `required` concepts and the rules credit none of them in a graded answer
    (round 45; an answer earning no credit at all counts as crediting none)."""
    if evidence is None or evidence.empty:
        return False
    needed = Line.of(rubric).required
    return bool(needed) and (evidence.no_credit or not needed & evidence.found)


dumps = dump_artefact


def _questions() -> dict[str, Any]:
    return artefact_questions(ARTEFACT)


@lru_cache(maxsize=128)
def _derived(question_id: str, key: str) -> dict[str, dict[str, Any]]:
    entry = _questions().get(question_id)
    if not isinstance(entry, dict) or entry.get("rubric") != key:
        return {}
    tells = entry.get("tells")
    return (
        {str(t): v for t, v in tells.items() if isinstance(v, dict) and "cap" in v}
        if isinstance(tells, dict)
        else {}
    )


def shipped_caps(question_id: str, rubric: Rubric) -> dict[str, str]:
    """Tag -> cap for this question's tells: the shipped derived cap when the artefact was
    built for exactly this rubric, else the rubric's own."""
    return caps_from(rubric, _derived(question_id, rubric_key(rubric)))


def shipped_core_caps(question_id: str, rubric: Rubric) -> CoreCaps:
    """Where the shipped precedent beside a complete answer (round 18) or beside every
    required concept (round 28) says `partial`, and the cap of tells together (round 44), for
    exactly the rubric it was derived for."""
    key = rubric_key(rubric)
    return CoreCaps.of(
        _derived(question_id, key),
        _question_cap(question_id, key, TOGETHER),
        _question_cap(question_id, key, NO_REQUIRED),
        _question_cap(question_id, key, TOGETHER_BESIDE_CORE),
    )


@lru_cache(maxsize=128)
def _question_cap(question_id: str, key: str, name: str) -> str | None:
    """The cap of a per-question precedent (`TOGETHER`, `NO_REQUIRED`, `TOGETHER_BESIDE_CORE`) for
    exactly this rubric."""
    entry = _questions().get(question_id)
    if not isinstance(entry, dict) or entry.get("rubric") != key:
        return None
    found = entry.get(name)
    cap = found.get("cap") if isinstance(found, dict) else None
    return cap if cap in ("partial", "incorrect") else None


def main(argv: list[str]) -> int:
    return artefact_main(
        argv, "app.grading.freetext.tell_caps", ARTEFACT, lambda: dumps(build_artefact())
    )


if __name__ == "__main__":  # train with the module proper, not this copy named __main__
    from app.grading.freetext import tell_caps

    raise SystemExit(tell_caps.main(sys.argv[1:]))
