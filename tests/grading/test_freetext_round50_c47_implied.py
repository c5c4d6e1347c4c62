"""Round 50 of issue 14 (engineer C47): a tell implied by another tell plus a cue (`implied_by`).

Round 49 (C45) measured one pair the labels join on nearly every answer: an answer named
`gradient-twice-same-tape` that says "persistent" carries `persistent-gives-second-order` too
(56 of 57 such answers not read over tune at round 50's start, 117 of 118 read). It is a rubric
field, not code for one tag: a misconception may list `implied_by: [{tag, cue}]`, validated when
the pack loads (unknown tags, self-reference and cycles refused with the line to look at) and
read by the grader after the tells (the cue affirmed anywhere in the answer, prose or code, not
another framework's, not asked). A rubric without the field dumps as before, so the learned
artefacts' rubric keys of the other questions do not move (docs/freetext-rounds.md "Round 50:
persistent-tape, higher-order-derivatives, ... (engineer C47)").

Item 2 of the round, rubric content: persistent-tape's tape-discarded-on-block-exit read where the
tape is said to be scoped (tied, bound) to its with block (round 49's set, read), with the denials,
counterfactuals and questions beside it that name nothing. Read by the rules alone.
"""

# ruff: noqa: E501 - tables of sentences read best one per line

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from app.grading.freetext import grade_freetext
from app.grading.freetext.grader import stated_misconceptions
from app.grading.freetext.second_opinion import rubric_key
from app.packs.loader import load_pack
from app.packs.rubric import Rubric
from app.packs.schema import FreeText
from tests.conftest import FIXTURE_PACKS
from tests.grading.core_questions import assert_linear_on, question, tells_by_rules
from tests.grading.held_statements import names_the_tell

HOD = "higher-order-derivatives"
TWICE, PERSISTENT = "gradient-twice-same-tape", "persistent-gives-second-order"


def tell(tag: str, phrasing: str, *implied_by: tuple[str, str]) -> dict[str, Any]:
    implied = [{"tag": t, "cue": cue} for t, cue in implied_by]
    return {"tag": tag, "correction": "Not so.", "any": [phrasing], "implied_by": implied}


def rubric(*tells: dict[str, Any]) -> dict[str, Any]:
    return {
        "model_answer": "Nest two tapes.",
        "concepts": [{"id": "nest", "label": "nest two tapes", "any": ["nest\\w*"]}],
        "misconceptions": list(tells),
    }


TWICE_TELL = tell("twice", "calls? (tape\\.)?gradient twice")
IMPLIED = tell("persists", "persistence gives the second", ("twice", "persisten\\w*"))
CHAINED = tell("hessian", "hessian from one tape", ("persists", "hessians?"))


def test_a_rubric_with_implications_loads() -> None:
    loaded = Rubric.model_validate(rubric(TWICE_TELL, IMPLIED, CHAINED))
    assert [r.tag for r in loaded.misconceptions[1].implied_by] == ["twice"]
    assert loaded.misconceptions[2].implied_by[0].cue == "hessians?"


def test_a_rubric_without_implications_dumps_as_before() -> None:
    """The learned artefacts are keyed by the rubric's dump: a field no tell uses must not move
    the key of every rubric (only the rubric that uses it is retrained)."""
    plain = Rubric.model_validate(rubric(TWICE_TELL))
    assert "implied_by" not in plain.model_dump_json()
    assert "implied_by" in Rubric.model_validate(rubric(TWICE_TELL, IMPLIED)).model_dump_json()
    untouched = question("why-none-gradients").rubric
    assert "implied_by" not in untouched.model_dump_json()
    assert rubric_key(untouched) == rubric_key(Rubric.model_validate(untouched.model_dump()))


REFUSED = [
    ("unknown tag", rubric(TWICE_TELL, tell("persists", "persistence", ("thrice", "persistent"))), "is implied by 'thrice', which is no misconception tag of this rubric"),
    ("itself", rubric(tell("persists", "persistence", ("persists", "persistent"))), "misconception 'persists' is implied by itself"),
    ("two-cycle", rubric(tell("a", "aaa", ("b", "x")), tell("b", "bbb", ("a", "y"))), "implied_by goes round in a cycle: a <- b <- a"),
    ("three-cycle", rubric(tell("a", "aaa", ("c", "x")), tell("b", "bbb", ("a", "y")), tell("c", "ccc", ("b", "z"))), "cycle: a <- c <- b <- a"),
    ("negation in cue", rubric(TWICE_TELL, tell("persists", "persistence", ("twice", "not persistent"))), "contains a negation"),
    ("bad cue", rubric(TWICE_TELL, tell("persists", "persistence", ("twice", "(persistent"))), "invalid regular expression"),
    ("empty cue", rubric(TWICE_TELL, tell("persists", "persistence", ("twice", "x*"))), "matches the empty answer"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "data", "fragment"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_broken_implication_is_refused_readably(
    name: str, data: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(ValidationError) as refused:
        Rubric.model_validate(data)
    assert fragment in str(refused.value), name


def test_a_long_acyclic_web_of_implications_is_checked_quickly() -> None:
    """Many paths between two tells (each implied by the eight before it) are walked once each."""
    tells = [
        tell(f"t{i}", f"belief{i}", *((f"t{j}", "cue") for j in range(max(0, i - 8), i)))
        for i in range(48)
    ]
    assert len(Rubric.model_validate(rubric(*tells)).misconceptions) == 48


def _mini_with(tmp_path: Path, misconceptions: str) -> Path:
    folder = tmp_path / "mini"
    shutil.copytree(FIXTURE_PACKS / "mini", folder)
    path = folder / "mini-explain.yaml"
    path.write_text(path.read_text() + "  misconceptions:\n" + misconceptions)
    return folder


TELLS_YAML = """\
    - tag: twice
      correction: Not so.
      any: ['calls? (tape\\.)?gradient twice']
    - tag: persists
      correction: Not so.
      any: ['persistence gives the second']
      implied_by:
        - tag: {implying}
          cue: 'persisten\\w*'
"""


def test_the_loader_points_at_the_unknown_tag(tmp_path: Path) -> None:
    report = load_pack(_mini_with(tmp_path, TELLS_YAML.format(implying="thrice")))
    assert report.pack is None
    [problem] = report.problems
    assert Path(problem.file).name == "mini-explain.yaml"
    assert "is implied by 'thrice', which is no misconception tag" in problem.message
    assert problem.line == 24  # the implied_by entry's `tag:` line


def _mini_question(tmp_path: Path) -> FreeText:
    report = load_pack(_mini_with(tmp_path, TELLS_YAML.format(implying="twice")))
    assert report.pack is not None, report.problems
    found = next(q.question for q in report.pack.questions if q.question.id == "mini-explain")
    assert isinstance(found, FreeText)
    return found


def _named(q: FreeText, text: str) -> list[str]:
    result = grade_freetext(
        q, text, second_opinion=False, neighbours=False, tell_caps=False, tag_classifier=False
    )
    return list(result.misconceptions)


MINI_CASES = [
    ("The tape calls gradient twice. It is persistent, so that works.", ["twice", "persists"]),
    ("with tf.GradientTape(persistent=True) as tape:\n    y = f(x)\n\nThe tape calls gradient twice.", ["twice", "persists"]),
    ("The tape calls gradient twice. It is not persistent.", ["twice"]),
    ("The tape calls gradient twice. In PyTorch the graph is persistent with retain_graph.", ["twice"]),
    ("Is the tape persistent? The tape calls gradient twice.", ["twice"]),
    ("The tape is persistent, and nothing calls gradient more than once.", []),
]  # fmt: skip


@pytest.mark.parametrize(("text", "tags"), MINI_CASES)
def test_a_tell_is_implied_only_beside_its_tell_and_an_affirmed_cue(
    tmp_path: Path, text: str, tags: list[str]
) -> None:
    assert _named(_mini_question(tmp_path), text) == tags


def test_implications_chain_and_reach_the_interview_reading() -> None:
    tells = Rubric.model_validate(rubric(TWICE_TELL, IMPLIED, CHAINED)).misconceptions
    text = "The tape calls gradient twice and it is persistent. It gives the hessian too."
    stated = stated_misconceptions(text, tells)
    assert list(stated) == ["twice", "persists", "hessian"]
    assert stated["persists"] == stated["twice"]  # quoted from the implying tell's sentence
    assert list(stated_misconceptions("It is persistent. It gives the hessian.", tells)) == []


# The core pack: higher-order-derivatives' persistent-gives-second-order, implied by
# gradient-twice-same-tape where the answer makes the tape persistent (each fails on 9e2a1ea).
IMPLIED_IN_CORE = [
    (HOD, PERSISTENT, "Make the tape persistent. Call tape.gradient twice on the same tape to get the second derivative."),
    (HOD, PERSISTENT, "with tf.GradientTape(persistent=True) as tape:\n    y = x ** 3\n\nThen call tape.gradient twice on the same tape: the second call gives d2y/dx2."),
    # round 49's strict xfail (C45): the persistence and the second call across a clause cut
    (HOD, PERSISTENT, "Open one tape with persistent=True, compute y inside it, and then call gradient twice."),
]  # fmt: skip

test_round50_persistence_beside_a_same_tape_second_call_names_the_tell = names_the_tell(
    IMPLIED_IN_CORE, tells=tells_by_rules
)

# The same-tape belief beside a persistence denied, asked or of another framework: the implied
# tell is not named (the same-tape one is); and true statements that use the words name neither.
SAME_TAPE_ONLY = [
    "Do not make the tape persistent; call tape.gradient twice on the same tape to get the second derivative.",
    "Is a persistent tape needed? Call tape.gradient twice on the same tape to get the second derivative.",
    "Call tape.gradient twice on the same tape to get the second derivative, like retain_graph makes the graph persistent in PyTorch.",
]  # fmt: skip
NEITHER = [
    "Calling tape.gradient twice on one tape does not give the second derivative, even with persistent=True; nest two tapes.",
    "A non-persistent tape frees its recording after one call, so you cannot call gradient twice on it; use nested tapes.",
]  # fmt: skip


@pytest.mark.parametrize("text", SAME_TAPE_ONLY)
def test_round50_a_persistence_not_affirmed_implies_nothing(text: str) -> None:
    assert tells_by_rules(HOD, text) == [TWICE]


@pytest.mark.parametrize("text", NEITHER)
def test_round50_true_statements_with_the_words_name_neither(text: str) -> None:
    assert not {TWICE, PERSISTENT} & set(tells_by_rules(HOD, text))


def test_round50_a_keyword_salad_implies_nothing() -> None:
    salad = "persistent persistent=True gradient twice same tape second derivative hessian tape.gradient"
    assert not {TWICE, PERSISTENT} & set(tells_by_rules(HOD, salad))


# Item 2 of the round (rubric content): the tape said to be scoped (tied) to its with block, on
# persistent-tape (tape-discarded-on-block-exit; each fails on 9e2a1ea); denials, counterfactuals,
# questions and the recording's scope (true) name nothing.
PT = "persistent-tape"
SCOPED = [
    (PT, "tape-discarded-on-block-exit", "Each tape is scoped to its with block, so once you leave it there is nothing to clean up."),
    (PT, "tape-discarded-on-block-exit", "You need persistent=True for the second loss. Once finished there is nothing to do: the tape is tied to the with-block."),
]  # fmt: skip
SCOPED_NOT_STATED = [
    "The tape is not scoped to its with block: it lives on after the block until you del it.",
    "Recording is scoped to the with block, but the tape itself stays usable after it, so call del tape when finished.",
    "If the tape were scoped to its with block, you could not call tape.gradient after the block.",
    "Is the tape scoped to the with block? No, it survives until you delete it.",
]  # fmt: skip

test_round50_a_tape_scoped_to_its_block_names_the_tell = names_the_tell(
    SCOPED, tells=tells_by_rules
)


@pytest.mark.parametrize("text", SCOPED_NOT_STATED)
def test_round50_a_scope_denied_or_of_the_recording_names_nothing(text: str) -> None:
    assert tells_by_rules(PT, text) == []


def test_round50_scoped_phrasing_stays_linear_on_pumped_text() -> None:
    tell = next(
        m for m in question(PT).rubric.misconceptions if m.tag == "tape-discarded-on-block-exit"
    )
    patterns = [p for p in tell.any if "scoped" in p]
    assert patterns
    assert_linear_on(
        patterns, ["each tape is it tapes scoped tied bound to its the with block " * 250]
    )
