"""Who labels what: seeded unit selection and balanced K-overlap assignment (pure functions).

Selection ranks every unit by a seeded hash and takes the first N of each stratum, so a
larger N with the same seed takes a superset: running `w2c assign` again with a larger
selection extends the plan without moving what exists.

Assignment is greedy: each new unit, in rank order, goes to the K annotators with the fewest
units so far (ties broken by a seeded hash of unit and annotator). Starting from loads within
±1 of each other, handing one unit to the K least loaded keeps them within ±1, so a plan over
a fixed set of annotators is balanced whatever its size.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from w2c_tui.db.units import Candidate
from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.labels import LABELS
from w2c_tui.domain.team import Selection, unit_rank


def tool_bucket(n_tools: int) -> str:
    """The paper's tool slices: 0, 1, 2+."""
    return "0" if n_tools == 0 else "1" if n_tools == 1 else "2+"


def tool_slice(n_tools: int) -> str:
    """A tool slice's name: '0 tools', '1 tool', '2+ tools'."""
    bucket = tool_bucket(n_tools)
    return f"{bucket} tool" if bucket == "1" else f"{bucket} tools"


def _stratum(unit: Candidate, selection: Selection) -> tuple[str, ...]:
    parts: list[str] = []
    if selection.per_label:
        parts.append(unit.gold.value if unit.gold else "no gold")
    if selection.per_tools:
        parts.append(tool_bucket(unit.n_tools))
    return tuple(parts)


def select_units(
    candidates: Sequence[Candidate], selection: Selection, seed: int
) -> tuple[list[Candidate], list[str]]:
    """The units a selection covers, in seeded rank order, and notes on thin strata."""
    pool = [c for c in candidates if selection.source is None or c.source == selection.source]
    ranked = sorted(pool, key=lambda c: unit_rank(seed, c.key))
    notes: list[str] = []
    per = selection.per_label or selection.per_tools
    if per:
        taken: dict[tuple[str, ...], list[Candidate]] = {}
        for unit in ranked:
            bucket = taken.setdefault(_stratum(unit, selection), [])
            if len(bucket) < per:
                bucket.append(unit)
        wanted = [label.value for label in LABELS if label.value != "direct"]
        if selection.per_label:
            for label in wanted:
                if not any(label in key for key in taken):
                    notes.append(f"no unit with gold {label}")
        for key, bucket in sorted(taken.items()):
            if len(bucket) < per:
                notes.append(f"stratum {' × '.join(key)}: only {len(bucket)} of {per} units")
        chosen = {u.key for bucket in taken.values() for u in bucket}
        ranked = [u for u in ranked if u.key in chosen]
    if selection.sample is not None:
        if selection.sample > len(ranked):
            notes.append(f"asked for {selection.sample} units, {len(ranked)} available")
        ranked = ranked[: selection.sample]
    return ranked, notes


def _tie(seed: int, unit: str, annotator: str) -> str:
    return hashlib.sha256(f"assign:{seed}:{unit}:{annotator}".encode()).hexdigest()


def assign_units(
    units: Sequence[Candidate],
    annotators: Sequence[str],
    overlap: int,
    seed: int,
    existing: dict[str, set[str]],
) -> list[tuple[str, Candidate]]:
    """New (annotator, unit) pairs giving every unit exactly `overlap` annotators."""
    if overlap < 1:
        raise W2CError(f"--overlap must be at least 1 (got {overlap})")
    if overlap > len(annotators):
        raise W2CError(
            f"--overlap {overlap} needs at least {overlap} annotators; "
            f"--annotators names {len(annotators)}"
        )
    loads = {a: 0 for a in annotators}
    for people in existing.values():
        for person in people:
            loads[person] = loads.get(person, 0) + 1
    pairs: list[tuple[str, Candidate]] = []
    for unit in units:
        have = existing.get(unit.key, set())
        need = overlap - len(have)
        if need <= 0:
            continue
        free = [a for a in annotators if a not in have]
        free.sort(key=lambda a: (loads[a], _tie(seed, unit.key, a)))
        for person in free[:need]:
            loads[person] += 1
            pairs.append((person, unit))
    return pairs
