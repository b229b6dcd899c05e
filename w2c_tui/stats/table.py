"""The rating table: units × raters nominal codes with -1 for a missing label."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

MISSING = -1
IntArray = npt.NDArray[np.int64]


def _unique_names(kind: str, names: Sequence[str]) -> tuple[str, ...]:
    out = tuple(str(n) for n in names)
    seen: set[str] = set()
    for name in out:
        if name in seen:
            raise ValueError(f"duplicate {kind} name: {name!r}")
        seen.add(name)
    return out


@dataclass(frozen=True)
class RatingTable:
    """Nominal ratings: ``codes[i, j]`` is rater j's category code for unit i, -1 if missing.

    ``categories`` lists ALL categories (used or not): code k means ``categories[k]``.
    """

    codes: npt.NDArray[np.int16]
    categories: tuple[str, ...]
    raters: tuple[str, ...]
    units: tuple[str, ...]

    def __post_init__(self) -> None:
        codes = np.asarray(self.codes)
        if codes.ndim != 2:
            raise ValueError(f"codes must be 2-D (units × raters), got shape {codes.shape}")
        if codes.size and not np.issubdtype(codes.dtype, np.integer):
            raise ValueError(f"codes must be integers, got dtype {codes.dtype}")
        object.__setattr__(self, "codes", codes.astype(np.int16, copy=False))
        object.__setattr__(self, "categories", _unique_names("category", self.categories))
        object.__setattr__(self, "raters", _unique_names("rater", self.raters))
        object.__setattr__(self, "units", _unique_names("unit", self.units))
        if codes.shape != (len(self.units), len(self.raters)):
            raise ValueError(
                f"codes shape {codes.shape} does not match "
                f"{len(self.units)} units × {len(self.raters)} raters"
            )
        if codes.size and (codes.min() < MISSING or codes.max() >= len(self.categories)):
            raise ValueError(
                f"codes must lie in [-1, {len(self.categories) - 1}] "
                f"(got {codes.min()}..{codes.max()})"
            )

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_codes(
        cls,
        codes: npt.ArrayLike,
        categories: Sequence[str],
        raters: Sequence[str] | None = None,
        units: Sequence[str] | None = None,
    ) -> RatingTable:
        """Wrap a units × raters code matrix; raters/units default to "r0".. / "u0"..."""
        arr = np.asarray(codes)
        if arr.ndim != 2:
            raise ValueError(f"codes must be 2-D (units × raters), got shape {arr.shape}")
        n_units, n_raters = arr.shape
        return cls(
            codes=arr,
            categories=tuple(categories),
            raters=tuple(raters) if raters is not None else tuple(f"r{j}" for j in range(n_raters)),
            units=tuple(units) if units is not None else tuple(f"u{i}" for i in range(n_units)),
        )

    @classmethod
    def from_long(
        cls,
        records: Iterable[tuple[str, str, str | None]],
        categories: Sequence[str] | None = None,
    ) -> RatingTable:
        """Build from (unit, rater, label) records; a label of None or "" is missing.

        Units and raters keep their order of first appearance. Without ``categories`` the
        categories are the sorted distinct labels; with them, an unknown label is a ValueError.
        A (unit, rater) pair given twice with different labels is a ValueError.
        """
        unit_ix: dict[str, int] = {}
        rater_ix: dict[str, int] = {}
        seen: dict[tuple[int, int], str | None] = {}
        for unit, rater, label in records:
            u = unit_ix.setdefault(str(unit), len(unit_ix))
            r = rater_ix.setdefault(str(rater), len(rater_ix))
            lab = None if label is None or label == "" else str(label)
            if (u, r) in seen and seen[(u, r)] != lab:
                raise ValueError(
                    f"unit {unit!r}, rater {rater!r} given twice with different labels: "
                    f"{seen[(u, r)]!r} and {lab!r}"
                )
            seen[(u, r)] = lab
        labels = {lab for lab in seen.values() if lab is not None}
        if categories is None:
            cats = tuple(sorted(labels))
        else:
            cats = _unique_names("category", categories)
            unknown = sorted(labels - set(cats))
            if unknown:
                raise ValueError(f"unknown label(s) {unknown} not in categories {list(cats)}")
        code_of = {c: k for k, c in enumerate(cats)}
        codes = np.full((len(unit_ix), len(rater_ix)), MISSING, dtype=np.int16)
        for (u, r), lab in seen.items():
            if lab is not None:
                codes[u, r] = code_of[lab]
        return cls(codes=codes, categories=cats, raters=tuple(rater_ix), units=tuple(unit_ix))

    @classmethod
    def from_coded_long(
        cls,
        unit: npt.ArrayLike,
        rater: npt.ArrayLike,
        label: npt.ArrayLike,
        units: Sequence[str],
        raters: Sequence[str],
        categories: Sequence[str],
    ) -> RatingTable:
        """Build from parallel code arrays (one entry per rating: unit, rater, category code
        or -1 for missing), each (unit, rater) pair at most once: what `from_long` builds from
        the same records, without a Python object per record."""
        codes = np.full((len(units), len(raters)), MISSING, dtype=np.int16)
        at = (np.asarray(unit, dtype=np.int64), np.asarray(rater, dtype=np.int64))
        codes[at] = np.asarray(label, dtype=np.int16)
        return cls(
            codes=codes, categories=tuple(categories), raters=tuple(raters), units=tuple(units)
        )

    # ------------------------------------------------------------------ views
    @property
    def n_units(self) -> int:
        return int(self.codes.shape[0])

    @property
    def n_raters(self) -> int:
        return int(self.codes.shape[1])

    @property
    def q(self) -> int:
        """Number of categories (all of them, used or not)."""
        return len(self.categories)

    def counts(self) -> IntArray:
        """(n_units, q) matrix r_ik: how many raters put unit i in category k."""
        n, q = self.n_units, self.q
        if n == 0 or q == 0:
            return np.zeros((n, q), dtype=np.int64)
        rows, cols = np.nonzero(self.codes >= 0)
        flat = rows.astype(np.int64) * q + self.codes[rows, cols]
        return np.bincount(flat, minlength=n * q).reshape(n, q)

    def ratings_per_unit(self) -> IntArray:
        """r_i: how many raters labelled each unit."""
        return np.asarray((self.codes >= 0).sum(axis=1), dtype=np.int64)

    def patterns(self) -> npt.NDArray[np.int32]:
        """Id of each unit's row of codes (0..U−1): units with equal ids have identical ratings.

        Every statistic of this engine is a function of a unit's row, so the bootstrap can
        sum resample weights per pattern instead of per unit (``resample.bootstrap``).
        """
        n, m = self.codes.shape
        if n == 0:
            return np.zeros(0, dtype=np.int32)
        base = self.q + 1
        if m * np.log2(max(base, 2)) < 62:
            shifted = self.codes.astype(np.int64) + 1
            key = shifted @ (base ** np.arange(m, dtype=np.int64))
            _, inverse = np.unique(key, return_inverse=True)
        else:
            _, inverse = np.unique(self.codes, axis=0, return_inverse=True)
        return np.asarray(inverse, dtype=np.int32).reshape(n)

    def rater_index(self, rater: str) -> int:
        try:
            return self.raters.index(rater)
        except ValueError:
            raise ValueError(f"unknown rater {rater!r}; raters are {list(self.raters)}") from None

    def column(self, rater: str) -> npt.NDArray[np.int16]:
        """One rater's codes over all units (-1 = missing)."""
        return np.asarray(self.codes[:, self.rater_index(rater)])

    def subset(self, raters: Sequence[str]) -> RatingTable:
        """The same units with only ``raters`` (in the order given)."""
        if isinstance(raters, str):
            raise TypeError("subset() takes a sequence of rater names, not one string")
        ix = [self.rater_index(r) for r in raters]
        return RatingTable(
            codes=self.codes[:, ix],
            categories=self.categories,
            raters=tuple(self.raters[j] for j in ix),
            units=self.units,
        )

    def take(self, index: npt.ArrayLike) -> RatingTable:
        """Units by position; repeated positions are allowed (a bootstrap resample)."""
        ix = np.asarray(index, dtype=np.int64).ravel()
        units = tuple(f"{self.units[i]}#{k}" for k, i in enumerate(ix.tolist()))
        return RatingTable(
            codes=self.codes[ix], categories=self.categories, raters=self.raters, units=units
        )

    def rated(self) -> RatingTable:
        """Only the units with at least one rating."""
        return self.rated_by(self.raters)

    def rated_by(self, raters: Sequence[str]) -> RatingTable:
        """Only the units with at least one rating from ``raters`` (all raters kept)."""
        keep = np.flatnonzero(self.subset(raters).ratings_per_unit() > 0)
        if keep.size == self.n_units:
            return self
        return RatingTable(
            codes=self.codes[keep],
            categories=self.categories,
            raters=self.raters,
            units=tuple(self.units[i] for i in keep.tolist()),
        )
