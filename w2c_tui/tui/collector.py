"""The garbage collector, kept out of the annotator's way: tuned once the app is up, and the
young objects of each move collected while the annotator reads rather than during a move."""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 20, 20)


def tune_collector() -> None:
    """Everything alive once the review screen is up lives as long as the app: freezing it keeps
    it out of the collector's passes. Textual allocates many short-lived objects per repaint;
    with the default thresholds a full collection ran every few moves (30–90 ms each, measured
    in bench/bench_review.py); with these it runs rarely and scans only young objects.
    """
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


def collect_idle() -> None:
    """Collect the young objects now, the screen being idle (after a move is painted and the
    next items are read ahead). Left to the thresholds, a collection of the middle generation
    came every 10-20 moves and took 30-40 ms of a move (bench/README.md, issue 21); an older
    collection falls due after that many of these, and runs here too."""
    gc.collect(1)
    if gc.get_count()[2] >= gc.get_threshold()[2] - 1:
        gc.collect(2)
