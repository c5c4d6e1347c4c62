"""The pack schema's list of built-in contracts is exactly the worker's scenario table."""

from __future__ import annotations

import ast

from app.config import REPO_ROOT
from app.packs.schema import BUILTIN_CONTRACTS

SCENARIOS = REPO_ROOT / "app" / "grading" / "sandbox" / "worker" / "scenarios.py"


def _worker_contract_ids() -> set[str]:
    """Keys of `CONTRACTS = {...}`, read from the source: importing it would load TensorFlow."""
    for node in ast.walk(ast.parse(SCENARIOS.read_text())):
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "CONTRACTS" for t in targets):
                assert isinstance(node.value, ast.Dict)
                return {ast.literal_eval(key) for key in node.value.keys if key is not None}
    raise AssertionError("CONTRACTS not found in the worker's scenarios module")


def test_builtin_contracts_match_the_worker() -> None:
    assert set(BUILTIN_CONTRACTS) == _worker_contract_ids()
