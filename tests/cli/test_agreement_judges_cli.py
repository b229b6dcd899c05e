"""`w2c agreement` on judges: one interval per statistic, MCQ readings apart, columns that
say their reference."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.labels import LABELS, Label, RaterKind
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import open_services

runner = CliRunner()


def _two_humans_on_a_few_responses(db_url: str) -> None:
    """ann labels responses 0–7, ben 3–9 (5 shared); the judge and the scorer read all 60,
    so the judge's units are not the humans' units (the comparison used to resample them)."""
    services = open_services(db_url)
    services.imports.import_demo()
    units = [
        (row.id, response)
        for row in services.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 5)
        for response in services.review.detail(row.id, None).responses
    ]
    for k, (item, response) in enumerate(units[:10]):
        assert response.id is not None
        judge = next(
            (v.label for v in response.verdicts if v.rater.kind is RaterKind.JUDGE and v.label),
            Label.DIRECT,
        )
        if k < 8:
            services.review.label_response("ann", item, response.id, judge)
        if k >= 3:
            other = judge if k % 2 else LABELS[(judge.option + 1) % 4]
            services.review.label_response("ben", item, response.id, other)
    services.close()


def test_the_humans_alpha_has_one_interval(db_url: str) -> None:
    _two_humans_on_a_few_responses(db_url)
    result = runner.invoke(app, ["--db", db_url, "agreement", "--json", "--bootstrap", "1000"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    alpha = doc["humans"]["krippendorff_alpha"]
    assert alpha["value"] is not None and alpha["ci"] is not None
    compared = [j["versus_humans"]["alpha_humans"] for j in doc["judges"] if "versus_humans" in j]
    assert compared  # the judge shares units with the humans
    for shown in compared:
        assert shown == alpha  # value, interval, n and degenerate resamples alike
    assert [j["key"] for j in doc["judges"]] == ["judge:demo-judge"]
    scorers = {row["scorer"] for row in doc["mcq_consistency"]["rows"]}
    assert scorers == {"logprob:demo-logprob", "logprob:demo-logprob:norm"}


def test_the_macro_f1_column_names_its_reference(db_url: str) -> None:
    _two_humans_on_a_few_responses(db_url)
    result = runner.invoke(app, ["--db", db_url, "agreement", "--bootstrap", "0"])
    assert result.exit_code == 0, result.stderr
    assert "macro-F1 ×100 vs humans" in " ".join(result.stdout.split())
