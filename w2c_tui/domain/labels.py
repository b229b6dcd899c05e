"""The four When2Call behaviour labels, rater kinds and verdict states."""

from __future__ import annotations

from enum import StrEnum


class Label(StrEnum):
    """A When2Call behaviour, in the benchmark's fixed option order."""

    DIRECT = "direct"
    TOOL_CALL = "tool_call"
    REQUEST_FOR_INFO = "request_for_info"
    CANNOT_ANSWER = "cannot_answer"

    @property
    def option(self) -> int:
        """Position in the option order (direct=0 … cannot_answer=3)."""
        return LABELS.index(self)

    @property
    def display_name(self) -> str:
        """A human name for screens."""
        return LABEL_TITLES[self]

    @classmethod
    def from_index(cls, index: int) -> Label:
        """The label at option position `index` (0–3)."""
        if not 0 <= index < len(LABELS):
            raise ValueError(f"option index must be 0-3, got {index}")
        return LABELS[index]

    @classmethod
    def parse(cls, value: str) -> Label:
        """Parse a label name; the official judge's `direct_answer` means `direct`."""
        text = value.strip()
        if text == "direct_answer":
            return cls.DIRECT
        return cls(text)

    @classmethod
    def named(cls, value: object) -> Label | None:
        """The label `value` names, or None when it names none (a rater's unusable output)."""
        if not isinstance(value, str):
            return None
        try:
            return cls.parse(value)
        except ValueError:
            return None


LABELS: tuple[Label, ...] = (
    Label.DIRECT,
    Label.TOOL_CALL,
    Label.REQUEST_FOR_INFO,
    Label.CANNOT_ANSWER,
)

LABEL_TITLES: dict[Label, str] = {
    Label.DIRECT: "direct answer",
    Label.TOOL_CALL: "tool call",
    Label.REQUEST_FOR_INFO: "request for info",
    Label.CANNOT_ANSWER: "cannot answer",
}


class RaterKind(StrEnum):
    """Who or what assigns a label."""

    HUMAN = "human"
    JUDGE = "judge"
    MCQ_LOGPROB = "mcq_logprob"
    MCQ_INDEX = "mcq_index"
    GOLD = "gold"
    ADJUDICATOR = "adjudicator"
    """A person resolving the humans' disagreement: a reference, not one more rater."""


class VerdictStatus(StrEnum):
    """A verdict's state; `invalid` and `missing` are never classes."""

    OK = "ok"
    INVALID = "invalid"
    MISSING = "missing"


class ItemKind(StrEnum):
    """What a dataset row is: a test item, or a train example kept for browsing."""

    TEST = "test"
    SFT = "sft"
    PREF = "pref"
    CRITICTOOL = "critictool"
    """A CriticTool sample (its trajectory lives in `critic_sample`)."""


class InvalidMode(StrEnum):
    """How invalid predictions enter the metrics (AGREEMENT.md Panel A)."""

    MISSING = "missing"
    """Coverage-conditional: invalid units are dropped like missing ones."""
    WRONG = "wrong"
    """Strict: an invalid unit stays in N, is never correct, and is a false negative of its gold."""
