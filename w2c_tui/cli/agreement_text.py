"""`w2c agreement` as tables: the judge question, or the pooled document."""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.table import Table
from rich.text import Text

from w2c_tui.cli.context import console as make_console
from w2c_tui.domain.dashboard import AutomatedDoc, ConsistencyDoc, JudgesDoc
from w2c_tui.domain.pooled import PooledDoc
from w2c_tui.present import consistency
from w2c_tui.present.numbers import estimate_text, f1, slice_cells


def est(value: Any) -> str:
    """An estimate with its interval, or '— (why)'."""
    return estimate_text(value, ci_digits=3, with_reason=True)


def print_judges(doc: JudgesDoc) -> None:
    """The humans' reliability, then each automated rater's decision and numbers."""
    console = make_console()
    meta = doc.meta
    c = meta.consensus
    console.print(
        Text(
            f"{meta.dataset}: {meta.n_units} units ({meta.unit_kind}); human reference "
            f"on {c.n} units ({c.adjudicated} adjudicated, {c.majority} by majority); "
            f"95% intervals, bootstrap B={meta.bootstrap.B} seed={meta.bootstrap.seed}",
            style="bold",
        )
    )
    humans = doc.humans
    if humans.reliability is None:
        console.print(f"humans: not defined — {humans.reason}")
    else:
        console.print(
            f"humans ({', '.join(humans.raters)}): Krippendorff α "
            f"{est(humans.reliability.krippendorff_alpha)} — {humans.reliability.interpretation}"
        )
    if doc.judges:
        _print_decisions(console, doc.judges)
    else:
        console.print("no judge or scorer reading the humans' units in this dataset")
    if doc.mcq_consistency is not None:
        _print_consistency(console, doc.mcq_consistency)
    slices = doc.slices
    if slices:
        by = Table(slices.by, "units", "rater", "κ vs consensus", "macro-F1 ×100 vs gold")
        for part in slices.slices:
            for line in part.rows:
                by.add_row(
                    part.name,
                    str(part.n_units),
                    line.rater,
                    est(line.cohen_kappa),
                    slice_cells(line.macro_f1, line.macro_f1_interval, None, None)[0],
                )
        console.print(by)


def _print_decisions(console: Any, judges: tuple[AutomatedDoc, ...]) -> None:
    table = Table(
        "rater",
        "decision",
        "n",
        "κ vs consensus",
        "Δκ vs humans",
        "alt-test ω",
        "macro-F1 ×100 vs humans",
    )
    for row in judges:
        vs, alt = row.versus_humans, row.alt_test
        reason_vs = row.stats.versus_humans_reason if row.stats else None
        table.add_row(
            row.key,
            row.stand_in.decision,
            str(row.n),
            est(row.cohen_kappa) if row.stats is not None else f"— ({row.reason})",
            est(vs.delta_kappa) if vs else (f"— ({reason_vs})" if reason_vs else "—"),
            "—" if not alt or alt.winning_rate is None else f"{alt.winning_rate:.2f}",
            f1(row.macro_f1),
        )
    console.print(table)
    for row in judges:
        stand_in = row.stand_in
        console.print(Text(stand_in.text, style="bold"))
        if stand_in.evidence:
            console.print(f"  evidence: {'; '.join(stand_in.evidence)}")
        console.print(f"  sample size: {row.advice.text}")
    console.print(Text(f"rule: {judges[0].stand_in.rule}", style="dim"))


def _print_consistency(console: Any, doc: ConsistencyDoc) -> None:
    """Each MCQ reading per target model against the human labels of its responses."""
    console.print(Text(f"{consistency.TITLE}: {doc.question}", style="bold"))
    console.print(Text(consistency.NOTE, style="dim"))
    if not doc.rows:
        console.print("no MCQ readings of the target models in this dataset")
        return
    console.print(Text(f"reference: {doc.reference}", style="dim"))
    table = Table(*consistency.HEADERS)
    for row in doc.rows:
        table.add_row(*consistency.row_cells(row))
    console.print(table)
    matrices = []
    for row in doc.rows:
        matrix = Table(
            consistency.CONFUSION_CORNER,
            *consistency.SHORT,
            title=f"{row.scorer}\n{row.target_model or '—'}",
        )
        for line in consistency.confusion_rows(row):
            matrix.add_row(*line)
        matrices.append(matrix)
    console.print(Columns(matrices))
    console.print(Text(consistency.LEGEND, style="dim"))


def print_pooled(doc: PooledDoc) -> None:
    """Every rater in one table: α, Fleiss κ, AC1, % agreement; pairs; categories."""
    console = make_console()
    boot = doc.bootstrap
    head = Table(
        "statistic",
        "value [95% CI]",
        title=f"{doc.n_items} units, "
        f"{doc.n_raters} raters, categories: {', '.join(doc.categories)}; "
        f"bootstrap B={boot.B} seed={boot.seed}",
    )
    for key, value in (
        ("krippendorff_alpha", doc.krippendorff_alpha),
        ("fleiss_kappa", doc.fleiss_kappa),
        ("gwet_ac1", doc.gwet_ac1),
        ("percent_agreement", doc.percent_agreement),
    ):
        head.add_row(key, est(value))
    console.print(head)
    pairs = Table("a", "b", "n", "Cohen κ", "percent agreement", title="pairs (on their overlap)")
    for pair in doc.pairwise:
        pairs.add_row(
            pair.a,
            pair.b,
            str(pair.n),
            est(pair.cohen_kappa),
            est(pair.percent_agreement),
        )
    console.print(pairs)
    per = Table("category", "specific agreement", "α one-vs-rest", title="per category")
    for category, values in doc.per_category.items():
        per.add_row(category, est(values.specific_agreement), est(values.alpha))
    console.print(per)
