"""Panel E: one rater against the human consensus, on exactly the units of its matrix.

The matrix counts the units where both the consensus and the rater have a label; every
per-class number beside it (precision, recall, F1, Cohen's κ of the binarised labels, α
one-vs-rest, specific agreement, prevalences) is computed on those same units, so a reader
can check each one against the matrix.
"""

from __future__ import annotations

import numpy as np

from w2c_tui.domain.dashboard import ClassDoc, DisagreementDoc, DrilldownDoc, MatrixDoc
from w2c_tui.domain.labels import LABELS, Label
from w2c_tui.services.consensus import human_unanimity
from w2c_tui.services.dashboard.common import CATEGORIES, est, unshared
from w2c_tui.services.readings import Readings
from w2c_tui.stats import RatingTable, krippendorff_alpha
from w2c_tui.stats.classes import per_class
from w2c_tui.stats.reference import class_scores


def matrix_units(readings: Readings, key: str, ref: dict[str, Label]) -> list[str]:
    """The units of the rater's confusion matrix: a consensus label and a rater label."""
    return [u for u in ref if readings.label(u, key) is not None]


def drilldown(
    readings: Readings, key: str, ref: dict[str, Label], *, bootstrap: int, seed: int
) -> DrilldownDoc:
    """Confusion (rows: consensus, columns: rater), per class, and the disagreements."""
    if not ref:
        return DrilldownDoc(reason="no human reference yet: label (or adjudicate) to compare")
    units = matrix_units(readings, key, ref)
    if not units:
        return DrilldownDoc(reason=f"not defined: {unshared(readings, key, ref)}")
    a = np.array([ref[u].option for u in units])
    b = np.array([lab.option for u in units if (lab := readings.label(u, key)) is not None])
    confusion, precision, recall, f1 = class_scores(a, b, range(len(LABELS)))
    cells: dict[str, list[str]] = {}
    for unit, x, y in zip(units, a, b, strict=True):
        cells.setdefault(f"{x},{y}", []).append(unit)
    rows = confusion.sum(axis=1, keepdims=True)
    normalised = np.divide(
        confusion, rows, out=np.zeros_like(confusion, dtype=float), where=rows > 0
    )
    agreement = per_class(a, b, CATEGORIES, bootstrap=bootstrap, seed=seed)
    total = int(confusion.sum())
    classes: dict[str, ClassDoc] = {}
    for label in LABELS:
        k = label.option
        support, predicted = int(confusion[k, :].sum()), int(confusion[:, k].sum())
        classes[label.value] = ClassDoc(
            support=support,
            precision=precision[k],
            recall=recall[k],
            f1=f1[k],
            specific_agreement=est(agreement[label.value]["specific"]),
            kappa=est(agreement[label.value]["kappa"]),
            alpha=est(agreement[label.value]["alpha"]),
            prevalence_humans=support / total,
            prevalence_rater=predicted / total,
        )
    pair = RatingTable.from_long(
        [
            (u, side, lab.value)
            for u, x, y in zip(units, a, b, strict=True)
            for side, lab in (("consensus", LABELS[x]), (key, LABELS[y]))
        ],
        CATEGORIES,
    )
    found = disagreements(readings, key, ref)
    return DrilldownDoc(
        matrix=MatrixDoc(
            n=len(units),
            confusion=tuple(tuple(row) for row in confusion.tolist()),
            row_normalised=tuple(tuple(row) for row in normalised.tolist()),
            cells={cell: tuple(members) for cell, members in cells.items()},
            per_class=classes,
            disagreements=tuple(found),
            n_disagreements=len(found),
            alpha_pair=est(krippendorff_alpha(pair)),
        )
    )


def disagreements(readings: Readings, key: str, ref: dict[str, Label]) -> list[DisagreementDoc]:
    """Units where the rater's reading (a label, or an invalid output) differs from the
    reference, the ones where the humans were unanimous first."""
    unanimity = human_unanimity(readings)
    units = {u.key: u for u in readings.units}
    found: list[DisagreementDoc] = []
    for unit_key, label in ref.items():
        value = readings.values.get((unit_key, key))
        if value is None or value == label:
            continue
        unit = units[unit_key]
        found.append(
            DisagreementDoc(
                unit=unit_key,
                item_id=unit.item_id,
                uuid=unit.item_uuid,
                target_model=unit.target_model,
                consensus=label.value,
                rater=str(value),
                humans=tuple(
                    str(readings.values[(unit_key, h.key)])
                    for h in readings.humans()
                    if (unit_key, h.key) in readings.values
                ),
                unanimity=unanimity.get(unit_key, 1.0),
            )
        )
    found.sort(key=lambda d: (-(d.unanimity or 0.0), units[d.unit].position))
    return found
