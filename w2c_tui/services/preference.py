"""Preference pairs for RPO/DPO training from a dataset's items (the When2Call paper, §3.3.2).

Chosen: the answer of the correct behaviour (the dataset's gold, or an item-level
adjudication where there is one). Rejected: one of the other three answers, drawn uniformly
with the seed. With a ratio, the pairs whose chosen answer is a tool call and the others are
subsampled (seeded) to exactly that ratio, as many as the data allows. Each item's draw uses
its own generator seeded by (seed, uuid), so adding items does not move the others' pairs.
"""

from __future__ import annotations

import random
from pathlib import Path

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import LABELS, ItemKind, Label
from w2c_tui.domain.outcomes import (
    ChangeKind,
    CleanItem,
    CleanOptions,
    GoldSource,
    PreferenceExport,
    PreferencePair,
    Ratio,
)
from w2c_tui.io.exporters.preference import preference_line
from w2c_tui.io.exporters.records import records_text
from w2c_tui.io.exporters.tabular import commit, write_text_tmp
from w2c_tui.paths import exports_dir
from w2c_tui.services.cleaning import CleaningService

MANIFEST_FIELDS = ("line", "uuid", "chosen", "rejected", "gold_source")


def _eligible(clean: CleanItem) -> bool:
    item = clean.item
    return (
        item.kind is ItemKind.TEST
        and clean.gold is not None
        and all(item.answer(label) is not None for label in LABELS)
    )


def draw(seed: int, clean: CleanItem) -> tuple[float, Label]:
    """(rank, rejected label) of one item: its own generator, seeded by (seed, uuid)."""
    assert clean.gold is not None
    rng = random.Random(f"{seed}:{clean.item.uuid}")
    rank = rng.random()
    rejected = rng.choice([label for label in LABELS if label is not clean.gold])
    return rank, rejected


def select(
    kept: tuple[CleanItem, ...], seed: int, ratio: Ratio | None
) -> tuple[list[tuple[CleanItem, PreferencePair]], int, int]:
    """The pairs in seeded order, and the eligible tool-call and other counts."""
    drawn: list[tuple[float, CleanItem, PreferencePair]] = []
    for clean in kept:
        if not _eligible(clean):
            continue
        rank, rejected = draw(seed, clean)
        assert clean.gold is not None
        pair = PreferencePair(
            uuid=clean.item.uuid,
            position=clean.item.position,
            chosen=clean.gold,
            rejected=rejected,
            gold_source=clean.gold_source,
        )
        drawn.append((rank, clean, pair))
    drawn.sort(key=lambda d: (d[0], d[1].item.position))
    calls = [d for d in drawn if d[2].chosen is Label.TOOL_CALL]
    others = [d for d in drawn if d[2].chosen is not Label.TOOL_CALL]
    if ratio is not None:
        limits = []
        if ratio.tool_call:
            limits.append(len(calls) // ratio.tool_call)
        if ratio.other:
            limits.append(len(others) // ratio.other)
        k = min(limits)
        chosen = {id(d) for d in calls[: k * ratio.tool_call] + others[: k * ratio.other]}
        drawn = [d for d in drawn if id(d) in chosen]
    return [(clean, pair) for _, clean, pair in drawn], len(calls), len(others)


class PreferenceService:
    """Builds and writes preference pairs."""

    def __init__(self, cleaning: CleaningService) -> None:
        self.cleaning = cleaning

    def export(
        self,
        dataset: str,
        seed: int,
        ratio: Ratio | None = None,
        output: Path | None = None,
        options: CleanOptions | None = None,
    ) -> PreferenceExport:
        """Write the pairs (official format) and a manifest (`NAME.pairs.csv`: line, uuid,
        chosen, rejected, where the chosen label came from) beside them."""
        options = options or CleanOptions(gold=GoldSource.ADJUDICATED)
        plan = self.cleaning.plan(dataset, options)
        pairs, n_calls, n_others = select(plan.kept, seed, ratio)
        if not pairs:
            raise InputError(
                dataset,
                f"no preference pairs: {n_calls} tool-call and {n_others} other item(s) with "
                "a gold label and four answers" + (f", ratio {ratio}" if ratio is not None else ""),
            )
        path = output or exports_dir() / f"{dataset}-preference-seed{seed}.jsonl"
        text = "".join(preference_line(c.item, p.chosen, p.rejected) + "\n" for c, p in pairs)
        manifest = path.with_name(path.name.removesuffix(path.suffix) + ".pairs.csv")
        rows = [
            {
                "line": n,
                "uuid": p.uuid,
                "chosen": p.chosen.value,
                "rejected": p.rejected.value,
                "gold_source": p.gold_source,
            }
            for n, (_c, p) in enumerate(pairs, start=1)
        ]
        tmp = write_text_tmp(text, path)
        manifest_tmp = write_text_tmp(records_text(rows, "csv", MANIFEST_FIELDS), manifest)
        commit(tmp, path)
        commit(manifest_tmp, manifest)
        return PreferenceExport(
            path=str(path),
            manifest=str(manifest),
            pairs=tuple(p for _, p in pairs),
            eligible_tool_call=n_calls,
            eligible_other=n_others,
            ratio=ratio,
            seed=seed,
            dropped=plan.count(ChangeKind.DROPPED),
        )
