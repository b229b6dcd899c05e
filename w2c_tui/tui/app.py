"""The Textual application: asks who is labelling, loads the demo if empty, opens Review."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual import work
from textual.app import App
from textual.filter import LineFilter
from textual.worker import Worker, WorkerState

from w2c_tui.config import Settings, save_annotator
from w2c_tui.lost_labels import LostLog
from w2c_tui.tui.bindings import APP_BINDINGS
from w2c_tui.tui.collector import tune_collector
from w2c_tui.tui.screens.dialogs import AnnotatorDialog
from w2c_tui.tui.screens.review import ReviewScreen
from w2c_tui.tui.screens.review_retry import RETRY_GROUP
from w2c_tui.tui.terminal_guard import CONTROL_FILTER
from w2c_tui.tui.unsaved_answers import KeepsUnsaved, keeper_of

if TYPE_CHECKING:
    from w2c_tui.lost_labels import LostLabel
    from w2c_tui.services import Services

SAVE_WAIT_S = 2.0
"""How long one try of "save and wait" waits for a busy database (off the UI thread)."""


class W2CApp(App[None]):
    """w2c-tui: review When2Call items, responses and verdicts; label from the keyboard."""

    TITLE = "w2c-tui"
    CSS_PATH = "app.tcss"
    BINDINGS = list(APP_BINDINGS)

    def __init__(
        self,
        services: Services,
        *,
        annotator: str | None = None,
        dataset: str | None = None,
        settings: Settings | None = None,
        remember_annotator: bool = True,
        invited: bool = False,
        schema: str | None = None,
    ) -> None:
        super().__init__()
        self.schema = schema
        """A label schema to label the dataset with (`w2c tui --schema NAME`)."""
        self.invited = invited
        """A `w2c serve` session: the annotator comes from an invitation and only a lead may do
        a lead's work (never solo; services/roles.py)."""
        self.services = services
        self.annotator = annotator
        self.dataset = dataset
        self.settings = settings or Settings()
        self.remember_annotator = remember_annotator
        self.lost_log = LostLog()
        """Unsaved-labels logs written in this session (None: one could not be written)."""
        """Whether the terminal has been told about the unsaved labels (else `w2c` tells)."""

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
        if self.schema is not None:
            self.open_schema(self.schema, self.dataset)
        elif self.services.critictool_review.is_critictool(self.dataset):
            self.open_critictool(self.dataset)
        else:
            self.push_screen(ReviewScreen(self.services, self.annotator, self.dataset))
        self.call_after_refresh(tune_collector)

    def open_critictool(self, dataset: str) -> None:
        """Open the CriticTool review screen on `dataset`; leaving it offers the datasets."""
        from w2c_tui.tui.screens.critictool import CriticToolReviewScreen

        assert self.annotator is not None
        try:
            screen = CriticToolReviewScreen(self.services, self.annotator, dataset)
        except Exception as error:  # a file moved or changed: say so, stay where we are
            self.notify(f"Cannot open {dataset!r}: {error}", severity="error", timeout=20)
            return
        self.push_screen(screen, lambda _: self._after_critictool())

    def open_schema(self, schema: str, dataset: str) -> None:
        """Label `dataset` with the label schema `schema`; leaving it offers the datasets."""
        from w2c_tui.tui.screens.schema_label import SchemaLabelScreen

        assert self.annotator is not None
        try:
            screen = SchemaLabelScreen(self.services, self.annotator, schema, dataset)
        except Exception as error:  # an unknown schema, or no units of its kind
            self.notify(f"Cannot label {dataset!r} with {schema!r}: {error}", severity="error")
            self.schema = None
            self.push_screen(ReviewScreen(self.services, self.annotator, dataset))
            return
        self.push_screen(screen, lambda _: self._after_critictool())

    def _after_critictool(self) -> None:
        if len(self.screen_stack) > 1:
            return  # back to the review screen underneath
        from w2c_tui.tui.screens.datasets import DatasetsScreen

        def chosen(name: str | None) -> None:
            if name is None:
                self.exit()
            elif self.services.critictool_review.is_critictool(name):
                self.open_critictool(name)
            else:
                assert self.annotator is not None
                self.push_screen(ReviewScreen(self.services, self.annotator, name))

        screen = DatasetsScreen(self.services, self.dataset or "", self.annotator)
        self.push_screen(screen, chosen)

    def _fatal_error(self) -> None:
        """An unhandled exception: the traceback goes to a crash log and the terminal gets one
        line naming it (Textual 8.2.8's hook, which otherwise prints the whole traceback); a
        label not saved yet is written to the unsaved-labels log, named too."""
        import sys

        from rich.text import Text

        from w2c_tui.crash import crash_message, write_crash_log

        error = self._exception or sys.exception() or RuntimeError("unknown error")
        message = crash_message(error, write_crash_log(error, [self.services.url]))
        self.bell()
        lost = self._take_unsaved()
        if lost:  # Textual prints the first renderable only: one text, both lines
            self.lost_log.write(lost, "it crashed", unasked=True)
            message += "\n" + self.lost_log.message()
            self.lost_log.told = True
        self._exit_renderables.append(Text(message, style="bold red"))
        self._close_messages_no_wait()

    # ---- labels not saved yet ----------------------------------------------------------------

    def _keepers(self) -> list[KeepsUnsaved]:
        """What holds a label the database has not taken, screen by screen (review, schema
        and CriticTool screens alike)."""
        keepers = [keeper_of(screen) for screen in self.screen_stack]
        return [k for k in keepers if k is not None and k.lost()]

    def _take_unsaved(self) -> list[LostLabel]:
        """Every label not saved yet, taken off its screen (to be written to the log)."""
        lost = []
        for keeper in self._keepers():
            lost += keeper.lost()
            keeper.drop()
        return lost

    def _ask_before_quitting(self) -> bool:
        """With a label not saved, ask (save and wait / discard / stay); False when nothing is
        unsaved and quitting may go ahead."""
        from w2c_tui.tui.screens.unsaved import UnsavedQuitDialog

        if isinstance(self.screen, UnsavedQuitDialog):
            return True  # already asking
        keepers = self._keepers()
        if not keepers:
            return False

        def try_save() -> list[LostLabel]:
            for keeper in keepers:
                keeper.now(SAVE_WAIT_S)  # in the background; asked again until saved
            return [lost for k in keepers for lost in k.lost()]

        labels = [lost for k in keepers for lost in k.lost()]
        self.push_screen(UnsavedQuitDialog(labels, try_save), self._quit_choice)
        return True

    async def _quit_choice(self, choice: str | None) -> None:
        if choice == "saved":
            self.exit()
        elif choice == "discard":
            for worker in list(self.workers):  # a retry in flight ends first: saved or not
                if worker.group == RETRY_GROUP and worker.is_running:
                    with contextlib.suppress(Exception):  # a failed try: the label stays unsaved
                        await worker.wait()
            lost = self._take_unsaved()
            if not lost:
                self.exit(message="Your label was saved before it could be discarded.")
                return
            self.lost_log.write(lost, "the annotator discarded it to quit")
            self.lost_log.told = True
            self.exit(message=self.lost_log.message())

    async def action_quit(self) -> None:
        """Quit (q, ctrl+q); with a label not saved yet, ask first."""
        if not self._ask_before_quitting():
            self.exit()

    def action_help_quit(self) -> None:
        """ctrl+c: with a label not saved yet, ask as q does; else say which key quits."""
        if not self._ask_before_quitting():
            super().action_help_quit()

    @property
    def keymap(self) -> dict[str, str]:
        """The user's key overrides (binding id → keys) that were applied."""
        from w2c_tui.tui.keymap import check_keymap

        return check_keymap(self.settings.keys)[0]
