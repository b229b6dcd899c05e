"""Official-format LLM-judge output lines for the demo models' replies."""

import json
from typing import Any

from demo_responses import Reply

# A paraphrase of the structure of the official judge prompt, filled with str.format like the
# original: the tools placeholder receives the Python repr of the parsed tool dicts.
JUDGE_PROMPT = "\n".join(
    [
        "You are an expert at classifying the replies of AI models.",
        "An AI model received a user question and possibly a list of tools it could call. "
        "Put its reply into exactly one of these categories:",
        "1. direct_answer: the model answered from its own knowledge, without asking for more "
        "information and without using a tool.",
        "2. tool_call: the model chose to call one of the tools it was given.",
        "3. request_for_info: the model asked the user for more information.",
        "4. cannot_answer: the model declined, saying it lacks the ability or the tools to answer.",
        "IMPORTANT: do not judge whether the reply is correct or helpful; only decide which "
        "category it belongs to.",
        "The tools the model could use are inside <AVAILABLE_TOOLS>, the user's question inside "
        "<USER_QUESTION> and the model's reply inside <AI_MODEL_RESPONSE>.",
        "<AVAILABLE_TOOLS>",
        "{}",
        "</AVAILABLE_TOOLS>",
        "<USER_QUESTION>",
        "{}",
        "</USER_QUESTION>",
        "<AI_MODEL_RESPONSE>",
        "{}",
        "</AI_MODEL_RESPONSE>",
        'Reply with {{"classification": "<direct_answer, tool_call, request_for_info or '
        'cannot_answer>"}}.',
        "Respond only in the prescribed json format.",
    ]
)


def model_response(reply: Reply) -> str:
    """The reply as the official inference script stores it.

    A native tool call becomes json.dumps of its name and arguments, with dots in the name turned
    into underscores (the script renames tools that way before sending them); text is stripped.
    """
    if reply.call is None:
        return reply.text.strip()
    name, arguments = reply.call
    return json.dumps({"name": name.replace(".", "_"), "arguments": arguments})


def parsed_item(record: dict[str, Any]) -> dict[str, Any]:
    """The item with `tools` and `target_tool` parsed into objects, other fields untouched."""
    item = dict(record)
    item["tools"] = [json.loads(tool) for tool in record["tools"]]
    item["target_tool"] = (
        None if record["target_tool"] is None else json.loads(record["target_tool"])
    )
    return item


def judge_line(record: dict[str, Any], reply: Reply) -> dict[str, Any]:
    """One line of the official judge output file."""
    item = parsed_item(record)
    response = model_response(reply)
    prompt = JUDGE_PROMPT.format(item["tools"], record["question"], response)
    return {
        "judge_prompt": prompt,
        "judge_response": {"classification": reply.judge or reply.said},
        "model_response": response,
        "question": item,
    }
