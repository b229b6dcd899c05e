"""The MCQ-index classifier: a chat model picks one of the four candidate answers by number.

Our own prompt: it shows the question, the tools and the four candidate responses numbered 0–3
in the benchmark's option order, and asks for the single digit of the most appropriate one. It
does NOT name the behaviour behind each candidate. The API suite's classifier (`mcq`,
WHEN2CALL_REFERENCE.md §4.3) shows `behavior_type=<name>` beside every candidate and explains the
four behaviours, which makes it a labelled classification rather than a blind choice; results of
the two are not comparable.

Parsing follows the suite's rule: the whole reply is one digit 0–3 (whitespace around it allowed),
else the first standalone digit 0–3 in the reply; else the reply is `invalid` (raw text kept).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.runs import Task, TaskResult
from w2c_tui.runs.judge import render_tools

MCQ_INDEX_PROMPT_NAME = "w2c-mcq-index-v1"

MCQ_INDEX_SYSTEM = (
    "You will see a user's question, the tools an AI assistant can call, and four candidate "
    "responses of the assistant, numbered 0 to 3. Choose the candidate that is the most "
    "appropriate way for the assistant to respond to the question with these tools. "
    "Reply with the single digit of that candidate (0, 1, 2 or 3) and nothing else."
)
MCQ_INDEX_USER = (
    "Tools the assistant can call (a JSON list, possibly empty):\n{tools}\n\n"
    "User question:\n{question}\n\n"
    "Candidate responses:\n{candidates}\n\n"
    "Which candidate (0, 1, 2 or 3) is the most appropriate? Reply with the digit only."
)

_PLACEHOLDER = re.compile(r"\{(tools|question|candidates)\}")
_FULL = re.compile(r"\s*([0-3])\s*")
_FIRST = re.compile(r"\b([0-3])\b")


def mcq_index_prompt_version() -> str:
    """`name@sha256[:12]` of the prompt wording: part of the classifier rater's identity."""
    text = MCQ_INDEX_SYSTEM + "\x00" + MCQ_INDEX_USER
    return f"{MCQ_INDEX_PROMPT_NAME}@{hashlib.sha256(text.encode('utf-8')).hexdigest()[:12]}"


def render_mcq_index_messages(
    question: str, tools: Sequence[str], candidates: Sequence[str]
) -> list[dict[str, str]]:
    """System and user messages for one item; `candidates` in option order (0–3)."""
    listed = "\n\n".join(f"[{i}]\n{text}" for i, text in enumerate(candidates))
    values = {"tools": render_tools(tools), "question": question, "candidates": listed}
    user = _PLACEHOLDER.sub(lambda match: values[match.group(1)], MCQ_INDEX_USER)
    return [{"role": "system", "content": MCQ_INDEX_SYSTEM}, {"role": "user", "content": user}]


def parse_mcq_index(text: str) -> int | None:
    """The chosen option 0–3, or None when the reply holds no standalone digit 0–3."""
    match = _FULL.fullmatch(text) or _FIRST.search(text)
    return int(match.group(1)) if match else None


def option_labels(task: Task) -> list[Label]:
    """The labels of `task.answers` in their order; ValueError unless it is the four labels."""
    labels = [Label.parse(name) for name, _ in task.answers]
    if sorted(label.option for label in labels) != [0, 1, 2, 3]:
        raise ValueError(f"expected the four When2Call answers, got {[n for n, _ in task.answers]}")
    return labels


def mcq_index_messages(task: Task) -> list[dict[str, str]]:
    """The classifier's messages for a task (its answers in their order, numbered 0–3)."""
    option_labels(task)
    return render_mcq_index_messages(task.question, task.tools, [t for _, t in task.answers])


def mcq_index_result(task: Task, reply: str) -> TaskResult:
    """The chosen option's label, or `invalid` with the raw reply (never a guessed label)."""
    index = parse_mcq_index(reply)
    if index is None:
        return TaskResult(task=task, status=VerdictStatus.INVALID, raw=reply)
    return TaskResult(
        task=task,
        label=option_labels(task)[index],
        status=VerdictStatus.OK,
        raw=reply,
        scores={"index": index},
    )
