"""Our CriticTool metrics equal the official evaluators' on every fixture run, sample by sample.

The expected values were produced by the official code (tests/io/fixtures/critictool/README.md)
with the same tiny sentence model; similarities are compared within 1e-6, 0/1 values exactly.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tiny_similarity import one_thread_similarity

from w2c_tui.io.importers.critictool import read_critictool
from w2c_tui.runs.critictool.metrics_external import ExternalScore, score_external_file
from w2c_tui.runs.critictool.metrics_internal import InternalScore, score_internal_file
from w2c_tui.runs.critictool.similarity import SentenceSimilarity
from w2c_tui.runs.critictool.summary import (
    by_error_type,
    by_variant_external,
    external_means,
    internal_means,
)

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool"
EXPECTED: dict[str, Any] = json.loads((CT / "expected.json").read_text(encoding="utf-8"))
RUNS = sorted(EXPECTED["runs"])
TOLERANCE = 1e-6
MEAN_KEYS = {"broke": "break"}


@pytest.fixture(scope="module")
def similarity() -> Iterator[SentenceSimilarity]:
    """The tiny model, with one torch thread."""
    yield from one_thread_similarity()


def _close(ours: dict[str, float | None], theirs: dict[str, float]) -> None:
    assert set(ours) == set(theirs)
    for key, value in theirs.items():
        if value in (0, 1) and not isinstance(value, float):
            assert ours[key] == value, key
        else:
            assert ours[key] == pytest.approx(value, abs=TOLERANCE), key


def _score(name: str, similarity: SentenceSimilarity) -> list[InternalScore] | list[ExternalScore]:
    read = read_critictool(CT / "predictions" / f"{name}.json")
    if read.kind.source == "internal":
        return score_internal_file(read, similarity)
    return score_external_file(read, similarity)


def test_the_model_is_the_oracles(similarity: SentenceSimilarity) -> None:
    for pred, gold, value in EXPECTED["probes"]:
        assert similarity(pred, gold) == pytest.approx(value, abs=TOLERANCE), (pred, gold)


@pytest.mark.parametrize("name", RUNS)
def test_per_sample_values_equal_the_reference(name: str, similarity: SentenceSimilarity) -> None:
    scores = _score(name, similarity)
    expected = EXPECTED["runs"][name]["per_sample"]
    assert sorted(score.sample_id for score in scores) == sorted(expected)
    for score in scores:
        _close(score.as_dict(), expected[score.sample_id])


@pytest.mark.parametrize("name", RUNS)
def test_means_equal_the_reference(name: str, similarity: SentenceSimilarity) -> None:
    scores = _score(name, similarity)
    record = EXPECTED["runs"][name]
    if scores and isinstance(scores[0], InternalScore):
        ours: dict[str, float | None] = vars(
            internal_means([s for s in scores if isinstance(s, InternalScore)])
        )
    else:
        ours = vars(external_means([s for s in scores if isinstance(s, ExternalScore)]))
    renamed = {MEAN_KEYS.get(key, key): value for key, value in ours.items()}
    for key, value in record["means"].items():
        assert renamed[key] == pytest.approx(value, abs=TOLERANCE), key


def test_no_erroneous_samples_gives_no_mean_instead_of_a_crash(
    similarity: SentenceSimilarity,
) -> None:
    name = "interal_noerror_data_wo_cot"
    assert EXPECTED["runs"][name]["reference_error"] == "ZeroDivisionError"
    scores = score_internal_file(read_critictool(CT / "predictions" / f"{name}.json"), similarity)
    means = internal_means(scores)
    assert (means.samples, means.erroneous) == (2, 0)
    assert (means.reflect, means.name, means.args, means.goal) == (None, None, None, None)
    assert means.critic == EXPECTED["runs"][name]["means"]["critic"] == 0.5


def test_a_second_evaluation_counts_once(similarity: SentenceSimilarity) -> None:
    """The reference's instance counter halves reflect/name/args on a second evaluate()."""
    name = "interal_base_data_wo_cot"
    read = read_critictool(CT / "predictions" / f"{name}.json")
    first = internal_means(score_internal_file(read, similarity))
    second = internal_means(score_internal_file(read, similarity))
    assert first == second
    theirs = EXPECTED["runs"][name]
    assert theirs["second_call_means"]["name"] == pytest.approx(theirs["means"]["name"] / 2)
    assert first.name == pytest.approx(theirs["means"]["name"])


def test_groups_by_error_type_and_variant(similarity: SentenceSimilarity) -> None:
    read = read_critictool(CT / "predictions" / "interal_base_data_wo_cot.json")
    scores = score_internal_file(read, similarity)
    groups = by_error_type(scores)
    expected = EXPECTED["runs"]["interal_base_data_wo_cot"]["per_sample"]
    select = ["select1", "nullname1", "argsstr1"]
    assert groups["tool_select_error"].samples == 3
    assert groups["tool_select_error"].name == pytest.approx(
        sum(expected[s]["name"] for s in select) / 3
    )
    assert groups["none"].erroneous == 0 and groups["none"].critic == 0.5
    assert set(groups) == {
        "tool_select_error",
        "tool_hallucination_error",
        "parameters_key_error",
        "parameters_value_error",
        "none",
    }
    external = [
        *score_external_file(
            read_critictool(CT / "predictions" / "external_skip_base_data_wo_cot.json"), similarity
        ),
        *score_external_file(
            read_critictool(CT / "predictions" / "external_skip_evol_data_w_cot.json"),
            similarity,
            cot=False,
        ),
    ]
    variants = by_variant_external(external)
    assert (variants["base"].samples, variants["evol"].samples) == (7, 4)
    assert variants["base"].retry == pytest.approx(
        EXPECTED["runs"]["external_skip_base_data_wo_cot"]["means"]["retry"]
    )


def test_scoring_needs_predictions_and_a_mode(similarity: SentenceSimilarity) -> None:
    from w2c_tui.domain.critictool import SampleError

    dataset = read_critictool(CT / "dataset" / "internal_error" / "base_data_wo_cot.json")
    with pytest.raises(SampleError) as caught:
        score_internal_file(dataset, similarity)
    assert caught.value.field == "predictions"
    external = read_critictool(CT / "dataset" / "external_error" / "base_data_wo_cot.json")
    with pytest.raises(ValueError, match="say the mode"):
        score_external_file(external, similarity)
    with pytest.raises(ValueError, match="not an internal"):
        score_internal_file(external, similarity)
