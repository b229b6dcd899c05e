"""Two CriticTool ids with identical content and different predictions are two scored samples,
as in the official evaluator (issue 19): the copy scores what the official rules give its own
reply, the original keeps the official per-sample values (expected.json), and each id counts in
the means — critic and parse rate over all samples, the rest over erroneous ones."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from critic_twins import COPY, TWIN, erroneous_ids, twin_file
from tiny_similarity import one_thread_similarity

from w2c_tui.runs.critictool.similarity import SentenceSimilarity
from w2c_tui.services import Services
from w2c_tui.services.critictool_metrics import CriticToolMetricsService

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool"
RUN = "interal_base_data_wo_cot"
OFFICIAL: dict[str, Any] = json.loads((CT / "expected.json").read_text(encoding="utf-8"))["runs"][
    RUN
]
COPY_SCORES = {"args": 0, "critic": 0, "name": 0, "parse_rate": 0, "reflect": 0}
"""The official rules on '{"name": "", "args": {}}' for an erroneous sample: no name, so no
parse, no detected error, no category, no tool and no args."""
OVER_ALL = ("critic", "parse_rate")


@pytest.fixture(scope="module")
def similarity() -> Iterator[SentenceSimilarity]:
    """The tiny model, with one torch thread."""
    yield from one_thread_similarity()


def test_each_id_is_scored_and_counted(
    services: Services, similarity: SentenceSimilarity, tmp_path: Path
) -> None:
    path = twin_file(tmp_path)
    services.critictool.import_file(path, target_model="m")
    [setting] = CriticToolMetricsService(services.store).compute(similarity=similarity).settings
    per_sample = setting.per_sample
    assert set(per_sample) == {*OFFICIAL["per_sample"], COPY}
    expected = {**OFFICIAL["per_sample"], COPY: COPY_SCORES}
    for sample_id, values in expected.items():
        for key, value in values.items():
            assert per_sample[sample_id][key] == pytest.approx(value, abs=1e-6), (sample_id, key)
    assert per_sample[TWIN] != per_sample[COPY]
    erroneous = erroneous_ids(path)
    assert len(erroneous) == 18 and COPY in erroneous
    for key in OFFICIAL["means"]:
        ids = list(expected) if key in OVER_ALL else erroneous
        mean = sum(expected[sid][key] for sid in ids) / len(ids)
        assert setting.means[key] == pytest.approx(mean, abs=1e-6), key
    assert setting.means["critic"] == pytest.approx(OFFICIAL["means"]["critic"] * 21 / 22)
