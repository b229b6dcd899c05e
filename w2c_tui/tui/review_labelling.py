"""Labelling transitions of the review state: record, retry what was not saved, undo, QA."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from w2c_tui.domain.errors import WriteError
from w2c_tui.domain.labels import Label
from w2c_tui.domain.models import LabelChange, Progress
from w2c_tui.domain.review import ReviewMode
from w2c_tui.domain.team import Seen
from w2c_tui.lost_labels import LostLabel
from w2c_tui.tui.cards import own_verdict, queue_responses, seen_for
from w2c_tui.tui.review_state import Notice, PendingLabel, ReviewState

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


class LabellingState(ReviewState):
    """ReviewState plus the transitions that write: every label is committed before the
    cursor moves, and one that cannot be written stays pending on screen."""

    def record(self, label: Label | None, *, advance: bool = True) -> Notice | None:
        """Record `label` on the selected response (or the item, in item QA), then move on."""
        if self.detail is None:
            return Notice("No item selected.", severity="warning")
        item = self.detail.item
        response_id: int | None = None
        if self.mode is ReviewMode.RESPONSES:
            card = self.card
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
        seen = seen_for(self.card, not self.gold_hidden, self.is_blind, self.mode)
        if self.is_blind and (item.id in self.exposed or self.saw_everything):
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
        detail = self.detail if self.detail and self.detail.item.id == pending.item_id else None
        uuid = detail.item.uuid if detail else f"(item id {pending.item_id})"
        unit = "item QA"
        if pending.response_id is not None:
            unit = f"response {pending.response_id}"
            for response in detail.responses if detail else []:
                if response.id == pending.response_id:
                    unit += f" (model {response.target_model})"
        return LostLabel(
            annotator=self.annotator,
            dataset=self.dataset,
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
        review = self.services.review
        if pending.response_id is None:
            return review.label_item(
                self.annotator, pending.item_id, pending.label, seen=pending.seen, deadline_s=wait_s
            )
        return review.label_response(
            self.annotator,
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
        review = self.services.review
        self.unsaved = None
        # The label is committed: from here on nothing can lose it.
        if change is None:
            return self.advance() if pending.advance else None
        self.undo_stack.append(change)
        if pending.label is not None:
            self.pace.record()
        gold_was_hidden = self.gold_hidden
        flt = self.filter
        if (
            flt.labelled is None
            and not flt.disagree
            and not flt.ranked
            and not self.view.finished_only
        ):
            # The same list; only this row's done mark changed: read that one row again.
            fresh = review.rows(
                self.dataset, [pending.item_id], self.view, self.mode, self.annotator
            )
            if fresh:
                self.rows.replace(self.index, fresh[0])
            else:
                self.rows.forget(self.index)
            self._count_label(change)
        else:
            self.reload(keep_item=pending.item_id, load=False)
        self.detail = review.detail(pending.item_id, self.annotator)
        self._build_cards(change.response_id)
        if self.is_blind and gold_was_hidden and not self.gold_hidden:
            self.previous = self._summary()
        if pending.advance and pending.label is not None:
            return self.advance()
        return None

    def _count_label(self, change: LabelChange) -> None:
        """Progress after one label: one more done when a unit gets its first label of this
        annotator, one less when it is cleared (exact, and no count over 100,000 rows)."""
        if self._progress is None or self.filter.queue:
            self._progress = None  # a queue's assigned / done is counted again
            return
        key, done, queue = self._progress
        delta = (change.label is not None) - (change.previous_label is not None)
        self._progress = (key, Progress(done=done.done + delta, total=done.total), queue)

    def _summary(self) -> str:
        """The finished item in one line: gold and the annotator's labels (after the reveal)."""
        assert self.detail is not None
        item = self.detail.item
        gold = item.gold.value if item.gold else "—"
        if self.mode is ReviewMode.ITEM_QA:
            mine = self.detail.qa.label.value if self.detail.qa.label else "—"
            return f"{self.number()} done · gold {gold} · you: {mine}"
        labels = []
        for response in queue_responses(self.detail):
            verdict = own_verdict(response, self.annotator)
            if verdict is not None and verdict.label is not None:
                labels.append(f"{verdict.label.value} ({response.target_model})")
        return f"{self.number()} done · gold {gold} · you: {', '.join(labels)}"

    def undo(self) -> Notice | None:
        """Undo the last change of this session (the history keeps both); a label that was
        never saved is simply discarded."""
        if self.unsaved is not None:
            self.unsaved = None
            return Notice("Discarded the label that was not saved.")
        if not self.undo_stack:
            return Notice("Nothing to undo.")
        change = self.undo_stack.pop()
        if not self.is_blind:
            seen = Seen.OPEN
        elif (
            change.item_id in self.exposed or self.saw_everything or self.mode is ReviewMode.ITEM_QA
        ):
            seen = Seen.GOLD
        else:
            seen = Seen.REVEALED  # the label undone had revealed its response
        try:
            self.services.review.undo(self.annotator, change, seen=seen)
        except WriteError as error:
            self.undo_stack.append(change)
            return Notice(f"Undo not saved: {error.reason}", severity="error")
        response_id = change.response_id if isinstance(change, LabelChange) else None
        self.reload(load=False)
        if not self.go_to_item(change.item_id, response_id):
            self.load()
            return Notice("Undone; that item is outside the current filter.")
        return Notice("Undone.")

    def set_flag(self, code: str, active: bool) -> Notice | None:
        """Switch a QA flag of the current item on or off."""
        if self.detail is None:
            return None
        try:
            change = self.services.review.set_flag(
                self.annotator, self.detail.item.id, code, active
            )
        except WriteError as error:
            return Notice(f"Flag not saved: {error.reason}", severity="error")
        self.undo_stack.append(change)
        return None

    def set_note(self, text: str) -> Notice | None:
        """Replace the annotator's note on the current item."""
        if self.detail is None or text == self.detail.qa.note:
            return None
        try:
            change = self.services.review.set_note(
                self.annotator, self.detail.item.id, self.detail.qa.note, text
            )
        except WriteError as error:
            return Notice(f"Note not saved: {error.reason}", severity="error")
        self.undo_stack.append(change)
        self.load()
        return None
