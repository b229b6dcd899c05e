"""stats.active: the informative-first order and the estimate that stays unbiased in it."""

from __future__ import annotations

import numpy as np
import pytest

from w2c_tui.stats import active


def setting(seed: int, n: int = 200) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    agree = rng.integers(0, 4, n)
    f = active.prior(agree, np.full(n, 3), np.zeros(n, bool), accuracy=0.8)
    y = (rng.random(n) < np.clip(f + rng.normal(0, 0.1, n), 0, 1)).astype(float)
    return f, active.weights(f), y


def test_accuracy_from_agreement_inverts_the_agreement_of_two_raters() -> None:
    for r in (0.3, 0.6, 0.8, 0.95, 1.0):
        agreement = r * r + (1 - r) ** 2 / 3
        assert active.accuracy_from_agreement(agreement) == pytest.approx(r)
    assert active.accuracy_from_agreement(0.1) == pytest.approx(0.25)  # below chance


def test_prior_follows_the_other_readings_and_knows_invalid_readings() -> None:
    f = active.prior([3, 2, 1, 0, 3], [3, 3, 3, 3, 0], [False, False, False, False, True], 0.6)
    assert f[0] > f[1] > f[2] > f[3] and f[4] == 0.0
    assert f[3] >= active.F_LOW and f[0] <= active.F_HIGH
    w = active.weights(f)
    assert w[4] == 0.0 and (w[:4] >= active.W_FLOOR).all()
    # near-duplicates share their weight
    w2 = active.weights(f, [1, 1, 4, 1, 1])
    assert w2[2] < w[2]


def test_walk_is_estimate_on_each_prefix_of_the_queue() -> None:
    f, w, y = setting(1)
    q = active.priorities(w, seed=4)
    counts, value, lo, hi = active.walk(f, w, q, y)
    order = active.queue(q)
    for k in (1, 10, 57, 199, 200):
        labelled = np.zeros(200, bool)
        labelled[order[:k]] = True
        est = active.estimate(f, w, q, labelled, y)
        assert counts[k - 1] == k and est.n_prefix == k
        assert est.value == pytest.approx(value[k - 1], abs=1e-12)
        assert est.ci == pytest.approx((lo[k - 1], hi[k - 1]), abs=1e-12)
    assert value[-1] == pytest.approx(y.mean()) and lo[-1] == pytest.approx(hi[-1])


def test_the_estimate_is_unbiased_and_covers_in_the_queue_order() -> None:
    """30 labels of 200, three worlds with rare misses among confident priors (the hard case
    for a Horvitz–Thompson estimate: its distribution is skewed): 1,000 queue draws each."""
    covered = 0
    for world in (2, 5, 8):
        f, w, y = setting(world)
        theta = y.mean()
        values = []
        for seed in range(1000):
            q = active.priorities(w, seed)
            labelled = np.zeros(200, bool)
            labelled[active.queue(q)[:30]] = True
            est = active.estimate(f, w, q, labelled, y)
            assert est.value is not None and est.ci is not None
            values.append(est.value)
            covered += est.ci[0] <= theta <= est.ci[1]
        spread = np.std(values) / np.sqrt(len(values))
        assert abs(np.mean(values) - theta) < 4 * spread
    assert covered / 3000 >= 0.93


def test_units_labelled_off_the_queue_count_as_they_are() -> None:
    f, w, y = setting(3)
    q = active.priorities(w, seed=0)
    labelled = np.zeros(200, bool)
    labelled[active.queue(q)[-5:]] = True  # the queue's tail: none of the prefix
    est = active.estimate(f, w, q, labelled, y)
    assert est.n_prefix == 0 and est.n_labelled == 5
    assert est.value == pytest.approx((f.sum() + (y - f)[labelled].sum()) / 200)


def test_the_stopping_rule_says_what_it_decided() -> None:
    def est(lo: float, hi: float, n: int) -> active.ActiveEstimate:
        return active.ActiveEstimate((lo + hi) / 2, (lo, hi), 0.01, n, 300, n)

    text, stop = active.decide(est(0.82, 0.95, 40), bar=0.8, width=0.1)
    assert stop and text.startswith("decided after 40 labels: can stand in")
    assert "labelling more changes nothing" in text
    text, stop = active.decide(est(0.60, 0.78, 40), bar=0.8, width=0.1)
    assert stop and "cannot stand in" in text
    text, stop = active.decide(est(0.70, 0.90, 40), bar=0.8, width=0.1)
    assert not stop and text.startswith("undecided after 40 labels")
    text, stop = active.decide(est(0.76, 0.84, 40), bar=0.8, width=0.1)
    assert stop and text.startswith("precise enough")
    text, stop = active.decide(est(0.9, 0.99, 3), bar=0.8, width=0.1)
    assert not stop and "fewer than 10" in text
