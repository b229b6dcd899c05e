"""The floor: a minimal two-pane Textual app showing the same items, for bench_review.py.

A virtual list on the left (one line per item), and on the right the item as the review screen
shows it (question in a panel, a metadata line, one signature line per tool, the four answers)
above two bordered response cards. Everything is in memory: moving to the next item costs
Textual's update, layout and paint alone, with renderables of the same sizes as w2c-tui's.
The review screen's next-item time is reported as a ratio to this app's, measured the same way
in the same run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from rich.console import Group
from rich.panel import Panel
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Footer, Static

REVERSE = Style(reverse=True)


@dataclass(frozen=True)
class FloorItem:
    """What the floor app shows of one item (texts taken from the benchmark's database)."""

    uuid: str
    question: str
    tools: tuple[str, ...]
    answers: tuple[tuple[str, str], ...]
    responses: tuple[str, ...]
    tool_names: tuple[str, ...] = ()
    """The tools' names (the bare app shows these instead of the signatures)."""


class Listed(Protocol):
    """What a list line shows of an item."""

    @property
    def uuid(self) -> str: ...

    @property
    def question(self) -> str: ...


class FloorList(ScrollView):
    """One line per item, rendered on demand."""

    DEFAULT_CSS = "FloorList { width: 44; background: $surface; }"

    def __init__(self, items: Sequence[Listed]) -> None:
        super().__init__()
        self.items = items
        self.cursor = 0
        self.virtual_size = Size(0, len(items))

    def render_line(self, y: int) -> Strip:
        index = y + int(self.scroll_y)
        if index >= len(self.items):
            return Strip.blank(self.size.width)
        item = self.items[index]
        line = f"{index + 1:>6} {item.uuid[:8]} {item.question[:60]}"[: self.size.width]
        style = self.rich_style if index != self.cursor else self.rich_style + REVERSE
        return Strip([Segment(line.ljust(self.size.width), style)])

    def move_to(self, index: int) -> None:
        """Highlight `index` and keep it in view."""
        self.cursor = index
        if not self.scroll_y <= index < self.scroll_y + self.size.height:
            self.scroll_to(y=max(0, index - self.size.height // 2), animate=False)
        self.refresh()


class FloorApp(App[None]):
    """The list, the item and two response cards; `next_item()` is the step measured."""

    CSS = """
    #item { width: 1fr; padding: 0 1; }
    #side { width: 1fr; padding: 0 1; }
    .card { border: round $panel-lighten-2; padding: 0 1; margin-bottom: 1; }
    """

    def __init__(self, items: list[FloorItem]) -> None:
        super().__init__()
        self.items = items
        self.index = 0

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield FloorList(self.items)
            with VerticalScroll(id="item"):
                yield Static("", id="body")
            with VerticalScroll(id="side"):
                yield Static("", classes="card", id="card0")
                yield Static("", classes="card", id="card1")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def next_item(self) -> None:
        """The measured step: the next item (wrapping at the end)."""
        self.index = (self.index + 1) % len(self.items)
        self.show()

    def show(self) -> None:
        """Push the current item into the widgets."""
        item = self.items[self.index]
        self.query_one(FloorList).move_to(self.index)
        answers = Text()
        for name, answer in item.answers:
            answers.append(f"{name}\n", style="bold")
            answers.append(f"{answer}\n\n")
        tools = [Text(f"  {tool}") for tool in item.tools]
        body = Group(
            Panel(Text(item.question), title=Text(item.uuid), title_align="left", padding=(1, 1)),
            Text(f"gold hidden   kind test   tools {len(item.tools)}", style="dim"),
            Text(""),
            Text(f"Tools ({len(item.tools)})", style="bold"),
            *tools,
            Text(""),
            answers,
        )
        self.query_one("#body", Static).update(body)
        self.query_one("#item", VerticalScroll).scroll_home(animate=False)
        for number in range(2):
            card = self.query_one(f"#card{number}", Static)
            text = item.responses[number] if number < len(item.responses) else ""
            card.update(Text(text))
            card.border_title = Text(f"{number + 1}. model hidden (blind)")
            card.border_subtitle = Text("press 1–4")
