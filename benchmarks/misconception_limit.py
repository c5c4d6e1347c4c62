"""What the rubric schema's misconception limit protects: the worst-case grading time.

An uploaded pack is hostile: every tell it declares is matched against every sentence of
every answer in the web process. Phrasing searches share one CPU budget per answer
(app/grading/freetext/budget.py, ANSWER_SECONDS); the work around them (reading the polarity
and claims of each match, compiling a new pack's phrasings on its first answer) grows with
the number of tells, and since round 23 is bounded by the whole answer's deadline
(WHOLE_ANSWER_SECONDS): before it, one grading here ran past 58 CPU s. This grades
worst-case answers against hostile rubrics at the schema's most (12 concepts, `any` and `negated`
at 60 phrasings each) with 30, the limit (MAX_MISCONCEPTIONS: 40 from round 26, 48 from
round 45) and 60 misconceptions, and prints the CPU seconds of one grading (first answer: the
phrasings compiled too; then warm) and whether the answer was stopped early. `--phrasings N`
writes N per list instead of 60 (a quicker reading of how the time grows with the number of
tells).

Hostile phrasings (each valid under the schema's checks): `broad`, a word gap that every
sentence of the answer matches (so every tell is read in every sentence); `gappy`, four
gaps in a row ending in a word the answer never says (each search backtracks through every
split of the sentence and finds nothing); `mixed`, half of each. Answers: 5,000 characters
of short sentences, and one 5,000-character sentence. Rules alone (the learned parts read
only the core pack's rubrics).

    .venv/bin/python benchmarks/misconception_limit.py [--counts 30 40 60] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.grading.freetext import grade_freetext, phrasings  # noqa: E402
from app.grading.freetext.normalise import MAX_CHARS  # noqa: E402
from app.packs.rubric import MAX_MISCONCEPTIONS, Misconception, Rubric  # noqa: E402
from app.packs.schema import FreeText  # noqa: E402

PHRASINGS = 60  # `any` and `negated` each, the schema's most per concept or tell
CONCEPTS = 12  # the schema's most per rubric
SHAPES = ("broad", "gappy", "mixed")


def _phrasing(shape: str, item: int, index: int) -> str:
    """A distinct hostile phrasing (distinct text: no cache shared between tells)."""
    if shape == "mixed":
        shape = "broad" if index % 2 else "gappy"
    if shape == "broad":
        return rf"\w+ ~ \w{{1,{index + 2}}}\b(?#{item})"
    return rf"\w+ ~ \w+ ~ \w+ ~ \w+ ~ zq{item}x{index}"


def _phrased(shape: str, item: int, per_item: int) -> dict[str, list[str]]:
    return {
        "any": [_phrasing(shape, item, i) for i in range(per_item)],
        "negated": [_phrasing(shape, item + 1000, i) for i in range(per_item)],
    }


def hostile_question(shape: str, misconceptions: int, per_item: int = PHRASINGS) -> FreeText:
    """A free-text question whose rubric is as hostile as the schema allows, with
    `misconceptions` tells (above MAX_MISCONCEPTIONS: validated in lots, then joined, as a
    raised limit would allow)."""
    tells = [
        Misconception.model_validate(
            {
                "tag": f"tell-{n}",
                "correction": "No.",
                "cap": "incorrect",
                **_phrased(shape, n, per_item),
            }
        )
        for n in range(misconceptions)
    ]
    rubric = Rubric.model_validate({
        "model_answer": "The tape records the forward pass.",
        "concepts": [
            {"id": f"idea-{n}", "label": "an idea", **_phrased(shape, 5000 + n, per_item)}
            for n in range(CONCEPTS)
        ],
        "misconceptions": [t.model_dump() for t in tells[:MAX_MISCONCEPTIONS]],
    })  # fmt: skip
    question = FreeText.model_validate({
        "id": f"hostile-{shape}-{misconceptions}",
        "type": "free-text",
        "title": "Hostile",
        "prompt": "Explain the tape.",
        "difficulty": "easy",
        "topic": "recording",
        "section": "recording",
        "hints": ["Where is the loss computed?"],
        "explanation": "The tape records the forward pass.",
        "rubric": rubric.model_dump(),
    })  # fmt: skip
    return question.model_copy(
        update={"rubric": rubric.model_copy(update={"misconceptions": tells})}
    )


def answers() -> dict[str, str]:
    sentence = "the tape records every op of the forward pass here. "
    words = "the tape records every op of the forward pass and "
    return {
        "sentences": (sentence * (MAX_CHARS // len(sentence)))[:MAX_CHARS],
        "one sentence": (words * (MAX_CHARS // len(words)))[:MAX_CHARS],
    }


def graded(question: FreeText, answer: str) -> tuple[float, bool]:
    """CPU seconds of one grading, and whether it stopped early."""
    began = time.process_time()
    result = grade_freetext(question, answer, second_opinion=False, neighbours=False)
    return time.process_time() - began, bool(result.details.get("stopped_early"))


def measure(shape: str, count: int, answer: str, repeat: int, per_item: int) -> dict[str, Any]:
    phrasings.compile_phrasing.cache_clear()
    question = hostile_question(shape, count, per_item)
    cold, cold_stopped = graded(question, answer)
    warm = [graded(question, answer) for _ in range(repeat)]
    return {
        "cold": cold,
        "warm": statistics.median(s for s, _ in warm),
        "stopped": cold_stopped or any(stopped for _, stopped in warm),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # 30: the limit until round 26, read beside the limit now (48 since round 45) and above it.
    default_counts = sorted({30, MAX_MISCONCEPTIONS, 60})
    parser.add_argument("--counts", type=int, nargs="+", default=default_counts)
    parser.add_argument("--repeat", type=int, default=3, help="warm gradings, median")
    parser.add_argument(
        "--phrasings", type=int, default=PHRASINGS, help="`any` and `negated` per item"
    )
    parser.add_argument("--answers", nargs="+", default=list(answers()), choices=list(answers()))
    parser.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=SHAPES)
    args = parser.parse_args()
    print(
        f"CPU seconds per grading; MAX_MISCONCEPTIONS = {MAX_MISCONCEPTIONS}; "
        f"{args.phrasings} `any` and {args.phrasings} `negated` phrasings per item"
    )
    print(f"{'shape':<8}{'answer':<14}{'tells':>6}{'cold s':>9}{'warm s':>9}  stopped early")
    worst: dict[int, float] = {}
    for shape in args.shapes:
        for name in args.answers:
            for count in args.counts:
                got = measure(shape, count, answers()[name], args.repeat, args.phrasings)
                worst[count] = max(worst.get(count, 0.0), got["cold"], got["warm"])
                print(
                    f"{shape:<8}{name:<14}{count:>6}{got['cold']:>9.2f}{got['warm']:>9.2f}"
                    f"  {'yes' if got['stopped'] else 'no'}",
                    flush=True,
                )
    for count, seconds in sorted(worst.items()):
        print(f"== worst grading with {count} misconceptions: {seconds:.2f} CPU s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
