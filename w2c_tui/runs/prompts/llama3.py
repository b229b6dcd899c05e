"""The two Llama-3-header families of When2Call: `when2call-llama3_2` and `-functionary`.

The strings are facts of the benchmark (When2Call, Apache-2.0; WHEN2CALL_REFERENCE.md §2.4,
§2.4b), reproduced byte for byte with their quirks: the trailing spaces of the first two
instruction lines and "function,also" (llama3_2); "If a you choose" and the tool-call
rendering that JSON-encodes every value and then wraps it in quotes again (functionary), so a
string becomes `""Kitchen""` and a number `"2"`. Neither prompt starts with
`<|begin_of_text|>`; both end with the assistant header and a blank line, which lm-eval moves
into the continuation.
"""

from __future__ import annotations

import json
from typing import Any

from w2c_tui.domain.runs import Task

HEADER_SYSTEM = "<|start_header_id|>system<|end_header_id|>\n\n"
USER_TURN = "<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n"
ASSISTANT_TURN = "<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"

LLAMA3_2_INSTRUCTIONS = (
    "You are an expert in composing functions. You are given a question and a set of possible "
    "functions. \n"
    "Based on the question, you will need to make one or more function/tool calls to achieve "
    "the purpose. \n"
    "If none of the functions can be used, point it out. If the given question lacks the "
    "parameters required by the function,also point it out. You should only return the function "
    "call in tools call sections.\n"
    "If you decide to invoke any of the function(s), you MUST put it in the format of "
    "[func_name1(params_name1=params_value1, params_name2=params_value2...), "
    "func_name2(params)]\n"
    "You SHOULD NOT include any other text in the response.\n"
    "Here is a list of functions in JSON format that you can invoke.\n"
)

FUNCTIONARY_HEAD = (
    "Environment: ipython\n\nCutting Knowledge Date: December 2023\n\n\n"
    "You have access to the following functions:\n"
)
FUNCTIONARY_INSTRUCTIONS = (
    "\nThink very carefully before calling functions.\n"
    "If a you choose to call a function ONLY reply in the following format:\n"
    "<{start_tag}={function_name}>{parameters}{end_tag}\n"
    "where\n"
    "\n"
    "start_tag => `<function`\n"
    "parameters => a JSON dict with the function argument name as key and function argument "
    "value as value.\n"
    "end_tag => `</function>`\n"
    "\n"
    "Here is an example,\n"
    '<function=example_function_name>{"example_name": "example_value"}</function>\n'
    "\n"
    "Reminder:\n"
    "- If looking for real time information use relevant functions before falling back to "
    "brave_search\n"
    "- Function calls MUST follow the specified format, start with <function= and end with "
    "</function>\n"
    "- Required parameters MUST be specified\n"
    "- Only call one function at a time\n"
    "- Put the entire function call reply on one line\n"
    "\n"
)

LLAMA3_2_PARTS = (HEADER_SYSTEM, LLAMA3_2_INSTRUCTIONS, USER_TURN, ASSISTANT_TURN)
FUNCTIONARY_PARTS = (
    HEADER_SYSTEM,
    FUNCTIONARY_HEAD,
    FUNCTIONARY_INSTRUCTIONS,
    USER_TURN,
    ASSISTANT_TURN,
)


def llama3_2_prompt(task: Task) -> str:
    """System header, the BFCL-style instructions, the tools as one ASCII-escaped JSON array
    (`json.dumps` of the parsed tools), then the user turn and the assistant header."""
    tools = json.dumps([json.loads(tool) for tool in task.tools])
    return (
        HEADER_SYSTEM + LLAMA3_2_INSTRUCTIONS + tools + USER_TURN + task.question + ASSISTANT_TURN
    )


def _value(value: Any) -> str:
    """A string in double quotes, unescaped; anything else as Python's `str()`."""
    return f'"{value}"' if isinstance(value, str) else str(value)


def llama3_2_call(text: str) -> str:
    """`[name(k1="v1", k2=2)]`: the call's arguments in order, `", "`-joined."""
    call = json.loads(text)
    arguments = call.get("arguments") or {}
    args = ", ".join(f"{key}={_value(value)}" for key, value in arguments.items())
    return f"[{call['name']}({args})]"


def functionary_prompt(task: Task) -> str:
    """Llama-3.1-style system header, "Environment: ipython", each tool as a `Use the function`
    line plus its raw JSON and a blank line, the fixed instructions, user turn, assistant."""
    listed = ""
    for tool in task.tools:
        spec = json.loads(tool)
        listed += f"Use the function '{spec['name']}' to '{spec['description']}'\n{tool}\n\n"
    return (
        HEADER_SYSTEM
        + FUNCTIONARY_HEAD
        + listed
        + FUNCTIONARY_INSTRUCTIONS
        + USER_TURN
        + task.question
        + ASSISTANT_TURN
    )


def functionary_call(text: str) -> str:
    """`<function=NAME>{"arg": "<json.dumps(value)>", …}</function>` (the double quoting is
    the official rendering's bug, kept because it defines the benchmark's choice strings);
    `parameters` stands in where the call has no `arguments`."""
    call = json.loads(text)
    arguments = call["arguments"] if "arguments" in call else call.get("parameters") or {}
    args = ", ".join(f'"{key}": "{json.dumps(value)}"' for key, value in arguments.items())
    return f"<function={call['name']}>{{{args}}}</function>"
