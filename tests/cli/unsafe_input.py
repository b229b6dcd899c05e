"""What the input-safety tests feed the CLI: names that attack a terminal, the characters none
may carry, demo units to label and label files to import (tests/cli/test_input_safety.py,
tests/cli/test_label_file_safety.py)."""

from __future__ import annotations

import csv
from pathlib import Path

from typer.testing import CliRunner

from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services

runner = CliRunner()

ATTACKS = {
    "esc": "alice\x1b]0;pwned\x07",
    "bel": "bob\x07",
    "nul": "carol\x00",
    "c1": "dave\x9b31m",
    "bidi": "eve\u202egnp.exe",
}
CONTROL = [chr(c) for c in range(0x20) if chr(c) != "\n"] + ["\x7f"]
CONTROL += [chr(c) for c in range(0x80, 0xA0)]


def demo_units(svc: Services, n: int) -> list[tuple[str, int, int, str]]:
    """(uuid, item id, response id, model) of the first `n` demo responses."""
    out = []
    for row in svc.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 30):
        for response in svc.review.detail(row.id, None).responses:
            assert response.id is not None
            out.append((row.uuid, row.id, response.id, response.target_model))
    return out[:n]


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def no_control(text: str) -> bool:
    return not any(c in text for c in CONTROL)
