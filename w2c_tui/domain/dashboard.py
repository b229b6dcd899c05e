"""The calibration dashboard's document, typed: built once by the agreement service, rendered
by the TUI panels, the CLI and the report (and dumped as JSON by `--json`).

Frozen dataclasses built once by the service; their `to_json()` (domain.jsondoc) is the JSON
contract, each field a key in its declared order. Every statistic is an `EstimateDoc`; a value
that is not defined is `None` with a `reason`, never 0.0. The parts live in dashboard_core,
dashboard_judging, dashboard_figures and dashboard_critictool; this module gathers them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from w2c_tui.domain.dashboard_consistency import *  # noqa: F403
from w2c_tui.domain.dashboard_consistency import ConsistencyDoc
from w2c_tui.domain.dashboard_core import *  # noqa: F403
from w2c_tui.domain.dashboard_core import (
    CoverageDoc,
    DistributionsDoc,
    HumansDoc,
    MetaDoc,
    PairDoc,
)
from w2c_tui.domain.dashboard_critictool import *  # noqa: F403
from w2c_tui.domain.dashboard_critictool import CriticToolEntryDoc
from w2c_tui.domain.dashboard_figures import *  # noqa: F403
from w2c_tui.domain.dashboard_figures import MetricsDoc, RevealDoc, SlicesDoc
from w2c_tui.domain.dashboard_judging import *  # noqa: F403
from w2c_tui.domain.dashboard_judging import AutomatedDoc, DrilldownDoc
from w2c_tui.domain.estimate import CorrectedDoc
from w2c_tui.domain.jsondoc import OMIT_NONE, JsonDoc, to_json


@dataclass(frozen=True, slots=True)
class DashboardDoc(JsonDoc):
    """Every panel of the calibration dashboard (and of the report)."""

    meta: MetaDoc
    coverage: CoverageDoc
    distributions: DistributionsDoc
    humans: HumansDoc
    automated: tuple[AutomatedDoc, ...]
    drilldown: Mapping[str, DrilldownDoc]
    pairwise: tuple[PairDoc, ...]
    metrics: tuple[MetricsDoc, ...]
    reveal: RevealDoc
    mcq_consistency: ConsistencyDoc | None = field(default=None, metadata=OMIT_NONE)
    """Behaviour units: each MCQ reading against the human labels of the same model's
    responses (MCQ raters have no stand-in decision there; see dashboard_consistency)."""
    slices: SlicesDoc | None = field(default=None, metadata=OMIT_NONE)
    all_raters: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    """Every rater of the dataset (the TUI's choice of raters; not part of the report)."""
    critictool: CriticToolEntryDoc | None = field(default=None, metadata=OMIT_NONE)
    """CriticTool datasets: the metrics (or the problem computing them) and label agreement."""
    corrected: tuple[CorrectedDoc, ...] | None = field(default=None, metadata=OMIT_NONE)
    """Judge-corrected scores per target model, judge and metric (responses only; left out
    when no judged response has a human reference)."""


QUESTION = "can each automated rater stand in for a human?"


@dataclass(frozen=True)
class JudgesDoc:
    """The judge question (`w2c agreement`): the humans' own reliability, then each automated
    rater of the same units against them with its decision and advice; on responses, each MCQ
    reading's consistency with the generated behaviour; with `--by` the slices. Built once by
    the agreement service from the dashboard; the CLI's tables and `--json` render this one
    object."""

    meta: MetaDoc
    humans: HumansDoc
    judges: tuple[AutomatedDoc, ...]
    reveal: RevealDoc
    mcq_consistency: ConsistencyDoc | None = None
    slices: SlicesDoc | None = None
    question: str = QUESTION

    @classmethod
    def of(cls, dash: DashboardDoc) -> JudgesDoc:
        """The judge question's part of the dashboard document."""
        return cls(
            meta=dash.meta,
            humans=dash.humans,
            judges=dash.automated,
            reveal=dash.reveal,
            mcq_consistency=dash.mcq_consistency,
            slices=dash.slices,
        )

    def as_json(self) -> dict[str, object]:
        """The `w2c agreement --json` document (keys in this order; `mcq_consistency` on
        behaviour units only, `slices` only with `--by`)."""
        out: dict[str, object] = {
            "question": self.question,
            "meta": to_json(self.meta),
            "humans": to_json(self.humans),
            "judges": to_json(self.judges),
        }
        if self.mcq_consistency is not None:
            out["mcq_consistency"] = to_json(self.mcq_consistency)
        out["reveal"] = to_json(self.reveal)
        if self.slices is not None:
            out["slices"] = to_json(self.slices)
        return out
