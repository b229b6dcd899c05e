"""The form that starts a run: method, backend and model, template, judge prompt, data, knobs."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select

from w2c_tui.domain.runs import Backend, Method, RunConfig

TEMPLATES = ["when2call-default", "when2call-qwen2_5", "chat"]


class RunForm(ModalScreen[RunConfig | None]):
    """Returns the configuration to start (None: cancelled)."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, datasets: list[str], dataset: str, models: list[str]) -> None:
        super().__init__()
        self.datasets = datasets
        self.dataset = dataset
        self.models = models

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog dialog--wide", id="run-form"):
            yield Label("Start a run (it runs in its own process)", classes="dialog--title")
            with Horizontal(classes="dialog--row"):
                yield Select(
                    [(m.value, m.value) for m in Method],
                    value=Method.MCQ_LOGPROB.value,
                    allow_blank=False,
                    id="method",
                )
                yield Select(
                    [(b.value, b.value) for b in Backend],
                    value=Backend.TRANSFORMERS.value,
                    allow_blank=False,
                    id="backend",
                )
            yield Input(
                placeholder="model: local path / model id, or the API's model name "
                "(the judge, for judge runs)",
                id="model",
            )
            with Horizontal(classes="dialog--row"):
                yield Select(
                    [(t, t) for t in TEMPLATES],
                    value=TEMPLATES[0],
                    allow_blank=False,
                    id="template",
                )
                yield Select(
                    [(d, d) for d in self.datasets],
                    value=self.dataset,
                    allow_blank=False,
                    id="dataset",
                )
            yield Input(
                placeholder="or a template file (Jinja) — overrides the choice above",
                id="template-file",
            )
            with Horizontal(classes="dialog--row"):
                yield Input(
                    placeholder="target model: "
                    + (", ".join(self.models[:3]) or "the model whose responses a judge reads"),
                    id="target",
                )
                yield Input(
                    value="when2call-judge-v1",
                    placeholder="judge prompt name or file",
                    id="judge-prompt",
                )
            with Horizontal(classes="dialog--row"):
                yield Input(
                    placeholder="base URL (openai backend)",
                    id="base-url",
                )
                yield Input(
                    placeholder="API key variable, e.g. OPENAI_API_KEY (never stored)",
                    id="key-env",
                )
            with Horizontal(classes="dialog--row form-captions"):
                for caption in ("concurrency", "repeats", "temperature", "limit"):
                    yield Label(caption, classes="form-caption form-caption--number")
                for caption in ("gold label", "tools"):
                    yield Label(caption, classes="form-caption")
            with Horizontal(classes="dialog--row"):
                yield Input(value="8", placeholder="concurrency", id="concurrency")
                yield Input(value="1", placeholder="repeats", id="repeats")
                yield Input(value="0.0", placeholder="temperature", id="temperature")
                yield Input(placeholder="limit (items)", id="limit")
                yield Select(
                    [(g, g) for g in ("tool_call", "request_for_info", "cannot_answer")],
                    prompt="gold: any",
                    id="gold",
                )
                yield Select(
                    [("0 tools", "0"), ("1 tool", "1"), ("2+ tools", "2+")],
                    prompt="tools: any",
                    id="tools",
                )
            with Horizontal(classes="dialog--row"):
                yield Checkbox("tools as the API's native `tools`", id="native")
                yield Checkbox("judge: structured output", value=True, id="structured")
            with Horizontal(classes="dialog--buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Cancel", id="cancel")

    def _text(self, selector: str) -> str:
        return self.query_one(selector, Input).value.strip()

    def _choice(self, selector: str) -> str | None:
        value = self.query_one(selector, Select).value
        return value if isinstance(value, str) else None

    @on(Button.Pressed, "#start")
    def start(self) -> None:
        model = self._text("#model")
        if not model:
            self.notify("A model is needed.", severity="warning")
            return
        try:
            concurrency = int(self._text("#concurrency") or 8)
            repeats = int(self._text("#repeats") or 1)
            temperature = float(self._text("#temperature") or 0)
            limit = int(self._text("#limit")) if self._text("#limit") else None
        except ValueError:
            self.notify(
                "Concurrency, repeats and limit are whole numbers; temperature a number.",
                severity="warning",
            )
            return
        item_filter = {k: v for k in ("gold", "tools") if (v := self._choice(f"#{k}"))}
        config = RunConfig(
            method=Method(self._choice("#method") or Method.MCQ_LOGPROB.value),
            backend=Backend(self._choice("#backend") or Backend.TRANSFORMERS.value),
            model=model,
            dataset=self._choice("#dataset") or self.dataset,
            template=self._text("#template-file") or self._choice("#template") or TEMPLATES[0],
            target_model=self._text("#target") or None,
            judge_prompt=self._text("#judge-prompt") or "when2call-judge-v1",
            base_url=self._text("#base-url") or None,
            api_key_env=self._text("#key-env") or None,
            concurrency=concurrency,
            repeats=repeats,
            temperature=temperature,
            limit=limit,
            item_filter=item_filter,
            native_tools=self.query_one("#native", Checkbox).value,
            structured=self.query_one("#structured", Checkbox).value,
        )
        self.dismiss(config)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
