"""GIFT import on hostile text at the size limit (MAX_IMPORT_CHARS), against an honest baseline.

Baseline, in the same run: the built-in pack exported to GIFT and imported back. Each case
is the best of 3 (the machine is shared).

    .venv/bin/python benchmarks/gift_import.py
"""

from __future__ import annotations

import time

from app.config import REPO_ROOT
from app.packs.loader import load_pack
from app.services.instructor.gift import MAX_IMPORT_CHARS, export_pack, import_gift

UNITS = [
    "::{", "{", "::a", "\\", "{=a#", "{~=", "{~%1", "{~a####", "\n ", "{}", "{~a}",
    "{~a#b#}", "{~=a}\n\n", "x{=a~b}\n\n",
]  # fmt: skip
SHAPED = {  # one long run between a prefix and a suffix
    "hash run": ("{~a", "#", "}"),
    "escaped hashes": ("{~a", "\\#", "}"),
    "percent run": ("{~", "%", "}"),
    "escaped colons in a title": ("::", "\\:", ""),
    "escaped tildes": ("{=", "\\~", "~}"),
    "single colons in a title": ("::", ":a", ""),
    "hash quads": ("{~a", "####", "}"),
}


def fill(prefix: str, unit: str, suffix: str) -> str:
    room = MAX_IMPORT_CHARS - len(prefix) - len(suffix)
    return prefix + unit * (room // len(unit)) + suffix


def best_ms(text: str) -> float:
    times = []
    for _ in range(3):
        started = time.perf_counter()
        import_gift(text)
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def main() -> None:
    report = load_pack(REPO_ROOT / "questions" / "gradient-tape")
    assert report.pack is not None
    honest = export_pack(report.pack)
    print(f"baseline: built-in pack as GIFT ({len(honest):,} chars): {best_ms(honest):.1f} ms")
    for unit in UNITS:
        text = (unit * (MAX_IMPORT_CHARS // len(unit) + 1))[:MAX_IMPORT_CHARS]
        print(f"{unit!r:>26} repeated, {len(text):,} chars: {best_ms(text):6.1f} ms")
    for name, shape in SHAPED.items():
        text = fill(*shape)
        print(f"{name:>26}, {len(text):,} chars: {best_ms(text):6.1f} ms")


if __name__ == "__main__":
    main()
