"""Three more When2Call families: `when2call-xlam`, `-hermes` and `-nemotron`.

Facts of the benchmark (When2Call, Apache-2.0; WHEN2CALL_REFERENCE.md §2.4, §2.4b), byte for
byte with their quirks: xlam's instruction lines keep the 4-space indent of the official
triple-quoted strings and its tools are the Python `repr` of the list of raw JSON strings;
hermes joins the tools with one space inside `<tools> … </tools>` and has no assistant header
after the user turn (the choices follow `<|im_end|>` directly); nemotron leaves out the tool-use
instructions of the default prompt (the official function exists, no task YAML uses it).
"""

from __future__ import annotations

from w2c_tui.domain.runs import Task
from w2c_tui.runs.prompts.official import DEFAULT_SYSTEM_PROMPT

XLAM_TASK = (
    "[BEGIN OF TASK INSTRUCTION]\n"
    "You are an expert in composing functions. You are given a question and a set of possible "
    "functions. \n"
    "    Based on the question, you will need to make one or more function/tool calls to "
    "achieve the purpose. \n"
    "    If none of the functions can be used, point it out and refuse to answer. \n"
    "    If the given question lacks the parameters required by the function, also point it "
    "out.\n"
    "[END OF TASK INSTRUCTION]\n\n"
    "[BEGIN OF AVAILABLE TOOLS]\n"
)
XLAM_FORMAT = (
    "\n[END OF AVAILABLE TOOLS]\n\n"
    "[BEGIN OF FORMAT INSTRUCTION]\n"
    "The output MUST strictly adhere to the following JSON format, and NO other text MUST be "
    "included.\n"
    "    The example format is as follows. Please make sure the parameter type is correct. If no "
    "function call is needed, please make tool_calls an empty list '[]'.\n"
    "    ```\n"
    "    {\n"
    '        "tool_calls": [\n'
    '        {"name": "func_name1", "arguments": {"argument1": "value1", "argument2": '
    '"value2"}},\n'
    "        ... (more tool calls as required)\n"
    "        ]\n"
    "    }\n"
    "    ```\n"
    "[END OF FORMAT INSTRUCTION]\n\n"
    "[BEGIN OF QUERY]\n"
)
XLAM_END = "\n[END OF QUERY]\n\n"

HERMES_HEAD = (
    "<|im_start|>system\n"
    "You are a function calling AI model. You are provided with function signatures within "
    "<tools></tools> XML tags. You may call one or more functions to assist with the user "
    "query. Don't make assumptions about what values to plug into functions. Here are the "
    "available tools: <tools> "
)
HERMES_TAIL = (
    " </tools> Use the following pydantic model json schema for each tool call you will make: "
    '{"properties": {"arguments": {"title": "Arguments", "type": "object"}, "name": {"title": '
    '"Name", "type": "string"}}, "required": ["arguments", "name"], "title": "FunctionCall", '
    '"type": "object"} For each function call return a json object with function name and '
    "arguments within <tool_call></tool_call> XML tags as follows:\n"
    "<tool_call>\n"
    '{"arguments": <args-dict>, "name": <function-name>}\n'
    "</tool_call><|im_end|><|im_start|>user\n"
)
HERMES_END = "<|im_end|>"

NEMOTRON_SYSTEM = "<extra_id_0>System\n"
NEMOTRON_USER = "<extra_id_1>User\n"
NEMOTRON_END = "\n<extra_id_1>Assistant\n"

XLAM_PARTS = (XLAM_TASK, XLAM_FORMAT, XLAM_END)
HERMES_PARTS = (HERMES_HEAD, HERMES_TAIL, HERMES_END)
NEMOTRON_PARTS = (NEMOTRON_SYSTEM, DEFAULT_SYSTEM_PROMPT, NEMOTRON_USER, NEMOTRON_END)


def xlam_prompt(task: Task) -> str:
    """Four bracketed sections; the tools as `repr(list_of_raw_json_strings)`."""
    return XLAM_TASK + repr(list(task.tools)) + XLAM_FORMAT + task.question + XLAM_END


def xlam_call(text: str) -> str:
    """The raw call inside a tab-indented `{"tool_calls": [...]}` wrapper."""
    return '{\n\t"tool_calls": [\n\t' + text + "\n\t]\n}"


def hermes_prompt(task: Task) -> str:
    """Hermes function-calling system turn, the user turn, and no assistant header."""
    return HERMES_HEAD + " ".join(task.tools) + HERMES_TAIL + task.question + HERMES_END


def hermes_call(text: str) -> str:
    """`<tool_call>` + the raw call + a newline + `</tool_call>`."""
    return "<tool_call>" + text + "\n</tool_call>"


def nemotron_prompt(task: Task) -> str:
    """The default system prompt (without the tool-use instructions) in Nemotron's markup."""
    tool_block = "\n\n".join(f"<tool>{tool}</tool>" for tool in task.tools)
    return (
        NEMOTRON_SYSTEM
        + DEFAULT_SYSTEM_PROMPT
        + "\n\n"
        + tool_block
        + "\n\n"
        + NEMOTRON_USER
        + task.question
        + NEMOTRON_END
    )


def nemotron_call(text: str) -> str:
    """`<toolcall> ` + the raw call + ` </toolcall>`."""
    return "<toolcall> " + text + " </toolcall>"
