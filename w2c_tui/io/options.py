"""Options an importer needs that a file does not always say."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """Names to use when a results file does not carry them."""

    target_model: str | None = None
    judge: str | None = None
    scorer: str | None = None
