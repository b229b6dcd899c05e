"""Label names as raters and files write them."""

from __future__ import annotations

import pytest

from w2c_tui.domain.labels import Label


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("tool_call", Label.TOOL_CALL),
        (" cannot_answer\n", Label.CANNOT_ANSWER),
        ("direct_answer", Label.DIRECT),  # the official judge's name for `direct`
        ("maybe", None),
        ("", None),
        (None, None),
        (3, None),
    ],
)
def test_named_reads_a_label_or_says_none(value: object, expected: Label | None) -> None:
    assert Label.named(value) is expected
