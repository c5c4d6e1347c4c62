"""The lead's round tools kept in scripts/labelling since round 53: two labellers' agreement and
splits, a held-out reading's unnamed tags by cause, and the writers' and labellers' briefs."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.grading.benchmark_scripts import load_script


def _labels(folder: Path, persona: str, answers: list[tuple[str, str, list[str]]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    rows = [
        {"question": q, "answer": f"answer {i}", "verdict": v, "misconceptions": tags}
        for i, (q, v, tags) in enumerate(answers)
    ]
    (folder / f"{persona}.yaml").write_text(yaml.safe_dump({"persona": persona, "answers": rows}))


def test_agreement_counts_verdicts_the_correct_line_and_renamed_tags(tmp_path: Path) -> None:
    agreement = load_script("scripts/labelling/label_agreement.py", "label_agreement")
    _labels(
        tmp_path / "A",
        "w",
        [("q1", "correct", []), ("q1", "partial", ["old-name"]), ("q2", "partial", ["x"])],
    )
    _labels(
        tmp_path / "B",
        "w",
        [("q1", "partial", []), ("q1", "partial", ["new-name"]), ("q2", "partial", ["x", "y"])],
    )
    found = agreement.compare(tmp_path / "A", tmp_path / "B", {"old-name": "new-name"})
    assert (found.answers, found.verdicts, found.correct_vs_not, found.same_tags) == (3, 2, 2, 2)
    assert [key for key, _, _ in found.splits] == ["w#0"]
    assert found.tag_differences == [("w#2", "q2", [], ["y"])]
    assert "verdicts 2/3, correct-vs-not 2/3, same tags 2/3, splits 1" in agreement.report(
        found, "splits", ("A", "B")
    )


def test_agreement_refuses_files_that_hold_different_answers(tmp_path: Path) -> None:
    agreement = load_script("scripts/labelling/label_agreement.py", "label_agreement")
    _labels(tmp_path / "A", "w", [("q1", "correct", [])])
    _labels(tmp_path / "B", "w", [("q1", "correct", []), ("q1", "correct", [])])
    with pytest.raises(SystemExit, match="1 against 2"):
        agreement.compare(tmp_path / "A", tmp_path / "B")


def test_the_gap_sorts_unnamed_tags_by_what_the_rubrics_know() -> None:
    gap = load_script("scripts/labelling/held_out_gap.py", "held_out_gap")
    rows = [
        {"persona": "p", "question": "q1", "expected": ["mine", "theirs", "nobodys"],
         "as shipped": {"tags": []}},
        {"persona": "p", "question": "q2", "expected": ["theirs"],
         "as shipped": {"tags": ["theirs"]}},
    ]  # fmt: skip
    cause, by_tag, by_question, _ = gap.causes(rows, {"q1": {"mine"}, "q2": {"theirs"}})
    assert cause == {"rubric knows": 1, "another's": 1, "new": 1}
    assert by_tag[("new", "nobodys")] == 1 and by_question == {"q1": 3}


def test_briefs_point_each_helper_at_its_own_files_only(tmp_path: Path) -> None:
    briefs = load_script("scripts/labelling/make_briefs.py", "make_briefs")
    round_dir = tmp_path / "r9"
    round_dir.mkdir()
    (round_dir / "personas.md").write_text("**first-writer**: one.\n\n**second-writer**: two.\n")
    written = {path.name: path.read_text() for path in briefs.write_briefs(round_dir, ("L1", "L2"))}
    first = written["writer-first-writer.md"]
    assert f"{round_dir}/writers/first-writer.yaml" in first and first.endswith(
        "**first-writer**: one.\n"
    )
    assert "second-writer.yaml" not in first
    second_labeller = written["labeller-L2.md"]
    assert f"{round_dir}/labels/L2/" in second_labeller and f"{round_dir}/kit.md" in second_labeller
    # the second labeller reads the writers' files in reverse order
    assert second_labeller.index("second-writer.yaml") < second_labeller.index("first-writer.yaml")
