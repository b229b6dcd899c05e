"""`w2c prompts export|show`: what the model saw, for every official family, on the real items."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.services import Services

runner = CliRunner()

GOLDEN = {
    "when2call-default": ("ea35e1f24f738b39", "94bd9d43e90f1150"),
    "when2call-llama3_2": ("59a388011e1e7910", "df87d7e71e71a388"),
    "when2call-qwen2_5": ("c1bc4fa9f8bd6b3e", "94bd9d43e90f1150"),
    "when2call-xlam": ("b87f05acf8d19033", "5d3d1bb306b98419"),
    "when2call-hermes": ("a61d82a544eca5b1", "4b7bc6d9fc11225e"),
    "when2call-functionary": ("fdca84430fd005d8", "f8025ffaab49905a"),
    "when2call-nemotron": ("f484aae5803faa53", "30f2751e7e9fe108"),
}


def h16(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@pytest.fixture
def judge_db(services: Services, judge_file: Path) -> Services:
    services.imports.import_path(judge_file)
    return services


@pytest.mark.parametrize("family", sorted(GOLDEN))
def test_export_gives_the_golden_hashes(judge_db: Services, family: str, tmp_path: Path) -> None:
    out = tmp_path / f"{family}.jsonl"
    result = runner.invoke(
        app, ["--db", judge_db.url, "prompts", "export", "--template", family, "-o", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    assert "wrote 300 prompt(s)" in result.stderr
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert len(records) == 300
    assert h16("\x00".join(r["prompt"] for r in records)) == GOLDEN[family][0]
    assert h16("\x00".join("\x01".join(r["choices"]) for r in records)) == GOLDEN[family][1]
    for r in records:  # what is scored: the prompt's trailing whitespace moved, nothing lost
        assert r["context"] == r["prompt"].rstrip()
        for choice, continuation in zip(r["choices"], r["continuations"], strict=True):
            assert r["context"] + continuation == r["prompt"] + choice
        assert r["options"] == ["direct", "tool_call", "request_for_info", "cannot_answer"]


def test_show_prints_one_item_readably(judge_db: Services, judge_file: Path) -> None:
    uuid = json.loads(judge_file.read_text("utf-8").splitlines()[0])["uuid"]
    args = ["--db", judge_db.url, "prompts", "show", uuid, "--template", "when2call-llama3_2"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith(f"uuid {uuid} · template when2call-llama3_2")
    assert "ends with '\\n\\n', moved into every continuation" in out
    assert "<|start_header_id|>assistant<|end_header_id|>" in out
    assert "[tool_call] [" in out and "scored continuation: '\\n\\n" in out
    as_json = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert as_json["uuid"] == uuid and len(as_json["continuations"]) == 4


def test_bad_template_and_chat_without_tokenizer_exit_2(judge_db: Services) -> None:
    base = ["--db", judge_db.url, "prompts", "export", "--template"]
    result = runner.invoke(app, [*base, "when2call-llama"])
    assert result.exit_code == 2 and "unknown template 'when2call-llama'" in result.stderr
    assert "when2call-functionary" in result.stderr  # the families are named
    result = runner.invoke(app, [*base, "chat"])
    assert result.exit_code == 2 and "--tokenizer" in result.stderr


def test_output_never_overwrites_the_open_database(judge_db: Services, tmp_path: Path) -> None:
    db_file = judge_db.database_file()
    if db_file is None:
        pytest.skip("a server database is no file that -o could overwrite")
    before = Path(db_file).read_bytes()[:16]
    args = ["--db", judge_db.url, "prompts", "export", "--template", "when2call-default"]
    result = runner.invoke(app, [*args, "-o", db_file])
    assert result.exit_code == 2 and "it is the open database" in result.stderr
    assert Path(db_file).read_bytes()[:16] == before == b"SQLite format 3\x00"
    still = judge_db.prompts.export("when2call-default", "when2call_test_llm_judge")
    assert len(list(still)) == 300
