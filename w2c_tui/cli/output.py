"""Where exported text goes: stdout, or a file written whole (temporary file, then rename)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer


def write_text(text: str, output: Path | None, *, what: str) -> None:
    """Print `text`, or write it to `output` atomically and say so on stderr."""
    if output is None:
        sys.stdout.write(text)
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_name(output.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(output)
    typer.echo(f"wrote {what} to {output}", err=True)
