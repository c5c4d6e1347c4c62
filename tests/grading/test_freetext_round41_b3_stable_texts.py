"""Benchmark texts that do not move when the rubric moves (round 41, engineer B3).

Round 40's lead reading found benchmarks/freetext_shuffles.py and freetext_hostile.py drawing
their texts from one generator that writing the rubric's phrasings out also used up: a new
phrasing on one question redrew its shuffles and hostile answers, and "graded correct 15 -> 17"
on shuffles came from redrawn texts. Each text now has a generator of its own (benchmarks/
_texts.keyed), and `--save` / `--texts` / `--compare` grade a start's exact texts on an end's tree.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.packs.schema import FreeText
from benchmarks._texts import TextsFileError, load_records, moved
from tests.grading.benchmark_scripts import load_benchmark
from tests.grading.core_questions import free_text_ids, question

HOSTILE = load_benchmark("freetext_hostile.py", "freetext_hostile")
SHUFFLES = load_benchmark("freetext_shuffles.py", "freetext_shuffles")
EDITED = "gradient-vs-apply"
# Branches, so that writing it out draws from a generator (one shared stream used to advance).
ADDED = r"(the )?(tape|recorder) (keeps|stores|holds) (the )?(ops|operations)"


def _with_a_phrasing_added(q: FreeText, to: str = "concept") -> FreeText:
    """`q` with ADDED appended to its last concept's (or tell's) phrasings. Before round 41 a
    concept's redrew four random hostile shapes and 46-84 of the question's 96 shuffles (the model
    answer's too); a tell's redrew two to six hostile shapes."""
    field = "concepts" if to == "concept" else "misconceptions"
    items = list(getattr(q.rubric, field))
    items[-1] = items[-1].model_copy(update={"any": [*items[-1].any, ADDED]})
    return q.model_copy(update={"rubric": q.rubric.model_copy(update={field: items})})


def _pack(edited: str, to: str) -> list[FreeText]:
    qs = [question(i) for i in free_text_ids()]
    return [_with_a_phrasing_added(q, to) if q.id == edited else q for q in qs]


@pytest.mark.parametrize("to", ["concept", "tell"])
@pytest.mark.parametrize("edited", free_text_ids())
def test_an_added_phrasing_redraws_only_its_questions_phrasings_shuffles(
    edited: str, to: str
) -> None:
    before = [r for q in _pack("", to) for r in SHUFFLES.shuffles(q, 2)]
    after = [r for q in _pack(edited, to) for r in SHUFFLES.shuffles(q, 2)]
    redrawn = {
        (b["question"], b["vocabulary"], b["rubric_built"])
        for b, a in zip(before, after, strict=True)
        if b != a
    }
    # Shuffles are drawn from the concept phrasings only: a tell's phrasing redraws none.
    assert redrawn == ({(edited, "phrasings", True)} if to == "concept" else set())


@pytest.mark.parametrize("to", ["concept", "tell"])
@pytest.mark.parametrize("edited", free_text_ids())
def test_an_added_phrasing_leaves_every_hostile_text_not_built_from_the_rubric(
    edited: str, to: str
) -> None:
    q = question(edited)
    before, after = HOSTILE.shapes(q), HOSTILE.shapes(_with_a_phrasing_added(q, to))
    assert before.keys() == after.keys()
    changed = {name for name in before if before[name] != after[name]}
    assert "every rubric phrasing" in changed
    assert changed <= HOSTILE.RUBRIC_BUILT


def test_an_added_phrasing_writes_its_own_sentence_and_rewrites_no_other() -> None:
    q = question(EDITED)
    before = HOSTILE.phrasing_sentences(q, tells=True)
    after = HOSTILE.phrasing_sentences(_with_a_phrasing_added(q), tells=True)
    assert len(after) == len(before) + 1
    added = [s for s in after if s not in before]
    assert len(added) == 1 and [s for s in after if s != added[0]] == before


def test_saved_shuffles_load_and_grade_as_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drawn = SHUFFLES.shuffles(question(EDITED), 1)[:3]
    start, end = tmp_path / "start.json", tmp_path / "end.json"
    start.write_text(json.dumps(drawn))
    SHUFFLES.main(["--texts", str(start), "--save", str(end)])
    graded = json.loads(end.read_text())
    assert [r["text"] for r in graded] == [r["text"] for r in drawn]
    assert graded[0]["rules"] == SHUFFLES.graded(question(EDITED), drawn[0]["text"], False)["rules"]
    SHUFFLES.main(["--texts", str(end), "--compare", str(end)])
    out = capsys.readouterr().out
    assert "0 of 3 shuffles redrawn since saved" in out
    assert "moved since saved, rules, same text: 0" in out
    assert "embedding" not in out  # not graded in this run, so nothing said of it


def test_saved_hostile_texts_load_and_grade(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drawn = HOSTILE.drawn_texts([question(EDITED)])[:3]
    start, end = tmp_path / "start.json", tmp_path / "end.json"
    start.write_text(json.dumps(drawn))
    args = ["--texts", str(start), "--repeat", "1", "--rules-only", "--slow-ms", "1e9"]
    HOSTILE.main([*args, "--save", str(end)])
    graded = json.loads(end.read_text())
    assert [(r["shape"], r["text"]) for r in graded] == [(r["shape"], r["text"]) for r in drawn]
    assert all(r["verdict"] in ("correct", "partial", "incorrect") for r in graded)
    HOSTILE.main([*args, "--compare", str(end)])
    out = capsys.readouterr().out
    assert "0 of 3 texts redrawn" in out and "verdicts moved, same text: 0" in out


def test_verdicts_moved_are_split_by_whether_the_text_was_redrawn() -> None:
    key = ("question", "shape")
    saved = [
        {"question": "q", "shape": "a", "text": "same", "verdict": "partial"},
        {"question": "q", "shape": "b", "text": "old", "verdict": "partial"},
        {"question": "q", "shape": "c", "text": "old", "verdict": "partial"},
    ]
    now = [
        {"question": "q", "shape": "a", "text": "same", "verdict": "correct"},
        {"question": "q", "shape": "b", "text": "new", "verdict": "incorrect"},
        {"question": "q", "shape": "c", "text": "new", "verdict": "partial"},
    ]
    by, redrawn = moved(saved, now, key, "verdict")
    assert redrawn == 2
    assert [(r["shape"], r["now"]) for r in by["same text"]] == [("a", "correct")]
    assert [(r["shape"], r["now"]) for r in by["redrawn"]] == [("b", "incorrect")]


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "cannot read it"),
        ("{not json", "not a JSON file"),
        ('{"texts": []}', "expected a non-empty JSON list"),
        ("[]", "expected a non-empty JSON list"),
        ('["a text"]', "record 1 is not a JSON object"),
        ('[{"question": "gradient-vs-apply", "shape": "x"}]', "record 1 lacks text"),
        ('[{"question": "gradient-vs-apply", "shape": "x", "text": 3}]', "text is not a string"),
        ('[{"question": "nope", "shape": "x", "text": "t"}]', "question 'nope', not in the core"),
    ],
)
def test_a_bad_texts_file_says_why(tmp_path: Path, content: str | None, says: str) -> None:
    path = tmp_path / "texts.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(TextsFileError, match=says):
        load_records(path, ("question", "shape", "text"), free_text_ids())


def test_a_bad_texts_file_stops_the_benchmark_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(HOSTILE.drawn_texts([question(EDITED)])[:1]))
    with pytest.raises(SystemExit) as stopped:
        SHUFFLES.main(["--texts", str(hostile)])
    assert stopped.value.code == 2
    assert "record 1 lacks vocabulary, length, seed" in capsys.readouterr().err
