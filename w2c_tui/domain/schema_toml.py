"""Label schemas written by users in TOML, checked once with errors naming file:line:field.

    name = "tone"                 # a name (domain.names rules); not a built-in's
    title = "Tone of the reply"
    unit = "response"             # item | response | critictool-prediction
    version = 1
    blind_hidden = ["gold"]       # fields kept back while the blind questions are open

    [[questions]]
    name = "polite"
    kind = "nominal"              # nominal | ordinal | text
    options = ["yes", "no"]       # or tables: {value = "yes", title = "Yes", key = "y"}

    [[questions]]
    name = "how_polite"
    kind = "ordinal"
    level = "ordinal"             # nominal | ordinal | interval (default: the kind's own)
    options = ["1", "2", "3"]
    when = {polite = "yes"}       # asked only when an earlier answer is one of these
    after_blind = true            # asked after the blind questions (and the reveal)
    required = false              # the label is complete without it (it may be skipped)

A question of a critictool-prediction schema may also be asked by the unit's facts:
`when_unit = {source = "external"}` (`schemas.UNIT_FACTS`; docs/schemas.md).
tomllib gives no positions, so the line of a field is found in the text: the question's
`[[questions]]` header and the `key =` line under it (the header when the key is not there).
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from w2c_tui.domain.errors import InputError
from w2c_tui.domain.names import name_problem
from w2c_tui.domain.schemas import (
    BLINDABLE_FIELDS,
    MAX_OPTIONS,
    UNIT_FACTS,
    Condition,
    LabelSchema,
    Level,
    Option,
    Question,
    QuestionKind,
    UnitKind,
)

SCHEMA_KEYS = frozenset(
    {"name", "title", "description", "unit", "version", "blind_hidden", "questions"}
)
QUESTION_KEYS = frozenset(
    {"name", "title", "kind", "level", "options", "when", "after_blind", "required", "when_unit"}
)
OPTION_KEYS = frozenset({"value", "title", "key", "implies"})
QUESTION_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
"""Question names are identifiers: they are CSV column names and JSON keys."""
LEVELS_OF_KIND = {
    QuestionKind.NOMINAL: (Level.NOMINAL,),
    QuestionKind.ORDINAL: (Level.ORDINAL, Level.INTERVAL, Level.NOMINAL),
}
CSV_COLUMNS = frozenset({"annotator", "dataset", "item", "uuid", "item_uuid", "response"})
"""Columns of the label CSV (`io.schema_label_file`): no question may take these names."""
RESERVED_KEYS = frozenset("ubnpjkq?/")
"""Keys the labelling screen keeps for itself (undo, blind, move, quit, help, filter)."""


def line_of(text: str, field: str) -> int | None:
    """The 1-based line of the dotted `field` (`name`, `questions[2].kind`) in the TOML text,
    or None when it cannot be told."""
    lines = text.splitlines()
    match = re.match(r"^questions\[(\d+)\](?:\.(\w+))?", field)
    if match is None:
        key = field.split(".")[0].split("[")[0]
        for number, line in enumerate(lines, 1):
            if line.lstrip().startswith("["):
                break
            if re.match(rf"^\s*{re.escape(key)}\s*=", line):
                return number
        return None
    index, key = int(match.group(1)), match.group(2)
    headers = [
        n for n, line in enumerate(lines, 1) if re.match(r"^\s*\[\[\s*questions\s*\]\]", line)
    ]
    if index >= len(headers):
        return None
    start = headers[index]
    if key is None:
        return start
    for number in range(start + 1, len(lines) + 1):
        line = lines[number - 1]
        if re.match(r"^\s*\[", line):
            break
        if re.match(rf"^\s*{re.escape(key)}\s*=", line):
            return number
    return start


class _Reader:
    """Checks one document, raising InputError at the first problem."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text

    def fail(self, field: str, message: str) -> InputError:
        return InputError(self.path, message, line_of(self.text, field), field)

    def string(
        self, table: dict[str, Any], key: str, where: str, default: str | None = None
    ) -> str:
        value = table.get(key, default)
        if value is None:
            raise self.fail(f"{where}{key}", "is required")
        if not isinstance(value, str):
            raise self.fail(f"{where}{key}", f"must be text, got {type(value).__name__}")
        return value.strip()

    def unknown(self, table: dict[str, Any], allowed: frozenset[str], where: str) -> None:
        extra = sorted(set(table) - allowed)
        if extra:
            known = ", ".join(sorted(allowed))
            raise self.fail(f"{where}{extra[0]}", f"unknown key (known: {known})")

    def schema(self, data: dict[str, Any]) -> LabelSchema:
        self.unknown(data, SCHEMA_KEYS, "")
        name = self.string(data, "name", "")
        problem = name_problem(name)
        if problem is not None:
            raise self.fail("name", f"the name {problem}")
        unit_text = self.string(data, "unit", "")
        try:
            unit = UnitKind(unit_text)
        except ValueError:
            known = ", ".join(u.value for u in UnitKind)
            raise self.fail("unit", f"{unit_text!r} is not one of {known}") from None
        version = data.get("version", 1)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise self.fail("version", "must be a whole number ≥ 1")
        hidden = data.get("blind_hidden", [])
        if not isinstance(hidden, list) or not all(isinstance(h, str) for h in hidden):
            raise self.fail("blind_hidden", "must be a list of field names")
        for item in hidden:
            if item not in BLINDABLE_FIELDS:
                known = ", ".join(sorted(BLINDABLE_FIELDS))
                raise self.fail("blind_hidden", f"unknown field {item!r} (known: {known})")
        raw = data.get("questions")
        if not isinstance(raw, list) or not raw:
            raise self.fail("questions", "a schema needs at least one [[questions]] table")
        questions: list[Question] = []
        for index, table in enumerate(raw):
            if not isinstance(table, dict):
                raise self.fail(f"questions[{index}]", "must be a table")
            questions.append(self.question(table, index, questions, unit))
        self.check_implied(questions)
        return LabelSchema(
            name=name,
            title=self.string(data, "title", "", default=name),
            description=self.string(data, "description", "", default=""),
            unit=unit,
            questions=tuple(questions),
            blind_hidden=tuple(dict.fromkeys(hidden)),
            version=version,
        )

    def check_implied(self, questions: list[Question]) -> None:
        """An option implies answers to later questions, each one of that question's options."""
        for index, question in enumerate(questions):
            later = {q.name: q for q in questions[index + 1 :]}
            for option in question.options:
                for name, value in option.implies:
                    field = f"questions[{index}].options"
                    target = later.get(name)
                    if target is None:
                        raise self.fail(field, f"option {option.value!r} implies {name!r}, "
                                        "which is not a later question")  # fmt: skip
                    if target.option(value) is None:
                        raise self.fail(field, f"option {option.value!r} implies {value!r}, "
                                        f"which is not an option of {name!r}")  # fmt: skip

    def question(
        self, table: dict[str, Any], index: int, earlier: list[Question], unit: UnitKind
    ) -> Question:
        where = f"questions[{index}]."
        self.unknown(table, QUESTION_KEYS, where)
        name = self.string(table, "name", where)
        if not QUESTION_NAME.match(name):
            raise self.fail(
                f"{where}name", f"{name!r} must be letters, digits and _ (an identifier)"
            )
        if name in CSV_COLUMNS:
            raise self.fail(f"{where}name", f"{name!r} is a column of the label CSV")
        if any(q.name == name for q in earlier):
            raise self.fail(f"{where}name", f"a second question called {name!r}")
        kind_text = self.string(table, "kind", where, default="nominal")
        try:
            kind = QuestionKind(kind_text)
        except ValueError:
            raise self.fail(
                f"{where}kind", f"{kind_text!r} is not nominal, ordinal or text"
            ) from None
        options = self.options(table.get("options"), kind, where)
        level: Level | None = None
        if kind is QuestionKind.TEXT:
            if "level" in table:
                raise self.fail(f"{where}level", "a text question has no level (no agreement)")
        else:
            level_text = self.string(table, "level", where, default=kind.value)
            if level_text not in [lv.value for lv in LEVELS_OF_KIND[kind]]:
                allowed = ", ".join(lv.value for lv in LEVELS_OF_KIND[kind])
                raise self.fail(
                    f"{where}level", f"the level of a {kind.value} question is {allowed}"
                )
            level = Level(level_text)
        after = table.get("after_blind", False)
        if not isinstance(after, bool):
            raise self.fail(f"{where}after_blind", "must be true or false")
        required = table.get("required", True)
        if not isinstance(required, bool):
            raise self.fail(f"{where}required", "must be true or false")
        return Question(
            name=name,
            title=self.string(table, "title", where, default=name),
            kind=kind,
            level=level,
            options=options,
            when=self.condition(table.get("when"), where, earlier),
            after_blind=after,
            required=required,
            when_unit=self.unit_conditions(table.get("when_unit"), where, unit),
        )

    def unit_conditions(self, raw: Any, where: str, unit: UnitKind) -> tuple[Condition, ...]:
        field = f"{where}when_unit"
        if raw is None:
            return ()
        facts = UNIT_FACTS.get(unit, {})
        if not facts:
            raise self.fail(field, f"a {unit.value} unit has no facts to ask on")
        if not isinstance(raw, dict) or not raw:
            raise self.fail(field, 'must name facts of the unit: when_unit = {fact = "value"}')
        out = []
        for name, values in raw.items():
            if name not in facts:
                raise self.fail(field, f"{name!r} is not a fact of a {unit.value} unit: "
                                f"{', '.join(facts)}")  # fmt: skip
            listed = [values] if isinstance(values, str) else values
            if not isinstance(listed, list) or not listed:
                raise self.fail(field, "the value(s) must be text or a list of text")
            for value in listed:
                if value not in facts[name]:
                    raise self.fail(field, f"{value!r} is not a value of {name!r}: "
                                    f"{', '.join(facts[name])}")  # fmt: skip
            out.append(Condition(question=name, values=tuple(listed)))
        return tuple(out)

    def options(self, raw: Any, kind: QuestionKind, where: str) -> tuple[Option, ...]:
        field = f"{where}options"
        if kind is QuestionKind.TEXT:
            if raw not in (None, []):
                raise self.fail(field, "a text question has no options")
            return ()
        if not isinstance(raw, list) or len(raw) < 2:
            raise self.fail(field, "a nominal or ordinal question needs at least 2 options")
        out: list[Option] = []
        for index, entry in enumerate(raw):
            if isinstance(entry, str | int) and not isinstance(entry, bool):
                entry = {"value": str(entry)}
            if not isinstance(entry, dict):
                raise self.fail(field, f"option {index + 1} must be text or a table")
            self.unknown(entry, OPTION_KEYS, f"{field}[{index}].")
            value = entry.get("value")
            if isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            if not isinstance(value, str) or not value.strip():
                raise self.fail(field, f"option {index + 1} needs a value (text)")
            value = value.strip()
            problem = name_problem(value)
            if problem is not None:
                raise self.fail(field, f"option {index + 1}: the value {problem}")
            default_key = str(index + 1) if index < MAX_OPTIONS else ""
            key = entry.get("key", default_key)
            if not isinstance(key, str) or len(key) != 1 or key in RESERVED_KEYS:
                raise self.fail(
                    field,
                    f"option {value!r}: key must be one character other than "
                    f"{' '.join(sorted(RESERVED_KEYS))} (options past {MAX_OPTIONS} need keys)",
                )
            title = entry.get("title", value)
            if not isinstance(title, str):
                raise self.fail(field, f"option {value!r}: title must be text")
            implies = entry.get("implies", {})
            if not isinstance(implies, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in implies.items()
            ):
                raise self.fail(field, f'option {value!r}: implies = {{question = "value"}}')
            out.append(
                Option(
                    value=value,
                    title=title.strip() or value,
                    key=key,
                    implies=tuple(implies.items()),
                )
            )
        for name, picked in (("value", [o.value for o in out]), ("key", [o.key for o in out])):
            twice = sorted({v for v in picked if picked.count(v) > 1})
            if twice:
                raise self.fail(field, f"two options with the {name} {twice[0]!r}")
        return tuple(out)

    def condition(self, raw: Any, where: str, earlier: list[Question]) -> Condition | None:
        field = f"{where}when"
        if raw is None:
            return None
        if not isinstance(raw, dict) or len(raw) != 1:
            raise self.fail(field, 'must name one earlier question: when = {question = "value"}')
        ((name, values),) = raw.items()
        if isinstance(values, str):
            values = [values]
        if (
            not isinstance(values, list)
            or not values
            or not all(isinstance(v, str) for v in values)
        ):
            raise self.fail(field, "the answer(s) must be text or a list of text")
        before = next((q for q in earlier if q.name == name), None)
        if before is None:
            raise self.fail(field, f"{name!r} is not an earlier question")
        if before.kind is QuestionKind.TEXT:
            raise self.fail(field, f"{name!r} is a text question (no answers to reveal on)")
        for value in values:
            if before.option(value) is None:
                raise self.fail(field, f"{value!r} is not an option of {name!r}")
        return Condition(question=name, values=tuple(values))


def parse_schema(text: str, path: str = "<schema>") -> LabelSchema:
    """The schema the TOML `text` (read from `path`) describes; InputError naming
    file:line:field when it is not a valid schema."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"line (\d+)", str(error))
        line = int(match.group(1)) if match else None
        raise InputError(path, f"not valid TOML: {error}", line) from None
    return _Reader(path, text).schema(data)
