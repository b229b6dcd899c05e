"""The issue's custom schema (a yes/no, a three-way nominal and a 1–3 ordinal question), shared
by the store, CLI and TUI tests."""

from __future__ import annotations

from pathlib import Path

BAR_TOML = """\
name = "bar"
title = "Reply check"
unit = "response"
blind_hidden = ["gold"]

[[questions]]
name = "ok"
title = "Is the reply acceptable?"
options = ["yes", "no"]

[[questions]]
name = "tone"
title = "Tone"
kind = "nominal"
options = ["friendly", "neutral", "rude"]

[[questions]]
name = "quality"
title = "Quality (1 poor – 3 good)"
kind = "ordinal"
level = "ordinal"
options = ["1", "2", "3"]
"""


def write_schema(folder: Path, text: str = BAR_TOML, name: str = "bar.toml") -> Path:
    """The schema text in a file under `folder`."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path
