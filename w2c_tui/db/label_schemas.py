"""Users' label schemas in the store (`label_schema`), next to the built-ins.

A schema is kept as the TOML it was added from (read back through `domain.schema_toml`, so a
stored schema is checked like a new one) and as JSON (for other tools). Re-adding the same
schema changes nothing; a changed schema replaces the stored one only when it has no labels
yet or keeps every question and option of the old one (`LabelSchema.extends`).
"""

from __future__ import annotations

from sqlalchemy import Engine, func
from sqlmodel import Session, col, select

from w2c_tui.db.tables import LabelRow, LabelSchemaRow
from w2c_tui.db.writes import retry_write, write_session
from w2c_tui.domain.errors import InputError, NotFoundError
from w2c_tui.domain.schema_builtins import BUILTIN_SCHEMAS
from w2c_tui.domain.schema_labels import SchemaAdded
from w2c_tui.domain.schema_toml import parse_schema
from w2c_tui.domain.schemas import LabelSchema


def _stored(row: LabelSchemaRow) -> LabelSchema:
    return parse_schema(row.toml, f"label_schema {row.name!r}")


class SchemaStore:
    """Adds, lists and finds label schemas (the built-ins first)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, toml: str, path: str) -> SchemaAdded:
        """Store the schema the TOML text describes (InputError when it is not valid, takes a
        built-in's name, or changes a schema with labels other than by adding)."""
        schema = parse_schema(toml, path)
        if schema.name in BUILTIN_SCHEMAS:
            raise InputError(path, f"{schema.name!r} is a built-in schema's name", 1, "name")

        def write() -> SchemaAdded:
            with write_session(self.engine) as session, session.begin():
                row = session.exec(
                    select(LabelSchemaRow).where(col(LabelSchemaRow.name) == schema.name)
                ).first()
                if row is None:
                    session.add(
                        LabelSchemaRow(name=schema.name, toml=toml, parsed_json=schema.to_json())
                    )
                    return SchemaAdded(schema, "added")
                old = _stored(row)
                if old == schema:
                    return SchemaAdded(schema, "unchanged")
                if self._n_labels(session, schema.name):
                    why = schema.extends(old)
                    if why is not None:
                        raise InputError(
                            path,
                            f"schema {schema.name!r} has labels and {why}: a changed schema "
                            "may only add questions and options (or take a new name)",
                        )
                row.toml, row.parsed_json = toml, schema.to_json()
                session.add(row)
                return SchemaAdded(schema, "updated")

        return retry_write(write)

    @staticmethod
    def _n_labels(session: Session, name: str) -> int:
        found = session.exec(
            select(func.count()).select_from(LabelRow).where(col(LabelRow.schema_name) == name)
        ).one()
        return int(found)

    def all(self) -> list[LabelSchema]:
        """The built-in schemas, then users' schemas by name."""
        with Session(self.engine) as session:
            rows = session.exec(select(LabelSchemaRow).order_by(col(LabelSchemaRow.name))).all()
            return [*BUILTIN_SCHEMAS.values(), *(_stored(r) for r in rows)]

    def get(self, name: str) -> LabelSchema:
        """The schema called `name` (NotFoundError naming the ones there are)."""
        if name in BUILTIN_SCHEMAS:
            return BUILTIN_SCHEMAS[name]
        with Session(self.engine) as session:
            row = session.exec(
                select(LabelSchemaRow).where(col(LabelSchemaRow.name) == name)
            ).first()
            if row is not None:
                return _stored(row)
        known = ", ".join(s.name for s in self.all())
        raise NotFoundError(f"no label schema named {name!r} (schemas: {known})")

    def n_labels(self, name: str) -> int:
        """How many answers (current or not) the schema has."""
        with Session(self.engine) as session:
            return self._n_labels(session, name)
