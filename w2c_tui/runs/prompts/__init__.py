"""MCQ prompt templates: the official When2Call ones, user Jinja2 files and the model's chat.

`render(template, task)` gives the prompt and the four choices in option order; `template` is
a built-in name (`BUILTIN_TEMPLATES`) or a path to a Jinja2 file (see `user`). `chat` needs the
model's tokenizer. `template_hash(template)` identifies the exact template a run used.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from w2c_tui.domain.runs import Task
from w2c_tui.runs.prompts.chat import ChatTemplateError, chat_prompt, chat_template_hash
from w2c_tui.runs.prompts.official import (
    default_prompt,
    official_hash,
    qwen2_5_prompt,
    raw_choices,
)
from w2c_tui.runs.prompts.user import TemplateError, render_file

DEFAULT = "when2call-default"
QWEN2_5 = "when2call-qwen2_5"
CHAT = "chat"
BUILTIN_TEMPLATES: tuple[str, ...] = (DEFAULT, QWEN2_5, CHAT)

__all__ = [
    "BUILTIN_TEMPLATES",
    "CHAT",
    "DEFAULT",
    "QWEN2_5",
    "ChatTemplateError",
    "TemplateError",
    "check_template",
    "render",
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
    if template == DEFAULT:
        return default_prompt(task), raw_choices(task)
    if template == QWEN2_5:
        return qwen2_5_prompt(task), raw_choices(task)
    if template == CHAT:
        if tokenizer is None:
            raise ChatTemplateError("the chat template needs the model's tokenizer")
        return chat_prompt(tokenizer, task), raw_choices(task)
    return render_file(_template_path(template), task)


def template_hash(template: str, tokenizer: Any | None = None) -> str:
    """sha256 (first 16 hex) of the template's text: the built-in strings, the file's bytes, or
    (for `chat`) the tokenizer's chat template."""
    if template in (DEFAULT, QWEN2_5):
        return official_hash(template)
    if template == CHAT:
        return chat_template_hash(tokenizer)
    return hashlib.sha256(_template_path(template).read_bytes()).hexdigest()[:16]
