"""The LLM judge: its prompt files, their versions, rendering and strict reply parsing.

The packaged prompt (`judge_prompts/when2call-judge-v1.txt`) is our own wording of the official
When2Call judge's structure (WHEN2CALL_REFERENCE.md §3.2): a role line, the four categories with
one-line definitions, "do not judge correctness, only classify", the blocks AVAILABLE_TOOLS /
USER_QUESTION / AI_MODEL_RESPONSE and a JSON-only answer. Two deliberate differences from the
official prompt: the labels are ours (`direct`, not `direct_answer`; a reply saying
`direct_answer` is still read as `direct`) and the tools are rendered as JSON, not Python repr.

A user prompt file is plain text with three placeholders, each replaced literally (no
`str.format`, so JSON braces elsewhere in the file need no escaping):

- `{tools}`: the item's tools as one JSON list (`json.dumps`, non-ASCII kept),
- `{question}`: the user question,
- `{response}`: the response being judged (required).

It must ask for `{"classification": "<label>"}`: replies are parsed strictly. The reply is
stripped and must be a JSON object whose `classification` is one of the four label names (or
`direct_answer`), exact spelling after trimming; other keys are ignored. One tolerance: a reply
that is exactly one fenced block (```json … ``` or ``` … ```) is unwrapped, as many chat models
fence JSON; the official scripts do not do this, so it is recorded (`fenced`). A label is never
guessed from prose: anything else fails, gets one repair turn, then becomes an `invalid` verdict.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from w2c_tui.domain.labels import LABELS, Label, VerdictStatus
from w2c_tui.domain.runs import RunStartError, Task, TaskResult

PROMPTS_DIR = Path(__file__).with_name("judge_prompts")
DEFAULT_JUDGE_PROMPT = "when2call-judge-v1"
JUDGE_LABELS: tuple[str, ...] = tuple(label.value for label in LABELS)
REPAIR_REQUEST = (
    "Your reply could not be read. Rewrite it shorter, as valid JSON in the prescribed format "
    'and nothing else: {"classification": "<label>"}'
)
"""The single repair turn (the official rewrite request, in our words)."""
RAW_TURN_SEPARATOR = "\n--- repair turn ---\n"
"""Joins the judge's replies in `raw` when the repair turn was used."""

_PLACEHOLDER = re.compile(r"\{(tools|question|response)\}")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\n?(.*?)\n?[ \t]*```", re.DOTALL)


@dataclass(frozen=True)
class JudgePrompt:
    """A judge prompt: its name (packaged name or file stem) and its text."""

    name: str
    text: str

    @property
    def version(self) -> str:
        """`name@sha256[:12]` of the text: part of the judge rater's identity."""
        digest = hashlib.sha256(self.text.encode("utf-8")).hexdigest()[:12]
        return f"{self.name}@{digest}"


@dataclass(frozen=True)
class JudgeReading:
    """What one judge reply says: a label, or why it could not be read."""

    label: Label | None
    fenced: bool = False
    problem: str | None = None


def load_judge_prompt(
    name_or_path: str,
    *,
    required: tuple[str, ...] = ("response",),
    placeholders: str = "{tools}, {question}, {response}",
) -> JudgePrompt:
    """A packaged prompt by name, else a prompt file by path; RunStartError if neither, or
    when a file lacks one of the `required` placeholders (names without braces)."""
    packaged = PROMPTS_DIR / f"{name_or_path}.txt"
    if _NAME.fullmatch(name_or_path) and packaged.is_file():
        return JudgePrompt(name_or_path, packaged.read_text(encoding="utf-8"))
    path = Path(name_or_path).expanduser()
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in PROMPTS_DIR.glob("*.txt")))
        raise RunStartError(
            f"judge prompt {name_or_path!r} not found: give a packaged name ({known}) "
            "or the path of a text file"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RunStartError(f"cannot read judge prompt {path}: {exc}") from exc
    for name in required:
        if "{" + name + "}" not in text:
            raise RunStartError(
                f"judge prompt {path} has no {{{name}}} placeholder (placeholders: {placeholders})"
            )
    return JudgePrompt(path.stem, text)


def judge_prompt_version(name_or_path: str) -> str:
    """The version string (`name@sha256[:12]`) of a packaged prompt or prompt file."""
    return load_judge_prompt(name_or_path).version


def render_tools(tools: Sequence[str]) -> str:
    """The tools (JSON strings) as one JSON list; a string that is not JSON stays a string."""
    parsed: list[Any] = []
    for tool in tools:
        try:
            parsed.append(json.loads(tool))
        except ValueError:
            parsed.append(tool)
    return json.dumps(parsed, ensure_ascii=False)


def render_judge_prompt(
    prompt: JudgePrompt, question: str, tools: Sequence[str], response: str
) -> str:
    """The prompt with its placeholders filled in one pass (values are never re-scanned)."""
    values = {"tools": render_tools(tools), "question": question, "response": response}
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], prompt.text)


def unfence(text: str) -> tuple[str, bool]:
    """The reply stripped and, when it is exactly one fenced block, that block's content;
    and whether it was fenced."""
    body = text.strip()
    fence = _FENCE.fullmatch(body)
    if fence is None:
        return body, False
    return fence.group(1).strip(), True


def parse_judge_reply(text: str) -> JudgeReading:
    """Read a reply strictly (see the module docstring); never guesses from prose."""
    body, fenced = unfence(text)
    try:
        value = json.loads(body)
    except ValueError:
        return JudgeReading(None, fenced, "not valid JSON")
    if not isinstance(value, dict):
        return JudgeReading(None, fenced, "not a JSON object")
    classification = value.get("classification")
    if not isinstance(classification, str):
        return JudgeReading(None, fenced, "no string 'classification'")
    try:
        return JudgeReading(Label.parse(classification), fenced)
    except ValueError:
        return JudgeReading(None, fenced, f"unknown classification {classification!r}")


def judge_response_format() -> dict[str, Any]:
    """The structured-output request: an object with one `classification` from the four labels."""
    schema = {
        "type": "object",
        "properties": {"classification": {"type": "string", "enum": list(JUDGE_LABELS)}},
        "required": ["classification"],
        "additionalProperties": False,
    }
    return json_schema_format("when2call_classification", schema)


def json_schema_format(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A chat request's `response_format` asking for replies that follow `schema` strictly."""
    return {"type": "json_schema", "json_schema": {"name": name, "strict": True, "schema": schema}}


def judge_messages(prompt: JudgePrompt, task: Task) -> list[dict[str, Any]]:
    """The first turn: the prompt filled with the task's question, tools and response."""
    assert task.response_text is not None
    text = render_judge_prompt(prompt, task.question, task.tools, task.response_text)
    return [{"role": "user", "content": text}]


def repair_messages(messages: list[dict[str, Any]], reply: str) -> list[dict[str, Any]]:
    """The conversation extended by the judge's unreadable reply and the repair request."""
    return [
        *messages,
        {"role": "assistant", "content": reply},
        {"role": "user", "content": REPAIR_REQUEST},
    ]


def judge_result(
    task: Task, prompt: JudgePrompt, replies: Sequence[str], structured: bool
) -> TaskResult:
    """The verdict of the last reply (`replies` holds one, or two when the repair turn ran):
    its label, or `invalid` with every reply kept in `raw`; never a label no reply states."""
    reading = parse_judge_reply(replies[-1])
    meta: dict[str, Any] = {"judge_prompt": prompt.version}
    if reading.problem:
        meta["problem"] = reading.problem
    return TaskResult(
        task=task,
        label=reading.label,
        status=VerdictStatus.OK if reading.label is not None else VerdictStatus.INVALID,
        raw=RAW_TURN_SEPARATOR.join(replies),
        scores={"structured": structured, "repaired": len(replies) > 1, "fenced": reading.fenced},
        meta=meta,
    )
