"""Parse time of the built-in packs' YAML files: app/packs/yamlfiles.parse_yaml (libyaml, one
parse) beside the pure-Python three-pass read it replaced, measured in the same run.

    .venv/bin/python benchmarks/pack_yaml.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.packs import yamlfiles  # noqa: E402


def three_pure_passes(text: str) -> object:
    """The read before: depth scan, compose to check, then load again, all pure Python."""
    for _ in yaml.scan(text, Loader=yaml.SafeLoader):
        pass
    yaml.compose(text, Loader=yaml.SafeLoader)
    return yaml.safe_load(text)


def timed(parse: object, texts: list[str], repeat: int) -> tuple[float, list[object]]:
    best, out = float("inf"), []
    for _ in range(repeat):
        started = time.process_time()
        out = [parse(text) for text in texts]  # type: ignore[operator]
        best = min(best, time.process_time() - started)
    return best, out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    paths = sorted((ROOT / "questions").rglob("*.yaml"))
    texts = [path.read_text(encoding="utf-8") for path in paths]
    before, old = timed(three_pure_passes, texts, args.repeat)
    after, new = timed(lambda text: yamlfiles.parse_yaml(text).data, texts, args.repeat)
    chars = sum(map(len, texts))
    print(f"loader: {yamlfiles.LOADER.__name__}; {len(texts)} files, {chars:,} chars")
    print(f"three pure-Python passes: {before * 1000:.0f} ms CPU (best of {args.repeat})")
    print(f"parse_yaml:               {after * 1000:.0f} ms CPU (best of {args.repeat})")
    print(f"ratio before / after, same run: {before / after:.1f}x; same data: {old == new}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
