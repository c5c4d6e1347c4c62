"""BERT-uncased word pieces for the embedding verdict's encoder, in pure Python (round 23).

The encoder used to tokenise with the `tokenizers` package, which pulls `huggingface_hub` (a
hub download client the product must never use) and `httpx2` (round 22: Starlette's test
client switched HTTP clients under it). The model needs only what the committed
`minilm/tokenizer.json` describes: split the special tokens out of the raw text; normalise
(BertNormalizer: drop control and format characters, whitespace to a space, spaces around CJK
ideographs, NFD without non-spacing marks, lower case); split on whitespace and isolate each
punctuation character (BertPreTokenizer); greedy longest-match-first word pieces with `##`
and `[UNK]` for a word over 100 characters or with no match; `[CLS]` ... `[SEP]`, truncated.

Character classes come from `minilm/normalization.json`, generated once from `tokenizers`
0.23.3 itself (benchmarks/freetext_wordpiece.py --write-tables), not from Python's
`unicodedata`: the Rust crates behind `tokenizers` carry older Unicode tables, and
`unicodedata` disagrees with them on ~1,500 characters (newer letters and marks, some
compatibility ideographs), so a class computed here would shift ids on rare input. The
normalisation is per character (checked on every code point), so it is a few regex passes
and one `str.translate`; word-piece search is bounded by the longest vocabulary entry and
stops once `max_pieces` are found: linear in the answer's length.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

MINILM = Path(__file__).with_name("minilm")
TOKENIZER = MINILM / "tokenizer.json"
TABLES = MINILM / "normalization.json"

HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3


def _hangul_nfd(cp: int) -> str:
    """The canonical decomposition of a precomposed Hangul syllable (Unicode's algorithm)."""
    index = cp - HANGUL_FIRST
    lead, vowel, tail = 0x1100 + index // 588, 0x1161 + (index % 588) // 28, index % 28
    return chr(lead) + chr(vowel) + (chr(0x11A7 + tail) if tail else "")


def _char_class(ranges: list[list[int]]) -> str:
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in ranges
    )


class WordPiece:
    """Text -> the model's input ids, as `tokenizers` gives them for tokenizer.json."""

    def __init__(self, tokenizer: Path = TOKENIZER, tables: Path = TABLES) -> None:
        spec = json.loads(tokenizer.read_text(encoding="utf-8"))
        model = spec["model"]
        self.vocab: dict[str, int] = model["vocab"]
        self.unknown = self.vocab[model["unk_token"]]
        self.prefix: str = model["continuing_subword_prefix"]
        self.max_word_chars: int = model["max_input_chars_per_word"]
        self.chunk = 4096  # characters normalised at a time
        self.first = self.vocab["[CLS]"]
        self.last = self.vocab["[SEP]"]
        self.longest_first = max(map(len, self.vocab))
        self.longest_next = max(
            len(k) - len(self.prefix) for k in self.vocab if k.startswith(self.prefix)
        )
        specials = sorted((t["content"] for t in spec["added_tokens"]), key=len, reverse=True)
        self.specials = {t["content"]: t["id"] for t in spec["added_tokens"]}
        self._special_split = re.compile("(" + "|".join(map(re.escape, specials)) + ")")

        table = json.loads(tables.read_text(encoding="utf-8"))
        self._dropped = re.compile(f"[{_char_class(table['dropped'])}]+")
        self._padded = re.compile(f"[{_char_class(table['padded'])}]")
        mapping = {int(cp): text for cp, text in table["mapped"].items()}
        mapping.update({cp: _hangul_nfd(cp) for cp in range(HANGUL_FIRST, HANGUL_LAST + 1)})
        self._mapping = str.maketrans(mapping)
        space = _char_class([[cp, cp] for cp in table["whitespace"]])
        punctuation = _char_class(table["punctuation"])
        self._words = re.compile(f"[{punctuation}]|[^{space}{punctuation}]+")

    def normalise(self, text: str) -> str:
        """BertNormalizer as tokenizer.json configures it (character by character)."""
        text = self._dropped.sub("", text)
        text = self._padded.sub(r" \g<0> ", text)
        return text.translate(self._mapping)

    def _words_of(self, text: str) -> Iterator[int | str]:
        """Special tokens' ids as found in the raw text, and the words around them."""
        for i, part in enumerate(self._special_split.split(text)):
            if i % 2:
                yield self.specials[part]
            else:
                yield from self._normalised_words(part)

    def _normalised_words(self, text: str) -> Iterator[str]:
        """The words of the normalised text, normalised a chunk at a time (normalising is per
        character), so a long answer is read only as far as the pieces kept need."""
        pending = ""
        for start in range(0, len(text), self.chunk):
            pending += self.normalise(text[start : start + self.chunk])
            consumed = len(pending)
            for match in self._words.finditer(pending):
                if match.end() == len(pending):  # the word may go on in the next chunk
                    consumed = match.start()
                    break
                yield match.group()
            # a word over the limit is one [UNK] however long: keep only enough to know it
            pending = pending[consumed : consumed + self.max_word_chars + 1]
        yield from (match.group() for match in self._words.finditer(pending))

    def pieces(self, word: str) -> list[int]:
        """Greedy longest-match-first; one [UNK] for the whole word when a part has no match."""
        if len(word) > self.max_word_chars:
            return [self.unknown]
        found: list[int] = []
        start = 0
        while start < len(word):
            longest = self.longest_next if start else self.longest_first
            for end in range(min(len(word), start + longest), start, -1):
                piece = word[start:end] if start == 0 else self.prefix + word[start:end]
                if piece in self.vocab:
                    found.append(self.vocab[piece])
                    start = end
                    break
            else:
                return [self.unknown]
        return found

    def ids(self, text: str, max_pieces: int) -> list[int]:
        """[CLS], the first `max_pieces - 2` word pieces, [SEP] (truncation as `tokenizers`)."""
        room = max_pieces - 2
        body: list[int] = []
        for word in self._words_of(text):
            body.extend([word] if isinstance(word, int) else self.pieces(word))
            if len(body) >= room:
                break
        return [self.first, *body[:room], self.last]
