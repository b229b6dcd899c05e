"""Label a dataset's units with any label schema from the keyboard.

The option keys (1–9 unless the schema names others) answer the current question; a free-text
question takes an Input (Enter saves). Every answer is saved at once, so a complete label is in
the database before the screen moves to the next unit, which it then does by itself. `u` or
Backspace undoes the last change (saved too; on a fresh unit it goes back to the previous one).
An answer the database refuses stays on screen marked NOT SAVED and is tried again until it is
saved; meanwhile the screen does not move on (`tui.unsaved_answers`).
In blind mode the fields the schema hides stay off the screen until the blind questions are
answered and saved. An annotator with assigned units of the schema's kind (items, or responses)
on the dataset sees their queue, in its order, until `Q` switches to every unit. The form's
logic lives in `domain.schema_form.SchemaForm`.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from w2c_tui.domain.schema_form import SchemaForm
from w2c_tui.domain.schema_labels import SchemaUnit, SchemaUnitRef, Unit
from w2c_tui.domain.schemas import QuestionKind
from w2c_tui.domain.team import Seen, annotator_key
from w2c_tui.lost_labels import LostLabel
from w2c_tui.tui.unsaved_answers import AnswerSaver, log_unsaved
from w2c_tui.tui.widgets.schema_views import form_view, head_view, lost_answers, unit_view

if TYPE_CHECKING:
    from w2c_tui.services import Services

SHOWN_CACHE = 64
"""How many units' texts the screen keeps once read (back and forth stays instant)."""

SCHEMA_BINDINGS: list[Binding] = [
    Binding("1", "pick('1')", "answer (option keys)", id="schema-1"),
    *[Binding(str(n), f"pick('{n}')", str(n), id=f"schema-{n}", show=False) for n in range(2, 10)],
    Binding("u,backspace", "undo", "undo", id="schema-undo"),
    Binding("j,n,down", "move(1)", "next", id="schema-next"),
    Binding("k,p,up", "move(-1)", "prev", id="schema-prev"),
    Binding("s", "skip", "skip optional", id="schema-skip"),
    Binding("S", "skip(True)", "skip the rest", id="schema-skip-rest", show=False),
    Binding("b", "toggle_blind", "blind", id="schema-blind"),
    Binding("Q", "toggle_queue", "my queue", id="schema-queue"),
    Binding("ctrl+s", "save_now", "save again", id="schema-save", show=False),
    Binding("escape", "back", "back", id="schema-back"),
]


class SchemaLabelScreen(Screen[None]):
    """One schema's questions on one dataset's units, one unit at a time."""

    BINDINGS = list(SCHEMA_BINDINGS)
    AUTO_FOCUS = ""
    """Keys answer options: nothing takes focus unless a free-text question asks for it."""
    DEFAULT_CSS = """
    SchemaLabelScreen #schema-head { height: 1; background: $boost; padding: 0 1; }
    SchemaLabelScreen #schema-body { height: 1fr; }
    SchemaLabelScreen #schema-unit { width: 1fr; padding: 0 1; }
    SchemaLabelScreen #schema-side { width: 48; padding: 0 1; border-left: solid $primary; }
    SchemaLabelScreen #schema-text { display: none; }
    """

    def __init__(
        self,
        services: Services,
        annotator: str,
        schema: str,
        dataset: str,
        *,
        blind: bool = True,
    ) -> None:
        super().__init__()
        self.services = services
        self.annotator = annotator
        self.schema = services.schemas.on_screen(schema)
        self.dataset = dataset
        self.file_order: list[SchemaUnitRef] = services.schemas.unit_refs(schema, dataset)
        """Every unit, named only: what is shown of a unit is read when the screen gets there
        (`unit_at`), so a dataset of any size opens at once."""
        self.shown: dict[Unit, SchemaUnit] = {}
        """The units read so far (the last SHOWN_CACHE)."""
        if not self.file_order:
            raise ValueError(f"dataset {dataset!r} has no {self.schema.unit.value} units")
        self.blind = blind
        self.queue = services.schemas.queue(self.schema.name, dataset, annotator)
        """The units assigned to this annotator, in their queue's order (none: no plan)."""
        self.in_queue = bool(self.queue)
        self.units = self._ordered()
        self.index = 0
        self.forms: dict[Unit, SchemaForm] = {}
        """The forms of the units visited (their undo stacks live as long as the screen)."""
        self.trail: list[int] = []
        """Units left because their label was complete, latest last (undo goes back to them)."""
        self.keeper = AnswerSaver(self, self.render_all)
        """Saves every answer, and keeps those the database refuses until it takes them."""

    def _ordered(self) -> list[SchemaUnitRef]:
        """The annotator's queue; else the units in file order, or, while blind, in this
        annotator's own shuffled order (the real When2Call file's order carries gold; see
        domain.blind). A queue's order is seeded per annotator, so it is blind as it is."""
        if self.in_queue:
            refs = {ref.unit: ref for ref in self.file_order}
            return [refs[unit] for unit in self.queue]
        if not self.blind:
            return list(self.file_order)
        salt = annotator_key(self.annotator)
        return sorted(self.file_order, key=lambda unit: unit.blind_key(salt))

    def unit_at(self, index: int) -> SchemaUnit:
        """What the screen shows of the unit at `index` of the current order (read once)."""
        key = self.units[index].unit
        if key not in self.shown:
            if len(self.shown) >= SHOWN_CACHE:
                self.shown.pop(next(iter(self.shown)))
            self.shown[key] = self.services.schemas.unit(self.schema.name, key)
        return self.shown[key]

    @property
    def unit(self) -> SchemaUnit:
        """The unit on screen."""
        return self.unit_at(self.index)

    @property
    def form(self) -> SchemaForm:
        """The answers on the unit on screen (read from the database on the first visit)."""
        key = self.units[self.index].unit
        if key not in self.forms:
            stored = self.services.schemas.current(self.annotator, self.schema.name, key)
            facts = self.unit_at(self.index).facts
            self.forms[key] = SchemaForm(self.schema, self.blind, dict(stored), facts=facts)
        return self.forms[key]

    @property
    def hidden(self) -> bool:
        """The schema's hidden fields are off the screen now (also while the blind answers
        are not saved: nothing is revealed before the database holds them)."""
        return self.blind and (not self.form.blind_done or self.keeper.unsaved)

    def compose(self) -> ComposeResult:
        yield Static("", id="schema-head")
        with Horizontal(id="schema-body"):
            yield Static("", id="schema-unit")
            with Vertical(id="schema-side"):
                yield Static("", id="schema-form")
                yield Input(placeholder="type the answer; Enter saves", id="schema-text")
        yield Footer()

    def on_mount(self) -> None:
        self.keeper.start()
        self.render_all()

    def render_all(self) -> None:
        """Head, unit and form for the unit on screen; the Input only for a text question."""
        form, unit = self.form, self.unit
        order = "your queue" if self.in_queue else None
        head = head_view(
            f"{self.schema.title} · {self.dataset} · #{self.index + 1}/{len(self.units)}",
            order or ("your blind order" if self.blind else "file order"),
            f"{self.annotator} · blind {'on' if self.blind else 'off'}",
            complete=form.complete,
            unsaved=self.keeper.unsaved,
        )
        self.query_one("#schema-head", Static).update(head)
        self.query_one("#schema-unit", Static).update(unit_view(unit, self.schema, self.hidden))
        self.query_one("#schema-form", Static).update(
            form_view(form, self.schema, hidden=self.hidden, unsaved=self.keeper.unsaved)
        )
        text = self.query_one("#schema-text", Input)
        current = form.current
        text.display = current is not None and current.kind is QuestionKind.TEXT
        if text.display:
            text.focus()
        else:
            self.set_focus(None)

    def _seen(self) -> Seen:
        """What the annotator has seen of the unit now, before an answer changes that."""
        return Seen.BLIND if self.hidden else (Seen.GOLD if self.blind else Seen.OPEN)

    def _save(self, seen: Seen) -> bool:
        """Commit the unit's answers (before anything moves on), made having seen `seen`;
        False when the database did not take them (they stay on screen, tried again)."""
        unit, form, schema = self.unit, self.form, self.schema.name

        def write(wait_s: float) -> None:
            self.services.schemas.label(
                self.annotator, schema, unit.unit, form.stored(), seen=seen, deadline_s=wait_s
            )

        def describe(reason: str, entered_at: datetime) -> LostLabel:
            place = (self.annotator, self.dataset, schema)
            return lost_answers(place, unit, form.stored(), reason, entered_at)

        return self.keeper.save(write, describe)

    def on_unmount(self) -> None:
        log_unsaved(self.app, self.keeper, "it closed before the answers were saved")

    def action_save_now(self) -> None:
        """ctrl+s: try the unsaved answers again now."""
        self.keeper.try_now()

    def _answered(self, seen: Seen) -> None:
        """Saved; when nothing is left to ask, on to the next unit."""
        if not self._save(seen):
            self.render_all()
            return
        self._next_when_done()

    def _next_when_done(self) -> None:
        if self.form.done and self.index + 1 < len(self.units):
            self.trail.append(self.index)
            self.index += 1
        elif self.form.done:
            self.notify("The last unit is labelled.")
        self.render_all()

    def action_skip(self, rest: bool = False) -> None:
        """Pass over the current question when it is optional, or (`rest`) every optional
        question up to the next required one (nothing is recorded)."""
        if self.keeper.blocked():
            return
        if not self.form.skip():
            self.app.bell()
            return
        while rest and self.form.skip():
            pass
        self._next_when_done()

    def action_pick(self, key: str) -> None:
        """Answer the current question with the option whose key is `key` (not the questions
        after the blind part while the blind answers wait to be saved)."""
        if self.hidden and self.form.blind_done and self.keeper.blocked():
            return
        seen = self._seen()
        if not self.form.press(key):
            self.app.bell()
            return
        self._answered(seen)

    def on_key(self, event: events.Key) -> None:
        """Option keys a schema names itself (letters) answer as digits do."""
        if isinstance(self.focused, Input) or event.character is None:
            return
        current = self.form.current
        if current is not None and current.by_key(event.character) is not None:
            event.stop()
            self.action_pick(event.character)

    @on(Input.Submitted, "#schema-text")
    def text_submitted(self, event: Input.Submitted) -> None:
        """A free-text answer: saved like a key."""
        seen = self._seen()
        if not event.value.strip() and self.form.skip():  # Enter on nothing skips an optional
            self._next_when_done()
            return
        if not self.form.write(event.value):
            self.app.bell()
            return
        event.input.value = ""
        self._answered(seen)

    def action_undo(self) -> None:
        """Back one change on this unit, or to the unit left last and its last change."""
        seen = self._seen()
        if not self.form.undo():
            if self.keeper.blocked():
                return
            if not self.trail:
                self.notify("Nothing to undo.")
                return
            self.index = self.trail.pop()
            seen = self._seen()
            if not self.form.undo():
                self.render_all()
                return
        self._save(seen)
        self.render_all()

    def action_move(self, step: int) -> None:
        """Next / previous unit (every answer is already saved; refused while one is not)."""
        if self.keeper.blocked():
            return
        index = self.index + step
        if 0 <= index < len(self.units):
            self.index = index
            self.render_all()

    def action_toggle_blind(self) -> None:
        """Blind mode on / off (not while answers are unsaved: it changes what was seen)."""
        if not self.keeper.blocked():
            self.blind = not self.blind
            for form in self.forms.values():
                form.blind = self.blind
            self._reorder()

    def action_toggle_queue(self) -> None:
        """Your assigned units only / every unit (when you have a queue on this dataset)."""
        if not self.queue:
            self.notify("No units of this kind are assigned to you on this dataset.")
        elif not self.keeper.blocked():
            self.in_queue = not self.in_queue
            self._reorder()

    def _reorder(self) -> None:
        """The units in the order now in force, staying on the unit on screen where it is in
        them (the first unit otherwise)."""
        here = self.units[self.index].unit
        self.units = self._ordered()
        self.index = next((i for i, unit in enumerate(self.units) if unit.unit == here), 0)
        self.trail.clear()  # places in the other order
        self.render_all()

    def action_back(self) -> None:
        """Leave the screen (not while answers are unsaved)."""
        if self.keeper.blocked():
            return
        self.dismiss(None)
