"""What CriticTool agreement can be cut by (`w2c critictool agreement --by`)."""

from __future__ import annotations

from enum import StrEnum


class CriticToolSliceBy(StrEnum):
    """A slice of CriticTool units: a fact of the sample, or of the prediction labelled."""

    ERROR = "error"
    """The injected error type (internal), `no error` (internal control samples), `external`."""
    SOURCE = "source"
    """internal or external."""
    VARIANT = "variant"
    """base, evol, or `unknown` when the file name said neither."""
    SETTING = "setting"
    """The prediction's setting (internal, external skip or finish; CoT or not); `(sample)`
    for a sample labelled without a prediction."""
    MODEL = "model"
    """The model whose prediction is labelled; `(sample)` without one."""
