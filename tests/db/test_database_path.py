"""`--db` takes a plain file path as well as a URL: the path names exactly that file, whatever
characters its name holds (`#`, `?`, `%` are not URL syntax in a path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from w2c_tui.db.engine import as_database_url
from w2c_tui.services import open_services


@pytest.mark.parametrize("name", ["plain.db", "ann#1.db", "x%41.db", "what?.db", "a b.db"])
def test_a_path_opens_exactly_that_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    services = open_services(str(path))
    try:
        services.imports.import_demo()
        assert services.datasets.all()
    finally:
        services.close()
    assert path.is_file()
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".db") == [name]
    again = open_services(f"sqlite:///{path}" if name == "plain.db" else as_database_url(str(path)))
    try:
        assert again.datasets.all()
    finally:
        again.close()


def test_urls_pass_unchanged() -> None:
    for url in ("sqlite:///a.db", "sqlite://", "postgresql+psycopg://u@h/db"):
        assert as_database_url(url) == url
