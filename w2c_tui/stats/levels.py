"""Krippendorff's α at a question's level of measurement (nominal, ordinal, interval).

The value comes from the `krippendorff` package (layout raters × units, NaN for missing, the
question's every option in `value_domain`). Where α is not defined the package returns NaN or
raises (docs/AGREEMENT.md §8), so those cases are found first and told in words: no unit with
two answers, or every pairable answer the same (no variation, D_e = 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import krippendorff
import numpy as np
import numpy.typing as npt

LevelName = Literal["nominal", "ordinal", "interval"]
LEVELS: dict[str, LevelName] = {"nominal": "nominal", "ordinal": "ordinal", "interval": "interval"}
"""The levels α is computed at, by name."""


@dataclass(frozen=True, slots=True)
class LevelAlpha:
    """α of one question, or why it is not defined; the units and values it rests on."""

    level: str
    alpha: float | None
    reason: str | None
    n_units: int
    """Pairable units: those with answers from at least two raters."""
    n_values: int
    """Answers in the pairable units (the values α compares)."""


def alpha_at_level(values: npt.ArrayLike, level: str, domain: list[float]) -> LevelAlpha:
    """α of `values` (units × raters, NaN where a rater gave no answer) at `level`, with the
    option values `domain` in their order."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    data = np.asarray(values, dtype=np.float64)
    if data.ndim != 2:
        raise ValueError(f"values must be 2-D (units × raters), got shape {data.shape}")
    answered = ~np.isnan(data)
    pairable = answered.sum(axis=1) >= 2
    n_units = int(pairable.sum())
    n_values = int(answered[pairable].sum())
    if n_units == 0:
        why = "not defined, because no unit has answers from two raters"
        return LevelAlpha(level, None, why, 0, 0)
    seen = np.unique(data[pairable][answered[pairable]])
    if len(seen) < 2:
        why = "not defined, because every pairable answer is the same (no variation)"
        return LevelAlpha(level, None, why, n_units, n_values)
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        got = float(
            krippendorff.alpha(
                reliability_data=data.T,
                level_of_measurement=LEVELS[level],
                value_domain=domain,
            )
        )
    return LevelAlpha(level, got, None, n_units, n_values)
