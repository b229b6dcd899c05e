"""`w2c run`: evaluation runs on a local model (transformers) or an OpenAI-compatible API."""

from __future__ import annotations

import signal
from typing import Annotated

import typer

from w2c_tui.cli.choices import Backend, Dtype, Label, Method, ToolCount
from w2c_tui.cli.context import EXIT_BAD_INPUT, ID_MAX, console, fail, print_json, services
from w2c_tui.cli.mlflow_cmd import require_mlflow, tracking_json, tracking_line
from w2c_tui.cli.run_logs_cmd import logs
from w2c_tui.cli.run_view import foreground, info_json
from w2c_tui.domain.run_options import options_for
from w2c_tui.domain.runs import RunConfig, RunStartError

RunId = Annotated[int, typer.Argument(help="The run id.", min=1, max=ID_MAX)]

run_app = typer.Typer(
    help="Evaluation runs: start, list, show, cancel, resume.", no_args_is_help=True
)


@run_app.command("start")
def start(
    ctx: typer.Context,
    method: Annotated[
        Method,
        typer.Option(
            help="What the run computes: mcq_logprob, generate, judge (When2Call verdicts on "
            "--target-model's responses), mcq_index, critictool (CriticTool predictions), "
            "critictool_judge (an LLM judge answering the CriticTool label questions)."
        ),
    ],
    backend: Annotated[
        Backend,
        typer.Option(help="transformers (local) or openai (any OpenAI-compatible server)."),
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
            help="Judge runs: the model whose responses are judged (critictool_judge: whose "
            "predictions; without it, the samples alone). Other runs: the name the results "
            "are stored under (default: --model)."
        ),
    ] = None,
    judge_prompt: Annotated[
        str,
        typer.Option(
            help="Judge prompt name or file (critictool_judge: critictool-judge-v1 unless "
            "another is named)."
        ),
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
    seed: Annotated[
        int, typer.Option(help="Seed of sampling requests (repeat k: seed + k; openai).")
    ] = 0,
    tokenizer: Annotated[
        str | None,
        typer.Option(
            help="openai log-prob MCQ: the served model's tokenizer (local folder or cached id) "
            "for token-id prompts, split exactly as lm-eval (default: --model if local)."
        ),
    ] = None,
    max_tokens: Annotated[int, typer.Option(help="Generation limit.")] = 512,
    batch_size: Annotated[int, typer.Option(help="Items per batch (transformers).")] = 8,
    threads: Annotated[
        int | None, typer.Option(help="CPU threads (transformers; default: the free cores).")
    ] = None,
    dtype: Annotated[Dtype, typer.Option(help="Weights' dtype (transformers).")] = Dtype.AUTO,
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
    critic_mode: Annotated[
        str,
        typer.Option(
            "--critic-mode",
            help="CriticTool: skip or finish (external samples; critictool_judge: the mode of "
            "the predictions judged).",
        ),
    ] = "skip",
    cot: Annotated[
        bool,
        typer.Option(
            "--cot",
            help="CriticTool: the chain-of-thought instructions (critictool_judge: judge the "
            "CoT predictions).",
        ),
    ] = False,
    retry_limit: Annotated[
        int, typer.Option(help="CriticTool: retries after an external sample's first call.")
    ] = 3,
    source: Annotated[
        str | None, typer.Option(help="Only items of this source (CriticTool: internal, external).")
    ] = None,
    gold: Annotated[Label | None, typer.Option(help="Only items with this gold label.")] = None,
    tools: Annotated[ToolCount | None, typer.Option(help="Only items with these tools.")] = None,
    limit: Annotated[int | None, typer.Option(help="At most this many items.")] = None,
    wait: Annotated[
        bool, typer.Option("--wait", help="Run in the foreground with a progress bar on stderr.")
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help='Print {"run_id", "status"}.')] = False,
    mlflow: Annotated[
        str | None,
        typer.Option(
            "--mlflow",
            metavar="[URI]",
            help="Log the run to MLflow as it ends: an http(s)://host:port tracking server, "
            "sqlite:///file.db, or a folder (a file store). Alone: W2C_MLFLOW_TRACKING_URI, "
            "else the local store exports/mlruns. Needs the mlflow extra; a server that is "
            "down never fails the run (`w2c mlflow log-run` catches up).",
        ),
    ] = None,
) -> None:
    """Start a run. Without --wait it runs in its own background process (closing the
    terminal or the TUI does not stop it); with --wait it runs here and exits when done."""
    item_filter: dict[str, str] = {k: v.value for k, v in (("gold", gold), ("tools", tools)) if v}
    if source:
        item_filter["source"] = source
    options = options_for(  # the backend's own options model takes what it has of these
        backend,
        {
            "base_url": base_url,
            "api_key_env": api_key_env,
            "concurrency": concurrency,
            "tokenizer": tokenizer,
            "native_tools": native_tools,
            "batch_size": batch_size,
            "threads": threads,
            "dtype": dtype.value,
        },
    )
    with services(ctx) as svc:
        config = RunConfig(
            method=method,
            backend=backend,
            model=model,
            dataset=svc.datasets.resolve(dataset),
            template=template,
            target_model=target_model,
            judge_prompt=judge_prompt,
            repeats=repeats,
            temperature=temperature,
            seed=seed,
            max_tokens=max_tokens,
            bos=bos,
            structured=structured,
            item_filter=item_filter,
            limit=limit,
            critic_mode=critic_mode,
            critic_cot=cot,
            retry_limit=retry_limit,
            options=options,
        )
        tracking_uri = None
        if mlflow is not None:
            tracking_uri = svc.tracking.resolve(mlflow)
            require_mlflow()
        try:
            run_id = svc.runs.create(config)
            if tracking_uri is not None:
                svc.tracking.request_run(run_id, tracking_uri)
            if wait:
                info = foreground(svc, run_id)
            else:
                svc.runs.launch(run_id)
                info = svc.runs.get(run_id)
        except RunStartError as error:
            if json_out:
                print_json(
                    {"run_id": locals().get("run_id"), "status": "failed", "error": str(error)}
                )
            raise fail(str(error), EXIT_BAD_INPUT) from error
        logged = svc.tracking.for_runs([info.id]).get(info.id, []) if tracking_uri else []
    if json_out:
        out: dict[str, object] = {"run_id": info.id, "status": info.status.value}
        if logged:
            out["mlflow"] = [tracking_json(r) for r in logged]
        print_json(out)
    else:
        typer.echo(
            f"run {info.id}: {info.status_text} ({info.n_done} done, {info.n_error} "
            f"errors of {info.n_total}); log: {info.log_path}"
        )
        for record in logged:
            typer.echo(f"MLflow: {tracking_line(record)}")


@run_app.command("worker", hidden=True)
def worker(ctx: typer.Context, run_id: RunId) -> None:
    """The background process of a run (started by `w2c run start` and the TUI); the database
    URL comes from W2C_DB in its environment, never from its command line."""

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    with services(ctx) as svc:
        try:
            info = svc.runs.execute(run_id)
        except RunStartError as error:
            raise fail(str(error), EXIT_BAD_INPUT) from error
        typer.echo(f"run {run_id}: {info.status_text}")


@run_app.command("list")
def list_runs(
    ctx: typer.Context, json_out: Annotated[bool, typer.Option("--json")] = False
) -> None:
    """Runs, newest first, with status and progress."""
    from rich.table import Table

    with services(ctx) as svc:
        runs = svc.runs.all()
    if json_out:
        print_json([info_json(r) for r in runs])
        return
    table = Table(
        "run", "status", "method", "backend", "model", "dataset", "done", "errors", "total"
    )
    for r in runs:
        table.add_row(
            str(r.id),
            r.status_text,
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
    ctx: typer.Context, run_id: RunId, json_out: Annotated[bool, typer.Option("--json")] = False
) -> None:
    """One run: its configuration, fingerprint, what identifies it, progress and errors, and
    where it was logged to MLflow."""
    with services(ctx) as svc:
        info = svc.runs.get(run_id)
        described = svc.runs.describe(run_id)
        tracked = svc.runs.tracked([run_id]).get(run_id, [])
    doc = {**info_json(info), "config": info.config.as_json(), "describe": described}
    if json_out:
        print_json({**doc, "mlflow": [tracking_json(r) for r in tracked]})
        return
    for key, value in doc.items():
        typer.echo(f"{key}: {value}")
    for record in tracked:
        typer.echo(f"mlflow: {tracking_line(record)}")


@run_app.command("cancel")
def cancel(ctx: typer.Context, run_id: RunId) -> None:
    """Stop a run after the task in hand (resume continues it)."""
    with services(ctx) as svc:
        info = svc.runs.cancel(run_id)
    typer.echo(f"run {run_id}: {info.status_text}")


@run_app.command("resume")
def resume(
    ctx: typer.Context,
    run_id: RunId,
    retry_errors: Annotated[
        bool,
        typer.Option("--retry-errors", help="Also run again the tasks that ended in an error."),
    ] = False,
    wait: Annotated[bool, typer.Option("--wait")] = False,
) -> None:
    """Continue a cancelled, failed or interrupted run: only the tasks not yet done (with
    --retry-errors also those that failed, e.g. during a server outage)."""
    with services(ctx) as svc:
        info = svc.runs.resume(run_id, launch=not wait, retry_errors=retry_errors)
        if wait:
            info = foreground(svc, run_id)
    typer.echo(
        f"run {run_id}: {info.status_text} ({info.n_done} done, {info.n_error} errors "
        f"of {info.n_total})"
    )


run_app.command("logs")(logs)
