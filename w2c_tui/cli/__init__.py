"""The `w2c` command: the TUI by default, and scriptable sub-commands."""

from __future__ import annotations

from w2c_tui.cli.app import app


def main() -> None:
    """Entry point of the `w2c` script."""
    app()


__all__ = ["app", "main"]
