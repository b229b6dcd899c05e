"""`w2c judge compare`: did the new judge prompt help, or did it fit noise?"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from w2c_tui.cli.context import BOOTSTRAP_MAX, SEED_MAX, echo, print_json, services
from w2c_tui.cli.context import console as make_console
from w2c_tui.domain.runs import Backend

if TYPE_CHECKING:
    from w2c_tui.services import Services

judge_app = typer.Typer(help="Judges: compare prompt versions on a frozen split.")


@judge_app.command("compare")
def compare(
    ctx: typer.Context,
    judge: Annotated[str, typer.Option(help="The judge model (its name or rater key).")],
    prompts: Annotated[
        str, typer.Option(help="Two prompt versions, A,B: names, name@hash or hashes.")
    ],
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (may be left out when the store has one).")
    ] = None,
    split: Annotated[
        str, typer.Option("--split", help="dev (tune here) or test (counted each time).")
    ] = "dev",
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples over units.", min=0, max=BOOTSTRAP_MAX)
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.", min=0, max=SEED_MAX)] = 0,
    min_humans: Annotated[int, typer.Option(help="Humans needed for a reference label.")] = 1,
    start: Annotated[
        Backend | None,
        typer.Option(
            "--start",
            help="Judge the stored responses first with each version that has no readings "
            "yet, on this backend (one run per version and target model, here, to the end).",
        ),
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="--start: OpenAI-compatible base URL.")
    ] = None,
    api_key_env: Annotated[
        str | None,
        typer.Option(help="--start: the environment variable holding the API key (not stored)."),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
) -> None:
    """Two prompt versions of one judge on the split's units against the human reference:
    accuracy and Cohen's κ of each, the paired difference B − A with a bootstrap interval
    (the same draws for both), McNemar's exact p, and the units that flipped.

    Each version's readings come from judge runs with that prompt (a rater per prompt hash,
    so an unchanged prompt is never judged twice); --start makes the missing ones first.
    Tune on dev; ask for test once at the end: every test comparison is counted and shown.
    """
    from w2c_tui.domain.errors import W2CError
    from w2c_tui.services.judge_compare import compare as run_compare

    parts = [p.strip() for p in prompts.split(",") if p.strip()]
    with services(ctx) as svc:
        if len(parts) != 2:
            raise W2CError(f"--prompts takes two versions as A,B, got {prompts!r}")
        name = svc.datasets.resolve(dataset)
        if start is not None:
            _judge_missing(svc, name, judge, parts, start, base_url, api_key_env)
        result = run_compare(
            svc.store,
            name,
            judge,
            parts[0],
            parts[1],
            part=split,
            bootstrap=bootstrap,
            seed=seed,
            min_humans=min_humans,
        )
    if json_out:
        print_json(result.as_json())
        return
    from rich.table import Table

    r = result.result
    console = make_console()
    console.print(
        f"{result.dataset} · {result.judge} on {r.n} {result.part} units "
        f"(human reference, both prompts read)"
        + (f"; test used {result.test_uses} times" if result.part == "test" else "")
    )
    table = Table("", f"A = {result.a}", f"B = {result.b}", "B − A [95% CI]")
    for label, ea, eb, ed in (
        ("accuracy vs humans", r.accuracy_a, r.accuracy_b, r.accuracy_difference),
        ("Cohen κ vs humans", r.kappa_a, r.kappa_b, r.kappa_difference),
    ):
        table.add_row(label, _est(ea), _est(eb), _est(ed, signed=True))
    console.print(table)
    console.print(
        f"McNemar exact p = {r.p_mcnemar:.3g} (right→wrong {len(r.right_to_wrong)}, "
        f"wrong→right {len(r.wrong_to_right)})"
    )
    for title, positions in (
        ("right → wrong", r.right_to_wrong),
        ("wrong → right", r.wrong_to_right),
    ):
        if positions:
            console.print(f"{title}: " + ", ".join(result.units[i] for i in positions))


def _judge_missing(
    svc: Services,
    dataset: str,
    judge: str,
    versions: list[str],
    backend: Backend,
    base_url: str | None,
    api_key_env: str | None,
) -> None:
    """One judge run per version without readings and per target model, run here."""
    from w2c_tui.domain.run_options import options_for
    from w2c_tui.domain.runs import Method, RunConfig
    from w2c_tui.services.judge_compare import missing, target_models

    options = options_for(backend, {"base_url": base_url, "api_key_env": api_key_env})
    for version in missing(svc.store, dataset, judge, versions):
        for model in target_models(svc.store, dataset):
            config = RunConfig(
                method=Method.JUDGE,
                backend=backend,
                model=judge,
                dataset=dataset,
                target_model=model,
                judge_prompt=version,
                options=options,
            )
            info = svc.runs.execute(svc.runs.create(config))
            echo(
                f"judged {model}'s responses with {version}: run {info.id} {info.status_text}",
                err=True,
            )


def _est(est: object, *, signed: bool = False) -> str:
    from w2c_tui.stats.results import Estimate

    assert isinstance(est, Estimate)
    if est.value is None:
        return f"— ({est.reason})"
    fmt = "+.3f" if signed else ".3f"
    ci = f" [{est.ci[0]:{fmt}}, {est.ci[1]:{fmt}}]" if est.ci else ""
    return f"{est.value:{fmt}}{ci}"
