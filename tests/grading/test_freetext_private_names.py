"""No module reads another free-text module's private names (issue 14, round 20).

A `_name` is its module's own. Where another module needs it, it gets a public name in the
module that owns the concept (round 19: `phrasings.CUE`, `mask`; round 20:
`matching.is_foreign`, `claims.split_clauses`, `lemmas.is_base_verb`, ...), so that a
module's imports say what it depends on. The finder reads imports and attribute uses (and
`setattr(module, "_name", ...)`) in app/, tests/, benchmarks/ and scripts/.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import TypeGuard

import pytest

from app.config import REPO_ROOT

PACKAGE = "app.grading.freetext"
# Left in round 20: uses in modules other engineers own this round (L: neighbours and the
# tag classifier; M: chain and grader), and the package's name map, which its export test
# reads. A use removed may go from here; a new one may not be added.
LEFT = {
    ("app/grading/freetext/chain.py", f"{PACKAGE}.labelled_neighbours._suggested_row"),
    ("tests/grading/test_freetext_artefacts.py", f"{PACKAGE}._HOMES"),
    ("tests/grading/test_freetext_round9_verdicts.py", f"{PACKAGE}.grader._hits_for"),
}


def _dotted(node: ast.expr, names: dict[str, str]) -> str | None:
    """`a.b.c` with its first name read through the imports; None for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in names:
        return None
    return ".".join([names[node.id], *reversed(parts)])


def _imported(tree: ast.Module) -> tuple[dict[str, str], list[str]]:
    """Local name -> what it is bound to; and every name imported from the package."""
    names: dict[str, str] = {}
    taken: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGE):
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                taken.append(f"{node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                names[local] = alias.name if alias.asname else local
    return names, taken


def private_uses(source: str, own: str) -> set[str]:
    """Each `module._name` of the package that the source imports or reads, where the
    module is not the source's own."""
    tree = ast.parse(source)
    names, used = _imported(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            used.append(_dotted(node, names) or "")
        elif _sets_attribute(node):
            target, name = node.args[:2]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                used.append(f"{_dotted(target, names) or ''}.{name.value}")
    return {u for u in used if _private_of_another(u, own)}


def _sets_attribute(node: ast.AST) -> TypeGuard[ast.Call]:
    """`setattr(module, "name", ...)`, `monkeypatch.setattr(module, "name", ...)`."""
    if not isinstance(node, ast.Call) or len(node.args) < 2:
        return False
    called = node.func
    return getattr(called, "attr", getattr(called, "id", "")) == "setattr"


def _private_of_another(use: str, own: str) -> bool:
    module, _, name = use.rpartition(".")
    private = name.startswith("_") and not name.startswith("__")
    return private and module.startswith(PACKAGE) and module != own


def _sources() -> Iterator[Path]:
    for folder in ("app", "tests", "benchmarks", "scripts"):
        yield from sorted((REPO_ROOT / folder).rglob("*.py"))


def test_no_module_reads_another_free_text_modules_private_names() -> None:
    found = {
        (path.relative_to(REPO_ROOT).as_posix(), use)
        for path in _sources()
        for use in private_uses(
            path.read_text(encoding="utf-8"),
            ".".join(path.relative_to(REPO_ROOT).with_suffix("").parts),
        )
    }
    assert found <= LEFT, sorted(found - LEFT)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        (f"from {PACKAGE}.matching import _is_foreign", f"{PACKAGE}.matching._is_foreign"),
        (f"from {PACKAGE} import claims\nclaims._word_edged(x)", f"{PACKAGE}.claims._word_edged"),
        (
            f"import {PACKAGE}.polarity as p\np._REPORTED_FALSE",
            f"{PACKAGE}.polarity._REPORTED_FALSE",
        ),
        (f"import {PACKAGE}.conditions\n{PACKAGE}.conditions._past", f"{PACKAGE}.conditions._past"),
        (f"from {PACKAGE} import lemmas\nm.setattr(lemmas, '_KEEP', x)", f"{PACKAGE}.lemmas._KEEP"),
    ],
)
def test_private_uses_finds_each_way_a_private_name_is_read(source: str, found: str) -> None:
    assert private_uses(source, own="tests.grading.test_x") == {found}


@pytest.mark.parametrize(
    "source",
    [
        f"from {PACKAGE}.matching import is_foreign, Hit",  # public names
        f"from {PACKAGE} import claims\nclaims.split_clauses(x).__len__",
        f"from {PACKAGE}.matching import _FOREIGN",  # its own module
        "from app.grading.code.workers import _drain",  # not the free-text reader
        "import re\nre._compile",
    ],
)
def test_private_uses_leaves_public_own_and_other_names(source: str) -> None:
    assert private_uses(source, own=f"{PACKAGE}.matching") == set()
