"""The header line: dataset, annotator, mode, progress, rate and time left."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from rich.text import Text
from textual.widgets import Static

from w2c_tui.domain.models import Progress


@dataclass
class Pace:
    """Labels recorded in this session, for the rate and the time left."""

    started: float = field(default_factory=time.monotonic)
    count: int = 0
    first: float | None = None

    def record(self) -> None:
        """One more label."""
        now = time.monotonic()
        if self.first is None:
            self.first = now
        self.count += 1

    def per_minute(self) -> float | None:
        """Labels per minute since the first label of the session (None: too early)."""
        if self.first is None or self.count < 2:
            return None
        minutes = (time.monotonic() - self.first) / 60
        return (self.count - 1) / minutes if minutes > 0 else None


class StatusBar(Static):
    """One line at the top of the review screen."""

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $primary; color: $text; padding: 0 1; }
    """

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
    ) -> None:
        """Render the line."""
        text = Text()
        text.append("w2c ", style="bold")
        text.append(f"│ {dataset} │ {annotator} │ {mode} │ ")
        text.append(f"{progress.done}/{progress.total} labelled", style="bold")
        rate = pace.per_minute()
        if rate:
            text.append(f" │ {rate:.1f}/min")
            left = progress.total - progress.done
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
