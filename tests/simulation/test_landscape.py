"""ldpcode.experiments.landscape: crossovers by hand, the lower bounds against their closed forms, slopes on synthetic data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ldpcode as ldp
from ldpcode.experiments import landscape as L

MEANS = [0.9, 0.8, 0.8, 0.7, 0.5]


def test_crossover_interpolates_log_ratio_on_log_eps():
    eps = [0.1, 1.0, 10.0]
    ratio = [100.0, 10.0, 1.0]  # exactly 10 / eps: the crossover of k is 10 / k
    assert L.crossover(eps, ratio, 10.0) == pytest.approx(1.0, rel=1e-12)
    assert L.crossover(eps, ratio, 2.0) == pytest.approx(5.0, rel=1e-12)
    assert L.crossover(eps, ratio, 50.0) == pytest.approx(0.2, rel=1e-12)


def test_crossover_takes_the_last_crossing_from_above():
    """A ratio that rises then falls (saturated local regret at the smallest eps) crosses 3 twice; the crossover
    is the larger eps, the level below which local privacy costs at least 3 times global."""
    eps = [0.1, 0.2, 0.5, 1.0]
    ratio = [2.0, 6.0, 4.0, 1.0]
    got = L.crossover(eps, ratio, 3.0)
    assert 0.5 < got < 1.0
    assert got == pytest.approx(math.exp(math.log(0.5) + math.log(4 / 3) / math.log(4) * math.log(2)), rel=1e-12)


@pytest.mark.parametrize(
    ("ratio", "match"),
    [
        ([5.0, 4.0, 3.0], "lies above the grid"),
        ([1.0, 0.9, 0.5], "never reaches"),
        ([1.0, float("nan"), 1.0], "finite"),
    ],
)
def test_crossover_refuses_a_grid_without_crossing(ratio, match):
    with pytest.raises(ValueError, match=match):
        L.crossover([0.1, 1.0, 10.0], ratio, 2.0)
    with pytest.raises(ValueError, match="increasing"):
        L.crossover([1.0, 0.1, 10.0], [3.0, 2.0, 1.0], 2.0)


@settings(max_examples=50, deadline=None)
@given(c=st.floats(0.5, 50.0), b=st.floats(0.3, 3.0), k=st.floats(1.1, 20.0))
def test_crossover_of_a_power_law_is_exact(c, b, k):
    """ratio = c eps^-b is linear in log-log, so the interpolation is exact: eps_k = (c / k)^(1/b)."""
    eps = np.geomspace(1e-3, 1e3, 25)
    ratio = c * eps**-b
    want = (c / k) ** (1 / b)
    assume(2e-3 < want < 5e2)  # inside the grid, away from its ends
    assert L.crossover(eps, ratio, k) == pytest.approx(want, rel=1e-9)


def test_crossovers_on_grid_keep_apart_the_levels_the_grid_cannot_estimate():
    """Runs whose mean ratio is exactly 10 / eps on [0.1, 1, 10]: k = 2 crosses at 5; k = 200 is never reached
    and k = 0.5 is still exceeded at the largest eps, each kept apart with its one-line reason, not raised."""
    eps = [0.1, 1.0, 10.0]
    glo = np.ones((4, 3))
    loc = np.tile([100.0, 10.0, 1.0], (4, 1))
    found, outside = L.crossovers_on_grid(eps, loc, glo, [2.0, 200.0, 0.5], n_boot=20, seed=1)
    assert list(found) == [2.0] and found[2.0].value == pytest.approx(5.0, rel=1e-12) and found[2.0].se == 0
    assert "never reaches 200" in outside[200.0] and "lies above the grid" in outside[0.5]
    with pytest.raises(ValueError, match="increasing"):  # a bad argument is still an error
        L.crossovers_on_grid([1.0, 0.1, 10.0], loc, glo, [2.0], n_boot=20, seed=1)
    with pytest.raises(L.NoCrossover, match="never reaches 200"):  # the finding has its own class
        L.crossover(eps, [100.0, 10.0, 1.0], 200.0)


def test_price_of_trust_is_a_ratio_of_means():
    loc = np.array([[10.0, 4.0], [30.0, 8.0]])
    glo = np.array([[5.0, 4.0], [5.0, 2.0], [5.0, 3.0]])
    np.testing.assert_allclose(L.price_of_trust(loc, glo), [20.0 / 5.0, 6.0 / 3.0])
    with pytest.raises(ValueError, match="n_eps"):
        L.price_of_trust(loc, glo[:, :1])
    with pytest.raises(ValueError, match="> 0"):
        L.price_of_trust(loc, np.zeros((2, 2)))


def test_lower_bounds_are_the_papers_constants_times_log_t():
    eps = [0.05, 1.0]
    b = L.lower_bounds(MEANS, eps, 10**6)
    log_t = math.log(10**6)
    gaps = np.array([0.1, 0.1, 0.2, 0.4])
    # Ren et al. Theorem 1 by hand: sum 1/gap / (e^eps - e^-eps)^2
    for j, e in enumerate(eps):
        want = (1 / gaps).sum() / (math.exp(e) - math.exp(-e)) ** 2 * log_t
        assert b["ε-LDP (Ren et al. Thm 1)"][j] == pytest.approx(want, rel=1e-12)
    # Azize and Basu Theorem 3 at eps = 0.05: every arm private (6 eps gap < d), sum gap / (6 eps gap) = 4 / 0.3
    kl = ldp.divergences.kl_bernoulli(np.array([0.8, 0.8, 0.7, 0.5]), np.full(4, 0.9))
    assert (6 * 0.05 * gaps < kl).all()
    assert b["ε-global DP (Azize and Basu Thm 3)"][0] == pytest.approx(4 / 0.3 * log_t, rel=1e-12)
    assert b["no privacy (Lai and Robbins)"][0] == pytest.approx((gaps / kl).sum() * log_t, rel=1e-12)


def test_bound_crossover_solves_the_ratio_of_the_bounds():
    for k in (1.5, 3.0, 10.0):
        e = L.bound_crossover(MEANS, k)
        ldp_bound = max(ldp.bounds.lower_bound_constant(MEANS, e), ldp.bounds.lai_robbins_constant(MEANS))
        assert ldp_bound / ldp.bounds.gdp_lower_bound_constant(MEANS, e) == pytest.approx(k, rel=1e-9)
    # small eps: ratio ~ (sum 1/gap / (4 eps^2)) / (n_sub / (6 eps)) = 1.5 mean(1/gap) / eps
    gaps = np.array([0.1, 0.1, 0.2, 0.4])
    k = 1e4
    assert L.bound_crossover(MEANS, k, lo=1e-8) == pytest.approx(1.5 * (1 / gaps).mean() / k, rel=1e-3)
    with pytest.raises(ValueError, match="> 1"):
        L.bound_crossover(MEANS, 1.0)


def test_excess_slope_recovers_a_known_exponent():
    """Synthetic runs with excess C eps^-2 over a baseline of 100, plus noise: the fitted exponent is -2 within
    its bootstrap SE; with exponent -1 it is -1. The test fails if the baseline is not subtracted (the slope would
    flatten) or if the two exponents were confused."""
    rng = np.random.default_rng(5)
    eps = np.geomspace(0.1, 1.0, 6)
    base = 100 + rng.normal(0, 2, size=30)
    for b in (-2.0, -1.0):
        runs = 100 + 50 * eps**b + rng.normal(0, 2, size=(30, eps.size))
        fit = L.excess_slope(eps, runs, base, (0.1, 1.0), n_boot=400, seed=1)
        assert abs(fit.slope - b) < 4 * fit.se + 0.02
        assert fit.se > 0 and fit.ci_low < fit.slope < fit.ci_high
        plain = ldp.stats.linear_fit(np.log(eps), np.log(runs.mean(axis=0))).slope  # without the baseline removed
        assert abs(plain - b) > 0.2


def test_excess_slope_refuses_what_it_cannot_fit():
    eps = np.array([0.1, 0.2, 0.5, 1.0])
    runs = np.full((3, 4), 50.0) + np.arange(3)[:, None]
    with pytest.raises(ValueError, match="<= 0"):
        L.excess_slope(eps, runs, np.array([100.0, 101.0]), (0.1, 1.0))
    with pytest.raises(ValueError, match="at least 3"):
        L.excess_slope(eps, runs, np.array([1.0, 2.0]), (0.5, 1.0))


def test_same_mean_levels_have_mean_epsilon():
    eps_min, levels = L.same_mean_levels(0.8)
    assert eps_min == pytest.approx(0.4)
    assert levels.expect(lambda e: e, 0.0) == pytest.approx(0.8, rel=1e-12)
    assert levels.p_at_least(eps_min) == 1.0


def test_each_policy_is_bound_through_its_trust_model():
    eps = [0.1, 1.0]
    b = L.lower_bounds(MEANS, eps, 10**6)
    lr = b["no privacy (Lai and Robbins)"]
    ldp_b, _ = L.model_lower_bound("LDP-UCB-B", MEANS, eps, 10**6)
    np.testing.assert_array_equal(ldp_b, np.maximum(b["ε-LDP (Ren et al. Thm 1)"], lr))
    assert ldp_b[0] > lr[0] and ldp_b[1] == lr[1]  # Theorem 1 binds at 0.1, Lai-Robbins at 1
    he, how = L.model_lower_bound("HeLDP-UCB-B", MEANS, eps, 10**6)
    at_15 = L.lower_bounds(MEANS, [0.15, 1.5], 10**6)["ε-LDP (Ren et al. Thm 1)"]
    np.testing.assert_allclose(he, np.maximum(at_15, lr), rtol=1e-12)  # 1.5 * 0.1 is 0.15000000000000002
    assert "3 eps / 2" in how
    np.testing.assert_array_equal(
        L.model_lower_bound("AdaP-KLUCB", MEANS, eps, 10**6)[0], b["ε-global DP (Azize and Basu Thm 3)"]
    )
    np.testing.assert_array_equal(L.model_lower_bound("OnePoint-UCB", MEANS, eps, 10**6)[0], lr)
    with pytest.raises(ValueError, match="no trust model"):
        L.model_lower_bound("Thompson", MEANS, eps, 10**6)


def test_the_tables_show_mean_and_standard_error_per_cell():
    from ldpcode import sweep as sw

    table = sw.sweep(["UCB1", "LDP-UCB-B"], [0.5, 1.0], "ren2020-bernoulli", 2_000, 3)
    t = L.regret_table(table, ["UCB1", "LDP-UCB-B"])
    assert t.head == ["policy", "ε = 0.5", "ε = 1", "not private"]
    s = sw.summary(table)
    row = s[(s["policy"] == "LDP-UCB-B") & (s["epsilon"] == 1.0)].iloc[0]
    assert t.body[1][2] == ldp.claims.tables.format_pm(row.mean_regret, row.se)
    assert t.body[0][1] == "·" and t.body[1][3] == "·"
    with pytest.raises(ValueError, match="no rows"):
        L.regret_table(table, ["KL-UCB"])
    assert t._numeric() == {1, 2, 3}  # the cells are numbers: right-aligned
    # part of the columns, in the order asked, with the same cells (the notebook splits a long grid in two)
    part = L.regret_table(table, ["UCB1", "LDP-UCB-B"], epsilons=[math.inf, 0.5])
    assert part.head == ["policy", "not private", "ε = 0.5"]
    assert part.body == [[r[0], r[3], r[1]] for r in t.body]
    for bad in ([], [0.7]):
        with pytest.raises(ValueError, match="epsilons must be"):
            L.regret_table(table, ["UCB1"], epsilons=bad)
    c = L.curves_table([0.5, 1.0], {"a": [1.0, 2.0], "b": [3.0, 4.0]}, se={"b": [0.1, 0.2]}, first="x")
    assert c.head == ["x", "ε = 0.5", "ε = 1"] and c.body == [["a", "1", "2"], ["b", "3.00 ± 0.10", "4.00 ± 0.20"]]
    big = L.curves_table([1.0], {"r": [1.462e6]}, se={"r": [1.2e4]})
    assert big.body == [["r", "1,462,000 ± 12,000"]]
    assert "<td class='num'>3.00 ±&nbsp;0.10</td>" in c._repr_html_()  # a column of numbers: right-aligned, ± kept


def test_price_panel_says_when_a_measured_and_a_bounds_crossover_coincide():
    """Two vertical lines at one printed ε hid one another, and the legend listed a line no reader could see: the
    entries merge when the two crossovers print alike, and stay apart otherwise."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    try:
        eps = [0.1, 1.0, 8.0]
        L.price_panel(ax, eps, [20.0, 2.0, 1.0], [1.0, 0.1, 0.1], np.geomspace(0.1, 8, 5), np.ones(5),
                       {2.0: 0.96, 5.0: 0.431}, {2.0: 0.66, 5.0: 0.434}, label="B / G")  # fmt: skip
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert r"measured $\varepsilon_{5}$ = 0.43 (the bounds' too)" in labels
        assert not any(lab.startswith(r"bounds' $\varepsilon_{5}$") for lab in labels)
        assert r"measured $\varepsilon_{2}$ = 0.96" in labels and r"bounds' $\varepsilon_{2}$ = 0.66" in labels
    finally:
        plt.close(fig)
