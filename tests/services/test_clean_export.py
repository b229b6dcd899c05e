"""The cleaned dataset: byte identity of untouched items, drops and relabels with a changelog."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.labels import Label
from w2c_tui.domain.outcomes import CleanOptions, GoldSource, ItemFormat
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services
from w2c_tui.services.readings import UnitKind

runner = CliRunner()


def w2c(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", db_url, *args])
    return result.exit_code, result.stdout, result.stderr


def _item_id(svc: Services, dataset: str, uuid: str) -> int:
    return svc.review.find(dataset, uuid).id


def _adjudicate(svc: Services, dataset: str, uuid: str, label: Label, note: str) -> None:
    """Two humans disagree on the item in item QA; carol decides."""
    item_id = _item_id(svc, dataset, uuid)
    svc.review.label_item("ann", item_id, Label.REQUEST_FOR_INFO)
    svc.review.label_item("ben", item_id, Label.CANNOT_ANSWER)
    [case] = [c for c in svc.adjudication.queue(dataset, UnitKind.ITEM) if c.uuid == uuid]
    svc.adjudication.decide(case, "carol", label, note)


def test_untouched_real_items_export_byte_for_byte_and_reimport_changes_nothing(
    db_url: str, judge_file: Path, tmp_path: Path
) -> None:
    code, _, _ = w2c(db_url, "import", str(judge_file))
    assert code == 0
    out = tmp_path / "clean.jsonl"
    code, _, err = w2c(db_url, "items", "export", "--format", "when2call", "-o", str(out))
    assert code == 0, err
    assert out.read_bytes() == judge_file.read_bytes()
    assert "300 item(s)" in err
    code, stdout, _ = w2c(
        db_url, "import", str(out), "--dataset", "when2call_test_llm_judge", "--json"
    )
    [report] = json.loads(stdout)
    assert (report["items_new"], len(report["items_changed"]), report["items_unchanged"]) == (
        0,
        0,
        300,
    )
    log = (tmp_path / "clean.changelog.md").read_text(encoding="utf-8")
    assert "## Dropped (0)" in log and "## Relabelled (0)" in log


def test_two_flagged_one_adjudicated_drops_and_relabels_exactly_those(
    services: Services, judge_file: Path, tmp_path: Path
) -> None:
    services.imports.import_path(judge_file)
    name = "when2call_test_llm_judge"
    lines = judge_file.read_text(encoding="utf-8").splitlines()
    uuids = [json.loads(line)["uuid"] for line in lines]
    flagged_a, flagged_b, decided = uuids[3], uuids[150], uuids[250]
    services.review.set_flag("ann", _item_id(services, name, flagged_a), "qca_vague", True)
    services.review.set_flag("ben", _item_id(services, name, flagged_b), "rfi_reason", True)
    # switched on and off again: not a flag any more
    other = _item_id(services, name, uuids[10])
    services.review.set_flag("ben", other, "qca_answerable", True)
    services.review.set_flag("ben", other, "qca_answerable", False)
    assert json.loads(lines[250])["correct_answer"] == "tool_call"
    _adjudicate(services, name, decided, Label.REQUEST_FOR_INFO, "the date is missing")

    out = tmp_path / "clean.jsonl"
    options = CleanOptions(drop_flags=frozenset({"any"}), gold=GoldSource.ADJUDICATED)
    report = services.exports.items(name, ItemFormat.WHEN2CALL, options, out)
    assert (report.written, report.dropped, report.relabelled) == (298, 2, 1)
    assert (report.lines_raw, report.lines_relabelled, report.lines_rebuilt) == (297, 1, 0)
    written = out.read_text(encoding="utf-8").splitlines()
    expected = []
    for line, uuid in zip(lines, uuids, strict=True):
        if uuid in (flagged_a, flagged_b):
            continue
        if uuid == decided:
            obj = json.loads(line)
            obj["correct_answer"] = "request_for_info"
            line = json.dumps(obj)
        expected.append(line)
    assert written == expected
    # only the label changed on the relabelled line
    before, after = json.loads(lines[250]), json.loads(written[248])
    assert {k for k in before if before[k] != after[k]} == {"correct_answer"}

    log = Path(report.changelog).read_text(encoding="utf-8")
    dropped = log.split("## Dropped (2)")[1].split("## Relabelled")[0]
    relabelled = log.split("## Relabelled (1)")[1].split("## Ties")[0]
    assert flagged_a in dropped and "qca_vague" in dropped and "by ann" in dropped
    assert flagged_b in dropped and "rfi_reason" in dropped and "by ben" in dropped
    assert uuids[10] not in log
    assert decided in relabelled and "adjudicated by carol" in relabelled
    assert "| tool_call | request_for_info |" in relabelled
    assert "the date is missing" in relabelled and "ann: request_for_info" in relabelled

    # the dataset's gold: the adjudicated item keeps tool_call; a code not set drops nothing
    plan = services.exports.plan(name, CleanOptions(drop_flags=frozenset({"qca_unrelated"})))
    assert len(plan.kept) == 300 and not plan.changes


def test_qa_consensus_majority_relabels_and_a_tie_keeps_gold(demo: Services) -> None:
    items = demo.review.window("demo", ItemFilter(), ReviewMode.ITEM_QA, None, 0, 30)
    first, second, third = items[0], items[1], items[2]
    for who in ("ann", "ben"):
        demo.review.label_item(who, first.id, Label.DIRECT)
    demo.review.label_item("cat", first.id, Label.CANNOT_ANSWER)
    demo.review.label_item("ann", second.id, Label.DIRECT)
    demo.review.label_item("ben", second.id, Label.TOOL_CALL)
    assert third.gold is not None
    demo.review.label_item("ann", third.id, third.gold)  # agrees: no change
    plan = demo.exports.plan("demo", CleanOptions(gold=GoldSource.QA_CONSENSUS))
    changes = {c.uuid: c for c in plan.changes}
    assert set(changes) == {first.uuid, second.uuid}
    assert changes[first.uuid].kind.value == "relabelled"
    assert changes[first.uuid].gold is Label.DIRECT
    assert "majority (2 of 3)" in changes[first.uuid].reason
    assert changes[second.uuid].kind.value == "tie_kept"
    assert changes[second.uuid].gold == second.gold
    kept = {c.item.uuid: c for c in plan.kept}
    assert kept[third.uuid].gold_source == "qa-consensus"
    assert kept[second.uuid].gold_source == "dataset"
    # --only-reviewed keeps the three labelled items only
    plan = demo.exports.plan("demo", CleanOptions(only_reviewed=True))
    assert {c.item.uuid for c in plan.kept} == {first.uuid, second.uuid, third.uuid}
    assert sum(1 for c in plan.changes if c.reason == "not reviewed in item QA") == 27


@pytest.mark.parametrize("fmt", [ItemFormat.PARQUET, ItemFormat.HF, ItemFormat.JSONL])
def test_tabular_exports_round_trip(demo: Services, tmp_path: Path, fmt: ItemFormat) -> None:
    item = demo.review.window("demo", ItemFilter(), ReviewMode.ITEM_QA, None, 0, 1)[0]
    demo.review.set_flag("ann", item.id, "rfi_reason", True)
    out = tmp_path / f"demo{fmt.suffix}"
    report = demo.exports.items("demo", fmt, CleanOptions(), out)
    assert report.written == 30
    if fmt is ItemFormat.PARQUET:
        import pyarrow.parquet as pq

        rows = pq.read_table(out).to_pylist()
    elif fmt is ItemFormat.HF:
        import datasets

        rows = datasets.load_from_disk(str(out)).to_list()
    else:
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    demo_file = Path(__file__).resolve().parents[2] / "w2c_tui" / "demo" / "when2call_demo.jsonl"
    source = [json.loads(line) for line in demo_file.read_text().splitlines()]
    assert [r["uuid"] for r in rows] == [s["uuid"] for s in source]
    for row, src in zip(rows, source, strict=True):
        assert row["correct_answer"] == src["correct_answer"]
        assert row["tools"] == src["tools"]
        assert row["answer_tool_call"] == src["answers"]["tool_call"]
        assert row["n_tools"] == len(src["tools"])
    assert rows[0]["flags"] == ["rfi_reason"]
    assert rows[0]["flag_names"] == ["Asks for reason or context"]
    assert rows[1]["flags"] == []


def test_a_missing_extra_is_named(
    demo: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from w2c_tui.domain.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "datasets", None)
    out = tmp_path / "out"
    for fmt, extra in ((ItemFormat.PARQUET, "[parquet]"), (ItemFormat.HF, "[hf]")):
        with pytest.raises(MissingExtraError, match=extra.replace("[", r"\[")):
            demo.exports.items("demo", fmt, CleanOptions(), out / f"x{fmt.suffix}")
    assert not out.exists()  # nothing half-written
