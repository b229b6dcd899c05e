"""Label schemas and their labels: add and list schemas, label units, import and export CSV."""

from __future__ import annotations

from pathlib import Path

from w2c_tui.db.store import Store
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.schema_builtins import CRITICTOOL
from w2c_tui.domain.schema_labels import (
    SchemaAdded,
    SchemaImportReport,
    SchemaUnit,
    SchemaUnitRef,
    Unit,
    UnitAnswers,
)
from w2c_tui.domain.schemas import LabelSchema
from w2c_tui.domain.team import Seen
from w2c_tui.io.jsonl import read_bytes
from w2c_tui.io.schema_label_file import answers_csv, answers_jsonl, read_answers


class SchemaService:
    """What the CLI and the labelling screen do with schemas."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def add(self, path: Path) -> SchemaAdded:
        """Add (or update, see `db.label_schemas`) the schema in the TOML file at `path`."""
        data = read_bytes(path)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
            raise InputError(str(path), f"not valid UTF-8: {error.reason}", line) from error
        return self._store.schemas.add(text, str(path))

    def all(self) -> list[LabelSchema]:
        """The built-in schemas, then the users' by name."""
        return self._store.schemas.all()

    def get(self, name: str) -> LabelSchema:
        """The schema called `name` (NotFoundError naming those there are)."""
        return self._store.schemas.get(name)

    def on_screen(self, name: str, where: str = "label") -> LabelSchema:
        """The schema called `name` if the generic labelling screen labels it: every schema
        but `critictool`, whose own screen shows the trajectory its questions are about
        (InputError naming `where`). Every schema's labels are written and read through the
        one store (`label`, `labels import|export --schema`, `agreement --schema`)."""
        schema = self.get(name)
        if schema.name != CRITICTOOL.name:
            return schema
        raise InputError(
            where,
            f"{name!r} is labelled on the CriticTool screen, which shows the trajectory "
            "(w2c tui, then the dataset); `w2c labels import|export --schema` and "
            "`w2c agreement --schema` take it",
        )

    def queue(self, schema: str, dataset: str, annotator: str) -> list[Unit]:
        """The units of `schema`'s kind (items, or responses) assigned to `annotator` on
        `dataset`, in their queue's order (empty: none assigned)."""
        wanted = self.get(schema).unit.has_response
        known = {ref.unit for ref in self.unit_refs(schema, dataset)}
        mine = sorted(self._store.assignments.show(dataset, annotator), key=lambda a: a.order)
        units = [Unit(a.item_id, a.response_id) for a in mine]
        return [u for u in units if (u.response_id is not None) == wanted and u in known]

    def n_labels(self, name: str) -> int:
        """How many answers the schema has recorded (history included)."""
        return self._store.schemas.n_labels(name)

    def unit_refs(self, schema: str, dataset: str) -> list[SchemaUnitRef]:
        """The units of `dataset` that `schema` labels, in item order, named only (ids, uuid,
        the item's random key): what a screen needs to order them, read in one light query."""
        return self._store.schema_reads.unit_refs(self.get(schema), dataset)

    def unit(self, schema: str, unit: Unit) -> SchemaUnit:
        """What the labelling screen shows of one unit."""
        return self._store.schema_reads.unit(self.get(schema), unit)

    def current(self, annotator: str, schema: str, unit: Unit) -> dict[str, str]:
        """The annotator's current answers on `unit`."""
        return self._store.schema_reads.current(annotator, schema, unit)

    def label(
        self,
        annotator: str,
        schema: str,
        unit: Unit,
        answers: dict[str, str | None],
        *,
        seen: Seen | None = None,
        deadline_s: float = 10.0,
    ) -> int:
        """Record the annotator's answers on `unit` (committed when this returns); how many
        answers changed. A busy database is retried until `deadline_s`, then WriteError."""
        return self._store.schema_labels.set_answers(
            annotator, self.get(schema), unit, answers, seen=seen, deadline_s=deadline_s
        )

    def answers(self, schema: str, dataset: str | None = None) -> list[UnitAnswers]:
        """Every rater's current answers of `schema`."""
        self.get(schema)
        return self._store.schema_reads.answers(schema, dataset)

    def import_file(
        self,
        path: Path,
        schema: str,
        dataset: str | None,
        *,
        replace: bool = True,
        dry_run: bool = False,
    ) -> SchemaImportReport:
        """A CSV of answers to `schema`'s questions: the whole file or nothing (file:line:field
        for every refused row). `dataset` defaults to the file's `dataset` column, else the
        store's only dataset. With `replace=False` an annotator's existing answers are kept
        (reported); with `dry_run` the report is made and nothing is written."""
        found = self.get(schema)
        lines = read_answers(path, found)
        named = {line.dataset for line in lines if line.dataset}
        if dataset is None and len(named) > 1:
            raise InputError(str(path), f"rows name several datasets: {', '.join(sorted(named))}")
        if dataset is None and named:
            dataset = next(iter(named))
        if dataset is None:
            names = [d.name for d in self._store.datasets.all()]
            if len(names) != 1:
                raise InputError(str(path), "no dataset column and not exactly one dataset")
            dataset = names[0]
        return self._store.schema_imports.import_lines(
            str(path), found, dataset, lines, replace=replace, dry_run=dry_run
        )

    def annotators_in(self, path: Path, schema: str) -> set[str]:
        """The annotators whose answers the CSV file at `path` holds (checked as on import)."""
        return {line.annotator for line in read_answers(path, self.get(schema))}

    def export(self, schema: str, dataset: str | None = None, fmt: str = "csv") -> str:
        """The current answers of `schema` as the CSV `import_file` reads (`fmt="csv"`) or as
        JSON lines with the same fields (`fmt="jsonl"`)."""
        found = self.get(schema)
        answers = self._store.schema_reads.answers(schema, dataset)
        return answers_csv(found, answers) if fmt == "csv" else answers_jsonl(found, answers)
