"""What the dashboard's panels share: the rating table of chosen raters, estimate documents."""

from __future__ import annotations

from w2c_tui.domain.dashboard import MIN_UNITS, EstimateDoc, too_few_reason, undefined
from w2c_tui.domain.labels import LABELS, InvalidMode, Label
from w2c_tui.services.readings import INVALID, Readings
from w2c_tui.stats import Estimate, RatingTable

CATEGORIES = [label.value for label in LABELS]
CONSENSUS = "consensus"
NO_SHARED = "no unit shared with the human consensus"


def too_few(n: int) -> EstimateDoc:
    """The estimate on a subset of fewer than MIN_UNITS units: not shown, and why."""
    return undefined(too_few_reason(n), n)


def on_enough(value: EstimateDoc) -> EstimateDoc:
    """`value`, or "too few units" where it rests on 1 to MIN_UNITS − 1 units (0 units keeps
    its own reason)."""
    return too_few(value.n) if 0 < value.n < MIN_UNITS else value


def unshared(readings: Readings, key: str, ref: dict[str, Label]) -> str:
    """Why a rater shares no unit with the consensus: its outputs there are all invalid (how
    many), or it read none of those units."""
    rated = [u for (u, r) in readings.values if r == key]
    on_ref = [u for u in rated if u in ref]
    if on_ref and all(readings.values[(u, key)] == INVALID for u in on_ref):
        if len(on_ref) == len(rated):
            return f"all {len(rated)} outputs are invalid"
        return f"its {len(on_ref)} outputs on units with a human reference are all invalid"
    return NO_SHARED


def categories(invalid_mode: InvalidMode) -> list[str]:
    """The four labels, plus `invalid` as a category of its own in the strict mode."""
    return [*CATEGORIES, INVALID] if invalid_mode is InvalidMode.WRONG else list(CATEGORIES)


def pairable(value: Label | str | None, invalid_mode: InvalidMode) -> bool:
    """Whether a reading enters the pairwise statistics in this mode."""
    if value is None:
        return False
    return value != INVALID or invalid_mode is InvalidMode.WRONG


def table_of(
    readings: Readings,
    raters: list[str],
    invalid_mode: InvalidMode,
    extra: dict[str, dict[str, Label]] | None = None,
    units: set[str] | None = None,
) -> RatingTable:
    """units × raters; an invalid reading is missing, or the category `invalid` when strict.

    `extra` adds columns by key (the consensus); `units` keeps only those units.
    """
    records: list[tuple[str, str, str | None]] = []
    for unit in readings.units:
        if units is not None and unit.key not in units:
            continue
        for rater in raters:
            if extra and rater in extra:
                value: Label | str | None = extra[rater].get(unit.key)
            else:
                value = readings.values.get((unit.key, rater))
            if not pairable(value, invalid_mode):
                value = None
            records.append((unit.key, rater, str(value) if value is not None else None))
    return RatingTable.from_long(records, categories(invalid_mode))


def est(value: Estimate) -> EstimateDoc:
    """An Estimate as its document."""
    return EstimateDoc.of(value.as_json())


def est_json(value: object) -> EstimateDoc:
    """An estimate document produced as plain JSON by the statistics layer."""
    return EstimateDoc.of(value)
