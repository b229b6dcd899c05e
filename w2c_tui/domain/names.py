"""Names a person or a file gives us (annotators, datasets, models, judges), checked once.

A name is shown in terminals, table headers, CSV files and URLs, and is matched by equality
across databases, so it must be plain text: no control characters (C0, DEL, C1, NUL), no line
or paragraph separators, no bidirectional-override characters (which make a name display as
another), at most `MAX_NAME_CHARS` characters, not blank, and in Unicode NFC (so `é` typed two
ways is one annotator). Surrounding whitespace is trimmed.

Notes (free text, not names) may hold tabs and newlines; other control characters are refused.
"""

from __future__ import annotations

import unicodedata

MAX_NAME_CHARS = 200
"""The longest name accepted, in characters (after NFC)."""

MAX_NOTE_CHARS = 20_000
"""The longest note accepted, in characters."""

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Characters that reorder how the text around them is displayed."""


def _bad_char(char: str, allowed: str = "") -> bool:
    if char in allowed:
        return False
    if char in BIDI_CONTROLS:
        return True
    return unicodedata.category(char) in ("Cc", "Zl", "Zp")


def escaped(text: str, allowed: str = "") -> str:
    """`text` with every control, separator and bidi character written as a visible escape
    (`\\x1b`, `\\x00`, `\\u202e`); the characters in `allowed` are kept as they are."""
    if not any(_bad_char(c, allowed) for c in text):
        return text
    out = []
    for char in text:
        if not _bad_char(char, allowed):
            out.append(char)
        elif ord(char) < 0x100:
            out.append(f"\\x{ord(char):02x}")
        else:
            out.append(f"\\u{ord(char):04x}")
    return "".join(out)


def name_problem(value: str) -> str | None:
    """Why `value` is not an acceptable name (None when it is; check `clean_name`'s result)."""
    text = unicodedata.normalize("NFC", value).strip()
    if not text:
        return "must not be empty"
    bad = sorted({c for c in text if _bad_char(c)})
    if bad:
        shown = ", ".join(escaped(c) for c in bad)
        return f"'{escaped(text)}' holds control character(s) {shown}"
    if len(text) > MAX_NAME_CHARS:
        return f"is {len(text):,} characters long, more than {MAX_NAME_CHARS}"
    return None


def clean_name(value: str, what: str = "name") -> str:
    """`value` in NFC without surrounding whitespace; ValueError (naming `what`) when it is
    not an acceptable name."""
    problem = name_problem(value)
    if problem is not None:
        raise ValueError(f"{what} {problem}")
    return unicodedata.normalize("NFC", value).strip()


def note_problem(text: str) -> str | None:
    """Why `text` is not an acceptable note (tabs and newlines are fine); None when it is."""
    bad = sorted({c for c in text.replace("\r\n", "\n") if _bad_char(c, "\t\n")})
    if bad:
        return f"holds control character(s) {', '.join(escaped(c) for c in bad)}"
    if len(text) > MAX_NOTE_CHARS:
        return f"is {len(text):,} characters long, more than {MAX_NOTE_CHARS:,}"
    return None


def clean_note(text: str) -> str:
    """A note in NFC with CRLF as LF and the control characters it may not hold removed
    (for text typed in a front end, where refusing would lose what was typed)."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n"))
    return "".join(c for c in text if not _bad_char(c, "\t\n"))[:MAX_NOTE_CHARS]


def printable(text: object, *, multiline: bool = False) -> str:
    """Stored text made safe to print on a terminal: every control character (ESC, BEL, NUL,
    C1, …), line separator and bidi override becomes a visible escape; `multiline` keeps
    newlines and tabs. The one function every front end prints names and other stored text
    through."""
    value = text if isinstance(text, str) else str(text)
    return escaped(value, "\t\n" if multiline else "")


__all__ = [
    "BIDI_CONTROLS",
    "MAX_NAME_CHARS",
    "MAX_NOTE_CHARS",
    "clean_name",
    "clean_note",
    "escaped",
    "name_problem",
    "note_problem",
    "printable",
]
