"""The bare floor: a two-pane Textual app showing each item as one plain text, for bench_review.py.

A virtual list on the left (one line per item, floor_app.FloorList) and, on the right, the item
as ONE plain-text `Static` in a scrolling pane: the question, the tool names, the four answers
and the model responses, one after another. No panels, no borders, no highlighting, no styles:
moving to the next item costs Textual's update, layout and paint of one plain text and two
list lines, which is as little as a two-pane app can do. The review screen's next-item and
label-key times are held to this app's next item (goal: p95 ≤ 1.5×), measured the same way in
the same run.
"""

from __future__ import annotations

from dataclasses import dataclass

from floor_app import FloorItem, FloorList
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Static


@dataclass(frozen=True)
class BareItem:
    """One item as the bare app shows it: a list line's source and the whole text."""

    uuid: str
    question: str
    text: str


def bare_item(item: FloorItem, tool_names: tuple[str, ...]) -> BareItem:
    """The item's texts as one plain text (the same texts the review screen shows)."""
    parts = [item.uuid, "", item.question, "", f"Tools ({len(tool_names)})"]
    parts += [f"  {name}" for name in tool_names]
    parts.append("")
    for name, answer in item.answers:
        parts += [name, answer, ""]
    for number, response in enumerate(item.responses, 1):
        parts += [f"Response {number}", response, ""]
    return BareItem(uuid=item.uuid, question=item.question, text="\n".join(parts))


class BareApp(App[None]):
    """The list and the item's plain text; `next_item()` is the step measured."""

    CSS = "#item { width: 1fr; padding: 0 1; }"

    def __init__(self, items: list[BareItem]) -> None:
        super().__init__()
        self.items = items
        self.index = 0

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield FloorList(self.items)
            with VerticalScroll(id="item"):
                yield Static("", id="body", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def next_item(self) -> None:
        """The measured step: the next item (wrapping at the end)."""
        self.index = (self.index + 1) % len(self.items)
        self.show()

    def show(self) -> None:
        """Push the current item into the widgets."""
        self.query_one(FloorList).move_to(self.index)
        self.query_one("#body", Static).update(self.items[self.index].text)
        self.query_one("#item", VerticalScroll).scroll_home(animate=False)
