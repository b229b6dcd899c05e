"""The item pane: question, source metadata, tools (expandable) and the four answers."""

from __future__ import annotations

import json

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from w2c_tui.domain.labels import LABELS, Label
from w2c_tui.domain.models import Item

MAX_TOOL_LINES = 400


class ItemView(VerticalScroll):
    """Shows one item; `blind` hides the gold label.

    The whole item is one renderable in one Static: moving to the next item then costs one
    widget's layout and paint instead of five (measured: most of a step is Textual's repaint).
    """

    DEFAULT_CSS = """
    ItemView { padding: 0 1; }
    ItemView #item-body { width: 1fr; }
    """

    blind: reactive[bool] = reactive(False)
    """Hide the gold label until the annotator has committed one."""
    tools_open: reactive[bool] = reactive(False)
    """Show the tool specifications in full (else their names)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._item: Item | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="item-body")

    def show(self, item: Item | None, *, blind: bool | None = None) -> None:
        """Display `item` (None: an empty-state message), gold hidden when `blind`."""
        self._item = item
        if blind is not None:
            self.set_reactive(ItemView.blind, blind)  # one repaint below, not two
        self._refresh_all()
        self.scroll_home(animate=False)

    def watch_blind(self) -> None:
        if self.is_mounted:
            self._refresh_all()

    def watch_tools_open(self) -> None:
        if self.is_mounted:
            self._refresh_all()

    def toggle_tools(self) -> None:
        """Expand or collapse the tool specifications."""
        self.tools_open = not self.tools_open

    def _refresh_all(self) -> None:
        item = self._item
        body = self.query_one("#item-body", Static)
        if item is None:
            body.update("No item to show: the filter keeps nothing, or the dataset is empty.")
            return
        question = Panel(
            Text(item.question),
            title=f"item {item.position + 1} · {item.uuid}",
            title_align="left",
            padding=(1, 1),
        )
        body.update(
            Group(
                question,
                _meta(item, self.blind),
                Text(""),
                _tools_section(item, self.tools_open),
                Text(""),
                _answers(item, self.blind),
            )
        )


def _tools_section(item: Item, open_: bool) -> RenderableType:
    if not item.tools:
        return Text(
            "⚠ No tools offered to the model: any tool call is a hallucinated tool.",
            style="bold reverse",
        )
    names = ", ".join(t.name for t in item.tools)
    head = Text()
    head.append("▼ " if open_ else "▶ ", style="bold")
    head.append(f"Tools ({item.n_tools}): ", style="bold")
    head.append(names)
    head.append("   t " + ("collapses" if open_ else "expands"), style="dim")
    if not open_:
        return head
    return Group(head, _tools(item))


def _meta(item: Item, blind: bool) -> Text:
    text = Text()
    gold = "hidden (blind)" if blind else (item.gold.value if item.gold else "—")
    text.append("gold ", style="dim")
    text.append(gold, style="bold" if not blind else "italic")
    for name, value in (
        ("source", item.source),
        ("source id", item.source_id),
        ("held-out parameter", item.held_out_param),
    ):
        if value:
            text.append(f"   {name} ", style="dim")
            text.append(value)
    target = _target_tool_name(item)
    if target:
        text.append("   target tool ", style="dim")
        text.append(target)
    text.append(f"   kind {item.kind.value}", style="dim")
    return text


def _target_tool_name(item: Item) -> str | None:
    if not item.target_tool:
        return None
    try:
        spec = json.loads(item.target_tool)
    except json.JSONDecodeError:
        return item.target_tool[:40]
    return str(spec.get("name")) if isinstance(spec, dict) else None


def _tools(item: Item) -> RenderableType:
    if not item.tools:
        return Text(
            "This item offers no tools: any tool call is a hallucinated tool.", style="italic"
        )
    parts: list[RenderableType] = []
    for index, tool in enumerate(item.tools, 1):
        parts.append(Text(f"{index}. {tool.name}", style="bold"))
        pretty = tool.pretty()
        lines = pretty.splitlines()
        if len(lines) > MAX_TOOL_LINES:
            pretty = "\n".join(
                [*lines[:MAX_TOOL_LINES], f"… {len(lines) - MAX_TOOL_LINES} more lines"]
            )
        parts.append(
            Syntax(pretty, "json", theme="ansi_dark", word_wrap=True, background_color="default")
        )
    return Group(*parts)


def _answers(item: Item, blind: bool) -> Text:
    text = Text()
    known = {name for name, _ in item.answers}
    if known and not known <= {label.value for label in LABELS}:
        for name, answer in item.answers:
            text.append(f"{name}\n", style="bold")
            text.append(f"{answer}\n\n")
        return text
    for label in LABELS:
        text_of = item.answer(label)
        if text_of is None:
            continue
        is_gold = item.gold is label and not blind
        text.append(
            f"[{label.option + 1}] {label.display_name}",
            style="bold reverse" if is_gold else "bold",
        )
        if is_gold:
            text.append("  ◀ gold", style="bold")
        text.append("\n")
        text.append(f"{_readable(text_of) if label is Label.TOOL_CALL else text_of}\n\n")
    return text


def _readable(answer: str) -> str:
    """A tool-call answer as JSON with non-ASCII shown as characters (the file escapes it)."""
    try:
        return json.dumps(json.loads(answer), ensure_ascii=False)
    except json.JSONDecodeError:
        return answer
