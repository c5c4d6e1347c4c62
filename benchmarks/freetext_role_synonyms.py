"""Role synonyms learned from near-misses, measured leave one round out (issue 14, round 49, G2).

Named misconceptions are the furthest target: most unnamed stated tags are beliefs the question's
rubric knows, in words no phrasing reads. Round 48 (G1) read a phrasing with one role missing as
"anything" there and drew false tells on correct answers. Here the missing role is widened by
learned words instead. Rules fixed before any figure was read:
- A phrasing is read as its whole claim (learned_evidence.loosened: its ` & ` roles and ` ~ `
  pieces, any order, its excluded roles kept); `any` phrasings of two or more roles only.
- Near-miss: a clause of a prose sentence (its lemma twin; not a question) of an answer labelled
  with tag T, no excluded role in the sentence, where every role of one of T's claims but one
  matches (claims.clause_role_spans). The words standing where the missing role would be are
  candidates for that role: between the matched roles before and after it in the claim's order
  when they stand in the claim's order (1 to `MAX_GAP_WORDS` content words); else (a first or
  last role, or the others out of order) the clause's content words outside the matched roles,
  when there are at most `MAX_REST_WORDS` of them (else none: no place). Content words:
  letters, three or more, not in `STOP_WORDS`, not matched by another role of the claim.
- A synonym belongs to a role as written (the role's text): it widens that role in every claim
  of every rubric that has it (the role reads its own lexicon OR the synonym).
- Kept in a fold when, on the fold's training rows only: seen in near-misses of answers of two or
  more final rounds (`final_*` groups of sides.yaml; the earlier personas are no round), and
  never completing a claim (stating, as the rules read a tell: grader.has_evidence - affirmed,
  not asked, not conditional, not of another framework, not quoted, not in padding) on an answer
  labelled correct where the claim without it does not.
- Read on the fold's rows: a tell is stated by a claim with one role widened by one kept synonym
  where the same claim unwidened does not state it (read as the answer with the synonym replaced
  by a word the role reads in some tune answer, `stand_ins`, so the rubric's compiled claims
  read it). Variant `below`: only answers the rules graded
  below correct with some credit (round 48's eligibility); `all`: any answer with some credit. The
  tag with the most training rounds is named (beside the rules' tags), takes its rubric cap and
  never raises the verdict.

Round 50 (G3): two bars proposed by round 49's section, fixed before any reading (`BARS`; one
stricter variant named before the run, `STRICT_BARS`). A synonym seen in near-misses of two or
more training rounds (the candidates above, unchanged) is kept when, on the fold's training rows:
- precision: of its completions (answer, tag) on training answers with some credit, any label,
  >= 80% fall on answers labelled with the completed claim's tag (round 48's per-slot bar),
  instead of "never on an answer labelled correct";
- support: it completes a claim on >= 5 training answers (answers, not rounds).
Stricter: >= 90% and >= 8 answers. The reading that decides (`--decide`): trained on every tune
persona but round 49's set (`R49`: they joined tune in round 50, nobody has tuned on them; the
stand-ins are taken from the training answers too), read on round 49's set only, by the rules
alone plus synonyms (variant `below` decides; `all` beside it) against the rules alone: named
right / wrong added, tags added on answers labelled correct, answers lowered, exact moved,
false tells on correct. Figures only, nothing printed answer by answer. Wired only if it adds
named right with no false tell more on correct answers and at most one wrong tag per three right.

Folds: each final round left out (its synonyms learned from every other tune persona), then each
persona not read (sides.yaml `read`) left out. Only tune answers are graded; nothing is printed
answer by answer, and the learned words are counted, not printed. Prints per fold where a tag was
added and in total, against the rules alone in the same run: right / wrong tags added, tags added
on answers labelled correct, exact, correct-vs-not, named, false tells on correct, the six cells;
and the learned list's size.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python benchmarks/freetext_role_synonyms.py \
        [--rows R.pickle] [--found F.pickle] [--decide] [--no-folds]

`--decide` reads round 49's set with every bar (G2's and round 50's; finds the near-misses and
completions with the stand-ins of the training answers); `--no-folds` skips LORO / LOPO.

`--rows` keeps the rules' rows, `--found` the near-misses and completions (scratch files for a
rerun of the same tree: delete them when the rules or labels change).
"""

from __future__ import annotations

import dataclasses
import pickle
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.grading.freetext import learned_evidence  # noqa: E402
from app.grading.freetext.chain import final_groups  # noqa: E402
from app.grading.freetext.claims import (  # noqa: E402
    claim_parts,
    clause_role_spans,
    parse_claim,
    word_edged,
)
from app.grading.freetext.evaluation import Row  # noqa: E402
from app.grading.freetext.grader import has_evidence  # noqa: E402
from app.grading.freetext.matching import asks  # noqa: E402
from app.grading.freetext.normalise import Normalised, normalise  # noqa: E402
from app.packs.rubric import Misconception, Rubric  # noqa: E402
from benchmarks.freetext_loose_namer import Fold, added, folds, graded_rows, with_tag  # noqa: E402
from benchmarks.freetext_loose_namer import line as loose_line  # noqa: E402

MIN_ROUNDS = 2  # a synonym is seen in near-misses of this many final rounds
MAX_GAP_WORDS = 3  # more content words between two matched roles: no place for the missing one
MAX_REST_WORDS = 4  # else: the clause's words outside the matched roles, when this many at most
VARIANTS = ("below", "all")
NEVER_SPARE = 99  # learned_evidence.MIN_ROLES_TO_SPARE: the whole claim, no role spared
STOP_WORDS = frozenset(
    """a an the this that these those there here it its they them their you your we our i me my
    he she his her one ones be is are was were been being am do does did done doing have has had
    having will would can could should may might must shall to of in on at by for with from into
    onto over under about after before between through during than then so and or but nor if
    when while as because since though although until unless whether which who whom whose what
    where why how not no never also just only very really quite too more most less least much
    many some any all each every both either neither other another such same own again still
    even already yet ever always often sometimes usually up down out off get got make made use
    used like thing things way lot kind sort basically actually simply well""".split()  # noqa: SIM905
)
_WORD = re.compile(r"[a-z][a-z'-]*")

SIDES = ROOT / "tests/grading/freetext_labelled/meta/sides.yaml"
R49 = "final_2026_12_07_r49"  # round 49's set: its writers as sides.yaml lists them


@dataclasses.dataclass(frozen=True)
class Bars:
    """What a candidate synonym must pass on the training rows: G2's (`percent` None: no
    completion on an answer labelled correct) or a precision in percent and a support in
    answers (round 50)."""

    name: str
    percent: int | None = None
    support: int = 0


G2_BARS = Bars("none on correct (G2)")
BARS = Bars("precision 80%, support 5", 80, 5)
STRICT_BARS = Bars("precision 90%, support 8", 90, 8)

Slot = tuple[str, str]  # (role as written, synonym)
Claims = dict[str, list[tuple[str, str, tuple[str, ...]]]]  # question -> (tag, claim, roles)


def tell_claims(rubric: Rubric) -> list[tuple[str, str, tuple[str, ...]]]:
    """(tag, whole claim, its roles as written) of every `any` phrasing of two or more roles."""
    out = []
    for tell in rubric.misconceptions:
        for pattern in tell.any:
            read = learned_evidence.loosened(pattern)
            if len(read) > 1:
                claim = read[1]
                out.append((tell.tag, claim, claim_parts(claim)[0]))
    return out


def content_words(text: str, roles: Iterable[str]) -> list[str]:
    """The gap's words that may stand for a role: letters, three or more, no stop word, none
    another role of the claim reads."""
    compiled = [word_edged(parse_claim(role).roles[0]) for role in roles]
    return [
        w
        for w in _WORD.findall(text.lower())
        if len(w) >= 3 and w not in STOP_WORDS and not any(r.fullmatch(w) for r in compiled)
    ]


def gap_words(text: str, clause: tuple[int, int], spans: Sequence, roles: Sequence[str]) -> list:
    """The candidates for the one role of `spans` that is None (see the module docstring)."""
    missing = spans.index(None)
    before = [s for s in spans[:missing] if s is not None]
    after = [s for s in spans[missing + 1 :] if s is not None]
    others = [r for i, r in enumerate(roles) if i != missing]
    if before and after and before[-1][1] <= after[0][0]:
        words = content_words(text[before[-1][1] : after[0][0]], others)
        if 0 < len(words) <= MAX_GAP_WORDS:
            return words
    rest, at = [], clause[0]
    for start, end in sorted(s for s in spans if s is not None):
        rest.append(text[at:start])
        at = end
    words = content_words(" ".join([*rest, text[at : clause[1]]]), others)
    return words if len(words) <= MAX_REST_WORDS else []


def near_misses(normalised: Normalised, claims: Iterable[tuple[str, str, tuple[str, ...]]],
                tags: Iterable[str]) -> set[tuple[str, Slot]]:  # fmt: skip
    """(tag, (role, word)) for each word standing in a missing role's place in a near-miss of
    one of the `tags`' claims."""
    wanted = set(tags)
    found: set[tuple[str, Slot]] = set()
    prose = [u for u in normalised.units if not u.is_code and not asks(u)]
    for tag, claim, roles in claims:
        if tag not in wanted or len(roles) < 2:
            continue
        parsed = parse_claim(claim)
        for unit in prose:
            text = unit.lemmas or unit.text
            present = sum(bool(word_edged(r).search(text)) for r in parsed.roles)
            if present < len(roles) - 1 or any(x.search(text) for x in parsed.excluded):
                continue
            for clause, spans in clause_role_spans(text, parsed):
                if sum(s is None for s in spans) == 1:
                    role = roles[spans.index(None)]
                    found |= {(tag, (role, w)) for w in gap_words(text, clause, spans, roles)}
    return found


def substituted(normalised: Normalised, word: str, stand_in: str) -> Normalised:
    """The answer with `word` (a whole word, in each prose sentence and its lemma twin, where
    inflections meet the lemma) read as `stand_in`, a word its role reads: the role widened by
    the synonym, read by the rubric's own compiled claims (a widened claim per synonym would be
    compiled anew for every one)."""
    found = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])", re.IGNORECASE)
    units = tuple(
        u
        if u.is_code
        else dataclasses.replace(
            u,
            text=found.sub(lambda _: stand_in, u.text),
            lemmas=found.sub(lambda _: stand_in, u.lemmas),
        )
        for u in normalised.units
    )
    return dataclasses.replace(normalised, units=units)


def states(tag: str, claim: str, normalised: Normalised) -> bool:
    """Whether the answer states `claim` as the rules read a tell (the whole claim, none spared:
    read inside `whole_claims_only`)."""
    one = Misconception.model_construct(tag=tag, label="", correction="", cap="partial",
                                        any=[claim], negated=[])  # fmt: skip
    return has_evidence(one, normalised)


def completions(
    normalised: Normalised,
    claims: Iterable[tuple[str, str, tuple[str, ...]]],
    slots: Iterable[Slot],
    stand_ins: Mapping[str, str],
) -> set[tuple[str, Slot]]:
    """(tag, slot) for each claim a slot's synonym completes in the answer (the claim unwidened
    does not state it; `stand_ins`: role -> a word it reads). Only claims whose other roles all
    occur in the answer's prose are read."""
    prose = "\n".join(f"{u.text}\n{u.lemmas}" for u in normalised.units if not u.is_code)
    words = set(_WORD.findall(prose.lower()))
    by_role: dict[str, list[str]] = defaultdict(list)
    for role, word in slots:
        if word in words and role in stand_ins:
            by_role[role].append(word)
    found: set[tuple[str, Slot]] = set()
    plain: dict[str, bool] = {}
    present: dict[str, bool] = {}
    with whole_claims_only():
        for tag, claim, roles in claims:
            wanted = [r for r in roles if r in by_role]
            for role in roles if wanted else ():
                if role not in present:
                    present[role] = bool(word_edged(parse_claim(role).roles[0]).search(prose))
            for role in wanted:
                if not all(present[r] for r in roles if r != role):
                    continue
                for word in by_role[role]:
                    read = substituted(normalised, word, stand_ins[role])
                    if not states(tag, claim, read):
                        continue
                    if claim not in plain:
                        plain[claim] = states(tag, claim, normalised)
                    if not plain[claim]:
                        found.add((tag, (role, word)))
    return found


def stand_ins(claims: Claims, read: Mapping[str, Normalised], rows: Sequence[Row],
              roles: Iterable[str]) -> dict[str, str]:  # fmt: skip
    """role -> the first word it reads in a tune answer to a question whose claims have it."""
    questions: dict[str, set[str]] = defaultdict(set)
    for q, found in claims.items():
        for _, _, rs in found:
            for r in rs:
                questions[r].add(q)
    out: dict[str, str] = {}
    for role in set(roles):
        search = word_edged(parse_claim(role).roles[0])
        for row in rows:
            if row.question_id not in questions[role]:
                continue
            units = [u for u in read[row.source].units if not u.is_code]
            match = next((m for u in units if (m := search.search(u.lemmas or u.text))), None)
            if match and match.group(0).strip():
                out[role] = match.group(0)
                break
    return out


@contextmanager
def whole_claims_only() -> Iterator[None]:
    """has_evidence reading each claim whole (learned_evidence spares no role); its loosened
    phrasings are remembered per phrasing, so forgotten on the way in and out."""
    learned_evidence.forget_loosened()
    with mock.patch.object(learned_evidence, "MIN_ROLES_TO_SPARE", NEVER_SPARE):
        yield
    learned_evidence.forget_loosened()


@dataclasses.dataclass(frozen=True)
class Found:
    """Over every tune answer: near-misses (source -> (tag, slot)) and the completions of the
    slots seen in two or more rounds anywhere (source -> (tag, slot))."""

    misses: dict[str, set[tuple[str, Slot]]]
    completed: dict[str, set[tuple[str, Slot]]]


def find_all(rows: Sequence[Row], rubrics: Mapping[str, Rubric],
             round_of: Mapping[str, str], train=lambda _: True) -> Found:  # fmt: skip
    """`train`: the rows whose answers may lend a role its stand-in."""
    claims: Claims = {q: tell_claims(r) for q, r in rubrics.items()}
    read = {r.source: normalise(r.answer or "") for r in rows}
    misses = {r.source: near_misses(read[r.source], claims[r.question_id], r.expected_tags)
              for r in rows if r.expected_tags}  # fmt: skip
    print(f"near-misses read on {len(misses)} answers", file=sys.stderr)
    rounds = seen_rounds(rows, misses, round_of, lambda _: True)
    slots = {s for s, n in rounds.items() if len(n) >= MIN_ROUNDS}
    words = stand_ins(claims, read, [r for r in rows if train(r)], (role for role, _ in slots))
    print(f"slots in {MIN_ROUNDS}+ rounds: {len(slots)}; roles with a stand-in: {len(words)}",
          file=sys.stderr)  # fmt: skip
    completed = {}
    started = time.monotonic()
    for n, r in enumerate(r for r in rows if r.evidence is not None and not r.evidence.empty):
        completed[r.source] = completions(read[r.source], claims[r.question_id], slots, words)
        if n % 500 == 499:
            print(f"completions: {n + 1} answers, {time.monotonic() - started:.0f} s",
                  file=sys.stderr)  # fmt: skip
    return Found(misses, completed)


def seen_rounds(rows: Iterable[Row], misses: Mapping[str, set[tuple[str, Slot]]],
                round_of: Mapping[str, str], train) -> dict[Slot, set[str]]:  # fmt: skip
    """slot -> the final rounds whose training answers' near-misses carry it."""
    out: dict[Slot, set[str]] = defaultdict(set)
    for row in rows:
        if train(row) and row.persona in round_of:
            for _, slot in misses.get(row.source, ()):
                out[slot].add(round_of[row.persona])
    return out


def kept_slots(rows: Sequence[Row], found: Found, round_of: Mapping[str, str],
               train, bars: Bars = G2_BARS) -> dict[Slot, int]:  # fmt: skip
    """slot -> its training rounds, for slots seen in `MIN_ROUNDS` training rounds that pass
    `bars` on the training rows."""
    rounds = seen_rounds(rows, found.misses, round_of, train)
    candidates = {s: len(n) for s, n in rounds.items() if len(n) >= MIN_ROUNDS}
    if bars.percent is None:
        on_correct = {slot for r in rows if train(r) and r.label == "correct"
                      for _, slot in found.completed.get(r.source, ())}  # fmt: skip
        return {s: n for s, n in candidates.items() if s not in on_correct}
    fires, right, answers = slot_precision(rows, found, train, candidates)
    return {
        s: n
        for s, n in candidates.items()
        if answers[s] >= bars.support and 100 * right[s] >= bars.percent * fires[s]
    }


def slot_precision(rows: Iterable[Row], found: Found, train,
                   slots: Iterable[Slot]) -> tuple[Counter, Counter, Counter]:  # fmt: skip
    """Per slot, on the training rows: completions (answer, tag), those on an answer labelled
    with the tag, and the answers completed."""
    wanted = set(slots)
    fires: Counter[Slot] = Counter()
    right: Counter[Slot] = Counter()
    answers: Counter[Slot] = Counter()
    for row in rows:
        if not train(row):
            continue
        mine = [(t, s) for t, s in found.completed.get(row.source, ()) if s in wanted]
        for tag, slot in mine:
            fires[slot] += 1
            right[slot] += tag in row.expected_tags
        answers.update({s for _, s in mine})
    return fires, right, answers


def eligible(row: Row, variant: str) -> bool:
    ev = row.evidence
    if ev is None or ev.no_credit or ev.empty:
        return False
    return variant == "all" or row.verdict != "correct"


def named(row: Row, rubric: Rubric, found: Found, kept: Mapping[Slot, int], variant: str) -> Row:
    """The row with the kept slots' best-supported completed tag named, under its cap."""
    if not eligible(row, variant):
        return row
    tags = [(kept[s], t) for t, s in found.completed.get(row.source, ())
            if s in kept and t not in row.named_tags]  # fmt: skip
    if not tags:
        return row
    return with_tag(row, rubric, max(tags)[1])


def line(name: str, before: Sequence[Row], after: Sequence[Row], size: str = "") -> str:
    return loose_line(name, before, after, size)


def read_folds(rows: Sequence[Row], rubrics: Mapping[str, Rubric], found: Found,
               round_of: Mapping[str, str], fold_list: Sequence[Fold],
               bars: Bars = G2_BARS):  # fmt: skip
    """variant -> fold -> (rules rows, rows named by synonyms learned without the fold, size)."""
    out: dict[str, dict[str, tuple[list[Row], list[Row], int]]] = {v: {} for v in VARIANTS}
    for name, held in fold_list:
        test = [r for r in rows if held(r)]
        kept = kept_slots(rows, found, round_of, lambda r, held=held: not held(r), bars)
        for variant in VARIANTS:
            after = [named(r, rubrics[r.question_id], found, kept, variant) for r in test]
            out[variant][name] = (test, after, len(kept))
    return out


@cache
def _r49_writers() -> frozenset[str]:
    return final_groups(SIDES)[R49]


def held_by_r49(row: Row) -> bool:
    return row.persona in _r49_writers()


def moved(before: Sequence[Row], after: Sequence[Row]) -> tuple[int, int, int, int]:
    """Answers lowered, of them from correct to below, exact gained, exact lost."""
    lowered = from_correct = gained = lost = 0
    for b, a in zip(before, after, strict=True):
        lowered += a.verdict != b.verdict
        from_correct += b.verdict == "correct" and a.verdict != "correct"
        gained += a.verdict == a.label and b.verdict != b.label
        lost += a.verdict != a.label and b.verdict == b.label
    return lowered, from_correct, gained, lost


def where_it_acts(rows: Iterable[Row], found: Found, train,
                  kept: Mapping[Slot, int]) -> tuple[int, int, int, int]:  # fmt: skip
    """On the training answers where the namer would act (variant `below`'s eligibility, the tag
    not named by the rules): the kept slots' completions and those on the labelled tag, then the
    same leaving out the answers whose own near-misses gave the slot (right by construction).
    A diagnosis written after the round-49 reading (round 50): it decides nothing."""
    fires = right = fires_elsewhere = right_elsewhere = 0
    for row in rows:
        if not train(row) or not eligible(row, "below"):
            continue
        learned_here = {s for _, s in found.misses.get(row.source, ())}
        for tag, slot in found.completed.get(row.source, ()):
            if slot not in kept or tag in row.named_tags:
                continue
            fires += 1
            right += tag in row.expected_tags
            if slot not in learned_here:
                fires_elsewhere += 1
                right_elsewhere += tag in row.expected_tags
    return fires, right, fires_elsewhere, right_elsewhere


def decide(rows: Sequence[Row], rubrics: Mapping[str, Rubric], found: Found,
           round_of: Mapping[str, str]) -> None:  # fmt: skip
    """Round 49's set read with synonyms learned on every other tune persona, each bar."""
    test = [r for r in rows if held_by_r49(r)]
    print("\n== decides: trained without round 49's set, read on it (figures only)")
    print("| reading | added right / wrong / on correct | exact | c-vs-not | named | false "
          "| cells | synonyms | lowered, of them from correct, exact +/- |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    print(line("rules alone", test, test))
    for bars in (BARS, STRICT_BARS, G2_BARS):
        kept = kept_slots(rows, found, round_of, lambda r: not held_by_r49(r), bars)
        for variant in VARIANTS:
            after = [named(r, rubrics[r.question_id], found, kept, variant) for r in test]
            low, from_correct, gained, lost = moved(test, after)
            print(line(f"{bars.name}, `{variant}`", test, after, str(len(kept)))
                  + f" {low}, {from_correct}, +{gained} / -{lost} |")  # fmt: skip
        fires, right, elsewhere, right_elsewhere = where_it_acts(
            rows, found, lambda r: not held_by_r49(r), kept
        )
        print(f"  training, where it acts: {right} / {fires} right; not on the answers it was "
              f"learned from: {right_elsewhere} / {elsewhere}")  # fmt: skip


def report(readings, title: str = "") -> None:
    head = (
        "| fold | added right / wrong / on correct | exact | c-vs-not | named | false | cells "
        "| synonyms |"
    )
    for variant, by_fold in readings.items():
        print(f"\n== {title}variant {variant}\n{head}\n|---|---|---|---|---|---|---|---|")
        for kind in ("LORO", "LOPO"):
            mine = {n: v for n, v in by_fold.items() if n.startswith(kind)}
            for name, (before, after, size) in mine.items():
                if added(before, after) != (0, 0, 0):
                    print(line(name, before, after, str(size)))
            before = [r for b, _, _ in mine.values() for r in b]
            after = [r for _, a, _ in mine.values() for r in a]
            sizes = [s for _, _, s in mine.values()]
            span = f"{min(sizes)}-{max(sizes)}" if sizes else "-"
            print(line(f"**{kind} total, rules alone**", before, before))
            print(line(f"**{kind} total, role synonyms**", before, after, span))


def main(argv: list[str]) -> int:
    def given(flag: str) -> Path | None:
        return Path(argv[argv.index(flag) + 1]) if flag in argv else None

    rows, rubrics, read = graded_rows(given("--rows"))
    groups = final_groups(SIDES)
    round_of = {p: g for g, ps in groups.items() for p in ps}
    cache = given("--found")
    if cache and cache.exists():
        found = pickle.loads(cache.read_bytes())
    else:
        lends = (lambda r: not held_by_r49(r)) if "--decide" in argv else (lambda _: True)
        found = find_all(rows, rubrics, round_of, lends)
        if cache:
            cache.write_bytes(pickle.dumps(found))
    everywhere = kept_slots(rows, found, round_of, lambda _: True)
    seen = seen_rounds(rows, found.misses, round_of, lambda _: True)
    fires = Counter(s for c in found.completed.values() for _, s in c)
    print(f"near-miss slots: {len(seen)}; in {MIN_ROUNDS}+ rounds: "
          f"{sum(len(n) >= MIN_ROUNDS for n in seen.values())}; kept on all of tune: "
          f"{len(everywhere)} (roles {len({r for r, _ in everywhere})}); completions on tune: "
          f"{sum(fires.values())}")  # fmt: skip
    if "--decide" in argv:
        decide(rows, rubrics, found, round_of)
    if "--no-folds" not in argv:
        fold_list = folds(rows, groups, read)
        for bars in (BARS, STRICT_BARS, G2_BARS) if "--decide" in argv else (G2_BARS,):
            report(read_folds(rows, rubrics, found, round_of, fold_list, bars), f"{bars.name}, ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
