"""One name per misconception, errors kept apart, and no scenario ids shown to learners."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.packs.catalog import Catalog
from app.services.instructor.publishing import load_serving_catalog
from app.services.progress import misconceptions


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_serving_catalog(Settings())


def test_a_write_the_code_label_wins_over_a_fix_the_code_one(catalog: Catalog) -> None:
    assert misconceptions.label(catalog, "loss-outside-tape") == (
        "The loss is computed after the tape block has closed."
    )


@pytest.mark.parametrize("tag", ["syntax-error", "exception", "wrong-result", "resource-limit"])
def test_errors_are_not_misconceptions(catalog: Catalog, tag: str) -> None:
    beliefs, errors = misconceptions.split([tag, "loss-outside-tape"])
    assert (beliefs, errors) == (["loss-outside-tape"], [tag])
    assert misconceptions.label(catalog, tag) == misconceptions.ERRORS[tag]


def test_unknown_tags_are_made_readable(catalog: Catalog) -> None:
    assert misconceptions.label(catalog, "made-up-tag") == "Made up tag"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            "In scenario crossentropy-adam-eager, after call 1, the weights differ.",
            "In the check with cross-entropy loss, Adam, run eagerly, after call 1, the "
            "weights differ.",
        ),
        (
            "Matches the reference step in every scenario (crossentropy-adam-eager, "
            "mse-sgd-momentum-mlp-tf-function).",
            "Matches the reference step in every scenario.",
        ),
        ("Nothing to replace in numpy-inside-tape.", "Nothing to replace in numpy-inside-tape."),
    ],
)
def test_scenario_ids_become_what_the_check_exercised(text: str, shown: str) -> None:
    assert misconceptions.without_scenario_ids(text) == shown
