"""A Rich renderable rendered once per width, ahead of time if need be, for `Static.update`.

Textual wraps a Rich renderable in a `RichVisual`, which renders it twice per update: once to
measure its height for the layout, once more to paint it. `Prerendered` renders it once per
(width, base style) and answers both from that render; `prepare` does that render off the UI
thread, so that an item read ahead is painted from lines made while the annotator was reading
the one before (bench/bench_review.py measures it).

The lines equal `RichVisual`'s for a renderable whose lines do not depend on the height it is
offered (a `Group`, a `Text`: what the review panes show); a `Panel` on its own would fill the
height it is given, so it is always wrapped in a `Group` here.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock
from typing import Generic, TypeVar

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual._context import active_app
from textual.css.styles import RulesMap
from textual.render import measure
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widget import Widget

K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class RenderTarget:
    """Where a visual will be painted: width, the widget's base style, and Rich's console and
    options (taken on the UI thread; rendering against them is safe on any thread)."""

    width: int
    style: RichStyle
    console: Console
    options: ConsoleOptions


def scroll_targets(pane: Widget, child: Widget, inset: int) -> tuple[RenderTarget, ...]:
    """Where `child`, a widget in the scrolling `pane` `inset` cells narrower than the pane's
    content, will be painted: without the pane's vertical scrollbar and with it (which one a
    render needs depends on its height). Call on the UI thread; none before a layout."""
    width = pane.content_region.width - inset
    if width <= 0 or not child.is_mounted:
        return ()
    app = pane.app
    style = child.visual_style.rich_style
    bar = pane.styles.scrollbar_size_vertical
    widths = (width, width - bar) if 0 < bar < width else (width,)
    return tuple(
        RenderTarget(w, style, app.console, app.console_options.update(highlight=False, width=w))
        for w in widths
    )


class Prerendered(Visual):
    """A Rich renderable whose lines are made once per (width, base style) and kept."""

    def __init__(self, renderable: RenderableType, style: RichStyle | None = None) -> None:
        """`style`: the base style the widget will paint it with (its `visual_style`), so that
        the render made to measure the height is the one painted."""
        self.renderable = renderable if isinstance(renderable, Group) else Group(renderable)
        self._style = style or RichStyle.null()
        self._lines: dict[tuple[int, RichStyle], tuple[list[Strip], int]] = {}
        self._heights: dict[int, int] = {}
        self._lock = Lock()
        """One render at a time: the UI thread and a read-ahead thread may both ask."""

    def prepare(self, target: RenderTarget) -> None:
        """Render for `target` now (any thread), so that painting it later costs nothing."""
        self._render(target.console, target.options, target.style)

    def is_ready(self, target: RenderTarget) -> bool:
        """Whether the lines for `target` are made."""
        return (target.width, target.style) in self._lines

    def _render(
        self, console: Console, options: ConsoleOptions, style: RichStyle
    ) -> tuple[list[Strip], int]:
        width = options.max_width
        key = (width, style)
        with self._lock:
            done = self._lines.get(key)
            if done is not None:
                return done
            segments = list(console.render(self.renderable, options))
            if style:  # as Textual's post_render applies the widget's style
                apply = style.__add__
                segments = [Segment(text, apply(seg), control) for text, seg, control in segments]
            # the height as RichVisual measures it: the line breaks of the render
            height = sum(text.count("\n") for text, _, _ in segments)
            lines = [
                Strip(line)
                for line in Segment.split_and_crop_lines(
                    segments, width, include_new_lines=False, pad=False
                )
            ]
            self._lines[key] = done = (lines, height)
            self._heights[width] = height
            return done

    # ---- the Visual protocol (UI thread) ---------------------------------------------------

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        console = active_app.get().console
        return measure(console, self.renderable, container_width, container_width=container_width)

    def get_height(self, rules: RulesMap, width: int) -> int:
        height = self._heights.get(width)
        if height is not None:
            return height
        app = active_app.get()
        options = app.console_options.update(highlight=False, width=width)
        return self._render(app.console, options, self._style)[1]

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        app = active_app.get()
        console_options = app.console_options.update(highlight=False, width=width)
        lines, _ = self._render(app.console, console_options, style.rich_style)
        return lines if height is None else lines[:height]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Printed on a Rich console it is its renderable (tests print a Static's content)."""
        yield self.renderable


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
