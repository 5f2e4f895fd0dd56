"""Azize and Basu (2022), epsilon-global DP: every bound against a value computed by hand, every validation
error, and property tests of the statements (Theorems 2-5, 7, 8, Table 1; d_inf and t_inf)."""

import math

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from scipy import optimize, stats

from ldpcode import bounds as B
from ldpcode import divergences as D

FIG3 = [0.8, 0.1, 0.1, 0.1, 0.1]  # Figure 3's instance
KL_01_08 = 0.1 * math.log(0.1 / 0.8) + 0.9 * math.log(0.9 / 0.2)  # = 1.1457255...
TWO = [0.9, 0.6]  # one suboptimal arm, gap 0.3
KL_06_09 = 0.6 * math.log(0.6 / 0.9) + 0.4 * math.log(0.4 / 0.1)  # = 0.3112386...
PHI = stats.norm.cdf

probs = st.floats(0.0, 1.0, allow_nan=False)
epsilons = st.floats(1e-3, 1e3, allow_nan=False)


# ---------------------------------------------------------------------------------------------------
# d_inf, t_inf: Bernoulli
# ---------------------------------------------------------------------------------------------------
def test_bernoulli_gaps_by_hand():
    # 0.1 log(0.1/0.8) + 0.9 log(0.9/0.2) = -0.207944 + 1.353670 = 1.145726
    assert D.d_inf_bernoulli(0.1, 0.8) == pytest.approx(1.1457255029306632, rel=1e-12)
    assert D.d_inf_bernoulli(0.1, 0.8) == pytest.approx(KL_01_08, rel=1e-14)
    assert D.t_inf_bernoulli(0.1, 0.8) == pytest.approx(0.7, rel=1e-14)
    # broadcasting: one arm law against two best means, and a 2-d grid
    np.testing.assert_allclose(D.t_inf_bernoulli([0.1, 0.5], 0.8), [0.7, 0.3], rtol=1e-14)
    assert D.d_inf_bernoulli(np.full((2, 3), 0.2), 0.5).shape == (2, 3)
    assert isinstance(D.d_inf_bernoulli(0.1, 0.8), float)


def test_bernoulli_gaps_edge_cases():
    # an arm above mu*: its own law is admissible, the infimum is 0
    assert D.d_inf_bernoulli(0.9, 0.5) == 0.0 and D.t_inf_bernoulli(0.9, 0.5) == 0.0
    assert D.d_inf_bernoulli(0.5, 0.5) == 0.0 and D.t_inf_bernoulli(0.5, 0.5) == 0.0
    # mu* = 1: no Bernoulli law has a larger mean; infimum over the empty set
    assert D.d_inf_bernoulli(0.5, 1.0) == math.inf and D.t_inf_bernoulli(0.5, 1.0) == math.inf
    # mu_a = 0 is fine: d(0, q) = -log(1 - q)
    assert D.d_inf_bernoulli(0.0, 0.5) == pytest.approx(math.log(2), rel=1e-14)


@given(probs, probs)
def test_bernoulli_d_inf_pinsker(a, s):
    # remark 2 after Theorem 3: d_inf >= 2 Delta^2 (Pinsker), with t_inf = Delta
    a, s = min(a, s), max(a, s)
    assume(s < 1.0)  # at mu* = 1 no Bernoulli law has a larger mean: d_inf = t_inf = inf
    # (up to rounding: the two terms of kl cancel to ~1e-16 absolute)
    assert D.d_inf_bernoulli(a, s) >= 2 * (s - a) ** 2 * (1 - 1e-9) - 1e-15
    assert D.t_inf_bernoulli(a, s) == pytest.approx(s - a, abs=1e-15)


@pytest.mark.parametrize(
    "args, err",
    [
        ((1.5, 0.5), ValueError),
        ((0.2, -0.1), ValueError),
        ((math.nan, 0.5), ValueError),
        ((0.2, math.inf), ValueError),
        (("x", 0.5), TypeError),
        (([], 0.5), ValueError),
    ],
)
def test_bernoulli_gaps_validation(args, err):
    for f in (D.d_inf_bernoulli, D.t_inf_bernoulli):
        with pytest.raises(err):
            f(*args)


# ---------------------------------------------------------------------------------------------------
# d_inf, t_inf: every law on [0, 1] (discrete arms)
# ---------------------------------------------------------------------------------------------------
def test_bounded_gaps_by_hand():
    # uniform on {0.25, 0.75}, mu* = 0.75: moving mass tau from 0.25 to 1 gains 0.75 tau = 0.25, tau = 1/3
    assert D.t_inf_bounded([0.25, 0.75], [0.5, 0.5], 0.75) == pytest.approx(1 / 3, rel=1e-14)
    # both atoms at or below mu*: the dual's maximum is at lam = 1/(1 - mu*) = 4: 0.5 log(1 + 4 * 0.5) = 0.5 log 3
    assert D.d_inf_bounded([0.25, 0.75], [0.5, 0.5], 0.75) == pytest.approx(0.5 * math.log(3), rel=1e-12)
    # uniform on {0.375, 0.875}, mu* = 0.75: a = -0.375, b = 0.125, lam = (a + b) / (2ab) = 8/3,
    # 0.5 log(1 + 1) + 0.5 log(1 - 1/3) = 0.5 log(4/3)
    assert D.d_inf_bounded([0.375, 0.875], [0.5, 0.5], 0.75) == pytest.approx(0.5 * math.log(4 / 3), rel=1e-12)
    # gain 0.125 from the atom at 0.375 (0.625 a unit): tau = 0.2
    assert D.t_inf_bounded([0.375, 0.875], [0.5, 0.5], 0.75) == pytest.approx(0.2, rel=1e-14)
    # the lower atom's mass is not enough: {0.1 (0.2), 0.5 (0.8)}, mean 0.42, mu* = 0.9: 0.2 * 0.9 = 0.18 from the
    # first, then the rest 0.3 at 0.5 a unit: 0.6, tau = 0.2 + 0.6 = 0.8
    assert D.t_inf_bounded([0.5, 0.1], [0.8, 0.2], 0.9) == pytest.approx(0.8, rel=1e-14)


def test_bounded_gaps_of_a_bernoulli_law_are_the_bernoulli_class_ones():
    for mu, s in [(0.1, 0.8), (0.5, 0.75), (0.6, 0.9), (0.0, 0.3)]:
        assert D.d_inf_bounded([0.0, 1.0], [1 - mu, mu], s) == pytest.approx(D.d_inf_bernoulli(mu, s), rel=1e-10)
        assert D.t_inf_bounded([0.0, 1.0], [1 - mu, mu], s) == pytest.approx(s - mu, rel=1e-12)


def _k_inf_primal(values, probs, s):
    """K_inf by the primal: the smallest KL(P || Q) over Q on the atoms of P and 1 with mean >= mu* (SLSQP from
    several starts), an independent check of the dual."""
    x, p = np.append(values, 1.0), np.append(probs, 0.0)

    def kl(z):
        q = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        return float(np.sum(p[p > 0] * np.log(p[p > 0] / q[p > 0])))

    cons = {"type": "ineq", "fun": lambda z: float((np.exp(z) / np.exp(z).sum()) @ x - s)}
    runs = [
        optimize.minimize(kl, np.random.default_rng(i).normal(size=x.size), constraints=[cons], method="SLSQP",
                          options={"ftol": 1e-14, "maxiter": 1000})
        for i in range(6)
    ]  # fmt: skip
    return min(r.fun for r in runs if r.success)


@pytest.mark.parametrize(
    "values, probs, s",
    [([0.4, 1.0], [0.5, 0.5], 0.9), ([0.1, 0.5, 0.9], [0.2, 0.5, 0.3], 0.7), ([0.0, 0.3], [0.6, 0.4], 0.5)],
)
def test_bounded_d_inf_is_the_primal_infimum(values, probs, s):
    assert D.d_inf_bounded(values, probs, s) == pytest.approx(_k_inf_primal(values, probs, s), rel=1e-6)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(probs, st.floats(0.01, 1.0)), min_size=1, max_size=5), probs)
def test_bounded_gaps_bracket_the_gap(atoms, s):
    """Pinsker and the range: Delta <= t_inf and 2 Delta^2 <= 2 t_inf^2 <= d_inf (Pinsker on the optimal KL's law)."""
    values = [a for a, _ in atoms]
    w = np.array([b for _, b in atoms])
    w = w / w.sum()
    gap = s - float(w @ values)
    t, d = D.t_inf_bounded(values, w, s), D.d_inf_bounded(values, w, s)
    if s >= 1.0:
        assert t == d == math.inf
    elif gap <= 0:
        assert t == d == 0.0
    else:
        assert t >= gap * (1 - 1e-12)
        assert t <= 1.0 + 1e-12
        assert d >= 2 * t**2 * (1 - 1e-9) - 1e-15
        v = np.asarray(values)
        at_zero = float(w[v == 0.0].sum())
        if at_zero >= gap * (1 + 1e-9):  # moving mass from 0 to 1 gains its whole weight: t_inf = Delta exactly
            assert t == pytest.approx(gap, rel=1e-9)
        else:  # the rest of the gap from atoms at x1 > 0 or above, each unit gaining at most 1 - x1 < 1
            x1 = float(v[(v > 0) & (w > 0)].min())
            if x1 < 1:
                assert t >= (at_zero + (gap - at_zero) / (1 - x1)) * (1 - 1e-9)


def _t_inf_lp(values, probs, s):
    """t_inf by its definition, a linear program: Q on the atoms of P and on 1, mean >= mu*, least
    TV = sum of u_i with u_i >= |P_i - Q_i| / 2."""
    x, p = np.append(values, 1.0), np.append(probs, 0.0)
    n = x.size
    cost = np.r_[np.zeros(n), np.ones(n)]  # variables: Q, then u
    eye = np.eye(n)
    a_ub = np.vstack([np.hstack([-eye / 2, -eye]), np.hstack([eye / 2, -eye]), np.r_[-x, np.zeros(n)][None]])
    b_ub = np.r_[-p / 2, p / 2, -s]
    a_eq = np.r_[np.ones(n), np.zeros(n)][None]
    res = optimize.linprog(cost, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=[(0, None)] * (2 * n))
    assert res.status == 0
    return res.fun


@pytest.mark.parametrize("seed", range(8))
def test_bounded_t_inf_is_the_linear_programs_infimum(seed):
    """The greedy (lowest mass to 1 first) against t_inf's definition solved as a linear program."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 7))
    values = rng.choice([0.0, 1.0, *rng.uniform(0, 1, 6)], size=k, replace=False)
    probs = rng.dirichlet(np.ones(k))
    s = float(rng.uniform(probs @ values, 1.0))
    assert D.t_inf_bounded(values, probs, s) == pytest.approx(_t_inf_lp(values, probs, s), abs=1e-9)


@pytest.mark.parametrize(
    "args, match",
    [
        (([0.5, 1.2], [0.5, 0.5], 0.9), r"^values must lie in \[0, 1\]"),
        (([0.5, 0.7], [0.5, 0.6], 0.9), r"^probs must be >= 0 and sum to 1"),
        (([0.5, 0.7], [-0.5, 1.5], 0.9), r"^probs must be >= 0"),
        (([0.5], [0.5, 0.5], 0.9), r"^values and probs must be two 1-d lists of one length"),
        (([0.5, 0.7], [0.5, 0.5], 1.5), r"^mu_star must be one number in \[0, 1\]"),
        (([0.5, 0.7], [0.5, 0.5], [0.8, 0.9]), r"^mu_star must be one number in \[0, 1\]"),
        (([0.5, float("nan")], [0.5, 0.5], 0.9), r"^values must contain only finite numbers"),
    ],
)
def test_bounded_gaps_validation(args, match):
    for f in (D.t_inf_bounded, D.d_inf_bounded):
        with pytest.raises(ValueError, match=match):
            f(*args)


def test_theorem3_on_laws_on_the_unit_interval_by_hand():
    """Figure 2's means, arm a uniform on mu_a +- 0.25, eps = 0.001 (all private): sum Delta/(6 eps t_inf) with
    t_inf = 0.2, 1/3, 3/7, 1/2 for Delta = 0.125, 0.25, 0.375, 0.5: (0.625 + 0.75 + 0.875 + 1) / 0.006 = 541.67;
    the table's cell, 6 eps Delta in place of 6 eps t_inf: 4 / 0.006 = 666.67, 16/13 of it."""
    from ldpcode.experiments import azize_table2

    laws = azize_table2.two_point_laws([0.75, 0.625, 0.5, 0.375, 0.25], 0.25)
    terms = B.gdp_lower_bound_terms_bounded(laws, 0.001)
    assert terms.t_inf == pytest.approx([0.2, 1 / 3, 3 / 7, 0.5], rel=1e-12)
    assert terms.value == pytest.approx(3.25 / 0.006, rel=1e-12)
    two = azize_table2.bounded_cell_vs_theorem3([0.75, 0.625, 0.5, 0.375, 0.25], 0.25, 10**6, 0.001)
    assert two["cell"] == pytest.approx(4 / 0.006 * math.log(10**6), rel=1e-12)
    assert two["thm"] == pytest.approx(two["thm_written"], rel=1e-12)
    assert two["cell"] / two["thm"] == pytest.approx(16 / 13, rel=1e-12)
    # Bernoulli arms in the same class: Theorem 3 of the Bernoulli class
    bern = [([0.0, 1.0], [1 - m, m]) for m in FIG3]
    assert B.gdp_lower_bound_terms_bounded(bern, 0.3).value == pytest.approx(B.gdp_lower_bound_constant(FIG3, 0.3))


@pytest.mark.parametrize(
    "laws, match",
    [
        ([([0.0, 1.0], [0.5, 0.5])], r"^laws must be a list of at least 2"),
        ([([0.0, 1.0], [0.5, 0.5]), [0.5]], r"^laws\[1\] must be a \(values, probs\) pair"),
        ([([0.0, 1.0], [0.5, 0.5]), ([0.0, 1.5], [0.5, 0.5])], r"^laws\[1\]: values must lie in \[0, 1\]"),
        ([([0.5], [1.0]), ([0.0, 1.0], [0.5, 0.5])], r"^laws must contain at least one suboptimal arm"),
        # two laws of mean 0.4, 5.6e-17 apart by rounding: a term of 3e15 before
        ([([0.4], [1.0]), ([0.3, 0.7, 0.2], [1 / 3] * 3)], r"^laws must contain at least one suboptimal arm"),
        ([([1.0], [1.0]), ([0.0, 1.0], [0.5, 0.5])], r"^the best law's mean must be < 1"),
    ],
)
def test_theorem3_on_laws_validation(laws, match):
    with pytest.raises(ValueError, match=match):
        B.gdp_lower_bound_terms_bounded(laws, 0.1)


def test_two_point_laws_refuse_a_point_outside_the_unit_interval():
    from ldpcode.experiments import azize_table2

    with pytest.raises(ValueError, match=r"^every point mu_a \+- half_width must lie in \[0, 1\].*<= 0.25 here\)$"):
        azize_table2.two_point_laws([0.75, 0.25], 0.3)
    with pytest.raises(ValueError, match=r"^half_width must be a finite number > 0"):
        azize_table2.two_point_laws([0.75, 0.25], 0.0)
    with pytest.raises(TypeError, match=r"^means must be a number or an array of numbers"):
        azize_table2.two_point_laws(["0.75", "0.25"], 0.1)
    with pytest.raises(ValueError, match=r"^means must be a non-empty 1-d sequence.*shape \(1, 2\)$"):
        azize_table2.two_point_laws([[0.75, 0.25]], 0.1)
    with pytest.raises(TypeError, match=r"^half_width must be a real number"):
        azize_table2.two_point_laws([0.75, 0.25], [0.1])
    for horizon in (0, 1):  # checked before the work: log 0 was a "math domain error" after it, log 1 gave zeros
        with pytest.raises(ValueError, match=r"^horizon must be an integer >= 2"):
            azize_table2.bounded_cell_vs_theorem3([0.75, 0.25], 0.1, horizon, 0.1)
    with pytest.raises(ValueError, match=r"^laws must contain at least one suboptimal arm"):
        azize_table2.bounded_cell_vs_theorem3([0.3, 0.1 + 0.2], 0.1, 10**6, 0.001)  # a written-out value of -7.8e15


# ---------------------------------------------------------------------------------------------------
# d_inf, t_inf: Gaussian, and TV between Gaussians
# ---------------------------------------------------------------------------------------------------
def _tv_numeric(m1, s1, m2, s2):
    """(1/2) int |f - g| by the trapezoid rule on 1e6 points over +-12 standard deviations (the tails beyond
    carry < 1e-32). Independent of the crossing points; error < 1e-8 (adaptive quad misjudges its own error
    at the two kinks of |f - g|, so it is not used here)."""
    lo, hi = min(m1 - 12 * s1, m2 - 12 * s2), max(m1 + 12 * s1, m2 + 12 * s2)
    x = np.linspace(lo, hi, 1_000_001)
    return float(np.trapezoid(np.abs(stats.norm.pdf(x, m1, s1) - stats.norm.pdf(x, m2, s2)), x)) / 2


def test_tv_gaussian_by_hand():
    # equal variances: 2 Phi(1/2) - 1 = 0.3829249
    assert D.tv_gaussian(0.0, 1.0, 1.0, 1.0) == pytest.approx(2 * PHI(0.5) - 1, rel=1e-12)
    # N(0,1) vs N(0,4): densities cross where x^2 (1/2 - 1/8) = log 2, x = +-1.359556; f > g inside, so
    # TV = [2 Phi(1.359556) - 1] - [2 Phi(1.359556 / 2) - 1] = 2 (0.9130148 - 0.7516775) = 0.3226746
    x = math.sqrt(math.log(2) / (3 / 8))
    assert D.tv_gaussian(0.0, 1.0, 0.0, 2.0) == pytest.approx(2 * (PHI(x) - PHI(x / 2)), rel=1e-12)
    assert D.tv_gaussian(0.0, 1.0, 0.0, 2.0) == pytest.approx(0.3226746, abs=1e-7)
    # symmetric, broadcasting
    assert D.tv_gaussian(3.0, 0.5, -1.0, 4.0) == pytest.approx(D.tv_gaussian(-1.0, 4.0, 3.0, 0.5), rel=1e-12)
    assert D.tv_gaussian(0.0, 1.0, [0.0, 1.0], [2.0, 1.0]).shape == (2,)


def test_tv_gaussian_at_extreme_scales_is_the_standardised_one():
    """TV is invariant under x -> (x - m1)/s1: N(0, 1e-340) vs N(0, 4e-340) is N(0, 1) vs N(0, 4), 0.3226746 (by hand
    above); means 2e300 apart at s = 1, 2 have TV 1. The squares of the deviations under- or overflowed (nan)."""
    x = math.sqrt(math.log(2) / (3 / 8))
    for s in (1e-170, 1e-100, 1e170):
        assert D.tv_gaussian(0.0, s, 0.0, 2 * s) == pytest.approx(2 * (PHI(x) - PHI(x / 2)), rel=1e-12)
    assert D.tv_gaussian(-1e300, 1.0, 1e300, 2.0) == 1.0
    assert D.tv_gaussian(0.0, 1e-300, 1e-300, 1e300) == 1.0
    # means far beyond their deviations: the quadratic's terms cancelled (0.0 at m = 1, s = 1e-10; nan at 2^-290)
    assert D.tv_gaussian(1.0, 1e-10, 1.0, 2e-10) == pytest.approx(2 * (PHI(x) - PHI(x / 2)), rel=1e-9)
    same = 2 * (PHI(x) - PHI(x / 2))  # 1024 + 2^-289 is 1024: equal means, deviations 2^-290 and 2^-289 (was nan)
    assert D.tv_gaussian(1024.0, 2.0**-290, 1024.0 + 2.0**-289, 2.0**-289) == pytest.approx(same, rel=1e-12)
    two = D.tv_gaussian(0.0, 1.0, 2.0, 2.0)
    assert D.tv_gaussian(1e6, 1.0, 1e6 + 2.0, 2.0) == pytest.approx(two, rel=1e-9)


@settings(max_examples=10)
@given(st.floats(-5, 5), st.floats(0.1, 5), st.floats(-5, 5), st.floats(0.1, 5))
@example(0.0, 1.0, 0.4375, 0.1015625)  # where adaptive quad is off by 7e-7
def test_tv_gaussian_matches_integration(m1, s1, m2, s2):
    assert D.tv_gaussian(m1, s1, m2, s2) == pytest.approx(_tv_numeric(m1, s1, m2, s2), abs=1e-7)


def test_gaussian_gaps_by_hand():
    # Delta = 1, sigma = 2: known variance 1/(2*4) = 0.125; unknown 0.5 log(1 + 1/4) = 0.111572
    assert D.d_inf_gaussian(0.0, 1.0, 2.0) == pytest.approx(0.125, rel=1e-14)
    assert D.d_inf_gaussian(0.0, 1.0, 2.0, "unknown") == pytest.approx(0.5 * math.log(1.25), rel=1e-14)
    assert D.d_inf_gaussian(0.0, 1.0, 2.0, "unknown") == pytest.approx(0.1115717756571049, rel=1e-12)
    # t_inf, known variance: 2 Phi(1/(2*2)) - 1 = 2 * 0.598706 - 1 = 0.197413
    assert D.t_inf_gaussian(0.0, 1.0, 2.0) == pytest.approx(2 * PHI(0.25) - 1, rel=1e-12)
    # arm above mu*: 0
    for f in (D.d_inf_gaussian, D.t_inf_gaussian):
        for v in ("known", "unknown"):
            assert f(2.0, 1.0, 1.0, v) == 0.0


def test_gaussian_unknown_variance_d_inf_is_the_infimum():
    # minimise KL(N(mu_a, s_a^2) || N(mu*, s^2)) over s numerically; the closed form is the minimum
    mu_a, mu_s, sig = 0.3, 1.5, 0.7
    kl = lambda u: math.log(math.exp(u) / sig) + (sig**2 + (mu_s - mu_a) ** 2) / (2 * math.exp(2 * u)) - 0.5  # noqa: E731
    res = optimize.minimize_scalar(kl, bounds=(-5, 5), method="bounded", options={"xatol": 1e-12})
    assert D.d_inf_gaussian(mu_a, mu_s, sig, "unknown") == pytest.approx(res.fun, rel=1e-9)


def test_gaussian_unknown_variance_t_inf_is_the_infimum():
    mu_a, mu_s, sig = 0.0, 1.0, 1.0
    t = D.t_inf_gaussian(mu_a, mu_s, sig, "unknown")
    grid = np.exp(np.linspace(-3, 4, 20001))
    tv = D.tv_gaussian(mu_a, sig, mu_s, grid)
    assert t <= tv.min() + 1e-12  # no grid point beats it
    assert t == pytest.approx(tv.min(), abs=1e-7)  # and the grid gets close
    assert t == pytest.approx(0.3454561983368387, rel=1e-7)  # stored value; below 0.382925 (known sigma)
    # the alternative's mean at mu* is the worst case: TV grows as the mean moves up, for every s
    for s in (0.5, 1.0, 1.3, 3.0):
        vals = D.tv_gaussian(mu_a, sig, mu_s + np.array([0.0, 0.01, 0.1, 1.0]), s)
        assert (np.diff(vals) >= -1e-12).all()


@settings(max_examples=15)
@given(st.floats(-3, 3), st.floats(0.0, 6), st.floats(0.2, 4))
def test_gaussian_gaps_known_vs_unknown(mu_a, gap, sigma):
    mu_s = mu_a + gap
    t_known = D.t_inf_gaussian(mu_a, mu_s, sigma)
    # the known-variance closed form is the numerical TV at s = sigma
    assert t_known == pytest.approx(D.tv_gaussian(mu_a, sigma, mu_s, sigma), abs=1e-12)
    # the unknown-variance class is larger, so both gaps are smaller
    assert D.t_inf_gaussian(mu_a, mu_s, sigma, "unknown") <= t_known + 1e-12
    assert D.d_inf_gaussian(mu_a, mu_s, sigma, "unknown") <= D.d_inf_gaussian(mu_a, mu_s, sigma) + 1e-15
    # scale invariance: only gap / sigma matters
    assert D.t_inf_gaussian(0.0, gap, sigma, "unknown") == pytest.approx(
        D.t_inf_gaussian(0.0, 2 * gap, 2 * sigma, "unknown"), abs=1e-9
    )


def test_gaussian_validation():
    with pytest.raises(ValueError, match="sigma"):
        D.d_inf_gaussian(0.0, 1.0, 0.0)
    with pytest.raises(ValueError, match="sigma"):
        D.t_inf_gaussian(0.0, 1.0, -1.0, "unknown")
    with pytest.raises(ValueError, match="variance"):
        D.d_inf_gaussian(0.0, 1.0, 1.0, "fixed")
    with pytest.raises(TypeError, match="variance"):
        D.t_inf_gaussian(0.0, 1.0, 1.0, 1)
    with pytest.raises(ValueError, match="mu_a"):
        D.d_inf_gaussian(math.nan, 1.0)
    with pytest.raises(ValueError, match="mu_star"):
        D.t_inf_gaussian(0.0, math.inf)
    with pytest.raises(TypeError, match="mu_a"):
        D.d_inf_gaussian("a", 1.0)
    with pytest.raises(ValueError, match="s2"):
        D.tv_gaussian(0.0, 1.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="m1"):
        D.tv_gaussian(math.nan, 1.0, 0.0, 1.0)


# ---------------------------------------------------------------------------------------------------
# Theorem 2: minimax lower bound, and its threshold
# ---------------------------------------------------------------------------------------------------
def test_theorem2_by_hand():
    # T = 1e6, K = 100: sqrt(99e6)/27 = 9949.874/27 = 368.514; 99/(131 * 0.01) = 75.573 -> the first
    assert B.gdp_minimax_lower_bound(10**6, 100, 0.01) == pytest.approx(math.sqrt(99e6) / 27, rel=1e-14)
    assert B.gdp_minimax_lower_bound(10**6, 100, 0.01) == pytest.approx(368.5138, rel=1e-6)
    # eps = 1e-4: 99/(131e-4) = 7557.252 -> the private term
    assert B.gdp_minimax_lower_bound(10**6, 100, 1e-4) == pytest.approx(99 / (131 * 1e-4), rel=1e-14)
    # smallest allowed horizon T = K - 1 = 1
    assert B.gdp_minimax_lower_bound(1, 2, 1.0) == pytest.approx(max(1 / 27, 1 / 131), rel=1e-14)


def test_theorem2_threshold_and_the_papers_example():
    # the true crossing (27/131) sqrt(99/1e6) = 0.206107 * 0.0099499 = 0.0020507
    assert B.gdp_minimax_threshold(10**6, 100) == pytest.approx(27 / 131 * math.sqrt(99e-6), rel=1e-14)
    assert B.gdp_minimax_threshold(10**6, 100) == pytest.approx(0.0020507, rel=1e-4)
    # the paper's printed expression (131/27) sqrt((K-1)/T) = 0.04828: its "eps >= 0.05"
    printed = B.gdp_minimax_threshold(10**6, 100, as_printed=True)
    assert printed == pytest.approx(0.048276, rel=1e-4) and round(printed, 2) == 0.05
    # at the printed value the two terms of Theorem 2 are NOT equal (ratio (131/27)^2 = 23.5)
    T, K = 10**6, 100
    assert (math.sqrt(T * (K - 1)) / 27) / ((K - 1) / (131 * printed)) == pytest.approx((131 / 27) ** 2, rel=1e-12)


@given(st.integers(2, 10**4), st.integers(0, 10**7))
def test_theorem2_threshold_is_the_crossing(k, extra):
    t = k - 1 + extra + 1
    eps = B.gdp_minimax_threshold(t, k)
    assert math.sqrt(t * (k - 1)) / 27 == pytest.approx((k - 1) / (131 * eps), rel=1e-12)
    # below it the private term wins, above it the non-private one
    assert B.gdp_minimax_lower_bound(t, k, eps / 2) == pytest.approx((k - 1) / (131 * eps / 2), rel=1e-12)
    assert B.gdp_minimax_lower_bound(t, k, eps * 2) == pytest.approx(math.sqrt(t * (k - 1)) / 27, rel=1e-12)


@pytest.mark.parametrize(
    "args, err",
    [
        ((10, 1, 1.0), ValueError),
        ((2, 5, 1.0), ValueError),
        ((10, 3, 0.0), ValueError),
        ((10, 3, -1.0), ValueError),
        ((10, 3, math.inf), ValueError),
        ((10, 3, math.nan), ValueError),
        ((10, 3, "1"), TypeError),
        ((10, 3, True), TypeError),
        ((10.5, 3, 1.0), TypeError),
        ((10, 2.5, 1.0), TypeError),
    ],
)
def test_theorem2_validation(args, err):
    with pytest.raises(err):
        B.gdp_minimax_lower_bound(*args)


def test_theorem2_threshold_validation():
    with pytest.raises(ValueError, match="n_arms"):
        B.gdp_minimax_threshold(10, 1)
    with pytest.raises(ValueError, match="horizon"):
        B.gdp_minimax_threshold(3, 10)
    with pytest.raises(TypeError, match="as_printed"):
        B.gdp_minimax_threshold(10, 3, as_printed="yes")


# ---------------------------------------------------------------------------------------------------
# Theorem 3: problem-dependent lower bound
# ---------------------------------------------------------------------------------------------------
def test_theorem3_figure3_instance_by_hand():
    # four arms with Delta = 0.7, d = kl(0.1, 0.8) = 1.145726, t = 0.7
    # eps = 1: min(1.145726, 6 * 0.7) = 1.145726 -> 4 * 0.7 / 1.145726 = 2.443866
    assert B.gdp_lower_bound_constant(FIG3, 1.0) == pytest.approx(4 * 0.7 / KL_01_08, rel=1e-12)
    assert B.gdp_lower_bound_constant(FIG3, 1.0) == pytest.approx(2.443866, rel=1e-6)
    # eps = 0.1: min(1.145726, 6 * 0.1 * 0.7 = 0.42) = 0.42 -> 4 * 0.7 / 0.42 = 6.6667
    assert B.gdp_lower_bound_constant(FIG3, 0.1) == pytest.approx(4 * 0.7 / 0.42, rel=1e-12)
    # the regime threshold d/(6 t) = 1.145726 / 4.2 = 0.272792 (the paper's Figure 3 shows ~0.3)
    terms = B.gdp_lower_bound_terms(FIG3, 0.1)
    np.testing.assert_allclose(terms.epsilon_threshold, KL_01_08 / (6 * 0.7), rtol=1e-12)
    assert terms.epsilon_threshold[0] == pytest.approx(0.2728, abs=1e-4)
    assert terms.private.all() and not B.gdp_lower_bound_terms(FIG3, 0.3).private.any()
    np.testing.assert_array_equal(terms.arms, [1, 2, 3, 4])
    np.testing.assert_allclose(terms.gaps, 0.7)
    np.testing.assert_allclose(terms.t_inf, 0.7)
    np.testing.assert_allclose(terms.d_inf, KL_01_08)
    assert terms.value == pytest.approx(terms.terms.sum(), rel=1e-15)


def test_theorem3_gaussian_by_hand():
    # means [1, 0], sigma 1, known variance: d = 1/2, t = 2 Phi(1/2) - 1 = 0.382925
    # eps = 0.1: min(0.5, 0.6 * 0.382925 = 0.229755) -> 1/0.229755 = 4.352437
    t = 2 * PHI(0.5) - 1
    assert B.gdp_lower_bound_constant([1.0, 0.0], 0.1, "gaussian") == pytest.approx(1 / (0.6 * t), rel=1e-12)
    # eps = 10: min(0.5, 60 t) = 0.5 -> 2 (Lai-Robbins for unit Gaussians: Delta / (Delta^2/2))
    assert B.gdp_lower_bound_constant([1.0, 0.0], 10.0, "gaussian") == pytest.approx(2.0, rel=1e-12)
    # unknown variance, eps = 10: d = 0.5 log 2 = 0.346574 -> 1/0.346574 = 2.885390
    assert B.gdp_lower_bound_constant([1.0, 0.0], 10.0, "gaussian", variance="unknown") == pytest.approx(
        2 / math.log(2), rel=1e-12
    )
    # per-arm sigma: the optimal arm's sigma does not enter
    a = B.gdp_lower_bound_constant([1.0, 0.0, 0.5], 0.5, "gaussian", sigma=[9.0, 1.0, 2.0])
    b = B.gdp_lower_bound_constant([1.0, 0.0, 0.5], 0.5, "gaussian", sigma=[1.0, 1.0, 2.0])
    assert a == pytest.approx(b, rel=1e-14)
    # the larger class (unknown variance) gives the larger lower bound
    for eps in (0.01, 0.1, 1.0, 10.0):
        assert (
            B.gdp_lower_bound_constant([1.0, 0.0, 0.5], eps, "gaussian", variance="unknown")
            >= B.gdp_lower_bound_constant([1.0, 0.0, 0.5], eps, "gaussian") - 1e-12
        )


bern_means = st.lists(st.floats(0.01, 0.98), min_size=2, max_size=6).filter(lambda m: max(m) - min(m) > 1e-3)


@given(bern_means, epsilons, epsilons)
def test_theorem3_non_increasing_in_epsilon(means, e1, e2):
    lo, hi = min(e1, e2), max(e1, e2)
    assert B.gdp_lower_bound_constant(means, hi) <= B.gdp_lower_bound_constant(means, lo) * (1 + 1e-12)


@given(bern_means)
def test_theorem3_is_lai_robbins_for_large_epsilon(means):
    # for eps >= max_a d/(6 Delta) the private term never binds
    eps = float(np.max(B.gdp_lower_bound_terms(means, 1.0).epsilon_threshold)) * 1.01
    assert B.gdp_lower_bound_constant(means, eps) == pytest.approx(B.lai_robbins_constant(means), rel=1e-12)
    assert B.gdp_lower_bound_constant(means, 1e6) == pytest.approx(B.lai_robbins_constant(means), rel=1e-12)


@given(bern_means, epsilons)
def test_theorem3_bernoulli_order(means, eps):
    # remark 2: each term is between 1/(max(1/(mu*(1-mu*)), 6) min(Delta, eps)) (KL <= chi^2) and
    # 1/(2 min(Delta, eps)) (Pinsker)
    terms = B.gdp_lower_bound_terms(means, eps)
    best = max(means)
    m = np.minimum(terms.gaps, eps)
    assert (terms.terms <= 1 / (2 * m) * (1 + 1e-9)).all()
    assert (terms.terms >= 1 / (max(1 / (best * (1 - best)), 6.0) * m) * (1 - 1e-9)).all()


def test_theorem3_validation():
    with pytest.raises(ValueError, match="family"):
        B.gdp_lower_bound_constant(FIG3, 1.0, family="poisson")
    with pytest.raises(ValueError, match="sigma and variance apply"):
        B.gdp_lower_bound_constant(FIG3, 1.0, sigma=2.0)
    with pytest.raises(ValueError, match="sigma and variance apply"):
        B.gdp_lower_bound_constant(FIG3, 1.0, variance="unknown")
    with pytest.raises(ValueError, match="variance"):
        B.gdp_lower_bound_constant(FIG3, 1.0, "gaussian", variance="estimated")
    with pytest.raises(ValueError, match="best mean must be < 1"):
        B.gdp_lower_bound_constant([1.0, 0.5], 1.0)
    with pytest.raises(ValueError, match="at least one suboptimal"):
        B.gdp_lower_bound_constant([0.5, 0.5], 1.0)
    with pytest.raises(ValueError, match="at least 2 arms"):
        B.gdp_lower_bound_constant([0.5], 1.0, "gaussian")
    with pytest.raises(ValueError, match=r"means\[0\]"):
        B.gdp_lower_bound_constant([1.5, 0.5], 1.0)
    with pytest.raises(ValueError, match="sigma"):
        B.gdp_lower_bound_constant([1.5, 0.5], 1.0, "gaussian", sigma=[1.0, -1.0])
    with pytest.raises(ValueError, match="sigma"):
        B.gdp_lower_bound_constant([1.5, 0.5, 0.0], 1.0, "gaussian", sigma=[1.0, 1.0])
    with pytest.raises(TypeError, match="sigma"):
        B.gdp_lower_bound_constant([1.5, 0.5], 1.0, "gaussian", sigma="wide")
    with pytest.raises(ValueError, match="means"):
        B.gdp_lower_bound_constant([math.inf, 0.5], 1.0, "gaussian")
    with pytest.raises(ValueError, match="epsilon"):
        B.gdp_lower_bound_terms(FIG3, 0.0)
    with pytest.raises(TypeError, match="epsilon"):
        B.gdp_lower_bound_terms(FIG3, None)
    # Gaussian means need not lie in [0, 1]
    assert B.gdp_lower_bound_constant([5.0, -3.0], 1.0, "gaussian") > 0


# ---------------------------------------------------------------------------------------------------
# Theorem 4: linear minimax lower bound
# ---------------------------------------------------------------------------------------------------
def test_theorem4_by_hand():
    # T = 1e4, d = 3, eps = 1: e^-2/8 * 3 * 100 = 0.0169169 * 300 = 5.075075; e^-6/4 * 3 = 0.001859
    assert B.linear_minimax_lower_bound(10**4, 3, 1.0) == pytest.approx(math.exp(-2) / 8 * 300, rel=1e-14)
    assert B.linear_minimax_lower_bound(10**4, 3, 1.0) == pytest.approx(5.075075, rel=1e-6)
    # eps = 1e-6: e^-6/4 * 3e6 = 1859.0657 (private term)
    assert B.linear_minimax_lower_bound(10**4, 3, 1e-6) == pytest.approx(math.exp(-6) / 4 * 3e6, rel=1e-14)
    # threshold 2 e^-4 / sqrt(1e4) = 2 * 0.0183156 / 100 = 3.66313e-4
    assert B.linear_minimax_threshold(10**4) == pytest.approx(3.663128e-4, rel=1e-6)


@given(st.integers(1, 10**9), st.integers(1, 1000))
def test_theorem4_threshold_is_the_crossing_for_every_d(t, d):
    eps = B.linear_minimax_threshold(t)
    assert math.exp(-2) / 8 * d * math.sqrt(t) == pytest.approx(math.exp(-6) / 4 * d / eps, rel=1e-12)


def test_theorem4_validation():
    with pytest.raises(ValueError, match="horizon"):
        B.linear_minimax_lower_bound(0, 3, 1.0)
    with pytest.raises(ValueError, match="dim"):
        B.linear_minimax_lower_bound(10, 0, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        B.linear_minimax_lower_bound(10, 3, -1.0)
    with pytest.raises(TypeError, match="horizon"):
        B.linear_minimax_threshold("100")
    with pytest.raises(ValueError, match="horizon"):
        B.linear_minimax_threshold(0)


# ---------------------------------------------------------------------------------------------------
# Theorem 5: the structural distinguishability gap c_eps
# ---------------------------------------------------------------------------------------------------
def test_theorem5_orthonormal_by_hand():
    # A = {e1, e2, e3}, theta = (1, 0.6, 0.3): Delta = 0.4, 0.7; eps = 0.05, rho = 1:
    # 1/min(0.2, 0.15) + 1/min(0.35, 0.15) = 6.6667 + 6.6667 = 13.3333 (both private)
    r = B.linear_c_epsilon(np.eye(3), [1.0, 0.6, 0.3], 0.05)
    assert r.value == pytest.approx(40 / 3, rel=1e-6)
    assert r.optimal_index == 0 and r.alpha[0] == math.inf
    # alpha_i = 1/b_i: 1/(3 * 0.05 * 0.4) = 16.667, 1/(3 * 0.05 * 0.7) = 9.524
    np.testing.assert_allclose(r.alpha[1:], [1 / 0.06, 1 / 0.105], rtol=1e-6)
    assert r.regime == ("optimal", "private", "private") and r.tight[1:].all()
    # eps = 1: 1/min(0.2, 3) + 1/min(0.35, 3) = 5 + 2.857143 = 7.857143, the Graves-Lai value 2/0.4 + 2/0.7
    r = B.linear_c_epsilon(np.eye(3), [1.0, 0.6, 0.3], 1.0)
    assert r.value == pytest.approx(2 / 0.4 + 2 / 0.7, rel=1e-6)
    assert r.regime == ("optimal", "non-private", "non-private")
    assert r.dual_bound <= r.value <= r.dual_bound * (1 + 1e-6)


@settings(max_examples=12)
@given(st.integers(2, 5), st.data(), st.floats(1e-3, 10.0), st.floats(0.1, 10.0))
def test_theorem5_orthonormal_closed_form(d, data, eps, rho):
    theta = np.array(data.draw(st.lists(st.floats(-2, 2), min_size=d, max_size=d)))
    order = np.sort(theta)
    assume(order[-1] - order[-2] > 1e-2)
    gaps = theta.max() - theta
    gaps = gaps[gaps > 0]
    expected = float(np.sum(1 / np.minimum(gaps / 2, 3 * eps * rho)))
    r = B.linear_c_epsilon(np.eye(d), theta, eps, rho=rho)
    assert r.value == pytest.approx(expected, rel=1e-4)
    assert r.dual_bound <= r.value * (1 + 1e-12)


A2 = np.array([[1.0, 0.0], [0.6, 0.5], [0.2, 1.0], [-0.3, 0.8]])  # a* = e1 for theta below
TH2 = np.array([1.0, 0.3])  # <a, theta> = 1, 0.75, 0.5, -0.06


def _brute_force(actions, theta, eps, n_grid, big=1e7):
    """min over directions w on a grid of the simplex of the suboptimal arms, alpha(a*) = big * sum(w):
    the constraints are homogeneous of degree -1 in alpha, so each direction's best scale is exact."""
    values = actions @ theta
    opt = int(np.argmax(values))
    gaps = values.max() - values
    sub = [i for i in range(len(actions)) if i != opt]
    b = np.minimum(0.5 * gaps[sub] ** 2, 3 * eps * gaps[sub])
    k = len(sub)
    grid = [np.array(c) / n_grid for c in np.ndindex(*(n_grid + 1,) * (k - 1)) if sum(c) <= n_grid]
    W = np.array([np.append(c, 1 - c.sum()) for c in grid])  # (points, k)
    H = np.einsum("pk,ki,kj->pij", W, actions[sub], actions[sub]) + big * np.outer(actions[opt], actions[opt])
    Hinv = np.linalg.inv(H)
    g = np.einsum("ki,pij,kj->pk", actions[sub], Hinv, actions[sub])
    scale = np.max(g / b, axis=1)
    return float(np.min(scale * (W @ gaps[sub])))


@pytest.mark.parametrize("eps", [0.01, 0.1, 1.0])
def test_theorem5_two_dim_brute_force(eps):
    r = B.linear_c_epsilon(A2, TH2, eps)
    # grid step 1/100 on the 3-arm simplex; the optimum of a 2-d instance sits on a vertex (one arm), which
    # the grid contains
    brute = _brute_force(A2, TH2, eps, 100)
    assert r.value <= brute * (1 + 1e-6)
    assert brute == pytest.approx(r.value, rel=1e-5)
    # in d = 2 the reduced program is a 1-d LP: c = max_a z_a^2/b_a * min_c Delta_c/z_c^2, z = second coordinate
    gaps = np.array([0.25, 0.5, 1.06])
    z2 = A2[1:, 1] ** 2
    b = np.minimum(0.5 * gaps**2, 3 * eps * gaps)
    assert r.value == pytest.approx(np.max(z2 / b) * np.min(gaps / z2), rel=1e-6)


def test_theorem5_three_dim_brute_force():
    A = np.array([[1.0, 0.2, 0.0], [0.5, 1.0, 0.1], [0.4, -0.2, 1.0], [0.3, 0.7, 0.7]])
    th = np.array([1.0, 0.4, 0.3])
    r = B.linear_c_epsilon(A, th, 0.1)
    brute = _brute_force(A, th, 0.1, 200)  # 18.15992 (grid step 1/200); the solver: 18.153052
    assert r.value <= brute * (1 + 1e-6)
    # the optimum uses all three arms with two constraints tied, so the grid's error is first order in its
    # step: 3.8e-4 here
    assert brute == pytest.approx(r.value, rel=1e-3)
    assert r.dual_bound <= r.value <= r.dual_bound * (1 + 1e-5)


def test_theorem5_monotone_in_epsilon_and_graves_lai_limit():
    rng = np.random.default_rng(7)
    A = rng.normal(size=(8, 3))
    th = rng.normal(size=3)
    values = [B.linear_c_epsilon(A, th, e).value for e in (1e-3, 1e-2, 0.1, 1.0, 10.0, 1e4)]
    assert all(v2 <= v1 * (1 + 1e-6) for v1, v2 in zip(values, values[1:]))
    gl = B.linear_graves_lai_constant(A, th)
    assert gl.epsilon == math.inf and all(x != "private" for x in gl.regime)
    assert values[-1] == pytest.approx(gl.value, rel=1e-6)
    assert B.linear_c_epsilon(A, th, math.inf).value == pytest.approx(gl.value, rel=1e-12)
    # eps enters only through eps * rho
    assert B.linear_c_epsilon(A, th, 0.02, rho=5.0).value == pytest.approx(
        B.linear_c_epsilon(A, th, 0.1).value, rel=1e-6
    )


def test_theorem5_dual_certificate_on_random_instances():
    rng = np.random.default_rng(2022)
    for _ in range(5):
        d = int(rng.integers(2, 6))
        n = int(rng.integers(d + 1, 21))
        A, th = rng.normal(size=(n, d)), rng.normal(size=d)
        r = B.linear_c_epsilon(A, th, float(rng.choice([0.01, 0.1, 1.0])))
        assert 0 < r.dual_bound <= r.value <= r.dual_bound * (1 + 1e-5)
        sub = np.arange(n) != r.optimal_index
        assert (r.norms[sub] <= r.bounds[sub] * (1 + 1e-9)).all()  # feasible
        assert r.tight.any()


def test_theorem5_special_actions():
    # d = 1: every action is a multiple of a*, which identifies theta: c = 0
    r = B.linear_c_epsilon([[1.0], [0.5], [-1.0]], [1.0], 0.1)
    assert r.value == 0.0 and r.alpha[0] == math.inf
    # a* = 0 (theta negative): every other action is informative; orthonormal closed form
    # gaps 1, 2: 1/min(0.5, 0.3) + 1/min(1, 0.3) = 3.3333 + 3.3333 = 6.6667
    r = B.linear_c_epsilon([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], [-1.0, -2.0], 0.1)
    assert r.value == pytest.approx(20 / 3, rel=1e-6)
    # an action parallel to a* costs nothing to learn
    r = B.linear_c_epsilon([[1.0, 0.0], [0.5, 0.0], [0.0, 1.0]], [1.0, 0.5], 0.1)
    assert r.alpha[1] == 0.0 and r.value == pytest.approx(2 / 0.5, rel=1e-6)


@pytest.mark.parametrize(
    "actions, theta, eps, rho, err, match",
    [
        ([1.0, 0.0], [1.0, 0.0], 0.1, 1.0, ValueError, "2-d array"),
        ([[1.0, 0.0]], [1.0, 0.0], 0.1, 1.0, ValueError, "at least 2"),
        ([[1.0, 0.0], [2.0, 0.0]], [1.0, 0.0], 0.1, 1.0, ValueError, "span"),
        ([[1.0, 0.0], [0.0, math.nan]], [1.0, 0.0], 0.1, 1.0, ValueError, "finite"),
        (np.eye(2), [1.0, 0.0, 0.0], 0.1, 1.0, ValueError, "theta"),
        (np.eye(2), [1.0, 1.0], 0.1, 1.0, ValueError, "unique optimal"),
        (np.eye(2), [1.0, 0.5], 0.0, 1.0, ValueError, "epsilon"),
        (np.eye(2), [1.0, 0.5], -math.inf, 1.0, ValueError, "epsilon"),
        (np.eye(2), [1.0, 0.5], "x", 1.0, TypeError, "epsilon"),
        (np.eye(2), [1.0, 0.5], 0.1, 0.0, ValueError, "rho"),
        (np.eye(2), [1.0, 0.5], 0.1, math.inf, ValueError, "rho"),
        ([["a", "b"], ["c", "d"]], [1.0, 0.5], 0.1, 1.0, TypeError, "actions"),
    ],
)
def test_theorem5_validation(actions, theta, eps, rho, err, match):
    with pytest.raises(err, match=match):
        B.linear_c_epsilon(actions, theta, eps, rho=rho)


# ---------------------------------------------------------------------------------------------------
# Theorems 7 and 8: AdaP-UCB and AdaP-KLUCB
# ---------------------------------------------------------------------------------------------------
def test_theorem7_by_hand():
    # means [0.9, 0.6], T = 1e4 (log T = 9.210340), eps = 0.1, alpha = 3.1:
    # 16 * 3.1 / min(0.3, 0.1) * 9.210340 + 3 * 3.1 / 0.1 = 496 * 9.210340 + 93 = 4568.329 + 93 = 4661.329
    assert B.adap_ucb_regret_bound(TWO, 10**4, 0.1) == pytest.approx(496 * math.log(1e4) + 93, rel=1e-12)
    assert B.adap_ucb_regret_bound(TWO, 10**4, 0.1) == pytest.approx(4661.329, rel=1e-6)
    # eps = 1, alpha = 4: 64/0.3 * log T + 12 = 1964.872 + 12
    assert B.adap_ucb_regret_bound(TWO, 10**4, 1.0, alpha=4) == pytest.approx(64 / 0.3 * math.log(1e4) + 12, rel=1e-12)


def test_theorem8_by_hand():
    # kl(0.6, 0.9) = 0.6 log(2/3) + 0.4 log 4 = -0.243279 + 0.554518 = 0.311239
    # c1 = 2, c2 = 0.5, eps = 1: min(0.311239, 0.5 * 0.3) = 0.15 -> 2 * 0.3 / 0.15 = 4 per log T, + 93
    L = math.log(1e4)
    assert B.adap_klucb_regret_bound(TWO, 10**4, 1.0, c1=2.0, c2=0.5) == pytest.approx(4 * L + 93, rel=1e-12)
    # eps = 10: min(0.311239, 1.5) = 0.311239 -> 0.6 / 0.311239 = 1.927776 per log T
    assert B.adap_klucb_regret_bound(TWO, 10**4, 10.0, c1=2.0, c2=0.5) == pytest.approx(
        0.6 / KL_06_09 * L + 93, rel=1e-12
    )
    # mu* = 1: d = inf, the private term is the minimum: c1 / (c2 eps) per log T
    assert B.adap_klucb_regret_bound([1.0, 0.5], 10**4, 1.0, c1=1.0, c2=1.0) == pytest.approx(L + 93, rel=1e-12)


def test_theorem8_constants_are_required_keywords():
    with pytest.raises(TypeError):
        B.adap_klucb_regret_bound(TWO, 10**4, 1.0)  # no c1, c2
    with pytest.raises(TypeError):
        B.adap_klucb_regret_bound(TWO, 10**4, 1.0, 2.0, 0.5)  # positional: refused
    with pytest.raises(ValueError, match="c1"):
        B.adap_klucb_regret_bound(TWO, 10**4, 1.0, c1=0.0, c2=0.5)
    with pytest.raises(ValueError, match="c2"):
        B.adap_klucb_regret_bound(TWO, 10**4, 1.0, c1=1.0, c2=math.inf)
    with pytest.raises(TypeError, match="c2"):
        B.adap_klucb_regret_bound(TWO, 10**4, 1.0, c1=1.0, c2=None)


@pytest.mark.parametrize(
    "alpha, err",
    [(3.0, ValueError), (2.0, ValueError), (math.nan, ValueError), (math.inf, ValueError), ("3.1", TypeError)],
)
def test_theorems7_8_alpha(alpha, err):
    with pytest.raises(err, match="alpha"):
        B.adap_ucb_regret_bound(TWO, 100, 1.0, alpha=alpha)
    with pytest.raises(err, match="alpha"):
        B.adap_klucb_regret_bound(TWO, 100, 1.0, c1=1.0, c2=1.0, alpha=alpha)


@given(bern_means, epsilons, st.floats(3.01, 10.0))
def test_theorem7_is_its_table1_rate(means, eps, alpha):
    # Theorem 7 = 16 alpha * (Table 1 rate) + (number of suboptimal arms) * 3 alpha / (alpha - 3)
    T = 10**5
    k_sub = sum(m < max(means) for m in means)
    assert B.adap_ucb_regret_bound(means, T, eps, alpha) == pytest.approx(
        16 * alpha * B.adap_ucb_rate(means, T, eps) + k_sub * 3 * alpha / (alpha - 3), rel=1e-10
    )
    # and Theorem 8 with C1 = C2 = 1 is the AdaP-KLUCB rate plus the same additive term
    assert B.adap_klucb_regret_bound(means, T, eps, c1=1.0, c2=1.0, alpha=alpha) == pytest.approx(
        B.adap_klucb_rate(means, T, eps) + k_sub * 3 * alpha / (alpha - 3), rel=1e-10
    )


# ---------------------------------------------------------------------------------------------------
# The minimax upper rate and Table 1's rates
# ---------------------------------------------------------------------------------------------------
def test_minimax_upper_rate_by_hand():
    # T = 1e4, K = 5, eps = 0.5: sqrt(5 * 1e4 * 9.210340) = 678.6140; 5 * 9.210340 / 0.5 = 92.1034
    L = math.log(1e4)
    assert B.gdp_minimax_upper_rate(10**4, 5, 0.5) == pytest.approx(math.sqrt(5e4 * L) + 10 * L, rel=1e-14)
    assert B.gdp_minimax_upper_rate(10**4, 5, 0.5) == pytest.approx(770.7174, rel=1e-6)
    with pytest.raises(ValueError, match=r"^horizon must be an integer >= 2, got 1$"):  # was 0.0 (log 1): no rate
        B.gdp_minimax_upper_rate(1, 5, 0.5)


THREE = [0.9, 0.6, 0.5]  # gaps 0.3, 0.4


def test_table1_rates_by_hand():
    L = math.log(1e4)  # 9.210340
    # DP-UCB, eps = 0.5: L^2.5 / 0.5 + L/0.3 + L/0.4 = 2 * 257.4478 + 30.7011 + 23.0259 = 568.6226
    assert B.dp_ucb_rate(THREE, 10**4, 0.5) == pytest.approx(L**2.5 / 0.5 + L / 0.3 + L / 0.4, rel=1e-14)
    assert B.dp_ucb_rate(THREE, 10**4, 0.5) == pytest.approx(568.6226, rel=1e-6)
    # DP-SE: 3 L / 0.5 + L/0.3 + L/0.4 = 55.2620 + 53.7270 = 108.9890
    assert B.dp_se_rate(THREE, 10**4, 0.5) == pytest.approx(6 * L + L / 0.3 + L / 0.4, rel=1e-14)
    assert B.dp_se_rate(THREE, 10**4, 0.5) == pytest.approx(108.9890, rel=1e-6)
    # AdaP-UCB, eps = 0.35: 0.3 L / min(0.09, 0.105) + 0.4 L / min(0.16, 0.14) = L/0.3 + L/0.35
    assert B.adap_ucb_rate(THREE, 10**4, 0.35) == pytest.approx(L / 0.3 + L / 0.35, rel=1e-12)
    # AdaP-KLUCB, eps = 0.5: kl(0.6, 0.9) = 0.311239 vs 0.15; kl(0.5, 0.9) = 0.510826 vs 0.2
    kl_05_09 = 0.5 * math.log(0.5 / 0.9) + 0.5 * math.log(0.5 / 0.1)
    assert B.adap_klucb_rate(THREE, 10**4, 0.5) == pytest.approx(0.3 * L / 0.15 + 0.4 * L / 0.2, rel=1e-12)
    # eps = 5: the KL terms: 0.3 L / 0.311239 + 0.4 L / 0.510826
    assert B.adap_klucb_rate(THREE, 10**4, 5.0) == pytest.approx(0.3 * L / KL_06_09 + 0.4 * L / kl_05_09, rel=1e-12)


@given(bern_means, epsilons)
def test_table1_adap_klucb_rate_below_adap_ucb_rate(means, eps):
    # kl >= 2 Delta^2 >= Delta^2 makes the KL-UCB rate the smaller one (Table 1's ordering)
    assert B.adap_klucb_rate(means, 1000, eps) <= B.adap_ucb_rate(means, 1000, eps) * (1 + 1e-12)


RATE_FUNCS = [
    B.dp_ucb_rate,
    B.dp_se_rate,
    B.adap_ucb_rate,
    B.adap_klucb_rate,
    B.adap_ucb_regret_bound,
    lambda m, t, e: B.adap_klucb_regret_bound(m, t, e, c1=1.0, c2=1.0),
]


@pytest.mark.parametrize("f", RATE_FUNCS)
@pytest.mark.parametrize(
    "means, horizon, eps, err, match",
    [
        (THREE, 100, 0.0, ValueError, "epsilon"),
        (THREE, 100, math.inf, ValueError, "epsilon"),
        (THREE, 100, "1", TypeError, "epsilon"),
        (THREE, 0, 1.0, ValueError, "horizon"),
        (THREE, 10.5, 1.0, TypeError, "horizon"),
        ([0.5, 1.2], 100, 1.0, ValueError, r"means\[1\]"),
        ([0.5, 0.5], 100, 1.0, ValueError, "suboptimal"),
        ([0.5], 100, 1.0, ValueError, "at least 2"),
        ("ab", 100, 1.0, TypeError, "means"),
    ],
)
def test_upper_bounds_and_rates_validation(f, means, horizon, eps, err, match):
    with pytest.raises(err, match=match):
        f(means, horizon, eps)


def test_minimax_upper_rate_validation():
    with pytest.raises(ValueError, match="n_arms"):
        B.gdp_minimax_upper_rate(100, 0, 1.0)
    with pytest.raises(ValueError, match="n_arms must be an integer >= 2, got 1"):  # one arm: regret 0, not 90
        B.gdp_minimax_upper_rate(1000, 1, 1.0)
    with pytest.raises(ValueError, match="horizon"):
        B.gdp_minimax_upper_rate(0, 3, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        B.gdp_minimax_upper_rate(100, 3, -0.5)
