"""Build the writers' prompts.md and the labellers' kit.md for a fresh free-text set.

Writers get only the ten prompts of the core pack's free-text questions; labellers get each
question's prompt, model answer and explanation and the misconception tags earlier
labellers used on it (mapped through meta/tag-map.yaml, with counts and a description).
The briefs are docs/labelling/WRITER.md and LABELLER.md.

    .venv/bin/python scripts/labelling/make_kits.py OUT_DIR
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.grading.freetext.evaluation import load_tag_map  # noqa: E402
from app.packs.shared import read_shared, resolve_references  # noqa: E402
from app.packs.yamlfiles import read_yaml  # noqa: E402

LABELLED = ROOT / "tests" / "grading" / "freetext_labelled"
PACK = ROOT / "questions" / "gradient-tape"


def main(out: Path) -> None:
    tag_map = load_tag_map(LABELLED / "meta" / "tag-map.yaml")
    files = sorted((LABELLED / "personas").glob("*.yaml")) + sorted(LABELLED.glob("*.yaml"))
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    described: dict[str, str] = {}
    questions: list[str] = []
    for path in files:
        data = yaml.safe_load(path.read_text())
        for tag, text in (data.get("new_tags") or {}).items():
            described.setdefault(tag, str(text))
        for answer in data["answers"]:
            question = answer.get("question") or data["question"]
            if question not in questions:
                questions.append(question)
            for tag in answer.get("misconceptions") or []:
                counts[question].update(tag_map.rubric_tags(question, tag))
    prompts, kit = ["# The ten prompts\n"], ["# Labelling kit\n"]
    shared, _ = read_shared(PACK)
    for qid in questions:
        doc = read_yaml(PACK / f"{qid}.yaml")
        resolve_references(doc, shared)  # round 51: `- shared: <tag>` entries, written out
        q = doc.data
        rubric_labels = {m["tag"]: m.get("label", "") for m in q["rubric"]["misconceptions"]}
        prompts.append(f"## {qid}\n\n{q['prompt'].strip()}\n")
        kit.append(
            f"## {qid}\n\n**Prompt.** {q['prompt'].strip()}\n\n"
            f"**Model answer.** {q['rubric']['model_answer'].strip()}\n\n"
            f"**Explanation.** {q['explanation'].strip()}\n\n"
            "**Tags earlier labellers used on this question** (count; belief):\n"
        )
        for tag, n in counts[qid].most_common():
            kit.append(f"- `{tag}` ({n}): {described.get(tag) or rubric_labels.get(tag, '')}")
        kit.append("")
    out.mkdir(parents=True, exist_ok=True)
    (out / "prompts.md").write_text("\n".join(prompts))
    (out / "kit.md").write_text("\n".join(kit))
    print(f"{out}/prompts.md, {out}/kit.md: {len(questions)} questions")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
