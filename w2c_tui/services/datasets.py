"""Datasets: list them with counts, pick the one a command means."""

from __future__ import annotations

from w2c_tui.db.store import Store
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.models import Dataset


class DatasetService:
    """Reads datasets."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def all(self) -> list[Dataset]:
        """Every dataset with item, response and label counts."""
        return self._store.datasets.all()

    def resolve(self, name: str | None) -> str:
        """`name` if given and known; else the only dataset; else an error that says what to do."""
        datasets = self.all()
        names = [d.name for d in datasets]
        if name is not None:
            if name not in names:
                known = ", ".join(names) if names else "none yet"
                raise NotFoundError(f"no dataset named {name!r} (datasets: {known})")
            return name
        if len(names) == 1:
            return names[0]
        if not names:
            raise NotFoundError("the store has no datasets yet: import one with `w2c import FILE`")
        raise NotFoundError(f"several datasets ({', '.join(names)}): say which with --dataset")

    def target_models(self) -> list[str]:
        """Names of the target models known to the store."""
        return self._store.datasets.target_models()
