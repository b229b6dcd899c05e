"""The calibration dashboard's document, typed: built once by the agreement service, rendered
by the TUI panels, the CLI and the report (and dumped as JSON by `--json`).

TypedDicts rather than dataclasses because the document *is* the JSON contract: what mypy
checks here is exactly what `json.dumps` writes. Every statistic is an `EstimateDoc`; a value
that is not defined is `None` with a `reason`, never 0.0. The parts live in dashboard_core,
dashboard_judging and dashboard_figures; this module gathers them.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from w2c_tui.domain.dashboard_core import *  # noqa: F403
from w2c_tui.domain.dashboard_core import (
    CoverageDoc,
    DistributionsDoc,
    HumansDoc,
    MetaDoc,
    PairDoc,
)
from w2c_tui.domain.dashboard_figures import *  # noqa: F403
from w2c_tui.domain.dashboard_figures import MetricsDoc, RevealDoc, SlicesDoc
from w2c_tui.domain.dashboard_judging import *  # noqa: F403
from w2c_tui.domain.dashboard_judging import AutomatedDoc, DrilldownDoc


class DashboardDoc(TypedDict):
    """Every panel of the calibration dashboard (and of the report)."""

    meta: MetaDoc
    coverage: CoverageDoc
    distributions: DistributionsDoc
    humans: HumansDoc
    automated: list[AutomatedDoc]
    drilldown: dict[str, DrilldownDoc]
    pairwise: list[PairDoc]
    metrics: list[MetricsDoc]
    reveal: RevealDoc
    slices: NotRequired[SlicesDoc]
    all_raters: NotRequired[list[str]]
    critictool: NotRequired[dict[str, Any]]
    """CriticTool datasets: {'metrics': CriticMetrics as JSON} or {'problem': why not}."""
