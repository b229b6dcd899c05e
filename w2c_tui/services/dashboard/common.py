"""What the dashboard's panels share: the rating table of chosen raters, estimate documents."""

from __future__ import annotations

from w2c_tui.domain.dashboard import EstimateDoc
from w2c_tui.domain.labels import LABELS, InvalidMode, Label
from w2c_tui.services.readings import INVALID, Readings
from w2c_tui.stats import Estimate, RatingTable

CATEGORIES = [label.value for label in LABELS]
CONSENSUS = "consensus"
NO_SHARED = "no unit shared with the human consensus"


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
