"""MCQ prompt templates: the official When2Call ones, user Jinja2 files and the model's chat.

`render(template, task)` gives the prompt and the four choices in option order, as the official
`process_docs_*` functions build them (before lm-eval's whitespace handling); `template` is one
of the seven official families (`OFFICIAL_TEMPLATES`), `chat`, or a path to a Jinja2 file (see
`user`). `chat` needs the model's tokenizer. `template_hash(template)` identifies the exact
template a run used.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from w2c_tui.domain.prompts import PromptRecord
from w2c_tui.domain.runs import Task
from w2c_tui.runs.prompts.chat import ChatTemplateError, chat_prompt, chat_template_hash
from w2c_tui.runs.prompts.families import FAMILIES, family_hash
from w2c_tui.runs.prompts.official import raw_choices
from w2c_tui.runs.prompts.user import TemplateError, render_file

DEFAULT = "when2call-default"
QWEN2_5 = "when2call-qwen2_5"
CHAT = "chat"
OFFICIAL_TEMPLATES: tuple[str, ...] = tuple(FAMILIES)
"""when2call-default, -qwen2_5, -llama3_2, -xlam, -hermes, -functionary, -nemotron."""
BUILTIN_TEMPLATES: tuple[str, ...] = (*OFFICIAL_TEMPLATES, CHAT)

__all__ = [
    "BUILTIN_TEMPLATES",
    "CHAT",
    "DEFAULT",
    "OFFICIAL_TEMPLATES",
    "QWEN2_5",
    "ChatTemplateError",
    "TemplateError",
    "check_template",
    "record",
    "render",
    "scored_pairs",
    "template_hash",
]


def _template_path(template: str) -> Path:
    path = Path(template).expanduser()
    if not path.is_file():
        raise TemplateError(
            f"unknown template {template!r}: not a built-in ({', '.join(BUILTIN_TEMPLATES)}) "
            "and not a template file"
        )
    return path


def check_template(template: str) -> None:
    """Raise TemplateError unless `template` is a built-in or a readable Jinja2 file."""
    if template not in BUILTIN_TEMPLATES:
        from w2c_tui.runs.prompts.user import load

        load(_template_path(template))


def render(template: str, task: Task, tokenizer: Any | None = None) -> tuple[str, list[str]]:
    """The prompt and the choices (option order) of `task` under `template`."""
    family = FAMILIES.get(template)
    if family is not None:
        return family.prompt(task), family.choices(task)
    if template == CHAT:
        if tokenizer is None:
            raise ChatTemplateError("the chat template needs the model's tokenizer")
        return chat_prompt(tokenizer, task), raw_choices(task)
    return render_file(_template_path(template), task)


def template_hash(template: str, tokenizer: Any | None = None) -> str:
    """sha256 (first 16 hex) of the template's text: the built-in strings, the file's bytes, or
    (for `chat`) the tokenizer's chat template."""
    if template in FAMILIES:
        return family_hash(template)
    if template == CHAT:
        return chat_template_hash(tokenizer)
    return hashlib.sha256(_template_path(template).read_bytes()).hexdigest()[:16]


def scored_pairs(prompt: str, choices: list[str]) -> tuple[str, list[str]]:
    """(context, continuations): lm-eval's move of all the prompt's trailing whitespace to the
    front of every choice (the target delimiter is empty, so context + continuation is the
    prompt + the choice)."""
    context = prompt.rstrip()
    moved = prompt[len(context) :]
    return context, [moved + choice for choice in choices]


def record(template: str, task: Task, tokenizer: Any | None = None) -> PromptRecord:
    """What the model sees for `task` under `template`: prompt, choices, context, continuations."""
    prompt, choices = render(template, task, tokenizer)
    context, continuations = scored_pairs(prompt, choices)
    return PromptRecord(
        uuid=task.uuid,
        template=template,
        template_hash=template_hash(template, tokenizer),
        prompt=prompt,
        choices=tuple(choices),
        options=tuple(name for name, _ in task.answers),
        context=context,
        continuations=tuple(continuations),
    )
