"""The units of a dataset cut into slices: by gold class, tool count (the paper's 0 / 1 / 2+),
source or target model. `services.metrics` (metrics per slice) and `services.dashboard.slices`
(the dashboard's slices tab) both cut them here."""

from __future__ import annotations

from w2c_tui.domain.dashboard import SliceBy
from w2c_tui.services.planning import tool_slice
from w2c_tui.services.readings import Readings, Unit

TOOL_ORDER = {"0 tools": 0, "1 tool": 1, "2+ tools": 2}
"""The tool buckets come first, in this order; every other slice after them, by name."""


def slice_of(unit: Unit, by: SliceBy) -> str:
    """The slice a unit belongs to."""
    if by is SliceBy.GOLD:
        return unit.gold.value if unit.gold else "no gold"
    if by is SliceBy.TOOLS:
        return tool_slice(unit.n_tools)
    if by is SliceBy.SOURCE:
        return unit.source or "no source"
    return unit.target_model or "(item)"


def slice_groups(readings: Readings, by: SliceBy) -> list[tuple[str, set[str]]]:
    """Every slice's name and unit keys, in a stable order (the tool buckets 0, 1, 2+; others
    by name)."""
    groups: dict[str, set[str]] = {}
    for unit in readings.units:
        groups.setdefault(slice_of(unit, by), set()).add(unit.key)
    return [
        (name, groups[name]) for name in sorted(groups, key=lambda n: (TOOL_ORDER.get(n, 9), n))
    ]
