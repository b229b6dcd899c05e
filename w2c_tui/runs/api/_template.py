"""Prompt text for the API methods: the default template as chat messages, MCQ prompts rendered
by `w2c_tui.runs.prompts` (the module both backends share), and lm-eval's whitespace move."""

from __future__ import annotations

from collections.abc import Sequence

from w2c_tui.domain.runs import Task
from w2c_tui.runs import prompts
from w2c_tui.runs.prompts.official import DEFAULT_SYSTEM_PROMPT, TOOL_USE_INSTRUCTIONS

DEFAULT_TEMPLATE = prompts.DEFAULT


def system_message() -> str:
    """The default template's system part: system prompt, a newline, tool-use instructions."""
    return DEFAULT_SYSTEM_PROMPT + "\n" + TOOL_USE_INSTRUCTIONS


def user_message(question: str, tools: Sequence[str]) -> str:
    """The default template's user part: the `<tool>` block, a blank line, the question
    (WHEN2CALL_REFERENCE.md §4.2; system + "\\n\\n" + user is the whole default prompt)."""
    return "\n\n".join(f"<tool>{tool}</tool>" for tool in tools) + "\n\n" + question


def check_mcq_template(template: str) -> None:
    """ValueError unless `template` can be rendered without the model's tokenizer."""
    if template == prompts.CHAT:
        raise ValueError(
            "the 'chat' template needs the model's tokenizer, which the openai backend does "
            "not have; use when2call-default, when2call-qwen2_5 or a template file"
        )
    prompts.check_template(template)


def mcq_prompt(template: str, task: Task) -> tuple[str, list[str]]:
    """The prompt and the four choices (the item's option order) under `template`."""
    return prompts.render(template, task)


def split_context(prompt: str, choice: str) -> tuple[str, str]:
    """(context, continuation) with lm-eval's move of the prompt's trailing whitespace into the
    continuation (§2.2 step 4); the target delimiter is empty, so the text is prompt + choice."""
    context, [continuation] = prompts.scored_pairs(prompt, [choice])
    return context, continuation
