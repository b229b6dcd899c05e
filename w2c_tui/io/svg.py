"""Small SVG charts for the HTML report: confusion heatmaps, interval plots, reliability."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from html import escape

from w2c_tui.domain.dashboard import EstimateDoc, ReliabilityBinDoc

FONT = "font-family='sans-serif' font-size='11'"


def data_uri(svg: str) -> str:
    """An <img> source for an SVG document."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def heatmap(
    matrix: Sequence[Sequence[int]], rows: list[str], columns: list[str], title: str
) -> str:
    """A confusion matrix: cell shade = row share, count and share written in the cell."""
    cell, left, top = 64, 120, 46
    width, height = left + cell * len(columns) + 10, top + cell * len(rows) + 10
    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}'>",
        f"<text x='4' y='14' {FONT} font-weight='bold'>{escape(title)}</text>",
    ]
    for j, name in enumerate(columns):
        parts.append(
            f"<text x='{left + j * cell + cell / 2}' y='{top - 6}' {FONT} "
            f"text-anchor='middle'>{escape(name)}</text>"
        )
    for i, (name, counts) in enumerate(zip(rows, matrix, strict=True)):
        total = sum(counts)
        y = top + i * cell
        parts.append(
            f"<text x='{left - 6}' y='{y + cell / 2 + 4}' {FONT} "
            f"text-anchor='end'>{escape(name)}</text>"
        )
        for j, count in enumerate(counts):
            share = count / total if total else 0.0
            x = left + j * cell
            colour = "#1f6feb" if i == j else "#d1242f"
            parts.append(
                f"<rect x='{x}' y='{y}' width='{cell - 2}' height='{cell - 2}' "
                f"fill='{colour}' fill-opacity='{0.08 + 0.85 * share:.3f}'/>"
            )
            parts.append(
                f"<text x='{x + cell / 2}' y='{y + cell / 2}' {FONT} "
                f"text-anchor='middle'>{count}</text>"
            )
            parts.append(
                f"<text x='{x + cell / 2}' y='{y + cell / 2 + 13}' {FONT} "
                f"text-anchor='middle' fill='#555'>{100 * share:.0f}%</text>"
            )
    parts.append("</svg>")
    return "".join(parts)


def intervals(
    rows: Sequence[tuple[str, EstimateDoc | None]],
    title: str,
    *,
    low: float = -1.0,
    high: float = 1.0,
) -> str:
    """One line per estimate: its point and its 95% interval on a shared axis."""
    left, right, top, step = 220, 30, 34, 22
    axis = 360
    width, height = left + axis + right, top + step * len(rows) + 30

    def x(value: float) -> float:
        return left + (min(max(value, low), high) - low) / (high - low) * axis

    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}'>",
        f"<text x='4' y='14' {FONT} font-weight='bold'>{escape(title)}</text>",
    ]
    for tick in (low, (low + high) / 2, high, 0.667, 0.8):
        if low <= tick <= high:
            parts.append(
                f"<line x1='{x(tick)}' y1='{top - 8}' x2='{x(tick)}' "
                f"y2='{height - 24}' stroke='#ccc' stroke-dasharray='3,3'/>"
            )
            parts.append(
                f"<text x='{x(tick)}' y='{height - 10}' {FONT} text-anchor='middle'>{tick:g}</text>"
            )
    for index, (name, est) in enumerate(rows):
        y = top + index * step
        parts.append(
            f"<text x='{left - 8}' y='{y + 4}' {FONT} text-anchor='end'>{escape(name)}</text>"
        )
        if est is None or est.value is None:
            parts.append(f"<text x='{left}' y='{y + 4}' {FONT} fill='#888'>not defined</text>")
            continue
        ci = est.ci
        if ci:
            parts.append(
                f"<line x1='{x(ci[0])}' y1='{y}' x2='{x(ci[1])}' y2='{y}' "
                "stroke='#1f6feb' stroke-width='2'/>"
            )
        parts.append(f"<circle cx='{x(est.value)}' cy='{y}' r='4' fill='#1f6feb'/>")
    parts.append("</svg>")
    return "".join(parts)


def reliability(bins: Sequence[ReliabilityBinDoc], title: str) -> str:
    """Reliability diagram: accuracy against mean confidence per bin, with the diagonal."""
    size, pad = 220, 36
    width, height = size + 2 * pad, size + 2 * pad

    def px(v: float) -> float:
        return pad + v * size

    def py(v: float) -> float:
        return pad + (1 - v) * size

    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}'>",
        f"<text x='4' y='14' {FONT} font-weight='bold'>{escape(title)}</text>",
        f"<rect x='{pad}' y='{pad}' width='{size}' height='{size}' fill='none' stroke='#999'/>",
        f"<line x1='{px(0)}' y1='{py(0)}' x2='{px(1)}' y2='{py(1)}' stroke='#bbb' "
        "stroke-dasharray='4,4'/>",
        f"<text x='{pad + size / 2}' y='{height - 6}' {FONT} text-anchor='middle'>"
        "confidence</text>",
        f"<text x='10' y='{pad + size / 2}' {FONT} transform='rotate(-90 10 "
        f"{pad + size / 2})' text-anchor='middle'>accuracy</text>",
    ]
    points = [(b.mean_confidence, b.accuracy, b.n) for b in bins]
    if points:
        path = " ".join(f"{px(c):.1f},{py(a):.1f}" for c, a, _ in points)
        parts.append(f"<polyline points='{path}' fill='none' stroke='#1f6feb'/>")
    for conf, acc, n in points:
        parts.append(
            f"<circle cx='{px(conf):.1f}' cy='{py(acc):.1f}' r='{2 + min(n, 40) / 8}' "
            "fill='#1f6feb' fill-opacity='0.7'/>"
        )
    parts.append("</svg>")
    return "".join(parts)
