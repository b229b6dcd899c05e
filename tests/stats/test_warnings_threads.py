"""The statistics run in the dashboard's worker threads, two at once when a recompute overlaps
the last one: none of them may change how another thread's warnings are handled (Python's
warnings filters are one list for the whole process)."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from w2c_tui.stats import reference
from w2c_tui.stats.agreement import alpha_statistic, package_alpha
from w2c_tui.stats.table import RatingTable

WAIT_S = 10.0


def test_alpha_in_one_thread_leaves_a_warning_of_another_thread_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found by the key fuzz test (the dashboard stopped with UndefinedMetricWarning): thread B
    is inside κ's "ignore" block when thread A's α guard set an "error" filter in front of it;
    sklearn's warning in B (two constant raters) became an exception."""
    import krippendorff

    a_inside, b_done = threading.Event(), threading.Event()
    outcome: dict[str, Any] = {}

    def thread_b() -> None:
        # κ of two constant raters (0/0 inside), while thread A's α guard is in force; κ is
        # numpy on the codes now (np.errstate is per thread), sklearn's warning is gone
        try:
            assert a_inside.wait(WAIT_S)
            outcome["kappa"] = reference.kappa_point([1, 1, 1], [1, 1, 1], 2)
        except Exception as error:  # the bug: a warning raised here
            outcome["error"] = error
        finally:
            b_done.set()

    real_alpha = krippendorff.alpha

    def alpha(**kwargs: Any) -> float:
        a_inside.set()
        assert b_done.wait(WAIT_S)
        return float(real_alpha(**kwargs))

    monkeypatch.setattr(krippendorff, "alpha", alpha)
    b = threading.Thread(target=thread_b)
    b.start()
    codes = np.array([[0, 0], [1, 1], [0, 1], [1, 1]], dtype=np.int16)
    table = RatingTable(
        codes=codes, categories=("x", "y"), raters=("r1", "r2"), units=("a", "b", "c", "d")
    )
    value, reason = package_alpha(table, alpha_statistic(table))
    b.join(WAIT_S)
    assert "error" not in outcome, outcome.get("error")
    assert outcome["kappa"] == (None, reference.SAME_SINGLE)
    assert value is not None and reason is None
