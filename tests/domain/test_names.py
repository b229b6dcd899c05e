"""The one name check and the one terminal sanitiser (`domain/names.py`), and the CSV cell
defusing that `labels import` inverts exactly (`io/csvcell.py`)."""

from __future__ import annotations

import random

import pytest

from w2c_tui.domain.names import (
    MAX_NAME_CHARS,
    clean_name,
    clean_note,
    name_problem,
    note_problem,
    printable,
)
from w2c_tui.io.csvcell import FORMULA_START, safe_cell, unsafe_cell


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "must not be empty"),
        (" \t ", "must not be empty"),
        ("al\x00ice", "\\x00"),
        ("al\x1b[31mice", "\\x1b"),
        ("bob\x07", "\\x07"),
        ("dave\x9b2J", "\\x9b"),
        ("ev\x85e", "\\x85"),  # NEL at either end is trimmed as whitespace
        ("tab\tname", "\\x09"),
        ("line\nbreak", "\\x0a"),
        ("sep\u2028x", "\\u2028"),
        ("rtl\u202egnp.exe", "\\u202e"),
        ("del\x7f", "\\x7f"),
        ("x" * (MAX_NAME_CHARS + 1), f"more than {MAX_NAME_CHARS}"),
    ],
)
def test_names_with_control_characters_blank_or_too_long_are_refused(name: str, why: str) -> None:
    problem = name_problem(name)
    assert problem is not None and why in problem
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in problem)  # printable itself
    with pytest.raises(ValueError, match="annotator"):
        clean_name(name, "annotator")


@pytest.mark.parametrize(
    ("name", "clean"),
    [
        ("  alice  ", "alice"),
        ("Jose\u0301", "Jos\u00e9"),  # NFC: one annotator however é was typed
        ("=HYPERLINK(1)", "=HYPERLINK(1)"),  # not a control character: kept as it is
        ("model[/bold]", "model[/bold]"),
        ("李雷 👩‍💻", "李雷 👩‍💻"),  # zero-width joiner inside an emoji is fine
        ("x" * MAX_NAME_CHARS, "x" * MAX_NAME_CHARS),
    ],
)
def test_ordinary_names_are_trimmed_and_normalised(name: str, clean: str) -> None:
    assert name_problem(name) is None
    assert clean_name(name) == clean


def test_notes_keep_tabs_and_newlines_only() -> None:
    assert note_problem("a\tb\nc\r\nd") is None
    assert note_problem("bell\x07") == "holds control character(s) \\x07"
    assert note_problem("x" * 20_001) is not None
    assert clean_note("a\r\nb\x1b[2Jc\td\x00") == "a\nb[2Jc\td"


def test_printable_escapes_what_a_terminal_would_run() -> None:
    assert printable("\x1b]0;pwned\x07ann\x00") == "\\x1b]0;pwned\\x07ann\\x00"
    assert printable("csi\x9b2J rtl\u202e") == "csi\\x9b2J rtl\\u202e"
    assert printable("a\tb\nc") == "a\\x09b\\x0ac"
    assert printable("a\tb\nc", multiline=True) == "a\tb\nc"
    assert printable("plain — é 李") == "plain — é 李"
    assert printable(12) == "12"


def test_unsafe_cell_inverts_safe_cell_exactly() -> None:
    rng = random.Random(17)
    alphabet = ["'", "=", "+", "-", "@", "\t", "\r", "a", " ", "1"]
    samples = ["", "'", "''", "'=", "=", "'a", "a'=", "-3 dB", "''+x", "@at"]
    samples += [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(2000)
    ]
    for value in samples:
        cell = safe_cell(value)
        assert unsafe_cell(cell) == value, repr(value)
        assert not cell.startswith(FORMULA_START)  # a spreadsheet never runs it
    assert safe_cell(3) == 3 and safe_cell(None) is None
