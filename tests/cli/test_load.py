"""Under load (bounded): annotator processes label while a run's worker writes results; every
acknowledged label is in the database and no unit has two current verdicts, on both databases.
The figures come from bench/bench_load.py; this checks the invariants, not the timings."""

from __future__ import annotations

import sys
from pathlib import Path

from dbfixtures import require_module

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from load_harness import run_load

from w2c_tui.services import Services


def test_labels_and_a_run_at_once_lose_nothing(demo: Services, tmp_path: Path) -> None:
    # 30 items, one request at a time, 0.2 s each: the run outlasts the 4 s window
    result = run_load(
        demo,
        "demo",
        tmp_path,
        n_annotators=3,
        seconds=4.0,
        n_units=30,
        think_s=0.02,
        run_concurrency=1,
        server_latency_s=0.2,
    )
    assert result.labels > 30, result.line()
    assert (result.lost, result.duplicates, result.errors) == (0, 0, 0), result.line()
    assert result.run_items > 0, result.line()


def test_invited_browser_sessions_and_a_run_lose_nothing(demo: Services, tmp_path: Path) -> None:
    """8 invited sessions through `w2c serve` (each its own app, driven over the websocket as a
    browser drives it) label while a run writes: every label pressed is current under the
    invited name, no duplicate current verdict. Bounded: 13 keys a session, 127.0.0.1 only."""

    require_module("textual_serve", "serve")
    from serve_load_harness import run_serve_load  # needs the serve extra: after the gate

    result = run_serve_load(demo, "demo", tmp_path, n_sessions=8, keys_per_session=12)
    print(result.line())
    # a key pressed while an app was still starting may land after the count: stored ≥ made
    assert result.stored >= result.pressed >= 8 * 13, result.line()
    assert (result.lost, result.duplicates, result.strangers) == (0, 0, 0), result.line()
    assert result.run_items > 0, result.line()
