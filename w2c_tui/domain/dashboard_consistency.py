"""The dashboard document's MCQ-vs-generation consistency (see domain.dashboard).

On responses, an MCQ reading (log-prob or index) is the target model's own choice among the
four canned answers, made without generating; the human label says what the same model wrote.
Their agreement is a property of the model (does it behave alike in both formats: the
When2Call paper's Table 5 puts the two side by side as two scores of the model), not of a
rater, so it is reported here and carries no "can stand in for a human" decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from w2c_tui.domain.dashboard_core import EstimateDoc
from w2c_tui.domain.jsondoc import OMIT_NONE, JsonDoc

CONSISTENCY_QUESTION = (
    "does each target model choose in the multiple-choice format (its MCQ reading) what it "
    "does when it generates (the human reference label of its response to the same item)?"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsistencyRowDoc(JsonDoc):
    """One MCQ reading of one target model against the human labels of that model's responses:
    agreement rate and Cohen's κ on the units that have both (`n`), each with its bootstrap
    interval, and their confusion (rows: generated behaviour per the human reference, columns:
    MCQ choice; label order direct, tool_call, request_for_info, cannot_answer)."""

    scorer: str
    kind: str
    reading: str
    target_model: str | None
    n_mcq: int
    """Units of this model with an MCQ reading (invalid ones included)."""
    n_invalid: int
    """MCQ readings that are invalid: counted here, left out of the comparison."""
    n_reference: int
    """Units of this model whose response has a human reference label."""
    n: int
    """Units with both a valid MCQ choice and a human reference: what the numbers rest on."""
    agreement: EstimateDoc
    cohen_kappa: EstimateDoc
    confusion: tuple[tuple[int, ...], ...]
    reason: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class ConsistencyDoc(JsonDoc):
    """MCQ-vs-generation consistency per MCQ reading and target model (behaviour units only)."""

    question: str
    reference: str
    rows: tuple[ConsistencyRowDoc, ...]
