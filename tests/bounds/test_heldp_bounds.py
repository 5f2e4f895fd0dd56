"""Heterogeneous setting (Ren et al., HeLDP version): Theorems 7, 10, Corollaries 8, 11, V_L, V_B and the
choice of epsilon_min (Section 4.2), against values computed by hand."""

import math

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import bounds as B

DISCRETE = ldp.make_privacy_levels("ren-heldp-discrete")  # uniform on {0, 0.2, 1, 2, 100}
GAUSSIAN = ldp.make_privacy_levels("ren-heldp-gaussian")  # N(1, 1) clipped to [0, 100]


def beta(e):  # written from the definition, not as coth^2 like the module
    return ((math.exp(e) + 1) / (math.exp(e) - 1)) ** 2


# ---------------------------------------------------------------- p_0, alpha_0, beta_0, Q_L, Q_B
def test_quantities_discrete_eps_min_1():
    q = B.heldp_quantities(DISCRETE, 1.0)
    assert q.p0 == pytest.approx(0.6)  # users at 1, 2, 100: ">=" (the paper's Theorem 10 ">" would give 0.4)
    assert q.alpha0 == pytest.approx((1 + 1 / 4 + 1e-4) / 3)
    assert q.beta0 == pytest.approx((beta(1) + beta(2) + beta(100)) / 3)
    assert q.epsilon_max == 100.0
    assert q.q_l == pytest.approx(1 - 1e-4)
    assert q.q_b == pytest.approx(beta(1) - beta(100))


@pytest.mark.parametrize(
    "eps_min, p0, alpha0",
    [
        (0.2, 0.8, (25 + 1 + 0.25 + 1e-4) / 4),
        (0.15, 0.8, (25 + 1 + 0.25 + 1e-4) / 4),  # between atoms: same kept users as 0.2
        (2.0, 0.4, (0.25 + 1e-4) / 2),
        (100.0, 0.2, 1e-4),
    ],
)
def test_quantities_discrete_other_thresholds(eps_min, p0, alpha0):
    q = B.heldp_quantities(DISCRETE, eps_min)
    assert q.p0 == pytest.approx(p0)
    assert q.alpha0 == pytest.approx(alpha0)
    assert q.q_l == pytest.approx(eps_min**-2 - 1e-4)


def test_quantities_at_the_top_atom_have_no_q_terms():
    q = B.heldp_quantities(DISCRETE, 100.0)
    assert q.q_l == 0 and q.q_b == 0 and q.beta0 == pytest.approx(1.0)


def test_quantities_gaussian_against_monte_carlo():
    x = GAUSSIAN.sample(np.random.default_rng(1), 2_000_000)
    for eps_min in (0.5, 1.0, 1.5, 2.0):
        q = B.heldp_quantities(GAUSSIAN, eps_min)
        kept = x[x >= eps_min]
        assert q.p0 == pytest.approx(kept.size / x.size, abs=2e-3)
        assert q.alpha0 == pytest.approx(np.mean(kept**-2.0), rel=0.01)
        assert q.beta0 == pytest.approx(np.mean(1 / np.tanh(kept / 2) ** 2), rel=0.01)
        assert B.v_l(GAUSSIAN, eps_min) == pytest.approx(np.mean((1 + 4 / kept) ** 2) / q.p0, rel=0.01)
        assert B.v_b(GAUSSIAN, eps_min) == pytest.approx(np.mean(1 / np.tanh(kept / 2) ** 2) / q.p0, rel=0.01)
    assert B.heldp_quantities(GAUSSIAN, 1.0).p0 == pytest.approx(0.5, abs=1e-9)  # P{N(1,1) >= 1}


# ---------------------------------------------------------------- V_L, V_B
@pytest.mark.parametrize(
    "eps_min, vl, vb",
    [
        (0.2, (21**2 + 25 + 9 + 1.04**2) / 4 / 0.8, (beta(0.2) + beta(1) + beta(2) + beta(100)) / 4 / 0.8),
        (1.0, (25 + 9 + 1.04**2) / 3 / 0.6, (beta(1) + beta(2) + beta(100)) / 3 / 0.6),
        (2.0, (9 + 1.04**2) / 2 / 0.4, (beta(2) + beta(100)) / 2 / 0.4),
        (100.0, 1.04**2 / 0.2, 1 / 0.2),
    ],
)
def test_v_l_v_b_discrete(eps_min, vl, vb):
    assert B.v_l(DISCRETE, eps_min) == pytest.approx(vl)
    assert B.v_b(DISCRETE, eps_min) == pytest.approx(vb)


def test_v_b_is_beta0_over_p0():
    q = B.heldp_quantities(GAUSSIAN, 1.5)
    assert B.v_b(GAUSSIAN, 1.5) == pytest.approx(q.beta0 / q.p0)


# ---------------------------------------------------------------- Theorems 7 and 10 at a fixed kappa
def test_theorem7_at_fixed_kappa_by_hand():
    T, kappa, d = 10_000, 1.0, 0.4
    p0, a0, em = 0.6, (1 + 0.25 + 1e-4) / 3, 1.0
    ql = 1 - 1e-4
    lead = 8 / (p0 * d) * (1 + 4 * math.sqrt(a0 + kappa * ql)) ** 2 * math.log(T)
    second = 2 * d / (p0 * a0**2) * (4 * a0 * em**-2 + em**-4) * math.log(T)
    rest = d / (2 * p0 * kappa**2) * math.log(p0 * T * math.exp(2 * kappa**2)) + 2 * d / p0 + 2 * math.pi**2 * d / 3
    want = max(lead, second) + rest
    assert B.heldp_ucb_l_regret_bound([0.9, 0.5], T, DISCRETE, 1.0, kappa=kappa) == pytest.approx(want)


def test_theorem7_second_max_term_can_bind():
    # eps_min = 100 keeps only users at 100: alpha_0 = 1e-4, second term = 2D/(0.2e-8) * 5e-8 log T = 50 D log T,
    # above 8(1.04)^2/(0.2 D) log T when D = 1
    T, d = 10_000, 1.0
    lead = 8 / (0.2 * d) * 1.04**2 * math.log(T)
    second = 50 * d * math.log(T)
    assert second > lead
    want = second + d / 0.2 + 2 * d / 0.2 + 2 * math.pi**2 * d / 3  # kappa -> infinity (Q_L = 0)
    assert B.heldp_ucb_l_regret_bound([1.0, 0.0], T, DISCRETE, 100.0, kappa=math.inf) == pytest.approx(want)


def test_theorem10_at_fixed_kappa_by_hand():
    T, kappa, d = 10_000, 0.5, 0.4
    p0, b0 = 0.6, (beta(1) + beta(2) + beta(100)) / 3
    qb = beta(1) - beta(100)
    want = (
        8 / (p0 * d) * (b0 + kappa * qb) * math.log(T)
        + d / (2 * p0 * kappa**2) * math.log(p0 * T * math.exp(2 * p0 * kappa**2))
        + d / p0
        + math.pi**2 * d / 3
    )
    assert B.heldp_ucb_b_regret_bound([0.9, 0.5], T, DISCRETE, 1.0, kappa=kappa) == pytest.approx(want)


def test_infinite_kappa_with_positive_q_is_infinite():
    assert B.heldp_ucb_l_regret_bound([0.9, 0.5], 1000, DISCRETE, 1.0, kappa=math.inf) == math.inf
    assert B.heldp_ucb_b_regret_bound([0.9, 0.5], 1000, DISCRETE, 1.0, kappa=math.inf) == math.inf


# ---------------------------------------------------------------- the infimum over kappa
def test_theorem10_infimum_closed_form():
    # kappa enters as A kappa + C / kappa^2 (+ constants): minimum at kappa* = (2C/A)^(1/3)
    means, T = [0.9, 0.8, 0.5], 10**6
    q = B.heldp_quantities(DISCRETE, 1.0)
    gaps = np.array([0.1, 0.4])
    A = np.sum(8 * q.q_b * math.log(T) / (q.p0 * gaps))
    C = np.sum(gaps * math.log(q.p0 * T) / (2 * q.p0))
    k_star = (2 * C / A) ** (1 / 3)
    kappa, value = B.heldp_ucb_b_best_kappa(means, T, DISCRETE, 1.0)
    assert kappa == pytest.approx(k_star, rel=1e-4)
    assert value == pytest.approx(B.heldp_ucb_b_regret_bound(means, T, DISCRETE, 1.0, kappa=k_star), rel=1e-9)
    assert B.heldp_ucb_b_regret_bound(means, T, DISCRETE, 1.0) == pytest.approx(value)


@pytest.mark.parametrize("levels, eps_min", [(DISCRETE, 0.2), (DISCRETE, 1.0), (GAUSSIAN, 0.5), (GAUSSIAN, 1.5)])
def test_theorem7_infimum_is_a_minimum(levels, eps_min):
    means, T = [0.9, 0.8, 0.6, 0.5], 10**6
    kappa, value = B.heldp_ucb_l_best_kappa(means, T, levels, eps_min)
    assert 0 < kappa < math.inf
    assert value == pytest.approx(B.heldp_ucb_l_regret_bound(means, T, levels, eps_min, kappa=kappa), rel=1e-12)
    for k in np.geomspace(1e-4, 1e4, 41).tolist() + [kappa * 0.99, kappa * 1.01]:
        assert value <= B.heldp_ucb_l_regret_bound(means, T, levels, eps_min, kappa=k) * (1 + 1e-9)


def test_zero_q_gives_kappa_infinity():
    kappa, value = B.heldp_ucb_l_best_kappa([0.9, 0.5], 10**5, DISCRETE, 100.0)
    assert kappa == math.inf
    assert value == pytest.approx(B.heldp_ucb_l_regret_bound([0.9, 0.5], 10**5, DISCRETE, 100.0, kappa=math.inf))
    assert value < B.heldp_ucb_l_regret_bound([0.9, 0.5], 10**5, DISCRETE, 100.0, kappa=1e3)


# ---------------------------------------------------------------- reduction to Corollaries 8 and 11
@pytest.mark.parametrize("eps", [0.2, 0.5, 1.0, 2.0, 10.0])
def test_homogeneous_quantities(eps):
    q = B.heldp_quantities(ldp.make_privacy_levels("constant", epsilon=eps), eps)
    assert (q.q_l, q.q_b, q.p0) == (0.0, 0.0, 1.0)
    assert q.alpha0 == pytest.approx(eps**-2)
    assert q.beta0 == pytest.approx(beta(eps))


def test_corollaries_by_hand():
    T, d = 10_000, 0.4
    assert B.heldp_ucb_l_homogeneous_bound([0.9, 0.5], T, 2.0) == pytest.approx(
        8 * 9 * math.log(T) / d + (3 + 2 * math.pi**2 / 3) * d
    )
    assert B.heldp_ucb_b_homogeneous_bound([0.9, 0.5], T, 2.0) == pytest.approx(
        8 * beta(2) * math.log(T) / d + (2 + math.pi**2 / 3) * d
    )


PAPER_MEANS = [0.9] + [0.8] * 5 + [0.7] * 5 + [0.6] * 5 + [0.5] * 4


@pytest.mark.parametrize("eps", [0.2, 0.5, 1.0, 2.0, 10.0, 100.0])
def test_theorem10_reduces_to_corollary11_exactly(eps):
    lv = ldp.make_privacy_levels("constant", epsilon=eps)
    for means in (PAPER_MEANS, [1.0, 0.0]):
        kappa, value = B.heldp_ucb_b_best_kappa(means, 10**6, lv, eps)
        assert kappa == math.inf
        assert value == pytest.approx(B.heldp_ucb_b_homogeneous_bound(means, 10**6, eps), rel=1e-12)


@pytest.mark.parametrize("eps", [0.2, 0.5, 1.0, 2.0, 10.0, 33.0])
def test_theorem7_reduces_to_corollary8_when_second_term_is_dominated(eps):
    # 10 D log T <= 8 (1+4/eps)^2 log T / D  iff  D^2 <= 0.8 (1+4/eps)^2: true for every D <= 1 when eps <= 33.9
    lv = ldp.make_privacy_levels("constant", epsilon=eps)
    for means in (PAPER_MEANS, [1.0, 0.0]):
        kappa, value = B.heldp_ucb_l_best_kappa(means, 10**6, lv, eps)
        assert kappa == math.inf
        assert value == pytest.approx(B.heldp_ucb_l_homogeneous_bound(means, 10**6, eps), rel=1e-12)


def test_theorem7_does_not_reduce_to_corollary8_for_large_eps_and_gap():
    # The paper says 10 D log T "is dominated by" 8(1+4/eps)^2 log T / D; false for eps = 100, D = 1:
    # 10 > 8 * 1.04^2 = 8.6528, so Theorem 7's limit exceeds Corollary 8 by (10 - 8.6528) log T.
    T, eps = 10**6, 100.0
    lv = ldp.make_privacy_levels("constant", epsilon=eps)
    thm7 = B.heldp_ucb_l_regret_bound([1.0, 0.0], T, lv, eps)
    cor8 = B.heldp_ucb_l_homogeneous_bound([1.0, 0.0], T, eps)
    assert thm7 - cor8 == pytest.approx((10 - 8 * 1.04**2) * math.log(T))
    # ... while on the paper's instance (gaps <= 0.4) they agree
    assert B.heldp_ucb_l_regret_bound(PAPER_MEANS, T, lv, eps) == pytest.approx(
        B.heldp_ucb_l_homogeneous_bound(PAPER_MEANS, T, eps)
    )


# ---------------------------------------------------------------- choice of epsilon_min
def test_choose_epsilon_min_discrete():
    # V_L: 148.8, 19.49, 12.60, 5.408 -> 100;  V_B: 33.77, 4.115, 3.405, 5.0 -> 2
    c = ldp.choose_epsilon_min(DISCRETE, "laplace")
    assert (c.epsilon_min, c.mechanism, c.candidates) == (100.0, "L", (0.2, 1.0, 2.0, 100.0))
    assert c.value == pytest.approx(1.04**2 / 0.2)
    c = ldp.choose_epsilon_min(DISCRETE, "B")
    assert c.epsilon_min == 2.0
    assert c.value == pytest.approx((beta(2) + 1) / 2 / 0.4)
    assert ldp.choose_epsilon_min(DISCRETE, "Bernoulli").epsilon_min == 2.0


def test_choose_epsilon_min_explicit_candidates():
    assert ldp.choose_epsilon_min(DISCRETE, "L", candidates=[0.2, 1.0]).epsilon_min == 1.0
    c = ldp.choose_epsilon_min(DISCRETE, "L", candidates=[1.0, 150.0])  # nobody reaches 150: skipped
    assert c.candidates == (1.0,) and c.epsilon_min == 1.0
    lv = ldp.make_privacy_levels("discrete", values=[0.5, 4.0])
    # V_L(0.5) = ((1+8)^2 + (1+1)^2)/2 / 1 = 42.5;  V_L(4) = 4 / 0.5 = 8
    c = ldp.choose_epsilon_min(lv, "L")
    assert c.epsilon_min == 4.0 and c.values == pytest.approx((42.5, 8.0))


@pytest.mark.slow
def test_choose_epsilon_min_gaussian_is_a_local_minimum():
    for mech in ("L", "B"):
        c = ldp.choose_epsilon_min(GAUSSIAN, mech)
        assert 0.8 < c.epsilon_min < 1.2
        v = B.v_l if mech == "L" else B.v_b
        for e in (0.5, 0.9, 0.95, 1.05, 1.1, 1.5, 2.0):
            assert c.value <= v(GAUSSIAN, e)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad", [0.0, -1.0, math.nan, math.inf])
def test_bad_epsilon_min(bad):
    for f in (B.heldp_quantities, B.v_l, B.v_b):
        with pytest.raises(ValueError, match="epsilon_min"):
            f(DISCRETE, bad)
    with pytest.raises(ValueError, match="epsilon_min"):
        B.heldp_ucb_l_regret_bound([0.9, 0.5], 100, DISCRETE, bad)
    with pytest.raises(ValueError, match="epsilon_min"):
        B.heldp_ucb_b_regret_bound([0.9, 0.5], 100, DISCRETE, bad, kappa=1.0)


@pytest.mark.parametrize("levels, eps_min", [(DISCRETE, 100.5), (GAUSSIAN, 200.0)])
def test_unreached_epsilon_min(levels, eps_min):
    for f in (B.heldp_quantities, B.v_l, B.v_b):
        with pytest.raises(ValueError, match=r"epsilon_min.*p_0"):
            f(levels, eps_min)
    with pytest.raises(ValueError, match="epsilon_min"):
        B.heldp_ucb_b_best_kappa([0.9, 0.5], 100, levels, eps_min)


def test_bad_mechanism_kappa_levels_candidates_horizon():
    with pytest.raises(ValueError, match="mechanism.*'laplace'.*'bernoulli'.*'gauss'"):
        ldp.choose_epsilon_min(DISCRETE, "gauss")
    for k in (0.0, -1.0, math.nan):
        with pytest.raises(ValueError, match="kappa"):
            B.heldp_ucb_l_regret_bound([0.9, 0.5], 100, DISCRETE, 1.0, kappa=k)
    with pytest.raises(TypeError, match="levels"):
        B.heldp_quantities([0.5, 1.0], 1.0)
    with pytest.raises(ValueError, match="candidates"):
        ldp.choose_epsilon_min(DISCRETE, "L", candidates=[1.0, 0.0])
    with pytest.raises(ValueError, match="no candidate epsilon_min"):
        ldp.choose_epsilon_min(DISCRETE, "L", candidates=[150.0])
    with pytest.raises(ValueError, match="p_0 T > 1"):  # p_0 = 0.2 and T = 4
        B.heldp_ucb_b_regret_bound([0.9, 0.5], 4, DISCRETE, 100.0)


def test_heldp_regret_bounds_at_a_huge_kappa_and_ldp_ucb_at_a_tiny_c_s():
    """kappa = 1e300: the kappa term D log(p0 T)/(2 p0 kappa^2) is 0 to double precision and the bound finite (was
    OverflowError from kappa**2); c_s = 1e-200: the bound over c_s^2 = 1e-400 is inf (was ZeroDivisionError)."""
    levels = ldp.make_privacy_levels("ren-heldp-discrete")
    b = B.heldp_ucb_b_regret_bound([0.9, 0.5], 100, levels, 0.2, 1e300)
    assert math.isfinite(b) and b > B.heldp_ucb_b_regret_bound([0.9, 0.5], 100, levels, 0.2, 1e3)
    assert B.ldp_ucb_l_regret_bound([0.9, 0.5], 100, 1.0, 1e-200) == math.inf
    with pytest.raises(ValueError, match="n must be an integer <= 2"):
        B.laplace_sum_tail_bound(1.0, 10**400, 1.0)
