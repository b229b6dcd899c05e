"""The item pane: question, source metadata, tools (collapsible) and the four answers."""

from __future__ import annotations

import json

from rich.console import Group, RenderableType
from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Collapsible, Static

from w2c_tui.domain.labels import LABELS, Label
from w2c_tui.domain.models import Item

MAX_TOOL_LINES = 400


class ItemView(VerticalScroll):
    """Shows one item; `blind` hides the gold label."""

    DEFAULT_CSS = """
    ItemView { padding: 0 1; }
    ItemView .item--question { padding: 1 1; border: round $primary; margin-bottom: 1; }
    ItemView .item--meta { color: $text-muted; margin-bottom: 1; }
    ItemView Collapsible { margin: 0 0 1 0; }
    ItemView Collapsible.-no-tools CollapsibleTitle { color: $warning; text-style: bold; }
    ItemView .item--answers { margin-top: 0; }
    """

    blind: reactive[bool] = reactive(False)
    """Hide the gold label until the annotator has committed one."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._item: Item | None = None

    def compose(self) -> ComposeResult:
        yield Static("", classes="item--question", id="question")
        yield Static("", classes="item--meta", id="meta")
        with Collapsible(title="Tools", collapsed=True, id="tools"):
            yield Static("", id="tools-body")
        yield Static("", classes="item--answers", id="answers")

    def show(self, item: Item | None) -> None:
        """Display `item` (None: an empty-state message)."""
        self._item = item
        self._refresh_all()
        self.scroll_home(animate=False)

    def watch_blind(self) -> None:
        if self.is_mounted:
            self._refresh_all()

    def toggle_tools(self) -> None:
        """Expand or collapse the tool specifications."""
        tools = self.query_one("#tools", Collapsible)
        tools.collapsed = not tools.collapsed

    def _refresh_all(self) -> None:
        item = self._item
        question = self.query_one("#question", Static)
        meta = self.query_one("#meta", Static)
        tools = self.query_one("#tools", Collapsible)
        answers = self.query_one("#answers", Static)
        if item is None:
            question.update("No item to show: the filter keeps nothing, or the dataset is empty.")
            meta.update("")
            tools.display = False
            answers.update("")
            return
        tools.display = True
        question.border_title = f"item {item.position + 1} · {item.uuid}"
        question.update(Text(item.question))
        meta.update(_meta(item, self.blind))
        names = ", ".join(t.name for t in item.tools)
        if item.tools:
            tools.title = f"Tools ({item.n_tools}): {names}"
            tools.remove_class("-no-tools")
        else:
            tools.title = "No tools offered to the model"
            tools.add_class("-no-tools")
        self.query_one("#tools-body", Static).update(_tools(item))
        answers.update(_answers(item, self.blind))


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
