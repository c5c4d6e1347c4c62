"""Measurement (round 23, engineer D): the pure-Python word pieces against `tokenizers`.

app/grading/freetext/wordpiece.py replaces the `tokenizers` package in the embedding
verdict's encoder. This script needs `tokenizers` 0.23.3 (the version the tables were taken
from; not in the `embedding` extra any more: `pip install tokenizers==0.23.3` in a scratch
venv, or /work/main/.venv as it was in round 22). Nothing is printed answer by answer.

- `--write-tables`: regenerate minilm/normalization.json from `tokenizers` (every code point
  through its normaliser alone and between two letters through its pre-tokeniser);
- `--write-expected`: the ids of tests/grading/test_freetext_wordpiece.py's tricky strings,
  written beside that test (so it runs without `tokenizers`);
- `--compare`: input ids and attention masks, both ways, on every tune answer (as written and
  as the verdict encodes it), the tricky strings, every code point between two letters, and
  random strings drawn from the hard characters; counts only;
- `--timing N`: N tune answers (seed 23) encoded the round-22 way (`tokenizers` + the
  session) and through encoder.py (word pieces + the same session), interleaved in one run:
  tokenising and whole-encode CPU per answer p50 / p95, the vectors' largest difference, and
  the resident memory of a fresh process that loads each encoder and encodes one answer.

Run from the worktree root: `PYTHONPATH=$PWD /work/main/.venv/bin/python
benchmarks/freetext_wordpiece.py --compare --timing 400`.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # one thread: the cost is per core

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.grading.freetext import wordpiece  # noqa: E402
from app.grading.freetext.encoder import MAX_PIECES  # noqa: E402
from benchmarks._measure import quantile  # noqa: E402

SEED = 23
EXPECTED = ROOT / "tests" / "grading" / "freetext_wordpiece_ids.json"


def reference() -> Any:
    """`tokenizers` as encoder.py configured it in round 22."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(wordpiece.TOKENIZER))
    tok.enable_truncation(MAX_PIECES)
    tok.no_padding()
    return tok


def _ranges(cps: Sequence[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for cp in sorted(cps):
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def code_points() -> range:
    return range(0x110000)


def is_surrogate(cp: int) -> bool:
    return 0xD800 <= cp < 0xE000


def write_tables() -> None:
    tok = reference()
    norm, pre = tok.normalizer, tok.pre_tokenizer
    dropped, padded, whitespace, punctuation = [], [], [], []
    mapped: dict[str, str] = {}
    for cp in code_points():
        if is_surrogate(cp):
            continue
        c = chr(cp)
        n = norm.normalize_str(c)
        if n == "":
            dropped.append(cp)
        elif n == f" {c} ":
            padded.append(cp)
        elif n != c and not wordpiece.HANGUL_FIRST <= cp <= wordpiece.HANGUL_LAST:
            mapped[str(cp)] = n
        words = [w for w, _ in pre.pre_tokenize_str(f"a{c}b")]
        if words == ["a", "b"]:
            whitespace.append(cp)
        elif words == ["a", c, "b"]:
            punctuation.append(cp)
        elif words != [f"a{c}b"]:
            raise SystemExit(f"U+{cp:04X}: pre-tokenised as {words}")
    tables = {
        "source": "tokenizers 0.23.3, minilm/tokenizer.json; benchmarks/freetext_wordpiece.py",
        "dropped": _ranges(dropped),
        "padded": _ranges(padded),
        "mapped": mapped,
        "whitespace": whitespace,
        "punctuation": _ranges(punctuation),
    }
    wordpiece.TABLES.write_text(json.dumps(tables, ensure_ascii=True, separators=(",", ":")))
    print(
        f"wrote {wordpiece.TABLES} ({wordpiece.TABLES.stat().st_size / 1024:.0f} KB): dropped "
        f"{len(dropped)} code points in {len(tables['dropped'])} ranges, padded {len(padded)}, "
        f"mapped {len(mapped)} (+ 11,172 Hangul syllables by the algorithm), whitespace "
        f"{len(whitespace)}, punctuation {len(punctuation)}"
    )


def tricky() -> list[str]:
    sys.path.insert(0, str(ROOT / "tests" / "grading"))
    from test_freetext_wordpiece import TRICKY

    return list(TRICKY)


def write_expected() -> None:
    tok = reference()
    cases = [{"ids": tok.encode(text).ids} for text in tricky()]
    EXPECTED.write_text(json.dumps(cases, separators=(",", ":")) + "\n")
    print(f"wrote {EXPECTED} ({len(cases)} strings)")


def tune_texts() -> list[str]:
    """Every tune answer, as written and as the verdict encodes it (never printed)."""
    from app.grading.freetext.embedding_verdict import embedded_text
    from app.grading.freetext.evaluation import core_labelled

    core = core_labelled()
    answers = [a.answer for a in core.tune_answers]
    return answers + [embedded_text(a) for a in answers]


HARD = (
    "aZ é\u0301\u0327\u200b\u200d\ufeff\u00ad\x00\x07\x0b\x85\ufffd\u2028\u3000\t\n"
    "İıΣσςẞßǅﬁ\ufb01Å\u212b\u2126K\u0130ŉ\u1e9e\u0345\u0bcd\u0f71\u0f72\U0001d165\U0001d16d"
    "中国語\uf900\ufa10\u3400한국어\uac00\u1100\u1161ｱｶﾞ\uff21\uff41①²½\u2160"
    "😀🥲👍🏽👨\u200d👩\u200d👧🇫🇷\ufe0f\u20e3#*!?,.;:'\"-_()[]{}<>@$%^&|~`\\/"
    "\u0600\u0627\u064b\u05d0\u05b0\u0915\u093f\u094d\u0e01\u0e31\u1780\u17d2"
    "\ue000\U000f0000\U0010fffd\U0001fbf0\U0001f972\U000e0001\U000e0041\u0378\u1734"
    "[CLS][SEP][MASK][UNK][PAD][cls]##"
)


def compare() -> None:
    tok = reference()
    mine = wordpiece.WordPiece()
    texts = tune_texts()
    found = sum(tok.encode(t).ids == mine.ids(t, MAX_PIECES) for t in texts)
    masks = sum(set(tok.encode(t).attention_mask) <= {1} for t in texts)
    print(
        f"tune answers as written and as encoded: {found} of {len(texts)} identical ids; "
        f"`tokenizers` attention masks all ones in {masks} (encoder.py sends all ones)"
    )
    cases = tricky()
    same = sum(tok.encode(t).ids == mine.ids(t, MAX_PIECES) for t in cases)
    print(f"tricky strings: {same} of {len(cases)} identical ids")
    differ = []
    for cp in code_points():
        if is_surrogate(cp):
            continue
        text = f"x{chr(cp)}y Q{chr(cp)}"
        if tok.encode(text).ids != mine.ids(text, MAX_PIECES):
            differ.append(cp)
    print(
        f"every code point between letters: {0x110000 - 2048 - len(differ)} identical, "
        f"{len(differ)} differ {[hex(c) for c in differ[:10]]}"
    )
    rng = random.Random(SEED)
    trials, bad = 20000, 0
    for _ in range(trials):
        text = "".join(rng.choice(HARD) for _ in range(rng.randint(0, 60)))
        bad += tok.encode(text).ids != mine.ids(text, MAX_PIECES)
    print(f"random strings of the hard characters: {trials - bad} of {trials} identical ids")


RSS_PROBE = """
import sys
sys.path.insert(0, {root!r})
from benchmarks._measure import rss_mb as rss
base = rss()
from app.grading.freetext.encoder import Encoder, configured_path
encoder = Encoder(configured_path())
if {old!r}:
    sys.path.insert(0, {bench!r})
    from freetext_wordpiece import RoundTwentyTwo
    encoder = RoundTwentyTwo(encoder)
loaded = rss()
encoder({text!r})
print(f"interpreter {{base:.0f}} MB, encoder loaded {{loaded:.0f}} MB, after one answer "
      f"{{rss():.0f}} MB")
"""


class RoundTwentyTwo:
    """Round 22's encode: `tokenizers` for the ids, the same session and pooling."""

    def __init__(self, encoder: Any) -> None:
        self.encoder, self.tokenizer = encoder, reference()

    def ids(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text).ids)

    def __call__(self, text: str) -> list[float]:
        return list(self.encoder.vector(self.ids(text)))


def timing(n: int) -> None:
    from app.grading.freetext.embedding_verdict import embedded_text
    from app.grading.freetext.encoder import Encoder, configured_path

    texts = [embedded_text(t) for t in tune_texts()[: len(tune_texts()) // 2]]
    sample = random.Random(SEED).sample(texts, min(n, len(texts)))
    new = Encoder(configured_path())
    old = RoundTwentyTwo(new)
    for text in sample[:10]:
        old(text), new(text)
    spent: dict[str, list[float]] = {k: [] for k in ("old ids", "new ids", "old", "new")}
    largest = 0.0
    for text in sample:
        for name, ids in (("old ids", old.ids), ("new ids", new.ids)):
            start = time.process_time()
            ids(text)
            spent[name].append(time.process_time() - start)
        start = time.process_time()
        before = old(text)
        spent["old"].append(time.process_time() - start)
        start = time.process_time()
        after = new(text)
        spent["new"].append(time.process_time() - start)
        largest = max(largest, max(abs(a - b) for a, b in zip(before, after, strict=True)))
    print(f"{len(sample)} tune answers (seed {SEED}), encoded text, one thread, CPU per answer:")
    for name, label in (
        ("old ids", "tokenise, `tokenizers`      "),
        ("new ids", "tokenise, wordpiece.py      "),
        ("old", "encode, round 22 (tokenizers)"),
        ("new", "encode, encoder.py (wordpiece)"),
    ):
        xs = [1000 * x for x in spent[name]]
        print(
            f"  {label} p50 {statistics.median(xs):.2f} ms, p95 {quantile(xs, 0.95):.2f}, "
            f"max {max(xs):.2f}"
        )
    print(f"  vectors: largest absolute difference {largest:.3g} over {len(sample)} x 384")
    longest = max(sample, key=len)
    for label, old_flag in (("round 22 (tokenizers)", True), ("encoder.py (wordpiece)", False)):
        code = RSS_PROBE.format(
            root=str(ROOT), bench=str(ROOT / "benchmarks"), old=old_flag, text=longest
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        print(f"  RSS, {label}: {out.stdout.strip()}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-tables", action="store_true")
    parser.add_argument("--write-expected", action="store_true")
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--timing", type=int, default=0, metavar="N")
    args = parser.parse_args(argv)
    if args.write_tables:
        write_tables()
    if args.write_expected:
        write_expected()
    if args.compare:
        compare()
    if args.timing:
        timing(args.timing)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
