"""Writers' and labellers' briefs for a fresh free-text set, with their paths filled in (issue 14).

ROUND_DIR holds `personas.md` (one `**persona-id**: paragraph` per writer) and the prompts and
kit `make_kits.py ROUND_DIR` wrote. Each writer's brief is docs/labelling/WRITER.md pointing at
the prompts and its own output file, with its persona appended; each labeller's is LABELLER.md
pointing at the kit, the writers' files (the second labeller reads them in reverse order) and
its own labels folder. The briefs go next to ROUND_DIR. The lead's tool, kept in the repository
since round 53.

    .venv/bin/python scripts/labelling/make_briefs.py ROUND_DIR FIRST_LABELLER SECOND_LABELLER
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs" / "labelling"


def _filled(text: str, old: str, new: str) -> str:
    if old not in text:
        raise SystemExit(f"the brief no longer says {old!r}: update make_briefs.py")
    return text.replace(old, new)


def write_briefs(round_dir: Path, labellers: tuple[str, str]) -> list[Path]:
    personas = re.findall(
        r"^\*\*([a-z0-9-]+)\*\*: (.*)$", (round_dir / "personas.md").read_text(), re.M
    )
    if not personas:
        raise SystemExit(f"{round_dir / 'personas.md'}: no '**persona-id**: ...' paragraphs")
    out = round_dir.parent
    written = []
    writer = _filled(
        (DOCS / "WRITER.md").read_text(),
        "`prompts.md (the ten prompts)`",
        f"`{round_dir}/prompts.md` (the ten prompts)",
    )
    for persona, text in personas:
        body = _filled(writer, "`writers/<persona>.yaml`", f"`{round_dir}/writers/{persona}.yaml`")
        written.append(out / f"writer-{persona}.md")
        written[-1].write_text(body.rstrip() + f"\n\n**{persona}**: {text}\n")
    files = [f"{round_dir}/writers/{persona}.yaml" for persona, _ in personas]
    labeller = _filled(
        (DOCS / "LABELLER.md").read_text(),
        "the labelling kit",
        f"the labelling kit `{round_dir}/kit.md`",
    )
    for name, order in zip(labellers, (files, files[::-1]), strict=True):
        listed = "\n".join(f"- `{path}`" for path in order)
        body = _filled(
            labeller, "the writers' files.", f"the writers' files, in this order:\n{listed}\n"
        )
        body = _filled(body, "`labels/<YOUR-ID>/`", f"`{round_dir}/labels/{name}/`")
        written.append(out / f"labeller-{name}.md")
        written[-1].write_text(body.rstrip() + f"\n\nYour labeller id: {name}.\n")
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("round_dir", type=Path)
    parser.add_argument("labellers", nargs=2)
    args = parser.parse_args()
    for path in write_briefs(args.round_dir.resolve(), tuple(args.labellers)):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
