"""Algorithm 1 of Zheng et al. (2020) around UCB1 as a policy of the main engine: make_policy("OnePoint-UCB")."""

import math

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import reductions as rd
from ldpcode.instances import Arm, Family, Instance
from ldpcode.simulate import SimulationResult, simulate_cost

NAME = "OnePoint-UCB"


def _deterministic(rewards):
    """Arms whose reward is always the given number (uniform on {c, c})."""
    return Instance("fixed rewards", tuple(Arm(Family.TWO_POINT, c, c) for c in rewards))


def test_registered_and_runs_through_the_main_engine():
    assert NAME in ldp.list_policies()
    pol = ldp.make_policy(NAME, epsilon=1.0, delta=1e-3)
    assert isinstance(pol, rd.OnePointUCB) and isinstance(pol, ldp.engine.BanditPolicy)
    assert pol.mechanism.sigma == rd.algorithm1_mechanism(1.0, 1e-3, 1.0).sigma  # Algorithm 1, line 2, B = 1
    inst = ldp.make_instance("bernoulli", means=[0.7, 0.4, 0.3])
    res = ldp.simulate(pol, inst, 3000, runs=3, seed=2, workers=2)
    assert isinstance(res, SimulationResult) and res.policy == NAME and res.epsilon == 1.0
    assert res.label == "OnePoint-UCB (ε = 1)"
    np.testing.assert_array_equal(res.counts.sum(axis=2), np.broadcast_to(res.checkpoints, (3, res.checkpoints.size)))
    assert (res.counts[:, 2, :] >= 1).all()  # every arm once first
    np.testing.assert_allclose(res.regret, res.counts @ inst.gaps)


def test_deterministic_per_seed_and_independent_of_workers():
    pol = ldp.make_policy(NAME, epsilon=0.5, delta=1e-2)
    inst = ldp.make_instance("ren2020-mixed")
    a = ldp.simulate(pol, inst, 5000, runs=4, seed=7, workers=1)
    b = ldp.simulate(pol, inst, 5000, runs=4, seed=7, workers=2)
    c = ldp.simulate(pol, inst, 5000, runs=4, seed=8, workers=1)
    np.testing.assert_array_equal(a.counts, b.counts)
    assert not np.array_equal(a.counts, c.counts)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("eps,delta", [(1.0, 1e-3), (0.3, 0.05), (5.0, 1e-6)])
def test_pulls_are_exactly_those_of_simulate_mab_on_the_same_losses(seed, eps, delta):
    """Deterministic rewards make the two engines' losses the same numbers, and the policy's noise stream is the
    second stream of simulate_mab's run: the pulls agree exactly (with Bernoulli rewards they agree only in law,
    below, as the engines turn a uniform draw into a reward and into a loss differently)."""
    rewards = [0.8, 0.55, 0.5, 0.1]
    res = ldp.simulate(ldp.make_policy(NAME, epsilon=eps, delta=delta), _deterministic(rewards), 4000, 5, seed)
    env = rd.bernoulli_losses([1.0 - r for r in rewards], bernoulli=False)
    mab = rd.simulate_mab(rd.make_agent("UCB", "gaussian", epsilon=eps, delta=delta), env, 4000, 5, seed)
    np.testing.assert_array_equal(res.pulls, mab.counts)
    np.testing.assert_allclose(res.final_regret(), mab.final_regret(), rtol=1e-9, atol=1e-9)
    assert mab.epsilon == res.epsilon == eps


def test_mean_pulls_agree_with_simulate_mab_on_bernoulli_losses():
    means, T, R = [0.7, 0.5, 0.45], 3000, 300
    res = ldp.simulate(
        ldp.make_policy(NAME, epsilon=1.0, delta=1e-3), ldp.make_instance("bernoulli", means=means), T, R, 11
    )
    env = rd.bernoulli_losses([1.0 - m for m in means])
    mab = rd.simulate_mab(rd.make_agent("UCB", "gaussian", epsilon=1.0, delta=1e-3), env, T, R, 12)
    for a in range(3):
        x, y = res.pulls[:, a], mab.counts[:, a]
        z = (x.mean() - y.mean()) / math.sqrt(x.var(ddof=1) / R + y.var(ddof=1) / R)
        assert abs(z) < 4.5, (a, x.mean(), y.mean(), z)
    assert not np.array_equal(res.pulls, mab.counts)  # independent seeds: a check in law, not a copy


def test_huge_epsilon_is_the_non_private_learner_and_noise_matters_at_small_epsilon():
    rewards = [0.8, 0.6, 0.5]
    inst, env = _deterministic(rewards), rd.bernoulli_losses([1.0 - r for r in rewards], bernoulli=False)
    plain = rd.simulate_mab(rd.make_agent("UCB"), env, 3000, 1, 0).counts[0]
    huge = ldp.simulate(ldp.make_policy(NAME, epsilon=1e9, delta=0.5), inst, 3000, 3, 0)
    assert (huge.pulls == plain).all(), (huge.pulls, plain)  # sigma ~ 3e-9: the noise never flips a choice
    noisy = ldp.simulate(ldp.make_policy(NAME, epsilon=0.2, delta=1e-3), inst, 3000, 3, 0)
    assert not (noisy.pulls == plain).all(axis=1).any()
    assert noisy.final_regret().mean() > 3 * huge.final_regret().mean()


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(epsilon=1.0), ValueError, "needs delta, a probability in"),
        (dict(delta=1e-3), ValueError, "needs epsilon"),
        (dict(epsilon=1.0, delta=0.0), ValueError, r"delta must be a probability in \(0, 1\), got 0.0"),
        (dict(epsilon=1.0, delta=1.0), ValueError, r"delta must be a probability in \(0, 1\), got 1.0"),
        (dict(epsilon=1.0, delta=-1e-3), ValueError, "delta must be a probability"),
        (dict(epsilon=1.0, delta=5), ValueError, "a percentage"),
        (dict(epsilon=1.0, delta="0.1"), TypeError, "delta must be a probability"),
        (dict(epsilon=0.0, delta=0.1), ValueError, "epsilon"),
        (dict(epsilon=math.inf, delta=0.1), ValueError, "epsilon"),
        (dict(epsilon=-1.0, delta=0.1), ValueError, "epsilon"),
        (dict(epsilon=math.nan), ValueError, "epsilon must be a finite number > 0, got nan"),  # not "needs delta"
        (dict(epsilon=1.0, delta=0.1, alpha=3.5), ValueError, "takes no alpha"),
        (dict(epsilon=1.0, delta=0.1, epsilon_min=1.0), ValueError, "takes no epsilon_min"),
    ],
)
def test_bad_privacy_arguments_are_refused_by_name(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ldp.make_policy(NAME, **kwargs)


@pytest.mark.parametrize("other", ["UCB1", "LDP-UCB-L", "AdaP-UCB", "HeLDP-UCB-B"])
def test_no_other_policy_takes_delta(other):
    with pytest.raises(ValueError, match=rf"policy '{other}' takes no delta \(only the \(ε, δ\)-LDP OnePoint-UCB"):
        ldp.make_policy(other, epsilon=1.0, delta=1e-3)


def test_refuses_rewards_outside_the_unit_interval_and_privacy_levels():
    pol = ldp.make_policy(NAME, epsilon=1.0, delta=1e-3)
    with pytest.raises(ValueError, match="needs rewards in \\[0, 1\\].*unbounded"):
        ldp.simulate(pol, ldp.make_instance("gaussian", means=[0.5, 0.4]), 100, 1)
    wide = Instance("wide", (Arm(Family.UNIFORM, 0.0, 2.0), Arm(Family.BERNOULLI, 0.5)))
    with pytest.raises(ValueError, match="arm 0 of instance 'wide', uniform on \\[0, 2\\], has rewards outside"):
        ldp.simulate(pol, wide, 100, 1)
    with pytest.raises(ValueError, match="privacy_levels is only for"):
        ldp.simulate(
            pol,
            ldp.make_instance("ren2020-bernoulli"),
            100,
            1,
            privacy_levels=ldp.make_privacy_levels("ren-heldp-discrete"),
        )


def test_cost_is_the_measured_rate_and_the_limits_refuse_a_huge_call():
    pol = ldp.make_policy(NAME, epsilon=1.0, delta=1e-3)
    inst = ldp.make_instance("bernoulli", means=[0.5] * 10)
    seconds, _, work = simulate_cost(pol, inst, 10**6, 10, 10, 1)
    assert seconds == pytest.approx(10**7 * (45 + 14 * 10) * 1e-9) and "185 ns a pull" in work
    with pytest.raises(ValueError, match="limits.cpu_seconds"):
        ldp.simulate(pol, inst, 10**9, 100)
