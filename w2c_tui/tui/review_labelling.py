"""The label part of the review state: record, retry what was not saved, undo, QA."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from w2c_tui.domain.errors import WriteError
from w2c_tui.domain.labels import Label
from w2c_tui.domain.models import Change, ItemDetail, LabelChange
from w2c_tui.domain.review import ReviewMode
from w2c_tui.domain.team import Seen
from w2c_tui.lost_labels import LostLabel
from w2c_tui.tui.cards import seen_for
from w2c_tui.tui.finished_item import Mine, finished_line, reveals
from w2c_tui.tui.pace import Pace
from w2c_tui.tui.review_cursor import ReviewCursor
from w2c_tui.tui.review_lens import ReviewLens
from w2c_tui.tui.review_state import Notice, PendingLabel, ReviewScope

KEY_WAIT_S = 2.0
"""How long a label key waits for a busy database before the label shows as not saved (the
screen must not freeze longer; the label stays on screen and is retried)."""


def _not_saved(error: WriteError) -> Notice:
    retry = (
        "ctrl+s tries again (also every few seconds)" if error.retryable else "ctrl+s tries again"
    )
    return Notice(
        f"Not saved: {error.reason}. Your label stays on screen; {retry}; u discards it.",
        severity="error",
        title="Label not saved",
    )


class LabelDesk:
    """The transitions that write: every label is committed before the cursor moves, and one
    that cannot be written stays pending on screen."""

    def __init__(self, scope: ReviewScope, lens: ReviewLens, cursor: ReviewCursor) -> None:
        self.scope = scope
        self.lens = lens
        self.cursor = cursor
        self.undo_stack: list[Change] = []
        self.pace = Pace()
        self.unsaved: PendingLabel | None = None
        self.previous: str | None = None
        """One line about the item just finished (its gold, once its reveal was earned)."""
        self.saw_everything = False
        """The dashboard or adjudication was opened on this dataset in this session: they show
        readings and gold of any unit, so no later label here records `blind`."""

    def forget_session(self) -> None:
        """Another annotator or dataset: this session's undo and last item no longer apply."""
        self.undo_stack.clear()
        self.previous = None

    def blocked(self) -> Notice | None:
        """Moving on is refused while a label the annotator entered is not saved."""
        if self.unsaved is None:
            return None
        return Notice(
            f"Your label is not saved yet ({self.unsaved.reason}). ctrl+s tries again; "
            "it is retried every few seconds too.",
            severity="warning",
            title="Not saved",
        )

    def record(self, label: Label | None, *, advance: bool = True) -> Notice | None:
        """Record `label` on the selected response (or the item, in item QA), then move on."""
        if self.cursor.detail is None:
            return Notice("No item selected.", severity="warning")
        item = self.cursor.detail.item
        response_id: int | None = None
        if self.lens.mode is ReviewMode.RESPONSES:
            card = self.cursor.card
            if card is None or not card.labelable or card.response is None:
                return Notice(
                    "This item has no response to label: press m for item QA.", severity="warning"
                )
            response_id = card.response.id
        if self.unsaved is not None and (self.unsaved.item_id, self.unsaved.response_id) != (
            item.id,
            response_id,
        ):
            return self.blocked()
        seen = seen_for(
            self.cursor.card, not self.cursor.gold_hidden, self.lens.is_blind, self.lens.mode
        )
        if self.lens.is_blind and (item.id in self.cursor.exposed or self.saw_everything):
            seen = Seen.GOLD  # its gold was on screen earlier in this session (blind off)
        now = datetime.now(UTC)
        return self._write(PendingLabel(item.id, response_id, label, seen, "", True, advance, now))

    def retry_unsaved(self, wait_s: float = KEY_WAIT_S) -> Notice | None:
        """Try to write the pending label again (waiting at most `wait_s` for the database)."""
        if self.unsaved is None:
            return Notice("Every label is saved.", title="Saved")
        pending = self.unsaved
        outcome = self._write(pending, wait_s)
        if self.unsaved is None:
            return outcome or Notice("Saved.", title="Saved")
        return outcome

    def lost_label(self) -> LostLabel | None:
        """The label not saved yet, as the unsaved-labels log names it (None when all saved)."""
        pending = self.unsaved
        if pending is None:
            return None
        detail = (
            self.cursor.detail
            if self.cursor.detail and self.cursor.detail.item.id == pending.item_id
            else None
        )
        uuid = detail.item.uuid if detail else f"(item id {pending.item_id})"
        unit = "item QA"
        if pending.response_id is not None:
            unit = f"response {pending.response_id}"
            for response in detail.responses if detail else []:
                if response.id == pending.response_id:
                    unit += f" (model {response.target_model})"
        return LostLabel(
            annotator=self.scope.annotator,
            dataset=self.scope.dataset,
            uuid=uuid,
            unit=unit,
            label=pending.label.value if pending.label else "(cleared)",
            entered_at=pending.entered_at or datetime.now(UTC),
            reason=pending.reason,
        )

    def _write(self, pending: PendingLabel, wait_s: float = KEY_WAIT_S) -> Notice | None:
        try:
            change = self.store(pending, wait_s)
        except WriteError as error:
            self.not_stored(pending, error)
            return _not_saved(error)
        return self.stored(pending, change)

    def store(self, pending: PendingLabel, wait_s: float) -> LabelChange | None:
        """Write `pending` to the database only (no screen state: safe off the UI thread);
        WriteError when the database did not take it."""
        review = self.scope.services.review
        if pending.response_id is None:
            return review.label_item(
                self.scope.annotator,
                pending.item_id,
                pending.label,
                seen=pending.seen,
                deadline_s=wait_s,
            )
        return review.label_response(
            self.scope.annotator,
            pending.item_id,
            pending.response_id,
            pending.label,
            seen=pending.seen,
            deadline_s=wait_s,
        )

    def not_stored(self, pending: PendingLabel, error: WriteError) -> None:
        """`pending` stays on screen as not saved, with the database's reason."""
        self.unsaved = replace(pending, reason=error.reason, retryable=error.retryable)

    def stored(self, pending: PendingLabel, change: LabelChange | None) -> Notice | None:
        """The database took `pending` (`store` returned `change`): update what is shown."""
        review = self.scope.services.review
        self.unsaved = None
        # The label is committed: from here on nothing can lose it.
        self.cursor.ahead.written(pending.item_id)
        if change is None:
            return self.cursor.advance() if pending.advance else None
        self.undo_stack.append(change)
        if pending.label is not None:
            self.pace.record()
        gold_was_hidden = self.cursor.gold_hidden
        flt = self.lens.filter
        if (
            flt.labelled is None
            and not flt.disagree
            and not flt.computed
            and not self.lens.view.finished_only
        ):
            # The same list; only this row's done mark changed: read that one row again.
            fresh = review.rows(
                self.scope.dataset,
                [pending.item_id],
                self.lens.view,
                self.lens.mode,
                self.scope.annotator,
            )
            if fresh:
                self.cursor.rows.replace(self.cursor.index, fresh[0])
            else:
                self.cursor.rows.forget(self.cursor.index)
            self.cursor.count_label(change)
        else:
            self.cursor.reload(keep_item=pending.item_id, load=False)
        before = self.cursor.detail
        if (
            before is None
            or before.item.id != pending.item_id
            or not pending.advance
            or pending.label is None
            or self.cursor.later_card() is not None
        ):  # staying on this item: show it as the database now has it
            self.cursor.show(self._again(before, pending.item_id), change.response_id)
            if self.lens.is_blind and gold_was_hidden and not self.cursor.gold_hidden:
                self.previous = self._finished(self.cursor.detail, {})
            if pending.advance and pending.label is not None:
                return self.cursor.advance()
            return None
        # Moving on to another item: what this label revealed is known without reading the
        # item again (the next item was read ahead; this one is read again if we stay).
        mine: Mine = {pending.response_id: pending.label}
        annotator, mode = self.scope.annotator, self.lens.mode
        if self.lens.is_blind and gold_was_hidden and reveals(before, mode, annotator, mine):
            self.previous = self._finished(before, mine)
            self.cursor.exposed.add(before.item.id)  # its gold is in that line
        notice = self.cursor.advance()
        if self.cursor.detail is before:  # nowhere else to go: show this one as it is now
            self.cursor.show(self._again(before, pending.item_id), change.response_id)
        return notice

    def _again(self, before: ItemDetail | None, item_id: int) -> ItemDetail:
        """Item `item_id` as the database has it after a label on it: only its verdicts are
        read again when `before` is that item (a label changes nothing else of it)."""
        review = self.scope.services.review
        if before is not None and before.item.id == item_id:
            return review.verdicts_again(before, self.scope.annotator)
        return review.detail(item_id, self.scope.annotator)

    def _finished(self, detail: ItemDetail | None, mine: Mine) -> str:
        """The line shown once the current item is finished (finished_item.py)."""
        assert detail is not None
        return finished_line(
            self.cursor.number(), detail, self.lens.mode, self.scope.annotator, mine
        )

    def undo(self) -> Notice | None:
        """Undo the last change of this session (the history keeps both); a label that was
        never saved is simply discarded."""
        if self.unsaved is not None:
            self.unsaved = None
            return Notice("Discarded the label that was not saved.")
        if not self.undo_stack:
            return Notice("Nothing to undo.")
        change = self.undo_stack.pop()
        if not self.lens.is_blind:
            seen = Seen.OPEN
        elif (
            change.item_id in self.cursor.exposed
            or self.saw_everything
            or self.lens.mode is ReviewMode.ITEM_QA
        ):
            seen = Seen.GOLD
        else:
            seen = Seen.REVEALED  # the label undone had revealed its response
        try:
            self.scope.services.review.undo(self.scope.annotator, change, seen=seen)
        except WriteError as error:
            self.undo_stack.append(change)
            return Notice(f"Undo not saved: {error.reason}", severity="error")
        self.cursor.ahead.written(change.item_id)
        response_id = change.response_id if isinstance(change, LabelChange) else None
        self.cursor.reload(load=False)
        if not self.cursor.go_to_item(change.item_id, response_id):
            self.cursor.load()
            return Notice("Undone; that item is outside the current filter.")
        return Notice("Undone.")

    def set_flag(self, code: str, active: bool) -> Notice | None:
        """Switch a QA flag of the current item on or off."""
        if self.cursor.detail is None:
            return None
        try:
            change = self.scope.services.review.set_flag(
                self.scope.annotator, self.cursor.detail.item.id, code, active
            )
        except WriteError as error:
            return Notice(f"Flag not saved: {error.reason}", severity="error")
        self.cursor.ahead.written(change.item_id)
        self.undo_stack.append(change)
        return None

    def set_note(self, text: str) -> Notice | None:
        """Replace the annotator's note on the current item."""
        if self.cursor.detail is None or text == self.cursor.detail.qa.note:
            return None
        try:
            change = self.scope.services.review.set_note(
                self.scope.annotator, self.cursor.detail.item.id, self.cursor.detail.qa.note, text
            )
        except WriteError as error:
            return Notice(f"Note not saved: {error.reason}", severity="error")
        self.cursor.ahead.written(change.item_id)
        self.undo_stack.append(change)
        self.cursor.load()
        return None
