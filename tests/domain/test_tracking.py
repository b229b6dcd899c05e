"""What goes to MLflow, decided without MLflow: tracking URIs (credentials refused, a folder is
a file store, the default local store), names MLflow accepts, estimates as metrics (nothing for
a value that is not defined), and a digest that changes with the content only."""

from __future__ import annotations

from pathlib import Path

import pytest

from w2c_tui.domain.tracking import (
    TRACKING_ENV,
    TrackedRun,
    TrackingError,
    artifact_root,
    estimate_metrics,
    flatten_estimates,
    metric_name,
    param_value,
    resolve_tracking_uri,
    run_page,
)


def test_tracking_uris(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    default = resolve_tracking_uri(None, {}, exports)
    assert default == f"sqlite:///{exports.resolve()}/mlruns/mlflow.db"
    assert artifact_root(default) == (exports / "mlruns" / "artifacts").resolve().as_uri()
    assert resolve_tracking_uri("", {TRACKING_ENV: "http://h:5000"}, exports) == "http://h:5000"
    assert resolve_tracking_uri("http://x:1", {TRACKING_ENV: "http://h:5000"}, exports) == (
        "http://x:1"
    )
    folder = resolve_tracking_uri(str(tmp_path / "runs"), {}, exports)
    assert folder == (tmp_path / "runs").resolve().as_uri()
    assert artifact_root(folder) is None and artifact_root("http://h:5000") is None
    for bad in ("http://me:secret@h:5000", "https://token@h"):
        with pytest.raises(TrackingError, match="MLFLOW_TRACKING_USERNAME") as error:
            resolve_tracking_uri(bad, {}, exports)
        assert "secret" not in str(error.value) and "token@" not in str(error.value)
    with pytest.raises(TrackingError, match="scheme"):
        resolve_tracking_uri("ftp://h/x", {}, exports)


def test_run_pages_only_for_servers() -> None:
    assert run_page("http://127.0.0.1:5000/", "3", "abc") == (
        "http://127.0.0.1:5000/#/experiments/3/runs/abc"
    )
    assert run_page("sqlite:////tmp/m.db", "3", "abc") is None


def test_names_and_values_mlflow_accepts() -> None:
    assert metric_name("judges", "judge:gpt@v1", "kappa") == "judges.judge_gpt_v1.kappa"
    assert len(metric_name("x" * 400)) == 250
    assert param_value({"b": 1, "a": [2]}) == '{"a": [2], "b": 1}'
    long = param_value("y" * 7000)
    assert len(long) == 6000 and long.endswith("…[truncated]")


def test_estimates_as_metrics_leave_out_what_is_not_defined() -> None:
    defined = {"value": 0.5, "ci": [0.25, 0.75], "n": 12, "reason": None, "degenerate": 0}
    assert estimate_metrics("kappa", defined) == {
        "kappa": 0.5,
        "kappa_ci_low": 0.25,
        "kappa_ci_high": 0.75,
        "kappa_n": 12.0,
    }
    too_few = {"value": None, "ci": None, "n": 4, "reason": "too few units (n=4)"}
    assert estimate_metrics("kappa", too_few) == {"kappa_n": 4.0}  # never a 0.0
    doc = {
        "humans": {"krippendorff_alpha": defined, "n_units": 30},
        "judges": [{"key": "judge:acme", "cohen_kappa": defined, "flag": True}],
    }
    flat = flatten_estimates(doc)
    assert flat["humans.krippendorff_alpha_ci_low"] == 0.25
    assert flat["humans.n_units"] == 30.0
    assert flat["judges.judge_acme.cohen_kappa"] == 0.5
    assert not any(k.endswith("flag") for k in flat)  # booleans are not metrics


def test_the_digest_follows_the_content() -> None:
    run = TrackedRun("w2c-run-1", "run-1", params={"a": "1"}, metrics={"m": 0.5})
    same = TrackedRun("w2c-run-1", "run-1", params={"a": "1"}, metrics={"m": 0.5})
    assert run.digest() == same.digest()
    assert run.digest() != TrackedRun("w2c-run-1", "run-1", params={"a": "1"}).digest()
    child = TrackedRun("c", "run-1-repeat-0", metrics={"m": 1.0})
    parent = TrackedRun("w2c-run-1", "run-1", children=(child,))
    assert [r.name for r in parent.walk()] == ["w2c-run-1", "c"]
