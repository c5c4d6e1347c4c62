"""Answer fields remembered per question view (issue 16): only the no-answer-yet rendering is
reused; a learner's answer is rendered fresh and never shown to anyone else."""

from __future__ import annotations

from app.config import REPO_ROOT
from app.packs.catalog import load_catalog
from app.services import questions
from app.web.templating import answer_fields, progress_meter, question_chips

FIXTURES = REPO_ROOT / "tests" / "packs" / "fixtures"


def test_a_learners_answer_is_never_remembered() -> None:
    question = questions.get_question(load_catalog([FIXTURES]), "mini-single")
    for _ in range(2):
        assert 'value="tape" checked' in answer_fields(question, "tape")
        assert "checked" not in answer_fields(question, None)


def test_a_code_answer_shows_only_to_its_request() -> None:
    question = questions.get_question(load_catalog([FIXTURES]), "mini-code")
    mine = answer_fields(question, "def train_step(): return 'mine'")
    assert "return &#39;mine&#39;" in mine
    assert "mine" not in answer_fields(question, None)


def test_a_new_catalog_renders_its_own_fields() -> None:
    first = questions.get_question(load_catalog([FIXTURES]), "mini-single")
    second = questions.get_question(load_catalog([FIXTURES]), "mini-single")
    second.choices[0].text = "A changed option"  # as a published edit would bring
    assert first is not second
    assert "A changed option" not in answer_fields(first, None)
    assert "A changed option" in answer_fields(second, None)
    assert "A changed option" not in answer_fields(first, None)


def test_chips_follow_the_question_view() -> None:
    first = questions.get_question(load_catalog([FIXTURES]), "mini-single")
    second = questions.get_question(load_catalog([FIXTURES]), "mini-single")
    second.topic = "changed-topic"  # as a published edit would bring
    assert "Changed topic" not in question_chips(first)
    assert "Changed topic" in question_chips(second)


def test_progress_meter_shows_the_position() -> None:
    assert 'aria-valuenow="50"' in progress_meter(1, 2)
    assert 'aria-valuenow="0"' in progress_meter(0, 3)
