"""The metrics tab on a CriticTool dataset: the official metrics of each model and setting
(the `CriticToolMetricsDoc`, or why it could not be computed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from w2c_tui.domain.dashboard import CriticToolEntryDoc, DashboardDoc
from w2c_tui.io.report.critictool import COLUMNS, cell
from w2c_tui.tui.dashboard.common import table
from w2c_tui.tui.plain import cells

if TYPE_CHECKING:
    from w2c_tui.services import Services


def critictool_entry(services: Services, dataset: str) -> CriticToolEntryDoc:
    """The CriticTool metrics of `dataset` (similarity model: W2C_SIMILARITY_MODEL or the
    default), or why they could not be computed (computed in the dashboard's worker thread)."""
    from w2c_tui.domain.errors import W2CError

    agreement = tuple(r.document() for r in services.critictool_agreement.compute(dataset))
    try:
        metrics = services.critictool_metrics.compute(dataset)
    except W2CError as error:
        return CriticToolEntryDoc(problem=str(error), label_agreement=agreement)
    return CriticToolEntryDoc(metrics=metrics, label_agreement=agreement)


def label_agreement(entry: CriticToolEntryDoc) -> list[RenderableType]:
    """Humans vs the model's self-critique vs judges on the CriticTool labels (a table per
    label: α and agreement over all raters, then κ and agreement per pair)."""
    parts: list[RenderableType] = []
    for result in entry.label_agreement:
        alpha = cell(result.alpha)
        t = table(
            "rater",
            "rater",
            "n",
            "κ",
            "agreement",
            title=f"labels · {result.label} · {result.units} units · α {alpha}",
        )
        for pair in result.pairs:
            t.add_row(
                *cells(
                    pair.a,
                    pair.b,
                    str(pair.n),
                    cell(pair.cohen_kappa.value),
                    cell(pair.percent_agreement.value),
                )
            )
        parts.append(t)
    return parts


def critictool(document: DashboardDoc) -> RenderableType | None:
    """One table per setting, then the overall scores; None when the dashboard's dataset is not
    a CriticTool dataset."""
    entry = document.critictool
    if entry is None:
        return None
    doc = entry.metrics
    if doc is None:
        problem = Text(f"CriticTool metrics not computed: {entry.problem}", style="italic")
        return Group(problem, *label_agreement(entry))
    if not doc.settings:
        return Text("CriticTool: no predictions stored for this dataset yet.", style="italic")
    parts: list[RenderableType] = [
        Text(f"CriticTool metrics · similarity model {doc.similarity_model}", style="bold")
    ]
    for setting in doc.settings:
        mode = f" {setting.mode}" if setting.mode else ""
        cot = "CoT" if setting.cot else "no CoT"
        missing = f" · {setting.unpredicted} not predicted" if setting.unpredicted else ""
        keys = [k for k in COLUMNS if k in setting.means]
        t = table(
            "group",
            *keys,
            title=f"{setting.target_model} · {setting.source}{mode} · {cot}{missing}",
        )
        t.add_row(*cells("all", *(cell(setting.means[k]) for k in keys)))
        for group, prefix in ((setting.by_error_type, "error"), (setting.by_variant, "data")):
            for name, means in group.items():
                t.add_row(*cells(f"{prefix}: {name}", *(cell(means.get(k)) for k in keys)))
        parts.append(t)
    for score in doc.overall:
        cot = "CoT" if score.cot else "no CoT"
        who = f"{score.target_model} ({cot}, {score.mode})"
        parts.append(Text(f"overall score {who}: {cell(score.score)}"))
    return Group(*parts, *label_agreement(entry))
