"""Labelled submissions graded in bulk, to measure the checker against a strict interviewer.

A corpus file is an answer under a header of comment lines (`# label: correct|wrong`,
`# mistake:`, `# idiom:`, `# seen-in:`), labelled from the prompt by someone other than the
checker's author. Grading each answer in its own worker costs ~3 CPU-s of TensorFlow start-up,
so the corpus runs in batches: one worker job runs several answers one after another, exactly
as the trusted job runs a question's reference and known-wrong solutions (each answer afresh
per scenario, from identically seeded state), and the same judge decides. Any answer whose
batched verdict disagrees with its label, or whose batch did not finish, is graded again
alone through CodeGrader.grade, the production path, and that verdict is the one that counts.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.grading.code.grader import CodeGrader
from app.grading.code.judge import judge
from app.grading.code.references import contract_job, tolerance_of
from app.grading.code.replays import merge, replay_job
from app.grading.code.static import analyse
from app.grading.results import GradeResult
from app.packs.schema import Code, CodeFix

LABELS = ("correct", "wrong")
FIELDS = ("label", "mistake", "idiom", "seen-in")


@dataclass(frozen=True)
class Submission:
    path: Path
    question: str
    label: str
    mistake: str
    idiom: str
    seen_in: str
    source: str

    @property
    def name(self) -> str:
        return f"{self.question}/{self.path.name.removesuffix('.py.txt')}"


def read(path: Path) -> Submission:
    source = path.read_text()
    header: dict[str, str] = {}
    for line in source.splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line.lstrip("# ").partition(":")
        if key.strip() in FIELDS:
            header[key.strip()] = value.strip()
    return Submission(
        path=path,
        question=path.parent.name,
        label=header.get("label", ""),
        mistake=header.get("mistake", ""),
        idiom=header.get("idiom", ""),
        seen_in=header.get("seen-in", ""),
        source=source,
    )


def load(root: Path) -> list[Submission]:
    return [read(path) for path in sorted(root.glob("*/*.py.txt"))]


def agrees(label: str, result: GradeResult) -> bool:
    """A correct answer must be graded correct; a wrong one anything but correct."""
    return (result.verdict == "correct") == (label == "correct")


async def grade_all(
    grader: CodeGrader, question: Code | CodeFix, items: list[Submission], batch: int = 8
) -> dict[Path, GradeResult]:
    """Grade every submission of one question: batched first, disagreements alone."""
    chunks = [items[i : i + batch] for i in range(0, len(items), batch)]
    graded: dict[Path, GradeResult] = {}
    for found in await asyncio.gather(*(_batched(grader, question, c) for c in chunks)):
        graded.update(found)
    for item in items:
        if item.path not in graded or not agrees(item.label, graded[item.path]):
            graded[item.path] = await grader.grade(question, item.source)
    await grader.pool.settle()  # used workers are torn down after answering
    return graded


async def _batched(
    grader: CodeGrader, question: Code | CodeFix, items: list[Submission]
) -> dict[Path, GradeResult]:
    runnable = [i for i in items if not analyse(i.source).syntax_error]
    if not runnable:
        return {}
    try:
        reference = await grader.references.get(question, grader._trusted)
    except Exception:  # grade() alone then reports it as the "error" verdict it is
        return {}
    sources = [{"name": str(n), "code": i.source} for n, i in enumerate(runnable)]
    job: dict[str, Any] = {
        **contract_job(question),
        "sources": sources,
        "cpu_seconds": grader.limits.cpu_seconds * len(sources),
    }
    outcome = await grader.pool.run(job, grader.limits.wall_seconds * len(sources))
    runs = (outcome.result or {}).get("runs")
    if not isinstance(runs, list):  # a limit, a crash or a report too large: each alone instead
        return {}
    await replay_batch(grader, question.contract, reference.run, runs)
    return {
        item.path: judge(
            contract=question.contract,
            reference=reference.run,
            candidate=run,
            known=reference.known,
            facts=analyse(item.source),
            tolerance=tolerance_of(question),
        )
        for item, run in zip(runnable, runs, strict=True)
    }


async def replay_batch(
    grader: CodeGrader, contract: str, reference: dict[str, Any], runs: list[dict[str, Any]]
) -> None:
    """The graph scenarios of a whole batch replayed by one worker, as grade() replays one
    answer's (app/grading/code/replays.py): the batch's sources traced in one process, so
    their functions' names do not clash."""
    jobs = [replay_job(contract, grader.graph_seed, reference, run) for run in runs]
    batch = [job["scenarios"] if job else [] for job in jobs]
    if not any(batch):
        return
    job = {"contract": contract, "kind": "replay", "graph_seed": grader.graph_seed,
           "scenarios": [], "batch": batch}  # fmt: skip
    outcome = await grader.pool.run(job, grader.limits.wall_seconds * len(runs))
    replays = (outcome.result or {}).get("replays") or [None] * len(runs)
    stopped = "" if outcome.result else "the batch's replay stopped"
    for run, replayed in zip(runs, replays, strict=False):
        merge(run, reference, replayed if isinstance(replayed, list) else None, stopped)
