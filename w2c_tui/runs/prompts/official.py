"""The two official When2Call templates given verbatim in the reference (`-default`, `-qwen2_5`).

The strings are facts of the benchmark (When2Call, Apache-2.0; WHEN2CALL_REFERENCE.md §2.4a),
including the space before the first newline of the system prompt. Both templates keep the four
answers as they are (the tool-call answer stays the raw JSON string). The five other families
are in `llama3.py` and `tagged.py`; `families.py` lists all seven.
"""

from __future__ import annotations

from w2c_tui.domain.runs import Task

DEFAULT_SYSTEM_PROMPT = (
    "You are a helpful AI assistant. \n"
    "You have access to the following tools described in <tool></tool> which you can use to "
    "answer the user's questions.\n"
    "Only use a tool if it directly answers the user's question.\n"
)
TOOL_USE_INSTRUCTIONS = (
    "To use a tool, return JSON in the following format:\n"
    '{"name": "tool_name", "arguments": {"argument1": "value1", "argument2": "value2", ...}}\n'
)

QWEN2_5_HEAD = (
    "<|im_start|>system\n"
    "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.\n"
    "\n"
    "# Tools\n"
    "\n"
    "You may call one or more functions to assist with the user query.\n"
    "\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n"
    "<tools>\n"
)
QWEN2_5_TAIL = (
    "\n</tools>\n"
    "\n"
    "For each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\n"
    "<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n'
    "</tool_call><|im_end|>\n"
    "<|im_start|>user\n"
)
QWEN2_5_END = "<|im_end|>\n<|im_start|>assistant\n"


def default_prompt(task: Task) -> str:
    """The `when2call` (default) prompt: system text, tool block, then the bare question."""
    tool_block = "\n\n".join(f"<tool>{tool}</tool>" for tool in task.tools)
    return (
        DEFAULT_SYSTEM_PROMPT
        + "\n"
        + TOOL_USE_INSTRUCTIONS
        + "\n\n"
        + tool_block
        + "\n\n"
        + task.question
    )


def qwen2_5_prompt(task: Task) -> str:
    """The `when2call-qwen2_5` prompt: Qwen 2.5 chat markup with the "# Tools" system block."""
    tools_str = "\n".join(task.tools).strip()
    return QWEN2_5_HEAD + tools_str + QWEN2_5_TAIL + task.question + QWEN2_5_END


def raw_choices(task: Task) -> list[str]:
    """The four answers, unchanged, in the item's option order."""
    return [text for _, text in task.answers]
