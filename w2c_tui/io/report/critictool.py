"""The CriticTool section of the report: the official metrics of each model and setting, per
error type and base/evolved, and the overall score (from the `CriticToolMetricsDoc`)."""

from __future__ import annotations

from typing import Any

from w2c_tui.domain.dashboard import CriticToolMetricsDoc
from w2c_tui.io.report.model import Section, TableSpec

COLUMNS = (
    "samples",
    "erroneous",
    "critic",
    "reflect",
    "name",
    "args",
    "goal",
    "retry",
    "break",
    "thought",
    "parse_rate",
)


def cell(value: Any) -> str:
    """A metric as shown in tables: three decimals, — for none."""
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def critictool(doc: CriticToolMetricsDoc | None, problem: str | None = None) -> list[Section]:
    """The sections (none when the dataset is not a CriticTool dataset)."""
    if doc is None and problem is None:
        return []
    section = Section("CriticTool metrics (the reference evaluators)")
    if problem is not None:
        section.paragraphs.append(f"**Not computed**: {problem}")
        return [section]
    assert doc is not None
    section.paragraphs.append(
        f"Similarity model: {doc.similarity_model}. Means as the reference computes them; "
        "internal reflect/name/args/goal over the erroneous samples only "
        "(docs/critictool.md)."
    )
    if not doc.settings:
        section.paragraphs.append("No predictions are stored for this dataset yet.")
    out = [section]
    for setting in doc.settings:
        mode = f" {setting.mode}" if setting.mode else ""
        cot = "CoT" if setting.cot else "no CoT"
        part = Section(f"CriticTool: {setting.target_model} · {setting.source}{mode} · {cot}")
        if setting.unpredicted:
            part.paragraphs.append(f"{setting.unpredicted} sample(s) without a prediction.")
        keys = [k for k in COLUMNS if k in setting.means]
        rows = [["all", *(cell(setting.means[k]) for k in keys)]]
        for group, prefix in ((setting.by_error_type, "error"), (setting.by_variant, "data")):
            for name, means in group.items():
                rows.append([f"{prefix}: {name}", *(cell(means.get(k)) for k in keys)])
        part.tables.append(TableSpec(["group", *keys], rows))
        out.append(part)
    if doc.overall:
        section.paragraphs.append(
            "Overall score (the paper's weights: Reflect 0.2, Correct 0.3, Retry 0.05, "
            "Skip/Finish 0.45) of each model's internal setting with each external mode:"
        )
        section.tables.append(
            TableSpec(
                ["model", "CoT", "external mode", "overall score"],
                [
                    [o.target_model, "yes" if o.cot else "no", o.mode, cell(o.score)]
                    for o in doc.overall
                ],
            )
        )
    return out
