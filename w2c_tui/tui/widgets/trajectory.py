"""The CriticTool trajectory pane: tools, turns, the step under review, gold and the model.

Built from domain objects: a `Sample` (the dataset's form) and a model's raw replies. The
system prompt is folded to its tool list (one line per tool: name, required parameters,
optional ones in brackets, each with its declared type). The turns follow; the last step of
the dataset's trajectory (the assistant call and the tool's response to it) is marked. Unless
blind, the mark names the injected error or the environment failure, and the gold next step
and the model's replies (each with the reference parser's reading) come after. Blind shows
neither the error type, the gold, nor the model's replies or the turns its retries appended.
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from w2c_tui.domain.critictool import Sample, Step, Tool
from w2c_tui.domain.critictool_labels import CATEGORY_TITLES, ErrorCategory
from w2c_tui.runs.critictool.parse import parse_reply
from w2c_tui.tui.widgets.item_view import clipped

ROLE_STYLES = {"user": "bold cyan", "assistant": "bold magenta", "function": "bold yellow"}
ROLE_NAMES = {"user": "user", "assistant": "assistant", "function": "tool"}
MARK = "on #3a2a00"
"""Background of the step under review."""


def tool_line(tool: Tool) -> Text:
    """`name(req: TYPE, …, [opt: TYPE], …)`."""
    line = Text("  ")
    line.append(tool.name, "bold")
    line.append(tool.parameter_list)
    return line


def error_title(error_type: str | None) -> str:
    """A human name for a sample's error type."""
    if not error_type:
        return "none (control sample)"
    try:
        return CATEGORY_TITLES[ErrorCategory(error_type)]
    except ValueError:
        return error_type


def step_text(step: Step) -> str:
    """A gold step as one JSON-ish line."""
    args = json.dumps(step.args, ensure_ascii=False)
    head = f"thought: {step.thought}\n" if step.thought else ""
    return f"{head}{step.name} {args}"


def _show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def reply_block(index: int, total: int, raw: str) -> list[RenderableType]:
    """One model reply: the raw text, then what the reference parser reads in it."""
    reply = parse_reply(raw)
    title = "model reply" if total == 1 else f"model reply, round {index + 1} of {total}"
    out: list[RenderableType] = [Text(title, "bold green"), clipped(raw)]
    parse = Text("  parse: ", "dim")
    if reply.parsed_as is None:
        parse.append("did not parse (every field reads empty)", "red")
    else:
        parse.append(f"as {reply.parsed_as}; ")
        parse.append(f"error={_show(reply.error) or '—'}; ")
        parse.append(f"name={reply.name or '—'}; args={_show(reply.args) or '—'}")
        if reply.thought:
            parse.append(f"; thought={reply.thought}")
    out.append(parse)
    return out


def render_trajectory(
    sample: Sample, rounds: tuple[str, ...] = (), *, blind: bool, model: str | None = None
) -> Group:
    """The whole trajectory as one renderable, with the model's replies `rounds` (gold, the
    model and its name hidden when `blind`)."""
    parts: list[RenderableType] = []
    head = Text()
    head.append(f"sample {sample.sample_id}", "bold")
    head.append(f" · {sample.source} error")
    if not blind:
        label = "environment failure" if sample.source == "external" else "injected"
        head.append(f" · {label}: {error_title(sample.error_type)}")
    parts.append(head)
    parts.append(Text(f"Tools ({len(sample.tools)}; system prompt folded)", "bold underline"))
    parts.extend(tool_line(tool) for tool in sample.tools)
    parts.append(Text("Trajectory", "bold underline"))
    start, end = sample.review_span()
    for index in range(1, end):
        turn = sample.turns[index]
        marked = index >= start
        line = Text()
        if index == start:
            parts.append(Text(_mark_title(sample, blind), "bold reverse"))
        role = ROLE_NAMES.get(turn.role, turn.role)
        line.append(f"{role:>9} │ ", ROLE_STYLES.get(turn.role, "bold"))
        line.append_text(clipped(turn.content))
        if marked:
            line.stylize(MARK)
        parts.append(line)
    if blind:
        parts.append(Text("(blind: gold and the model are shown once the blind part is committed)"))
        return Group(*parts)
    parts.append(Text("Gold next step", "bold underline"))
    if sample.source == "external":
        parts.append(Text(f"  retry target: {step_text(sample.gold[0])}"))
        parts.append(Text(f"  after giving up: {step_text(sample.gold[1])}"))
    else:
        parts.append(Text(f"  {step_text(sample.gold[0])}"))
    if not rounds:
        parts.append(Text("No model prediction for this sample.", "dim"))
    elif model:
        parts.append(Text(f"Model: {model}", "bold underline"))
    for index, raw in enumerate(rounds):
        parts.extend(reply_block(index, len(rounds), raw))
    return Group(*parts)


def _mark_title(sample: Sample, blind: bool) -> str:
    if blind:
        return "▼ step under review"
    if sample.source == "external":
        return "▼ environment failure"
    if sample.error_type:
        return f"▼ injected error: {error_title(sample.error_type)}"
    return "▼ step under review (no injected error)"


class TrajectoryView(VerticalScroll):
    """Shows one CriticTool sample; `blind` hides the error type, the gold and the model."""

    DEFAULT_CSS = """
    TrajectoryView { padding: 0 1; }
    TrajectoryView #trajectory-body { width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.sample: Sample | None = None
        self.rounds: tuple[str, ...] = ()
        self.blind = False

    def compose(self) -> ComposeResult:
        yield Static("", id="trajectory-body")

    def show(
        self,
        sample: Sample | None,
        rounds: tuple[str, ...] = (),
        *,
        blind: bool,
        model: str | None = None,
    ) -> None:
        """Display `sample` with the model's replies `rounds` (None: an empty-state message)."""
        self.sample, self.rounds, self.blind = sample, rounds, blind
        body = self.query_one("#trajectory-body", Static)
        if sample is None:
            body.update(Text("No CriticTool sample to show."))
        else:
            body.update(render_trajectory(sample, rounds, blind=blind, model=model))
        self.scroll_home(animate=False)
