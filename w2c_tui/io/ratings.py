"""Long-format ratings tables (CSV or JSONL: item, rater, label) for agreement on any data."""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.names import clean_name, name_problem
from w2c_tui.io.csvcell import csv_rows
from w2c_tui.io.jsonl import iter_objects, read_bytes
from w2c_tui.io.validate import type_name

FIELDS = ("item", "rater", "label")


@dataclass(frozen=True)
class RatingCodes:
    """A ratings file as integer codes, one array entry per row (no object per row):
    `unit[i]`, `rater[i]` index `units`, `raters` (first appearance), `label[i]` indexes
    `labels` (the distinct labels, sorted) or is -1 for a missing label; `line[i]` is where
    row i ends in the file."""

    units: tuple[str, ...]
    raters: tuple[str, ...]
    labels: tuple[str, ...]
    unit: npt.NDArray[np.int64]
    rater: npt.NDArray[np.int64]
    label: npt.NDArray[np.int64]
    line: npt.NDArray[np.int64]

    def rows(self) -> list[tuple[str, str, str | None]]:
        """(item, rater, label) per row, in file order."""
        return [
            (self.units[u], self.raters[r], self.labels[k] if k >= 0 else None)
            for u, r, k in zip(
                self.unit.tolist(), self.rater.tolist(), self.label.tolist(), strict=True
            )
        ]


class _Coder:
    """Turns rows into codes as they are read: a dict lookup per value, no row objects."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.units: dict[str, int] = {}
        self.raters: dict[str, int] = {}
        self.rater_names: dict[str, int] = {}  # as written → code (each name checked once)
        self.labels: dict[str, int] = {}
        self.unit = array("q")
        self.rater = array("q")
        self.label = array("q")
        self.line = array("q")

    def add(self, line: int, item: str, rater: str, label: str | None) -> None:
        units, labels = self.units, self.labels
        self.unit.append(units.setdefault(item, len(units)))
        code = self.rater_names.get(rater)
        if code is None:
            name = _rater(self.path, rater, line)
            code = self.raters.setdefault(name, len(self.raters))
            self.rater_names[rater] = code
        self.rater.append(code)
        self.label.append(-1 if label is None else labels.setdefault(label, len(labels)))
        self.line.append(line)

    def done(self) -> RatingCodes:
        if not self.unit:
            raise InputError(str(self.path), "no ratings in the file")
        unit = np.frombuffer(self.unit, dtype=np.int64)
        rater = np.frombuffer(self.rater, dtype=np.int64)
        line = np.frombuffer(self.line, dtype=np.int64)
        self._refuse_twice(unit, rater, line)
        seen = list(self.labels)  # first appearance; the codes follow the sorted names
        order = sorted(range(len(seen)), key=lambda k: seen[k])
        remap = np.empty(len(seen) + 1, dtype=np.int64)
        remap[-1] = -1  # index -1: a missing label stays missing
        for new, old in enumerate(order):
            remap[old] = new
        label = remap[np.frombuffer(self.label, dtype=np.int64)]
        return RatingCodes(
            units=tuple(self.units),
            raters=tuple(self.raters),
            labels=tuple(seen[k] for k in order),
            unit=unit,
            rater=rater,
            label=label,
            line=line,
        )

    def _refuse_twice(
        self, unit: npt.NDArray[np.int64], rater: npt.NDArray[np.int64], line: npt.NDArray[np.int64]
    ) -> None:
        """A (item, rater) pair given twice: the error at its second row nearest the top."""
        key = unit * len(self.raters) + rater
        order = np.argsort(key, kind="stable")
        ordered = key[order]
        again = np.flatnonzero(ordered[1:] == ordered[:-1]) + 1
        if not again.size:
            return
        rows = order[again]
        second = int(rows[np.argmin(line[rows])])
        first = int(order[np.searchsorted(ordered, key[second])])
        items, raters = list(self.units), list(self.raters)
        raise InputError(
            str(self.path),
            f"rater {raters[int(rater[second])]!r} rates item {items[int(unit[second])]!r} "
            f"twice (first on line {int(line[first])})",
            line=int(line[second]),
        )


def read_rating_codes(path: Path) -> RatingCodes:
    """The file as codes (`RatingCodes`); an empty label is missing. CSV by suffix, else
    JSONL.

    Any category names are allowed. A (item, rater) pair given twice is an error, as is a
    missing column or a value that is not a string (numbers are accepted and turned to text).
    """
    data = read_bytes(path)
    coder = _Coder(path)
    if path.suffix.lower() in {".csv", ".tsv"}:
        _csv(path, data, coder)
    else:
        _jsonl(path, data, coder)
    return coder.done()


def read_ratings(path: Path) -> list[tuple[str, str, str | None]]:
    """(item, rater, label) rows in file order (see read_rating_codes)."""
    return read_rating_codes(path).rows()


def _csv(path: Path, data: bytes, coder: _Coder) -> None:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(str(path), f"not valid UTF-8: {error.reason}") from error
    dialect = "excel-tab" if path.suffix.lower() == ".tsv" else "excel"
    records = csv_rows(path, text, dialect)
    first = next(records, None)
    header = first[1] if first is not None else []
    missing = [f for f in FIELDS if f not in header]
    if missing:
        raise InputError(
            str(path),
            f"missing column(s) {', '.join(missing)} (the header must name item, rater, label)",
            line=1,
        )
    width = len(header)
    at_item, at_rater, at_label = (header.index(f) for f in FIELDS)
    add = coder.add
    for line, cells in records:
        if not cells:
            continue
        if len(cells) != width:
            raise InputError(
                str(path),
                f"the row has {len(cells)} cell(s) but the header has {width}: a ragged row "
                "(a stray or missing separator?)",
                line=line,
            )
        item, rater, label = (
            cells[at_item].strip(),
            cells[at_rater].strip(),
            cells[at_label].strip(),
        )
        if not item:
            raise InputError(str(path), "must not be empty", line=line, field="item")
        if not rater:
            raise InputError(str(path), "must not be empty", line=line, field="rater")
        add(line, item, rater, label or None)


def _rater(path: Path, name: str, line: int) -> str:
    """A rater name checked like every name (`domain.names`)."""
    problem = name_problem(name)
    if problem is not None:
        raise InputError(str(path), f"the name {problem}", line=line, field="rater")
    return clean_name(name)


def _jsonl(path: Path, data: bytes, coder: _Coder) -> None:
    for line, obj in iter_objects(path, data):
        values: list[str | None] = []
        for name in FIELDS:
            if name not in obj:
                if name == "label":
                    values.append(None)
                    continue
                raise InputError(str(path), "missing", line=line, field=name)
            value = obj[name]
            if value is None or value == "":
                if name != "label":
                    raise InputError(str(path), "must not be empty", line=line, field=name)
                values.append(None)
            elif isinstance(value, str | int) and not isinstance(value, bool):
                values.append(str(value))
            else:
                raise InputError(
                    str(path), f"expected a string, got {type_name(value)}", line=line, field=name
                )
        item, rater, label = values
        assert item is not None and rater is not None
        coder.add(line, item, rater, label)
