"""The item-QA checklist: the quality issues of the When2Call paper's Table 6."""

from __future__ import annotations

from dataclasses import dataclass

from w2c_tui.domain.labels import Label


@dataclass(frozen=True, slots=True)
class QAFlagSpec:
    """One checklist entry: a stable code, its group and its wording."""

    code: str
    group: str
    text: str


QA_FLAGS: tuple[QAFlagSpec, ...] = (
    QAFlagSpec("rfi_output_format", "Answer: follow-up question", "Asks about output format"),
    QAFlagSpec(
        "rfi_confirms_values",
        "Answer: follow-up question",
        "Asks to confirm already provided values",
    ),
    QAFlagSpec(
        "rfi_already_provided",
        "Answer: follow-up question",
        "Asks for already provided information",
    ),
    QAFlagSpec("rfi_reason", "Answer: follow-up question", "Asks for reason or context"),
    QAFlagSpec(
        "rfi_extra_inputs",
        "Answer: follow-up question",
        "Asks about additional inputs to pass to the tool",
    ),
    QAFlagSpec("rfi_irrelevant", "Answer: follow-up question", "Asks for something irrelevant"),
    QAFlagSpec("rfi_hallucinates", "Answer: follow-up question", "Hallucinates other information"),
    QAFlagSpec("direct_contains_rfi", "Answer: direct answer", "Contains request for information"),
    QAFlagSpec(
        "ca_mentions_unstated",
        "Answer: unable to answer",
        "Mentions information not included in question",
    ),
    QAFlagSpec(
        "qca_explains_tools",
        "Question: correct is 'unable to answer'",
        "Includes explanation referencing tool capabilities",
    ),
    QAFlagSpec(
        "qca_answerable", "Question: correct is 'unable to answer'", "Answerable with provided tool"
    ),
    QAFlagSpec(
        "qca_vague",
        "Question: correct is 'unable to answer'",
        "Generic / vague terms (no specific values)",
    ),
    QAFlagSpec(
        "qca_unmentioned_refs",
        "Question: correct is 'unable to answer'",
        "References things that are not mentioned (using 'the')",
    ),
    QAFlagSpec(
        "qca_unrelated", "Question: correct is 'unable to answer'", "Totally unrelated to tool"
    ),
    QAFlagSpec(
        "qca_no_tool_needed",
        "Question: correct is 'unable to answer'",
        "Question doesn't need a tool call to answer",
    ),
    QAFlagSpec(
        "qca_partly_answerable",
        "Question: correct is 'unable to answer'",
        "Question partially answerable without a tool",
    ),
    QAFlagSpec(
        "qrfi_nothing_missing",
        "Question: correct is follow-up question",
        "Does not have any missing information",
    ),
    QAFlagSpec(
        "qrfi_vague_values",
        "Question: correct is follow-up question",
        "Mentions vague parameter values",
    ),
    QAFlagSpec(
        "qrfi_says_not_provided",
        "Question: correct is follow-up question",
        "Says that a value is not provided",
    ),
    QAFlagSpec(
        "qrfi_references_tool",
        "Question: correct is follow-up question",
        "References existence of tool",
    ),
)

QA_FLAG_CODES: frozenset[str] = frozenset(f.code for f in QA_FLAGS)

ANY_FLAG = "any"
"""Stands for every checklist flag where a flag code is asked for (filters, --drop-flagged)."""


def flag_spec(code: str) -> QAFlagSpec:
    """The checklist entry for `code` (KeyError for an unknown code)."""
    for spec in QA_FLAGS:
        if spec.code == code:
            return spec
    raise KeyError(code)


QUESTION_GROUP_GOLD: dict[str, Label] = {
    "Question: correct is 'unable to answer'": Label.CANNOT_ANSWER,
    "Question: correct is follow-up question": Label.REQUEST_FOR_INFO,
}
"""The question checks of Table 6 belong to a gold class; the answer checks to every item."""


def checks_for(gold: Label | None) -> tuple[list[QAFlagSpec], list[QAFlagSpec]]:
    """(the checks Table 6 groups under this item's gold class, with the answer checks every
    item has; the question checks of the other classes), each in Table 6's order."""
    first: list[QAFlagSpec] = []
    rest: list[QAFlagSpec] = []
    for spec in QA_FLAGS:
        owner = QUESTION_GROUP_GOLD.get(spec.group)
        (first if owner is None or owner is gold else rest).append(spec)
    question_first = sorted(first, key=lambda spec: spec.group not in QUESTION_GROUP_GOLD)
    return question_first, rest


def flag_text(code: str) -> str:
    """The checklist wording of `code` (the code itself when it is not a known flag)."""
    try:
        return flag_spec(code).text
    except KeyError:
        return code
