"""`Static.update` without a layout pass when the new content fits the rows the widget has."""

from __future__ import annotations

from textual.visual import VisualType
from textual.widgets import Static


def update_same_size(widget: Static, content: VisualType) -> None:
    """Show `content` in `widget` (nothing to do when it is shown already), laid out again only
    when it needs another number of rows.

    `Static.update` asks for a layout every time, and after a layout Textual repaints every
    widget on the screen; a text that wraps to as many rows as the one before needs only its
    own repaint (bench/bench_review.py: the review screen's label key).
    """
    if content == widget.content:
        return
    rows = widget.content_region.height
    widget.update(content, layout=False)
    width = widget.content_region.width
    if not width or _rows_for(widget, width) != rows:
        widget.refresh(layout=True)


def _rows_for(widget: Static, width: int) -> int:
    """The rows the widget's content will have: its text's, or more where its `min-height`
    (in cells) asks for more."""
    rows = widget.get_content_height(widget.size, widget.size, width)
    least = widget.styles.min_height
    if least is not None and least.is_cells:
        rows = max(rows, int(least.value) - widget.styles.gutter.height)
    return rows
