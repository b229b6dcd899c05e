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
    """A collection now, the screen being idle (a move painted, the next items read ahead),
    so that none falls in the middle of a move: the young generation every time (1-3 ms), and
    the older ones when their turn would come with the next young collections anyway (a
    collection of the middle generation took 30-40 ms of a move at 20,000 items; a full one is
    as rare as the thresholds make it, 70-180 ms at 100,000 items; bench/README.md, issue 21)."""
    _, middle, old = gc.get_count()
    _, every_middle, every_old = gc.get_threshold()
    if middle + 1 < every_middle:
        gc.collect(0)
    elif old + 1 < every_old:
        gc.collect(1)
    else:
        gc.collect(2)
