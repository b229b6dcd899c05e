"""Text from data shown literally: a model called `model[/bold]` must not be read as markup."""

from __future__ import annotations

from typing import Any

from rich.text import Text


def plain(value: Any) -> Any:
    """A str becomes a Text (never parsed as markup); anything else is left as it is."""
    return Text(value) if isinstance(value, str) else value


def cells(*values: Any) -> list[Any]:
    """Table cells with every str shown literally (for Rich tables and DataTable rows)."""
    return [plain(v) for v in values]
