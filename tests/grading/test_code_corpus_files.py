"""The labelled code corpus is well-formed: labels, citations, parseable answers, coverage.

The sandboxed test (tests/sandbox/test_code_corpus.py) grades it; this one keeps the files
honest without a sandbox: every submission has a label, a mistake, an idiom and a citation,
parses, and defines the function its question asks for, and the corpus covers each core
code question with both correct and wrong answers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from app.config import REPO_ROOT
from app.grading.code.corpus import LABELS, Submission, load

CORPUS = Path(__file__).resolve().parent / "code_corpus"
SUBMISSIONS = load(CORPUS)
PACK = REPO_ROOT / "questions" / "gradient-tape"


def function_of(qid: str) -> str:
    data = yaml.safe_load((PACK / f"{qid}.yaml").read_text())
    return str(data["function"]).split("(", 1)[0].strip()


def test_corpus_has_at_least_120_submissions() -> None:
    assert len(SUBMISSIONS) >= 120


@pytest.mark.parametrize("qid", sorted({s.question for s in SUBMISSIONS}))
def test_each_question_has_correct_and_wrong_answers(qid: str) -> None:
    labels = {s.label for s in SUBMISSIONS if s.question == qid}
    assert labels == set(LABELS)


@pytest.mark.parametrize("item", SUBMISSIONS, ids=[s.name for s in SUBMISSIONS])
def test_submission_header_is_complete(item: Submission) -> None:
    assert item.label in LABELS
    assert item.mistake and item.idiom and item.seen_in
    assert (item.mistake == "none") == (item.label == "correct")


@pytest.mark.parametrize("item", SUBMISSIONS, ids=[s.name for s in SUBMISSIONS])
def test_submission_defines_its_function(item: Submission) -> None:
    tree = ast.parse(item.source)
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert function_of(item.question) in names
