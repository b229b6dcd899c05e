"""The CriticTool LLM judge: a judge model answers the label questions a human answers.

A unit is a sample (its trajectory) and, when a model's prediction is judged (`--target-model`),
that prediction's replies. The judge is asked exactly the questions the label form asks on
that unit (`domain/critictool_labels.py`): error in the step under review (yes/no), which
error (the six categories), the expected policy after an environment failure (external
samples); with a prediction, whether its critique, its corrected call's tool and args are right,
and which policy it followed (external). Its answers become `critic_label` rows of the judge's
rater, so they meet the humans and the model's self-critique in the agreement engine.

Like a blind annotator, the judge never sees the gold next step, the injected error type or the
model's name: the detect and category answers rest on the trajectory alone, the answers about
the prediction on the trajectory and the replies.

The packaged prompt is `judge_prompts/critictool-judge-v1.txt` (our own wording). A user prompt
file takes the placeholders `{tools}` (one `name(req: TYPE, …, [opt: TYPE])` line per tool),
`{trajectory}` (the dataset's turns without the system prompt, the step under review marked),
`{prediction}` (the judged replies, or nothing), `{questions}` (the questions of this unit,
each with its key and values) and `{answer_format}` (the JSON object to return); the last two
are required. Replies are read as strictly as the When2Call judge's (`runs/judge.py`): one JSON
object (a single fenced block is unwrapped and recorded), every asked key present with one of
its values (`yes`/`no` may also be JSON booleans; strings are compared trimmed and
lower-cased), and no contradiction between `error` and `category` (`no` goes with `none` only).
An unreadable reply gets one repair turn; still unreadable, the task ends in an error that
quotes the reply (no label is written; `w2c run resume --retry-errors` asks again).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from w2c_tui.domain.critictool import Sample
from w2c_tui.domain.critictool_labels import (
    BLIND_QUESTIONS,
    CriticLabel,
    ErrorCategory,
    Question,
    options,
)
from w2c_tui.domain.runs import RunConfig, Task, TaskResult
from w2c_tui.runs.judge import (
    DEFAULT_JUDGE_PROMPT,
    RAW_TURN_SEPARATOR,
    JudgePrompt,
    load_judge_prompt,
    unfence,
)

DEFAULT_CRITIC_JUDGE_PROMPT = "critictool-judge-v1"
PLACEHOLDERS = ("tools", "trajectory", "prediction", "questions", "answer_format")
REQUIRED = ("questions", "answer_format")
REPAIR_REQUEST = (
    "Your reply could not be read ({problem}). Reply again with the JSON object in the "
    "prescribed format and nothing else:\n{answer_format}"
)
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


@dataclass(frozen=True)
class CriticJudgeReading:
    """What one reply says: the answers, or why they could not be read."""

    label: CriticLabel | None
    fenced: bool = False
    problem: str | None = None


def prompt_name(config: RunConfig) -> str:
    """The prompt a CriticTool judge run uses: the packaged CriticTool prompt unless the run
    names another (the When2Call default does not apply here)."""
    if config.judge_prompt == DEFAULT_JUDGE_PROMPT:
        return DEFAULT_CRITIC_JUDGE_PROMPT
    return config.judge_prompt


def load_critic_judge_prompt(name_or_path: str) -> JudgePrompt:
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
    return questions_for(task.critic, bool(task.critic_rounds))


def render_tools(sample: Sample) -> str:
    """One line per tool: `name(req: TYPE, …, [opt: TYPE], …)`."""
    lines = []
    for tool in sample.tools:
        parts = [f"{p.name}: {p.type}" for p in tool.required]
        parts += [f"[{p.name}: {p.type}]" for p in tool.optional]
        lines.append(f"{tool.name}({', '.join(parts)})")
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


def render_prediction(sample: Sample, rounds: Sequence[str]) -> str:
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
        "prediction": render_prediction(sample, task.critic_rounds),
        "questions": render_questions(questions),
        "answer_format": answer_format(questions),
    }
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], prompt.text)


def _value(question: Question, raw: Any) -> str | None:
    """The option value a reply gives for `question`, or None when it is not one."""
    allowed = [v for v, _ in options(question)]
    if isinstance(raw, bool) and allowed == ["yes", "no"]:
        return "yes" if raw else "no"
    if isinstance(raw, str) and raw.strip().lower() in allowed:
        return raw.strip().lower()
    return None


def parse_reply(text: str, questions: Sequence[Question]) -> CriticJudgeReading:
    """Read a reply strictly (see the module docstring); never guesses from prose."""
    body, fenced = unfence(text)
    try:
        value = json.loads(body)
    except ValueError:
        return CriticJudgeReading(None, fenced, "not valid JSON")
    if not isinstance(value, dict):
        return CriticJudgeReading(None, fenced, "not a JSON object")
    answers: dict[Question, str] = {}
    for question in questions:
        if question.value not in value:
            return CriticJudgeReading(None, fenced, f"no {question.value!r}")
        answer = _value(question, value[question.value])
        if answer is None:
            allowed = ", ".join(v for v, _ in options(question))
            got = json.dumps(value[question.value], ensure_ascii=False)[:60]
            return CriticJudgeReading(
                None, fenced, f"{question.value!r} must be one of {allowed}, not {got}"
            )
        answers[question] = answer
    error = answers.get(Question.ERROR)
    category = answers.get(Question.CATEGORY)
    none = ErrorCategory.NONE.value
    if error is not None and category is not None and (error == "no") != (category == none):
        return CriticJudgeReading(
            None, fenced, f"'error' is {error!r} but 'category' is {category!r}"
        )
    label = CriticLabel()
    for question, answer in answers.items():
        label = label.answer(question, answer)
    return CriticJudgeReading(label, fenced)


def response_format(questions: Sequence[Question]) -> dict[str, Any]:
    """The structured-output request: one enum-valued string per asked key."""
    schema = {
        "type": "object",
        "properties": {
            q.value: {"type": "string", "enum": [v for v, _ in options(q)]} for q in questions
        },
        "required": [q.value for q in questions],
        "additionalProperties": False,
    }
    return {
        "type": "json_schema",
        "json_schema": {"name": "critictool_label", "strict": True, "schema": schema},
    }


def judge_messages(prompt: JudgePrompt, task: Task) -> list[dict[str, Any]]:
    """The first turn: the prompt filled in for the task's unit."""
    return [{"role": "user", "content": render_prompt(prompt, task)}]


def repair_messages(messages: list[dict[str, Any]], reply: str, task: Task) -> list[dict[str, Any]]:
    """The conversation extended by the unreadable reply and the repair request."""
    questions = task_questions(task)
    problem = parse_reply(reply, questions).problem or "unreadable"
    request = REPAIR_REQUEST.format(problem=problem, answer_format=answer_format(questions))
    return [
        *messages,
        {"role": "assistant", "content": reply},
        {"role": "user", "content": request},
    ]


def readable(reply: str, task: Task) -> bool:
    """Whether the reply answers every question of the task's unit."""
    return parse_reply(reply, task_questions(task)).label is not None


def judge_result(
    task: Task, prompt: JudgePrompt, replies: Sequence[str], structured: bool
) -> TaskResult:
    """The answers of the last reply (`replies` holds one, or two after the repair turn), or
    an error quoting the replies; never an answer no reply states."""
    reading = parse_reply(replies[-1], task_questions(task))
    raw = RAW_TURN_SEPARATOR.join(replies)
    if reading.label is None:
        shown = raw if len(raw) <= 300 else raw[:300] + "…"
        return TaskResult(
            task=task,
            error=f"the judge's reply could not be read ({reading.problem}) after "
            f"{len(replies) - 1} repair turn(s): {shown!r}",
        )
    return TaskResult(
        task=task,
        raw=raw,
        scores={"structured": structured, "repaired": len(replies) > 1, "fenced": reading.fenced},
        meta={"judge_prompt": prompt.version, "critic_label": reading.label.to_json()},
    )
