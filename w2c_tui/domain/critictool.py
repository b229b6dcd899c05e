"""CriticTool samples: tool-calling trajectories with an injected or environment error."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from w2c_tui.domain.errors import InputError

Source = Literal["internal", "external"]
"""Internal (model-driven) errors or external (environment) errors."""
Variant = Literal["base", "evol"]
"""The base data or the evolved (harder) data."""
ExternalMode = Literal["skip", "finish"]
"""What the model is told to do once retrying an environment error has failed."""
KindBasis = Literal["name", "content", "instruction"]
"""Where a file-kind fact came from: the file name, the records, or the inserted instruction."""


class ErrorType(StrEnum):
    """The four internal error categories (the values of `error_type`)."""

    TOOL_SELECT = "tool_select_error"
    TOOL_HALLUCINATION = "tool_hallucination_error"
    PARAMETERS_VALUE = "parameters_value_error"
    PARAMETERS_KEY = "parameters_key_error"


ERROR_TYPES: tuple[str, ...] = tuple(error.value for error in ErrorType)
"""The category names the `reflect` metric accepts, in the reference's order."""

FINISH_ACTION = "FinishAction"
"""The pseudo-tool a model calls to answer the user instead of calling a tool."""


class SampleError(InputError):
    """Bad input in one record of a CriticTool file: names the file, the sample and the field."""

    def __init__(
        self, path: str, sample_id: str, field: str, message: str, line: int | None = None
    ) -> None:
        self.sample_id = sample_id
        super().__init__(path, f"sample {sample_id!r}: {message}", line=line, field=field)


@dataclass(frozen=True)
class Turn:
    """One message of the trajectory: system, user, assistant or function (a tool's response)."""

    role: str
    content: str


@dataclass(frozen=True)
class ToolParam:
    """A declared parameter: its name, its declared type string (e.g. STRING) and description."""

    name: str
    type: str
    required: bool
    description: str | None = None


@dataclass(frozen=True)
class Tool:
    """A tool of the system prompt's tool list, as the reference reads it."""

    name: str
    description: str | None
    required: tuple[ToolParam, ...]
    optional: tuple[ToolParam, ...]

    @property
    def params(self) -> tuple[ToolParam, ...]:
        """Required parameters first, then optional ones (the reference's reading order)."""
        return self.required + self.optional

    @property
    def parameter_list(self) -> str:
        """`(req: TYPE, …, [opt: TYPE], …)`: the signature after the name."""
        parts = [f"{p.name}: {p.type}" for p in self.required]
        parts += [f"[{p.name}: {p.type}]" for p in self.optional]
        return f"({', '.join(parts)})"


@dataclass(frozen=True)
class Step:
    """A gold action: the tool name, its arguments and, in CoT data, the thought.

    `args` is the parsed JSON value (an object for tool calls, a string for FinishAction);
    treat it as read-only.
    """

    name: str
    args: Any
    thought: str | None = None


@dataclass(frozen=True)
class FileKind:
    """What a CriticTool file is, and where each fact came from."""

    source: Source
    variant: Variant | None
    """None where the file name says neither base nor evol."""
    cot: bool
    mode: ExternalMode | None
    """For external files with predictions: the mode the instruction (or name) says."""
    has_predictions: bool
    cot_basis: KindBasis


@dataclass(frozen=True)
class Sample:
    """One CriticTool record, validated, with its raw JSON kept byte for byte."""

    sample_id: str
    source: Source
    turns: tuple[Turn, ...]
    """The messages as the file has them (a predictions file has the instruction inserted
    and, for external samples, the retry turns appended)."""
    dataset_turns: int
    """How many of `turns` came from the dataset (the rest were appended by retry rounds)."""
    system_prompt: str
    """The dataset's system prompt (message 0) without any inserted evaluation instruction."""
    instruction: str | None
    """The name of the evaluation instruction found inserted in message 0 (None: none)."""
    tools: tuple[Tool, ...]
    error_type: str | None
    """Internal: one of ERROR_TYPES, or None for an error-free control sample; external: the
    file's value kept as is (None when absent)."""
    gold: tuple[Step, ...]
    """Internal: one step (the correct next action); external: [0] the call that met the
    environment error (the retry target), [1] the correct next step after giving up."""
    predictions: tuple[str, ...] | None
    """Raw model outputs: one for internal, one per round for external; None: no predictions."""
    raw_json: str
    """The record's JSON text exactly as in the file."""
    sha256: str
    """sha256 of `raw_json` (UTF-8)."""
    item_sha256: str
    """sha256 of the record's dataset content (dataset turns with the original system prompt,
    ground_truth, error_type): equal for a dataset record and the same record in a predictions
    file."""
    line: int
    """The line of the file where the record starts."""

    @property
    def erroneous(self) -> bool:
        """An internal sample whose last step holds an injected error (external: always)."""
        return self.source == "external" or bool(self.error_type)

    @property
    def original_turns(self) -> tuple[Turn, ...]:
        """The dataset's turns, with the original system prompt (what inference starts from)."""
        head = Turn(self.turns[0].role, self.system_prompt)
        return (head, *self.turns[1 : self.dataset_turns])

    def review_span(self) -> tuple[int, int]:
        """[start, end) of the step under review among the dataset turns: the last assistant
        turn and the tool responses after it (the environment failure, for external samples)."""
        end = self.dataset_turns
        start = end - 1
        while start > 1 and self.turns[start].role != "assistant":
            start -= 1
        return start, end

    def tool(self, name: str) -> Tool | None:
        """The first tool of the list called `name` (the reference takes the first match)."""
        return next((tool for tool in self.tools if tool.name == name), None)


@dataclass(frozen=True)
class CriticToolFile:
    """A whole CriticTool file: its kind and its samples in file order."""

    path: str
    kind: FileKind
    samples: tuple[Sample, ...]
    sha256: str
    """sha256 of the file's bytes."""
