"""The CriticTool review screen: a trajectory on the left, the label's questions on the right.

Each digit answers the current question and is saved at once (so nothing is lost by moving
on); `u` undoes the last change (saved too). Answers the database refuses stay on screen marked
NOT SAVED and are tried again until saved; meanwhile the screen does not move on and reveals
nothing (`tui.unsaved_answers`). In blind mode the error type, the gold and the
model stay hidden until the blind questions (error, category, expected policy) are answered
and saved; then the model's questions follow with everything on screen.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Static

from w2c_tui.domain.critictool_labels import (
    NOTE,
    CriticToolLabel,
    unit_facts,
)
from w2c_tui.domain.schema_builtins import CRITICTOOL
from w2c_tui.domain.schema_form import SchemaForm
from w2c_tui.domain.team import Seen
from w2c_tui.lost_labels import LostLabel
from w2c_tui.tui.screens.dialogs import NoteDialog
from w2c_tui.tui.screens.help import KeysDialog
from w2c_tui.tui.unsaved_answers import AnswerSaver, log_unsaved
from w2c_tui.tui.widgets.critictool_form import critictool_form_view
from w2c_tui.tui.widgets.trajectory import TrajectoryView

if TYPE_CHECKING:
    from w2c_tui.services import Services
    from w2c_tui.services.critictool_review import CriticToolUnit


CRITIC_BINDINGS: list[Binding] = [
    Binding("1", "answer(1)", "answer (1-6)", id="critic-1"),
    *[Binding(str(n), f"answer({n})", str(n), id=f"critic-{n}", show=False) for n in range(2, 7)],
    Binding("u", "undo", "undo", id="critic-undo"),
    Binding("e", "note", "note", id="critic-note", show=False),
    Binding("j,n,down", "move(1)", "next", id="critic-next"),
    Binding("k,p,up", "move(-1)", "prev", id="critic-prev", show=False),
    Binding("space", "next_open", "unfinished", id="critic-next-open"),
    Binding("b", "toggle_blind", "blind", id="critic-blind"),
    Binding("a", "agreement", "agree", id="critic-agreement"),
    Binding("R", "runs", "runs", id="critic-runs"),
    Binding("escape,d", "back", "back", id="critic-back"),
    Binding("ctrl+s", "save_now", "save again", id="critic-save", show=False),
    Binding("question_mark", "help", "help", id="critic-help"),
]

CRITIC_HELP: list[tuple[str, str]] = [
    ("1 … 6", "answer the current question (the panel lists the choices); saved at once"),
    ("u", "undo your last change on this trajectory (saved; history keeps every answer)"),
    ("e", "edit your note on this trajectory"),
    ("j n ↓ / k p ↑", "next / previous trajectory"),
    ("space", "next trajectory you have not finished"),
    (
        "b",
        "blind mode: error type, gold and the model hidden until the blind questions "
        "(error, category, expected policy) are answered and saved",
    ),
    (
        "a",
        "agreement: humans vs the model's self-critique vs judges on detect, category and "
        "observed policy (with blind off)",
    ),
    (
        "R",
        "runs: start a critictool run (predictions) or a critictool_judge run (an LLM judge's "
        "labels), watch them; new predictions appear here on return",
    ),
    ("Esc d", "back"),
    ("ctrl+s", "try answers the database refused again now (also every few seconds)"),
    ("?", "this help"),
    ("q", "quit (every answer is saved at once; one the database refused is asked about)"),
]


class CriticToolReviewScreen(Screen[None]):
    """Label CriticTool trajectories of one dataset from the keyboard."""

    BINDINGS = list(CRITIC_BINDINGS)
    DEFAULT_CSS = """
    CriticToolReviewScreen #critic-head { height: 1; background: $boost; padding: 0 1; }
    CriticToolReviewScreen #critic-body { height: 1fr; }
    CriticToolReviewScreen #critic-trajectory { width: 1fr; }
    CriticToolReviewScreen #critic-form { width: 44; padding: 0 1; border-left: solid $primary; }
    """

    def __init__(
        self, services: Services, annotator: str, dataset: str, *, blind: bool = True
    ) -> None:
        super().__init__()
        self.services = services
        self.annotator = annotator
        self.opened = services.critictool_review.open(dataset)
        self.rater_id = services.critictool_review.rater(annotator)
        self.blind = blind
        self.revealed: set[tuple[int, int | None]] = set()
        """Units whose gold and model were on screen: an undo does not make them blind again."""
        self.index = 0
        self.form = self._form(self.unit)
        self.keeper = AnswerSaver(self, self.render_all)
        """Saves every answer, and keeps those the database refuses until it takes them."""

    @property
    def unit(self) -> CriticToolUnit:
        """The trajectory on screen."""
        return self.opened.units[self.index]

    def compose(self) -> ComposeResult:
        yield Static("", id="critic-head")
        with Horizontal(id="critic-body"):
            yield TrajectoryView(id="critic-trajectory")
            yield Static("", id="critic-form")
        yield Footer()

    def on_mount(self) -> None:
        self.keeper.start()
        self.render_all()

    def _form(self, unit: CriticToolUnit) -> SchemaForm:
        """The core's form over the `critictool` schema, with the unit's stored answers (the
        note is written with `e`, so the keys pass it by)."""
        label = self.services.critictool_review.current(self.rater_id, unit) or CriticToolLabel()
        facts = unit_facts(unit.sample.source, has_model=unit.prediction is not None)
        form = SchemaForm(CRITICTOOL, self.blind, label.answers(), facts=facts)
        form.skipped.add(NOTE)
        return form

    @property
    def label(self) -> CriticToolLabel:
        """The answers on screen as a CriticTool label (`none` when there is no error)."""
        return CriticToolLabel.from_answers(self.form.answers)

    @property
    def hidden(self) -> bool:
        """Gold and the model are hidden now (blind, the blind part not yet saved, and not
        shown before on this visit)."""
        key = (self.unit.item_id, self.unit.response_id)
        held = not self.form.blind_done or self.keeper.unsaved  # shown once saved
        return self.blind and held and key not in self.revealed

    def render_all(self) -> None:
        """Head, trajectory and form for the current unit."""
        unit = self.unit
        if not self.hidden:
            self.revealed.add((unit.item_id, unit.response_id))
        model = unit.prediction.target_model if unit.prediction else None
        self.query_one(TrajectoryView).show(
            unit.sample, unit.rounds, blind=self.hidden, model=model
        )
        self._render_head()
        self._render_form()

    def _render_head(self) -> None:
        done = "complete" if self.form.complete else "open"
        head = Text()
        head.append(f"CriticTool · {self.opened.name} · ", "bold")
        head.append(f"{self.index + 1}/{len(self.opened.units)} · {self.annotator} · ")
        head.append(f"blind {'on' if self.blind else 'off'} · your label: {done}")
        if self.keeper.unsaved:
            head.append("  NOT SAVED (ctrl+s)", "bold white on red")
        self.query_one("#critic-head", Static).update(head)

    def _render_form(self) -> None:
        view = critictool_form_view(self.form, hidden=self.hidden, unsaved=self.keeper.unsaved)
        self.query_one("#critic-form", Static).update(view)

    def _save(self) -> bool:
        """Commit the answers on screen; False when the database did not take them (they
        stay on screen and are tried again)."""
        seen = Seen.BLIND if self.hidden else (Seen.GOLD if self.blind else Seen.OPEN)
        unit, label, review = self.unit, self.label, self.services.critictool_review

        def write(wait_s: float) -> None:
            review.save(self.rater_id, unit, label, seen, deadline_s=wait_s)

        def describe(reason: str, entered_at: datetime) -> LostLabel:
            where = "sample"
            if unit.prediction is not None:
                where = f"response {unit.response_id} (model {unit.prediction.target_model})"
            return LostLabel(
                self.annotator, self.opened.name, unit.sample.sample_id,
                f"critictool: {where}", label.to_json(), entered_at, reason,
            )  # fmt: skip

        return self.keeper.save(write, describe)

    def on_unmount(self) -> None:
        log_unsaved(self.app, self.keeper, "it closed before the answers were saved")

    def action_save_now(self) -> None:
        """ctrl+s: try the unsaved answers again now."""
        self.keeper.try_now()

    def action_answer(self, number: int) -> None:
        """Answer the current question with choice `number`; saved before anything else."""
        if self.hidden and self.form.blind_done and self.keeper.blocked():
            return  # the model's questions wait until the blind answers are saved
        was_hidden = self.hidden
        if not self.form.press(str(number)):
            self.app.bell()
            return
        self._save()
        if was_hidden and not self.hidden:
            self.notify("Saved: the gold and the model are now shown.")
        self.render_all()

    def action_undo(self) -> None:
        """Back to the answers before the last change (saved)."""
        if self.form.undo():
            self._save()
        elif self.keeper.blocked():
            return
        else:  # nothing this visit: the stored history's previous answers
            previous = self.services.critictool_review.undo(self.rater_id, self.unit)
            if previous is None:
                self.notify("Nothing to undo on this trajectory.")
                return
            self.form = self._form(self.unit)
        self.render_all()

    def action_note(self) -> None:
        """Edit the note (saved with the answers)."""

        def save(text: str | None) -> None:
            if text is not None:
                self.form.set_text(NOTE, text)
                self._save()
                self.render_all()

        self.app.push_screen(NoteDialog(self.form.answers.get(NOTE, "")), save)

    def _go(self, index: int) -> None:
        if self.keeper.blocked():
            return
        self.index = index
        self.form = self._form(self.unit)
        self.render_all()

    def action_move(self, step: int) -> None:
        """Next / previous trajectory (every answer is already saved)."""
        index = self.index + step
        if 0 <= index < len(self.opened.units):
            self._go(index)

    def action_next_open(self) -> None:
        """The next trajectory whose label is not complete (wrapping around)."""
        count = len(self.opened.units)
        for step in range(1, count + 1):
            index = (self.index + step) % count
            if not self._form(self.opened.units[index]).complete:
                self._go(index)
                return
        self.notify("Every trajectory of this dataset has your complete label.")

    def action_toggle_blind(self) -> None:
        """Blind mode on / off (not while answers are unsaved)."""
        if self.keeper.blocked():
            return
        self.blind = not self.blind
        self.form = self._form(self.unit)
        self.render_all()

    def action_agreement(self) -> None:
        """Agreement on this dataset's labels (not in blind mode: it summarises others)."""
        if self.blind:
            self.notify("Agreement shows other raters' labels: turn blind mode off (b) first.")
            return
        from w2c_tui.tui.screens.critictool_agreement import CriticToolAgreementDialog

        results = self.services.critictool_agreement.compute(self.opened.name)
        self.app.push_screen(CriticToolAgreementDialog(self.opened.name, results))

    def action_runs(self) -> None:
        """The runs panel; on return the dataset is read again (a run may have added
        predictions, which are units of their own), staying on the same trajectory."""
        if self.keeper.blocked():
            return
        from w2c_tui.tui.screens.runs import RunsScreen

        def back(_: object) -> None:
            here = (self.unit.item_id, self.unit.response_id)
            self.opened = self.services.critictool_review.open(self.opened.name)
            keys = [(u.item_id, u.response_id) for u in self.opened.units]
            self._go(keys.index(here) if here in keys else min(self.index, len(keys) - 1))

        self.app.push_screen(RunsScreen(self.services, self.opened.name), back)

    def action_back(self) -> None:
        """Leave the screen (not while answers are unsaved)."""
        if self.keeper.blocked():
            return
        self.dismiss(None)

    def action_help(self) -> None:
        """Every key of this screen."""
        self.app.push_screen(KeysDialog("CriticTool review", CRITIC_HELP))
