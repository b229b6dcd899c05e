"""Repeats as `n` choices of one request: matching choices to repeats, and the fallback."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class NotNChoices(Exception):
    """A reply to `n` > 1 that does not hold one choice per repeat, numbered 0..n-1."""


def by_choice_index(choices: Sequence[Any], n: int) -> list[Any | None]:
    """The choices in order of their `index`; for n == 1 the first choice (None when there is
    none). For n > 1, NotNChoices unless they number 0..n-1 exactly."""
    if n == 1:
        return [choices[0] if choices else None]
    if len(choices) != n:
        raise NotNChoices(f"the reply has {len(choices)} choices for n={n}")
    ordered: list[Any | None] = [None] * n
    for choice in choices:
        index = getattr(choice, "index", None)
        if type(index) is not int or not 0 <= index < n or ordered[index] is not None:
            raise NotNChoices("the choices' indexes do not number the repeats")
        ordered[index] = choice
    return ordered
