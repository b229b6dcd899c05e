"""`w2c metrics`: every metric with its interval and n, and `--compare` as a paired
difference, on the bundled demo through Typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from w2c_tui.cli import app

runner = CliRunner()
DEMO = Path(__file__).resolve().parents[2] / "w2c_tui" / "demo"
ACME, TINY = "acme-7b-instruct", "tiny-tools-1b"


def w2c(db_url: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--db", db_url, *args])
    return result.exit_code, result.stdout, result.stderr


def demo(db_url: str) -> None:
    code, _, err = w2c(db_url, "import", str(DEMO))
    assert code == 0, err


def test_every_metric_has_value_interval_and_n(db_url: str) -> None:
    demo(db_url)
    code, out, _ = w2c(db_url, "metrics", "--json", "--bootstrap", "200", "--seed", "3")
    assert code == 0
    doc = json.loads(out)
    assert doc["bootstrap"] == {"B": 200, "seed": 3, "level": 0.95} and doc["min_units"] == 5
    row = next(
        r
        for r in doc["raters"]
        if r["rater"] == "logprob:demo-logprob" and r["target_model"] == ACME
    )
    iv = row["intervals"]
    for name in (
        "accuracy",
        "accuracy_norm",
        "macro_f1_ref",
        "macro_f1_4",
        "macro_f1_no_direct",
        "f1_tool_call",
        "answer_hallucination",
        "parameter_hallucination",
        "invalid_rate",
    ):
        est = iv[name]
        assert {"value", "ci", "n"} <= set(est), name
        assert est["ci"][0] <= est["value"] <= est["ci"][1], name
    assert iv["accuracy"]["value"] == row["accuracy"] and iv["accuracy"]["n"] == row["n_scored"]
    assert iv["accuracy_norm"]["value"] == row["accuracy_norm"]
    assert iv["parameter_hallucination"]["n"] == row["parameter_hallucination"]["denominator"]
    # the demo's four no-tool items: a rate on n=4 is not reported
    tool = iv["tool_hallucination"]
    assert tool["value"] is None and tool["n"] == 4 and tool["reason"].startswith("too few")
    # one computation: the same call gives the same intervals
    _, again, _ = w2c(db_url, "metrics", "--json", "--bootstrap", "200", "--seed", "3")
    assert json.loads(again) == doc
    code, text, _ = w2c(db_url, "metrics", "--bootstrap", "200", "--seed", "3")
    assert code == 0 and "too few (n=4)" in text
    lo, hi = iv["accuracy"]["ci"]
    assert f"[{100 * lo:.1f}, {100 * hi:.1f}]" in text


def test_compare_two_models_under_one_judge_is_a_paired_difference(db_url: str) -> None:
    demo(db_url)
    a, b = f"judge:demo-judge@{ACME}", f"judge:demo-judge@{TINY}"
    code, out, err = w2c(db_url, "metrics", "--compare", a, b, "--json", "--bootstrap", "300")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["a"] == {"rater": "judge:demo-judge", "target_model": ACME}
    assert doc["n_items"] == 30 and doc["bootstrap"]["B"] == 300
    acc = doc["metrics"]["accuracy"]
    assert acc["difference"]["value"] == acc["a"]["value"] - acc["b"]["value"]
    lo, hi = acc["difference"]["ci"]
    assert lo <= acc["difference"]["value"] <= hi
    # each side alone is what `w2c metrics` says of it, on the same draws' settings
    _, plain, _ = w2c(db_url, "metrics", "--json", "--bootstrap", "300")
    alone = next(
        r
        for r in json.loads(plain)["raters"]
        if r["rater"] == "judge:demo-judge" and r["target_model"] == ACME
    )
    assert alone["intervals"]["accuracy"]["value"] == acc["a"]["value"]
    code, text, _ = w2c(db_url, "metrics", "--compare", a, b)
    assert code == 0 and "A − B" in text and "30 items" in text


def test_compare_says_what_is_wrong_with_a_side(db_url: str) -> None:
    demo(db_url)
    code, _, err = w2c(db_url, "metrics", "--compare", "judge:demo-judge", "logprob:demo-logprob")
    assert code == 2 and "reads 2 target models" in err and ACME in err
    code, _, err = w2c(db_url, "metrics", "--compare", "judge:nobody", "logprob:demo-logprob")
    assert code != 0 and "no rater 'judge:nobody'" in err
    code, _, err = w2c(
        db_url, "metrics", "--compare", "judge:demo-judge@gpt-9", f"judge:demo-judge@{ACME}"
    )
    assert code != 0 and "no readings of target model 'gpt-9'" in err
