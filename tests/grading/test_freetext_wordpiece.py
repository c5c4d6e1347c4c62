"""wordpiece.py gives the ids `tokenizers` 0.23.3 gave the encoder in round 22, without it.

The expected ids (freetext_wordpiece_ids.json) were written once by
benchmarks/freetext_wordpiece.py --write-expected from `tokenizers` itself, so these tests
run where it is not installed; the same script compares every tune answer and every code
point. The strings are the hostile ones: Unicode categories, combining marks, emoji, control
and zero-width characters, special tokens typed in the answer, over-long words, 100k
characters.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.grading.freetext.encoder import MAX_PIECES, TABLES_SHA256, sha256_of
from app.grading.freetext.wordpiece import TABLES, WordPiece
from tests.grading.linear_time import assert_linear

EXPECTED = Path(__file__).with_name("freetext_wordpiece_ids.json")

TRICKY = (
    "",
    " ",
    "\t\n\r  \u3000",
    "Hello, World!",
    "tf.GradientTape() records ops; tape.gradient(loss, model.trainable_variables)",
    "Doesn't it re-compute? No - it's 'reverse-mode' AD... (see `persistent=True`).",
    "naïve café résumé Ångström façade ÉCOLE Øre Straße İstanbul ΟΔΟΣ Σίσυφος",
    "e\u0301 a\u0308 n\u0303 o\u0327\u0301 \u0301leading mark",
    "ǅemal ﬁnal ﬂow Ǆ ŉ ẞ \u212b \u2126 \u212a \u0130i\u0307",
    "zero\u200bwidth\u200cnon\u200djoiner\ufeffbom\u00adsoft\u2060word",
    "ctrl\x00nul\x07bell\x0bvt\x0cff\x1bes\x7fdel\x85nel\ufffdrepl",
    "\u2028line\u2029para\u00a0nbsp\u202fnarrow\u205fmath\u1680ogham\u180emongolian",
    "梯度带 记录 操作。勾配テープ、テンソル！한국어 그래디언트 ｶﾀｶﾅ ＡＢＣ１２３",
    "\uf900\ufa10\ufa0e \U00020000\U0002a700\U0002b820\U0002ceb0 \u3400\u4dbf",
    "emoji 😀🥲👍🏽 👨\u200d👩\u200d👧 🇫🇷 1\ufe0f\u20e3 ❤️ 🫠 \U0001fbf0",
    "arabic العربية \u064b\u0652 hebrew עִבְרִית hindi हिन्दी thai ภาษาไทย khmer ខ្មែរ",
    "math ∇f(x) = ∂L/∂w ≈ 0.5·x² ≤ ∞ ∑ ∫ √ ① ½ Ⅻ ℃ ㎏ µ μ",
    "tags \U000e0001\U000e0041\U000e007f private \ue000\U000f0000\U0010fffd unassigned \u0378",
    "surrogates written out \\ud800 and marks \u1734\u0f71\u0f72\u0345 \U0001d165\U0001d16d",
    "[CLS] typed [SEP] in [MASK] the [UNK] answer [PAD] and [cls] lower [MASK]ed x[SEP]y",
    "#### ## # $$$ %%% ^^^ &&& ||| ~~~ ``` \\\\ /// <<< >>> @@@ ___ --- +++ === ;;;",
    "gradient" * 30,
    "a" * 100 + " " + "b" * 101 + " " + "c" * 99,
    "pneumonoultramicroscopicsilicovolcanoconiosis antidisestablishmentarianism",
    "x" * 100_000,
    "gradient tape " * 8000,
    ("é" * 7 + " ") * 12_500,
    "😀" * 100_000,
    ".,;:!?" * 20_000,
)


@pytest.fixture(scope="module")
def wordpiece() -> WordPiece:
    return WordPiece()


def test_the_tricky_strings_give_the_ids_tokenizers_gave(wordpiece: WordPiece) -> None:
    expected = json.loads(EXPECTED.read_text())
    assert len(expected) == len(TRICKY)
    for i, (text, case) in enumerate(zip(TRICKY, expected, strict=True)):
        assert wordpiece.ids(text, MAX_PIECES) == case["ids"], f"string {i}: {text[:40]!r}"


def test_reading_in_small_chunks_changes_nothing() -> None:
    """Words cut by a chunk's end, over-long words spanning chunks, and early stopping."""
    small = WordPiece()
    small.chunk = 7
    expected = json.loads(EXPECTED.read_text())
    for i, (text, case) in enumerate(zip(TRICKY, expected, strict=True)):
        assert small.ids(text, MAX_PIECES) == case["ids"], f"string {i}: {text[:40]!r}"


def test_truncation_keeps_cls_and_sep(wordpiece: WordPiece) -> None:
    ids = wordpiece.ids("gradient tape " * 1000, MAX_PIECES)
    assert len(ids) == MAX_PIECES
    assert ids[0] == wordpiece.vocab["[CLS]"] and ids[-1] == wordpiece.vocab["[SEP]"]
    assert wordpiece.ids("", MAX_PIECES) == [wordpiece.vocab["[CLS]"], wordpiece.vocab["[SEP]"]]


def test_a_word_over_100_characters_is_one_unknown(wordpiece: WordPiece) -> None:
    unknown = wordpiece.vocab["[UNK]"]
    assert wordpiece.ids("a" * 101, MAX_PIECES)[1:-1] == [unknown]
    assert unknown not in wordpiece.ids("a" * 100, MAX_PIECES)


def test_time_is_linear_in_the_answer(wordpiece: WordPiece) -> None:
    """An 8x longer hostile answer costs about 8x, not 64x (100-character words of
    one-letter pieces: every piece searched from the longest vocabulary entry down)."""

    # no truncation: every piece is searched
    assert_linear(lambda text: wordpiece.ids(text, 10**9), ("qx" * 50 + " ") * 2_000)


def test_the_tables_are_the_pinned_ones() -> None:
    assert sha256_of(TABLES) == TABLES_SHA256


def test_a_lone_surrogate_is_an_unknown_word_not_an_error(wordpiece: WordPiece) -> None:
    """JSON can carry "\\ud800"; `tokenizers` refused such a string, this reads it as a word
    it has no piece for."""
    unknown = wordpiece.vocab["[UNK]"]
    assert wordpiece.ids("tape a\ud800b", MAX_PIECES)[2:-1] == [unknown]
