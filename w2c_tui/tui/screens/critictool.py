"""The CriticTool trajectory view: a sample's tools, turns, the step that went wrong, the gold
next step and a model's prediction as the reference's parser reads it.

Blind (the default) hides what would bias a reader: the error type, which step holds the
injected error, the gold step and the model's output; `b` shows them.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from w2c_tui.domain.critictool import Sample, Step, Tool
from w2c_tui.runs.critictool.parse import parse_reply

if TYPE_CHECKING:
    from w2c_tui.services.critictool import Trajectories

ABBREV = {
    "tool_select_error": "select",
    "tool_hallucination_error": "halluc.",
    "parameters_key_error": "param key",
    "parameters_value_error": "param value",
}
CUT = 2_000
"""Characters of one turn or output shown (the rest is counted, never rendered)."""


def _cut(text: str) -> str:
    return text if len(text) <= CUT else f"{text[:CUT]}… ({len(text) - CUT:,} more characters)"


def _tool(tool: Tool) -> Text:
    params = [f"{p.name}*: {p.type}" for p in tool.required]
    params += [f"{p.name}: {p.type}" for p in tool.optional]
    line = Text("  ")
    line.append(tool.name, style="bold")
    line.append(f"({', '.join(params)})")
    if tool.description:
        line.append(f"  — {tool.description}", style="dim")
    return line


def _step(title: str, step: Step) -> Text:
    text = Text(f"{title}: ", style="bold green")
    text.append(step.name, style="bold")
    text.append(" " + json.dumps(step.args, ensure_ascii=False))
    if step.thought:
        text.append(f"\n  thought: {_cut(step.thought)}", style="italic")
    return text


def _parse(raw: str) -> Text:
    reply = parse_reply(raw)
    if reply.parsed_as is None:
        return Text("  parse: nothing the reference's parser can read", style="bold red")
    fields: list[tuple[str, Any]] = [
        ("as", reply.parsed_as),
        ("error", reply.error),
        ("name", reply.name),
        ("args", reply.args),
    ]
    if reply.thought:
        fields.append(("thought", reply.thought))
    text = Text("  parse: ", style="dim")
    text.append(
        " · ".join(f"{k} {json.dumps(v, ensure_ascii=False, default=str)}" for k, v in fields)
    )
    return text


def render_sample(
    sample: Sample, blind: bool, model: str | None, outputs: tuple[str, ...] | None
) -> RenderableType:
    """The whole trajectory as one renderable (cut long texts; nothing becomes markup)."""
    parts: list[RenderableType] = []
    head = Text(f"{sample.sample_id} · {sample.source}", style="bold")
    what = "hidden (blind: b shows it)" if blind else (sample.error_type or "none (a control)")
    head.append(f" · error type: {what}")
    parts += [head, Text(f"\nTools ({len(sample.tools)})  * required", style="bold")]
    parts += [_tool(tool) for tool in sample.tools]
    turns = sample.original_turns[1:]
    wrong = -1
    if not blind and sample.erroneous:  # where the error is (internal: injected; external: env)
        role = "assistant" if sample.source == "internal" else "function"
        wrong = max((n for n, t in enumerate(turns) if t.role == role), default=-1)
    parts.append(Text("\nTurns", style="bold"))
    for n, turn in enumerate(turns):
        style = "on dark_red" if n == wrong else ""
        label = Text(f"[{turn.role}] ", style="bold cyan" if turn.role != "function" else "bold")
        label.append(Text(_cut(turn.content), style=style))
        if n == wrong:
            label.append("  ← the error", style="bold red")
        parts.append(label)
    if blind:
        parts.append(Text("\ngold next step and the model's output: hidden (b)", style="dim"))
        return Group(*parts)
    parts.append(Text(""))
    if sample.source == "internal":
        parts.append(_step("gold next step", sample.gold[0]))
    else:
        parts.append(_step("the call that failed (the retry target)", sample.gold[0]))
        parts.append(_step("gold step after giving up", sample.gold[1]))
    if model is None or outputs is None:
        parts.append(Text("\nno model output imported for this sample", style="dim"))
        return Group(*parts)
    for round_number, raw in enumerate(outputs, start=1):
        title = f"\n{model}" + (f", round {round_number}" if len(outputs) > 1 else "")
        parts.append(Text(title + ":", style="bold magenta"))
        parts.append(Text(_cut(raw)))
        parts.append(_parse(raw))
    return Group(*parts)


class CriticToolScreen(Screen[None]):
    """Samples on the left, the selected trajectory on the right."""

    BINDINGS = [
        Binding("escape", "back", "back"),
        Binding("b", "blind", "blind"),
        Binding("m", "model", "next model"),
    ]

    def __init__(self, trajectories: Trajectories) -> None:
        super().__init__()
        self.data = trajectories
        self.blind = True
        self.models = sorted(trajectories.predictions)
        self.model_index = 0
        self.index = 0

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield OptionList(*self._options(), id="critic-samples")
            with VerticalScroll(id="critic-view"):
                yield Static(id="critic-body", markup=False)
        yield Footer()

    def _options(self) -> list[Option]:
        out = []
        for sample in self.data.samples:
            kind = "env." if sample.source == "external" else (sample.error_type or "none")
            what = "" if self.blind else f"  {ABBREV.get(kind, kind)}"
            out.append(Option(Text(f"{sample.sample_id}{what}"), id=sample.sample_id))
        return out

    def on_mount(self) -> None:
        self.title = f"CriticTool · {self.data.dataset}"
        self.query_one(OptionList).highlighted = 0
        self._show()

    @on(OptionList.OptionHighlighted)
    def _moved(self, event: OptionList.OptionHighlighted) -> None:
        self.index = event.option_index
        self._show()

    def _show(self) -> None:
        if not self.data.samples:
            self.query_one("#critic-body", Static).update("This dataset has no samples.")
            return
        sample = self.data.samples[self.index]
        model = self.models[self.model_index] if self.models else None
        outputs = self.data.predictions.get(model, {}).get(sample.sample_id) if model else None
        body = render_sample(sample, self.blind, model, outputs)
        self.query_one("#critic-body", Static).update(body)
        self.query_one("#critic-view", VerticalScroll).scroll_home(animate=False)

    def action_blind(self) -> None:
        self.blind = not self.blind
        samples = self.query_one(OptionList)
        samples.clear_options()
        samples.add_options(self._options())
        samples.highlighted = self.index
        self._show()
        self.notify("blind on" if self.blind else "blind off: error type, gold and output shown")

    def action_model(self) -> None:
        if not self.models:
            self.notify("No model's predictions imported for this dataset.")
            return
        self.model_index = (self.model_index + 1) % len(self.models)
        self.notify(f"showing {self.models[self.model_index]}'s output", markup=False)
        self._show()

    def action_back(self) -> None:
        self.app.pop_screen()
