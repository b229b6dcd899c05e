"""The `w2c` command: the TUI by default, and scriptable sub-commands."""

from __future__ import annotations

from w2c_tui.cli.app import app


def main() -> None:
    """Entry point of the `w2c` script: an unexpected error ends with exit status 1 and one
    line naming the crash log that holds the traceback (never a wall of traceback)."""
    import sys

    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:
        from w2c_tui.crash import crash_message, write_crash_log

        path = write_crash_log(error)
        print(crash_message(error, path), file=sys.stderr)
        sys.exit(1)


__all__ = ["app", "main"]
