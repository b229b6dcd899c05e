"""What the dashboard panels share: compact tables, rater legends, label abbreviations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box as boxes
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

LABELS = ["direct", "tool_call", "request_for_info", "cannot_answer"]
ABBREV = {"direct": "DA", "tool_call": "TC", "request_for_info": "RI", "cannot_answer": "CA"}
LABEL_LEGEND = "DA direct answer · TC tool call · RI request for info · CA cannot answer"


def table(
    *headers: str,
    title: str | None = None,
    box: boxes.Box | None = boxes.SIMPLE_HEAD,
    **kwargs: Any,
) -> Table:
    """A compact table: light box, no padding at the edges, numbers never wrapped."""
    kwargs.setdefault("title_justify", "left")
    kwargs.setdefault("pad_edge", False)
    out = Table(*headers, title=title, box=box, **kwargs)
    for column in out.columns:
        column.no_wrap = True
    return out


def middle(key: str, width: int = 19) -> str:
    """A long key shortened in the middle, so that `…:norm` stays told apart from the raw one."""
    if len(key) <= width:
        return key
    head = width // 2 - 1
    return f"{key[:head]}…{key[-(width - head - 1) :]}"


class Legend:
    """Short names R1, R2, … for the raters of a document, so that wide matrices fit."""

    def __init__(self, keys: Sequence[str]) -> None:
        self.keys = list(keys)

    def short(self, key: str) -> str:
        """R<n> for a known rater, the key itself otherwise."""
        return f"R{self.keys.index(key) + 1}" if key in self.keys else key

    def text(self) -> Text:
        """The legend line: R1 human:ann · R2 logprob:x · R3 logprob:x:norm …"""
        out = Text("", style="dim")
        for index, key in enumerate(self.keys, 1):
            out.append(("" if index == 1 else " · ") + f"R{index} ")
            out.append(key, style="bold")
        return out


def natural_width(console: Console, renderable: RenderableType) -> int:
    """The width a panel needs so that no table is cut: the widest table's natural width
    (text wraps to it); wider than the screen, the panel scrolls sideways."""
    wide = console.options.update(max_width=10_000)
    parts = renderable.renderables if isinstance(renderable, Group) else [renderable]
    widest = 0
    for part in parts:
        if isinstance(part, Group):
            widest = max(widest, natural_width(console, part))
        elif not isinstance(part, Text | str):
            widest = max(widest, Measurement.get(console, wide, part).maximum)
    return widest
