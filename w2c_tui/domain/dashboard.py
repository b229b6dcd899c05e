"""The calibration dashboard's document, typed: built once by the agreement service, rendered
by the TUI panels, the CLI and the report (and dumped as JSON by `--json`).

TypedDicts rather than dataclasses because the document *is* the JSON contract: what mypy
checks here is exactly what `json.dumps` writes. Every statistic is an `EstimateDoc`; a value
that is not defined is `None` with a `reason`, never 0.0. The parts live in dashboard_core,
dashboard_judging, dashboard_figures and dashboard_critictool; this module gathers them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NotRequired, TypedDict

from w2c_tui.domain.dashboard_core import *  # noqa: F403
from w2c_tui.domain.dashboard_core import (
    CoverageDoc,
    DistributionsDoc,
    HumansDoc,
    MetaDoc,
    PairDoc,
)
from w2c_tui.domain.dashboard_critictool import *  # noqa: F403
from w2c_tui.domain.dashboard_critictool import CriticEntryDoc
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
    critictool: NotRequired[CriticEntryDoc]
    """CriticTool datasets: the metrics (or the problem computing them) and label agreement."""


QUESTION = "can each automated rater stand in for a human?"


@dataclass(frozen=True)
class JudgesDoc:
    """The judge question (`w2c agreement`): the humans' own reliability, then each automated
    rater against them with its decision and advice, and with `--by` the slices. Built once by
    the agreement service from the dashboard; the CLI's tables and `--json` render this one
    object."""

    meta: MetaDoc
    humans: HumansDoc
    judges: tuple[AutomatedDoc, ...]
    reveal: RevealDoc
    slices: SlicesDoc | None = None
    question: str = QUESTION

    @classmethod
    def of(cls, dash: DashboardDoc) -> JudgesDoc:
        """The judge question's part of the dashboard document."""
        return cls(
            meta=dash["meta"],
            humans=dash["humans"],
            judges=tuple(dash["automated"]),
            reveal=dash["reveal"],
            slices=dash.get("slices"),
        )

    def as_json(self) -> dict[str, object]:
        """The `w2c agreement --json` document (keys in this order; `slices` only with `--by`)."""
        out: dict[str, object] = {
            "question": self.question,
            "meta": self.meta,
            "humans": self.humans,
            "judges": list(self.judges),
            "reveal": self.reveal,
        }
        if self.slices is not None:
            out["slices"] = self.slices
        return out
