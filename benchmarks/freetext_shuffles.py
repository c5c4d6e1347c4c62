"""Short keyword shuffles of every core question: graded correct, partial or incorrect?

Round 37's final reading found 60 words drawn at random from a question's model answer, joined
as one sentence, graded correct in 9 of 50 tries: the keyword-list and padding readings
(signals.py) were built on 1,200-word salads. This generator writes, for every free-text
question of the core pack, shuffles of two vocabularies - the model answer's words and the
words of the rubric's concept phrasings written out (freetext_hostile.phrasing_sentences) - at
15, 30, 60 and 120 words, in four shapes: plain (one sentence), glued (a glue word - article,
preposition, quantifier - after every other word), with commas, and cut into 2-4 sentences;
over several seeds. Each is graded three ways: the rules alone, as shipped (neighbours, tag
classifier, second opinion) and as shipped with the embedding verdict on (`--embedding`; it
needs the encoder), so a learned part that raises a shuffle shows. It prints counts graded
correct / partial / incorrect per question and per length, and with `--save` writes every
verdict; `--compare FILE` prints the saved counts beside this run's (start vs end of a round
cannot run in one tree) and how many shuffles moved, per reading, naming those raised (round 39).

Round 41: each shuffle draws from its own generator keyed by question, vocabulary, length, shape
and seed (benchmarks/_texts.keyed), and each concept phrasing is written out by one keyed by
itself, so a rubric change redraws only that question's "phrasings" shuffles (RUBRIC_BUILT; the
model answer's change only with the model answer). `--texts FILE` grades a `--save` file's exact
shuffles instead of drawing them; `--compare` counts verdicts moved on the same text (the grader)
apart from shuffles redrawn (the draw), and names only the former's raises. A round's end:
`--texts START.json --compare START.json` (the start's texts on the end's tree), and a plain
`--compare START.json` for this tree's own draw.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python benchmarks/freetext_shuffles.py
        [--seeds 3] [--embedding] [--save FILE.json] [--texts FILE.json] [--compare FILE.json]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.grading.freetext import grade_freetext  # noqa: E402
from app.packs.loader import load_pack  # noqa: E402
from app.packs.schema import FreeText  # noqa: E402
from benchmarks._texts import TextsFileError, keyed, load_records, moved  # noqa: E402
from tests.grading.benchmark_scripts import load_benchmark  # noqa: E402

PACK = ROOT / "questions" / "gradient-tape"
LENGTHS = (15, 30, 60, 120)
SHAPES = ("plain", "glued", "commas", "sentences")
GLUE = "the a an of in on at for with by from to into some all each every any".split()  # noqa: SIM905
_WORDS = re.compile(r"[A-Za-z_][\w.]*")
VERDICTS = ("correct", "partial", "incorrect")
READINGS = ("rules", "shipped", "embedding")
KEY = ("question", "vocabulary", "length", "shape", "seed")
# Round 41: the vocabulary written out from the rubric's phrasings changes with them, so its
# shuffles are redrawn when the rubric moves (say so; grade a start's texts with --texts).
RUBRIC_BUILT = frozenset(["phrasings"])


def vocabularies(question: FreeText, seed: int) -> dict[str, list[str]]:
    """The words a shuffle draws from: the model answer's, the concept phrasings' written out
    (built from the rubric: RUBRIC_BUILT; each phrasing's sentence keyed by itself and `seed`)."""
    hostile = load_benchmark("freetext_hostile.py", "freetext_hostile")
    phrasings = " ".join(hostile.phrasing_sentences(question, tells=False, draw=f"shuffle:{seed}"))
    return {
        "model answer": _WORDS.findall(question.rubric.model_answer),
        "phrasings": [w.rstrip(".") for w in _WORDS.findall(phrasings)],
    }


def drawn(words: list[str], length: int, rng: random.Random) -> list[str]:
    """`length` words in random order: the vocabulary shuffled (without replacement while it
    lasts, then again)."""
    out: list[str] = []
    while len(out) < length:
        out += rng.sample(words, len(words))
    return out[:length]


def shaped(words: list[str], shape: str, rng: random.Random) -> str:
    """The drawn words written out in one of SHAPES."""
    if shape == "plain":
        return " ".join(words) + "."
    if shape == "glued":
        glued = [w for i, w in enumerate(words) for w in ([w, rng.choice(GLUE)] if i % 2 else [w])]
        return " ".join(glued) + "."
    if shape == "commas":
        return ", ".join(words) + "."
    cuts = sorted(rng.sample(range(2, len(words) - 1), rng.randint(1, 3)))
    pieces = [words[a:b] for a, b in zip([0, *cuts], [*cuts, len(words)], strict=True)]
    return " ".join(" ".join(p)[:1].upper() + " ".join(p)[1:] + "." for p in pieces)


def shuffles(question: FreeText, seeds: int) -> list[dict[str, object]]:
    """Every shuffle of one question, as a record: question, vocabulary, length, shape, seed,
    whether it is built from the rubric, and its text. Each draws from its own generator keyed
    by all five (round 41): no shuffle's text depends on another's draw, and a rubric change
    redraws only the question's "phrasings" shuffles."""
    out: list[dict[str, object]] = []
    for seed in range(seeds):
        for vocab, words in vocabularies(question, seed).items():
            for length in LENGTHS:
                for shape in SHAPES:
                    rng = keyed("shuffle", question.id, vocab, length, shape, seed)
                    text = shaped(drawn(words, length, rng), shape, rng)
                    out.append(
                        dict(
                            question=question.id,
                            vocabulary=vocab,
                            length=length,
                            shape=shape,
                            seed=seed,
                            rubric_built=vocab in RUBRIC_BUILT,
                            text=text,
                        )
                    )
    return out


def core_questions() -> list[FreeText]:
    loaded = load_pack(PACK)
    assert loaded.pack is not None, loaded.problems
    return [q.question for q in loaded.pack.questions if isinstance(q.question, FreeText)]


def graded(question: FreeText, text: str, embedding: bool) -> dict[str, str]:
    out = {
        "rules": grade_freetext(question, text, second_opinion=False, neighbours=False).verdict,
        "shipped": grade_freetext(question, text, embedding_verdict=False).verdict,
    }
    if embedding:
        out["embedding"] = grade_freetext(question, text, embedding_verdict=True).verdict
    return out


def counts(records: list[dict[str, object]], reading: str, by: str) -> dict[str, Counter[str]]:
    table: dict[str, Counter[str]] = {}
    for r in records:
        if reading in r:
            table.setdefault(str(r[by]), Counter())[str(r[reading])] += 1
    return table


def report(records: list[dict[str, object]], title: str) -> None:
    for reading in READINGS:
        if not any(reading in r for r in records):
            continue
        print(f"\n{title}: {reading} (correct / partial / incorrect)")
        for by in ("question", "length", "shape", "vocabulary"):
            table = counts(records, reading, by)
            cells = "; ".join(
                f"{k} {c['correct']}/{c['partial']}/{c['incorrect']}"
                for k, c in sorted(table.items(), key=lambda kv: (len(kv[0]), kv[0]))
            )
            print(f"  by {by}: {cells}")
        total = Counter(str(r[reading]) for r in records if reading in r)
        print(f"  all {sum(total.values())}: " + " / ".join(str(total[v]) for v in VERDICTS))


def moves(saved: list[dict[str, object]], records: list[dict[str, object]]) -> None:
    """Round 39: how many shuffles moved from the saved verdict to this run's, per reading
    (the same shuffle: question, vocabulary, length, shape, seed), and which were raised.
    Round 41: those whose text is the saved one (the grader moved) apart from those redrawn."""
    rank = {v: i for i, v in enumerate(reversed(VERDICTS))}
    for n, reading in enumerate(READINGS):
        by, redrawn = moved(saved, records, KEY, reading)
        if not n:
            print(f"\n{redrawn} of {len(records)} shuffles redrawn since saved")
        if not any(reading in r for r in records):  # a reading this run did not grade
            continue
        for kind, rows in by.items():
            if not rows:  # said, so a reader of a round's end sees nothing moved, not a gap
                print(f"\nmoved since saved, {reading}, {kind}: 0")
                continue
            cells = Counter(f"{str(r[reading])[0]}>{str(r['now'])[0]}" for r in rows)
            print(
                f"\nmoved since saved, {reading}, {kind}: "
                + ", ".join(f"{k} {v}" for k, v in cells.items())
            )
            for r in rows if kind == "same text" else []:  # a redrawn text is another shuffle
                if rank[str(r["now"])] > rank[str(r[reading])]:
                    print("  raised: " + " ".join(str(r[k]) for k in KEY))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--embedding", action="store_true")
    ap.add_argument("--save", help="write every shuffle, its text and verdicts (JSON)")
    ap.add_argument("--texts", help="grade the shuffles a --save wrote instead of drawing them")
    ap.add_argument("--compare", help="a --save file: its counts beside this run's, and moves")
    a = ap.parse_args(argv)
    questions = {q.id: q for q in core_questions()}
    try:
        texts = (
            load_records(a.texts, (*KEY, "text"), questions)
            if a.texts
            else [r for q in questions.values() for r in shuffles(q, a.seeds)]
        )
        saved = load_records(a.compare, (*KEY, "text"), questions) if a.compare else []
    except TextsFileError as e:
        ap.error(str(e))
    records = [
        r | graded(questions[str(r["question"])], str(r["text"]), a.embedding) for r in texts
    ]
    if saved:
        report(saved, f"saved ({a.compare})")
    report(records, f"this run (texts: {a.texts or 'drawn in this run'})")
    if saved:
        moves(saved, records)
    if a.save:
        Path(a.save).write_text(json.dumps(records, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
