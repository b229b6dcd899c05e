"""Small terminal charts: interval plots, shaded confusion cells, reliability bars."""

from __future__ import annotations

from rich.text import Text

from w2c_tui.domain.dashboard import EstimateDoc

SHADES = " ░▒▓█"


def interval_bar(
    est: EstimateDoc | None, *, low: float = -1.0, high: float = 1.0, width: int = 24
) -> Text:
    """The estimate as ● on a scale from `low` to `high`, its interval as ├──┤."""
    text = Text()
    if est is None or est.value is None:
        return Text("·" * width, style="dim")
    value = est.value

    def pos(x: float) -> int:
        share = (min(max(x, low), high) - low) / (high - low)
        return min(width - 1, max(0, round(share * (width - 1))))

    cells = ["·"] * width
    ci = est.ci
    if ci:
        a, b = pos(ci[0]), pos(ci[1])
        for i in range(a, b + 1):
            cells[i] = "─"
        cells[a], cells[b] = "├", "┤"
    cells[pos(float(value))] = "●"
    zero = pos(0.0) if low < 0 < high else None
    for i, c in enumerate(cells):
        text.append(c, style="bold" if c == "●" else ("dim" if c == "·" and i != zero else ""))
    return text


def shade(share: float) -> str:
    """A block character whose density shows a share in [0, 1]."""
    index = min(len(SHADES) - 1, max(0, round(share * (len(SHADES) - 1))))
    return SHADES[index]


def bar(share: float | None, width: int = 20) -> str:
    """A horizontal bar for a share in [0, 1]."""
    if share is None:
        return "·" * width
    filled = round(max(0.0, min(1.0, share)) * width)
    return "█" * filled + "·" * (width - filled)
