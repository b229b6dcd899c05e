"""Spot check: ask a model about the current item now; its answer, the judge's reading, its MCQ."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Label, LoadingIndicator, Static
from textual.worker import Worker, WorkerState

from w2c_tui.domain.run_options import options_for
from w2c_tui.domain.runs import Backend, Method, RunConfig
from w2c_tui.tui.screens.base import OnceModalScreen
from w2c_tui.tui.widgets.select import Select

if TYPE_CHECKING:
    from w2c_tui.domain.labels import Label as Behaviour
    from w2c_tui.domain.runs import SpotCheck, TaskResult
    from w2c_tui.services import Services


@dataclass
class SpotSettings:
    """What the last spot check used (remembered for the next one)."""

    backend: str = Backend.TRANSFORMERS.value
    model: str = ""
    base_url: str = ""
    key_env: str = ""
    judge_model: str = ""
    judge_backend: str = Backend.OPENAI.value
    judge_base_url: str = ""
    template: str = "when2call-default"


@dataclass(frozen=True, slots=True)
class OwnLabels:
    """What the annotator said about this item: its item-QA label (the behaviour it wants)
    and its label of each model's stored response, by model name."""

    qa: Behaviour | None = None
    by_model: dict[str, Behaviour] = field(default_factory=dict)

    def line(self, model: str) -> tuple[str, str]:
        """(who, label) to set beside the spot-checked model's answer: the annotator's label of
        that same model's stored response, else its item-QA label, else nothing."""
        if model in self.by_model:
            return f"you (on {model}'s stored response): ", self.by_model[model].value
        if self.qa is not None:
            return "you (item QA, the right behaviour): ", self.qa.value
        return "you: ", f"no label of {model}'s response yet"


class SpotCheckDialog(OnceModalScreen[SpotSettings | None]):
    """Asks which model to try and which judge reads its answer, then shows all three."""

    BINDINGS = [Binding("escape", "close", "close")]

    def __init__(
        self,
        services: Services,
        dataset: str,
        item_id: int,
        settings: SpotSettings,
        own: OwnLabels,
    ) -> None:
        super().__init__()
        self.services = services
        self.dataset = dataset
        self.item_id = item_id
        self.settings = settings
        self.own = own
        self.session = services.runs.spot_session()
        """Models load once and serve every check of this dialog (closed on dismiss)."""

    def compose(self) -> ComposeResult:
        s = self.settings
        with VerticalScroll(classes="dialog dialog--wide", id="spot"):
            yield Label(
                "Spot check: the model's answer to this item now, the judge's reading, "
                "and (local models) its log-prob choice",
                classes="dialog--title",
            )
            with Horizontal(classes="dialog--row"):
                yield Select(
                    [(b.value, b.value) for b in Backend],
                    value=s.backend,
                    allow_blank=False,
                    id="backend",
                )
                yield Input(value=s.model, placeholder="model path or API model name", id="model")
            yield Input(value=s.base_url, placeholder="base URL (openai backend)", id="base-url")
            yield Input(
                value=s.key_env, placeholder="env variable holding the API key", id="key-env"
            )
            with Horizontal(classes="dialog--row"):
                yield Select(
                    [(b.value, b.value) for b in Backend],
                    value=s.judge_backend,
                    allow_blank=False,
                    id="judge-backend",
                )
                yield Input(
                    value=s.judge_model,
                    placeholder="judge model: path or API name (empty: no judge)",
                    id="judge",
                )
            yield Input(
                value=s.judge_base_url,
                placeholder="judge base URL (openai judge; empty: the same)",
                id="judge-url",
            )
            with Horizontal(classes="dialog--buttons"):
                yield Button("Ask now", variant="primary", id="ask")
                yield Button("Close", id="close")
            yield LoadingIndicator(id="spot-loading")
            yield Static("", id="spot-result")

    def on_mount(self) -> None:
        self.query_one("#spot-loading").display = False
        self.query_one("#model", Input).focus()

    def _read(self) -> SpotSettings:
        def text(selector: str) -> str:
            return self.query_one(selector, Input).value.strip()

        backend = self.query_one("#backend", Select).value
        return SpotSettings(
            backend=str(backend),
            model=text("#model"),
            base_url=text("#base-url"),
            key_env=text("#key-env"),
            judge_model=text("#judge"),
            judge_backend=str(self.query_one("#judge-backend", Select).value),
            judge_base_url=text("#judge-url"),
            template=self.settings.template,
        )

    @on(Button.Pressed, "#ask")
    def ask(self) -> None:
        self.settings = self._read()
        if not self.settings.model:
            self.notify("Name a model first.", severity="warning")
            return
        self.query_one("#spot-loading").display = True
        self.query_one("#spot-result", Static).update("asking…")
        self.check(self.settings)

    @work(thread=True, exclusive=True, name="spot-check", exit_on_error=False)
    def check(self, s: SpotSettings) -> SpotCheck:
        """Generate, judge and score in a thread (a local model may take a while)."""
        backend = Backend(s.backend)
        model = RunConfig(
            method=Method.GENERATE,
            backend=backend,
            model=s.model,
            dataset=self.dataset,
            template=s.template,
            max_tokens=256,
            options=options_for(
                backend, {"base_url": s.base_url or None, "api_key_env": s.key_env or None}
            ),
        )
        judge = None
        if s.judge_model:
            judge_backend = Backend(s.judge_backend)
            api = {
                "base_url": s.judge_base_url or s.base_url or None,
                "api_key_env": s.key_env or None,
            }
            judge = RunConfig(
                method=Method.JUDGE,
                backend=judge_backend,
                model=s.judge_model,
                dataset=self.dataset,
                target_model=s.model,
                options=options_for(judge_backend, api),
            )
        return self.session.check(self.item_id, model, judge)

    @on(Worker.StateChanged)
    def done(self, event: Worker.StateChanged) -> None:
        if event.worker.name != "spot-check" or event.state not in (
            WorkerState.SUCCESS,
            WorkerState.ERROR,
            WorkerState.CANCELLED,
        ):
            return
        self.query_one("#spot-loading").display = False
        result = self.query_one("#spot-result", Static)
        if event.state is WorkerState.SUCCESS:
            spot = event.worker.result
            assert spot is not None
            result.update(self._result(spot))
            self.call_after_refresh(result.scroll_visible)
        else:
            result.update(Text(f"failed: {event.worker.error}", style="bold"))

    def _result(self, spot: SpotCheck) -> RenderableType:
        parts: list[RenderableType] = [
            Text(f"{spot.model} answered:", style="bold"),
            Text(spot.response or "(no response)"),
        ]
        who, mine = self.own.line(spot.model)
        line = Text()
        line.append(who, style="dim")
        line.append(mine, style="bold")
        line.append("   judge: ", style="dim")
        line.append(_verdict(spot.judge))
        line.append("   log-prob MCQ: ", style="dim")
        line.append(_verdict(spot.mcq))
        if spot.mcq is not None and spot.mcq.scores.get("pred_norm"):
            line.append(f" (normalised: {spot.mcq.scores['pred_norm']})")
        parts.append(line)
        parts += [Text(e, style="italic") for e in spot.errors]
        return Group(*parts)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(self._read())

    def on_unmount(self) -> None:
        # Letting go of a loaded model can take seconds (freeing GBs): never on the UI thread,
        # and never holding up a quit (a daemon thread).
        threading.Thread(target=self.session.close, name="spot-release", daemon=True).start()


def _verdict(result: TaskResult | None) -> str:
    if result is None:
        return "—"
    if result.error:
        return f"error ({result.error})"
    if result.label is not None:
        return result.label.value
    return (result.status.value if result.status else "—").upper()
