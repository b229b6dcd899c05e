"""Writing a command's output: stdout, or a file written whole (a temporary file renamed into
place), never over the open database (or any SQLite database)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import typer

from w2c_tui.cli.context import EXIT_BAD_INPUT, fail

SQLITE_MAGIC = b"SQLite format 3\x00"
SIDE_FILES = ("", "-wal", "-shm", "-journal")
UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(name: str) -> str:
    """`name` as one file-name component: no separators, no `..`, no leading dot (a dataset
    called `../../etc/x` still gives a file inside `exports/`)."""
    cleaned = UNSAFE.sub("_", name).lstrip(".")
    return cleaned.replace("..", "_")[:120] or "dataset"


def _same(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def refuse_database(output: Path, database_file: str | None) -> None:
    """Exit 2 when `output` is the open database (or one of its side files) or any existing
    SQLite database: `-o w2c.db` must not empty the labels."""
    target = output.expanduser()
    if database_file:
        db = Path(database_file).expanduser()
        for suffix in SIDE_FILES:
            side = db.with_name(db.name + suffix)
            if _same(target, side) or target.resolve() == side.resolve():
                raise fail(
                    f"refusing to write to {output}: it is the open database ({db}); "
                    "give another -o/--output",
                    EXIT_BAD_INPUT,
                )
    try:
        with target.open("rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except OSError:
        return
    if head == SQLITE_MAGIC:
        raise fail(
            f"refusing to overwrite {output}: it is an SQLite database; give another -o/--output",
            EXIT_BAD_INPUT,
        )


def write_output(output: Path, text: str, database_file: str | None) -> None:
    """Write `text` to `output` whole, after `refuse_database`."""
    refuse_database(output, database_file)
    _write_whole(output, text)


def write_text(text: str, output: Path | None, *, what: str) -> None:
    """Print `text`, or write it to `output` whole (never over an SQLite database) and say so
    on stderr."""
    if output is None:
        sys.stdout.write(text)
        return
    refuse_database(output, None)
    _write_whole(output, text)
    typer.echo(f"wrote {what} to {output}", err=True)


def _write_whole(output: Path, text: str) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_name(output.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(output)
