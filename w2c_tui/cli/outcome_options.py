"""Option values with a fixed set shared by the outcome commands (Typer enums: a bad value
exits 2 and lists the allowed ones)."""

from __future__ import annotations

from enum import StrEnum


class FlagCode(StrEnum):
    """A checklist code of the item QA (domain.qa.QA_FLAGS), or `any`."""

    ANY = "any"
    RFI_OUTPUT_FORMAT = "rfi_output_format"
    RFI_CONFIRMS_VALUES = "rfi_confirms_values"
    RFI_ALREADY_PROVIDED = "rfi_already_provided"
    RFI_REASON = "rfi_reason"
    RFI_EXTRA_INPUTS = "rfi_extra_inputs"
    RFI_IRRELEVANT = "rfi_irrelevant"
    RFI_HALLUCINATES = "rfi_hallucinates"
    DIRECT_CONTAINS_RFI = "direct_contains_rfi"
    CA_MENTIONS_UNSTATED = "ca_mentions_unstated"
    QCA_EXPLAINS_TOOLS = "qca_explains_tools"
    QCA_ANSWERABLE = "qca_answerable"
    QCA_VAGUE = "qca_vague"
    QCA_UNMENTIONED_REFS = "qca_unmentioned_refs"
    QCA_UNRELATED = "qca_unrelated"
    QCA_NO_TOOL_NEEDED = "qca_no_tool_needed"
    QCA_PARTLY_ANSWERABLE = "qca_partly_answerable"
    QRFI_NOTHING_MISSING = "qrfi_nothing_missing"
    QRFI_VAGUE_VALUES = "qrfi_vague_values"
    QRFI_SAYS_NOT_PROVIDED = "qrfi_says_not_provided"
    QRFI_REFERENCES_TOOL = "qrfi_references_tool"
