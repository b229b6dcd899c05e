"""CriticTool units cut into slices (`w2c critictool agreement --by`): each unit is in exactly
one slice, named from its sample or from the prediction it labels."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from w2c_tui.domain.critictool_slices import CriticToolSliceBy
from w2c_tui.services.critictool_review import CriticToolUnit

NO_PREDICTION = "(sample)"
"""The slice of a sample labelled without a prediction (setting, model)."""
UnitKey = tuple[int, int | None]


def _setting(unit: CriticToolUnit) -> str:
    prediction = unit.prediction
    if prediction is None:
        return NO_PREDICTION
    where = f"external {prediction.mode}" if prediction.mode else unit.sample.source
    return f"{where} · {'CoT' if prediction.cot else 'no CoT'}"


def slice_of(unit: CriticToolUnit, by: CriticToolSliceBy, variant: str | None) -> str:
    """The slice a unit belongs to (`variant`: its sample's base/evol, None: unknown)."""
    sample = unit.sample
    if by is CriticToolSliceBy.ERROR:
        if sample.source == "external":
            return "external"
        return sample.error_type or "no error"
    if by is CriticToolSliceBy.SOURCE:
        return sample.source
    if by is CriticToolSliceBy.VARIANT:
        return variant or "unknown"
    if by is CriticToolSliceBy.SETTING:
        return _setting(unit)
    return unit.prediction.target_model if unit.prediction else NO_PREDICTION


def slice_units(
    units: Iterable[CriticToolUnit],
    by: CriticToolSliceBy,
    variants: Mapping[int, str | None],
    wanted: set[UnitKey],
) -> list[tuple[str, set[UnitKey]]]:
    """Every slice's name and unit keys (only the `wanted` units), by name."""
    groups: dict[str, set[UnitKey]] = {}
    for unit in units:
        key = (unit.item_id, unit.response_id)
        if key in wanted:
            name = slice_of(unit, by, variants.get(unit.item_id))
            groups.setdefault(name, set()).add(key)
    return [(name, groups[name]) for name in sorted(groups)]
