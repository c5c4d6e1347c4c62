"""Round 52 (S2): the 27 tags round 51's union table found ready to share are entries of the
core pack's `_misconceptions.yaml`, referred to by every question that held a copy, so a
phrasing one question's copy had now reads on the others too."""

from __future__ import annotations

import pytest

from app.grading.freetext.grader import grade_freetext
from app.packs.loader import load_pack
from app.packs.schema import FreeText
from app.packs.shared import read_shared
from app.packs.yamlfiles import parse_yaml
from tests.conftest import CORE_PACK

CONVERTED = {  # tag -> the questions that refer to it (round 51's copies)
    "accumulators-never-reset": {"gradient-accumulation"},  # no-zero-grad kept apart (below)
    "apply-calls-minimize": {"gradient-accumulation", "gradient-vs-apply"},
    "apply-clips-by-default": {"gradient-accumulation", "gradient-vs-apply"},
    "apply-needs-compile": {
        "gradient-accumulation", "gradient-vs-apply", "trainable-vs-all-variables"
    },
    "apply-needs-global-step": {"gradient-accumulation", "gradient-vs-apply"},
    "apply-takes-name-dict": {
        "gradient-accumulation", "gradient-vs-apply", "no-zero-grad", "trainable-vs-all-variables"
    },
    "bn-gamma-beta-non-trainable": {"trainable-vs-all-variables", "training-flag"},
    "del-tape-every-step": {"gradient-accumulation", "no-zero-grad"},
    "from-logits-enables-gradients": {"numpy-inside-tape", "why-none-gradients"},
    "gradient-is-stochastic-estimate": {"higher-order-derivatives", "persistent-tape"},
    "gradient-scalar-per-layer": {"gradient-accumulation", "gradient-vs-apply"},
    "loss-outside-is-fine": {"gradient-accumulation", "why-none-gradients"},
    "none-gradient-crashes-apply": {"gradient-vs-apply", "trainable-vs-all-variables"},
    "numpy-dtype-breaks-gradient": {"numpy-inside-tape", "why-none-gradients"},
    "omitted-flag-returns-numpy": {"training-flag", "why-none-gradients"},
    "only-loss-must-be-tensor": {"numpy-inside-tape", "why-none-gradients"},
    "optimizer-is-stateless": {"gradient-accumulation", "gradient-vs-apply", "no-zero-grad"},
    "optimizer-normalizes-by-batch-size": {"gradient-accumulation", "gradient-vs-apply"},
    "optimizer-stores-accumulated-gradients": {"gradient-accumulation", "no-zero-grad"},
    "recreate-optimizer-resets": {"gradient-accumulation", "no-zero-grad"},
    "retain-graph-flag": {"higher-order-derivatives", "persistent-tape"},
    "stateful-rng-gives-none": {"training-flag", "why-none-gradients"},
    "tape-close-method": {"gradient-accumulation", "higher-order-derivatives", "persistent-tape"},
    "tape-ignores-fp16-variables": {"trainable-vs-all-variables", "why-none-gradients"},
    "tape-tracks-only-variables-created-inside": {"numpy-inside-tape", "why-none-gradients"},
    "tape-watches-all-tensors": {
        "higher-order-derivatives", "numpy-inside-tape", "why-none-gradients"
    },
    "unconnected-zero-fixes": {"numpy-inside-tape", "why-none-gradients"},
}  # fmt: skip


# Round 52's merge: the union's phrasings named the true "nothing needs to reset them" on
# no-zero-grad (tests/grading/test_freetext_round8_matching.py), so that copy stays inline.
KEPT_APART = {("no-zero-grad", "accumulators-never-reset")}


def test_each_converted_tag_is_defined_once_and_every_former_copy_refers_to_it() -> None:
    shared, problems = read_shared(CORE_PACK)
    assert problems == []
    assert set(CONVERTED) <= set(shared.entries)
    referring: dict[str, set[str]] = {tag: set() for tag in CONVERTED}
    for path in sorted(CORE_PACK.glob("*.yaml")):
        data = parse_yaml(path.read_text()).data or {}
        for tell in data.get("rubric", {}).get("misconceptions", []) if "rubric" in data else []:
            copy = (path.stem, tell.get("tag"))
            assert tell.get("tag") not in CONVERTED or copy in KEPT_APART, copy  # no copy left
            if tell.get("shared") in CONVERTED:
                referring[tell["shared"]].add(path.stem)
    assert referring == CONVERTED


def test_a_reference_keeps_its_former_cap_where_the_copies_differed() -> None:
    pack = load_pack(CORE_PACK).pack
    assert pack is not None
    caps = {
        (item.question.id, tell.tag): tell.cap
        for item in pack.questions
        if isinstance(item.question, FreeText)
        for tell in item.question.rubric.misconceptions
    }
    assert caps["gradient-accumulation", "accumulators-never-reset"] == "incorrect"
    assert caps["no-zero-grad", "accumulators-never-reset"] == "partial"


@pytest.mark.parametrize(
    ("question_id", "answer", "tag"),
    [
        (  # persistent-tape's copy's wording, read on higher-order-derivatives now
            "higher-order-derivatives",
            "Nest nothing: in TensorFlow you pass retain_graph=True to the first gradient call"
            " and then call it again for the second derivative.",
            "retain-graph-flag",
        ),
        (  # why-none-gradients's copy's wording, read on numpy-inside-tape now
            "numpy-inside-tape",
            "Honestly the loss is tf.Tensor -> gradients ok, so numpy in between does not matter.",
            "only-loss-must-be-tensor",
        ),
    ],
)
def test_a_phrasing_of_one_former_copy_names_the_tag_on_another_question(
    question_id: str, answer: str, tag: str
) -> None:
    pack = load_pack(CORE_PACK).pack
    assert pack is not None
    (question,) = [i.question for i in pack.questions if i.question.id == question_id]
    assert isinstance(question, FreeText)
    result = grade_freetext(
        question, answer, second_opinion=False, neighbours=False, tell_caps=False,
        tag_classifier=False,
    )  # fmt: skip
    assert tag in result.misconceptions
