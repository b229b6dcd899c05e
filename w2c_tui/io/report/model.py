"""What a report is made of: sections with paragraphs, tables and the charts that belong there."""

from __future__ import annotations

from dataclasses import dataclass, field

from w2c_tui.domain.dashboard import EstimateDoc
from w2c_tui.present.numbers import estimate_text


@dataclass(frozen=True)
class TableSpec:
    """A table: header cells and rows of text cells."""

    header: list[str]
    rows: list[list[str]]


@dataclass(frozen=True)
class Chart:
    """An SVG chart as a data URI, placed once, in the section it illustrates."""

    src: str
    alt: str


@dataclass
class Section:
    """One section of the report."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[TableSpec] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)


def est(value: EstimateDoc | None) -> str:
    """An estimate with its interval to three places, or '— (why)' when not defined."""
    return estimate_text(value, ci_digits=3, with_reason=True)
