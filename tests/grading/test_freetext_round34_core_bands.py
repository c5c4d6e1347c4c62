"""Tell caps by core band, round 34 (docs/freetext-rounds.md "Round 34: tell caps by core
coverage (engineer K2)"): one model across tags (core_bands.py: a tag's term plus a term per
core band shared by every tag) caps a tell `incorrect` where the odds of `incorrect` are at
least even at the answer's band, else `partial`; never above partial."""

from __future__ import annotations

import json

import pytest

from app.grading.freetext import core_bands, grader, tell_caps
from app.grading.freetext.fitting import Evidence
from tests.grading.core_questions import question

# written for these tests (not taken from labelled answers)
TELL_ALONE = "The gradients vanish because they are too small."  # below the partial line
SOME_CREDIT = TELL_ALONE + " Also a numpy call inside the tape breaks the recording."
REQUIRED_CORE = (
    "The loss is computed outside the tape context, so nothing connects it to the weights. "
    + TELL_ALONE
)
TAG = "none-means-zero-signal"
# the band terms round 32 measured on tune (log-odds of incorrect), one neutral tag term
MEASURED = core_bands.BandCaps({TAG: 0.0}, (2.83, 0.75, -1.03, -1.41))
NO_PRECEDENTS = tell_caps.CoreCaps({}, {})


def _grade(text: str, bands: core_bands.BandCaps, monkeypatch: pytest.MonkeyPatch) -> tuple:
    monkeypatch.setattr(grader, "shipped_core_caps", lambda *_: NO_PRECEDENTS)
    monkeypatch.setattr(grader, "shipped_band_caps", lambda *_: bands)
    result = grader.grade_freetext(
        question("why-none-gradients"), text, second_opinion=False, neighbours=False
    )
    return result.verdict, result.misconceptions


@pytest.mark.parametrize(
    ("text", "verdict"),
    [(TELL_ALONE, "incorrect"), (SOME_CREDIT, "incorrect"), (REQUIRED_CORE, "partial")],
)
def test_the_cap_follows_the_core_band(
    text: str, verdict: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _grade(text, MEASURED, monkeypatch) == (verdict, [TAG])


def test_a_tag_labellers_forgive_is_partial_beside_some_credit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forgiven = core_bands.BandCaps({TAG: -1.0}, MEASURED.bands)
    assert _grade(SOME_CREDIT, forgiven, monkeypatch) == ("partial", [TAG])
    assert _grade(TELL_ALONE, forgiven, monkeypatch)[0] == "incorrect"


def test_without_a_term_the_precedents_stand(monkeypatch: pytest.MonkeyPatch) -> None:
    # the rubric's cap for the tag is `incorrect` and no precedent lowers it
    assert _grade(REQUIRED_CORE, core_bands.BandCaps({}), monkeypatch)[0] == "incorrect"


def test_a_cap_is_never_above_partial() -> None:
    caps = {TAG: "incorrect", "other": "partial"}
    for band in range(len(core_bands.BANDS)):
        capped = core_bands.BandCaps({TAG: -50.0, "other": 50.0}, MEASURED.bands).for_band(
            caps, band
        )
        assert capped == {TAG: "partial", "other": "incorrect"}
    assert core_bands.BandCaps({TAG: -50.0}).for_band(caps, 0) == caps  # no band terms


def test_the_bands() -> None:
    rubric = question("why-none-gradients").rubric
    nothing = Evidence(frozenset(), 0.0, (), False)
    required = Evidence(frozenset({"loss-outside-block"}), 0.32, (), False)
    some = Evidence(frozenset({"other-real-cause"}), 0.3, (), False)
    assert tell_caps.core_band(rubric, nothing) == 0
    assert tell_caps.core_band(rubric, some) == 1
    assert tell_caps.core_band(rubric, required) == 2
    # a keyword list or an injection earns no band, however many concepts it names
    assert tell_caps.core_band(rubric, Evidence(some.found, 0.9, (), True)) == 0


def test_the_fit_reads_the_band_shared_by_tags() -> None:
    # two tags, each wrong below the partial line and forgiven beside a complete core
    items = [(t, 0, True) for t in "ab" for _ in range(8)] + [(t, 0, False) for t in "ab"]
    items += [(t, 3, False) for t in "ab" for _ in range(8)] + [(t, 3, True) for t in "ab"]
    items += [("c", 0, True)] * 3 + [("c", 0, False)] * 2  # c: only ever below partial
    terms, bands = core_bands.fit(items)
    assert bands[0] > 0 > bands[3]
    caps = core_bands.BandCaps({str(k): v for k, v in terms.items()}, bands)
    assert caps.for_band({"c": "partial"}, 3) == {"c": "partial"}
    assert caps.for_band({"c": "partial"}, 0) == {"c": "incorrect"}


def test_only_tags_with_enough_precedent_alone_get_a_term() -> None:
    precedents = [("q", ("t",), "incorrect", 0)] * tell_caps.MIN_ANSWERS
    precedents += [("q", ("u",), "incorrect", 0)] * (tell_caps.MIN_ANSWERS - 1)
    precedents += [("q", ("v", "w"), "incorrect", 0)] * 9  # two tags: no precedent alone
    precedents += [("q", ("x",), "incorrect", None)] * 9  # read as empty: no band
    terms, bands = tell_caps.band_model(precedents)
    assert set(terms) == {("q", "t")}
    assert len(bands) == len(core_bands.BANDS)


def test_the_shipped_artefact_has_the_band_model() -> None:
    # fails until tell_caps.json is retrained after round 34 (the lead retrains artefacts)
    data = json.loads(tell_caps.ARTEFACT.read_text(encoding="utf-8"))
    entry = data["questions"]["why-none-gradients"]
    assert set(entry[tell_caps.BAND_TERMS]) == set(core_bands.BANDS)
    assert tell_caps.BAND_TERM in entry["tells"][TAG]
    q = question("why-none-gradients")
    assert TAG in tell_caps.shipped_band_caps(q.id, q.rubric).terms
