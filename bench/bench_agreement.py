"""Benchmark: Krippendorff's α with a 1,000-resample unit-bootstrap CI, vectorised vs naive.

The vectorised path is ``krippendorff_alpha(table, bootstrap=1000)``: per batch of 100
resamples one bincount turns the resample indices into weights, summed per distinct row of
codes (≤ 5⁵ patterns here), and one small matrix product gives the 100 coincidence margins.
It is also timed with W kept as (100 × N) unit weights (the AGREEMENT.md §9 recipe verbatim).

Synthetic data (seeded): 5 raters × 100,000 units, 4 classes with prevalence
.55/.25/.15/.05, each label replaced by a uniform random class with probability .3, and 20%
of the labels missing. The naive path recomputes α with the ``krippendorff`` package on every
resample (raters × units, the resample's columns); it is timed on 20 resamples and
extrapolated to 1,000. Both paths use the same resample indices, and the bench checks that
their replicates agree.

Run: ``.venv/bin/python bench/bench_agreement.py [--units N] [--naive 20] [--summary]``
"""

from __future__ import annotations

import argparse
import time

import krippendorff
import numpy as np

from w2c_tui.stats import (
    RatingTable,
    agreement_summary,
    alpha_statistic,
    bootstrap,
    krippendorff_alpha,
    resample_indices,
)

CATS = ["direct", "tool_call", "request_for_info", "cannot_answer"]


def synthetic(n_units: int, n_raters: int = 5, seed: int = 0) -> RatingTable:
    rng = np.random.default_rng(seed)
    truth = rng.choice(4, size=n_units, p=[0.55, 0.25, 0.15, 0.05])
    codes = np.where(
        rng.random((n_units, n_raters)) < 0.3,
        rng.choice(4, size=(n_units, n_raters)),
        truth[:, None],
    )
    codes[rng.random(codes.shape) < 0.2] = -1
    return RatingTable.from_codes(codes, CATS)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=100_000)
    ap.add_argument("--B", type=int, default=1000)
    ap.add_argument("--naive", type=int, default=20, help="naive resamples to time")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of the vectorised path")
    ap.add_argument("--summary", action="store_true", help="also time agreement_summary")
    args = ap.parse_args()

    table = synthetic(args.units).rated()  # the bootstrap population: units with a rating
    print(f"data: {table.n_raters} raters × {table.n_units:,} units, 4 classes, 20% missing")

    # warm-up (imports, first-touch allocations) so that the timings compare like with like
    krippendorff_alpha(synthetic(2000), bootstrap=10)

    runs, cpu = [], []
    for _ in range(max(args.repeat, 1)):
        t0, c0 = time.perf_counter(), time.process_time()
        est = krippendorff_alpha(table, bootstrap=args.B, seed=args.seed)
        runs.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    fast = min(runs)
    assert est.value is not None and est.ci is not None
    print(
        f"alpha = {est.value:.5f}, 95% CI [{est.ci[0]:.5f}, {est.ci[1]:.5f}] "
        f"(B = {args.B}, degenerate = {est.degenerate})"
    )
    print(
        f"vectorised: alpha + {args.B}-resample bootstrap  {fast:8.2f} s  (measured; best of "
        f"{len(runs)}, all: {', '.join(f'{r:.2f}' for r in runs)}; "
        f"process CPU {min(cpu):.2f} s)"
    )

    # the same with W as (b × N) unit weights, i.e. without summing W per row pattern
    t0 = time.perf_counter()
    krippendorff_alpha(table)
    bootstrap({"a": alpha_statistic(table)}, B=args.B, seed=args.seed)
    ungrouped = time.perf_counter() - t0
    print(f"  (W as b × N unit weights, no pattern grouping: {ungrouped:.2f} s, measured)")

    # naive: the package on every resample, same indices as the vectorised path
    data = table.codes.T.astype(np.float64)
    data[data < 0] = np.nan
    first = [
        row for block in resample_indices(table.n_units, args.naive, args.seed) for row in block
    ]
    t0 = time.perf_counter()
    naive_reps = [
        krippendorff.alpha(
            reliability_data=data[:, idx], level_of_measurement="nominal", value_domain=[0, 1, 2, 3]
        )
        for idx in first
    ]
    naive = (time.perf_counter() - t0) / len(first) * args.B
    print(
        f"naive:      alpha per resample (package) ×{args.B}  {naive:8.2f} s  "
        f"(extrapolated from {len(first)} resamples)"
    )
    print(f"speed-up:   {naive / fast:.0f}×")

    check = bootstrap({"a": alpha_statistic(table.rated())}, B=args.naive, seed=args.seed)["a"]
    diff = float(np.max(np.abs(check - np.array(naive_reps))))
    print(f"check: first {args.naive} replicates, max |vectorised − package| = {diff:.1e}")

    if args.summary:
        t0 = time.perf_counter()
        agreement_summary(table, bootstrap=args.B, seed=args.seed)
        print(
            f"agreement_summary (α, κ, AC1, p_a, 10 pairs, 4 classes; B = {args.B}): "
            f"{time.perf_counter() - t0:.2f} s"
        )


if __name__ == "__main__":
    main()
