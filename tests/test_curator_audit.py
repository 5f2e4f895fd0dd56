"""ldpcode.audit.curator_audit and friends (issue 6): the black-box privacy audit passes every genuine
curator of the book and refutes deliberately broken ones; exact losses against hand-computed values;
delta_log_ratio by hand; the floating-point Laplace map against numpy's sampler (Mironov 2012)."""

import math

import numpy as np
import pytest
from scipy.stats import beta

import ldpcode as ldp
from ldpcode import audit as A
from ldpcode import reductions as rd
from ldpcode.mechanisms import GaussianMechanism, LaplaceMechanism

EPS = [0.5, 1.0, 2.0]
# the support of ren-heldp-discrete, plus the quartiles of ren-heldp-gaussian (N(1, 1) clipped to [0, 100],
# whose atoms 0 and 100 are in the support already)
HELDP_LEVELS = [0.0, 0.2, 1 - 0.6745, 1.0, 1 + 0.6745, 2.0, 100.0]


# ---------------------------------------------------------------- genuine curators pass, with power


@pytest.mark.parametrize("name", ["CTL", "CTB", "CTL-S", "CTB-S"])
@pytest.mark.parametrize("eps", EPS)
def test_ren_curators_pass_and_audit_comes_close(name, eps):
    cur = ldp.make_curator(name, eps)
    res = A.curator_audit(cur, 100_000, seed=11)
    assert not res.refuted and res.lower <= eps
    assert res.exact == pytest.approx(eps, rel=1e-9)  # the extremes are on the grid
    assert res.lower > eps - 0.15  # and the audit has power: it nearly reaches eps
    bounded = name in ("CTL", "CTB")
    assert res.rejected == (A.AUDIT_PROBES if bounded else ())
    assert res.discrete == (name in ("CTB", "CTB-S"))
    # the loss is attained between the extremes of the domain: (0, 1), or (-1e6, 1e6) under the Sigmoid
    assert res.worst_pair == ((0.0, 1.0) if bounded else (-1e6, 1e6))


def test_heldp_levels_match_the_book():
    d = ldp.make_privacy_levels("ren-heldp-discrete")
    assert set(d.values.tolist()) <= set(HELDP_LEVELS)


@pytest.mark.parametrize("name", ["CTL", "CTB", "CTL-S", "CTB-S"])
def test_heterogeneous_curators_pass_at_each_level(name):
    for e in HELDP_LEVELS:
        cur = A.HeterogeneousCurator(name, e)
        res = A.curator_audit(cur, 10_000, seed=3)
        assert not res.refuted, (name, e, res.lower)
        assert res.exact == pytest.approx(e, rel=1e-9, abs=1e-12)
        if 0 < e <= 2:
            assert res.lower > e - 0.3  # power: within the sampling error at 10^4 samples
        if e == 100:
            assert res.lower > 5  # far below 100: an audit only bounds from below
        if e == 0:
            assert res.lower <= 0.0  # 0-DP: nothing to find


def test_heterogeneous_curator_is_respond_to_users():
    cur = A.HeterogeneousCurator("CTB", 1.0)
    x = np.linspace(0, 1, 7)
    got = cur.privatize(x, np.random.default_rng(4))
    want = ldp.CTB.respond_to_users(x, np.full(7, 1.0), np.random.default_rng(4))[1]
    assert np.array_equal(got, want)
    with pytest.raises(ValueError):
        cur.privatize([2.0], np.random.default_rng(0))


@pytest.mark.parametrize("eps", [0.5, 1.0, 4.0])
def test_gaussian_mechanism_passes_at_eps_delta(eps):
    g = rd.algorithm1_mechanism(eps, 1e-6, 1.0)  # Zheng et al., Algorithm 1: domain [-B, B]
    res = A.curator_audit(g, 50_000, seed=5, inputs=(-1.0, 0.0, 1.0), probes=())
    assert res.method == "threshold" and res.delta == 1e-6
    assert not res.refuted
    assert res.exact == pytest.approx(A.gaussian_epsilon_at_delta(g.sigma, 2.0, 1e-6))
    assert res.lower <= res.exact  # a valid lower bound (at this seed)


def test_laplace_mechanism_passes_in_domain_and_is_refuted_outside():
    lap = rd.laplace_mechanism(1.0, 1.0)  # Lap(2B/eps), domain [-B, B]
    res = A.curator_audit(lap, 100_000, seed=6, inputs=(-1.0, 0.0, 1.0), probes=())
    assert not res.refuted and res.exact == pytest.approx(1.0) and res.lower > 0.85
    # it does not enforce its sensitivity: inputs outside [-B, B] are accepted and leak
    out = A.curator_audit(lap, 100_000, seed=6, inputs=(-1.0, 0.0, 1.0))
    assert out.refuted and out.rejected == () and out.exact == pytest.approx(2e6 / 2)  # spread 2e6, scale 2


# ---------------------------------------------------------------- broken curators are refuted


@pytest.mark.parametrize("eps", EPS)
def test_half_scale_laplace_refuted(eps):
    res = A.curator_audit(A.broken_curator("half-scale", eps), 100_000, seed=7)
    assert res.refuted and res.lower > 1.8 * eps  # its true loss is 2 eps
    assert res.exact == pytest.approx(2 * eps)


@pytest.mark.parametrize("flaw", ["unclipped", "leaky"])
@pytest.mark.parametrize("eps", EPS)
def test_out_of_range_leaks_refuted(flaw, eps):
    res = A.curator_audit(A.broken_curator(flaw, eps), 50_000, seed=8)
    assert res.refuted and res.lower > eps + 1.0
    assert res.rejected == ()
    assert res.exact == math.inf
    assert res.worst_pair[0] < 0 or res.worst_pair[1] > 1  # the leak is at an out-of-range input
    # on [0, 1] alone they are Curators 1 and 3, and pass
    inside = A.curator_audit(A.broken_curator(flaw, eps), 50_000, seed=8, probes=())
    assert not inside.refuted and inside.exact == pytest.approx(eps)


def test_swapped_ctb_is_private_but_has_the_wrong_mean():
    sw = A.broken_curator("swapped", 1.0)
    res = A.curator_audit(sw, 100_000, seed=9)
    assert not res.refuted and res.exact == pytest.approx(1.0)  # a relabelling: still eps-LDP
    m = A.output_mean_audit(sw, samples=50_000, seed=9)
    assert m.refuted
    assert m.claimed[0] == pytest.approx(1 / (1 + math.e))  # Lemma 5 at r = 0
    assert m.mean[0] == pytest.approx(math.e / (1 + math.e), abs=0.01)
    assert abs(m.z[2]) < m.critical  # r = 1/2: p = 1/2 either way
    for cur in (ldp.CTB(1.0), ldp.CTL(1.0)):  # (CTL-S, CTB-S: output_mean is for a Gaussian arm)
        assert not A.output_mean_audit(cur, samples=50_000, seed=9).refuted


def test_gaussian_refuted_when_claim_too_small_or_probed_outside():
    g = GaussianMechanism(1.0, 1e-6, 1.0)
    low = A.curator_audit(g, 100_000, seed=10, inputs=(0.0, 1.0), probes=(), epsilon=0.05)
    assert low.refuted  # its exact eps at delta is ~0.78
    out = A.curator_audit(g, 100_000, seed=10, inputs=(0.0, 1.0), probes=(-10.0, 10.0))
    assert out.refuted and out.lower > 3


# ---------------------------------------------------------------- exact values by hand


def test_exact_losses_by_hand():
    e = math.e
    # CTB on (1/4, 3/4): P{1} = (3e + 1)/(4(1+e)) and (e + 3)/(4(1+e))
    assert A.exact_curator_loss(ldp.CTB(1.0), [0.25, 0.75]) == pytest.approx(math.log((3 * e + 1) / (e + 3)))
    # CTB-S on (0, ln 3): s = 1/2, 3/4 -> P{1} = 1/2 and (3e + 1)/(4(1+e)); P{0} = 1/2 and (e + 3)/(4(1+e))
    want = max(math.log((3 * e + 1) / (2 * (1 + e))), math.log(2 * (1 + e) / (e + 3)))
    assert A.exact_curator_loss(ldp.CTBS(1.0), [0.0, math.log(3)]) == pytest.approx(want)
    # CTL with eps = 2 on (0.2, 0.7): 2 x 0.5
    assert A.exact_curator_loss(ldp.CTL(2.0), [0.2, 0.7]) == pytest.approx(1.0)
    # CTL-S: eps |s(r) - s(r')| = 3 (3/4 - 1/2)
    assert A.exact_curator_loss(ldp.CTLS(3.0), [0.0, math.log(3)]) == pytest.approx(0.75)
    assert A.exact_curator_loss(LaplaceMechanism(1.0, 2.0), [-1.0, 1.0]) == pytest.approx(1.0)
    # unclipped CTB at eps = 1/2 on (-1, 2): p(2) = (2e^eps - 1)/(1+e^eps), p(-1) = (2 - e^eps)/(1+e^eps)
    q = math.exp(0.5)
    assert A.exact_curator_loss(A.UnclippedCTB(0.5), [-1.0, 2.0]) == pytest.approx(math.log((2 * q - 1) / (2 - q)))
    assert A.exact_curator_loss(A.UnclippedCTB(1.0), [0.0, 2.0]) == math.inf  # p(2) = 1.19 > 1
    assert A.exact_curator_loss(A.LeakyCTL(1.0), [0.0, 0.5]) == pytest.approx(0.5)
    assert A.exact_curator_loss(A.LeakyCTL(1.0), [0.0, 2.0]) == math.inf
    assert A.exact_curator_loss(A.HalfScaleCTL(0.7), [0.0, 1.0]) == pytest.approx(1.4)
    assert A.exact_curator_loss(A.HeterogeneousCurator("CTL", 0.0), [0.0, 1.0]) == 0.0
    # CTB at eps = 100: the small probability 1/(1+e^100) is kept (not 1 - p(1), which rounds to 0)
    assert A.exact_curator_loss(ldp.CTB(100.0), [0.0, 1.0]) == pytest.approx(100.0)
    assert math.isnan(A.exact_curator_loss(object(), [0.0, 1.0]))


def test_gaussian_epsilon_at_delta():
    sigma, sens, delta = 2.0, 1.0, 1e-3
    eps = A.gaussian_epsilon_at_delta(sigma, sens, delta)
    assert float(rd.gaussian_exact_delta(eps, sigma, sens)) == pytest.approx(delta, rel=1e-8)
    assert float(rd.gaussian_exact_delta(eps * 0.99, sigma, sens)) > delta
    assert A.gaussian_epsilon_at_delta(sigma, 0.0, delta) == 0.0
    # delta(0) = 2 Phi(Delta/(2 sigma)) - 1 = 0.0996 for Delta/sigma = 1/4: any delta above it needs eps = 0
    assert A.gaussian_epsilon_at_delta(4.0, 1.0, 0.2) == 0.0
    # Dwork and Roth's sigma gives (eps, delta) for eps < 1: the exact eps is below the claim
    g = GaussianMechanism(0.5, 1e-5, 1.0)
    assert A.gaussian_epsilon_at_delta(g.sigma, 1.0, 1e-5) < 0.5


# ---------------------------------------------------------------- the estimators by hand


def _cp(n, total, level):
    lo = beta.ppf(level / 2, n, total - n + 1) if n > 0 else 0.0
    hi = beta.ppf(1 - level / 2, n + 1, total - n) if n < total else 1.0
    return lo, hi


@pytest.mark.parametrize("delta", [0.0, 0.1])
def test_delta_log_ratio_by_hand(delta):
    a = np.array([0.0] * 20 + [1.0] * 80)  # 80 of 100 at or above 0.5
    b = np.array([0.0] * 80 + [1.0] * 20)  # 20 of 100
    res = A.delta_log_ratio(a, b, [0.5], delta, alpha=0.1)
    level = 0.1 / 2  # one threshold, two samples
    lo_a, hi_a = _cp(80, 100, level)
    lo_b, hi_b = _cp(20, 100, level)
    cands = [(lo_a, hi_b), (1 - hi_b, 1 - lo_a)]  # {x >= .5} under (a, b); {x < .5} under (b, a)
    want = max(math.log((n - delta) / d) for n, d in cands)
    assert want > 0
    assert res.max_lower == pytest.approx(want, rel=1e-12)
    assert res.estimate == pytest.approx(math.log((0.8 - delta) / 0.2))
    assert res.counts_a.tolist() == [80] and res.counts_b.tolist() == [20]
    # with 10 samples each the same bound is negative (-0.23, -0.48): a privacy loss is never below 0
    assert A.delta_log_ratio(a[::10], b[::10], [0.5], delta, alpha=0.1).max_lower == 0.0


def test_curator_audit_bonferroni_is_over_inputs_and_events():
    # with m accepted inputs every pairwise call runs at 2 alpha / m: rebuild it from the same streams
    cur, n, seed, alpha = ldp.CTB(1.0), 2_000, 21, 0.05
    inputs = (0.0, 0.5, 1.0)
    res = A.curator_audit(cur, n, seed, inputs=inputs, probes=(), alpha=alpha)
    gens = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(3)]
    outs = []
    for r, g in zip(inputs, gens):
        cur.privatize(np.full(1000, r), g)  # the pilot (1000 = max(1000, n // 10))
        outs.append(cur.privatize(np.full(n, r), g))
    edges = np.array([-np.inf, 0.5, np.inf])  # two categories: cut at the midpoint
    want = A.binned_log_ratio(outs[0], outs[2], edges, alpha=2 * alpha / 3).max_lower
    assert res.pair_lower[0, 2] == pytest.approx(want, rel=1e-12)
    assert res.lower == pytest.approx(max(want, res.pair_lower[0, 1], res.pair_lower[1, 2]))
    assert res.events == 2 and res.discrete


def test_curator_audit_is_deterministic_and_dedupes():
    a = A.curator_audit(ldp.CTL(1.0), 5_000, seed=2, inputs=(0.0, 1.0, 1.0), probes=(0.0,))
    b = A.curator_audit(ldp.CTL(1.0), 5_000, seed=2, inputs=(0.0, 1.0), probes=())
    assert a.inputs == (0.0, 1.0) and a.lower == b.lower and a.estimate == b.estimate


# ---------------------------------------------------------------- floating-point Laplace (Mironov 2012)


@pytest.mark.parametrize("eps", [0.5, 1.0])
def test_laplace_float_output_is_ctl(eps):
    n = 20_000
    x = ldp.CTL(eps).privatize(np.full(n, 1.0), np.random.default_rng(3))
    k = (np.random.default_rng(3).random(n) * 2.0**53).astype(np.int64)
    assert np.array_equal(A.laplace_float_output(k, 1.0, 1.0 / eps), x)
    y = LaplaceMechanism(eps).privatize(np.zeros(n), np.random.default_rng(3))
    assert np.array_equal(A.laplace_float_output(k, 0.0, 1.0 / eps), y)


def test_laplace_float_reachable():
    rng = np.random.default_rng(12)
    x1 = ldp.CTL(1.0).privatize(np.ones(4_000), rng)
    assert A.laplace_float_reachable(x1, 1.0, 1.0).all()  # every output from its own input
    share = 1 - A.laplace_float_reachable(x1, 0.0, 1.0).mean()
    assert 0.6 < share < 0.95  # most identify the input (about 0.8)
    # by hand: 0 = 0 + log(2 x 1/2) is an output of input 0; the smallest subnormal is not (|noise| >= 1e-16)
    assert A.laplace_float_reachable([0.0, 5e-324], 0.0, 1.0).tolist() == [True, False]


def test_ctb_float_probability_one():
    assert A.ctb_float_probability_one([0.5], 1.0).tolist() == [0.5]
    assert A.ctb_float_probability_one([0.0, 1.0], 100.0).tolist() == [2.0**-53, 1.0]
    p = 1 / (1 + math.e)
    got = float(A.ctb_float_probability_one([0.0], 1.0)[0])
    assert p <= got < p + 2.0**-53 + 1e-17


# ---------------------------------------------------------------- validation


def test_validation_errors():
    with pytest.raises(ValueError, match="samples"):
        A.curator_audit(ldp.CTL(1.0), 50)
    with pytest.raises(ValueError, match="alpha"):
        A.curator_audit(ldp.CTL(1.0), 1000, alpha=1.5)
    with pytest.raises(ValueError, match="epsilon"):
        A.curator_audit(ldp.CTL(1.0), 1000, epsilon=-1.0)
    with pytest.raises(ValueError, match="delta"):
        A.curator_audit(ldp.CTL(1.0), 1000, delta=1.0)
    with pytest.raises(TypeError, match="privatize"):
        A.curator_audit(object(), 1000, epsilon=1.0)
    with pytest.raises(ValueError, match="epsilon must be given"):
        A.curator_audit(object(), 1000)
    with pytest.raises(ValueError, match="fewer than two"):
        A.curator_audit(ldp.CTL(1.0), 1000, inputs=(0.0,), probes=(5.0,))
    with pytest.raises(ValueError, match="inputs"):
        A.curator_audit(ldp.CTL(1.0), 1000, inputs=(0.0, np.nan))
    with pytest.raises(TypeError, match="inputs"):
        A.curator_audit(ldp.CTL(1.0), 1000, inputs=("a", object()))
    with pytest.raises(ValueError, match="thresholds"):
        A.delta_log_ratio([0.0, 1.0], [0.0, 1.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="delta"):
        A.delta_log_ratio([0.0, 1.0], [0.0, 1.0], [0.5], delta=-0.1)
    with pytest.raises(ValueError, match="curator"):
        A.HeterogeneousCurator("CTX", 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        A.HeterogeneousCurator("CTL", -1.0)
    with pytest.raises(ValueError, match="flaw"):
        A.broken_curator("noisy", 1.0)
    with pytest.raises(ValueError, match="k must"):
        A.laplace_float_output(np.array([0]), 0.0, 1.0)
    with pytest.raises(ValueError, match="scale"):
        A.laplace_float_reachable([0.0], 0.0, 0.0)
    with pytest.raises(TypeError, match="output_mean"):
        A.output_mean_audit(A.HeterogeneousCurator("CTL", 1.0))  # privatize, but no output_mean to check
    with pytest.raises(ValueError, match="sigma"):
        A.gaussian_epsilon_at_delta(0.0, 1.0, 1e-5)
    with pytest.raises(ValueError, match="inputs"):
        A.exact_curator_loss(ldp.CTL(1.0), [])
    with pytest.raises(ValueError, match="must return"):

        class Bad:
            epsilon = 1.0

            def privatize(self, v, rng):
                return np.full(np.shape(v), np.nan)

        A.curator_audit(Bad(), 1000)


def test_consecutive_doubles_and_seed_sequence():
    x = A.consecutive_doubles(1.0, 3)
    assert x.tolist() == [1.0, 1.0 + 2.0**-52, 1.0 + 2.0**-51]
    with pytest.raises(ValueError, match="x0"):
        A.consecutive_doubles(-1.0, 3)
    a = A.curator_audit(ldp.CTB(1.0), 2_000, seed=np.random.SeedSequence(5), probes=())
    b = A.curator_audit(ldp.CTB(1.0), 2_000, seed=5, probes=())
    assert a.lower == b.lower
