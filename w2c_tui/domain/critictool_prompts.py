"""The evaluation instructions CriticTool inserts into the system prompt (the benchmark's text).

The six strings are the benchmark's prompts, reproduced exactly (tests check their sha256):
the internal-error ("llm") instruction and the external-error "skip" and "finish" instructions,
each without and with chain of thought. They are inserted right before ANCHOR.
"""

from __future__ import annotations

from w2c_tui.domain.critictool import ExternalMode

ANCHOR = "Remember: only generate ONE step each time"
"""The phrase of the dataset's system prompt before which the instruction goes."""

TOOLS_END = "\nTo use a tool"
"""The text that ends the tool list in the system prompt (the list starts at the first `[`)."""

_LLM_PROMPT = (
    "If you realize that an error occurred in the last step, then please analyse the "
    "error in the last step and regenerate the step to ensure that you get the correct "
    "response. Indicate the error type and select one of the following categories: "
    "tool_select_error(an exists but incorrect tool was chosen), "
    "tool_hallucination_error(a nonexistent tool was selected), "
    "parameters_value_error(the input parameter format or content is incorrect), "
    "parameters_key_error(incoming parameter keys are unrecognizable or required "
    "parameters are missing). And please using the following format to reply ```\n"
    "{\n"
    "    //description about the type of error in the last step(tool_select_error, "
    "tool_hallucination_error, parameters_value_error, parameters_key_error)\n"
    '     "error": string;\n'
    "    // tool name to call\n"
    '    "name": string;\n'
    "    // input params required by current tool in JSON format\n"
    '    "args": Record<string, any>;\n'
    "}\n"
    "```\n"
)
_LLM_COT_PROMPT = (
    "If you realize that an error occurred in the last step, then please analyse the "
    "error in the last step and regenerate the step to ensure that you get the correct "
    "response. Indicate the error type and select one of the following categories: "
    "tool_select_error(an exists but incorrect tool was chosen), "
    "tool_hallucination_error(a nonexistent tool was selected), "
    "parameters_value_error(the input parameter format or content is incorrect), "
    "parameters_key_error(incoming parameter keys are unrecognizable or required "
    "parameters are missing). And please using the following format to reply ```\n"
    "{\n"
    "    //description about the type of error in the last step(tool_select_error, "
    "tool_hallucination_error, parameters_value_error, parameters_key_error)\n"
    '     "error": string;\n'
    "      // goal at current step\n"
    '    "thought": string;\n'
    "     // tool name to call\n"
    '    "name": string;\n'
    "    // input params required by current tool in JSON format\n"
    '    "args": Record<string, any>;\n'
    "}\n"
    "```\n"
)
_ENV_SKIP_PROMPT = (
    "If you meet environment error from tool call, please retry to call it NO MORE THAN "
    "THREE TIMES, and if it still fails, you should skip the current step and perform "
    "the next task. Please using the following format to reply ```\n"
    "{\n"
    "    // tool name to call\n"
    '    "name": string;\n'
    "    // input params required by current tool in JSON format\n"
    '    "args": Record<string, any>;\n'
    "}\n"
    "```\n"
    "If you already know the answer, or you do not need to use tools,\n"
    "please using the following format to reply:\n"
    "```\n"
    "{\n"
    '    "name": "FinishAction";\n'
    "    // your final response to the query\n"
    '    "args": string;\n'
    "}\n"
    "```\n"
)
_ENV_SKIP_COT_PROMPT = (
    "If you meet environment error from tool call, please retry to call it NO MORE THAN "
    "THREE TIMES, and if it still fails, you should skip the current step and perform "
    "the next task. Please using the following format to reply ```\n"
    "{\n"
    "    // goal at current step\n"
    '    "thought": string;\n'
    "     // tool name to call\n"
    '    "name": string;\n'
    "    // input params required by current tool in JSON format\n"
    '    "args": Record<string, any>;\n'
    "}\n"
    "```\n"
    "If you already know the answer, or you do not need to use tools,\n"
    "please using the following format to reply:\n"
    "```\n"
    "{\n"
    "    // explain why the task is accomplished/unaccomplished\n"
    '    "thought": string;\n'
    '    "name": "FinishAction";\n'
    "    // your final response to the query\n"
    '    "args": string;\n'
    "}\n"
    "```\n"
)
_ENV_FINISH_PROMPT = (
    "If you meet environment error from tool call, please retry to call it NO MORE THAN "
    "THREE TIMES, and if it still fails, you should report the error to the user and ask "
    "the user for next action. Please using the following format to reply ```\n"
    "{\n"
    '    "name": "FinishAction";\n'
    "    // your response\n"
    '    "args": string;\n'
    "}\n"
    "```\n"
)
_ENV_FINISH_COT_PROMPT = (
    "If you meet environment error from tool call, please retry to call it NO MORE THAN "
    "THREE TIMES, and if it still fails, you should report the error to the user and ask "
    "the user for next action. Please using the following format to reply ```\n"
    "{\n"
    "    // explain why the task is accomplished/unaccomplished\n"
    '    "thought": string;\n'
    '    "name": "FinishAction";\n'
    "    // your response\n"
    '    "args": string;\n'
    "}\n"
    "```\n"
)

INSTRUCTIONS: dict[str, str] = {
    "llm": _LLM_PROMPT,
    "llm_cot": _LLM_COT_PROMPT,
    "skip": _ENV_SKIP_PROMPT,
    "skip_cot": _ENV_SKIP_COT_PROMPT,
    "finish": _ENV_FINISH_PROMPT,
    "finish_cot": _ENV_FINISH_COT_PROMPT,
}
"""Each instruction by name: `llm`, `skip`, `finish`, and the same with `_cot`."""


def instruction_name(mode: ExternalMode | None, cot: bool) -> str:
    """The instruction for internal samples (mode None) or an external mode, CoT or not."""
    base = "llm" if mode is None else mode
    return f"{base}_cot" if cot else base


def finish_message(tool_name: str) -> str:
    """The reply the finish mode compares a model's thought and answer with.

    The missing space after "call" is the reference's; it is part of the metric's text.
    """
    return (
        f"I encountered an issue while trying to call{tool_name}, "
        "please let me know how you would like to proceed."
    )
