"""What one keypress on the review screen changed: enough to undo it."""

from __future__ import annotations

from dataclasses import dataclass

from w2c_tui.domain.labels import Label


@dataclass(frozen=True, slots=True)
class LabelChange:
    """One label keypress: enough to undo it."""

    item_id: int
    response_id: int | None
    verdict_id: int
    previous_label: Label | None
    label: Label | None


@dataclass(frozen=True, slots=True)
class FlagChange:
    """One QA-flag toggle."""

    item_id: int
    code: str
    active: bool


@dataclass(frozen=True, slots=True)
class NoteChange:
    """One note edit."""

    item_id: int
    previous: str
    text: str


Change = LabelChange | FlagChange | NoteChange
