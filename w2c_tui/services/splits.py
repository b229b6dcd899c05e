"""`w2c split`: a frozen dev/test split of a dataset's labelled responses, stratified by gold.

The units are the responses with a human reference (adjudication, else the majority of at
least `min_humans` labels). Within each gold class the units are shuffled with the seed and
round(test share × class size) of them go to test. The split is stored and frozen: drawing
again needs `force`, and units labelled after it are not added (they are counted as outside
the split, so a comparison on dev or test says what it covers). Each use of the test part is
counted and shown ("test used 3 times"): a prompt tuned while looking at test is tuned on it.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass

from w2c_tui.db.splits import StoredSplit
from w2c_tui.db.store import Store
from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.review import UnitKind
from w2c_tui.services.consensus import consensus
from w2c_tui.services.readings import stored_readings

PARTS = ("dev", "test")


@dataclass(frozen=True)
class SplitView:
    """A split and how it stands against today's labels."""

    split: StoredSplit
    outside: int
    """Units with a human reference today that are not in the split (labelled after it)."""

    def counts(self) -> dict[str, int]:
        """Units per part."""
        return {part: sum(1 for p in self.split.units.values() if p == part) for part in PARTS}

    def as_json(self) -> dict[str, object]:
        """The `w2c split --json` document."""
        s = self.split
        return {
            "dataset": s.dataset,
            "seed": s.seed,
            "test_share": s.test_share,
            "created_at": s.created_at.isoformat(timespec="seconds"),
            "units": self.counts(),
            "test_uses": s.test_uses,
            "labelled_outside_split": self.outside,
        }

    def text(self) -> str:
        """One line for people."""
        c = self.counts()
        outside = (
            f"; {self.outside} labelled unit(s) came after it and are in neither part"
            if self.outside
            else ""
        )
        return (
            f"{self.split.dataset}: dev {c['dev']} / test {c['test']} units (seed "
            f"{self.split.seed}, test share {self.split.test_share:g}); test used "
            f"{self.split.test_uses} times{outside}"
        )


def labelled_units(store: Store, dataset: str, min_humans: int = 1) -> dict[str, str]:
    """Unit key → gold class name of every response with a human reference."""
    readings = stored_readings(store.ratings, dataset, UnitKind.BEHAVIOUR)
    ref = consensus(readings, min_humans).labels
    return {
        u.key: (u.gold.value if u.gold is not None else "none")
        for u in readings.units
        if u.key in ref
    }


def draw(
    store: Store,
    dataset: str,
    *,
    test_share: float,
    seed: int,
    force: bool = False,
    min_humans: int = 1,
) -> SplitView:
    """Draw and store the split (see the module)."""
    if not 0.0 < test_share < 1.0:
        raise W2CError(f"--test must lie between 0 and 1, got {test_share}")
    units = labelled_units(store, dataset, min_humans)
    if not units:
        raise W2CError(f"{dataset!r} has no response with a human reference to split")
    strata: dict[str, list[str]] = defaultdict(list)
    for key, gold in sorted(units.items()):
        strata[gold].append(key)
    rng = random.Random(seed)
    parts: dict[str, str] = {}
    for gold in sorted(strata):
        keys = strata[gold]
        rng.shuffle(keys)
        n_test = round(test_share * len(keys))
        for i, key in enumerate(keys):
            parts[key] = "test" if i < n_test else "dev"
    saved = store.splits.save(dataset, seed, test_share, parts, force=force)
    return SplitView(saved, outside=0)


def show(store: Store, dataset: str, min_humans: int = 1) -> SplitView:
    """The stored split and how many labelled units came after it."""
    split = store.splits.get(dataset)
    if split is None:
        raise W2CError(f"{dataset!r} has no split yet: `w2c split --test 0.3 --seed S` draws one")
    outside = sum(1 for k in labelled_units(store, dataset, min_humans) if k not in split.units)
    return SplitView(split, outside)
