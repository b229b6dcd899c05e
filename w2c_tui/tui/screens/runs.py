"""The background panel: runs with status, progress, speed and errors; start, cancel, resume."""

from __future__ import annotations

import importlib.util
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.roles import LeadAction
from w2c_tui.domain.tracking import TrackingRecord, TrackingStatus
from w2c_tui.tui.screens.run_form import RunForm
from w2c_tui.tui.screens.run_log import LogDialog
from w2c_tui.tui.widgets.charts import bar

if TYPE_CHECKING:
    from w2c_tui.domain.runs import RunConfig, RunInfo
    from w2c_tui.services import Services

REFRESH_S = 1.0


def speed(info: RunInfo) -> tuple[float | None, float | None]:
    """(tasks per second, seconds left) from the run's progress so far."""
    if info.started_at is None:
        return None, None
    end = info.finished_at or datetime.now(UTC)
    start = info.started_at if info.started_at.tzinfo else info.started_at.replace(tzinfo=UTC)
    end = end if end.tzinfo else end.replace(tzinfo=UTC)
    seconds = (end - start).total_seconds()
    done = info.n_done + info.n_error
    if seconds <= 0 or done == 0:
        return None, None
    rate = done / seconds
    left = (info.n_total - done) / rate if info.n_total > done else 0.0
    return rate, left


def tracking_cell(records: list[TrackingRecord]) -> str:
    """The MLflow column: logged (on a server or a local store), asked for, failed, or —."""
    if not records:
        return "—"
    states = {r.status for r in records}
    if TrackingStatus.FAILED in states:
        return "failed"
    if TrackingStatus.REQUESTED in states:
        return "at end"
    return "logged" if any(r.url for r in records) else "logged (local)"


def tracking_words(record: TrackingRecord) -> str:
    """One record in a sentence for the detail line."""
    if record.status is TrackingStatus.LOGGED:
        return f"logged to {record.where}"
    if record.status is TrackingStatus.REQUESTED:
        return f"logs to {record.tracking_uri} when the run ends"
    return (
        f"not logged to {record.tracking_uri}: {record.error} — "
        f"`w2c mlflow log-run {record.run_id} --uri {record.tracking_uri}` catches up"
    )


def duration(seconds: float | None) -> str:
    """'1m 05s', '3h 10m', '—'."""
    if seconds is None:
        return "—"
    seconds = int(seconds)
    if seconds < 3600:
        return f"{seconds // 60}m {seconds % 60:02d}s"
    return f"{seconds // 3600}h {seconds % 3600 // 60:02d}m"


class RunsScreen(Screen[None]):
    """Every run, refreshed each second; runs are separate processes and outlive the TUI."""

    BINDINGS = [
        Binding("escape,R", "close", "back to review", id="runs-close"),
        Binding("n", "new", "new run", id="runs-new"),
        Binding("c", "cancel", "cancel", id="runs-cancel"),
        Binding("u", "resume", "resume", id="runs-resume"),
        Binding("E", "retry_errors", "retry errors", id="runs-retry-errors"),
        Binding("l", "log", "log", id="runs-log"),
        Binding("m", "metrics", "metrics", id="runs-metrics"),
        Binding("o", "open_mlflow", "open in MLflow", id="runs-open-mlflow"),
    ]

    def __init__(self, services: Services, dataset: str) -> None:
        super().__init__()
        self.services = services
        self.dataset = dataset
        self.runs: list[RunInfo] = []
        self.tracked: dict[int, list[TrackingRecord]] = {}

    def compose(self) -> ComposeResult:
        yield Static(
            "Runs — each runs in its own process: closing the TUI does not stop it. "
            "n starts one; c cancels, u resumes, E retries failed tasks, l follows the log, "
            "m the metrics, o opens the run in MLflow where it was logged (--mlflow).",
            id="runs-title",
        )
        yield DataTable(id="runs-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="runs-detail")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(
            "run",
            "status",
            "method",
            "backend",
            "model",
            "dataset",
            "progress",
            "done/total",
            "errors",
            "items/s",
            "left",
            "MLflow",
        )
        self.refresh_runs()
        self.set_interval(REFRESH_S, self.refresh_runs)
        table.focus()

    def refresh_runs(self) -> None:
        """Reload every run (cheap: one query) and redraw the table in place."""
        self.runs = self.services.runs.all()
        self.tracked = self.services.runs.tracked([r.id for r in self.runs])
        table = self.query_one(DataTable)
        keep = table.cursor_row
        table.clear()
        for info in self.runs:
            rate, left = speed(info)
            share = (info.n_done + info.n_error) / info.n_total if info.n_total else 0.0
            table.add_row(
                str(info.id),
                info.status_text,
                info.config.method.value,
                info.config.backend.value,
                info.config.model,
                info.config.dataset,
                f"{bar(share, 16)} {100 * share:3.0f}%",
                f"{info.n_done + info.n_error}/{info.n_total}",
                str(info.n_error),
                f"{rate:.2f}" if rate else "—",
                duration(left),
                tracking_cell(self.tracked.get(info.id, [])),
                key=str(info.id),
            )
        if self.runs:
            table.move_cursor(row=min(keep, len(self.runs) - 1))
        self._detail()

    def selected(self) -> RunInfo | None:
        """The run under the cursor."""
        table = self.query_one(DataTable)
        if not self.runs or table.cursor_row >= len(self.runs):
            return None
        return self.runs[table.cursor_row]

    @on(DataTable.RowHighlighted)
    def _highlighted(self) -> None:
        self._detail()

    def _detail(self) -> None:
        info = self.selected()
        detail = self.query_one("#runs-detail", Static)
        if info is None:
            detail.update("No runs yet: press n to start one.")
            return
        text = Text()
        text.append(
            f"run {info.id} · fingerprint {info.fingerprint} · rater {info.rater or '—'}"
            f" · pid {info.pid or '—'} · log {info.log_path}\n",
            style="dim",
        )
        config = info.config
        options = " · ".join(
            f"{name.replace('_', ' ')} {'—' if value is None else value}"
            for name, value in config.options.as_json().items()
        )
        text.append(
            f"template {config.template} · target {config.target_model or config.model}"
            f" · repeats {config.repeats} · temperature {config.temperature} · {options}"
        )
        if info.error:
            text.append(f"\nerror: {info.error}", style="bold")
        for record in self.tracked.get(info.id, []):
            text.append(f"\nMLflow: {tracking_words(record)}")
        detail.update(text)

    def served_refusal(self) -> bool:
        """In a `w2c serve` session only a lead may start, resume or cancel runs (a run uses
        the server's API keys and hardware); tell and return True when this person may not.
        A terminal session runs with its user's own keys and is not gated."""
        if not getattr(self.app, "invited", False):
            return False
        person = getattr(self.app, "annotator", None)
        why = self.services.roles.refusal(person, LeadAction.RUNS, invited=True)
        if why is not None:
            self.notify(why, title="A lead's work", severity="error", timeout=12, markup=False)
        return why is not None

    def action_new(self) -> None:
        """Open the form that starts a run."""
        if self.served_refusal():
            return

        def started(config: RunConfig | None) -> None:
            if config is None:
                return
            try:
                tracking = None
                if form.mlflow is not None:
                    if importlib.util.find_spec("mlflow") is None:
                        raise W2CError(
                            "MLflow logging needs the mlflow extra: pip install 'w2c-tui[mlflow]'"
                        )
                    tracking = self.services.tracking.resolve(form.mlflow)
                run_id = self.services.runs.create(config)
                if tracking is not None:
                    self.services.tracking.request_run(run_id, tracking)
                self.services.runs.launch(run_id)
            except Exception as error:  # a configuration the service refuses: say why
                self.notify(str(error), severity="error", title="Run not started", timeout=15)
                return
            self.notify(f"Run {run_id} started in the background.", title="Runs")
            self.refresh_runs()

        datasets = [d.name for d in self.services.datasets.all()]
        models = self.services.datasets.target_models()
        form = RunForm(datasets, self.dataset, models)
        self.app.push_screen(form, started)

    def action_cancel(self) -> None:
        """Cancel the selected run after the task in hand."""
        if self.served_refusal():
            return
        info = self.selected()
        if info is not None:
            self.services.runs.cancel(info.id)
            self.refresh_runs()

    def action_resume(self) -> None:
        """Resume the selected run where it stopped."""
        self._resume(retry_errors=False)

    def action_retry_errors(self) -> None:
        """Run the selected run's failed tasks again (and whatever it had left)."""
        self._resume(retry_errors=True)

    def _resume(self, *, retry_errors: bool) -> None:
        if self.served_refusal():
            return
        info = self.selected()
        if info is None:
            return
        try:
            self.services.runs.resume(info.id, retry_errors=retry_errors)
        except Exception as error:
            self.notify(str(error), severity="warning")
            return
        again = f" ({info.n_error} failed task(s) again)" if retry_errors else ""
        self.notify(f"Run {info.id} resumed{again}.")
        self.refresh_runs()

    def action_log(self) -> None:
        """Follow the selected run's log live."""
        info = self.selected()
        if info is not None:
            self.app.push_screen(LogDialog(info.log_path))

    def action_metrics(self) -> None:
        """The selected run's When2Call metrics (against gold), one key away."""
        from w2c_tui.tui.screens.run_metrics import RunMetricsDialog

        info = self.selected()
        if info is None or info.rater is None:
            self.notify(
                "Metrics need a run that produced verdicts (not a generation run: "
                "judge its responses first).",
                severity="warning",
            )
            return
        self.app.push_screen(RunMetricsDialog(self.services, info))

    def action_open_mlflow(self) -> None:
        """Open the run's MLflow page in the browser (a tracking server's http URI); a local
        store has no page of its own: say how to open it."""
        info = self.selected()
        if info is None:
            return
        records = [r for r in self.tracked.get(info.id, []) if r.status is TrackingStatus.LOGGED]
        page = next((r.url for r in records if r.url), None)
        if page is not None:
            self.app.open_url(page)
            self.notify(page, title=f"run {info.id} in MLflow", markup=False)
        elif records:
            uri = records[0].tracking_uri
            self.notify(
                f"run {info.id} is in the local store {uri}, which has no web page of its own: "
                f"`mlflow ui --backend-store-uri {uri}` serves it",
                title="MLflow",
                timeout=12,
                markup=False,
            )
        else:
            self.notify(
                f"run {info.id} was not logged to MLflow: `w2c mlflow log-run {info.id}` logs "
                "it (or start runs with --mlflow)",
                title="MLflow",
                severity="warning",
                timeout=10,
                markup=False,
            )

    def action_close(self) -> None:
        """Back to the review screen."""
        self.dismiss(None)
