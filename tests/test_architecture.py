"""Layering holds: contracts pass, and the light parts do not drag in heavy imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dbfixtures import unavailable

REPO = Path(__file__).resolve().parents[1]


def loaded_after(statement: str, modules: list[str]) -> dict[str, bool]:
    """Which of `modules` are in sys.modules after running `statement` in a fresh Python."""
    code = f"import sys\n{statement}\nprint(','.join(str(m in sys.modules) for m in {modules!r}))"
    out = (
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
        )
        .stdout.strip()
        .splitlines()[-1]
    )
    return dict(zip(modules, (v == "True" for v in out.split(",")), strict=True))


def test_services_do_not_load_textual() -> None:
    assert loaded_after("import w2c_tui.services", ["textual", "torch", "transformers"]) == {
        "textual": False,
        "torch": False,
        "transformers": False,
    }


def test_tui_does_not_load_the_orm_or_models() -> None:
    loaded = loaded_after(
        "import w2c_tui.tui.app", ["sqlmodel", "sqlalchemy", "torch", "transformers", "openai"]
    )
    assert not any(loaded.values()), loaded


def test_help_starts_without_heavy_imports() -> None:
    statement = (
        "from typer.testing import CliRunner\nfrom w2c_tui.cli import app\n"
        "assert CliRunner().invoke(app, ['--help']).exit_code == 0"
    )
    loaded = loaded_after(statement, ["torch", "transformers", "openai", "textual"])
    assert not any(loaded.values()), loaded


def test_import_linter_contracts() -> None:
    linter = Path(sys.executable).parent / "lint-imports"
    if not linter.exists():
        unavailable("import-linter", "it is not installed (pip install -e .[dev])")
    result = subprocess.run([str(linter)], capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr
