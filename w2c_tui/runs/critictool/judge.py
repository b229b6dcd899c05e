"""The CriticTool LLM judge: a judge model answers the label questions a human answers.

A unit is a sample (its trajectory) and, when a model's prediction is judged (`--target-model`),
that prediction's replies. The judge is asked exactly the questions the label form asks on
that unit (`domain/critictool_labels.py`): error in the step under review (yes/no), which
error (the six categories), the expected policy after an environment failure (external
samples); with a prediction, whether its critique, its corrected call's tool and args are right,
and which policy it followed (external). Its answers become answers of the `critictool` schema
by the judge's rater, so they meet the humans and the model's self-critique in the agreement engine.

Like a blind annotator, the judge never sees the gold next step, the injected error type or the
model's name: the detect and category answers rest on the trajectory alone, the answers about
the prediction on the trajectory and the replies.

The prompt is built in `judge_prompt.py`. Replies are read as strictly as the When2Call
judge's (`runs/judge.py`): one JSON object (a single fenced block is unwrapped and recorded),
every asked key present with one of its values (`yes`/`no` may also be JSON booleans; strings
are compared trimmed and lower-cased), and no contradiction between `error` and `category`
(`no` goes with `none` only). An unreadable reply gets one repair turn; still unreadable, the
task ends in an error that quotes the reply (no label is written; `w2c run resume
--retry-errors` asks again).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from w2c_tui.domain.critictool_labels import CriticToolLabel, ErrorCategory, Question, options
from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.critictool.judge_prompt import answer_format, task_questions
from w2c_tui.runs.judge import RAW_TURN_SEPARATOR, JudgePrompt, json_schema_format, unfence

REPAIR_REQUEST = (
    "Your reply could not be read ({problem}). Reply again with the JSON object in the "
    "prescribed format and nothing else:\n{answer_format}"
)


@dataclass(frozen=True)
class CriticToolJudgeReading:
    """What one reply says: the answers, or why they could not be read."""

    label: CriticToolLabel | None
    fenced: bool = False
    problem: str | None = None


def _value(question: Question, raw: Any) -> str | None:
    """The option value a reply gives for `question`, or None when it is not one."""
    allowed = [v for v, _ in options(question)]
    if isinstance(raw, bool) and allowed == ["yes", "no"]:
        return "yes" if raw else "no"
    if isinstance(raw, str) and raw.strip().lower() in allowed:
        return raw.strip().lower()
    return None


def parse_reply(text: str, questions: Sequence[Question]) -> CriticToolJudgeReading:
    """Read a reply strictly (see the module docstring); never guesses from prose."""
    body, fenced = unfence(text)
    try:
        value = json.loads(body)
    except ValueError:
        return CriticToolJudgeReading(None, fenced, "not valid JSON")
    if not isinstance(value, dict):
        return CriticToolJudgeReading(None, fenced, "not a JSON object")
    answers: dict[Question, str] = {}
    for question in questions:
        if question.value not in value:
            return CriticToolJudgeReading(None, fenced, f"no {question.value!r}")
        answer = _value(question, value[question.value])
        if answer is None:
            allowed = ", ".join(v for v, _ in options(question))
            got = json.dumps(value[question.value], ensure_ascii=False)[:60]
            return CriticToolJudgeReading(
                None, fenced, f"{question.value!r} must be one of {allowed}, not {got}"
            )
        answers[question] = answer
    error = answers.get(Question.ERROR)
    category = answers.get(Question.CATEGORY)
    none = ErrorCategory.NONE.value
    if error is not None and category is not None and (error == "no") != (category == none):
        return CriticToolJudgeReading(
            None, fenced, f"'error' is {error!r} but 'category' is {category!r}"
        )
    label = CriticToolLabel()
    for question, answer in answers.items():
        label = label.answer(question, answer)
    return CriticToolJudgeReading(label, fenced)


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
    return json_schema_format("critictool_label", schema)


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
