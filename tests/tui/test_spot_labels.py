"""The spot check's "you": the annotator's label of the same model's response, never another's."""

from __future__ import annotations

from w2c_tui.domain.labels import Label
from w2c_tui.tui.screens.spot_check import OwnLabels


def test_you_is_the_label_of_the_same_models_response() -> None:
    own = OwnLabels(qa=Label.REQUEST_FOR_INFO, by_model={"acme": Label.TOOL_CALL})
    assert own.line("acme") == ("you (on acme's stored response): ", "tool_call")
    # Another model: not acme's label, but what the annotator said the item calls for.
    assert own.line("tiny") == ("you (item QA, the right behaviour): ", "request_for_info")
    assert OwnLabels().line("tiny") == ("you: ", "no label of tiny's response yet")
