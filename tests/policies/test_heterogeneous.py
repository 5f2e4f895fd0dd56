"""Heterogeneous privacy levels (Ren et al., extended version): distributions, curators, g, HeLDP agents."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ldpcode as ldp
from ldpcode import mechanisms as mech


def test_paper_distributions_by_hand():
    d = ldp.make_privacy_levels("ren-heldp-discrete")
    assert d.p_at_least(0.0) == pytest.approx(1.0) and d.p_at_least(1e-9) == pytest.approx(0.8)
    assert d.p_at_least(1.0) == pytest.approx(0.6) and d.sup == 100.0
    # alpha_0 = E[eps^-2 | eps >= 0.2] = (25 + 1 + 1/4 + 1e-4) / 4
    assert d.expect(lambda e: e**-2.0, 0.2) / d.p_at_least(0.2) == pytest.approx((25 + 1 + 0.25 + 1e-4) / 4)
    g = ldp.make_privacy_levels("ren-heldp-gaussian")
    from scipy.stats import norm

    assert g.p_at_least(1e-12) == pytest.approx(norm.sf(-1.0), rel=1e-9)  # P{N(1,1) > 0}
    assert g.p_at_least(1.5) == pytest.approx(norm.sf(0.5), rel=1e-9)
    x = g.sample(np.random.default_rng(0), 400_000)
    assert (x == 0).mean() == pytest.approx(norm.cdf(-1.0), abs=3e-3)  # about 16% of users at eps = 0
    keep = x >= 0.5
    assert g.expect(lambda e: e**-2.0, 0.5) == pytest.approx((x[keep] ** -2.0).sum() / x.size, rel=0.02)


def test_constant_levels_and_user_sampler():
    c = ldp.make_privacy_levels("constant", epsilon=0.7)
    np.testing.assert_array_equal(c.sample(np.random.default_rng(1), 5), 0.7)
    s = ldp.make_privacy_levels("sampler", sampler=lambda rng, size: rng.exponential(1.0, size), name="exp(1)")
    assert s.p_at_least(1.0) == pytest.approx(math.exp(-1), abs=3e-3)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(values=[0.2, -1.0]), "finite and >= 0"),
        (dict(values=[0.2, math.inf]), "finite and >= 0"),
        (dict(values=[0.2, 1.0], probs=[0.5, 0.6]), "probs must"),
    ],
)
def test_bad_discrete_levels(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ldp.make_privacy_levels("discrete", **kwargs)


def test_bad_user_sampler_fails_before_any_simulation():
    with pytest.raises(ValueError, match="finite and >= 0"):
        ldp.make_privacy_levels("sampler", sampler=lambda rng, size: rng.standard_normal(size))
    with pytest.raises(ValueError, match="finite and >= 0"):
        ldp.make_privacy_levels("sampler", sampler=lambda rng, size: np.full(size, np.nan))
    with pytest.raises(TypeError, match="callable"):
        ldp.make_privacy_levels("sampler", sampler=3)
    with pytest.raises(ValueError, match="take no parameters"):
        ldp.make_privacy_levels("ren-heldp-discrete", values=[1.0])


@given(x=st.sampled_from([0.0, 1.0]), eps=st.floats(min_value=1e-3, max_value=30))
def test_unbias_by_hand(x, eps):
    k = (math.exp(eps) + 1) / math.expm1(eps)
    assert mech.unbias(x, eps) == pytest.approx(0.5 * (1 + k) if x == 1.0 else 0.5 * (1 - k), rel=1e-9)


@pytest.mark.parametrize("eps", [0.2, 1.0, 2.0])
@pytest.mark.parametrize("arm", [0, 1, 6, 16])
def test_unbiased_ctb_response_has_the_reward_mean(eps, arm):
    """E[g(M_B(R; eps); eps)] = E[R] (extended version, Section 3.2), on every reward family."""
    rng = np.random.default_rng(arm)
    inst = ldp.make_instance("ren2020-mixed")
    n = 400_000
    _, x = ldp.CTB.respond_to_users(inst.sample(arm, n, rng), np.full(n, eps), rng)
    y = mech.unbias(x, eps)
    assert abs(y.mean() - inst.means[arm]) < 4.5 * y.std() / math.sqrt(n)


def test_users_at_level_zero_release_nothing_and_nothing_infinite():
    rng = np.random.default_rng(3)
    r = np.array([0.0, 1.0, 0.5, 0.2])
    eps, x = ldp.CTL.respond_to_users(r, np.zeros(4), rng)
    np.testing.assert_array_equal(x, 0.5)
    _, xb = ldp.CTB.respond_to_users(np.zeros(200_000), np.zeros(200_000), rng)
    assert abs(xb.mean() - 0.5) < 0.005  # a fair coin whatever the reward
    with pytest.raises(ValueError, match="epsilons must be finite and >= 0"):
        ldp.CTB.respond_to_users(r, np.array([1.0, -1.0, 1.0, 1.0]), rng)
    with pytest.raises(ValueError, match="shape"):
        ldp.CTB.respond_to_users(r, np.ones(3), rng)


def test_heldp_policy_validation():
    inst = ldp.make_instance("ren2020-bernoulli")
    for bad in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="epsilon_min must be a finite number > 0"):
            ldp.make_policy("HeLDP-UCB-L", epsilon_min=bad)
    with pytest.raises(ValueError, match="needs epsilon_min"):
        ldp.make_policy("HeLDP-UCB-B")
    with pytest.raises(ValueError, match="takes epsilon_min, not epsilon"):
        ldp.make_policy("HeLDP-UCB-B", epsilon=1.0)
    with pytest.raises(ValueError, match="takes no epsilon_min"):
        ldp.make_policy("LDP-UCB-B", 1.0, epsilon_min=1.0)
    pol = ldp.make_policy("HeLDP-UCB-B", epsilon_min=150.0)
    with pytest.raises(ValueError, match="no user of 'ren-heldp-discrete' ever reaches epsilon_min=150"):
        ldp.simulate(pol, inst, 100, 1, privacy_levels=ldp.make_privacy_levels("ren-heldp-discrete"))
    with pytest.raises(ValueError, match="needs privacy_levels"):
        ldp.simulate(ldp.make_policy("HeLDP-UCB-B", epsilon_min=1.0), inst, 100, 1)
    with pytest.raises(ValueError, match="only for the heterogeneous"):
        ldp.simulate(
            ldp.make_policy("UCB1"), inst, 100, 1, privacy_levels=ldp.make_privacy_levels("constant", epsilon=1)
        )
    with pytest.raises(ValueError, match="Sigmoid version"):
        ldp.simulate(
            ldp.make_policy("HeLDP-UCB-L", epsilon_min=1.0),
            ldp.make_instance("ren2020-gaussian"),
            100,
            1,
            privacy_levels=ldp.make_privacy_levels("constant", epsilon=1),
        )


@pytest.mark.parametrize("name,homo", [("HeLDP-UCB-L", "LDP-UCB-L"), ("HeLDP-UCB-B", "LDP-UCB-B")])
@pytest.mark.parametrize("eps", [0.5, 2.0])
def test_constant_levels_reduce_to_the_homogeneous_agents(name, homo, eps):
    """eps_t = eps = eps_min for every user: the regret is that of LDP-UCB-L / -B (Corollaries 8, 11).

    HeLDP-UCB-B's index is then a positive affine map of LDP-UCB-B's, and HeLDP-UCB-L's equals
    LDP-UCB-L's (only the first forced pulls differ: Agent 2 of the extended version has no initial
    round), so with common random numbers the paired difference of regrets is centred on 0.
    """
    inst = ldp.make_instance("ren2020-bernoulli")
    runs, T = 40, 20_000
    a = ldp.simulate(ldp.make_policy(homo, eps), inst, T, runs, seed=7)
    b = ldp.simulate(
        ldp.make_policy(name, epsilon_min=eps),
        inst,
        T,
        runs,
        seed=7,
        privacy_levels=ldp.make_privacy_levels("constant", epsilon=eps),
    )
    d = b.final_regret() - a.final_regret()
    assert abs(d.mean()) < 4 * d.std(ddof=1) / math.sqrt(runs) + 1e-9


def test_discarding_low_levels_costs_regret_and_determinism():
    inst = ldp.make_instance("ren2020-bernoulli")
    lv = ldp.make_privacy_levels("ren-heldp-discrete")
    pol = ldp.make_policy("HeLDP-UCB-B", epsilon_min=1.0)
    a = ldp.simulate(pol, inst, 20_000, 4, seed=3, privacy_levels=lv, workers=1)
    b = ldp.simulate(pol, inst, 20_000, 4, seed=3, privacy_levels=lv, workers=2)
    np.testing.assert_array_equal(a.counts, b.counts)
    assert np.isnan(pol.epsilon) and a.epsilon == 1.0  # results are labelled by eps_min
    np.testing.assert_array_equal(a.counts.sum(axis=2)[:, -1], 20_000)


@pytest.mark.parametrize(
    "name,levels,eps_min,inst",
    [
        ("HeLDP-UCB-L", "ren-heldp-discrete", 1.0, "ren2020-bernoulli"),
        ("HeLDP-UCB-B", "ren-heldp-discrete", 0.2, "ren2020-bernoulli"),
        ("HeLDP-UCB-L", "ren-heldp-gaussian", 0.2, "ren2020-mixed"),
        ("HeLDP-UCB-B", "ren-heldp-gaussian", 1.0, "ren2020-mixed"),
        ("HeLDP-UCB-LS", "ren-heldp-discrete", 0.2, "ren2020-gaussian"),
        ("HeLDP-UCB-BS", "ren-heldp-gaussian", 1.0, "ren2020-gaussian"),
    ],
)
def test_heterogeneous_fast_path_pulls_exactly_the_arms_of_the_reference(name, levels, inst, eps_min):
    """The compiled HeLDP kernel (one log per pull, forced-pull scan skipped while min A_a is above the
    limit, per-level constants reused while eps_t repeats and kept per level of a discrete law) against the literal Agents 2 and 4 of
    :func:`ldpcode.reference.run_reference_heterogeneous`, on the same three streams: identical pulls
    at every checkpoint. 40_000 pulls span two engine chunks; discrete levels repeat (the kept constants:
    a constant read back wrong by one part in 10^6 fails three cases), Gaussian ones do not."""
    from ldpcode.reference import run_reference_heterogeneous

    pol, ins = ldp.make_policy(name, epsilon_min=eps_min), ldp.make_instance(inst)
    lv = ldp.make_privacy_levels(levels)
    cps = ldp.log_checkpoints(40_000, 40)
    ss = np.random.SeedSequence(11).spawn(1)[0]
    np.testing.assert_array_equal(
        pol.run_one(ins, 40_000, ss, cps, privacy_levels=lv)[0],
        run_reference_heterogeneous(pol, ins, lv, 40_000, ss, cps),
    )


def test_forced_exploration_does_not_depend_on_the_order_of_the_arms():
    """Issue 12, item 7: with every user at eps_t = 20 >> eps_min = 1, A_a grows by 1/400 a pull and the forced
    phase of Agent 2 (A_a <= eps_min^-2 log t^4) lasts the whole of a short run. Forcing the lowest-numbered
    arm gave it every pull (regret 8,158 with the best arm first, 37,368 with it last, T = 10^5); forcing the
    smallest A_a shares the phase round-robin, whatever the order."""
    means = [0.9, 0.8, 0.7, 0.6, 0.5]
    levels = ldp.make_privacy_levels("constant", epsilon=20.0)
    pol = ldp.make_policy("HeLDP-UCB-L", epsilon_min=1.0)
    runs = {}
    for order in ("best first", "best last"):
        inst = ldp.make_instance("bernoulli", means=means if order == "best first" else means[::-1])
        with pytest.warns(ldp.policies.UniformPlayWarning, match="plays the 5 arms in turn"):  # issue 23, part 7
            runs[order] = ldp.simulate(pol, inst, 20_000, runs=2, seed=3, privacy_levels=levels, workers=1)
    for r in runs.values():
        assert r.pulls.max() - r.pulls.min() <= 1  # round robin: every arm forced alike
    assert np.array_equal(runs["best first"].final_regret(), runs["best last"].final_regret())


def test_one_level_skips_the_levels_draws_and_pulls_the_same_arms():
    """A constant level's draws are skipped (``PrivacyLevels.only_level``); a sampler that draws its stream and
    returns the same constant gives the same pulls."""
    assert ldp.make_privacy_levels("constant", epsilon=2.0).only_level == 2.0
    assert ldp.make_privacy_levels("discrete", values=[0.2, 1.0], probs=[0.0, 1.0]).only_level == 1.0
    assert ldp.make_privacy_levels("ren-heldp-discrete").only_level is None
    assert ldp.make_privacy_levels("ren-heldp-gaussian").only_level is None
    drawing = ldp.make_privacy_levels("sampler", sampler=lambda rng, size: 2.0 + 0.0 * rng.random(size))
    assert drawing.only_level is None
    ins = ldp.make_instance("ren2020-mixed")
    for name in ("HeLDP-UCB-L", "HeLDP-UCB-B"):
        pol = ldp.make_policy(name, epsilon_min=1.0)
        a = ldp.simulate(pol, ins, 40_000, 2, 5, privacy_levels=ldp.make_privacy_levels("constant", epsilon=2.0))
        b = ldp.simulate(pol, ins, 40_000, 2, 5, privacy_levels=drawing)
        np.testing.assert_array_equal(a.counts, b.counts)


@pytest.mark.parametrize(
    "values,probs",
    [([0.0, 0.2, 1.0, 2.0, 100.0], None), ([0.5, 1.0, 3.0], [0.0, 0.7, 0.3]), ([1.0, 2.0], [0.999, 0.001])],
)
@pytest.mark.parametrize("size", [1, 1000, (7, 3)])
def test_discrete_levels_are_numpys_choice_draw_for_draw(values, probs, size):
    """The compiled sampler of the discrete levels gives ``vals[rng.choice(n, size, p=probs)]`` and leaves the
    generator where NumPy's choice leaves it."""
    lv = ldp.make_privacy_levels("discrete", values=values, probs=probs)
    p = np.full(len(values), 1.0 / len(values)) if probs is None else np.asarray(probs)
    for seed in range(20):
        ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
        np.testing.assert_array_equal(lv.sample(ours, size), np.asarray(values)[numpys.choice(len(values), size, p=p)])
        assert ours.random() == numpys.random()


def test_p_at_least_is_a_probability_and_its_threshold_a_level():
    """P{eps_t >= 0} under the clipped Gaussian law was 1.0000000000000002 (its atom at 0 plus a quadrature); the
    share is clipped to [0, 1]. A threshold is a finite number >= 0: nan was p_0 = 0, and '1' a NumPy error."""
    g = ldp.make_privacy_levels("ren-heldp-gaussian")
    assert g.p_at_least(0.0) == 1.0
    assert g.expect(lambda e: np.ones_like(e), 0.0) == pytest.approx(1.0)  # expect is no probability: not clipped
    assert g.p_at_least(1.5) == g.expect(lambda e: np.ones_like(e), 1.5)  # inside [0, 1]: unchanged
    d = ldp.make_privacy_levels("ren-heldp-discrete")
    for levels in (d, g):
        for bad in (math.nan, math.inf, -math.inf, -0.5):
            with pytest.raises(ValueError, match=r"^eps_min must be a finite number"):
                levels.p_at_least(bad)
            with pytest.raises(ValueError, match=r"^eps_min must be a finite number"):
                levels.expect(np.exp, bad)
        for bad in ("1", None, True, [1.0]):
            with pytest.raises(TypeError, match=r"^eps_min must be a real number"):
                levels.p_at_least(bad)
    with pytest.raises(TypeError, match=r"^f must be a vectorised function"):
        d.expect(1.0, 0.5)


def test_a_gaussian_laws_expectations_are_computed_once_and_stay_the_same(monkeypatch):
    """A clipped-Gaussian law keeps each (f, eps_min) expectation it computed (a quadrature of about 10 ms): a
    bound drawn against T asked for the same three at each of 121 checkpoints (Corollary 13's figure: 15 s, now 6 s).
    The value kept is the value computed: bit for bit, whatever the order of the calls."""
    from ldpcode import bounds
    from ldpcode.instances import PrivacyLevels

    fresh = ldp.make_privacy_levels("ren-heldp-gaussian")
    first = [fresh.expect(bounds.heldp_alpha, 1.0), fresh.p_at_least(1.0), fresh.expect(bounds.heldp_beta, 0.5)]
    calls = []
    compute = PrivacyLevels._gaussian_expect
    monkeypatch.setattr(PrivacyLevels, "_gaussian_expect", lambda self, f, e: calls.append(e) or compute(self, f, e))
    again = [fresh.expect(bounds.heldp_alpha, 1.0), fresh.p_at_least(1.0), fresh.expect(bounds.heldp_beta, 0.5)]
    assert again == first and calls == []  # kept, and equal to == (no tolerance)
    other = ldp.make_privacy_levels("ren-heldp-gaussian")  # a law keeps its own results only
    assert other.p_at_least(1.0) == first[1] and calls == [1.0]
    for k in range(300):  # the memory is bounded: 256 results, then it starts again
        other.p_at_least(1.0 + k / 1000)
    assert len(other._expect_memo) <= 256
    assert bounds.heldp_quantities(fresh, 1.0) == bounds.heldp_quantities(other, 1.0)


def test_the_quadratures_normal_density_is_scipys_bit_for_bit():
    """The clipped-Gaussian law integrates with its own density (scipy's norm.pdf costs 40 µs a point in its argument
    handling, about 11 of the 16 s of the eps_min notebook's criterion curves): it must give scipy's numbers exactly,
    or every stored HeLDP number on the Gaussian law would move."""
    from scipy.stats import norm

    from ldpcode.instances import _std_normal_pdf

    z = np.concatenate([np.random.default_rng(0).normal(size=20000) * 3, np.linspace(-40, 40, 20001), [0.0, -0.0]])
    ours = np.array([_std_normal_pdf(float(v)) for v in z])
    np.testing.assert_array_equal(ours, norm.pdf(z))


@pytest.mark.parametrize("mean, sd", [(50.0, 1e-4), (50.0, 1e-2), (1.0, 1e-8), (1.0, 1e-20), (1.0, 1e-300)])
def test_a_narrow_clipped_gaussian_law_keeps_its_users_and_their_mean(mean, sd):
    """The second input review: the quadrature missed a narrow peak, and p_0 read 0.5 (sd 1e-4 at 50) or 0 (sd 1e-20
    at 1) for a law whose every user is at its mean: HeLDP's bounds then doubled, and sweep refused the law."""
    levels = ldp.make_privacy_levels("clipped-gaussian", mean=mean, sd=sd, lo=0.0, hi=100.0)
    drawn = levels.sample(np.random.default_rng(3), 10_000)
    assert levels.p_at_least(0.5) == pytest.approx((drawn >= 0.5).mean(), abs=1e-8) == pytest.approx(1.0, abs=1e-8)
    assert levels.expect(lambda e: e, 0.5) == pytest.approx(mean, rel=1e-8)
    assert levels.p_at_least(mean + 1.0) == pytest.approx(0.0, abs=1e-12)  # and none above it


def test_a_level_of_probability_zero_is_not_the_largest_level():
    """The second input review: [0.5, 100] at probabilities [1, 0] had eps_max = 100, and Theorems 7 and 10's
    bounds a spread of levels Q_L, Q_B > 0 that no user has."""
    zero = ldp.make_privacy_levels("discrete", values=[0.5, 100.0], probs=[1.0, 0.0])
    assert zero.sup == 0.5 == ldp.make_privacy_levels("constant", epsilon=0.5).sup
    assert ldp.make_privacy_levels("discrete", values=[0.5, 100.0], probs=[0.5, 0.5]).sup == 100.0


def test_the_gaussian_laws_expectation_of_a_spike_at_a_tiny_eps_min():
    """E[eps^-2 1{eps >= a}] under N(1, 1) clipped to [0, 100] is phi(-1)/a to 1e-7 relative for a <= 1e-9 (the next
    term, ~0.24 log(1/a), is a log(1/a) of it); the linear quadrature integrated the spike as 2.02 at a = 1e-9."""
    from ldpcode.bounds import heldp_alpha

    levels = ldp.make_privacy_levels("ren-heldp-gaussian")
    phi1 = math.exp(-0.5) / math.sqrt(2 * math.pi)
    for a in (1e-9, 1e-100):
        assert levels.expect(heldp_alpha, a) == pytest.approx(phi1 / a, rel=1e-6)
    with pytest.raises(ValueError, match="eps_min=1e-160"):  # f = eps^-2 itself overflows there
        levels.expect(heldp_alpha, 1e-160)


def test_a_clipped_gaussian_law_of_huge_sd_keeps_its_probabilities():
    """N(1e308, 1e308²) clipped to [0, 1.7e308]: P{eps >= 1e308} = 1/2 and P{eps >= 1} = Phi(1); phi/sd was subnormal
    and the quadrature gave 0.242 and 0.583."""
    levels = ldp.make_privacy_levels("clipped-gaussian", mean=1e308, sd=1e308, lo=0.0, hi=1.7e308)
    assert levels.p_at_least(1e308) == pytest.approx(0.5, rel=1e-9)
    assert levels.p_at_least(1.0) == pytest.approx(0.8413447460685429, rel=1e-9)
