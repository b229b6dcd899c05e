"""The model's own critique as a rater's label: what its parsed reply says about the last step.

Detect is whether the reply reports an error (the `critic` metric's reading: a truthy `error`);
the category is the reported error when it is one of the four internal categories, `none`
when the reply reports no error, and unanswered otherwise (an unknown category name is not
guessed). A reply that did not parse answers nothing. External samples have no category
report; their observed policy is read from the last round: a repeat of the failed call is a
retry, FinishAction a finish, any other call a skip.
"""

from __future__ import annotations

from w2c_tui.domain.critictool import ERROR_TYPES, FINISH_ACTION, Sample
from w2c_tui.domain.critictool_labels import CriticToolLabel, ErrorCategory, Policy
from w2c_tui.runs.critictool.parse import Reply, parse_reply


def observed_policy(sample: Sample, reply: Reply) -> Policy | None:
    """What one external round did (None: the reply did not name a call)."""
    if not reply.name:
        return None
    if reply.is_call(sample.gold[0]):
        return Policy.RETRY
    return Policy.FINISH if reply.name == FINISH_ACTION else Policy.SKIP


def self_critique(sample: Sample, rounds: tuple[str, ...]) -> CriticToolLabel:
    """The model's label of `sample` from its replies `rounds` (empty: answers nothing)."""
    if not rounds:
        return CriticToolLabel()
    if sample.source == "external":
        reply = parse_reply(rounds[-1])
        if reply.parsed_as is None:
            return CriticToolLabel()
        return CriticToolLabel(observed_policy=observed_policy(sample, reply))
    reply = parse_reply(rounds[0])
    if reply.parsed_as is None:
        return CriticToolLabel()
    if not reply.error:
        return CriticToolLabel(error=False, category=ErrorCategory.NONE)
    category = ErrorCategory(reply.error) if reply.error in ERROR_TYPES else None
    return CriticToolLabel(error=True, category=category)
