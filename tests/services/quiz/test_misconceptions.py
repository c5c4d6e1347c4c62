"""One name per misconception, errors kept apart, and no scenario ids shown to learners."""

from __future__ import annotations

import ast

import pytest

from app.config import REPO_ROOT, Settings
from app.packs.catalog import Catalog
from app.services.instructor.publishing import load_serving_catalog
from app.services.progress import misconceptions
from app.services.progress.misconceptions import SCENARIO_ID


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


def _emitted_scenario_ids() -> list[str]:
    """Every scenario id the code checker can emit, read from its source (importing the
    sandbox side would import TensorFlow): each contract's `Scenario("<id>", ...)` and the
    `seed-<n>-...` ids of pack-declared contracts, at both ends of the seed range."""
    worker = REPO_ROOT / "app" / "grading" / "sandbox" / "worker"
    ids = []
    for node in ast.walk(ast.parse((worker / "scenarios.py").read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Scenario":
            first = node.args[0]
            assert isinstance(first, ast.Constant), ast.dump(first)
            ids.append(str(first.value))
    for node in ast.walk(ast.parse((worker / "declared.py").read_text())):
        if isinstance(node, ast.JoinedStr):
            for seed in (0, 2**31 - 1):
                ids.append(
                    "".join(
                        str(v.value) if isinstance(v, ast.Constant) else str(seed)
                        for v in node.values
                    )
                )
    return [i for i in ids if SCENARIO_ID.fullmatch(i)]


EMITTED = _emitted_scenario_ids()


def test_the_walk_finds_every_contract_and_declared_scenario() -> None:
    assert len(EMITTED) >= 14 + 4  # 14 contract scenarios today, 2 declared shapes x 2 seeds
    assert {"seed-0-eager", "seed-0-tf-function", "mse-sgd-2-micro-batches"} <= set(EMITTED)


@pytest.mark.parametrize("scenario_id", EMITTED)
def test_every_emitted_scenario_token_reads_as_plain_words(scenario_id: str) -> None:
    words, unknown = misconceptions.scenario_words(scenario_id)
    assert unknown == [], f"add plain words for {unknown} to SCENARIO_WORDS"
    shown = misconceptions.without_scenario_ids(f"In scenario {scenario_id}, after call 1.")
    assert scenario_id not in shown and ", ".join(words) in shown


@pytest.mark.parametrize(
    ("scenario_id", "shown"),
    [
        (
            "crossentropy-sgd-frozen-layer-eager",
            "cross-entropy loss, SGD, a frozen layer, run eagerly",
        ),
        ("crossentropy-adam-3-micro-batches", "cross-entropy loss, Adam, 3 micro-batches"),
        ("sin-times-x-tf-function", "sin(x)·x, wrapped in tf.function"),
        ("seed-7-eager", "seed 7, run eagerly"),
    ],
)
def test_scenario_words_keep_what_the_check_exercised(scenario_id: str, shown: str) -> None:
    assert misconceptions.describe_scenario(scenario_id) == f"the check with {shown}"


def test_a_misconception_tag_shaped_like_a_scenario_id_is_left_alone() -> None:
    text = "Calling .numpy() there is numpy-in-tf-function."
    assert misconceptions.without_scenario_ids(text) == text
