"""Time every compiled pattern of the free-text matcher on strings built from its own classes.

Round 37 found `matching.asks` spending 12 s on an answer of brackets: two `\\W*` runs around
an optional part split one run every way, in an `re` pattern outside budget.py's bounded
searches. This reads every `re` / `regex` pattern the matcher modules hold (module globals,
and those in their lists, tuples and dicts), builds adversarial strings from each pattern's
own literals and classes (one character repeated, two alternating, each literal word repeated
with a space, a comma, a bracket or a newline after it), and times `search`, `match` and
`finditer` on 200 / 1,000 / 5,000 / 20,000 characters, stopping a string early when it grows
faster than linear. Printed per pattern: its worst growth (0: linear everywhere) and where.
A pattern flagged only under `search` or `finditer` but used with `match` at one position is
no finding (check its callers). Answers are cut to 5,000 characters and prose sentences to
500 (normalise.py), which bounds what a quadratic per-sentence pattern can cost.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/matcher_patterns.py [--modules a,b] [--modes m]
"""

from __future__ import annotations

import argparse
import importlib
import re
import re._constants as sre
import re._parser as sre_parse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import regex

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MODULES = (
    "matching,claims,conditions,normalise,subjects,phrasings,polarity,statements,joins,purposes"
)
_CATEGORY = {
    sre.CATEGORY_SPACE: " \n",
    sre.CATEGORY_NOT_SPACE: "a(",
    sre.CATEGORY_WORD: "a_1",
    sre.CATEGORY_NOT_WORD: "( ,.'",
    sre.CATEGORY_DIGIT: "1",
    sre.CATEGORY_NOT_DIGIT: "a ",
}


def patterns(modules: list[str]) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    seen: set[tuple[str, int]] = set()

    def walk(value: object, path: str, depth: int) -> None:
        if isinstance(value, (re.Pattern, regex.Pattern)):
            if (value.pattern, value.flags) not in seen:
                seen.add((value.pattern, value.flags))
                found.append((path, value))
        elif depth < 3 and isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                walk(item, f"{path}[{i}]", depth + 1)
        elif depth < 3 and isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{path}[{key!r}]", depth + 1)

    for name in modules:
        module = importlib.import_module(f"app.grading.freetext.{name}")
        for attribute, value in vars(module).items():
            walk(value, f"{name}.{attribute}", 0)
    return found


def pieces(pattern: str) -> tuple[set[str], set[str]]:
    """The characters and literal words a pattern is built from."""
    chars: set[str] = set()
    words: set[str] = set()
    try:
        tree = sre_parse.parse(pattern)
    except Exception:  # `regex`-only syntax: its words and common punctuation
        words.update(re.findall(r"[A-Za-z']{2,}", pattern))
        chars.update(" ,.()'\"-_a;:?!\n")
        return chars, words

    def visit(seq: Any) -> None:
        run = ""
        for op, av in seq:
            if op is sre.LITERAL:
                run += chr(av)
                chars.add(chr(av))
                continue
            if len(run) >= 2:
                words.add(run)
            run = ""
            if op is sre.IN:
                for o, a in av:
                    if o is sre.LITERAL:
                        chars.add(chr(a))
                    elif o is sre.RANGE:
                        chars.add(chr(a[0]))
                    elif o is sre.CATEGORY:
                        chars.update(_CATEGORY.get(a, ""))
            elif op is sre.CATEGORY:
                chars.update(_CATEGORY.get(av, ""))
            elif op is sre.ANY:
                chars.add("x")
            elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
                visit(av[2])
            elif op is sre.SUBPATTERN:
                visit(av[-1])
            elif op is sre.ATOMIC_GROUP:
                visit(av)
            elif op is sre.BRANCH:
                for branch in av[1]:
                    visit(branch)
            elif op in (sre.ASSERT, sre.ASSERT_NOT):
                visit(av[1])
        if len(run) >= 2:
            words.add(run)

    visit(tree)
    return chars, words


def hostile_units(chars: set[str], words: set[str]) -> dict[str, str]:
    ordered = sorted(chars)
    units = {f"{c!r}": c for c in ordered}
    for i, a in enumerate(ordered[:10]):
        for b in ordered[i + 1 : 10]:
            units[f"{a!r}{b!r}"] = a + b
    for word in sorted(words)[:60]:
        for after in (" ", ", ", "(", "\n", " x "):
            units[f"{word!r}{after!r}"] = word + after
    return units


def cpu(run: Callable[[str], object], text: str) -> float:
    start = time.process_time()
    run(text)
    return time.process_time() - start


def growth(pattern: Any, modes: list[str]) -> tuple[float, str]:
    """The worst 20k-equivalent seconds over the pattern's hostile strings, and where."""
    runs: dict[str, Callable[[str], object]] = {
        "search": pattern.search,
        "match": pattern.match,
        "finditer": lambda s: list(pattern.finditer(s)),
    }
    worst: tuple[float, str] = (0.0, "")
    for name, unit in hostile_units(*pieces(pattern.pattern)).items():
        if worst[0] > 1:
            break
        text = unit * (20_000 // len(unit) + 1)
        for mode in modes:
            run = runs[mode]
            t200 = cpu(run, text[:200])
            if t200 > 0.05:
                worst = max(worst, (t200 * 1000, f"{mode} {name} 200: {t200:.3f}s"))
                break
            t1k = cpu(run, text[:1_000])
            if t1k > 0.01 and t1k / max(t200, 1e-5) > 12:
                worst = max(worst, (t1k * 400, f"{mode} {name} 200: {t200:.4f}s 1k: {t1k:.3f}s"))
                break
            t5k = cpu(run, text[:5_000])
            if t5k > 2 or (t5k > 0.02 and t5k / max(t1k, 1e-5) > 12):
                worst = max(worst, (t5k * 16, f"{mode} {name} 1k: {t1k:.3f}s 5k: {t5k:.3f}s"))
                break
            t20k = cpu(run, text)
            if t20k > 0.05 and t20k / max(t5k, 1e-5) > 8:
                worst = max(worst, (t20k, f"{mode} {name} 5k: {t5k:.3f}s 20k: {t20k:.3f}s"))
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--modules", default=MODULES)
    parser.add_argument("--modes", default="search,match,finditer")
    parser.add_argument("--only", default="", help="comma-separated module.NAME paths")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    for path, pattern in patterns(args.modules.split(",")):
        if only and path not in only:
            continue
        seconds, where = growth(pattern, args.modes.split(","))
        print(f"{seconds:9.3f}  {path}  {where}", flush=True)


if __name__ == "__main__":
    main()
