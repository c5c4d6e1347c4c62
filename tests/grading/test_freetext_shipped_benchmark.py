"""benchmarks/freetext_shipped.py: the held-out reading as learners are graded, and its guard."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from app.config import REPO_ROOT
from tests.grading.benchmark_scripts import load_benchmark

SCRIPT = str(REPO_ROOT / "benchmarks" / "freetext_shipped.py")


@dataclass(frozen=True)
class Done:
    returncode: int
    stdout: str
    stderr: str


def run(*args: str) -> Done:
    """The script's main() in this process (round 25: a subprocess paid the imports, the pack,
    the labelled files, the neighbours' index and every phrasing's compile again, ~3.5 min
    under load, and proved nothing more: the script is plain Python over app's modules)."""
    argv, path = sys.argv, list(sys.path)  # the script puts the repository on sys.path
    module = load_benchmark("freetext_shipped.py", "benchmark_freetext_shipped")
    out, err = io.StringIO(), io.StringIO()
    sys.argv = [SCRIPT, *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = module.main()
    except SystemExit as exit_:  # argparse's refusals
        code = exit_.code
    finally:
        sys.argv, sys.path[:] = argv, path
    return Done(int(code or 0), out.getvalue(), err.getvalue())


def held_out_persona() -> str:
    """A persona of the newest final set, which is held out until a newer one exists; the
    development hold-out's between a round's start (the last set joined `tune`) and its new
    set's commit."""
    sides = yaml.safe_load(
        (REPO_ROOT / "tests/grading/freetext_labelled/meta/sides.yaml").read_text()
    )
    newest = max((key for key in sides if key.startswith("final_")), key=round_of)
    held = [p for p in sides[newest] if p not in sides["tune"]]
    return (held or sides["dev_heldout"])[0]


def round_of(set_name: str) -> int:
    return int(set_name.rsplit("_r", 1)[1])


def test_reads_one_held_out_persona_both_ways(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    persona = held_out_persona()
    done = run("--persona", persona, "--repeat", "1", "--json", str(out))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    rows = json.loads(out.read_text())
    assert rows and {r["persona"] for r in rows} == {persona}
    assert any(line.startswith(f"rules alone  n={len(rows)} exact ") for line in lines)
    assert any(line.startswith(f"as shipped   n={len(rows)} exact ") for line in lines)
    assert "p50 as shipped / rules alone, same run: " in done.stdout
    assert {r["as shipped"]["verdict"] for r in rows} <= {"correct", "partial", "incorrect"}


def test_refuses_tune_personas_and_unknown_sets() -> None:
    tuned = run("--persona", "terse-expert")
    assert tuned.returncode == 2 and "in-sample" in tuned.stderr
    unknown = run("--set", "final_no_such_set")
    assert unknown.returncode == 2 and "no such set" in unknown.stderr
