"""Execute predict-output snippets for real and report what each printed or raised.

The predict-output test must not import TensorFlow itself (the web side never does, and
one import is the slow part), so it starts this script once for all snippets. Input: a
JSON list of {"id", "code"} on stdin. Output: a JSON object {id: {"stdout", "raises"}}
written to the path in argv[1], because TensorFlow may write noise to the real stdout.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import runpy
import sys
import tempfile
import warnings
from pathlib import Path

# Quieter TensorFlow start-up; must be set before any snippet imports it.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def run_snippet(code: str, folder: Path, snippet_id: str) -> dict[str, str | None]:
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
    snippets = json.load(sys.stdin)
    with tempfile.TemporaryDirectory() as tmp:
        results = {s["id"]: run_snippet(s["code"], Path(tmp), s["id"]) for s in snippets}
    Path(sys.argv[1]).write_text(json.dumps(results), encoding="utf-8")


if __name__ == "__main__":
    main()
