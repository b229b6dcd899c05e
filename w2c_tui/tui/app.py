"""The Textual application: asks who is labelling, loads the demo if empty, opens Review."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.filter import LineFilter
from textual.worker import Worker, WorkerState

from w2c_tui.config import Settings, save_annotator
from w2c_tui.tui.screens.dialogs import AnnotatorDialog
from w2c_tui.tui.screens.review import ReviewScreen
from w2c_tui.tui.terminal_guard import CONTROL_FILTER

if TYPE_CHECKING:
    from w2c_tui.services import Services


def tune_collector() -> None:
    """Keep the garbage collector's pauses out of the annotator's way.

    Everything alive once the review screen is up lives as long as the app: freezing it keeps
    it out of the collector's passes. Textual allocates many short-lived objects per repaint;
    with the default thresholds a full collection ran every few moves (30–90 ms each, measured
    in bench/bench_review.py); with these it runs rarely and scans only young objects.
    """
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


class W2CApp(App[None]):
    """w2c-tui: review When2Call items, responses and verdicts; label from the keyboard."""

    TITLE = "w2c-tui"
    CSS_PATH = "app.tcss"
    BINDINGS = [Binding("q", "quit", "quit", id="quit")]

    def __init__(
        self,
        services: Services,
        *,
        annotator: str | None = None,
        dataset: str | None = None,
        settings: Settings | None = None,
        remember_annotator: bool = True,
        invited: bool = False,
    ) -> None:
        super().__init__()
        self.invited = invited
        """A `w2c serve` session: the annotator comes from an invitation and only a lead may do
        a lead's work (never solo; services/roles.py)."""
        self.services = services
        self.annotator = annotator
        self.dataset = dataset
        self.settings = settings or Settings()
        self.remember_annotator = remember_annotator

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then the one that keeps control characters from stored text
        off the terminal (`terminal_guard`)."""
        return [*super().get_line_filters(), CONTROL_FILTER]

    def on_mount(self) -> None:
        if self.settings.keys:
            from w2c_tui.tui.keymap import check_keymap

            valid, problems = check_keymap(self.settings.keys)
            self.set_keymap(valid)
            for problem in problems:
                self.notify(problem, title="Settings", severity="warning", timeout=20)
        if self.annotator:
            self._prepare()
        else:
            self.push_screen(
                AnnotatorDialog(remembered=self.remember_annotator), self._annotator_chosen
            )

    def _annotator_chosen(self, name: str | None) -> None:
        if not name:
            self.exit(message="No annotator name given.")
            return
        self.annotator = name
        if self.remember_annotator:
            try:
                save_annotator(name, self.settings.path)
            except OSError as error:
                self.notify(f"Could not save your name: {error}", severity="warning")
        self._prepare()

    def _prepare(self) -> None:
        if self.services.imports.store_is_empty():
            self.notify("The database is empty: importing the bundled demo dataset…")
            self.import_demo()
        else:
            self._open_review()

    @work(thread=True, exclusive=True, name="import-demo")
    def import_demo(self) -> int:
        """Import the bundled demo (items, two models' responses, judge and log-prob verdicts)."""
        reports = self.services.imports.import_demo()
        return sum(r.items_new for r in reports)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.name != "import-demo":
            return
        if event.state is WorkerState.SUCCESS:
            self.notify(
                f"Imported the demo dataset ({worker.result} items with responses "
                "and verdicts from two models). Import the real When2Call data with "
                "`w2c import FILE`.",
                title="Demo data",
                timeout=10,
            )
            self._open_review()
        elif event.state is WorkerState.ERROR:
            self.notify(f"Could not import the demo: {worker.error}", severity="error", timeout=20)

    def _open_review(self) -> None:
        assert self.annotator is not None
        datasets = self.services.datasets.all()
        names = [d.name for d in datasets]
        if self.dataset and self.dataset not in names:
            self.notify(f"No dataset {self.dataset!r}; opening another.", severity="warning")
            self.dataset = None
        if self.dataset is None:
            if not datasets:
                self.exit(message="No datasets: import one with `w2c import FILE`.")
                return
            self.dataset = max(datasets, key=lambda d: d.imported_at).name
        if self.services.critic_review.is_critictool(self.dataset):
            self.open_critictool(self.dataset)
        else:
            self.push_screen(ReviewScreen(self.services, self.annotator, self.dataset))
        self.call_after_refresh(tune_collector)

    def open_critictool(self, dataset: str) -> None:
        """Open the CriticTool review screen on `dataset`; leaving it offers the datasets."""
        from w2c_tui.tui.screens.critictool import CriticReviewScreen

        assert self.annotator is not None
        try:
            screen = CriticReviewScreen(self.services, self.annotator, dataset)
        except Exception as error:  # a file moved or changed: say so, stay where we are
            self.notify(f"Cannot open {dataset!r}: {error}", severity="error", timeout=20)
            return
        self.push_screen(screen, lambda _: self._after_critictool())

    def _after_critictool(self) -> None:
        if len(self.screen_stack) > 1:
            return  # back to the review screen underneath
        from w2c_tui.tui.screens.datasets import DatasetsScreen

        def chosen(name: str | None) -> None:
            if name is None:
                self.exit()
            elif self.services.critic_review.is_critictool(name):
                self.open_critictool(name)
            else:
                assert self.annotator is not None
                self.push_screen(ReviewScreen(self.services, self.annotator, name))

        self.push_screen(DatasetsScreen(self.services, self.dataset or ""), chosen)

    def _fatal_error(self) -> None:
        """An unhandled exception: the traceback goes to a crash log and the terminal gets one
        line naming it (Textual 8.2.8's hook, which otherwise prints the whole traceback)."""
        import sys

        from rich.text import Text

        from w2c_tui.crash import crash_message, write_crash_log

        error = self._exception or sys.exception() or RuntimeError("unknown error")
        message = crash_message(error, write_crash_log(error, [self.services.url]))
        self.bell()
        self._exit_renderables.append(Text(message, style="bold red"))
        self._close_messages_no_wait()

    @property
    def keymap(self) -> dict[str, str]:
        """The user's key overrides (binding id → keys) that were applied."""
        from w2c_tui.tui.keymap import check_keymap

        return check_keymap(self.settings.keys)[0]
