"""What the parts of the review state share: who labels what, and what they hand the screen.

The review state is one class, `ReviewController` (tui/review_views.py), composed of parts
that each own their data: the lens (filter, mode, blind; tui/review_lens.py), the cursor (the
list, the item, its cards; tui/review_cursor.py) and the label desk (writes, undo, the label
that could not be saved; tui/review_labelling.py). The screen binds keys to the controller and
pushes what it holds to its widgets.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from w2c_tui.domain.labels import Label
from w2c_tui.domain.team import Seen

if TYPE_CHECKING:
    from w2c_tui.services import Services


@dataclass(slots=True)
class ReviewScope:
    """Who is labelling which dataset (both change: switching annotator or dataset)."""

    services: Services
    annotator: str
    dataset: str


@dataclass(frozen=True, slots=True)
class Notice:
    """Something to tell the annotator (shown literally, never as markup)."""

    text: str
    severity: str = "information"
    title: str = ""


@dataclass(frozen=True, slots=True)
class PendingLabel:
    """A label the annotator entered that the database has not taken yet."""

    item_id: int
    response_id: int | None
    label: Label | None
    seen: Seen
    reason: str
    retryable: bool
    advance: bool
    entered_at: datetime | None = None
    """When the annotator entered it (named in the unsaved-labels log if it is never saved)."""
