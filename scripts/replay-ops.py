"""Every op the graphs of known training steps trace: the source of the replay's allowlist.

Runs, outside the sandbox (trusted sources only: the core pack's references and known-wrong
solutions, the labelled public-idiom corpus, the golden cases), each source's "tf.function"
scenarios exactly as the worker does, decodes the graphs it would export for the replay
(worker/replay.py) and prints every op name with the number of sources that use it, then the
names not yet in `replay_ops.ALLOWED_OPS`. Each source runs in the same process, one after
another, as a corpus batch does. Needs TensorFlow (the venv), ~2-4 CPU-minutes.

    PYTHONPATH=. .venv/bin/python scripts/replay-ops.py [--python-list]
"""

from __future__ import annotations

import base64
import os
import sys
import zlib
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def sources() -> list[tuple[str, str, str]]:
    """(contract, name, source) of every trusted source that defines a core contract's step."""
    pack = ROOT / "questions" / "gradient-tape"
    contracts, found = {}, []
    for path in sorted(pack.glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        if data.get("contract") and not data.get("checker"):
            contracts[path.stem] = data["contract"]
            codes = [data["reference"], *(w["code"] for w in data.get("wrong", []))]
            found += [(data["contract"], f"pack/{path.stem}/{i}", c) for i, c in enumerate(codes)]
    for folder in ("tests/grading/code_corpus", "tests/grading/cases/code"):
        for path in sorted((ROOT / folder).glob("*/*.py.txt")):
            contract = contracts.get(path.parent.name, path.parent.name)
            found.append((contract, f"{folder}/{path.parent.name}/{path.name}", path.read_text()))
    return found


def ops_of(export: dict) -> set[str]:
    from tensorflow.core.framework import function_pb2

    text = "".join(export.get("library", []))
    library = function_pb2.FunctionDefLibrary.FromString(zlib.decompress(base64.b64decode(text)))
    return {node.op for fdef in library.function for node in fdef.node_def}


def main() -> None:
    os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
    from app.grading.sandbox.worker import __main__ as worker
    from app.grading.sandbox.worker import runner
    from app.grading.sandbox.worker.replay_ops import ALLOWED_OPS

    items = sources()
    worker.warm_up(sorted({c for c, _, _ in items}), step=False)
    used: Counter[str] = Counter()
    for contract, name, source in items:
        run = runner.run_source(contract, source)
        seen: set[str] = set()
        for scenario in run["scenarios"]:
            if "library" in scenario.get("export", {}):
                seen |= ops_of(scenario["export"])
        used.update(seen)
        print(f"{name}: {len(seen)} ops", file=sys.stderr, flush=True)
    print(f"{len(items)} sources, {len(used)} ops")
    for op, count in sorted(used.items()):
        print(f"  {op:<40}{count:>5}")
    print("not allowed:", sorted(set(used) - ALLOWED_OPS) or "none")
    if "--python-list" in sys.argv:
        print(repr(sorted(used)))


if __name__ == "__main__":
    main()
