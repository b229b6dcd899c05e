"""`w2c agreement`: can each judge stand in for a human? MCQ-vs-generation consistency; pooled
agreement for scripts."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from w2c_tui.cli.agreement_text import print_judges, print_pooled
from w2c_tui.cli.context import BOOTSTRAP_MAX, SEED_MAX, echo, print_json, services
from w2c_tui.cli.schema_labels_cmd import schema_agreement
from w2c_tui.domain.critictool_slices import CriticToolSliceBy
from w2c_tui.domain.dashboard import JudgesDoc, SliceBy
from w2c_tui.domain.labels import InvalidMode
from w2c_tui.domain.pooled import PooledDoc
from w2c_tui.domain.review import UnitKind


def split_raters(values: list[str] | None) -> list[str] | None:
    """`--raters a,b --raters c` → [a, b, c]."""
    if not values:
        return None
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def critictool_by(by: SliceBy | None) -> CriticToolSliceBy | None:
    """`--by` of `w2c agreement` on a CriticTool dataset: source and model slice it as `w2c
    critictool agreement --by` does; gold and tools are When2Call's."""
    if by is None:
        return None
    if by in (SliceBy.SOURCE, SliceBy.MODEL):
        return CriticToolSliceBy(by.value)
    raise typer.BadParameter(
        f"a CriticTool dataset has no {by.value} slices: use source or model, or w2c critictool "
        "agreement --by (error, source, variant, setting, model)",
        param_hint="--by",
    )


def agreement(
    ctx: typer.Context,
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (may be left out when the store has one).")
    ] = None,
    raters: Annotated[
        list[str] | None,
        typer.Option(
            help="Pool these raters (keys, comma-separated or repeated) into one agreement "
            "table. `--list-raters` shows the keys."
        ),
    ] = None,
    pooled: Annotated[
        bool,
        typer.Option(
            "--pooled", help="Every rater (humans, judges, scorers) in one agreement table."
        ),
    ] = False,
    by: Annotated[
        SliceBy | None,
        typer.Option(help="Also each judge on slices: gold class, tools (0/1/2+), source, model."),
    ] = None,
    units: Annotated[
        UnitKind, typer.Option(help="behaviour: (item, target model) pairs; item: item QA.")
    ] = UnitKind.BEHAVIOUR,
    invalid: Annotated[
        InvalidMode,
        typer.Option(help="Invalid outputs as missing, or wrong (a category of their own)."),
    ] = InvalidMode.MISSING,
    min_humans: Annotated[
        int, typer.Option(help="Human labels a unit needs for a majority reference.")
    ] = 1,
    ratings: Annotated[
        Path | None,
        typer.Option(
            help="Any long-format ratings table instead of a dataset: CSV or JSONL with fields "
            "item, rater, label (an empty label is missing); any category names."
        ),
    ] = None,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples (0: no intervals).", min=0, max=BOOTSTRAP_MAX)
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.", min=0, max=SEED_MAX)] = 0,
    list_raters: Annotated[
        bool, typer.Option("--list-raters", help="List the dataset's rater keys.")
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
    schema: Annotated[
        str | None,
        typer.Option(
            help="Agreement on a label schema's answers instead: Krippendorff's α per "
            "question at the question's level (nominal, ordinal, interval)."
        ),
    ] = None,
) -> None:
    """Can each judge (in item QA also each log-prob or MCQ-index scorer) stand in for a human?

    Without options: the humans' own reliability (Krippendorff's α with its 95% interval),
    then each rater of the humans' units against them — Cohen's κ against the human consensus
    (adjudicated labels first), Δκ against the human ceiling, the alternative-annotator test
    with ≥ 3 humans — and a decision in plain words from the rule it states, with the weakest
    class and how many more units would narrow κ's interval. On responses, a log-prob or
    MCQ-index reading is the model's own choice, not a reading of the response: it gets no
    decision but MCQ-vs-generation consistency per target model (agreement, κ, confusion;
    `mcq_consistency` in --json). `--by` adds slices.

    `--schema NAME` gives Krippendorff's α of a label schema's answers per question, at the
    question's level, with its units and values (or why α is not defined).

    `--pooled` (or `--raters`) gives the pooled document instead, a contract for scripts:
    n_items, n_raters, categories, krippendorff_alpha, fleiss_kappa, gwet_ac1,
    percent_agreement ({"value", "ci", "n", "reason", "degenerate"}), pairwise, per_category.
    """
    from w2c_tui.domain.errors import InputError
    from w2c_tui.services.agreement import AgreementService

    if schema is not None:
        schema_agreement(ctx, schema, dataset, json_out)
        return
    if bootstrap < 0:
        raise typer.BadParameter("must be 0 or more", param_hint="--bootstrap")
    if ratings is not None:
        try:
            doc = AgreementService.summary_file(ratings, bootstrap=bootstrap, seed=seed)
        except InputError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from error
        except ValueError as error:
            typer.echo(f"error: {ratings}: {error}", err=True)
            raise typer.Exit(2) from error
        _output(doc, json_out)
        return
    with services(ctx) as svc:
        name = svc.datasets.resolve(dataset)
        if svc.critictool_review.is_critictool(name):  # its labels are CriticTool answers
            from w2c_tui.cli.critictool_agreement_cmd import print_critictool_agreement

            report = svc.critictool_agreement.report(
                name, bootstrap=bootstrap, seed=seed, by=critictool_by(by)
            )
            print_critictool_agreement(report, json_out)
            return
        if list_raters:
            readings = svc.agreement.readings(name, units)
            for rater in readings.raters:
                echo(f"{rater.key}\t{rater.kind.value}")
            return
        chosen = split_raters(raters)
        result: PooledDoc | JudgesDoc
        if pooled or chosen:
            result = svc.agreement.summary(
                name,
                raters=chosen,
                kind=units,
                bootstrap=bootstrap,
                seed=seed,
                invalid_mode=invalid,
            )
        else:
            result = svc.agreement.judges(
                name,
                kind=units,
                bootstrap=bootstrap,
                seed=seed,
                min_humans=min_humans,
                invalid_mode=invalid,
                by=by,
            )
    _output(result, json_out)


def _output(doc: PooledDoc | JudgesDoc, json_out: bool) -> None:
    """The judge question or the pooled document, as tables or as JSON."""
    if isinstance(doc, JudgesDoc):
        if json_out:
            print_json(doc.as_json())
        else:
            print_judges(doc)
    elif json_out:
        print_json(doc.to_json())
    else:
        print_pooled(doc)
