"""α at a question's level: the package's value where it is defined, a reason where not."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest

from w2c_tui.stats.levels import LevelName, alpha_at_level

NAN = np.nan
# Krippendorff's reliability example (Content Analysis, 2004): 4 raters × 12 units, here
# units × raters; published α: nominal .743, ordinal .815, interval .849.
TABLE = np.array(
    [
        [1, 1, NAN, 1],
        [2, 2, 3, 2],
        [3, 3, 3, 3],
        [3, 3, 3, 3],
        [2, 2, 2, 2],
        [1, 2, 3, 4],
        [4, 4, 4, 4],
        [1, 1, 2, 1],
        [2, 2, 2, 2],
        [NAN, 5, 5, 5],
        [NAN, NAN, 1, 1],
        [NAN, NAN, 3, NAN],
    ]
)


@pytest.mark.parametrize(
    ("level", "published"), [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849)]
)
def test_the_published_example(level: LevelName, published: float) -> None:
    got = alpha_at_level(TABLE, level, [1.0, 2.0, 3.0, 4.0, 5.0])
    expected = krippendorff.alpha(
        reliability_data=TABLE.T, level_of_measurement=level, value_domain=[1, 2, 3, 4, 5]
    )
    assert got.alpha == pytest.approx(expected)
    assert got.alpha == pytest.approx(published, abs=5e-4)
    assert (got.n_units, got.n_values) == (11, 40)


def test_no_variation_is_not_a_number() -> None:
    got = alpha_at_level(np.array([[1, 1], [1, 1], [1, NAN]]), "ordinal", [0.0, 1.0, 2.0])
    assert got.alpha is None and got.reason is not None and "no variation" in got.reason
    assert (got.n_units, got.n_values) == (2, 4)


def test_no_pairable_unit_is_not_a_number() -> None:
    got = alpha_at_level(np.array([[1, NAN], [NAN, 0]]), "nominal", [0.0, 1.0])
    assert got.alpha is None and got.reason is not None and "two raters" in got.reason
    assert (got.n_units, got.n_values) == (0, 0)


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="level"):
        alpha_at_level([[1, 1]], "ratio", [1.0])
