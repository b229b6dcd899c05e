"""The CriticTool judge's prompt: which questions a unit asks, and the prompt text for it.

A unit is a sample (its trajectory) and, when a model's prediction is judged, that prediction's
replies. The packaged prompt is `judge_prompts/critictool-judge-v1.txt` (our own wording). A
user prompt file takes the placeholders `{tools}` (one `name(req: TYPE, …, [opt: TYPE])` line
per tool), `{trajectory}` (the dataset's turns without the system prompt, the step under review
marked), `{prediction}` (the judged replies, or nothing), `{questions}` (the questions of this
unit, each with its key and values) and `{answer_format}` (the JSON object to return); the last
two are required. Nothing here shows the gold step, the injected error type or the model's name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from w2c_tui.domain.critictool import Sample
from w2c_tui.domain.critictool_labels import BLIND_QUESTIONS, Question, options
from w2c_tui.domain.runs import Method, RunConfig, Task
from w2c_tui.runs.judge import DEFAULT_JUDGE_PROMPT, JudgePrompt, load_judge_prompt

DEFAULT_CRITIC_JUDGE_PROMPT = "critictool-judge-v1"
PLACEHOLDERS = ("tools", "trajectory", "prediction", "questions", "answer_format")
REQUIRED = ("questions", "answer_format")
ROLE_NAMES = {"user": "user", "assistant": "agent", "function": "tool", "tool": "tool"}
_PLACEHOLDER = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")

ASKED: dict[Question, str] = {
    Question.ERROR: "Is there an error in the step under review (the agent's last call, or "
    "the tool's response to it)?",
    Question.CATEGORY: "Which error is it? tool_select_error: a tool that exists but is the "
    "wrong one for the goal; tool_hallucination_error: a tool that is not in the list; "
    "parameters_key_error: a required parameter missing, or a parameter name that the tool "
    "does not have; parameters_value_error: a wrong parameter value; environment_error: the "
    "tool failed (timeout, rate limit, server error, …); none: there is no error.",
    Question.EXPECTED_POLICY: "After the tool failed, what should the agent do next? retry: "
    "call it again; skip: go on without it (another call); finish: stop and give the final "
    "answer.",
    Question.CRITIQUE: "The agent was asked to check its last step and say whether it holds an "
    "error and which. Is the agent's critique in its output right (it reports the error there "
    "is and names it correctly, or rightly reports none)?",
    Question.TOOL: "Is the tool of the agent's next call (its corrected call) the right one?",
    Question.ARGS: "Are the arguments of the agent's next call right?",
    Question.OBSERVED_POLICY: "Which policy did the agent follow in its last output? retry: it "
    "repeated the failed call; skip: it made another call; finish: it stopped with a final "
    "answer (FinishAction).",
}
"""The question put to the judge for each label field."""


def run_prompt(config: RunConfig) -> JudgePrompt:
    """The prompt of a judge run: the When2Call judge's, or a CriticTool judge's (the packaged
    CriticTool prompt unless the run names another: the When2Call default does not apply)."""
    if config.method is not Method.CRITICTOOL_JUDGE:
        return load_judge_prompt(config.judge_prompt)
    if config.judge_prompt == DEFAULT_JUDGE_PROMPT:
        return load_critictool_judge_prompt(DEFAULT_CRITIC_JUDGE_PROMPT)
    return load_critictool_judge_prompt(config.judge_prompt)


def load_critictool_judge_prompt(name_or_path: str) -> JudgePrompt:
    """A packaged prompt by name or a prompt file by path (RunStartError: neither, or a file
    without `{questions}` or `{answer_format}`)."""
    return load_judge_prompt(
        name_or_path,
        required=REQUIRED,
        placeholders=", ".join("{" + p + "}" for p in PLACEHOLDERS),
    )


def questions_for(sample: Sample, judged: bool) -> tuple[Question, ...]:
    """The questions of one unit, in the label form's order: the blind ones (the expected
    policy for external samples only) and, when a prediction is judged, those about it."""
    external = sample.source == "external"
    blind = tuple(q for q in BLIND_QUESTIONS if external or q is not Question.EXPECTED_POLICY)
    if not judged:
        return blind
    about = (Question.CRITIQUE, Question.TOOL, Question.ARGS)
    return blind + about + ((Question.OBSERVED_POLICY,) if external else ())


def task_questions(task: Task) -> tuple[Question, ...]:
    """The questions of a task's unit."""
    assert task.critic is not None, "a CriticTool judge task carries its sample"
    return questions_for(task.critic, bool(task.critictool_rounds))


def render_tools(sample: Sample) -> str:
    """One line per tool: `name(req: TYPE, …, [opt: TYPE], …)`."""
    lines = [tool.name + tool.parameter_list for tool in sample.tools]
    return "\n".join(lines) if lines else "(no tools)"


def render_turns(sample: Sample) -> str:
    """The dataset's turns after the system prompt, one block each, the step under review
    between markers."""
    start, end = sample.review_span()
    blocks = []
    for index in range(1, end):
        turn = sample.turns[index]
        if index == start:
            blocks.append(">>> STEP UNDER REVIEW")
        blocks.append(f"[{ROLE_NAMES.get(turn.role, turn.role)}] {turn.content}")
    blocks.append("<<< END OF THE STEP UNDER REVIEW")
    return "\n\n".join(blocks)


def render_prediction(rounds: Sequence[str]) -> str:
    """The judged replies (an empty string when none is judged)."""
    if not rounds:
        return ""
    lines = [
        "<AGENT_OUTPUT>",
        "After the step under review the agent was asked to check that step (is there an "
        "error, which) and to give its next action. Its output:",
    ]
    for index, raw in enumerate(rounds):
        if len(rounds) > 1:
            lines.append(f"--- output {index + 1} of {len(rounds)} ---")
        lines.append(raw)
        if index + 1 < len(rounds):
            lines.append("(the agent repeated the failed call; the tool failed again the same way)")
    lines.append("</AGENT_OUTPUT>")
    return "\n".join(lines)


def render_questions(questions: Sequence[Question]) -> str:
    """Each question with its key and its values."""
    return "\n".join(
        f"- {q.value} ({' | '.join(v for v, _ in options(q))}): {ASKED[q]}" for q in questions
    )


def answer_format(questions: Sequence[Question]) -> str:
    """The JSON object the judge returns, each value a placeholder listing the choices."""
    fields = ", ".join(
        f'"{q.value}": "<{" or ".join(v for v, _ in options(q))}>"' for q in questions
    )
    return "{" + fields + "}"


def render_prompt(prompt: JudgePrompt, task: Task) -> str:
    """The prompt with its placeholders filled in one pass (values are never re-scanned)."""
    sample = task.critic
    assert sample is not None
    questions = task_questions(task)
    values = {
        "tools": render_tools(sample),
        "trajectory": render_turns(sample),
        "prediction": render_prediction(task.critictool_rounds),
        "questions": render_questions(questions),
        "answer_format": answer_format(questions),
    }
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], prompt.text)


def judge_messages(prompt: JudgePrompt, task: Task) -> list[dict[str, Any]]:
    """The first turn: the prompt filled in for the task's unit."""
    return [{"role": "user", "content": render_prompt(prompt, task)}]
