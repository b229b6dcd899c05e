"""Published reference values for α, Fleiss κ, Cohen κ, AC1 and specific agreement."""

from __future__ import annotations

import numpy as np
import pytest

from w2c_tui.stats import (
    RatingTable,
    alpha_statistic,
    cohen_kappa,
    fleiss_kappa,
    gwet_ac1,
    krippendorff_alpha,
    one_vs_rest,
    pairwise,
    percent_agreement,
    specific_agreement,
)

pytestmark = pytest.mark.filterwarnings("error")

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers ×
# 12 units, values 1..5, "." = missing (0 here). Nominal α = 0.743 (interval 0.849). The same
# matrix is irrCAC's `cac.raw4raters` (Gwet, irrCAC package README): p_a = 0.81818,
# AC1 = 0.77544, generalised Fleiss κ = 0.76117, α = 0.74342.
KRIPP_4X12 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, 0, 0, 0],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, 0, 3],
    [0, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 0],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, 0],
]

# Fleiss (1971), psychiatric diagnoses: 30 subjects × 6 raters × 5 categories, κ = 0.430.
# (Raw ratings as in statsmodels' test suite, statsmodels/stats/tests/test_inter_rater.py.)
FLEISS_1971 = [
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5], [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
]  # fmt: skip


def kripp_table() -> RatingTable:
    return RatingTable.from_codes(np.array(KRIPP_4X12).T - 1, ["1", "2", "3", "4", "5"])


def expand(confusion: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Two raters' code vectors from a contingency table (rows = a, columns = b)."""
    a: list[int] = []
    b: list[int] = []
    for i, row in enumerate(confusion):
        for j, n in enumerate(row):
            a += [i] * n
            b += [j] * n
    return np.array(a), np.array(b)


def two_rater_table(confusion: list[list[int]]) -> RatingTable:
    a, b = expand(confusion)
    return RatingTable.from_codes(np.c_[a, b], [str(k) for k in range(len(confusion))])


# ----------------------------------------------------------------------- Krippendorff's α
@pytest.mark.parametrize(
    ("observers", "categories", "expected", "source"),
    [
        (KRIPP_4X12, "12345", 0.743, "Krippendorff 2011, C: 4 observers, missing data"),
        (
            [[0, 1, 0, 0, 0, 0, 0, 0, 1, 0], [1, 1, 1, 0, 0, 1, 0, 0, 0, 0]],
            "01",
            0.095,
            "Krippendorff 2011, A: binary data, two observers",
        ),
        (
            [["aabbdcccedda"], ["babbbccceddd"]],
            "abcde",
            0.692,
            "Krippendorff 2011, B: nominal data, two observers, no missing",
        ),
    ],
)
def test_krippendorff_alpha_published(
    observers: list[list[int]] | list[list[str]], categories: str, expected: float, source: str
) -> None:
    if isinstance(observers[0][0], str):
        codes = np.array([[categories.index(c) for c in str(row[0])] for row in observers]).T
    elif categories == "12345":
        codes = np.array(observers).T - 1
    else:
        codes = np.array(observers).T
    est = krippendorff_alpha(RatingTable.from_codes(codes, list(categories)))
    assert est.value is not None
    assert round(est.value, 3) == expected, source


def test_alpha_vectorised_matches_package_on_the_published_example() -> None:
    table = kripp_table()
    vec, _ = alpha_statistic(table).point()
    assert vec is not None
    assert abs(vec - krippendorff_alpha(table).value) < 1e-12  # type: ignore[operator]


def test_we_pass_raters_by_units_to_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """Layout trap (AGREEMENT.md §8): the package wants M raters × N units."""
    import krippendorff

    seen: dict[str, object] = {}
    real = krippendorff.alpha

    def spy(**kwargs: object) -> float:
        seen.update(kwargs)
        return float(real(**kwargs))

    monkeypatch.setattr(krippendorff, "alpha", spy)
    table = kripp_table()
    krippendorff_alpha(table)
    data = np.asarray(seen["reliability_data"])
    assert data.shape == (4, 12)  # raters × units, NOT the table's units × raters
    assert np.isnan(data).sum() == (table.codes < 0).sum()
    assert seen["level_of_measurement"] == "nominal"
    assert list(seen["value_domain"]) == [0, 1, 2, 3, 4]  # type: ignore[call-overload]
    # What the traps would give (AGREEMENT.md §8): transposed -0.055, default interval 0.849.
    wrong = real(reliability_data=data.T, level_of_measurement="nominal")
    assert round(float(wrong), 3) == -0.055
    assert round(float(real(reliability_data=data)), 3) == 0.849


def test_alpha_equals_pi_plus_small_sample_term_for_two_raters() -> None:
    """α = π + (1 − π)/(2N) with 2 raters and no missing data (AGREEMENT.md §3)."""
    rng = np.random.default_rng(7)
    for n in (10, 57, 400):
        a = rng.choice(4, size=n, p=[0.55, 0.25, 0.15, 0.05])
        b = np.where(rng.random(n) < 0.7, a, rng.choice(4, size=n))
        po = float((a == b).mean())
        pooled = np.bincount(np.r_[a, b], minlength=4) / (2 * n)
        pe = float((pooled**2).sum())
        pi = (po - pe) / (1 - pe)
        table = RatingTable.from_codes(np.c_[a, b], list("abcd"))
        assert krippendorff_alpha(table).value == pytest.approx(pi + (1 - pi) / (2 * n), abs=1e-12)


# ----------------------------------------------------------------------- Fleiss / AC1 / p_a
def test_fleiss_1971_kappa() -> None:
    table = RatingTable.from_codes(np.array(FLEISS_1971) - 1, ["1", "2", "3", "4", "5"])
    est = fleiss_kappa(table)
    assert est.value is not None
    assert round(est.value, 3) == 0.430  # Fleiss (1971)
    assert est.n == 30


def test_fleiss_generalised_equals_classic_and_statsmodels_on_complete_data() -> None:
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    rng = np.random.default_rng(3)
    for m, n, q in [(6, 30, 5), (3, 200, 4), (2, 50, 3)]:
        codes = rng.choice(q, size=(n, m))
        table = RatingTable.from_codes(codes, [str(k) for k in range(q)])
        counts = table.counts()
        mine = fleiss_kappa(table).value
        # classic Fleiss (1971): P_i = (Σ r² − m)/(m(m − 1)), p_k = Σ r_ik/(n m)
        p_i = ((counts**2).sum(axis=1) - m) / (m * (m - 1))
        p_k = counts.sum(axis=0) / (n * m)
        classic = (p_i.mean() - (p_k**2).sum()) / (1 - (p_k**2).sum())
        assert mine == pytest.approx(classic, abs=1e-12)
        assert mine == pytest.approx(sm_fleiss(counts), abs=1e-12)
    table = RatingTable.from_codes(np.array(FLEISS_1971) - 1, ["1", "2", "3", "4", "5"])
    assert fleiss_kappa(table).value == pytest.approx(sm_fleiss(table.counts()), abs=1e-12)


def test_per_category_fleiss_equals_binary_fleiss_on_fleiss_1971() -> None:
    """κ_k = 1 − Σ r_ik(m − r_ik)/(n m (m − 1) p_k q_k) equals κ on "k vs not k" (§3)."""
    table = RatingTable.from_codes(np.array(FLEISS_1971) - 1, ["1", "2", "3", "4", "5"])
    counts = table.counts()
    n, m = counts.shape[0], 6
    p = counts.sum(axis=0) / (n * m)
    classic = 1 - (counts * (m - counts)).sum(axis=0) / (n * m * (m - 1) * p * (1 - p))
    ovr = one_vs_rest(table)
    for k, c in enumerate(table.categories):
        assert ovr[c]["kappa"].value == pytest.approx(classic[k], abs=1e-12)


def test_irrcac_raw4raters_values() -> None:
    """Gwet's irrCAC README, `cac.raw4raters` (= Krippendorff's 4 × 12 data), 5 decimals."""
    table = kripp_table()
    assert round(percent_agreement(table).value or 0, 5) == 0.81818
    assert round(gwet_ac1(table).value or 0, 5) == 0.77544
    assert round(fleiss_kappa(table).value or 0, 5) == 0.76117
    assert round(krippendorff_alpha(table).value or 0, 5) == 0.74342


def test_ac1_uses_all_categories_used_or_not() -> None:
    """p_e of AC1 depends on q: adding an unused category changes AC1, not κ or α (§8)."""
    a, b = expand([[40, 9], [6, 45]])
    t2 = RatingTable.from_codes(np.c_[a, b], ["yes", "no"])
    t4 = RatingTable.from_codes(np.c_[a, b], ["yes", "no", "x", "y"])
    assert gwet_ac1(t2).value != pytest.approx(gwet_ac1(t4).value)
    assert fleiss_kappa(t2).value == pytest.approx(fleiss_kappa(t4).value, abs=1e-12)
    assert krippendorff_alpha(t2).value == pytest.approx(krippendorff_alpha(t4).value, abs=1e-12)


# ----------------------------------------------------------------------- the kappa paradox
@pytest.mark.parametrize(
    ("name", "confusion", "kappa", "ac1", "alpha", "p_pos", "p_neg"),
    [
        # Feinstein & Cicchetti (1990) via Gerstman, Epidemiology Kept Simple, Table 10.6;
        # κ published, the other columns as tabulated in AGREEMENT.md §5.
        ("A", [[40, 9], [6, 45]], 0.70, 0.701, 0.701, 0.842, 0.857),
        ("B", [[80, 10], [5, 5]], 0.32, 0.808, 0.318, 0.914, 0.400),
    ],
)
def test_kappa_paradox_feinstein_cicchetti(
    name: str,
    confusion: list[list[int]],
    kappa: float,
    ac1: float,
    alpha: float,
    p_pos: float,
    p_neg: float,
) -> None:
    a, b = expand(confusion)
    table = two_rater_table(confusion)
    assert round(cohen_kappa(a, b, 2).value or 0, 2) == kappa
    assert round(gwet_ac1(table).value or 0, 3) == ac1
    assert round(krippendorff_alpha(table).value or 0, 3) == alpha
    assert round(percent_agreement(table).value or 0, 2) == 0.85  # p_o is the same in A and B
    sa = specific_agreement(table)
    assert round(sa["0"].value or 0, 3) == p_pos
    assert round(sa["1"].value or 0, 3) == p_neg


def test_paradox_low_kappa_beside_high_ac1_is_explained_by_the_rare_class() -> None:
    table = two_rater_table([[80, 10], [5, 5]])
    kappa = fleiss_kappa(table).value or 0
    ac1 = gwet_ac1(table).value or 0
    sa = specific_agreement(table)
    assert kappa < 0.35 < 0.8 < ac1
    assert (sa["1"].value or 0) < 0.5 < 0.9 < (sa["0"].value or 0)


# ----------------------------------------------------------------------- Cohen's κ
SAS_TABLE = [[0, 4, 1], [0, 8, 0], [0, 1, 5]]  # SAS PROC FREQ printout (statsmodels tests)


@pytest.mark.parametrize(
    ("confusion", "expected", "digits", "source"),
    [
        (SAS_TABLE, 0.4842, 4, "SAS PROC FREQ simple kappa example"),
        ([[20, 5], [10, 15]], 0.40, 2, "Wikipedia, Cohen's kappa, worked example"),
        ([[45, 15], [25, 15]], 0.1304, 4, "Wikipedia, same agreement, balanced marginals"),
        ([[25, 35], [5, 35]], 0.2593, 4, "Wikipedia, same agreement, unbalanced marginals"),
    ],
)
def test_cohen_kappa_published(
    confusion: list[list[int]], expected: float, digits: int, source: str
) -> None:
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import cohens_kappa

    a, b = expand(confusion)
    q = len(confusion)
    est = cohen_kappa(a, b, q)
    assert round(est.value or 0, digits) == expected, source
    assert est.n == len(a)
    assert est.value == pytest.approx(cohen_kappa_score(a, b, labels=list(range(q))), abs=1e-12)
    assert est.value == pytest.approx(cohens_kappa(np.array(confusion)).kappa, abs=1e-12)


def test_sklearn_labels_subset_trap() -> None:
    """A present label left out of `labels=` silently drops items: 0.851 instead of 0.484."""
    from sklearn.metrics import cohen_kappa_score

    a, b = expand(SAS_TABLE)
    assert round(cohen_kappa_score(a, b, labels=[1, 2]), 3) == 0.851
    assert round(cohen_kappa(a, b, 3).value or 0, 3) == 0.484
    # A superset with an unused label is harmless.
    assert cohen_kappa(a, b, 5).value == pytest.approx(cohen_kappa(a, b, 3).value, abs=1e-12)


def test_cohen_kappa_matches_sklearn_on_random_overlaps() -> None:
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(11)
    for _ in range(20):
        n = int(rng.integers(5, 80))
        a = rng.choice(4, size=n)
        b = np.where(rng.random(n) < 0.5, a, rng.choice(4, size=n))
        a[rng.random(n) < 0.2] = -1
        b[rng.random(n) < 0.2] = -1
        both = (a >= 0) & (b >= 0)
        ref = cohen_kappa_score(a[both], b[both], labels=[0, 1, 2, 3])
        est = cohen_kappa(a, b, 4)
        assert est.n == both.sum()
        assert est.value == pytest.approx(ref, abs=1e-12)


def test_pairwise_matches_cohen_on_each_overlap() -> None:
    table = kripp_table()
    results = pairwise(table)
    assert [(r.a, r.b) for r in results] == [
        ("r0", "r1"), ("r0", "r2"), ("r0", "r3"), ("r1", "r2"), ("r1", "r3"), ("r2", "r3"),
    ]  # fmt: skip
    for r in results:
        a, b = table.column(r.a), table.column(r.b)
        both = (a >= 0) & (b >= 0)
        assert r.n == both.sum()
        assert r.cohen_kappa.value == pytest.approx(cohen_kappa(a, b, 5).value, abs=1e-12)
        assert r.percent_agreement.value == pytest.approx((a[both] == b[both]).mean())


def test_one_vs_rest_equals_coefficients_of_the_recoded_table() -> None:
    """Per-class α/κ are α/κ of the table recoded to "k" vs "not k" (AGREEMENT.md §3)."""
    rng = np.random.default_rng(21)
    codes = rng.choice(4, size=(120, 4), p=[0.55, 0.25, 0.15, 0.05])
    codes[rng.random(codes.shape) < 0.3] = -1
    table = RatingTable.from_codes(codes, list("abcd"))
    ovr = one_vs_rest(table)
    for k, c in enumerate(table.categories):
        binary = np.where(codes < 0, -1, (codes != k).astype(int))
        recoded = RatingTable.from_codes(binary, [c, f"not {c}"])
        assert ovr[c]["alpha"].value == pytest.approx(krippendorff_alpha(recoded).value, abs=1e-12)
        assert ovr[c]["kappa"].value == pytest.approx(fleiss_kappa(recoded).value, abs=1e-12)
