"""`w2c agreement`, `w2c metrics` and `w2c report`: the documented contracts."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import open_services

runner = CliRunner()

# Krippendorff (2011, "Computing Krippendorff's alpha-reliability"), nominal data with missing
# values: 4 observers × 12 units; alpha = 0.743. "." is a missing value.
KRIPP = """\
1 2 3 3 2 1 4 1 2 . . .
1 2 3 3 2 2 4 1 2 5 . 3
. 3 3 3 2 3 4 2 2 5 1 .
1 2 3 3 2 4 4 1 2 5 1 .
"""


def ratings_file(tmp_path: Path, suffix: str) -> Path:
    rows = []
    for observer, line in enumerate(KRIPP.splitlines(), 1):
        for unit, value in enumerate(line.split(), 1):
            rows.append(
                {
                    "item": f"u{unit}",
                    "rater": f"obs{observer}",
                    "label": "" if value == "." else f"cat-{value}",
                }
            )
    path = tmp_path / f"ratings{suffix}"
    if suffix == ".csv":
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=["item", "rater", "label"])
            writer.writeheader()
            writer.writerows(rows)
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_ratings_file_json_contract(tmp_path: Path) -> None:
    for suffix in (".csv", ".jsonl"):
        path = ratings_file(tmp_path, suffix)
        result = runner.invoke(
            app,
            ["agreement", "--ratings", str(path), "--bootstrap", "200", "--seed", "7", "--json"],
        )
        assert result.exit_code == 0, result.stderr
        doc = json.loads(result.stdout)
        assert (doc["n_items"], doc["n_raters"]) == (12, 4)
        assert doc["categories"] == [f"cat-{k}" for k in range(1, 6)]
        assert round(doc["krippendorff_alpha"]["value"], 3) == 0.743
        for key in ("krippendorff_alpha", "fleiss_kappa", "gwet_ac1", "percent_agreement"):
            value, ci = doc[key]["value"], doc[key]["ci"]
            assert isinstance(value, float) and ci[0] <= ci[1]
        assert len(doc["pairwise"]) == 6
        assert {"a", "b", "n", "cohen_kappa", "percent_agreement"} <= set(doc["pairwise"][0])
        assert {"specific_agreement", "alpha"} <= set(doc["per_category"]["cat-3"])
    again = runner.invoke(
        app, ["agreement", "--ratings", str(path), "--bootstrap", "200", "--seed", "7", "--json"]
    )
    assert json.loads(again.stdout) == doc  # seeded: the same intervals


def test_bad_ratings_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"item": "a", "rater": "r", "label": "x"}\n{"item": "a", "label": "y"}\n', encoding="utf-8"
    )
    result = runner.invoke(app, ["agreement", "--ratings", str(path), "--json"])
    assert result.exit_code == 2
    assert f"{path}:2" in result.stderr and "rater" in result.stderr


def test_metrics_and_report_on_the_demo(db_url: str, tmp_path: Path) -> None:
    services = open_services(db_url)
    services.imports.import_demo()
    for row in services.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 10):
        for response in services.review.detail(row.id, None).responses:
            assert response.id is not None
            services.review.label_response("ann", row.id, response.id, Label.TOOL_CALL)
    services.close()
    result = runner.invoke(app, ["--db", db_url, "metrics", "--json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    rows = {(r["rater"], r["target_model"]): r for r in doc["raters"]}
    acme = rows[("logprob:demo-logprob", "acme-7b-instruct")]
    assert acme["accuracy"] == 23 / 30 and acme["accuracy_norm"] == 25 / 30
    assert len(acme["confusion"]) == 4
    table = runner.invoke(app, ["--db", db_url, "metrics", "--confusion"])
    assert table.exit_code == 0 and "Tool-Hall" in table.stdout
    for fmt in ("md", "html", "json"):
        target = tmp_path / f"report.{fmt}"
        result = runner.invoke(
            app, ["--db", db_url, "report", "--format", fmt, "-o", str(target), "--bootstrap", "50"]
        )
        assert result.exit_code == 0, result.stderr
        text = target.read_text(encoding="utf-8")
        assert "demo" in text
    html = (tmp_path / "report.html").read_text()
    assert '<img src="data:image/svg+xml;base64,' in html
    document = json.loads((tmp_path / "report.json").read_text())
    drills = [k for k, d in document["drilldown"].items() if "confusion" in d]
    heatmaps = html.count('alt="confusion matrix of ')
    assert heatmaps == len(drills) > 0  # each rater's heatmap once, in its own section
    assert "Data this report was computed on" in (tmp_path / "report.md").read_text()
    assert json.loads((tmp_path / "report.json").read_text())["meta"]["dataset"] == "demo"


def test_agreement_on_a_dataset(db_url: str) -> None:
    services = open_services(db_url)
    services.imports.import_demo()
    services.close()
    listed = runner.invoke(app, ["--db", db_url, "agreement", "--list-raters"])
    assert "judge:demo-judge" in listed.stdout
    result = runner.invoke(
        app,
        [
            "--db",
            db_url,
            "agreement",
            "--raters",
            "judge:demo-judge,logprob:demo-logprob",
            "--json",
            "--bootstrap",
            "100",
        ],
    )
    doc = json.loads(result.stdout)
    assert doc["n_raters"] == 2 and doc["raters"] == ["judge:demo-judge", "logprob:demo-logprob"]
    unknown = runner.invoke(app, ["--db", db_url, "agreement", "--raters", "judge:nobody"])
    assert unknown.exit_code == 1 and "no rater 'judge:nobody'" in unknown.stderr
