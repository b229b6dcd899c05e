"""The `chat` template: the model's own chat template with the question and the parsed tools."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from w2c_tui.domain.runs import Task

NO_CHAT_TEMPLATE = (
    "judge, mcq_index, critictool and critictool_judge need a chat model (an instruct model "
    "with a chat template)"
)
"""What a tokenizer without a chat template is told it lacks (the methods that need one)."""


class ChatTemplateError(ValueError):
    """The tokenizer has no chat template, or it failed on an item."""


def chat_prompt(tokenizer: Any, task: Task, with_tools: bool = True) -> str:
    """`apply_chat_template([user question], tools=parsed tools, add_generation_prompt=True)`."""
    tools = [json.loads(tool) for tool in task.tools] if with_tools and task.tools else None
    return render_chat(tokenizer, [{"role": "user", "content": task.question}], task.uuid, tools)


def render_chat(
    tokenizer: Any,
    messages: Sequence[dict[str, Any]],
    uuid: str,
    tools: list[Any] | None = None,
    *,
    advice: str = "use a --template (e.g. when2call-default)",
) -> str:
    """The conversation through the tokenizer's chat template, ready for the assistant's turn;
    ChatTemplateError (naming the item) when there is no template or it fails."""
    if not getattr(tokenizer, "chat_template", None):
        raise ChatTemplateError(f"the tokenizer has no chat template; {advice}")
    try:
        text = tokenizer.apply_chat_template(
            list(messages), tools=tools, add_generation_prompt=True, tokenize=False
        )
    except Exception as exc:  # jinja errors, raise_exception() in templates, bad tool specs
        raise ChatTemplateError(f"the chat template failed on item {uuid}: {exc}") from exc
    return str(text)


def tools_in_prompt(tokenizer: Any, task: Task, prompt: str) -> bool:
    """Whether the tools changed the rendered prompt (a template may ignore `tools`)."""
    return bool(task.tools) and chat_prompt(tokenizer, task, with_tools=False) != prompt


def chat_template_hash(tokenizer: Any | None) -> str:
    """sha256 (first 16 hex) of the tokenizer's chat template ("chat" alone without one)."""
    template = getattr(tokenizer, "chat_template", None) if tokenizer is not None else None
    text = "chat\x00" + (template if isinstance(template, str) else json.dumps(template))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
