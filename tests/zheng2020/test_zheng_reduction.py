"""Algorithm 1 of Zheng et al. (2020) as a wrapper (ldpcode.reductions): privacy plumbing, learners, engine."""

import math

import numpy as np
import pytest

from ldpcode import reductions as rd
from ldpcode.simulate import run_streams


class Recording(rd.SubGaussianUCB):
    """UCB that records every value handed to update()."""

    def reset(self, *args, **kw):
        self.seen = []
        self.arms = []
        return super().reset(*args, **kw)

    def select(self):
        a = super().select()
        self.arms.append(a)
        return a

    def update(self, arm, feedback):
        self.seen.append(feedback)
        super().update(arm, feedback)


def test_sigma_is_algorithm1_line2_by_hand():
    # eps = 0.5, delta = 1e-5, B = 1: sigma = 2 * 1 * sqrt(2 ln 125000) / 0.5; ln 125000 = 11.7361
    m = rd.algorithm1_mechanism(0.5, 1e-5, 1.0)
    assert m.sigma == pytest.approx(4 * math.sqrt(2 * 11.736069016284437), rel=1e-12)
    assert m.sigma == pytest.approx(19.3793, abs=1e-4)
    assert m.sensitivity == 2.0
    assert rd.laplace_mechanism(2.0, 0.5).scale == pytest.approx(0.5)  # 2B/eps = 1/2
    assert rd.noise_variance(rd.laplace_mechanism(2.0, 0.5)) == pytest.approx(0.5)  # 2 b^2
    assert rd.noise_variance(m) == pytest.approx(m.sigma**2)


def test_learner_only_sees_perturbed_feedback():
    mech = rd.algorithm1_mechanism(1.0, 1e-3, 1.0)
    lrn = Recording()
    wrapped = rd.OnePointReduction(lrn, mech)
    env = rd.bernoulli_losses([0.2, 0.5, 0.8])
    T = 300
    res = rd.simulate_mab(wrapped, env, T, runs=1, seed=4, engine="python")
    seen = np.array(lrn.seen)
    assert seen.size == T
    assert not np.isin(seen, [0.0, 1.0]).any()  # a Bernoulli loss never reaches the learner as such
    # rebuild the run: feedback - noise is exactly the 0/1 loss of the arm played
    seed_seq = np.random.SeedSequence(4).spawn(1)[0]
    env_rng, noise_rng, _ = run_streams(seed_seq, 3)
    noise = mech.sigma * noise_rng.standard_normal(T)
    u = env_rng.random(T)
    losses = (u < env.levels[0][np.array(lrn.arms)]).astype(float)
    assert np.allclose(seen - noise, losses, atol=1e-12)
    assert res.counts.sum() == T
    assert lrn.variance == pytest.approx(mech.sigma**2)  # the learner is tuned to the noise


def test_loss_outside_bound_refused():
    w = rd.OnePointReduction(rd.SubGaussianUCB(), rd.algorithm1_mechanism(1.0, 0.1, 0.5))
    w.reset(2, 10, np.random.default_rng(0), np.random.default_rng(1))
    with pytest.raises(ValueError, match="B = 0.5"):
        w.update(0, 0.75)


@pytest.mark.parametrize("name", ["UCB", "Tsallis-INF"])
@pytest.mark.parametrize("engine", ["auto", "python"])
def test_tiny_noise_reproduces_unwrapped(name, engine):
    # continuous deterministic losses (no ties); sigma ~ 3e-12
    env = rd.bernoulli_losses([0.31, 0.47, 0.52, 0.74], bernoulli=False)
    tiny = rd.algorithm1_mechanism(1e12, 0.5, 1.0)
    assert tiny.sigma < 1e-11
    a = rd.simulate_mab(rd.make_learner(name), env, 2000, runs=3, seed=7, engine=engine)
    b = rd.simulate_mab(rd.OnePointReduction(rd.make_learner(name), tiny), env, 2000, runs=3, seed=7, engine=engine)
    assert np.array_equal(a.counts, b.counts)
    assert np.allclose(a.regret, b.regret, atol=1e-9)


def test_tiny_noise_pull_for_pull():
    env = rd.bernoulli_losses([0.31, 0.47, 0.52, 0.74], bernoulli=False)
    l1, l2 = Recording(), Recording()
    rd.simulate_mab(l1, env, 500, runs=1, seed=3, engine="python")
    rd.simulate_mab(rd.OnePointReduction(l2, rd.algorithm1_mechanism(1e12, 0.5)), env, 500, runs=1, seed=3)
    # a subclass of a built-in learner runs through the Python loop: both lists are filled
    assert len(l1.arms) == 500 and l1.arms == l2.arms


@pytest.mark.parametrize("mech", [None, "gaussian", "laplace"])
@pytest.mark.parametrize("name", ["UCB", "Tsallis-INF"])
def test_kernel_equals_python_loop(name, mech):
    env = rd.bernoulli_losses([0.1, 0.4, 0.5])
    privacy = {None: {}, "laplace": dict(epsilon=2.0), "gaussian": dict(epsilon=2.0, delta=1e-4)}[mech]
    ag = rd.make_agent(name, mech, **privacy)
    a = rd.simulate_mab(ag, env, 1500, runs=2, seed=11)
    b = rd.simulate_mab(ag, env, 1500, runs=2, seed=11, engine="python")
    assert np.array_equal(a.counts, b.counts)
    assert np.allclose(a.regret, b.regret, atol=1e-9)


def test_determinism_and_run_independence():
    env = rd.bernoulli_losses([0.2, 0.3, 0.6])
    ag = rd.make_agent("Tsallis-INF", "gaussian", epsilon=1.0, delta=1e-6)
    a = rd.simulate_mab(ag, env, 3000, runs=4, seed=5)
    b = rd.simulate_mab(ag, env, 3000, runs=4, seed=5, workers=1)
    c = rd.simulate_mab(ag, env, 3000, runs=2, seed=5)
    assert np.array_equal(a.regret, b.regret) and np.array_equal(a.counts, b.counts)
    assert np.array_equal(a.regret[:2], c.regret)
    d = rd.simulate_mab(ag, env, 3000, runs=4, seed=6)
    assert not np.array_equal(a.regret, d.regret)


def test_pseudo_regret_is_counts_times_gaps():
    means = np.array([0.2, 0.35, 0.7])
    env = rd.bernoulli_losses(means)
    r = rd.simulate_mab(rd.make_learner("UCB"), env, 4000, runs=3, seed=0)
    assert np.allclose(r.final_regret(), r.counts @ (means - means.min()))


def test_tsallis_weights_solve_normalisation():
    # hand case: two arms with equal losses, eta = 1: w = 1/2 each, 4 / x^2 = 1/2, x = -sqrt(8)
    w = np.zeros(2)
    x = rd.tsallis_weights(np.zeros(2), 1.0, w)
    assert np.allclose(w, 0.5) and x == pytest.approx(-math.sqrt(8.0), rel=1e-10)
    rng = np.random.default_rng(0)
    for _ in range(50):
        k = int(rng.integers(2, 30))
        L = rng.normal(0, 50, k)
        eta = float(rng.uniform(1e-3, 2.0))
        w = np.zeros(k)
        x = rd.tsallis_weights(L, eta, w)
        assert x < L.min()
        assert w.sum() == pytest.approx(1.0, abs=1e-12)
        assert np.allclose(4.0 / (eta * (L - x)) ** 2, w, rtol=1e-9, atol=1e-15)
    lrn = rd.TsallisINF().reset(4, 100, np.random.default_rng(1))
    assert np.allclose(lrn.probabilities(), 0.25)  # uniform at the start
    assert lrn.eta(4) == pytest.approx(1.0)  # 2 / sqrt(4)


def test_ucb_width_by_hand():
    assert rd.SubGaussianUCB().kernel_param(0.0) == pytest.approx(math.sqrt(2))  # UCB1
    assert rd.SubGaussianUCB().kernel_param(1.0) == pytest.approx(math.sqrt(10))  # sqrt(8 * 1.25)
    assert rd.TsallisINF().kernel_param(2.0) == pytest.approx(2 / 3)  # 2 / sqrt(1 + 8)


def test_ucb_adversary_linear_regret_for_ucb1():
    T = 2000
    env = rd.ucb_adversary(3, T)
    r = rd.simulate_mab(rd.make_learner("UCB"), env, T, runs=1, seed=0, checkpoints=[T])
    # UCB1 plays the arm with loss 1 every round: regret = T - min_a sum_t l_t(a)
    assert r.final_regret()[0] == pytest.approx(T - env.levels.sum(axis=0).min())
    assert r.final_regret()[0] >= (1 - 1 / 3) * T - 1e-9


def test_gaussian_exact_delta_by_hand():
    # sigma = Delta = 1, eps = 0: Phi(1/2) - Phi(-1/2) = 0.382925
    assert float(rd.gaussian_exact_delta(0.0, 1.0, 1.0)) == pytest.approx(0.3829249225, abs=1e-9)
    # eps = 1: Phi(-1/2) - e Phi(-3/2) = 0.308538 - 2.718282 * 0.0668072 = 0.126936
    assert float(rd.gaussian_exact_delta(1.0, 1.0, 1.0)) == pytest.approx(0.1269367, abs=1e-6)
    # the loss tail at eps = mu is 1/2
    assert float(rd.gaussian_loss_tail(0.5, 1.0, 1.0)) == pytest.approx(0.5)
    # the privacy loss of one output, by hand: ((y - f')^2 - (y - f)^2) / (2 sigma^2) at y = 0, f = 1, f' = -1
    assert rd.gaussian_privacy_loss(0.0, 1.0, -1.0, 2.0) == pytest.approx(0.0)
    assert rd.gaussian_privacy_loss(1.0, 1.0, -1.0, 2.0) == pytest.approx(4 / 8)
    m = rd.algorithm1_mechanism(0.5, 1e-5)
    assert float(rd.gaussian_exact_delta(0.5, m.sigma, 2.0)) < 1e-5


@pytest.mark.parametrize(
    "call, param",
    [
        (lambda: rd.algorithm1_mechanism(0.0, 1e-3), "epsilon"),
        (lambda: rd.algorithm1_mechanism(-1.0, 1e-3), "epsilon"),
        (lambda: rd.algorithm1_mechanism(1.0, 0.0), "delta"),
        (lambda: rd.algorithm1_mechanism(1.0, 1.0), "delta"),
        (lambda: rd.algorithm1_mechanism(1.0, 1e-3, 0.0), "loss_bound"),
        (lambda: rd.laplace_mechanism(1.0, -2.0), "loss_bound"),
        (lambda: rd.laplace_mechanism(0.0), "epsilon"),
        (lambda: rd.bernoulli_losses([0.2, 1.5]), "means"),
        (lambda: rd.bernoulli_losses([-0.1, 0.5]), "means"),
        (lambda: rd.bernoulli_losses([0.5]), "means"),
        (lambda: rd.make_learner("EXP3"), "name"),
        (lambda: rd.make_agent("UCB", "exponential", epsilon=1.0), "mechanism"),
        (lambda: rd.ucb_adversary(1, 10), "n_arms"),
        (lambda: rd.gaussian_exact_delta(1.0, 0.0, 1.0), "sigma"),
        (lambda: rd.OnePointReduction(object(), rd.laplace_mechanism(1.0)), "learner"),
        (lambda: rd.simulate_mab(rd.make_learner("UCB"), rd.bernoulli_losses([0.1, 0.2]), 0), "horizon"),
    ],
)
def test_validation(call, param):
    with pytest.raises(ValueError, match=param):
        call()
