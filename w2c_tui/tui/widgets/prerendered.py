"""A Rich renderable rendered once per width, ahead of time if need be, for a `LinesPane`.

`Prerendered` renders a renderable once per (width, base style) and keeps the lines; `prepare`
does that render off the UI thread, so that an item read ahead is painted from lines made while
the annotator was reading the one before (bench/bench_review.py measures it). A `Panel` on its
own would fill the height it is given, so it is always wrapped in a `Group` here.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock
from typing import Generic, TypeVar

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.strip import Strip

K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class RenderTarget:
    """Where a visual will be painted: width, the widget's base style, and Rich's console and
    options (taken on the UI thread; rendering against them is safe on any thread)."""

    width: int
    style: RichStyle
    console: Console
    options: ConsoleOptions


class Prerendered:
    """A Rich renderable whose lines are made once per target (width and base style) and kept."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable if isinstance(renderable, Group) else Group(renderable)
        self._lines: dict[tuple[int, RichStyle], list[Strip]] = {}
        self._lock = Lock()
        """One render at a time: the UI thread and a read-ahead thread may both ask."""

    def prepare(self, target: RenderTarget) -> None:
        """Render for `target` now (any thread), so that painting it later costs nothing."""
        self.lines(target)

    def is_ready(self, target: RenderTarget) -> bool:
        """Whether the lines for `target` are made."""
        return (target.width, target.style) in self._lines

    def lines(self, target: RenderTarget) -> list[Strip]:
        """The lines for `target` (made now if they are not yet), the pane's base style
        applied to every segment as Textual applies a widget's style to what it renders."""
        key = (target.width, target.style)
        with self._lock:
            done = self._lines.get(key)
            if done is not None:
                return done
            segments = list(target.console.render(self.renderable, target.options))
            if target.style:
                apply = target.style.__add__
                segments = [Segment(text, apply(seg), control) for text, seg, control in segments]
            self._lines[key] = done = [
                Strip(line)
                for line in Segment.split_and_crop_lines(
                    segments, target.width, include_new_lines=False, pad=False
                )
            ]
            return done


class VisualCache(Generic[K]):
    """The last few `Prerendered` visuals by key, each with what it was made from: a visual is
    found only for an equal source (an item read again after a label finds its lines)."""

    def __init__(self, size: int = 16) -> None:
        self._size = size
        self._kept: OrderedDict[K, tuple[object, Prerendered]] = OrderedDict()

    def get(self, key: K, source: object) -> Prerendered | None:
        """The visual kept for `key`, if it was made from a source equal to `source`."""
        kept = self._kept.get(key)
        if kept is None or kept[0] != source:
            return None
        self._kept.move_to_end(key)
        return kept[1]

    def put(self, key: K, source: object, visual: Prerendered) -> None:
        """Keep `visual` (made from `source`) for `key`, forgetting the oldest beyond the size."""
        self._kept[key] = (source, visual)
        self._kept.move_to_end(key)
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)
