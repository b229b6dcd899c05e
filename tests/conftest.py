"""Fixtures shared by every test layer: isolated paths, a real store on each backend, the demo."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from dbfixtures import PG_ENV, REQUIRE_ENV, PgServer, unavailable

from w2c_tui.services import Services, open_services

REPO = Path(__file__).resolve().parents[1]
BACKENDS = ("sqlite", "postgresql")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slowest tests first (`@pytest.mark.slow(minutes=N)`): with several workers
    (pytest -n) they start at once and the other tests run beside them."""

    def minutes(item: pytest.Item) -> float:
        marker = item.get_closest_marker("slow")
        return -float(marker.kwargs.get("minutes", 0.5)) if marker else 0.0

    items.sort(key=minutes)


NOT_APPLICABLE = ("no CUDA device", "a server database is no file")
"""Skips that say a test does not apply here (no GPU lent; a file option on a server
database), not that something it needs is missing: the only skips allowed under
W2C_TEST_REQUIRE_ALL (CI)."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """The one gate for every skip, `pytest.importorskip` and a bare `pytest.skip` included:
    where the run must test everything (W2C_TEST_REQUIRE_ALL, set by ./scripts/test under
    CI), a skip for anything missing fails the test and says what was missing."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.skipped and os.environ.get(REQUIRE_ENV) and not hasattr(report, "wasxfail"):
        reason = str(report.longrepr[-1] if isinstance(report.longrepr, tuple) else "")
        if not any(marker in reason for marker in NOT_APPLICABLE):
            report.outcome = "failed"
            report.longrepr = f"skipped where everything must run ({REQUIRE_ENV}): {reason}"


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """A module skipped at import (`pytest.importorskip` at its top) fails under the gate too."""
    if report.skipped and os.environ.get(REQUIRE_ENV):
        reason = str(report.longrepr[-1] if isinstance(report.longrepr, tuple) else "")
        report.outcome = "failed"
        report.longrepr = f"skipped where everything must run ({REQUIRE_ENV}): {reason}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test that uses the database runs on each backend (unless marked sqlite_only)."""
    if "db_backend" in metafunc.fixturenames and not metafunc.definition.get_closest_marker(
        "sqlite_only"
    ):
        metafunc.parametrize("db_backend", BACKENDS)


@pytest.fixture(autouse=True)
def isolated_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test touches the real annotations/, exports/ or the user's config."""
    monkeypatch.setenv("W2C_CONFIG", str(tmp_path / "config" / "config.toml"))
    monkeypatch.setenv("W2C_ANNOTATIONS_DIR", str(tmp_path / "annotations"))
    monkeypatch.setenv("W2C_EXPORTS_DIR", str(tmp_path / "exports"))
    monkeypatch.delenv("W2C_DB", raising=False)
    monkeypatch.delenv("W2C_ANNOTATOR", raising=False)


@pytest.fixture
def db_backend() -> str:
    """The database backend of this test (parametrised by pytest_generate_tests)."""
    return "sqlite"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The PostgreSQL server named by W2C_TEST_PG_URL (./scripts/test starts one)."""
    url = os.environ.get(PG_ENV)
    if not url:
        unavailable(
            "PostgreSQL",
            f"{PG_ENV} is not set (./scripts/test starts a throwaway cluster where PostgreSQL "
            "is installed or can be installed with apt-get as root)",
        )
        raise AssertionError("unreachable")
    server = PgServer(url)
    yield server
    server.close()


def _database(request: pytest.FixtureRequest, tmp_path: Path, *, migrated: bool) -> Iterator[str]:
    if request.getfixturevalue("db_backend") == "sqlite":
        yield f"sqlite:///{tmp_path / 'db' / 'w2c.db'}"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    url = server.fresh(migrated=migrated)
    yield url
    server.drop(url)


@pytest.fixture
def db_url(db_backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of its own for this test: a new SQLite file, or a new PostgreSQL database
    copied from a template migrated once per session."""
    yield from _database(request, tmp_path, migrated=True)


@pytest.fixture
def empty_db_url(db_backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of its own with no tables at all (migration tests)."""
    yield from _database(request, tmp_path, migrated=False)


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """A migrated PostgreSQL database of its own (tests about PostgreSQL alone)."""
    url = pg_server.fresh()
    yield url
    pg_server.drop(url)


@pytest.fixture
def services(db_url: str) -> Iterator[Services]:
    """Services over an empty, migrated database."""
    svc = open_services(db_url)
    yield svc
    svc.close()


@pytest.fixture
def demo(services: Services) -> Services:
    """Services with the bundled demo imported (30 items, 2 models, judge, log-prob)."""
    services.imports.import_demo()
    return services


@pytest.fixture
def shared_data_dir() -> Path:
    """The shared reference data ($W2C_SHARED_DATA, default ../shared/data); skip if absent."""
    folder = Path(os.environ.get("W2C_SHARED_DATA", REPO.parent / "shared" / "data"))
    if not folder.is_dir():
        unavailable("the shared data", f"it is not found at {folder}; set W2C_SHARED_DATA")
    return folder


@pytest.fixture
def judge_file(shared_data_dir: Path) -> Path:
    """The real 300-item When2Call LLM-judge subset."""
    return shared_data_dir / "when2call" / "when2call_test_llm_judge.jsonl"


@pytest.fixture
def api_suite_run(shared_data_dir: Path) -> Path:
    """The third-party API suite's run folder."""
    return shared_data_dir / "api-eval-suite-run"
