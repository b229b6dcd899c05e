"""User MCQ templates: a Jinja2 file renders the prompt; an optional macro renders choices.

The file's output is the prompt. Variables: `question` (str), `tools` (the raw tool JSON
strings, as in the data), `tools_parsed` (the same tools as dicts), `answers` (option name →
answer text, in option order). Filters: `tojson` writes plain JSON (`ensure_ascii=False`, no
HTML escaping; `indent` optional) and `pyrepr` writes Python's `repr`.

Choices are the raw answers unless the file defines one of these macros:

- `tool_call(text, call)` renders the `tool_call` answer (`text` is the raw JSON string,
  `call` its parsed dict, or none when it is not JSON), e.g.
  `{%- macro tool_call(text, call) -%}<tool_call>{{ text }}</tool_call>{%- endmacro %}`;
- `choice(name, text, call)` renders every answer (`name` is the option: `direct`,
  `tool_call`, …); it takes precedence over `tool_call`.

Whitespace follows the Hugging Face chat-template conventions: `trim_blocks` and
`lstrip_blocks` are on, and Jinja drops one trailing newline at the end of the file (end the
file with an empty line to keep a final newline). Remember that the scorer moves all trailing
whitespace of the prompt to the front of every choice, as lm-evaluation-harness does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jinja2

from w2c_tui.domain.runs import Task


class TemplateError(ValueError):
    """A template file that cannot be read or rendered; the message names the file."""


def _tojson(value: Any, indent: int | None = None) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
    )
    env.filters["tojson"] = _tojson
    env.filters["pyrepr"] = repr
    return env


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def load(path: Path) -> jinja2.Template:
    """The compiled template at `path`."""
    try:
        source = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TemplateError(f"cannot read template {path}: {exc.strerror or exc}") from exc
    try:
        return _environment().from_string(source)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"{path}:{exc.lineno}: template syntax error: {exc.message}") from exc


def render_file(path: Path, task: Task) -> tuple[str, list[str]]:
    """The prompt and the choices (in option order) that the file renders for `task`."""
    template = load(path)
    context = {
        "question": task.question,
        "tools": list(task.tools),
        "tools_parsed": [_parse(tool) for tool in task.tools],
        "answers": dict(task.answers),
    }
    try:
        module = template.make_module(context)
        prompt = str(module)
        choice_macro = getattr(module, "choice", None)
        tool_macro = getattr(module, "tool_call", None)
        choices: list[str] = []
        for name, text in task.answers:
            if choice_macro is not None:
                choices.append(str(choice_macro(name, text, _parse(text))))
            elif tool_macro is not None and name == "tool_call":
                choices.append(str(tool_macro(text, _parse(text))))
            else:
                choices.append(text)
    except jinja2.TemplateError as exc:
        raise TemplateError(f"{path}: cannot render item {task.uuid}: {exc}") from exc
    return prompt, choices
