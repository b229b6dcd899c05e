"""Agreement between humans, judges and scorers: the calibration dashboard's panels.

Panels follow ../shared/docs/AGREEMENT.md §2: A coverage and overlap, B label distributions
(with Stuart–Maxwell against the consensus), C human reliability (the ceiling), D one row per
automated rater against the humans, E drill-down (confusion, per class, disagreements),
F probabilistic calibration of log-prob scorers. Every value is plain JSON.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from w2c_tui import __version__
from w2c_tui.db.store import Store
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.labels import LABELS, Label, RaterKind
from w2c_tui.io.ratings import read_ratings
from w2c_tui.services.consensus import consensus, human_unanimity
from w2c_tui.services.metrics import Against, rater_metrics
from w2c_tui.services.readings import (
    INVALID,
    RaterInfo,
    Readings,
    UnitKind,
    build_readings,
)
from w2c_tui.services.reveal import reveal_effects
from w2c_tui.stats import (
    RatingTable,
    agreement_summary,
    alt_test,
    cohen_kappa,
    gwet_ac1,
    judge_vs_humans,
    krippendorff_alpha,
    one_vs_rest,
    specific_agreement,
    stuart_maxwell,
)
from w2c_tui.stats.metrics import InvalidMode

CATEGORIES = [label.value for label in LABELS]
CONSENSUS = "consensus"


def categories(invalid_mode: InvalidMode) -> list[str]:
    """The four labels, plus `invalid` as a category of its own in the strict mode."""
    return [*CATEGORIES, INVALID] if invalid_mode is InvalidMode.WRONG else list(CATEGORIES)


def table_of(
    readings: Readings,
    raters: list[str],
    invalid_mode: InvalidMode,
    extra: dict[str, dict[str, Label]] | None = None,
) -> RatingTable:
    """units × raters; an invalid reading is missing, or the category `invalid` when strict."""
    records: list[tuple[str, str, str | None]] = []
    for unit in readings.units:
        for rater in raters:
            if extra and rater in extra:
                value: Label | str | None = extra[rater].get(unit.key)
            else:
                value = readings.values.get((unit.key, rater))
            if value == INVALID and invalid_mode is InvalidMode.MISSING:
                value = None
            records.append((unit.key, rater, str(value) if value is not None else None))
    return RatingTable.from_long(records, categories(invalid_mode))


class AgreementService:
    """Agreement summaries and the calibration dashboard."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def readings(self, dataset: str, kind: UnitKind = UnitKind.BEHAVIOUR) -> Readings:
        """Current verdicts arranged by unit and rater."""
        return build_readings(
            self._store.ratings.items(dataset), self._store.ratings.ratings(dataset), kind
        )

    def default_raters(self, readings: Readings) -> list[str]:
        """Humans and every automated reading; gold only where it reads the same thing."""
        return [
            r.key
            for r in readings.raters
            if r.kind is not RaterKind.GOLD or readings.kind is UnitKind.ITEM
        ]

    def summary(
        self,
        dataset: str,
        *,
        raters: list[str] | None = None,
        kind: UnitKind = UnitKind.BEHAVIOUR,
        bootstrap: int = 1000,
        seed: int = 0,
        invalid_mode: InvalidMode | str = InvalidMode.MISSING,
    ) -> dict[str, object]:
        """The `w2c agreement --json` document for a dataset's raters."""
        invalid_mode = InvalidMode(invalid_mode)
        readings = self.readings(dataset, kind)
        chosen = self._choose(readings, raters)
        doc = agreement_summary(
            table_of(readings, chosen, invalid_mode), bootstrap=bootstrap, seed=seed
        )
        doc["dataset"] = dataset
        doc["unit_kind"] = kind.value
        doc["raters"] = chosen
        doc["invalid_mode"] = invalid_mode.value
        doc["reveal"] = reveal_effects(self._store, dataset, readings)
        return doc

    @staticmethod
    def summary_file(path: Path, *, bootstrap: int = 1000, seed: int = 0) -> dict[str, object]:
        """Agreement of any long-format ratings table (CSV / JSONL: item, rater, label)."""
        rows = read_ratings(path)
        doc = agreement_summary(RatingTable.from_long(rows), bootstrap=bootstrap, seed=seed)
        doc["source"] = str(path)
        return doc

    def _choose(self, readings: Readings, raters: list[str] | None) -> list[str]:
        if not raters:
            return self.default_raters(readings)
        known = {r.key for r in readings.raters}
        unknown = [r for r in raters if r not in known]
        if unknown:
            raise NotFoundError(f"no rater {unknown[0]!r} (raters: {', '.join(sorted(known))})")
        return list(raters)

    def dashboard(
        self,
        dataset: str,
        *,
        kind: UnitKind = UnitKind.BEHAVIOUR,
        raters: list[str] | None = None,
        bootstrap: int = 1000,
        seed: int = 0,
        min_humans: int = 1,
        invalid_mode: InvalidMode | str = InvalidMode.MISSING,
    ) -> dict[str, Any]:
        """Every panel of the calibration dashboard for one dataset."""
        invalid_mode = InvalidMode(invalid_mode)
        readings = self.readings(dataset, kind)
        chosen = self._choose(readings, raters)
        humans = [r.key for r in readings.humans() if r.key in chosen]
        automated = [r.key for r in readings.raters if r.key in chosen and r.key not in humans]
        agreed = consensus(readings, min_humans)
        ref = agreed.labels
        facts = {d.name: d for d in self._store.datasets.all()}.get(dataset)
        meta = {
            "dataset": dataset,
            "sha256": facts.sha256 if facts else None,
            "source_path": facts.source_path if facts else None,
            "unit_kind": kind.value,
            "n_units": len(readings.units),
            "raters": chosen,
            "bootstrap": {"B": bootstrap, "seed": seed, "level": 0.95},
            "min_humans": min_humans,
            "invalid_mode": invalid_mode.value,
            "consensus": agreed.as_json(),
            "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "w2c_tui": __version__,
        }
        opts = {"bootstrap": bootstrap, "seed": seed}
        return {
            "meta": meta,
            "coverage": _coverage(readings, chosen),
            "distributions": _distributions(readings, chosen, humans, ref),
            "humans": _humans(readings, humans, invalid_mode, **opts),
            "automated": [
                _automated_row(readings, key, humans, ref, invalid_mode, **opts)
                for key in automated
            ],
            "drilldown": {
                key: _drilldown(readings, key, ref, invalid_mode, **opts) for key in automated
            },
            "pairwise": agreement_summary(table_of(readings, chosen, invalid_mode), bootstrap=0)[
                "pairwise"
            ],
            "metrics": [
                m.as_json()
                for key in automated
                for m in _metrics_rows(readings, readings.rater(key), invalid_mode)
            ],
            "reveal": reveal_effects(self._store, dataset, readings),
        }


def _metrics_rows(readings: Readings, rater: RaterInfo, invalid_mode: InvalidMode) -> list[Any]:
    if rater.reading != "label" or rater.kind is RaterKind.GOLD:
        return []
    models: list[str | None] = [*sorted({u.target_model for u in readings.units if u.target_model})]
    out = []
    for model in models or [None]:
        row = rater_metrics(
            readings, rater, Against.GOLD, target_model=model, invalid_mode=invalid_mode
        )
        if row is not None:
            out.append(row)
    return out


def _coverage(readings: Readings, raters: list[str]) -> dict[str, Any]:
    n_units = len(readings.units)
    rated = {k: {u for (u, r) in readings.values if r == k} for k in raters}
    rows = []
    for key in raters:
        info = readings.rater(key)
        invalid = sum(1 for (u, r), v in readings.values.items() if r == key and v == INVALID)
        n = len(rated[key])
        rows.append(
            {
                "key": key,
                "kind": info.kind.value,
                "name": info.name,
                "reading": info.reading,
                "n_rated": n,
                "n_invalid": invalid,
                "invalid_rate": invalid / n if n else None,
                "coverage": n / n_units if n_units else None,
            }
        )
    per_unit = Counter(sum(1 for k in raters if u.key in rated[k]) for u in readings.units)
    overlap = [[len(rated[a] & rated[b]) for b in raters] for a in raters]
    return {
        "n_units": n_units,
        "raters": rows,
        "ratings_per_unit": {str(k): v for k, v in sorted(per_unit.items())},
        "overlap": {"raters": raters, "matrix": overlap},
    }


def _distribution(values: list[Label | str]) -> dict[str, Any]:
    counts = Counter(str(v) for v in values)
    return {"n": len(values), **{c: counts.get(c, 0) for c in [*CATEGORIES, INVALID]}}


def _distributions(
    readings: Readings, raters: list[str], humans: list[str], ref: dict[str, Label]
) -> dict[str, Any]:
    per_rater = {
        k: _distribution([v for (u, r), v in readings.values.items() if r == k]) for k in raters
    }
    pooled = _distribution([v for (u, r), v in readings.values.items() if r in humans])
    homogeneity: dict[str, Any] = {}
    for key in raters:
        if key in humans or not ref:
            continue
        pairs = [(ref[u], readings.label(u, key)) for u in ref]
        table = np.zeros((4, 4), dtype=int)
        for a, b in pairs:
            if b is not None:
                table[a.option, b.option] += 1
        if table.sum():
            homogeneity[key] = stuart_maxwell(table, CATEGORIES).as_json()
    return {
        "labels": CATEGORIES,
        "raters": per_rater,
        "humans_pooled": pooled,
        "consensus": _distribution(list(ref.values())),
        "stuart_maxwell": homogeneity,
    }


def _humans(
    readings: Readings, humans: list[str], invalid_mode: InvalidMode, *, bootstrap: int, seed: int
) -> dict[str, Any]:
    if len(humans) < 2:
        return {
            "raters": humans,
            "reason": "human reliability needs at least two annotators "
            f"labelling the same units ({len(humans)} so far)",
        }
    summary = agreement_summary(
        table_of(readings, humans, invalid_mode), bootstrap=bootstrap, seed=seed
    )
    pairs = summary["pairwise"]
    assert isinstance(pairs, list)
    kappas = [p["cohen_kappa"]["value"] for p in pairs if p["cohen_kappa"]["value"] is not None]
    alpha = summary["krippendorff_alpha"]
    assert isinstance(alpha, dict)
    value = alpha.get("value")
    if value is None:
        verdict = "α is not defined on these data"
    elif value >= 0.8:
        verdict = "α ≥ .800: the human reference is reliable"
    elif value >= 0.667:
        verdict = ".667 ≤ α < .800: only tentative conclusions"
    else:
        verdict = (
            "α < .667: the human reference itself is not reliable; no judge can be calibrated to it"
        )
    return {
        "raters": humans,
        "n_units_2plus": alpha.get("n"),
        "krippendorff_alpha": alpha,
        "percent_agreement": summary["percent_agreement"],
        "fleiss_kappa": summary["fleiss_kappa"],
        "gwet_ac1": summary["gwet_ac1"],
        "mean_pairwise_kappa": sum(kappas) / len(kappas) if kappas else None,
        "pairwise": pairs,
        "p_alpha_below": summary["p_alpha_below"],
        "interpretation": verdict,
    }


def _automated_row(
    readings: Readings,
    key: str,
    humans: list[str],
    ref: dict[str, Label],
    invalid_mode: InvalidMode,
    *,
    bootstrap: int,
    seed: int,
) -> dict[str, Any]:
    info = readings.rater(key)
    rated = [u for u in readings.units if (u.key, key) in readings.values]
    invalid = sum(1 for u in rated if readings.values[(u.key, key)] == INVALID)
    row: dict[str, Any] = {
        "key": key,
        "kind": info.kind.value,
        "name": info.name,
        "reading": info.reading,
        "coverage": len(rated) / len(readings.units) if readings.units else None,
        "invalid_rate": invalid / len(rated) if rated else None,
        "n_consensus": len(ref),
    }
    if not ref:
        row["reason"] = "no human consensus labels yet: label responses to compare"
        return row
    pair = table_of(readings, [key, CONSENSUS], invalid_mode, extra={CONSENSUS: ref})
    kappa = _pair_kappa(pair, bootstrap, seed)
    agree = [
        readings.label(u, key) == lab
        for u, lab in ref.items()
        if readings.label(u, key) is not None
    ]
    row.update(
        {
            "n": kappa.get("n"),
            "p_o": sum(agree) / len(agree) if agree else None,
            "cohen_kappa": kappa,
            "gwet_ac1": gwet_ac1(pair, bootstrap=bootstrap, seed=seed).as_json(),
        }
    )
    metrics = (
        rater_metrics(readings, info, Against.HUMANS, invalid_mode=invalid_mode)
        if info.reading == "label"
        else None
    )
    row["macro_f1"] = metrics.metrics.macro_f1_ref if metrics else None
    if invalid and invalid_mode is InvalidMode.MISSING:
        strict = table_of(readings, [key, CONSENSUS], InvalidMode.WRONG, extra={CONSENSUS: ref})
        row["cohen_kappa_invalid_wrong"] = _pair_kappa(strict, 0, seed)
    if humans:
        comparison = judge_vs_humans(
            table_of(readings, [*humans, key], invalid_mode),
            key,
            humans,
            bootstrap=bootstrap,
            seed=seed,
        )
        row["versus_humans"] = comparison.as_json()
    if len(humans) >= 3:
        row["alt_test"] = alt_test(
            table_of(readings, [*humans, key], invalid_mode), key, humans
        ).as_json()
    row["stratified"] = _stratified(readings, key, ref)
    return row


def _pair_kappa(pair: RatingTable, bootstrap: int, seed: int) -> dict[str, Any]:
    """Cohen's κ of a two-column table, with a unit-bootstrap interval."""
    summary = agreement_summary(pair, bootstrap=bootstrap, seed=seed)
    pairs = summary["pairwise"]
    assert isinstance(pairs, list) and len(pairs) == 1
    return dict(pairs[0]["cohen_kappa"], n=pairs[0]["n"])


def _stratified(readings: Readings, key: str, ref: dict[str, Label]) -> dict[str, Any]:
    """κ against the consensus on units where the humans were unanimous vs split."""
    unanimity = human_unanimity(readings)
    out: dict[str, Any] = {}
    for name, unanimous in (("unanimous", True), ("split", False)):
        units = [u for u, s in unanimity.items() if (s == 1.0) is unanimous and u in ref]
        a = [ref[u].option for u in units if readings.label(u, key) is not None]
        b = [lab.option for u in units if (lab := readings.label(u, key)) is not None]
        out[name] = (
            cohen_kappa(np.array(a), np.array(b), 4).as_json()
            if a
            else {"value": None, "ci": None, "n": 0, "reason": "no such units"}
        )
    return out


def _drilldown(
    readings: Readings,
    key: str,
    ref: dict[str, Label],
    invalid_mode: InvalidMode,
    *,
    bootstrap: int,
    seed: int,
) -> dict[str, Any]:
    if not ref:
        return {"reason": "no human consensus labels yet"}
    confusion = np.zeros((4, 4), dtype=int)
    cells: dict[str, list[str]] = {}
    for unit_key, label in ref.items():
        got = readings.label(unit_key, key)
        if got is None:
            continue
        confusion[label.option, got.option] += 1
        cells.setdefault(f"{label.option},{got.option}", []).append(unit_key)
    rows = confusion.sum(axis=1, keepdims=True)
    normalised = np.divide(
        confusion, rows, out=np.zeros_like(confusion, dtype=float), where=rows > 0
    )
    pair = table_of(readings, [key, CONSENSUS], invalid_mode, extra={CONSENSUS: ref})
    specific = specific_agreement(pair, bootstrap=bootstrap, seed=seed)
    vs_rest = one_vs_rest(pair, bootstrap=bootstrap, seed=seed)
    per_class = {}
    for label in LABELS:
        k = label.option
        tp = int(confusion[k, k])
        predicted, support = int(confusion[:, k].sum()), int(confusion[k, :].sum())
        precision = tp / predicted if predicted else None
        recall = tp / support if support else None
        f1 = 2 * tp / (predicted + support) if predicted + support else None
        per_class[label.value] = {
            "support": support,
            "precision": precision,
            "recall": recall,
            "f1": f1,
            "specific_agreement": specific[label.value].as_json(),
            "alpha": vs_rest[label.value]["alpha"].as_json(),
            "kappa": vs_rest[label.value]["kappa"].as_json(),
            "prevalence_humans": support / confusion.sum() if confusion.sum() else None,
            "prevalence_rater": predicted / confusion.sum() if confusion.sum() else None,
        }
    unanimity = human_unanimity(readings)
    units = {u.key: u for u in readings.units}
    disagreements: list[dict[str, Any]] = []
    for unit_key, label in ref.items():
        value = readings.values.get((unit_key, key))
        if value is None or value == label:
            continue
        unit = units[unit_key]
        disagreements.append(
            {
                "unit": unit_key,
                "item_id": unit.item_id,
                "uuid": unit.item_uuid,
                "target_model": unit.target_model,
                "consensus": label.value,
                "rater": str(value),
                "humans": [
                    str(readings.values[(unit_key, h.key)])
                    for h in readings.humans()
                    if (unit_key, h.key) in readings.values
                ],
                "unanimity": unanimity.get(unit_key, 1.0),
            }
        )
    disagreements.sort(key=lambda d: (-d["unanimity"], units[d["unit"]].position))
    return {
        "confusion": confusion.tolist(),
        "row_normalised": normalised.tolist(),
        "cells": cells,
        "per_class": per_class,
        "disagreements": disagreements,
        "alpha_pair": krippendorff_alpha(pair).as_json(),
    }
