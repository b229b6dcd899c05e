"""The calibration report as Markdown or HTML (both from Jinja2 templates) or JSON.

One list of sections feeds both templates; every chart belongs to exactly one section and is
embedded once (a drill-down section carries only its own confusion heatmap).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any

from markupsafe import Markup, escape

from w2c_tui.domain.dashboard import CriticToolMetricsDoc, DashboardDoc
from w2c_tui.domain.jsondoc import to_json
from w2c_tui.io.report import data, judges, results
from w2c_tui.io.report.consistency import consistency
from w2c_tui.io.report.critictool import critictool
from w2c_tui.io.report.model import Section

__all__ = ["as_json", "critictool", "html", "markdown", "sections"]


def sections(dash: DashboardDoc, extra: Sequence[Section] = ()) -> list[Section]:
    """Every section in report order (`extra`: the CriticTool section, say, at the end)."""
    return [
        data.data(dash),
        data.coverage(dash),
        data.distributions(dash),
        data.humans(dash),
        judges.judges(dash),
        *consistency(dash),
        *[judges.drilldown(key, drill) for key, drill in dash.drilldown.items()],
        results.calibration(dash),
        data.reveal(dash),
        *results.slices(dash),
        *results.metrics(dash),
        results.corrected(dash),
        *extra,
    ]


def _bold(text: str) -> Markup:
    parts = str(escape(text)).split("**")
    return Markup("".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts)))


@cache
def _environment(html: bool) -> Any:
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(
        loader=PackageLoader("w2c_tui.io", "templates"),
        autoescape=html,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["bold"] = _bold
    env.filters["md_cell"] = lambda cell: str(cell).replace("|", "\\|")
    return env


def markdown(dash: DashboardDoc, extra: Sequence[Section] = ()) -> str:
    """The report as Markdown."""
    template = _environment(False).get_template("report.md.j2")
    text: str = template.render(dataset=dash.meta.dataset, sections=sections(dash, extra))
    return text


def html(dash: DashboardDoc, extra: Sequence[Section] = ()) -> str:
    """The report as one self-contained HTML page (charts are inline SVG images)."""
    template = _environment(True).get_template("report.html.j2")
    text: str = template.render(dataset=dash.meta.dataset, sections=sections(dash, extra))
    return text


def as_json(dash: DashboardDoc, critic: CriticToolMetricsDoc | None = None) -> str:
    """The dashboard document itself (with the CriticTool metrics under `critictool`)."""
    document = dash.to_json()
    document.pop("all_raters", None)
    if critic is not None:
        document["critictool"] = to_json(critic)
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
