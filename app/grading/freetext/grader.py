"""Grade one free-text answer against its question's rubric.

Score = weight of the concepts the answer affirms / total weight. A stated misconception
caps the score (each tell carries its own cap) and is named with its correction, even
inside an otherwise good answer; a missing required concept keeps the verdict below
correct; a bag of terms with no statements is not credited. Pure, synchronous and fast
(regular expressions over at most 5,000 characters): it runs inside the web request.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.grading.freetext.budget import graded_within_budget, out_of_time, stopped, within_budget
from app.grading.freetext.claims import find_phrasings, first_hit
from app.grading.freetext.embedding_verdict import (
    could_move,
    embedded_text,
    evidence_features,
    head_for,
    moved_verdict,
)
from app.grading.freetext.encoder import shared_encoder
from app.grading.freetext.fitting import (
    BELOW_PARTIAL_SHARE,
    Evidence,
    Line,
    evidence_of,
    line_score,
)
from app.grading.freetext.learned_evidence import loose_tell
from app.grading.freetext.likeness import as_written, likeness_twin
from app.grading.freetext.matching import Hit, names_other_framework
from app.grading.freetext.neighbours import add_suggestion
from app.grading.freetext.normalise import MAX_CHARS, Normalised, Unit, clean, normalise, prose_unit
from app.grading.freetext.second_opinion import (
    features,
    incorrect_model_for,
    model_for,
    second_verdict,
)
from app.grading.freetext.signals import is_injection, is_keyword_list, without_padding
from app.grading.freetext.tag_classifier import add_suggestion as add_classified
from app.grading.freetext.tell_caps import (
    CoreCaps,
    complete_core,
    no_required_core,
    required_core,
    shipped_caps,
    shipped_core_caps,
)
from app.grading.freetext.topic import is_off_topic
from app.grading.results import Feedback, GradeResult, Verdict
from app.packs.rubric import Concept, Misconception, Rubric
from app.packs.schema import FreeText

log = logging.getLogger(__name__)

EMPTY_MESSAGE = (
    "No answer was given. Explain in a few sentences, as you would to an interviewer; "
    "the hints can get you started."
)
INJECTION_MESSAGE = (
    "Your answer addresses the grader instead of explaining. It earns no credit; explain "
    "the idea as you would to an interviewer."
)
WITHDRAWN_MESSAGE = (
    "Everything in your answer was taken back (\u201cscratch that\u201d, \u201cno, wait\u201d, "
    "...), so there is nothing left to grade. Give your final explanation as statements."
)
RAISED_PREFIX = "Counted as correct. To make it airtight: "
LOWERED_MESSAGE = (
    "Counted as partly right: next to answers interviewers have judged, this one reads as "
    "incomplete. Explain what happens and why, step by step, as in the model answer."
)
LOWERED_TO_INCORRECT_MESSAGE = (
    "Not counted yet: next to answers interviewers have judged, this one reads as not "
    "explaining the mechanism. Say what happens and why, as in the model answer."
)
OFF_TOPIC_MESSAGE = (
    "Your answer does not address this question: it is about something else. Read the "
    "question again and answer what it asks, as you would to an interviewer."
)
KEYWORD_LIST_MESSAGE = (
    "Your answer lists terms without saying how they relate. Write it as statements "
    "(what happens, and why) so an interviewer can tell you understand it."
)


@dataclass(frozen=True)
class Findings:
    found: list[Concept]
    missed: list[Concept]
    tells: list[tuple[Misconception, Hit]]
    # Concept ids found only in sentences that also state a tell ("every gradient becomes
    # None" has the words of "the variables before it get None"): credited, but not shown
    # as covered next to the misconception that contradicts it (round 8).
    told_only: frozenset[str] = frozenset()

    @property
    def credit_is_the_tell(self) -> bool:
        """Every concept found is read only in the words of a stated tell ("tf.function is
        faster because it compiles the step with XLA"): the answer says the misconception
        and nothing of its own, so it earns no partial credit (round 13)."""
        return bool(self.tells and self.found) and all(c.id in self.told_only for c in self.found)


def _credits(hits_any: list[Hit], hits_negated: list[Hit], tell: bool = False) -> list[Hit]:
    """The hits that count (`_counts`), first first: affirmed `any` phrasings and denied
    `negated` ones."""
    return [
        *(h for h in hits_any if _counts(h, True, tell)),
        *(h for h in hits_negated if _counts(h, False, tell)),
    ]


def _counts(hit: Hit, affirmed: bool, tell: bool) -> bool:
    """An `any` hit counts affirmed, a `negated` one denied.

    A statement about another framework ("PyTorch needs zero_grad", "torch.compile
    compiles the step") is not the candidate's claim about TensorFlow: it is neither a
    tell nor credit for a TensorFlow concept, unless the phrasing itself names the other
    framework (the concept is the contrast: "PyTorch accumulates into .grad"). That
    exception is for credit only: "in PyTorch, gradients accumulate into param.grad across
    backward() calls" names no tell (round 11). A hit in an open if-clause is a hypothesis:
    it credits a concept but names no tell (round 6).
    """
    return (not tell or _may_tell(hit)) and hit.affirmed is affirmed and _own(hit)


def _may_tell(hit: Hit) -> bool:
    return not (hit.conditional or hit.foreign or hit.partial_word)


def _own(hit: Hit) -> bool:
    return not hit.foreign or names_other_framework(hit.snippet)


def _hits_for(item: Concept | Misconception, normalised: Normalised) -> list[Hit]:
    units = normalised.units
    tell = isinstance(item, Misconception)
    return _credits(
        find_phrasings(units, item.any, across=tell),
        find_phrasings(units, item.negated, across=tell),
        tell,
    )


def _hit_for(item: Concept | Misconception, normalised: Normalised) -> Hit | None:
    """The first of `_hits_for(item, normalised)`, read no further (claims.first_hit)."""
    units = normalised.units
    tell = isinstance(item, Misconception)
    found = _first_counted(units, item, tell)
    twin = likeness_twin(units) if tell and found is None else None
    if twin is None:
        return found
    # Round 51: a tell stated beside a comparison of likeness ("same problem as in PyTorch"),
    # read with the framework's name blanked (likeness.py); shown as the answer wrote it.
    found = _first_counted(twin, item, tell)
    return (
        None
        if found is None
        else dataclasses.replace(found, sentence=as_written(units, twin, found.sentence))
    )


def _first_counted(
    units: tuple[Unit, ...], item: Concept | Misconception, tell: bool
) -> Hit | None:
    stated = first_hit(units, item.any, lambda h: _counts(h, True, tell), across=tell)
    if stated is not None:
        return stated
    return first_hit(units, item.negated, lambda h: _counts(h, False, tell), across=tell)


def _claims_only(normalised: Normalised) -> Normalised:
    """The answer without its padding: runs of terms inside sentences (signals.py), which
    state nothing, so they earn no concept and name no tell (issue 14)."""
    units: list[Unit] = []
    for unit in normalised.units:
        text = unit.text if unit.is_code else without_padding(unit.text)
        if text == unit.text:
            units.append(unit)
        elif any(ch.isalnum() for ch in text):  # a twin only where normalise gave one
            units.append(prose_unit(text) if unit.lemmas else Unit(text, False))
    if len(units) == len(normalised.units) and all(
        a is b for a, b in zip(units, normalised.units, strict=True)
    ):
        return normalised
    return dataclasses.replace(normalised, units=tuple(units))


def _find(rubric: Rubric, normalised: Normalised, keyword_list: bool) -> Findings:
    """Concepts found and missed, and tells stated (a bare list of terms states none;
    padding inside an answer states nothing either)."""
    normalised = _claims_only(normalised)
    found: list[Concept] = []
    missed: list[Concept] = []
    tells: list[tuple[Misconception, Hit]] = []
    credits: dict[str, list[Hit]] = {}
    for concept in rubric.concepts:
        credits[concept.id] = _hits_for(concept, normalised)
        (found if credits[concept.id] else missed).append(concept)
    for tell in [] if keyword_list else rubric.misconceptions:
        if stopped():  # the answer's budget is spent: the tells left are not read
            break
        if hit := _hit_for(tell, normalised):
            tells.append((tell, hit))
    tells = with_implied(rubric.misconceptions, tells, normalised)
    told = [hit for _, hit in tells]
    told_only = frozenset(
        c.id for c in found if all(any(_overlap(h, t) for t in told) for h in credits[c.id])
    )
    return Findings(found, missed, tells, told_only)


def _overlap(credit: Hit, tell: Hit) -> bool:
    """Whether a concept's words are mostly the tell's own, in one sentence: the same claim,
    not a clause beside it (a snippet may come from the sentence's lemma twin, so words are
    compared, not positions)."""
    if credit.sentence != tell.sentence:
        return False
    words = set(_SNIPPET_WORD.findall(credit.snippet.lower()))
    shared = words & set(_SNIPPET_WORD.findall(tell.snippet.lower()))
    return bool(words) and 2 * len(shared) >= len(words)


_SNIPPET_WORD = re.compile(r"[a-z_][a-z_.]{2,}")


@within_budget
def stated_misconceptions(text: str, misconceptions: Sequence[Misconception]) -> dict[str, str]:
    """Tag -> the sentence stating it, for the misconceptions a text asserts.

    The same reading as grading (negation scope, other frameworks, keyword lists): used
    where a statement is not graded against a rubric, such as an interview's closed
    questions.
    """
    normalised = normalise(text or "")
    if normalised.empty or is_keyword_list(normalised):
        return {}
    normalised = _claims_only(normalised)
    tells = [(m, hit) for m in misconceptions if (hit := _hit_for(m, normalised)) is not None]
    return {m.tag: hit.sentence for m, hit in with_implied(misconceptions, tells, normalised)}


def with_implied(
    misconceptions: Sequence[Misconception],
    tells: list[tuple[Misconception, Hit]],
    normalised: Normalised,
) -> list[tuple[Misconception, Hit]]:
    """`tells` (stated, each with its hit) and the tells they imply, in `misconceptions`' order:
    a tell whose `implied_by` names a stated tell, in an answer that affirms the rule's cue
    anywhere (prose or code; not another framework's), is stated by the same sentence (round
    50). Chains are followed (the pack forbids cycles); each cue is read at most once."""
    stated = {tell.tag: hit for tell, hit in tells}
    cues: dict[str, bool] = {}
    waiting = [m for m in misconceptions if m.implied_by and m.tag not in stated]
    while waiting and not stopped():
        implied = [(m, hit) for m in waiting if (hit := _implying_hit(m, stated, cues, normalised))]
        if not implied:
            break
        stated.update((m.tag, hit) for m, hit in implied)
        waiting = [m for m in waiting if m.tag not in stated]
    return [(m, stated[m.tag]) for m in misconceptions if m.tag in stated]


def _implying_hit(
    tell: Misconception, stated: dict[str, Hit], cues: dict[str, bool], normalised: Normalised
) -> Hit | None:
    """The hit of a stated tell that implies `tell` where the answer affirms its cue."""
    for rule in tell.implied_by:
        if rule.tag not in stated:
            continue
        if rule.cue not in cues:
            cues[rule.cue] = (
                first_hit(normalised.units, [rule.cue], lambda h: _counts(h, True, False))
                is not None
            )
        if cues[rule.cue]:
            return stated[rule.tag]
    return None


def has_evidence(tell: Misconception, answer: str | Normalised) -> bool:
    """Whether the answer states `tell` as the rules read a tell, its phrasings read loosely
    (learned_evidence.py): what a learned part needs before it names `tell` (round 26)."""
    normalised = normalise(answer or "") if isinstance(answer, str) else answer
    return _hit_for(loose_tell(tell), _claims_only(normalised)) is not None


def _evidenced(
    rubric: Rubric, normalised: Normalised, before: GradeResult, after: GradeResult
) -> GradeResult:
    """`after` (a learned part's suggestion on `before`) if the tell it adds has the answer's
    evidence (`has_evidence`), else `before`."""
    added = [t for t in after.misconceptions if t not in before.misconceptions]
    tells = {m.tag: m for m in rubric.misconceptions}
    if all(has_evidence(tells[t], normalised) for t in added if t in tells):
        return after
    return before


@within_budget
def affirms(text: str, pattern: str) -> bool:
    """Whether the text affirms a phrasing (not denied, not said of another framework)."""
    hits = find_phrasings(normalise(text or "").units, [pattern])
    return any(h.affirmed and not h.foreign for h in hits)


def _score(rubric: Rubric, findings: Findings, uncapped: Evidence, caps: dict[str, str]) -> float:
    """Concepts found over the total weight, capped by tells (`caps`: tag -> cap),
    missing required concepts and a keyword list (`fitting.line_score`, shared with the
    fitted-line evaluation)."""
    evidence = dataclasses.replace(uncapped, caps=tuple(caps[t.tag] for t, _ in findings.tells))
    return line_score(rubric, evidence, Line.of(rubric))


def _beside_core(
    rubric: Rubric,
    findings: Findings,
    uncapped: Evidence,
    caps: dict[str, str],
    core_caps: CoreCaps | None,
) -> dict[str, str]:
    """The caps, by how labellers grade each tell beside the core this answer has, caps left
    out (`uncapped`): an `incorrect` cap lowered to `partial` beside an otherwise complete
    answer (round 18) or every required concept credited (round 28), a `partial` one raised
    to `incorrect` with neither (round 28) or with no required concept at all where that
    precedent is sure (round 45; tell_caps.CoreCaps); two or more tells, each capped
    `partial`, capped `incorrect` where the question's precedent is sure of it (round 44),
    unless every required concept is credited and that precedent beside it is a sure
    `partial` (round 47). Never above partial: a named tell keeps an answer below correct."""
    if not findings.tells or core_caps is None or uncapped.empty:
        return caps
    complete, required = complete_core(rubric, uncapped), required_core(rubric, uncapped)
    by_core = core_caps.for_core(
        caps, complete=complete, required=required, nothing=no_required_core(rubric, uncapped)
    )
    named = (tell.tag for tell, _ in findings.tells)
    return core_caps.for_tells_together(by_core, named, core=complete or required)


def _verdict(rubric: Rubric, score: float) -> Verdict:
    if score >= rubric.thresholds.correct:
        return "correct"
    if score >= rubric.thresholds.partial:
        return "partial"
    return "incorrect"


def _feedback(
    findings: Findings, keyword_list: bool, truncated: bool, injection: bool = False
) -> list[Feedback]:
    items = [_tell_feedback(tell, hit) for tell, hit in findings.tells]
    if injection:
        items.insert(0, Feedback("info", INJECTION_MESSAGE))
    if keyword_list:
        items.append(Feedback("info", KEYWORD_LIST_MESSAGE))
    elif not injection:
        items += [_covered(c, c.id in findings.told_only) for c in findings.found]
    items += [Feedback("missing", missing_message(c)) for c in findings.missed]
    if truncated:
        items.append(Feedback("info", f"Only the first {MAX_CHARS:,} characters were graded."))
    return items


def _covered(concept: Concept, told_only: bool) -> Feedback:
    if told_only:
        return Feedback(
            "info",
            f"Partly covered: {concept.label}. The sentence that says it also states the "
            "misconception above.",
        )
    return Feedback("correct", f"Covered: {concept.label}.")


def missing_message(concept: Concept) -> str:
    """The feedback line for a concept an answer does not cover."""
    return concept.missing or f"Not covered yet: {concept.label}."


def _tell_feedback(tell: Misconception, hit: Hit) -> Feedback:
    quote = hit.snippet if len(hit.sentence) > 160 else hit.sentence
    name = tell.label or tell.tag
    return Feedback(
        "misconception", f"Misconception – {name}: you wrote \u201c{quote}\u201d. {tell.correction}"
    )


def _empty_result(rubric: Rubric, message: str = EMPTY_MESSAGE) -> GradeResult:
    return GradeResult(
        verdict="incorrect",
        score=0.0,
        feedback=[Feedback("info", message)]
        + [Feedback("missing", missing_message(c)) for c in rubric.concepts],
        details={
            "model_answer": rubric.model_answer,
            "concepts_found": [],
            "concepts_missed": [c.id for c in rubric.concepts],
            "keyword_list": False,
            "truncated": False,
            "empty": True,
        },
    )


def _second_opinion_on() -> bool:
    from app.config import get_settings

    return get_settings().freetext_second_opinion


def _second_opinion(
    question: FreeText, answer: str, normalised: Normalised, result: GradeResult
) -> GradeResult:
    """The learned second opinion (second_opinion.py) on a rules result, with
    feedback that matches the verdict it lands on; anything else is left as it is."""
    rubric = question.rubric
    model = model_for(question.id, rubric)
    if model is None or result.details.get("empty"):
        return result
    evidence = evidence_of(rubric, result)
    incorrect = incorrect_model_for(question.id, rubric)
    feats = features(answer, evidence, normalised.units)
    second = second_verdict(model, feats, evidence, result.verdict, incorrect)
    return _moved(rubric, result, second, "second_opinion")


def _moved(rubric: Rubric, result: GradeResult, second: str, part: str) -> GradeResult:
    """`result` moved to the verdict a learned part (`part`, named in its details) gives,
    with feedback that matches it."""
    if second == result.verdict:
        return result
    verdict: Verdict = "correct" if second == "correct" else "partial"
    if second == "incorrect":  # a partial, or a correct it lowers (round 21), sure to be wrong
        return _lowered_to_incorrect(rubric.thresholds.partial, result, part)
    details = {**result.details, part: "raised" if verdict == "correct" else "lowered"}
    if verdict == "correct":
        feedback = [
            Feedback("info", RAISED_PREFIX + f.message[0].lower() + f.message[1:])
            if f.kind == "missing"
            else f
            for f in result.feedback
        ]
        score = max(result.score, rubric.thresholds.correct)
    else:
        feedback = [*result.feedback, Feedback("info", LOWERED_MESSAGE)]
        middle = (rubric.thresholds.partial + rubric.thresholds.correct) / 2
        score = min(result.score, middle)
    return dataclasses.replace(
        result, verdict=verdict, score=score, feedback=feedback, details=details
    )


def _lowered_to_incorrect(
    partial: float, result: GradeResult, part: str = "second_opinion"
) -> GradeResult:
    """A partial verdict a learned part lowers: its score below the partial threshold
    (where a capped tell puts it, fitting.BELOW_PARTIAL_SHARE), told why."""
    return dataclasses.replace(
        result,
        verdict="incorrect",
        score=min(result.score, round(partial * BELOW_PARTIAL_SHARE, 3)),
        feedback=[*result.feedback, Feedback("info", LOWERED_TO_INCORRECT_MESSAGE)],
        details={**result.details, part: "lowered"},
    )


def _embedding_verdict_on() -> bool:
    from app.config import get_settings

    return get_settings().freetext_embedding_verdict


def with_embedding_verdict(
    question: FreeText, answer: str, rules: GradeResult, result: GradeResult
) -> GradeResult:
    """The bounded embedding verdict (embedding_verdict.py, round 22) on the chain's result:
    features from the rules' reading (`rules`), moves bounded by the chain's (`result`). No
    model for this rubric, or no encoder (logged once), leaves the result as it is."""
    rubric = question.rubric
    head = head_for(question.id, rubric)
    evidence = evidence_of(rubric, result)
    if head is None or not could_move(result.verdict, result.misconceptions, evidence):
        return result
    encoder = shared_encoder()  # the only place onnxruntime is imported
    if encoder is None:
        return result
    try:
        vector = encoder(embedded_text(answer))
    except Exception:  # an encoder failing on one answer grades it without the verdict
        log.exception("free-text embedding verdict: encoding failed; graded without it")
        return result
    rules_evidence = evidence_of(rubric, rules)
    feats = evidence_features(answer, rules.verdict, rules.misconceptions, rules_evidence)
    second = moved_verdict(head, vector, feats, result.verdict, result.misconceptions, evidence)
    return _moved(rubric, result, second, "embedding_verdict")


def _neighbours_on() -> bool:
    from app.config import get_settings

    return get_settings().freetext_neighbours


def _tag_classifier_on() -> bool:
    from app.config import get_settings

    return get_settings().freetext_tag_classifier


@graded_within_budget
def grade_freetext(
    question: FreeText,
    answer: str,
    *,
    second_opinion: bool | None = None,
    neighbours: bool | None = None,
    tell_caps: bool = True,
    tag_classifier: bool | None = None,
    embedding_verdict: bool | None = None,
) -> GradeResult:
    """Verdict, score, per-concept feedback and named misconceptions for one answer.

    `second_opinion`: apply the learned second opinion (partial <-> correct, partial ->
    incorrect); None reads the setting `freetext_second_opinion` (on by default since round
    7). Measurements of the rules themselves pass False.
    `neighbours`: let the nearest labelled answers name a tell the rules missed
    (neighbours.py); None reads the setting `freetext_neighbours`.
    `tell_caps`: a tell caps the score by its cap read from labelled precedent where the
    shipped tell_caps.json has one for this rubric (round 15), else by the rubric's own;
    measurements of the rubric as written pass False.
    `tag_classifier`: where no tell is named after the neighbours, let the per-tag
    classifier name one (tag_classifier.py, round 19); None reads the setting
    `freetext_tag_classifier` (on by default since round 34) where the neighbours are on, so
    `neighbours=False` reads no learned tell at all.
    `embedding_verdict`: after the second opinion, let the bounded embedding verdict move a
    verdict it is sure of (embedding_verdict.py, round 22); None reads the setting
    `freetext_embedding_verdict` (off by default) unless `second_opinion=False` is passed,
    so a measurement of the rules reads no learned verdict whatever the settings say.
    """
    normalised = normalise(answer or "")
    rubric = question.rubric
    caps: dict[str, str] = (
        shipped_caps(question.id, rubric)
        if tell_caps
        else {m.tag: m.cap for m in rubric.misconceptions}
    )
    core_caps = shipped_core_caps(question.id, rubric) if tell_caps else None
    result = rules = _grade_rules(question, answer, normalised, caps, core_caps)
    if neighbours is None:
        neighbours = _neighbours_on()
    # Each learned part starts only inside the budget (out_of_time): a spent answer is
    # graded from the rules' reading, stopped early (budget.graded_within_budget).
    if neighbours and not out_of_time():
        result = _evidenced(
            rubric, normalised, result, add_suggestion(question, answer, result, caps)
        )
    if tag_classifier is None:  # a reading without the neighbours reads no learned tell
        tag_classifier = neighbours and _tag_classifier_on()
    if tag_classifier and not out_of_time():
        result = _evidenced(
            rubric, normalised, result, add_classified(question, answer, result, caps)
        )
    if embedding_verdict is None:  # a reading without the second opinion reads no verdict
        embedding_verdict = second_opinion is not False and _embedding_verdict_on()
    if second_opinion is None:
        second_opinion = _second_opinion_on()
    if second_opinion and not out_of_time():
        result = _second_opinion(question, answer, normalised, result)
    if embedding_verdict and not out_of_time():
        return with_embedding_verdict(question, answer, rules, result)
    return result


def _grade_rules(
    question: FreeText,
    answer: str,
    normalised: Normalised,
    caps: dict[str, str],
    core_caps: CoreCaps | None = None,
) -> GradeResult:
    rubric = question.rubric
    if normalised.empty or not any(ch.isalnum() for u in normalised.units for ch in u.text):
        # An answer whose every claim was retracted (retraction.py) is empty, but not blank.
        withdrawn = any(ch.isalnum() for ch in clean(answer or "")[0])
        return _empty_result(rubric, WITHDRAWN_MESSAGE if withdrawn else EMPTY_MESSAGE)
    keyword_list = is_keyword_list(normalised)
    injection = is_injection(normalised, answer or "")
    findings = _find(rubric, normalised, keyword_list)
    no_credit = keyword_list or injection or findings.credit_is_the_tell
    uncapped = Evidence.read(rubric, (c.id for c in findings.found), (), no_credit)
    caps = _beside_core(rubric, findings, uncapped, caps, core_caps)
    score = _score(rubric, findings, uncapped, caps)
    off_topic = not (keyword_list or injection or findings.found or findings.tells) and (
        is_off_topic(question, normalised)
    )
    feedback = _feedback(findings, keyword_list, normalised.truncated, injection)
    result = GradeResult(
        verdict=_verdict(rubric, score),
        score=score,
        feedback=[Feedback("info", OFF_TOPIC_MESSAGE), *feedback] if off_topic else feedback,
        misconceptions=[tell.tag for tell, _ in findings.tells],
        details={
            "model_answer": rubric.model_answer,
            "concepts_found": [c.id for c in findings.found],
            "concepts_missed": [c.id for c in findings.missed],
            "keyword_list": keyword_list,
            "injection": injection,
            "credit_is_the_tell": findings.credit_is_the_tell,
            "off_topic": off_topic,
            "truncated": normalised.truncated,
        },
    )
    return _with_caps(result, rubric, findings, caps)


def _with_caps(
    result: GradeResult, rubric: Rubric, findings: Findings, caps: dict[str, str]
) -> GradeResult:
    """`details.caps`: the caps applied to the named tells, where one is read from labelled
    precedent instead of the rubric (tell_caps.py, round 15); read back by `evidence_of`."""
    own = {m.tag: m.cap for m in rubric.misconceptions}
    applied = {tell.tag: caps[tell.tag] for tell, _ in findings.tells}
    if all(own[tag] == cap for tag, cap in applied.items()):
        return result
    return dataclasses.replace(result, details={**result.details, "caps": applied})
