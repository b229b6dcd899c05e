"""The header line: dataset, annotator, mode, progress, rate and time left."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.widget import Widget

from w2c_tui.domain.models import Progress
from w2c_tui.domain.names import printable
from w2c_tui.domain.team import QueueProgress
from w2c_tui.tui.pace import Pace


class StatusBar(Widget):
    """One line at the top of the review screen (a fixed line: a new text repaints it without
    a layout pass, which a Static's update would ask for)."""

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $primary; color: $text; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._text = Text()
        self._content: Content | None = None
        """`_text` as Textual renders it (converted once, not on every paint)."""

    def render(self) -> Content:
        if self._content is None:
            self._content = Content.from_rich_text(self._text, console=self.app.console)
        return self._content

    def update(self, text: Text) -> None:
        """Show `text` (repainted only when it differs)."""
        if text != self._text:
            self._text = text
            self._content = None
            self.refresh()

    def show(
        self,
        *,
        dataset: str,
        annotator: str,
        mode: str,
        progress: Progress,
        pace: Pace,
        blind: bool,
        filter_text: str,
        position: str,
        queue: QueueProgress | None = None,
        unsaved: bool = False,
    ) -> None:
        """Render the line (names are plain text: nothing in them is read as markup)."""
        text = Text()
        text.append("w2c ", style="bold")
        if unsaved:
            text.append(" LABEL NOT SAVED (ctrl+s) ", style="bold reverse")
            text.append(" ")
        text.append(f"│ {printable(dataset)} │ {printable(annotator)} │ {mode} │ ")
        if queue is not None:
            text.append(f"{queue.done}/{queue.total} assigned done", style="bold")
            left = queue.total - queue.done
        else:
            text.append(f"{progress.done}/{progress.total} labelled", style="bold")
            left = progress.total - progress.done
        rate = pace.per_minute()
        if rate:
            text.append(f" │ {rate:.1f}/min")
            if left > 0:
                text.append(f" │ ~{_duration(left / rate)} left")
        text.append(f" │ blind {'on' if blind else 'off'} │ {filter_text} │ {position}")
        self.update(text)


def _duration(minutes: float) -> str:
    if minutes < 1:
        return "<1 min"
    if minutes < 90:
        return f"{minutes:.0f} min"
    return f"{minutes / 60:.1f} h"
