"""Execute pack snippets for real and report what each printed or raised.

Tests that check pack claims about TensorFlow must not import TensorFlow themselves (the
web side never does, and the import is the slow part), so they call `run_snippets`, which
starts this file once as a script for all snippets. The script reads a JSON list of
{"id", "code"} on stdin and writes {id: {"stdout", "raises"}} to the path in argv[1],
because TensorFlow may write noise to the real stdout.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import runpy
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

RUN_TIMEOUT_S = 180


@dataclass(frozen=True)
class Outcome:
    """What a snippet did: its stripped stdout and the type name of what it raised."""

    stdout: str = ""
    raises: str | None = None


def run_snippets(snippets: dict[str, str], workdir: Path) -> dict[str, Outcome]:
    """Run every snippet in one fresh interpreter; keys are snippet ids."""
    result_file = workdir / "results.json"
    payload = json.dumps([{"id": key, "code": code} for key, code in snippets.items()])
    subprocess.run(
        [sys.executable, __file__, str(result_file)],
        input=payload,
        text=True,
        capture_output=True,
        timeout=RUN_TIMEOUT_S,
        check=True,
    )
    raw = json.loads(result_file.read_text(encoding="utf-8"))
    return {key: Outcome(r["stdout"].strip(), r["raises"]) for key, r in raw.items()}


def _run_one(code: str, folder: Path, snippet_id: str) -> dict[str, str | None]:
    """Run one snippet from a real file (autograph needs source) and capture its outcome."""
    path = folder / f"{snippet_id.replace('-', '_')}.py"
    path.write_text(code, encoding="utf-8")
    out = io.StringIO()
    raises: str | None = None
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            runpy.run_path(str(path), run_name="__main__")
        except Exception as exc:  # the outcome under test, not a failure of the runner
            raises = type(exc).__name__
    return {"stdout": out.getvalue(), "raises": raises}


def main() -> None:
    # Quieter TensorFlow start-up; must be set before any snippet imports it.
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    snippets = json.load(sys.stdin)
    with tempfile.TemporaryDirectory() as tmp:
        results = {s["id"]: _run_one(s["code"], Path(tmp), s["id"]) for s in snippets}
    Path(sys.argv[1]).write_text(json.dumps(results), encoding="utf-8")


if __name__ == "__main__":
    main()
