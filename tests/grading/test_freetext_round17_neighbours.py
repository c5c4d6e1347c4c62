"""Round 17 (issue 14, engineer V): a neighbours' suggestion no one writer decides.

Each retrain adds a writer's answers to the index, and the suggestion on a handful of held
statements came and went with them. Since round 17 the tag must also be found with the
answers of any one writer among the nearest left out (`neighbours._jackknifed`).
docs/freetext-rounds.md "Round 17: the verdict line (engineer V)".
"""

from __future__ import annotations

import json

from app.grading.freetext import neighbours as nb
from app.grading.freetext.labelled_neighbours import build_artefact

SAID = "the optimizer resets the gradients after each step for you"


def _index(tagged_by: list[str], writers: bool = True) -> nb.Index:
    """`tagged_by`: the writer of each answer that states the tell; far answers by others."""
    near = [
        nb.Entry("q", nb.bag(f"{SAID} variant {i}"), ("resets",), f"{SAID} variant {i}", w)
        for i, w in enumerate(tagged_by)
    ]
    far = [
        nb.Entry("q", nb.bag(f"tape gradient returns fresh tensors {i}"), (), "", f"far-{i}")
        for i in range(3 * nb.K)
    ]
    entries = [*near, *far]
    if not writers:
        entries = [nb.Entry(e.question_id, e.bag, e.tags, e.text) for e in entries]
    return nb.build_index(entries)


def test_a_tag_the_nearest_writers_agree_on_is_suggested() -> None:
    writers = [f"writer-{i}" for i in range(nb.K)]
    assert nb.nearest_tag(_index(writers), "q", nb.bag(SAID), ["resets"], SAID) == "resets"


def test_a_tag_that_hangs_on_one_writer_is_not_suggested() -> None:
    # Seven votes, three of them one writer's: without that writer four votes are left but
    # three untagged answers join the nearest, over the margin.
    writers = ["prolific", "prolific", "prolific", "b", "c", "d", "e"]
    assert nb.nearest_tag(_index(writers), "q", nb.bag(SAID), ["resets"], SAID) is None


def test_one_writer_with_every_vote_suggests_nothing() -> None:
    index = _index(["prolific"] * nb.K)
    assert nb.nearest_tag(index, "q", nb.bag(SAID), ["resets"], SAID) is None


def test_an_index_without_writers_reads_as_before_round_17() -> None:
    """Five votes of seven suggest, as they did (an artefact written before round 17)."""
    index = _index(["x"] * (nb.K - nb.UNTAGGED), writers=False)
    assert nb.nearest_tag(index, "q", nb.bag(SAID), ["resets"], SAID) == "resets"


def test_the_artefact_keeps_each_answer_s_writer() -> None:
    data = json.loads(nb.ARTEFACT.read_text(encoding="utf-8"))
    answers = [a for q in data["questions"].values() for a in q["answers"]]
    assert answers and all(a["persona"] for a in answers)
    assert set(data["trained_on"]["personas"]) == {a["persona"] for a in answers}


def test_the_built_artefact_names_the_writers() -> None:
    built = build_artefact()
    personas = {a["persona"] for q in built["questions"].values() for a in q["answers"]}
    assert personas == set(built["trained_on"]["personas"])
