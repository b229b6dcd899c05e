"""Labelling pace counted over active time only: a long pause is not slowness."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

IDLE_GAP_S = 300.0
"""A gap between two labels longer than this counts as a break, not as labelling time."""


@dataclass
class Pace:
    """Labels recorded in this session, for the rate and the time left."""

    clock: Callable[[], float] = time.monotonic
    count: int = 0
    active_s: float = 0.0
    """Seconds spent labelling: the gaps between labels, each capped at IDLE_GAP_S."""
    last: float | None = field(default=None)

    def record(self) -> None:
        """One more label."""
        now = self.clock()
        if self.last is not None:
            self.active_s += min(now - self.last, IDLE_GAP_S)
        self.last = now
        self.count += 1

    def per_minute(self) -> float | None:
        """Labels per minute of active time (None: too early to say)."""
        if self.count < 2 or self.active_s <= 0:
            return None
        return (self.count - 1) / (self.active_s / 60)
