"""Rubric phrasings under `re` (before) and under `regex` with a per-answer budget (after).

Round 19 of issue 14 moved every phrasing search of the free-text grader to the `regex`
module (V0) with one CPU-time budget per answer (app/grading/freetext/budget.py). This
prints, from one run:

- CPU seconds per labelled answer through grade_freetext (as shipped): p50, p95, worst,
  before and after, and every answer whose verdict, score, concepts or tells differ;
- the structural probes (attack_answers) of the core rubric's phrasings that are slowest
  under `re` (searched alone at 2,000 characters), graded through grade_freetext at 2,000
  and 9,000 characters, as prose and in a code block (whose whitespace is kept), before and
  after, with the ratio and whether the budget stopped them;
- the first match of every compiled phrasing (claim roles one by one, word-edged too) on a
  sample of answers' sentences and lemma twins, `re` against `regex`, and the differences.

"Before" runs in a child process whose grader compiles with `re` and has no budget (the
engine swapped under budget.py); "after" in one as shipped.

    .venv/bin/python benchmarks/phrasing_budget.py [--slowest 36] [--sample 48]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LENGTHS = (2_000, 9_000)


class _ReEngine:
    """The stdlib engine behind the calls budget.py makes of `regex` (the "before")."""

    IGNORECASE = re.IGNORECASE
    V0 = 0
    error = re.error

    @staticmethod
    def compile(pattern: str, flags: int) -> re.Pattern[str]:
        return re.compile(pattern, flags)


def _use_re() -> None:
    from app.grading.freetext import budget

    @contextmanager
    def unbounded(seconds: float = 0.0) -> Any:
        yield budget.Budget(float("inf"))

    budget.regex = _ReEngine  # type: ignore[assignment]
    # round 29: the grader reads the pack loader's compiles (rubric.compiled_phrasing)
    budget.compiled_phrasing = lambda p: _ReEngine.compile(p, budget.FLAGS)  # type: ignore[assignment]
    budget.answer_budget = unbounded  # type: ignore[assignment]


def _labelled() -> list[dict[str, Any]]:
    from app.grading.freetext.evaluation import core_labelled
    from app.grading.freetext.grader import grade_freetext
    from app.packs.schema import FreeText

    core = core_labelled()
    questions = {q.question.id: q.question for q in core.pack.questions}
    rows = []
    for n, item in enumerate(core.answers):
        question = questions.get(item.question_id)
        if not isinstance(question, FreeText):
            continue
        began = time.process_time()
        result = grade_freetext(question, item.answer)
        rows.append(
            {
                "n": n,
                "question": item.question_id,
                "cpu": time.process_time() - began,
                "verdict": result.verdict,
                "score": result.score,
                "concepts": result.details.get("concepts_found"),
                "tells": result.misconceptions,
                "stopped": bool(result.details.get("stopped_early")),
            }
        )
    return rows


def _phrasings() -> list[tuple[str, str]]:
    """(question id, phrasing) for every phrasing of the core pack's rubrics."""
    from app.grading.freetext.evaluation import core_labelled
    from app.packs.schema import FreeText

    found = []
    for item in core_labelled().pack.questions:
        if isinstance(item.question, FreeText):
            rubric = item.question.rubric
            for entry in [*rubric.concepts, *rubric.misconceptions]:
                found += [(item.question.id, p) for p in [*entry.any, *entry.negated]]
    return found


def _compiled(pattern: str) -> list[Any]:
    from app.grading.freetext.claims import word_edged
    from app.services.instructor.phrasing_timing import compiled_parts

    parts = compiled_parts(pattern)
    from app.grading.freetext.claims import is_claim

    return parts + [word_edged(p) for p in parts] if is_claim(pattern) else parts


def _slowest(count: int) -> list[dict[str, Any]]:
    """The structural probes slowest under `re`, each searched alone at 2,000 characters."""
    from app.services.instructor.attack_answers import attack_strings

    timed = []
    for question, pattern in dict.fromkeys(_phrasings()):
        for k, compiled in enumerate(_compiled(pattern)):
            for j, text in enumerate(attack_strings(compiled, LENGTHS[0])):
                began = time.process_time()
                compiled.search(text)
                spent = time.process_time() - began
                timed.append((spent, question, pattern, k, j))
    timed.sort(reverse=True)
    return [
        {"question": q, "pattern": p, "part": k, "probe": j, "alone": s}
        for s, q, p, k, j in timed[:count]
    ]


def _probes(slowest: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from app.grading.freetext.evaluation import core_labelled
    from app.grading.freetext.grader import grade_freetext
    from app.services.instructor.attack_answers import attack_strings

    questions = {q.question.id: q.question for q in core_labelled().pack.questions}
    rows = []
    for probe in slowest:
        compiled = _compiled(probe["pattern"])[probe["part"]]
        for length in LENGTHS:
            text = attack_strings(compiled, length)[probe["probe"]]
            for answer in (text, f"```\n{text}\n```"):  # prose is normalised, code is not
                began = time.process_time()
                result = grade_freetext(questions[probe["question"]], answer)  # type: ignore[arg-type]
                rows.append(
                    {
                        **probe,
                        "length": length,
                        "code": answer != text,
                        "cpu": time.process_time() - began,
                        "verdict": result.verdict,
                        "stopped": bool(result.details.get("stopped_early")),
                    }
                )
    return rows


def _child(engine: str, slowest_path: str) -> None:
    if engine == "re":
        _use_re()
    slowest = json.loads(Path(slowest_path).read_text())
    print(json.dumps({"labelled": _labelled(), "probes": _probes(slowest)}))


def _first_matches(sample: int) -> list[str]:
    """Phrasings whose first match differs between `re` and `regex` on sampled texts."""
    import regex

    from app.grading.freetext.evaluation import core_labelled
    from app.grading.freetext.normalise import normalise

    answers = core_labelled().answers
    step = max(1, len(answers) // sample)
    texts = [
        t
        for a in answers[::step][:sample]
        for u in normalise(a.answer).units
        for t in (u.text, u.lemmas)
        if t
    ]
    patterns = sorted({c.pattern for _, p in dict.fromkeys(_phrasings()) for c in _compiled(p)})
    differences, pairs = [], 0
    for pattern in patterns:
        old = re.compile(pattern, re.IGNORECASE)
        new = regex.compile(pattern, regex.IGNORECASE | regex.V0)
        for text in texts:
            pairs += 1
            a, b = old.search(text), new.search(text)
            if (a and a.span()) != (b and b.span()):
                differences.append(f"{pattern!r} on {text[:80]!r}: re {a} regex {b}")
    print(f"== first match: {len(patterns)} patterns x {len(texts)} texts = {pairs:,} pairs,")
    print(f"  {len(differences)} differ", flush=True)
    return differences


def _children(slowest_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Before and after, graded side by side (each timed in its own CPU time)."""
    running = [
        subprocess.Popen(
            [sys.executable, __file__, "--child", engine, "--slowest-file", str(slowest_path)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for engine in ("re", "regex")
    ]
    before, after = (json.loads(child.communicate()[0].splitlines()[-1]) for child in running)
    return dict(before), dict(after)


def _cpu_line(name: str, rows: list[dict[str, Any]]) -> str:
    cpu = sorted(r["cpu"] for r in rows)
    p95 = cpu[int(0.95 * (len(cpu) - 1))]
    return (
        f"  {name:6} n={len(cpu)}  p50 {statistics.median(cpu) * 1000:.1f} ms"
        f"  p95 {p95 * 1000:.1f} ms  worst {cpu[-1] * 1000:.1f} ms"
        f"  stopped early {sum(r['stopped'] for r in rows)}"
    )


def _compare(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> None:
    keys = ("verdict", "score", "concepts", "tells")
    moved = [(b, a) for b, a in zip(before, after, strict=True) if any(b[k] != a[k] for k in keys)]
    print(f"  graded differently: {len(moved)} of {len(before)}")
    for b, a in moved:
        print(f"    #{b['n']} {b['question']}: " + ", ".join(f"{k} {b[k]} -> {a[k]}" for k in keys))


def _report(slowest: list[dict[str, Any]], before: dict[str, Any], after: dict[str, Any]) -> None:
    print("== labelled answers through grade_freetext (as shipped), CPU per answer")
    print(_cpu_line("re", before["labelled"]))
    print(_cpu_line("regex", after["labelled"]))
    _compare(before["labelled"], after["labelled"])
    print(f"== the {len(slowest)} structural probes slowest under re, through grade_freetext")
    for length in LENGTHS:
        old = [r for r in before["probes"] if r["length"] == length]
        new = [r for r in after["probes"] if r["length"] == length]
        worst_old, worst_new = max(r["cpu"] for r in old), max(r["cpu"] for r in new)
        print(
            f"  {length:,} characters: worst re {worst_old:.3f} s, regex {worst_new:.3f} s"
            f" (ratio {worst_new / worst_old:.2f}); sum re {sum(r['cpu'] for r in old):.2f} s,"
            f" regex {sum(r['cpu'] for r in new):.2f} s; stopped early"
            f" {sum(r['stopped'] for r in new)}; correct re"
            f" {sum(r['verdict'] == 'correct' for r in old)}, regex"
            f" {sum(r['verdict'] == 'correct' for r in new)}"
        )
    worst = max(before["probes"], key=lambda r: r["cpu"])
    print(
        f"  slowest under re: {worst['question']} {worst['pattern']!r} at {worst['length']:,}"
        f" ({'in a code block' if worst['code'] else 'as prose'})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slowest", type=int, default=36)
    parser.add_argument("--sample", type=int, default=48)
    parser.add_argument("--child", choices=("re", "regex"))
    parser.add_argument("--slowest-file")
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.slowest_file)
        return
    _use_re()  # the probes slowest under `re` are chosen here (first matches compile both)
    if args.sample:
        for line in _first_matches(args.sample)[:20]:
            print("   ", line, flush=True)
    path = Path("/tmp") / f"phrasing_budget_slowest_{time.time_ns()}.json"
    slowest = _slowest(args.slowest)
    path.write_text(json.dumps(slowest))
    before, after = _children(path)
    path.unlink()
    _report(slowest, before, after)


if __name__ == "__main__":
    main()
