"""Options with a fixed set of values are Typer choices: a bad value exits 2 naming the option
and the allowed values, never a traceback; the CLI's enums mirror the core's."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from w2c_tui.cli import app, choices
from w2c_tui.io.importers import KINDS
from w2c_tui.runs.local.loading import DTYPES
from w2c_tui.services.metrics import Against
from w2c_tui.services.readings import UnitKind
from w2c_tui.stats.metrics import InvalidMode

runner = CliRunner()

CASES = [
    (["run", "start", "--method", "bogus", "--backend", "openai", "--model", "m"], "--method"),
    (["run", "start", "--method", "generate", "--backend", "vllm", "--model", "m"], "--backend"),
    (
        [
            "run",
            "start",
            "--method",
            "generate",
            "--backend",
            "openai",
            "--model",
            "m",
            "--gold",
            "bogus",
        ],
        "--gold",
    ),
    (
        [
            "run",
            "start",
            "--method",
            "generate",
            "--backend",
            "openai",
            "--model",
            "m",
            "--tools",
            "3",
        ],
        "--tools",
    ),
    (
        [
            "run",
            "start",
            "--method",
            "generate",
            "--backend",
            "transformers",
            "--model",
            "m",
            "--dtype",
            "int8",
        ],
        "--dtype",
    ),
    (["items", "list", "--gold", "maybe"], "--gold"),
    (["items", "list", "--tools", "many"], "--tools"),
    (["labels", "export", "--format", "xml"], "--format"),
    (["verdicts", "export", "--run", "1", "--format", "xml"], "--format"),
    (["report", "--format", "pdf"], "--format"),
    (["report", "--units", "pairs"], "--units"),
    (["report", "--invalid", "skip"], "--invalid"),
    (["agreement", "--units", "pairs"], "--units"),
    (["agreement", "--invalid", "skip"], "--invalid"),
    (["metrics", "--against", "judges"], "--against"),
    (["metrics", "--invalid", "skip"], "--invalid"),
    (["import", "x.jsonl", "--kind", "csv"], "--kind"),
]


@pytest.mark.parametrize(("args", "option"), CASES, ids=[" ".join(c[0][:3]) for c in CASES])
def test_a_bad_value_exits_2_naming_option_and_choices(
    db_url: str, args: list[str], option: str
) -> None:
    result = runner.invoke(app, ["--db", db_url, *args])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    message = " ".join(result.stderr.split())
    assert f"Invalid value for '{option}'" in message
    assert "is not one of" in message or "is not a valid" in message


def test_the_message_lists_the_allowed_values(db_url: str) -> None:
    result = runner.invoke(
        app,
        [
            "--db",
            db_url,
            "run",
            "start",
            "--method",
            "bogus",
            "--backend",
            "openai",
            "--model",
            "m",
        ],
    )
    message = " ".join(result.stderr.split())
    for value in ("mcq_logprob", "generate", "judge", "mcq_index"):
        assert value in message


def test_cli_enums_mirror_the_core() -> None:
    assert [k.value for k in choices.ImportKind] == [*KINDS, "critictool"]
    assert [d.value for d in choices.Dtype] == list(DTYPES)
    assert {u.value for u in choices.Units} == {u.value for u in UnitKind}
    assert {i.value for i in choices.InvalidAs} == {i.value for i in InvalidMode}
    assert {a.value for a in choices.Against} == {a.value for a in Against}
