"""Load a script under benchmarks/ or scripts/ as a module, so a test can call its functions
in-process (the scripts are not a package the tests import; tests had their own loaders)."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from app.config import REPO_ROOT


def load_benchmark(script: str, module_name: str) -> ModuleType:
    """benchmarks/`script` as the module `module_name`."""
    return load_script(f"benchmarks/{script}", module_name)


def load_script(path: str, module_name: str) -> ModuleType:
    """The script at `path` (from the repository's root, e.g. scripts/labelling/...) as the
    module `module_name` (registered in sys.modules: dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location(module_name, REPO_ROOT / path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
