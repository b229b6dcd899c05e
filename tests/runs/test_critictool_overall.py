"""The overall score: the paper's weights over the dimension means (our documented reading)."""

from __future__ import annotations

import pytest

from w2c_tui.runs.critictool.summary import (
    OVERALL_WEIGHTS,
    ExternalMeans,
    InternalMeans,
    overall_score,
)

# The paper's Table 2: detect, category, tool, args, retry, break, tool, args, overall (in %).
TABLE_2 = {
    "Claude3.5": (81.59, 55.70, 84.89, 77.63, 38.22, 56.27, 22.06, 26.48, 55.83),
    "GPT-3.5": (71.18, 62.90, 71.36, 58.09, 10.37, 89.45, 52.23, 41.27, 60.93),
    "GPT-4o": (78.71, 69.70, 86.05, 80.25, 20.99, 92.08, 53.66, 42.67, 69.01),
    "LLaMA3-8B": (56.39, 29.24, 73.81, 65.17, 31.81, 74.67, 27.11, 29.95, 50.84),
    "LLaMA3.1-8B": (83.77, 68.09, 78.26, 69.11, 50.94, 73.58, 25.00, 22.10, 58.04),
    "Qwen2.5-7B": (82.86, 44.21, 77.32, 69.26, 28.41, 83.06, 42.28, 24.08, 58.61),
    "GLM4-9B-chat": (56.12, 24.01, 59.03, 48.56, 17.89, 89.23, 35.11, 22.05, 47.57),
    "Ministral-8B": (46.15, 23.45, 67.23, 57.12, 50.11, 59.03, 17.02, 20.11, 43.77),
    "LLaMA3-70B": (56.11, 29.37, 69.13, 62.61, 32.29, 73.18, 27.66, 27.52, 49.25),
    "LLaMA3.1-70B": (79.52, 59.78, 82.34, 65.47, 63.12, 91.23, 51.58, 25.89, 65.21),
    "Qwen2.5-72B": (86.14, 52.81, 82.59, 77.60, 36.91, 91.75, 52.71, 30.03, 65.70),
    "ToolLLaMA2-7B": (0.58, 0.00, 3.34, 0.61, 0.92, 1.77, 0.91, 0.00, 0.13),
    "ToolACE-8B": (12.98, 0.95, 14.23, 13.22, 1.25, 8.23, 7.67, 12.21, 9.43),
    "AgentLM-7B": (22.97, 0.00, 47.86, 37.20, 11.95, 84.70, 18.13, 17.55, 33.78),
}


def _means(row: tuple[float, ...]) -> tuple[InternalMeans, ExternalMeans]:
    d, c, t, a, r, b, st, sa, _ = (value / 100 for value in row)
    internal = InternalMeans(100, 80, d, 1.0, c, t, a, None)
    external = ExternalMeans(100, r, b, st, sa, None, 1.0)
    return internal, external


@pytest.mark.parametrize("model", sorted(TABLE_2))
def test_the_papers_overall_column_within_1_3_points(model: str) -> None:
    row = TABLE_2[model]
    score = overall_score(*_means(row))
    assert score is not None
    assert abs(100 * score - row[-1]) < 1.3


def test_weights_and_missing_parts() -> None:
    assert sum(OVERALL_WEIGHTS.values()) == pytest.approx(1.0)
    internal = InternalMeans(4, 2, 1.0, 1.0, 0.5, 1.0, 0.5, None)
    skip = ExternalMeans(2, 0.5, 1.0, 0.5, 0.0, None, 1.0)
    expected = 0.2 * 0.75 + 0.3 * 0.75 + 0.05 * 0.5 + 0.45 * 0.5
    assert overall_score(internal, skip) == pytest.approx(expected)
    finish = ExternalMeans(2, 0.5, 1.0, 0.5, None, None, 1.0)
    assert overall_score(internal, finish) == pytest.approx(0.15 + 0.225 + 0.025 + 0.45 * 0.75)
    no_errors = InternalMeans(2, 0, 1.0, 1.0, None, None, None, None)
    assert overall_score(no_errors, skip) is None
