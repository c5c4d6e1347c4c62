"""What the benchmarks measure the same way: quantiles, a process's resident memory, the
tune side's folds (issue 14, round 24), the grader's two configurations and a revision's tree
to read "before" from (round 25), one grading's thread CPU time (round 26), a reading by a
child process in such a tree (round 29), the web process's start-up for free-text grading
(round 30), the first-answer benchmarks' laps, answers and before/after readings in fresh
children (round 31).

Each embedding benchmark had its own copy of these (a p95 read two ways would not compare);
one module keeps the figures of every script read alike. Child probes (code run with
`python -c`, the benchmarks folder's parent on sys.path) import `rss_mb` from here too.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the memory probes import this module first: nothing heavy at import
    from app.grading.freetext.evaluation import Row


# The learned parts off: what the rules alone give, beside the grader as shipped.
RULES_ALONE = {
    "second_opinion": False, "neighbours": False, "tell_caps": False, "tag_classifier": False,
}  # fmt: skip
CONFIGS: dict[str, dict[str, bool]] = {"rules alone": RULES_ALONE, "as shipped": {}}
ROOT = Path(__file__).resolve().parent.parent


def before_revision(given: str) -> str:
    """The revision a "before" reading runs: the one given, else the merge base with main."""
    if given:
        return given
    base = ["git", "merge-base", "HEAD", "main"]
    return subprocess.run(base, cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def export_tree(revision: str, into: Path) -> Path:
    """The tree of `revision` (git archive) under `into`, for a "before" reading in the same run."""
    archive = into / "before.tar"
    subprocess.run(["git", "archive", "-o", str(archive), revision], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


def child_reading(script: str, tree: Path, args: Sequence[str]) -> dict[str, Any]:
    """One reading by `script` (this checkout's file, resolved before the child changes
    directory) run again as a child in `tree`, so it imports the grader from that tree: the
    JSON object on the last line it prints."""
    command = [sys.executable, str(Path(script).resolve()), *args]
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tree)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def interleaved_readings(
    script: str, modes: Sequence[str], runs: int, before: str, answers: Any
) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Each mode read `runs` times by `script` as a fresh child (`--child MODE --tree TREE
    --answers FILE`) in the tree of `before` and in this working tree, in the order before,
    after, after, before, ...; `answers` is written once as JSON for every child to read.
    Returns mode -> "before"/"after" -> the children's readings."""
    revision = before_revision(before)
    with tempfile.TemporaryDirectory() as scratch:
        answers_file = Path(scratch) / "answers.json"
        answers_file.write_text(json.dumps(answers), encoding="utf-8")
        trees = {"before": export_tree(revision, Path(scratch)), "after": ROOT}
        print(f"before = {revision[:12]}, after = the working tree", flush=True)
        read: dict[str, dict[str, list[dict[str, Any]]]] = {
            mode: {name: [] for name in trees} for mode in modes
        }
        for run in range(runs):
            order = ("before", "after") if run % 2 == 0 else ("after", "before")
            for mode in modes:
                for name in order:
                    options = ["--child", mode, "--tree", str(trees[name])]
                    options += ["--answers", str(answers_file)]
                    read[mode][name].append(child_reading(script, trees[name], options))
    return read


def before_after(trees: dict[str, list[dict[str, Any]]], part: str, at: int) -> tuple[float, float]:
    """The median over each tree's children (`interleaved_readings`' "before" and "after") of
    one lap's reading: `part` of a LapClock's read, `at` 0 for wall seconds, 1 for CPU."""
    return (
        statistics.median(r["read"][part][at] for r in trees["before"]),
        statistics.median(r["read"][part][at] for r in trees["after"]),
    )


def graded_differently(trees: dict[str, list[dict[str, Any]]]) -> tuple[int, int]:
    """(gradings that differ between the trees, gradings compared): each child's `graded`
    beside its twin's in the other tree, in order."""
    pairs = [
        (x, y)
        for b, a in zip(trees["before"], trees["after"], strict=True)
        for x, y in zip(b["graded"], a["graded"], strict=True)
    ]
    return sum(x != y for x, y in pairs), len(pairs)


def first_and_sampled_answers(every: int) -> dict[str, list[dict[str, str]]]:
    """The first tune answer to each core free-text question, in pack order (`first`), and
    every `every`-th tune answer to those questions (`sample`)."""
    from app.grading.freetext.evaluation import core_labelled

    core = core_labelled()
    firsts: dict[str, str] = {}
    for answer in core.tune_answers:
        firsts.setdefault(answer.question_id, answer.answer)
    ids = [q.question.id for q in core.pack.questions if q.question.id in firsts]
    sample = [{"question": a.question_id, "answer": a.answer} for a in core.tune_answers]
    return {
        "first": [{"question": i, "answer": firsts[i]} for i in ids],
        "sample": [a for a in sample[::every] if a["question"] in firsts],
    }


class LapClock:
    """Wall and thread CPU seconds of each part of a reading, in order."""

    def __init__(self) -> None:
        self.read: dict[str, list[float]] = {}
        self.wall, self.cpu = time.perf_counter(), time.thread_time()

    def lap(self, part: str) -> None:
        wall, cpu = time.perf_counter(), time.thread_time()
        self.read[part] = [wall - self.wall, cpu - self.cpu]
        self.wall, self.cpu = wall, cpu

    def restart(self) -> None:
        """Time nothing from the last lap to now."""
        self.wall, self.cpu = time.perf_counter(), time.thread_time()


def web_start_up(pack: Any) -> None:
    """What app/main.py's lifespan reads for free-text grading in the tree imported, once
    its catalog (here the one pack) is loaded: the lemma dictionary, `preload` where the
    tree has it (round 29), given the catalog where it takes one (round 30), and the
    neighbours' index when the setting is on."""
    import inspect

    from app.config import get_settings
    from app.grading.freetext.lemmas import lemma
    from app.grading.freetext.neighbours import shipped_index
    from app.packs.catalog import Catalog

    settings = get_settings()
    lemma("gradients")
    try:
        from app.grading.freetext.preload import preload
    except ImportError:  # a tree before round 29
        pass
    else:
        catalog = Catalog()
        catalog.add(pack)
        if len(inspect.signature(preload).parameters) > 1:
            preload(settings, catalog)
        else:
            preload(settings)
    if settings.freetext_neighbours:
        shipped_index()


def quantile(values: Sequence[float], share: float) -> float:
    """The value at `share` of the sorted values (nearest rank from below, as every
    benchmark of issue 14 has read its p95)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def thread_ms(grade: Callable[[], Any], repeat: int) -> tuple[Any, float]:
    """`grade()`'s result and the median of `repeat` (at least one) runs' thread CPU ms: the
    grading thread's own time, which other processes' load does not add to."""
    times, result = [], None
    for _ in range(max(1, repeat)):
        began = time.thread_time()
        result = grade()
        times.append((time.thread_time() - began) * 1000)
    return result, statistics.median(times)


def rss_mb() -> float:
    """This process's resident memory in MB (Linux, /proc/self/status VmRSS)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0


def final_groups(sides_file: Path, tune: frozenset[str]) -> dict[str, frozenset[str]]:
    """The earlier final sets that joined the tune side: name -> personas."""
    from app.grading.freetext import chain

    return {k: v for k, v in chain.final_groups(sides_file).items() if v & tune}


@dataclass(frozen=True)
class Fold:
    """A way to split the tune rows (`fold`: row -> its fold's key) and the parts read."""

    name: str
    fold: Callable[[Row], Any]
    parts: list[tuple[str, list[Row]]]


def tune_folds(
    rows: Sequence[Row], read: frozenset[str], groups: Mapping[str, frozenset[str]]
) -> list[Fold]:
    """Leave one persona out (tune, all and not read), then leave one round out (each
    earlier final set left out at once; the rows of those sets)."""
    from app.grading.freetext import chain

    rows = list(rows)
    in_final = [r for r in rows if any(r.persona in ps for ps in groups.values())]
    return [
        Fold(
            "leave one persona out",
            chain.by_persona,
            [("tune, all", rows), ("tune, not read", [r for r in rows if r.persona not in read])],
        ),
        Fold(
            "leave one round out",
            chain.by_round(dict(groups)),
            [("all final sets (tune)", in_final)],
        ),
    ]
