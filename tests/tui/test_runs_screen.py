"""The runs panel: runs listed with progress, a run started from the form, cancel and resume."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from dbfixtures import require_module
from stand_in_backend import Labeller
from textual.pilot import Pilot
from textual.widgets import Button, Checkbox, DataTable, Input, Select
from textual.widgets import Label as Caption

from w2c_tui.domain.run_options import OpenAIOptions
from w2c_tui.domain.runs import Backend, Method, RunConfig, RunStatus
from w2c_tui.domain.tracking import LoggedRun, TrackingStatus
from w2c_tui.runs import backends
from w2c_tui.services import Services
from w2c_tui.services.tracking import TrackingService
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.review import ReviewScreen
from w2c_tui.tui.screens.run_form import RunForm
from w2c_tui.tui.screens.runs import RunsScreen

Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


@pytest.fixture
def in_process(demo: Services, monkeypatch: pytest.MonkeyPatch) -> Services:
    """Runs execute in this process (the real launch starts a worker process)."""
    monkeypatch.setattr(backends, "make_executor", Labeller)
    monkeypatch.setattr(demo.runs, "launch", lambda run_id: demo.runs.execute(run_id).id)
    return demo


async def test_runs_panel_lists_and_starts_runs(in_process: Services, wait_review: Review) -> None:
    config = RunConfig(
        method=Method.MCQ_INDEX, backend=Backend.TRANSFORMERS, model="m0", dataset="demo", limit=4
    )
    first = in_process.runs.create(config)
    in_process.runs.execute(first)
    app = W2CApp(in_process, annotator="alice")
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_review(app, pilot)
        await pilot.press("R")
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        table = screen.query_one(DataTable)
        assert table.row_count == 1
        assert "done" in str(table.get_row_at(0)[1]) and "4/4" in str(table.get_row_at(0)[7])
        await pilot.press("n")
        form = app.screen
        assert isinstance(form, RunForm)
        form.query_one("#model", Input).value = "m1"
        form.query_one("#limit", Input).value = "3"
        form.query_one("#start", Button).press()
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)
        assert table.row_count == 2
        newest = in_process.runs.all()[0]
        assert (newest.config.model, newest.status, newest.n_done) == ("m1", RunStatus.DONE, 3)
        await pilot.press("m")  # metrics of the selected run, one key away
        await pilot.pause()
        assert type(app.screen).__name__ == "RunMetricsDialog"
        await pilot.press("escape", "escape")
        assert isinstance(app.screen, ReviewScreen)


async def test_l_follows_the_log_live_and_retry_errors_key(
    in_process: Services, wait_review: Review
) -> None:
    from pathlib import Path

    from textual.widgets import Log

    from w2c_tui.tui.screens.run_log import FOLLOW_EVERY_S, LogDialog

    config = RunConfig(
        method=Method.MCQ_INDEX, backend=Backend.TRANSFORMERS, model="m0", dataset="demo", limit=2
    )
    run_id = in_process.runs.create(config)
    in_process.runs.execute(run_id)
    path = Path(in_process.runs.get(run_id).log_path or "")
    app = W2CApp(in_process, annotator="alice")
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_review(app, pilot)
        await pilot.press("R", "l")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, LogDialog)
        log = dialog.query_one(Log)
        assert any("check passed" in line for line in log.lines)
        with path.open("a", encoding="utf-8") as handle:
            handle.write("a line the worker wrote just now\n")
        await pilot.pause(FOLLOW_EVERY_S * 2)
        assert log.lines[-1] == "a line the worker wrote just now"
        await pilot.press("escape")
        await pilot.press("E")  # nothing failed: the panel says so instead of resuming
        await pilot.pause()
        assert in_process.runs.get(run_id).status is RunStatus.DONE


async def open_form(app: W2CApp, pilot: Pilot[None], wait_review: Review) -> RunForm:
    """The run form, opened from the runs screen (R, n) once the review screen is up."""
    await wait_review(app, pilot)
    await pilot.press("R", "n")
    form = app.screen
    assert isinstance(form, RunForm)
    return form


async def test_the_form_has_captions_focus_enter_and_memory(
    in_process: Services, wait_review: Review
) -> None:
    app = W2CApp(in_process, annotator="alice")
    async with app.run_test(size=(160, 45)) as pilot:
        form = await open_form(app, pilot, wait_review)
        assert app.focused is form.query_one("#method", Select)  # the first field
        captions = {str(label.render()) for label in form.query(".form-caption").results(Caption)}
        assert {"method", "backend", "dataset", "concurrency", "limit (items)"} <= captions
        form.query_one("#method", Select).value = Method.MCQ_INDEX.value
        form.query_one("#limit", Input).value = "2"
        form.query_one("#model", Input).focus()
        await pilot.press(*"m7", "enter")  # Enter in any text field starts the run
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)
        newest = in_process.runs.all()[0]
        assert (newest.config.model, newest.config.method, newest.config.limit) == (
            "m7",
            Method.MCQ_INDEX,
            2,
        )
        await pilot.press("n")  # reopened: the last method and its values come back
        reopened = app.screen
        assert isinstance(reopened, RunForm)
        form = reopened
        assert form.query_one("#method", Select).value == Method.MCQ_INDEX.value
        assert form.query_one("#model", Input).value == "m7"
        assert form.query_one("#limit", Input).value == "2"
        form.query_one("#method", Select).value = Method.GENERATE.value
        await pilot.pause()
        assert form.query_one("#method", Select).value == Method.GENERATE.value
        await pilot.press("escape")


async def test_the_form_shows_the_chosen_backends_options(
    in_process: Services, wait_review: Review
) -> None:
    app = W2CApp(in_process, annotator="alice")
    async with app.run_test(size=(160, 45)) as pilot:
        form = await open_form(app, pilot, wait_review)
        backend = form.query_one("#backend", Select)
        url = form.query_one("#base-url", Input)
        native = form.query_one("#native", Checkbox)
        backend.value = Backend.TRANSFORMERS.value
        await pilot.pause()
        assert not url.parent.display and not native.display  # type: ignore[union-attr]
        backend.value = Backend.OPENAI.value
        await pilot.pause()
        assert url.parent.display and native.display  # type: ignore[union-attr]
        url.value = "http://127.0.0.1:9/v1"
        form.query_one("#concurrency", Input).value = "3"
        form.query_one("#model", Input).value = "m8"
        form.query_one("#method", Select).value = Method.MCQ_INDEX.value
        await pilot.pause()
        form.action_start()
        await pilot.pause()
        newest = in_process.runs.all()[0].config
        assert newest.model == "m8"
        assert newest.options == OpenAIOptions(base_url="http://127.0.0.1:9/v1", concurrency=3)


async def test_the_mlflow_column_and_o_opens_the_logged_run(
    in_process: Services, wait_review: Review, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = "http://127.0.0.1:5000/#/experiments/1/runs/abc"

    def logger(uri: str):  # type: ignore[no-untyped-def]
        return lambda experiment, run: LoggedRun("1", "abc", page if "http" in uri else None)

    config = RunConfig(
        method=Method.MCQ_INDEX, backend=Backend.TRANSFORMERS, model="m0", dataset="demo", limit=2
    )
    logged, local, plain = (in_process.runs.create(config) for _ in range(3))
    for run_id in (logged, local, plain):
        in_process.runs.execute(run_id)
    tracking = TrackingService(in_process.store, in_process.url, logger)
    tracking.log_run(logged, "http://127.0.0.1:5000")
    tracking.log_run(local, "sqlite:////tmp/x/mlflow.db")
    opened: list[str] = []
    app = W2CApp(in_process, annotator="alice")
    monkeypatch.setattr(app, "open_url", lambda url, **_: opened.append(url))
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_review(app, pilot)
        await pilot.press("R")
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        table = screen.query_one(DataTable)
        cells = {str(table.get_row_at(i)[0]): str(table.get_row_at(i)[-1]) for i in range(3)}
        assert cells == {str(logged): "logged", str(local): "logged (local)", str(plain): "—"}
        table.move_cursor(row=[r.id for r in screen.runs].index(logged))
        await pilot.pause()
        assert page in str(screen.query_one("#runs-detail").render())
        await pilot.press("o")
        assert opened == [page]
        table.move_cursor(row=[r.id for r in screen.runs].index(local))
        await pilot.press("o")  # a local store has no page: how to open it is said instead
        assert opened == [page]
        messages = [n.message for n in app._notifications]
        assert any(
            "mlflow ui --backend-store-uri sqlite:////tmp/x/mlflow.db" in m for m in messages
        )


async def test_a_run_started_from_the_form_logs_to_mlflow(
    in_process: Services, wait_review: Review, tmp_path: Path
) -> None:
    require_module("mlflow", "mlflow")
    uri = f"sqlite:///{tmp_path / 'ml' / 'mlflow.db'}"
    app = W2CApp(in_process, annotator="alice")
    async with app.run_test(size=(160, 45)) as pilot:
        form = await open_form(app, pilot, wait_review)
        form.query_one("#model", Input).value = "m1"
        form.query_one("#limit", Input).value = "3"
        form.query_one("#mlflow", Input).value = uri
        form.query_one("#start", Button).press()
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)
        run = in_process.runs.all()[0]
        [record] = in_process.runs.tracked([run.id])[run.id]
        assert record.status is TrackingStatus.LOGGED and record.tracking_uri == uri
        table = app.screen.query_one(DataTable)
        assert str(table.get_row_at(0)[-1]) == "logged (local)"
