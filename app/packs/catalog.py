"""All loaded packs behind one index, so every question id resolves to exactly one question.

Ids are public contracts (URLs, attempts, interview reports), so a duplicate id across packs
is a load problem, not a silent override.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from app.packs.loader import LoadedQuestion, Pack, Problem, load_pack


@dataclass
class Catalog:
    packs: dict[str, Pack] = field(default_factory=dict)
    questions: dict[str, LoadedQuestion] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def add(self, pack: Pack) -> list[Problem]:
        """Add a valid pack unless its id or a question id is taken; return the clashes."""
        clashes = []
        if pack.meta.id in self.packs:
            clashes.append(Problem(str(pack.path), 1, f"pack id {pack.meta.id!r} already loaded"))
        for item in pack.questions:
            owner = self.questions.get(item.question.id)
            if owner is not None:
                message = f"question id {item.question.id!r} already used by pack {owner.pack_id!r}"
                clashes.append(Problem(str(item.file), 1, message))
        if not clashes:
            self.packs[pack.meta.id] = pack
            self.questions.update({item.question.id: item for item in pack.questions})
        return clashes


def pack_folders(root: Path) -> list[Path]:
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / "pack.yaml").exists())


def load_catalog(roots: list[Path]) -> Catalog:
    """Load every pack folder under the given roots; broken packs are reported and skipped."""
    catalog = Catalog()
    for root in roots:
        for folder in pack_folders(root):
            report = load_pack(folder)
            catalog.problems.extend(report.problems)
            if report.pack is not None:
                catalog.problems.extend(catalog.add(report.pack))
    return catalog
