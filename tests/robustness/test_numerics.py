"""Issue 12, numerics: privacy levels at both ends of the doubles (epsilon -> infinity, epsilon -> 0), and the
exact Laplace tail of Lemma 3 in O(n) memory.

Large epsilon: every exponential of epsilon is taken in a form that cannot overflow, so each private agent
tends to its non-private baseline instead of playing round-robin (HeLDP-UCB-B at eps_t = 709.8 had 1,000 times
the regret it has at 709.7) or raising a bare OverflowError. Small epsilon: levels below EPSILON_FLOOR = 1e-9
are refused (at 1e-310 every index was nan and the agent pulled the last arm)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ldpcode as ldp
from ldpcode import audit, bounds
from ldpcode import mechanisms as mech
from ldpcode._validate import EPSILON_FLOOR
from ldpcode.reference import run_reference, run_reference_heterogeneous

HUGE = [709.8, 1e4, 1e300]  # e^eps overflows a double from 709.79 on


def _constant(eps):
    return ldp.make_privacy_levels("constant", epsilon=eps)


# ------------------------------------------------------------------------------------- large epsilon: agents


def test_issue_reproducer_heldp_ucb_b_above_709_78():
    """means [0.9, 0.1], T = 1e5: eps_t = 709.7 gave regret 34, 709.8 gave 40,000 (round-robin: every CTB
    response was 0 because (r e^eps + 1 - r)/(1 + e^eps) = inf/inf = nan)."""
    inst = ldp.make_instance("bernoulli", means=[0.9, 0.1])
    pol = ldp.make_policy("HeLDP-UCB-B", epsilon_min=1.0)
    below = ldp.simulate(pol, inst, 100_000, 1, seed=0, privacy_levels=_constant(709.7)).final_regret()
    for eps in HUGE:
        above = ldp.simulate(pol, inst, 100_000, 1, seed=0, privacy_levels=_constant(eps)).final_regret()
        np.testing.assert_array_equal(above, below)
        assert above[0] < 100


@pytest.mark.parametrize("eps", HUGE)
def test_ldp_ucb_b_at_huge_epsilon_pulls_exactly_the_arms_of_ucb1(eps):
    """CTB's P{1} tends to r: on Bernoulli arms the response is the reward itself, so LDP-UCB-B (same index
    constant sqrt 2) and HeLDP-UCB-B (k(eps) = coth(eps/2) = 1, B_a = N_a) are UCB1, pull for pull."""
    inst = ldp.make_instance("ren2020-bernoulli")
    ucb1 = ldp.simulate(ldp.make_policy("UCB1"), inst, 20_000, 4, seed=3)
    homo = ldp.simulate(ldp.make_policy("LDP-UCB-B", eps), inst, 20_000, 4, seed=3)
    het = ldp.simulate(
        ldp.make_policy("HeLDP-UCB-B", epsilon_min=eps), inst, 20_000, 4, seed=3, privacy_levels=_constant(eps)
    )
    np.testing.assert_array_equal(homo.counts, ucb1.counts)
    np.testing.assert_array_equal(het.counts, ucb1.counts)


AGENTS = [
    ("LDP-UCB-L", "UCB1", "ren2020-bernoulli"),
    ("LDP-UCB-B", "UCB1", "ren2020-bernoulli"),
    ("LDP-UCB-LS", "UCB1-S", "ren2020-gaussian"),
    ("LDP-UCB-BS", "UCB1-S", "ren2020-gaussian"),
]


@pytest.mark.parametrize("name,base,inst", AGENTS)
@pytest.mark.parametrize("heterogeneous", [False, True])
def test_every_private_agent_tends_to_its_non_private_baseline(name, base, inst, heterogeneous):
    """At eps = 1e4 (constant levels for HeLDP-UCB-*), the mean regret over 20 runs (T = 20,000, common random
    numbers) is within 10% of UCB1's or UCB1-S's. Measured: ratios 0.99 to 1.004 (the forced pulls of the
    -L agents, 4 log t per arm, cost about 1%); at eps = 1 they are 1.1 to 3.0."""
    T, runs, eps = 20_000, 20, 1e4
    instance = ldp.make_instance(inst)
    baseline = ldp.simulate(ldp.make_policy(base), instance, T, runs, seed=1).final_regret().mean()
    if heterogeneous:
        res = ldp.simulate(
            ldp.make_policy("He" + name, epsilon_min=eps), instance, T, runs, seed=1, privacy_levels=_constant(eps)
        )
    else:
        res = ldp.simulate(ldp.make_policy(name, eps), instance, T, runs, seed=1)
    ratio = res.final_regret().mean() / baseline
    assert 0.9 < ratio < 1.1, ratio


@pytest.mark.parametrize(
    "name,inst",
    [
        ("LDP-UCB-L", "ren2020-bernoulli"),
        ("LDP-UCB-B", "ren2020-mixed"),
        ("LDP-UCB-LS", "ren2020-gaussian"),
        ("LDP-UCB-BS", "ren2020-gaussian"),
    ],
)
@pytest.mark.parametrize("eps", [709.8, 1e300])
def test_compiled_engine_and_reference_agree_at_huge_epsilon(name, inst, eps):
    pol, ins = ldp.make_policy(name, eps), ldp.make_instance(inst)
    cps = ldp.log_checkpoints(3_000, 20)
    ss = np.random.SeedSequence(5).spawn(1)[0]
    np.testing.assert_array_equal(pol.run_one(ins, 3_000, ss, cps)[0], run_reference(pol, ins, 3_000, ss, cps))


@pytest.mark.parametrize(
    "name,inst",
    [
        ("HeLDP-UCB-L", "ren2020-bernoulli"),
        ("HeLDP-UCB-B", "ren2020-mixed"),
        ("HeLDP-UCB-LS", "ren2020-gaussian"),
        ("HeLDP-UCB-BS", "ren2020-gaussian"),
    ],
)
def test_heterogeneous_engine_and_reference_agree_with_huge_levels(name, inst):
    """Users at 0.5, 2, 709.8 and 1e4 (the reference's literal formulas, written with e^-eps, must not raise
    OverflowError and must pull the engine's arms)."""
    pol, ins = ldp.make_policy(name, epsilon_min=0.5), ldp.make_instance(inst)
    lv = ldp.make_privacy_levels("discrete", values=[0.5, 2.0, 709.8, 1e4])
    cps = ldp.log_checkpoints(3_000, 20)
    ss = np.random.SeedSequence(6).spawn(1)[0]
    np.testing.assert_array_equal(
        pol.run_one(ins, 3_000, ss, cps, privacy_levels=lv)[0],
        run_reference_heterogeneous(pol, ins, lv, 3_000, ss, cps),
    )


def test_heldp_ucb_l_epsilon_min_ceiling():
    """eps_min^-2 underflows beyond 1.3e154: the forced-pull limit was then 0, met by A_a = 0 forever, and the
    agent pulled arm 1 for the whole run (regret 0 on [0.9, 0.1], 16,000 on [0.1, 0.9] at T = 20,000)."""
    with pytest.raises(ValueError, match=r"epsilon_min must be <= 1e\+150"):
        ldp.make_policy("HeLDP-UCB-L", epsilon_min=1e160)
    with pytest.raises(ValueError, match=r"epsilon_min must be <= 1e\+150"):
        ldp.make_policy("HeLDP-UCB-LS", epsilon_min=1e200)
    inst = ldp.make_instance("bernoulli", means=[0.1, 0.9])
    res = ldp.simulate(
        ldp.make_policy("HeLDP-UCB-L", epsilon_min=1e150), inst, 20_000, 1, seed=0, privacy_levels=_constant(1e150)
    )
    assert res.final_regret()[0] < 200
    ldp.make_policy("HeLDP-UCB-B", epsilon_min=1e300)  # no forced pulls: no ceiling


# ----------------------------------------------------------------------------------- large epsilon: curators


@pytest.mark.parametrize("eps", HUGE)
def test_curators_at_huge_epsilon(eps):
    rng = np.random.default_rng(0)
    r = (rng.random(1000) < 0.3).astype(float)
    assert ldp.CTB(eps).exp_eps == math.inf
    np.testing.assert_array_equal(ldp.CTB(eps).privatize(r, rng), r)  # P{1} = r exactly
    np.testing.assert_array_equal(ldp.CTB(eps).probability_one([0.0, 0.25, 1.0]), [0.0, 0.25, 1.0])
    x = np.array([-3.0, 0.0, 2.0])
    np.testing.assert_array_equal(ldp.CTBS(eps).probability_one(x), mech.sigmoid(x))
    assert ldp.CTB(eps).output_mean(0.7) == pytest.approx(0.7, abs=1e-15)
    assert ldp.CTBS(eps).output_mean(0.7) == pytest.approx(float(mech.gaussian_sigmoid_mean(0.7)), abs=1e-15)
    assert np.isfinite(ldp.CTL(eps).privatize(r, rng)).all()
    _, resp = ldp.CTB.respond_to_users(r, np.full(r.size, eps), rng)
    np.testing.assert_array_equal(resp, r)
    pol = ldp.make_policy("LDP-UCB-B", eps)
    assert pol.kernel_args()[3] == math.inf


def test_ctb_output_mean_between_709_09_and_709_78():
    """2(e^eps + 1) overflows from eps = 709.09: Lemma 5's mean came out as 1/2 for every arm there."""
    for eps in (709.1, 709.5, 709.78):
        assert float(mech.ctb_output_mean(0.9, eps)) == pytest.approx(0.9, abs=1e-15)
    # the two forms meet at the switch (eps = 700): Lemma 5's mean is continuous
    assert float(mech.ctb_output_mean(0.9, 700.0)) == pytest.approx(
        float(mech.ctb_output_mean(0.9, 700.0001)), abs=1e-15
    )


@pytest.mark.parametrize("eps", [0.3, 2.0, 36.0])
def test_ctb_probability_unchanged_for_ordinary_epsilon(eps):
    """Bit for bit the formula the stored simulations used, (r e^eps + 1 - r)/(1 + e^eps)."""
    r = np.linspace(0.0, 1.0, 101)
    e = math.exp(eps)
    np.testing.assert_array_equal(mech.ctb_probability(r, e), (r * e + 1.0 - r) / (1.0 + e))
    assert ldp.CTB(eps).exp_eps == e


# ------------------------------------------------------------------------------------- large epsilon: bounds

MEANS = [0.8, 0.5, 0.3]


@pytest.mark.parametrize("eps", [360.0, 709.8, 1e4, 1e300])
def test_bounds_take_their_limits_at_huge_epsilon(eps):
    """Each raised OverflowError (math range error, or 'Numerical result out of range') from eps = 355 or 709.8."""
    assert bounds.lower_bound_constant(MEANS, eps) == pytest.approx(0.0, abs=1e-300)
    assert bounds.lower_bound_constant_tightened(MEANS, eps) == pytest.approx(0.0, abs=1e-300)
    assert bounds.basu2019_lower_bound_constant(MEANS, eps) == 0.0
    assert bounds.ctb_lai_robbins_constant(MEANS, eps) == pytest.approx(bounds.lai_robbins_constant(MEANS), rel=1e-12)
    assert bounds.lemma12_bound(0.3, 0.6, eps) == math.inf
    assert bounds.lemma12_bound(0.3, 0.3, eps) == 0.0
    # Fact 13 at the limit: R -> p/q, r -> (1-p)/(1-q)
    assert bounds.lemma12_fact13_bound(0.3, 0.6, eps) == pytest.approx((0.5 - 1.75) ** 2 / (4 * 0.5 * 1.75), rel=1e-12)
    assert bounds.lemma12_fact13_bound(0.0, 1.0, eps) == math.inf  # sinh^2(eps), beyond the doubles
    lv = _constant(eps)
    for f in (bounds.heldp_ucb_l_regret_bound, bounds.heldp_ucb_b_regret_bound):
        assert math.isfinite(f(MEANS, 1_000, lv, eps))
    assert bounds.heldp_ucb_b_regret_bound(MEANS, 1_000, lv, eps) == pytest.approx(
        bounds.heldp_ucb_b_homogeneous_bound(MEANS, 1_000, eps), rel=1e-9
    )


def test_bounds_are_continuous_where_their_formula_switches():
    for lo, hi in ((350.0, 350.0 * (1 + 1e-12)), (349.999, 350.001)):
        a, b = bounds.lower_bound_constant(MEANS, lo), bounds.lower_bound_constant(MEANS, hi)
        assert b == pytest.approx(a, rel=1e-2)
    assert bounds.lemma12_fact13_bound(0.0, 1.0, 40.0) == pytest.approx(math.sinh(40.0) ** 2, rel=1e-12)


def test_lemma12_fact13_bound_at_q_equal_1():
    """q e^-eps + 1 - q rounded to 0 at q = 1 from eps = 37: the bound was nan (inf/inf)."""
    for eps in (37.0, 40.0, 100.0, 340.0):
        assert bounds.lemma12_fact13_bound(0.0, 1.0, eps) == pytest.approx(math.sinh(eps) ** 2, rel=1e-12)
        assert bounds.lemma12_fact13_bound(1.0, 0.0, eps) == pytest.approx(math.sinh(eps) ** 2, rel=1e-12)


def test_kl_bernoulli_of_close_arguments():
    """The two terms of d(p, q) cancel to (p-q)^2/(2q(1-q)); CTB's output means at eps = 1e-9 gave a
    negative Lai-Robbins constant (-2.7e19)."""
    from ldpcode.divergences import kl_bernoulli

    for p, q in ((0.3, 0.3 + 1e-7), (0.5 + 1e-10, 0.5), (0.9, 0.9 - 1e-8)):
        d = q - p
        # the series to third order, exact to 1e-12 relative at these distances
        want = d * d / (2 * q * (1 - q)) + d**3 * (1 - 2 * q) / (6 * q * q * (1 - q) ** 2)
        assert float(kl_bernoulli(p, q)) == pytest.approx(want, rel=1e-9)
    for eps in (1e-9, 1e-6, 1e-4):
        c = bounds.ctb_lai_robbins_constant(MEANS, eps)
        assert c > 0 and c * eps * eps == pytest.approx(bounds.ctb_lai_robbins_constant(MEANS, 1e-3) * 1e-6, rel=1e-3)


# -------------------------------------------------------------------------------------------- small epsilon

TINY = [1e-310, 1e-200, 1e-12, EPSILON_FLOOR * 0.999]


@pytest.mark.parametrize("eps", TINY)
def test_levels_below_the_floor_are_refused(eps):
    calls = [
        lambda: ldp.make_policy("LDP-UCB-L", eps),
        lambda: ldp.make_policy("LDP-UCB-B", eps),
        lambda: ldp.make_policy("AdaP-UCB", eps),
        lambda: ldp.make_curator("CTB", eps),
        lambda: mech.GaussianMechanism(eps, 1e-5),
        lambda: mech.LaplaceMechanism(eps),
        lambda: ldp.make_privacy_levels("constant", epsilon=eps),
        lambda: bounds.laplace_ratio(eps),
        lambda: bounds.lower_bound_constant(MEANS, eps),
        lambda: audit.random_dp_pair(eps, 3, np.random.default_rng(0)),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="epsilon must be >= 1e-09"):
            call()
    with pytest.raises(ValueError, match="epsilon_min must be >= 1e-09"):
        ldp.make_policy("HeLDP-UCB-B", epsilon_min=eps)


def test_every_kernel_quantity_is_finite_at_the_floor():
    """At eps = EPSILON_FLOOR the indexes, widths and sums of every agent are finite numbers (at 1e-310 every
    index was nan and the kernel pulled the last arm)."""
    from ldpcode.policies import heterogeneous_chunk, index_policy_chunk
    from ldpcode.policies.heterogeneous import HeterogeneousDraws, HeterogeneousState
    from ldpcode.policies.index import CountsRecorder, IndexDraws, IndexState

    inst = ldp.make_instance("bernoulli", means=[0.9, 0.1, 0.5])
    rng = np.random.default_rng(0)
    T, n = 5_000, inst.n_arms
    cps = np.array([T])
    for name in ("LDP-UCB-L", "LDP-UCB-B"):
        pol = ldp.make_policy(name, EPSILON_FLOOR)
        counts, sums, means, widths = np.zeros(n, np.int64), np.zeros(n), np.zeros(n), np.zeros(n)
        index_policy_chunk(
            0,
            T,
            inst.families,
            inst.params,
            IndexDraws(inst.draw_stream(rng, T), pol.draw_noise(rng, T)),
            pol.kernel_tuning(),
            IndexState(counts, sums, means, widths),
            CountsRecorder(cps, np.zeros((1, n), np.int64)),
            0,
        )
        assert np.isfinite(means).all() and np.isfinite(widths).all() and counts.sum() == T
        assert (counts > T / 10).all()  # pure noise: every arm explored, not the last one
    for name in ("HeLDP-UCB-L", "HeLDP-UCB-B"):
        pol = ldp.make_policy(name, epsilon_min=EPSILON_FLOOR)
        counts, kept = np.zeros(n, np.int64), np.zeros(n, np.int64)
        sums, acc, means, widths = (np.zeros(n) for _ in range(4))
        heterogeneous_chunk(
            0,
            T,
            inst.families,
            inst.params,
            HeterogeneousDraws(inst.draw_stream(rng, T), pol.draw_noise(rng, T), np.full(T, EPSILON_FLOOR)),
            pol.kernel_tuning(),
            HeterogeneousState(counts, kept, sums, acc, means, widths),
            CountsRecorder(cps, np.zeros((1, n), np.int64)),
            0,
        )
        for v in (sums, acc, means, widths):
            assert np.isfinite(v).all()
        assert counts.sum() == T and (counts > T / 10).all()


def test_engine_discards_users_below_the_floor_like_users_at_zero():
    """A law with positive levels below EPSILON_FLOOR is legitimate (a clipped Gaussian draws them): the agents
    discard those users (eps_min >= the floor), exactly as users at 0, and the curators answer them as at 0."""
    inst = ldp.make_instance("ren2020-bernoulli")
    pol = ldp.make_policy("HeLDP-UCB-B", epsilon_min=0.5)
    tiny = ldp.simulate(
        pol, inst, 5_000, 2, seed=4, privacy_levels=ldp.make_privacy_levels("discrete", values=[1e-310, 1.0])
    )
    zero = ldp.simulate(
        pol, inst, 5_000, 2, seed=4, privacy_levels=ldp.make_privacy_levels("discrete", values=[0.0, 1.0])
    )
    np.testing.assert_array_equal(tiny.counts, zero.counts)
    rng = np.random.default_rng(0)
    r = np.array([0.0, 1.0, 0.3, 0.7])
    levels = np.array([0.0, 1e-310, 1e-12, 1.0])
    _, x = ldp.CTL.respond_to_users(r, levels, rng)
    assert np.isfinite(x).all() and (x[:3] == 0.5).all()  # 1/1e-310 = inf made these +-inf
    _, y = ldp.CTB.respond_to_users(np.zeros(100_000), np.full(100_000, 1e-310), rng)
    assert abs(y.mean() - 0.5) < 0.01
    assert audit.HeterogeneousCurator("CTL", 1e-310).exact_loss([0.0, 1.0]) == 0.0
    assert audit.curator_audit(audit.HeterogeneousCurator("CTL", 1e-310), 200, 0, pilot=20).lower == 0.0


# --------------------------------------------------------------------------- Lemma 3's exact tail in O(n)


def _laplace_sum_sf_quadratic(lam, n, b):
    """The O(n^2)-memory double sum that laplace_sum_sf used to evaluate (kept here as the reference)."""
    from scipy.special import gammaln, logsumexp

    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    keep = j <= i
    i, j = i[keep].astype(float), j[keep].astype(float)
    coef = gammaln(n + j) - gammaln(i - j + 1) - gammaln(j + 1) - gammaln(n) - (n + j) * math.log(2.0)

    def upper(x):
        with np.errstate(divide="ignore"):
            powers = np.where(i == j, 0.0, (i - j) * math.log(x) if x > 0 else -np.inf)
        return math.exp(-x + logsumexp(coef + powers))

    return np.array([upper(v / b) if v >= 0 else 1.0 - upper(-v / b) for v in np.atleast_1d(lam)])


@pytest.mark.parametrize("n", [1, 2, 3, 7, 40, 300])
def test_laplace_sum_sf_equals_the_double_sum(n):
    lam = np.array([-40.0, -3.0, -0.5, 0.0, 0.2, 1.0, 3.0, 10.0, 40.0, 200.0, 900.0])
    np.testing.assert_allclose(
        mech.laplace_sum_sf(lam, n, 1.3), _laplace_sum_sf_quadratic(lam, n, 1.3), rtol=1e-12, atol=0
    )


@settings(max_examples=30, deadline=None, derandomize=True)
@given(n=st.integers(1, 60), lam=st.floats(-50, 400), b=st.floats(0.05, 20))
def test_laplace_sum_sf_equals_the_double_sum_property(n, lam, b):
    assert mech.laplace_sum_sf(lam, n, b) == pytest.approx(
        float(_laplace_sum_sf_quadratic(lam, n, b)[0]), rel=1e-11, abs=1e-300
    )


def test_laplace_sum_sf_large_n_against_monte_carlo():
    """n = 2,000 by direct sums of Laplace draws, n = 10^6 by differences of Gamma(n, b) draws: within 4.5
    standard errors. The double sum needed 2 x n^2/2 doubles: 32 GB at n = 10^5 (refused by the machine); the
    block sum takes a few MB and about 0.3 s per 10^6 terms."""
    rng = np.random.default_rng(12)
    n, m, b = 2_000, 20_000, 0.7
    y = np.zeros(m)
    for _ in range(n // 100):
        y += rng.laplace(0.0, b, (m, 100)).sum(axis=1)
    for lam in (0.0, 30.0, 90.0):
        p = mech.laplace_sum_sf(lam, n, b)
        assert abs((y > lam).mean() - p) < 4.5 * math.sqrt(p * (1 - p) / m) + 1e-12
    n, m = 10**6, 400_000
    y = rng.gamma(n, 1.0, m) - rng.gamma(n, 1.0, m)
    for lam in (1000.0, 3000.0, 4000.0):
        p = mech.laplace_sum_sf(lam, n, 1.0)
        assert abs((y > lam).mean() - p) < 4.5 * math.sqrt(p * (1 - p) / m)


def test_laplace_sum_sf_memory_is_linear():
    """n = 3 x 10^5 within 300 MB of peak memory (the double sum would have needed 2 x 45e9 doubles)."""
    import tracemalloc

    tracemalloc.start()
    p = mech.laplace_sum_sf(3.0 * math.sqrt(2 * 300_000), 300_000, 1.0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 300e6
    assert p == pytest.approx(0.00135, rel=0.01)  # the normal tail at 3 sd: 0.001350


def test_laplace_sum_sf_ceiling_is_named():
    with pytest.raises(ValueError, match=r"n must be <= 100,000,000 \(LAPLACE_SUM_MAX_N"):
        mech.laplace_sum_sf(1.0, 10**8 + 1, 1.0)


def test_ctb_probability_takes_scalars_and_zero_d_arrays_at_every_eps():
    """Both branches of the compiled ctb_probability must have one type: a 0-d array reward (what
    check_unit_interval returns for a scalar) raised a numba TypingError."""
    for eps in (0.5, 800.0):
        ctb = ldp.CTB(eps)
        assert float(ctb.probability_one(0.3)) == pytest.approx(float(mech.ctb_output_mean(0.3, eps)), rel=1e-12)
        assert ctb.probability_one([0.3, 1.0]).shape == (2,)


@pytest.mark.parametrize(
    "call",
    [
        lambda: ldp.make_instance("bernoulli", means=np.array([0.5, 1.2])),
        lambda: ldp.divergences.tv_gaussian(np.array([0.0, np.nan]), 1.0, 1.0, 1.0),
        lambda: ldp.linear_fit(np.array([2.0, 2.0, 2.0]), [1.0, 2.0, 3.0]),
        lambda: ldp.instances.PrivacyLevels("mine", lambda rng, size: np.full(size, -1.0)).sample(
            np.random.default_rng(0), 3
        ),
    ],
    ids=["a mean above 1", "a nan at an index", "a constant x", "a sampler's negative level"],
)
def test_a_refusal_shows_the_value_as_a_reader_wrote_it_not_numpys_repr(call):
    """A value read out of an array is shown as a plain number ("got 1.2", "at index (1,)"), not as NumPy 2's repr of
    its scalar types ("got np.float64(1.2)", "at index (np.int64(1),)")."""
    with pytest.raises(ValueError) as err:
        call()
    assert "np." not in str(err.value), str(err.value)
