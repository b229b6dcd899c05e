"""The form that starts a run: method, backend and model, template, judge prompt, data, knobs.

Every field has a caption above it, the first field has focus, Enter in any text field starts the
run (ctrl+s from anywhere), and the last values are remembered per method (config file beside the
settings; API keys are never in it, only the name of the variable that holds one)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label
from textual.widgets.select import InvalidSelectValueError

from w2c_tui.config import FormValues, load_form_memory, save_form_memory
from w2c_tui.domain.run_options import OPTIONS, options_for
from w2c_tui.domain.runs import Backend, Method, RunConfig
from w2c_tui.runs.prompts import BUILTIN_TEMPLATES
from w2c_tui.tui.screens.base import OnceModalScreen
from w2c_tui.tui.widgets.select import Select
from w2c_tui.tui.widgets.tick import Tick

TEMPLATES = list(BUILTIN_TEMPLATES)
JUDGE_PROMPT = "when2call-judge-v1"
CRITIC_PROMPT = "critictool-judge-v1"
INPUTS = ("model", "template-file", "target", "judge-prompt", "base-url", "key-env")
NUMBERS = ("concurrency", "repeats", "temperature", "limit")
SELECTS = ("backend", "template", "gold", "tools", "critic-mode")
CHECKS = ("native", "structured", "cot")
OPTION_FIELDS = {
    "base-url": "base_url",
    "key-env": "api_key_env",
    "concurrency": "concurrency",
    "native": "native_tools",
}
"""The form's fields that are options of a backend (the name in its options model): shown only
while a backend whose model has that option is chosen."""


def field(caption: str, widget: Widget, classes: str = "") -> Vertical:
    """A widget with its caption above it (a placeholder is not a label: it vanishes)."""
    return Vertical(
        Label(caption, classes="form-caption"), widget, classes=f"form-field {classes}".strip()
    )


class RunForm(OnceModalScreen[RunConfig | None]):
    """Returns the configuration to start (None: cancelled); `mlflow` is then where to log the
    run as it ends (None: not logged, "": the default tracking URI)."""

    BINDINGS = [
        Binding("escape", "cancel", "cancel"),
        Binding("ctrl+s", "start", "start run"),
    ]

    def __init__(self, datasets: list[str], dataset: str, models: list[str]) -> None:
        super().__init__()
        self.datasets = datasets
        self.dataset = dataset
        self.models = models
        self.memory = load_form_memory()
        self.mlflow: str | None = None

    def compose(self) -> ComposeResult:
        last = str(self.memory.get("_last", {}).get("method", Method.MCQ_LOGPROB.value))
        method = last if last in {m.value for m in Method} else Method.MCQ_LOGPROB.value
        with VerticalScroll(classes="dialog dialog--wide", id="run-form"):
            yield Label("Start a run (it runs in its own process)", classes="dialog--title")
            with Horizontal(classes="dialog--row"):
                yield field("method", self._select("method", [m.value for m in Method], method))
                yield field("backend", self._select("backend", [b.value for b in Backend]))
            yield field(
                "model: a local path or model id, or the API's model name (a judge's, to judge)",
                Input(compact=True, id="model"),
            )
            with Horizontal(classes="dialog--row"):
                yield field("prompt template", self._select("template", TEMPLATES))
                yield field("dataset", self._select("dataset", self.datasets, self.dataset))
            yield field(
                "template file (Jinja2; overrides the template above)",
                Input(compact=True, id="template-file"),
            )
            with Horizontal(classes="dialog--row"):
                examples = (
                    f"e.g. {', '.join(self.models[:3])}"
                    if self.models
                    else "no responses imported yet"
                )
                yield field(
                    "target model (judge runs)",
                    Input(compact=True, placeholder=examples, id="target"),
                )
                yield field(
                    "judge prompt (name or file)",
                    Input(compact=True, value=JUDGE_PROMPT, id="judge-prompt"),
                )
            with Horizontal(classes="dialog--row"):
                yield field("base URL (openai backend)", Input(compact=True, id="base-url"))
                yield field(
                    "API key variable (never stored)",
                    Input(compact=True, placeholder="e.g. OPENAI_API_KEY", id="key-env"),
                )
            with Horizontal(classes="dialog--row"):
                for name, value in zip(NUMBERS, ("8", "1", "0.0", ""), strict=True):
                    caption = "limit (items)" if name == "limit" else name
                    yield field(
                        caption, Input(compact=True, value=value, id=name), "form-field--number"
                    )
                yield field(
                    "gold label",
                    Select(
                        [(g, g) for g in ("tool_call", "request_for_info", "cannot_answer")],
                        prompt="any",
                        compact=True,
                        id="gold",
                    ),
                )
                yield field(
                    "tools",
                    Select(
                        [("0 tools", "0"), ("1 tool", "1"), ("2+ tools", "2+")],
                        prompt="any",
                        compact=True,
                        id="tools",
                    ),
                )
            with Horizontal(classes="dialog--row"):
                yield Tick(compact=True, label="tools as the API's native `tools`", id="native")
                yield Tick(
                    compact=True, label="judge: structured output", value=True, id="structured"
                )
            with Horizontal(classes="dialog--row"):
                yield field(
                    "CriticTool mode (external)",
                    self._select("critic-mode", ["skip", "finish"]),
                )
                yield Tick(compact=True, label="CriticTool: chain of thought", id="cot")
            with Horizontal(classes="dialog--row"):
                yield field(
                    "MLflow: log the run as it ends (empty: off · `on`: the default store · "
                    "or a tracking URI)",
                    Input(compact=True, placeholder="off", id="mlflow"),
                )
            with Horizontal(classes="dialog--buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Cancel", id="cancel")
            yield Label(
                "Enter in a text field or ctrl+s: start · Tab: next field · Esc: cancel",
                classes="form-hint",
            )

    @staticmethod
    def _select(name: str, values: list[str], value: str | None = None) -> Select[str]:
        return Select(
            [(v, v) for v in values],
            value=value or values[0],
            allow_blank=False,
            compact=True,
            id=name,
        )

    def on_mount(self) -> None:
        self._recall(self._choice("#method") or Method.MCQ_LOGPROB.value)
        self._show_options()
        self.query_one("#method", Select).focus()

    def _backend(self) -> Backend:
        return Backend(self._choice("#backend") or Backend.TRANSFORMERS.value)

    @on(Select.Changed, "#backend")
    def _show_options(self) -> None:
        """Show the option fields the chosen backend's options model has, hide the others."""
        names = OPTIONS[self._backend()].names()
        for widget_id, option in OPTION_FIELDS.items():
            widget = self.query_one(f"#{widget_id}")
            shown = widget if isinstance(widget, Checkbox) else widget.parent
            if isinstance(shown, Widget):
                shown.display = option in names

    @on(Select.Changed, "#method")
    def _method_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self._recall(event.value)

    def _recall(self, method: str) -> None:
        """Fill the fields with what was used last time for this method (the judge prompt
        field follows the method: a When2Call and a CriticTool judge have their own default)."""
        self._default_prompt(method)
        values = self.memory.get(method, {})
        for name, value in values.items():
            widgets = self.query(f"#{name}")
            if not widgets:
                continue
            widget = widgets.first()
            if isinstance(widget, Input) and isinstance(value, str):
                widget.value = value
            elif isinstance(widget, Checkbox):
                widget.value = bool(value)
            elif isinstance(widget, Select) and isinstance(value, str):
                try:  # a value the options no longer hold (a deleted dataset) is skipped
                    if value:
                        widget.value = value
                    else:
                        widget.clear()
                except InvalidSelectValueError:
                    pass

    def _default_prompt(self, method: str) -> None:
        prompt = self.query_one("#judge-prompt", Input)
        defaults = {Method.JUDGE.value: JUDGE_PROMPT, Method.CRITICTOOL_JUDGE.value: CRITIC_PROMPT}
        if method in defaults and prompt.value.strip() in (JUDGE_PROMPT, CRITIC_PROMPT, ""):
            prompt.value = defaults[method]

    def _values(self) -> FormValues:
        values: FormValues = {name: self._text(f"#{name}") for name in (*INPUTS, *NUMBERS)}
        for name in SELECTS:
            values[name] = self._choice(f"#{name}") or ""
        for name in CHECKS:
            values[name] = self.query_one(f"#{name}", Checkbox).value
        return values

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_start()

    def _text(self, selector: str) -> str:
        return self.query_one(selector, Input).value.strip()

    def _choice(self, selector: str) -> str | None:
        value = self.query_one(selector, Select).value
        return value if isinstance(value, str) else None

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
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
        backend = self._backend()
        options = {
            "base_url": self._text("#base-url") or None,
            "api_key_env": self._text("#key-env") or None,
            "concurrency": concurrency,
            "native_tools": self.query_one("#native", Checkbox).value,
        }
        config = RunConfig(
            method=Method(self._choice("#method") or Method.MCQ_LOGPROB.value),
            backend=backend,
            model=model,
            dataset=self._choice("#dataset") or self.dataset,
            template=self._text("#template-file") or self._choice("#template") or TEMPLATES[0],
            target_model=self._text("#target") or None,
            judge_prompt=self._text("#judge-prompt") or JUDGE_PROMPT,
            repeats=repeats,
            temperature=temperature,
            limit=limit,
            item_filter=item_filter,
            structured=self.query_one("#structured", Checkbox).value,
            critic_mode=self._choice("#critic-mode") or "skip",
            critic_cot=self.query_one("#cot", Checkbox).value,
            options=options_for(backend, options),
        )
        try:
            save_form_memory(config.method.value, self._values())
        except OSError as error:  # a convenience: never stop a run for it
            self.notify(f"Could not remember the form's values: {error}", severity="warning")
        mlflow = self._text("#mlflow")
        self.mlflow = None if mlflow.lower() in ("", "off") else ("" if mlflow == "on" else mlflow)
        self.dismiss(config)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
