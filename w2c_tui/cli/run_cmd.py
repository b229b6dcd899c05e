"""`w2c run`: evaluation runs on a local model (transformers) or an OpenAI-compatible API."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from w2c_tui.cli.context import EXIT_BAD_INPUT, console, fail, print_json, services

if TYPE_CHECKING:
    from w2c_tui.domain.runs import RunInfo

run_app = typer.Typer(
    help="Evaluation runs: start, list, show, cancel, resume.", no_args_is_help=True
)


def _info_json(info: RunInfo) -> dict[str, object]:
    return {
        "run_id": info.id,
        "status": info.status.value,
        "method": info.config.method.value,
        "backend": info.config.backend.value,
        "model": info.config.model,
        "dataset": info.config.dataset,
        "target_model": info.config.target_model,
        "n_total": info.n_total,
        "n_done": info.n_done,
        "n_error": info.n_error,
        "fingerprint": info.fingerprint,
        "rater": info.rater,
        "error": info.error,
        "pid": info.pid,
        "log": info.log_path,
        "created_at": info.created_at.isoformat(),
        "started_at": info.started_at.isoformat() if info.started_at else None,
        "finished_at": info.finished_at.isoformat() if info.finished_at else None,
    }


@run_app.command("start")
def start(
    ctx: typer.Context,
    method: Annotated[str, typer.Option(help="mcq_logprob, generate, judge or mcq_index.")],
    backend: Annotated[
        str, typer.Option(help="transformers (local) or openai (any OpenAI-compatible server).")
    ],
    model: Annotated[
        str,
        typer.Option(
            help="Model path or id (transformers) or model name "
            "(openai). For judge runs: the judge."
        ),
    ],
    template: Annotated[
        str,
        typer.Option(help="when2call-default, when2call-qwen2_5, chat, or a Jinja template file."),
    ] = "when2call-default",
    dataset: Annotated[
        str | None, typer.Option(help="Dataset (may be left out when the store has one).")
    ] = None,
    target_model: Annotated[
        str | None,
        typer.Option(
            help="Judge runs: the model whose responses are judged. Other runs: the name the "
            "results are stored under (default: --model)."
        ),
    ] = None,
    judge_prompt: Annotated[
        str, typer.Option(help="Judge prompt name or file.")
    ] = "when2call-judge-v1",
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL.")] = None,
    api_key_env: Annotated[
        str | None,
        typer.Option(
            help="Name of the environment variable holding the API key (the key is never stored)."
        ),
    ] = None,
    concurrency: Annotated[int, typer.Option(help="Requests in flight (openai).")] = 8,
    repeats: Annotated[int, typer.Option(help="Runs per item, for stability metrics.")] = 1,
    temperature: Annotated[float, typer.Option(help="Sampling temperature.")] = 0.0,
    max_tokens: Annotated[int, typer.Option(help="Generation limit.")] = 512,
    batch_size: Annotated[int, typer.Option(help="Items per batch (transformers).")] = 8,
    dtype: Annotated[str, typer.Option(help="auto, float32, bfloat16, float16.")] = "auto",
    bos: Annotated[
        bool,
        typer.Option("--bos", help="Prepend BOS (lm-eval ≥ 0.4.9.2 behaviour; default: no BOS)."),
    ] = False,
    native_tools: Annotated[
        bool,
        typer.Option("--native-tools", help="Send tools as the API's native `tools` parameter."),
    ] = False,
    structured: Annotated[
        bool,
        typer.Option(
            "--structured/--free-form",
            help="Judge replies: structured output (a JSON schema where the API accepts one; "
            "constrained decoding on transformers) or free text read strictly with one repair "
            "turn.",
        ),
    ] = True,
    gold: Annotated[str | None, typer.Option(help="Only items with this gold label.")] = None,
    tools: Annotated[str | None, typer.Option(help="Only items with 0, 1 or 2+ tools.")] = None,
    limit: Annotated[int | None, typer.Option(help="At most this many items.")] = None,
    wait: Annotated[
        bool, typer.Option("--wait", help="Run in the foreground with a progress bar on stderr.")
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help='Print {"run_id", "status"}.')] = False,
) -> None:
    """Start a run. Without --wait it runs in its own background process (closing the
    terminal or the TUI does not stop it); with --wait it runs here and exits when done."""
    from w2c_tui.domain.runs import Backend, Method, RunConfig, RunStartError

    try:
        method_value, backend_value = Method(method), Backend(backend)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from error
    item_filter = {k: v for k, v in (("gold", gold), ("tools", tools)) if v}
    with services(ctx) as svc:
        config = RunConfig(
            method=method_value,
            backend=backend_value,
            model=model,
            dataset=svc.datasets.resolve(dataset),
            template=template,
            target_model=target_model,
            judge_prompt=judge_prompt,
            base_url=base_url,
            api_key_env=api_key_env,
            concurrency=concurrency,
            repeats=repeats,
            temperature=temperature,
            max_tokens=max_tokens,
            batch_size=batch_size,
            dtype=dtype,
            bos=bos,
            native_tools=native_tools,
            structured=structured,
            item_filter=item_filter,
            limit=limit,
        )
        try:
            run_id = svc.runs.create(config)
            if wait:
                info = _foreground(svc, run_id)
            else:
                svc.runs.launch(run_id)
                info = svc.runs.get(run_id)
        except RunStartError as error:
            if json_out:
                print_json(
                    {"run_id": locals().get("run_id"), "status": "failed", "error": str(error)}
                )
            raise fail(str(error), EXIT_BAD_INPUT) from error
    if json_out:
        print_json({"run_id": info.id, "status": info.status.value})
    else:
        typer.echo(
            f"run {info.id}: {info.status.value} ({info.n_done} done, {info.n_error} "
            f"errors of {info.n_total}); log: {info.log_path}"
        )


def _foreground(svc: object, run_id: int) -> RunInfo:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from w2c_tui.services import Services

    assert isinstance(svc, Services)
    bar = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not sys.stderr.isatty(),
    )
    with bar:
        task = bar.add_task(f"run {run_id}", total=None)

        def progress(info: RunInfo) -> None:
            bar.update(task, completed=info.n_done + info.n_error, total=info.n_total)

        return svc.runs.execute(run_id, progress)


@run_app.command("worker", hidden=True)
def worker(ctx: typer.Context, run_id: int) -> None:
    """The background process of a run (started by `w2c run start` and the TUI)."""
    from w2c_tui.domain.runs import RunStartError

    with services(ctx) as svc:
        try:
            info = svc.runs.execute(run_id)
        except RunStartError as error:
            raise fail(str(error), EXIT_BAD_INPUT) from error
        typer.echo(f"run {run_id}: {info.status.value}")


@run_app.command("list")
def list_runs(
    ctx: typer.Context, json_out: Annotated[bool, typer.Option("--json")] = False
) -> None:
    """Runs, newest first, with status and progress."""
    from rich.table import Table

    with services(ctx) as svc:
        runs = svc.runs.all()
    if json_out:
        print_json([_info_json(r) for r in runs])
        return
    table = Table(
        "run", "status", "method", "backend", "model", "dataset", "done", "errors", "total"
    )
    for r in runs:
        table.add_row(
            str(r.id),
            r.status.value,
            r.config.method.value,
            r.config.backend.value,
            r.config.model,
            r.config.dataset,
            str(r.n_done),
            str(r.n_error),
            str(r.n_total),
        )
    console().print(table)


@run_app.command("show")
def show(
    ctx: typer.Context, run_id: int, json_out: Annotated[bool, typer.Option("--json")] = False
) -> None:
    """One run: its configuration, fingerprint, what identifies it, progress and errors."""
    with services(ctx) as svc:
        info = svc.runs.get(run_id)
        described = svc.runs.describe(run_id)
    doc = {**_info_json(info), "config": info.config.as_json(), "describe": described}
    if json_out:
        print_json(doc)
        return
    for key, value in doc.items():
        typer.echo(f"{key}: {value}")


@run_app.command("cancel")
def cancel(ctx: typer.Context, run_id: int) -> None:
    """Stop a run after the task in hand (resume continues it)."""
    with services(ctx) as svc:
        info = svc.runs.cancel(run_id)
    typer.echo(f"run {run_id}: {info.status.value}")


@run_app.command("resume")
def resume(
    ctx: typer.Context, run_id: int, wait: Annotated[bool, typer.Option("--wait")] = False
) -> None:
    """Continue a cancelled, failed or interrupted run: only the tasks not yet done."""
    with services(ctx) as svc:
        info = svc.runs.resume(run_id, launch=not wait)
        if wait:
            info = _foreground(svc, run_id)
    typer.echo(
        f"run {run_id}: {info.status.value} ({info.n_done} done, {info.n_error} errors "
        f"of {info.n_total})"
    )
