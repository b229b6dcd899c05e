"""Labels the database never took, written down when the TUI closes without them.

An annotator who discards an unsaved label to quit, or whose session crashes while a label is
still unsaved, finds each such label in `annotations/logs/unsaved-labels-<UTC time>.log`
(beside the crash logs; W2C_ANNOTATIONS_DIR moves it; the temporary folder when that cannot be
written): who, which dataset, which item (uuid) and unit, which label, when it was entered and
why it was not saved, one label per line, so it can be entered again.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from w2c_tui.paths import annotations_dir


@dataclass(frozen=True, slots=True)
class LostLabel:
    """One label the annotator entered that the database did not take."""

    annotator: str
    dataset: str
    uuid: str
    unit: str
    """"item QA", or the response: "response 12 (model acme-7b)"."""
    label: str
    """The label's value, or "(cleared)" for a withdrawal."""
    entered_at: datetime
    reason: str


def _line(lost: LostLabel) -> str:
    fields = (
        ("time", lost.entered_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")),
        ("annotator", lost.annotator),
        ("dataset", lost.dataset),
        ("uuid", lost.uuid),
        ("unit", lost.unit),
        ("label", lost.label),
        ("not saved because", lost.reason),
    )
    return "\t".join(f"{name}: {' '.join(str(value).split())}" for name, value in fields)


def write_lost_labels(labels: Sequence[LostLabel], why: str) -> Path | None:
    """Write `labels` to a new log (`why`: what ended the session); its path, or None when no
    folder could take it (or there was nothing to write)."""
    if not labels:
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    text = (
        f"# w2c-tui closed ({why}) with {len(labels)} label(s) the database did not take.\n"
        "# Enter them again (w2c --annotator NAME, g jumps to the uuid); one label per line.\n"
        + "".join(_line(lost) + "\n" for lost in labels)
    )
    for folder in (annotations_dir() / "logs", Path(tempfile.gettempdir())):
        path = folder / f"unsaved-labels-{stamp}.log"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError:
            continue
        return path
    return None


@dataclass
class LostLog:
    """What one session wrote to unsaved-labels logs: how many labels, the files, whether any
    was lost without the annotator choosing it (the exit code says so), and whether the
    terminal has been told."""

    count: int = 0
    logs: list[Path | None] = field(default_factory=list)
    unasked: bool = False
    told: bool = False

    def write(self, labels: Sequence[LostLabel], why: str, *, unasked: bool = False) -> None:
        """Write `labels` to a new log; `unasked`: the annotator did not choose to discard
        them."""
        self.count += len(labels)
        self.logs.append(write_lost_labels(labels, why))
        self.unasked = self.unasked or unasked

    def message(self) -> str:
        """One line for the terminal: how many labels were not saved and where they are."""
        where = ", ".join(str(p) for p in self.logs if p) or "no log could be written"
        return f"{self.count} label(s) were not saved; each is listed in {where}"
