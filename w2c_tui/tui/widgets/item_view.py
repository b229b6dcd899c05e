"""The item pane: question, source metadata, tools and the four answers.

Tools show as one signature line each by default (`t` switches to the full JSON, which then
comes after the answers so that it never pushes them out of reach). A text longer than
`LONG_TEXT` characters is cut with a note (`v` shows it whole), so no item — a 50 MB question
included — can stall the screen.
"""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.syntax import Syntax
from rich.text import Text
from textual.reactive import reactive
from textual.strip import Strip

from w2c_tui.config import save_tools_view
from w2c_tui.domain.blind import Fact, metadata
from w2c_tui.domain.labels import LABELS, Label
from w2c_tui.domain.models import Item
from w2c_tui.tui.widgets.lines_pane import LinesPane
from w2c_tui.tui.widgets.prerendered import Prerendered, VisualCache

MAX_TOOL_LINES = 400
LONG_TEXT = 3000
"""Characters of one text shown in the panes; the rest is one key (v) away."""


def clipped(text: str, limit: int = LONG_TEXT) -> Text:
    """`text`, cut after `limit` characters with a note saying how much is left and how to see
    it."""
    if len(text) <= limit:
        return Text(text)
    out = Text(text[:limit])
    out.append(f" … {len(text) - limit:,} more characters (v shows the whole text)", "bold")
    return out


EMPTY = Prerendered(Text("No item to show: the filter keeps nothing, or the dataset is empty."))


class ItemView(LinesPane):
    """Shows one item; `blind` hides the gold label.

    The whole item is one renderable, painted as lines by the pane itself: moving to the next
    item repaints this pane and lays nothing out (lines_pane.py says why that matters).
    """

    DEFAULT_CSS = """
    ItemView { padding: 0 1; }
    """

    blind: reactive[bool] = reactive(False)
    """Hide the gold label until the annotator has committed one."""
    tools_open: reactive[bool] = reactive(False)
    """Show the tool specifications as full JSON (else one signature line each)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._item: Item | None = None
        self._facts: tuple[Fact, ...] | None = None
        self._title: str | None = None
        self.bodies: VisualCache[BodyKey] = VisualCache()
        """The last items' rendered lines (and those read ahead: `ReviewScreen`)."""

    def show(
        self,
        item: Item | None,
        *,
        blind: bool | None = None,
        facts: tuple[Fact, ...] | None = None,
        title: str | None = None,
    ) -> None:
        """Display `item` (None: an empty-state message), gold hidden when `blind`; `facts`
        is the metadata to show (domain.blind.item_facts; default all of it) and `title` the
        panel's title (default: file position and uuid)."""
        same_item = item is not None and self._item is not None and item.id == self._item.id
        self._item = item
        self._facts = facts
        self._title = title
        if blind is not None:
            self.set_reactive(ItemView.blind, blind)  # one repaint below, not two
        self.update_lines()
        if not same_item:  # the same item again (after a label) stays where it was scrolled
            self.scroll_home(animate=False)

    def watch_blind(self) -> None:
        if self.is_mounted:
            self.update_lines()

    def watch_tools_open(self) -> None:
        if self.is_mounted:
            self.update_lines()

    def toggle_tools(self, remember: Path | None = None) -> None:
        """Signatures or full JSON; with `remember` (the settings file), kept for next time
        (a file that cannot be written is said in a notification)."""
        self.tools_open = not self.tools_open
        if remember is None:
            return
        try:
            save_tools_view(self.tools_open, remember)
        except (OSError, ValueError) as error:
            self.notify(f"Could not remember it: {error}", severity="warning", markup=False)

    def make_lines(self) -> list[Strip]:
        target = self.render_target()
        return [] if target is None else self._visual().lines(target)

    def sources(self) -> list[RenderableType]:
        return [self._visual().renderable]

    def _visual(self) -> Prerendered:
        item = self._item
        if item is None:
            return EMPTY
        facts = metadata(item) if self._facts is None else self._facts
        key = body_key(item, self.blind, facts, self._title, self.tools_open)
        visual = self.bodies.get(key, item)
        if visual is None:
            visual = Prerendered(item_body(item, self.blind, facts, self._title, self.tools_open))
            self.bodies.put(key, item, visual)
        return visual


BodyKey = tuple[int, bool, tuple[Fact, ...], str | None, bool]


def body_key(
    item: Item, blind: bool, facts: tuple[Fact, ...], title: str | None, tools_open: bool
) -> BodyKey:
    """What the item pane's lines depend on besides the item itself."""
    return (item.id, blind, facts, title, tools_open)


def item_body(
    item: Item, blind: bool, facts: tuple[Fact, ...], title: str | None, tools_open: bool
) -> RenderableType:
    """The item pane's content: the question in a titled panel, the metadata line, the tools
    (signatures, or full JSON after the answers) and the four answers. Pure: safe to build off
    the UI thread."""
    question = Panel(
        clipped(item.question),
        title=Text(title or f"item {item.position + 1} · {item.uuid}"),
        title_align="left",
        padding=(1, 1),
    )
    parts: list[RenderableType] = [question, _meta(item, facts, blind), Text("")]
    if tools_open and item.tools:
        parts += [_tools_head(item, True), Text(""), _answers(item, blind), _tools(item)]
    else:
        parts += [_tools_head(item, False), Text(""), _answers(item, blind)]
    return Group(*parts)


def _tools_head(item: Item, open_: bool) -> RenderableType:
    if not item.tools:
        return Text(
            "⚠ No tools offered to the model: any tool call is a hallucinated tool.",
            style="bold reverse",
        )
    head = Text()
    head.append(f"Tools ({item.n_tools})", style="bold")
    if open_:
        head.append("  full JSON below the answers · t: signatures", style="dim")
        return head
    head.append("  * required · t: full JSON", style="dim")
    lines = [head]
    for tool in item.tools:
        line = Text("  ")
        line.append(tool.signature[:LONG_TEXT])
        description = str(tool.spec.get("description", "")).strip()
        if description:
            cut = description if len(description) <= 90 else description[:89] + "…"
            line.append(f"  — {cut}", style="dim")
        lines.append(line)
    return Group(*lines)


def _meta(item: Item, facts: tuple[Fact, ...], blind: bool) -> Text:
    text = Text()
    gold = "hidden (blind)" if blind else (item.gold.value if item.gold else "—")
    text.append("gold ", style="dim")
    text.append(gold, style="bold" if not blind else "italic")
    for fact in facts:
        text.append(f"   {fact.label} ", style="dim")
        text.append(fact.value, style="dim" if fact.name == "kind" else "")
    if blind:  # always, whatever is held back: whether something is would be a cue itself
        text.append("   other metadata after your label", style="dim italic")
    return text


def _tools(item: Item) -> RenderableType:
    parts: list[RenderableType] = [Text("")]
    for index, tool in enumerate(item.tools, 1):
        parts.append(Text(f"{index}. {tool.name}", style="bold"))
        pretty = tool.pretty() if len(tool.raw) <= 20 * LONG_TEXT else tool.raw
        lines = pretty.splitlines()
        if len(lines) > MAX_TOOL_LINES:
            pretty = "\n".join(
                [*lines[:MAX_TOOL_LINES], f"… {len(lines) - MAX_TOOL_LINES} more lines"]
            )
        if len(pretty) > 20 * LONG_TEXT:
            parts.append(clipped(pretty, 20 * LONG_TEXT))
            continue
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
            text.append_text(clipped(answer))
            text.append("\n\n")
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
        text.append_text(clipped(_readable(text_of) if label is Label.TOOL_CALL else text_of))
        text.append("\n\n")
    return text


def _readable(answer: str) -> str:
    """A tool-call answer as JSON with non-ASCII shown as characters (the file escapes it)."""
    if len(answer) > LONG_TEXT:
        return answer
    try:
        return json.dumps(json.loads(answer), ensure_ascii=False)
    except json.JSONDecodeError:
        return answer
