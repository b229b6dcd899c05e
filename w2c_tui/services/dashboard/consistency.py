"""MCQ-vs-generation consistency: a target model's MCQ choice against the human label of its
generated response to the same item (domain.dashboard_consistency says why this is not a
stand-in question).

The link: an MCQ reading (log-prob or index) is stored per item and target model, with no
response; a human label reads a response, per item and model, the most recent response of
that model counting (services/readings.py). Both land on the unit `uuid@model`, so the pair
compared is the model's MCQ choice and the human reference of its latest response there.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from w2c_tui.domain.dashboard import (
    CONSISTENCY_QUESTION,
    MIN_UNITS,
    ConsistencyDoc,
    ConsistencyRowDoc,
    undefined,
)
from w2c_tui.domain.labels import LABELS, InvalidMode, Label, RaterKind
from w2c_tui.domain.review import UnitKind
from w2c_tui.services.dashboard.common import CONSENSUS, est_json, table_of, too_few
from w2c_tui.services.readings import INVALID, RaterInfo, Readings
from w2c_tui.stats import agreement_summary

MCQ_KINDS = (RaterKind.MCQ_LOGPROB, RaterKind.MCQ_INDEX)
REFERENCE = (
    "the human reference label of the model's latest response to the item (adjudicated, else "
    "the majority of the human labels); invalid MCQ readings are counted and left out"
)


def stands_in(rater: RaterInfo, kind: UnitKind) -> bool:
    """Whether "can it stand in for a human?" is a question for this (non-human) rater: it is
    where the rater reads what the humans read (judges on responses; every rater, gold
    included, in item QA). An MCQ reading on responses is the model's own choice, not a
    reading of the response."""
    return kind is UnitKind.ITEM or rater.kind not in MCQ_KINDS


def mcq_consistency(
    readings: Readings, raters: list[str], ref: dict[str, Label], *, bootstrap: int, seed: int
) -> ConsistencyDoc:
    """One row per MCQ reading among `raters` and target model it read."""
    rows = []
    for key in raters:
        info = readings.rater(key)
        if info.kind not in MCQ_KINDS:
            continue
        models = sorted(
            {u.target_model or "" for u in readings.units if (u.key, key) in readings.values}
        )
        for model in models:
            rows.append(_row(readings, info, model or None, ref, bootstrap=bootstrap, seed=seed))
    return ConsistencyDoc(question=CONSISTENCY_QUESTION, reference=REFERENCE, rows=tuple(rows))


def _row(
    readings: Readings,
    info: RaterInfo,
    model: str | None,
    ref: dict[str, Label],
    *,
    bootstrap: int,
    seed: int,
) -> ConsistencyRowDoc:
    units = [u.key for u in readings.units if u.target_model == model]
    read = [u for u in units if (u, info.key) in readings.values]
    invalid = sum(1 for u in read if readings.values[(u, info.key)] == INVALID)
    shared = [u for u in read if u in ref and readings.label(u, info.key) is not None]
    confusion = np.zeros((len(LABELS), len(LABELS)), dtype=int)
    for unit in shared:
        choice = readings.label(unit, info.key)
        assert choice is not None
        confusion[ref[unit].option, choice.option] += 1
    n_ref = sum(1 for u in units if u in ref)
    reason = None
    if not shared:
        reason = _why_none(len(read), invalid, n_ref)
        agreement = kappa = undefined(reason)
    elif len(shared) < MIN_UNITS:
        agreement = kappa = too_few(len(shared))
    else:
        pair = table_of(
            readings, [info.key, CONSENSUS], InvalidMode.MISSING, {CONSENSUS: ref}, set(shared)
        )
        summary = agreement_summary(pair, bootstrap=bootstrap, seed=seed)
        [result] = cast(list[dict[str, object]], summary["pairwise"])
        agreement = est_json(result["percent_agreement"])
        kappa = est_json(result["cohen_kappa"])
    return ConsistencyRowDoc(
        scorer=info.key,
        kind=info.kind.value,
        reading=info.reading,
        target_model=model,
        n_mcq=len(read),
        n_invalid=invalid,
        n_reference=n_ref,
        n=len(shared),
        agreement=agreement,
        cohen_kappa=kappa,
        confusion=tuple(tuple(int(x) for x in row) for row in confusion),
        reason=reason,
    )


def _why_none(n_read: int, n_invalid: int, n_ref: int) -> str:
    if not n_ref:
        return "no human reference yet"
    if n_invalid and n_invalid == n_read:
        return f"all {n_read} MCQ readings are invalid"
    return "no unit with both a valid MCQ choice and a human reference"
