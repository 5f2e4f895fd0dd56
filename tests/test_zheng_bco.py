"""Tests of ldpcode.bco: one- and two-point BCO under (ε, δ)-LDP (Zheng et al. 2020, Section 3)."""
import math

import numpy as np
import pytest

from ldpcode import bco
from ldpcode.simulate import run_streams


def test_sphere_estimator_unbiased_for_smoothed_quadratic_gradient():
    # f(x) = ||x - c||^2: the rho-smoothed loss is f + const, so its gradient is 2(x - c) (exactly)
    d, rho, n = 5, 0.3, 400_000
    rng = np.random.default_rng(1)
    x = np.array([0.2, -0.1, 0.0, 0.3, 0.1])
    c = np.array([0.5, 0.0, -0.2, 0.0, 0.0])
    u = rng.standard_normal((n, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    vals = ((x + rho * u - c) ** 2).sum(axis=1)
    g = bco.sphere_gradient_estimate(vals, u, rho, d)
    mean, se = g.mean(axis=0), g.std(axis=0, ddof=1) / math.sqrt(n)
    assert np.all(np.abs(mean - 2 * (x - c)) < 4 * se)
    # and a biased estimator (missing the factor d) would fail the same test
    assert np.any(np.abs(mean / d - 2 * (x - c)) > 4 * se)


def test_sphere_estimator_hand_value_and_shapes():
    g = bco.sphere_gradient_estimate([2.0], [[0.0, 1.0, 0.0]], 0.5, 3)
    assert np.allclose(g, [[0.0, 12.0, 0.0]])     # (3 / 0.5) * 2 * u
    with pytest.raises(ValueError, match="u"):
        bco.sphere_gradient_estimate([2.0], [[0.0, 1.0]], 0.5, 3)
    with pytest.raises(ValueError, match="values"):
        bco.sphere_gradient_estimate([2.0, 1.0], [[0.0, 1.0, 0.0]], 0.5, 3)
    with pytest.raises(ValueError, match="rho"):
        bco.sphere_gradient_estimate([2.0], [[0.0, 1.0, 0.0]], 0.0, 3)


def test_projection_onto_ball():
    p = bco.project_ball([[3.0, 4.0], [0.1, 0.2]], 0.5)
    assert np.allclose(p[0], [0.3, 0.4])            # scaled onto the sphere of radius 0.5
    assert np.allclose(p[1], [0.1, 0.2])            # inside: unchanged
    with pytest.raises(ValueError, match="radius"):
        bco.project_ball([[1.0, 0.0]], -1.0)


def test_sigma_by_hand():
    # Algorithm 1: sigma = 2B sqrt(2 ln(1.25/delta)) / eps
    assert bco.one_point_sigma(1.0, 1e-5, 1.0) == pytest.approx(2 * math.sqrt(2 * math.log(1.25e5)), rel=1e-12)
    assert bco.one_point_sigma(2.0, 1e-5, 3.0) == pytest.approx(14.53442, rel=1e-5)   # 2*3*4.844805/2
    # Algorithm 2: sigma = 2G sqrt(2 ln(1.25/delta)) / eps; the noise on the difference, 2 rho sigma, is the
    # Gaussian mechanism's sigma for the difference's sensitivity 4 rho G
    from ldpcode.mechanisms import GaussianMechanism
    s = bco.two_point_sigma(0.5, 1e-3, 4 / 3)
    assert s == pytest.approx(2 * (4 / 3) * math.sqrt(2 * math.log(1250)) / 0.5, rel=1e-12)
    rho = 0.01
    assert 2 * rho * s == pytest.approx(GaussianMechanism(0.5, 1e-3, 4 * rho * 4 / 3).sigma, rel=1e-12)
    # Theorem 3's range
    assert bco.noisy_range(1.0, 2.0, 100, 0.01) == pytest.approx(1 + 2 * math.sqrt(2 * math.log(1e4)))


def test_learner_sees_only_the_perturbed_value():
    # first step by hand: x_1 = 0, y_1 = rho_1 u_1, obs = f_1(y_1) + sigma Z_1, x_2 = Proj(-eta_1 (d/rho_1) obs u_1)
    env = bco.make_environment("linear", 5)
    res = bco.simulate_one_point("linear", horizon=2, runs=1, seed=7, epsilon=1.0, delta=1e-5, checkpoints=[1])
    tun = res.tuning
    g_u, g_z = run_streams(np.random.SeedSequence(7).spawn(1)[0], 2)
    u = g_u.standard_normal(5)
    u /= np.linalg.norm(u)
    rho1 = min(tun["rho_max"], tun["rho0"])
    y = rho1 * u
    theta1 = np.array([0.6, 0.4 * math.cos(2 * math.pi / 7), 0.4 * math.sin(2 * math.pi / 7), 0, 0])
    # regret at t = 1: f_1(y_1) - min_x f_1(x) = theta_1 . y_1 + ||theta_1||
    assert res.regret[0, 0] == pytest.approx(theta1 @ y + np.linalg.norm(theta1), rel=1e-10)
    assert env.B >= np.linalg.norm(theta1)
    # with sigma huge the path is driven by Z: compare private vs non-private first moves through t = 2 regret
    z = g_z.standard_normal()
    obs = theta1 @ y + res.sigma * z
    x2 = bco.project_ball(-tun["eta0"] * 5 / rho1 * obs * u, 1 - min(tun["rho_max"], tun["rho0"] * 2 ** -0.25))
    res2 = bco.simulate_one_point("linear", horizon=2, runs=1, seed=7, epsilon=1.0, delta=1e-5, checkpoints=[2])
    u2 = g_u.standard_normal(5)
    u2 /= np.linalg.norm(u2)
    y2 = x2 + min(tun["rho_max"], tun["rho0"] * 2 ** -0.25) * u2
    theta2 = np.array([0.6, 0.4 * math.cos(4 * math.pi / 7), 0.4 * math.sin(4 * math.pi / 7), 0, 0])
    assert res2.regret[0, 0] == pytest.approx(theta1 @ y + theta2 @ y2 + np.linalg.norm(theta1 + theta2), rel=1e-9)


def test_regret_of_constant_loss_is_zero():
    for f in (bco.simulate_one_point, bco.simulate_two_point):
        for eps in (None, 1.0):
            res = f("constant", horizon=5000, runs=3, seed=0, epsilon=eps)
            assert np.all(res.regret == 0.0)


def test_two_point_first_round_by_hand():
    # x_1 = 0, f(x) = (4/9)||x - c||^2, c = 0.5 e_1, rho = ln 3 / 3: (f(rho u) + f(-rho u))/2 = (4/9)(rho^2 + 0.25)
    res = bco.simulate_two_point("stochastic", horizon=3, runs=1, seed=0, epsilon=None, checkpoints=[1])
    rho = math.log(3) / 3
    assert res.regret[0, 0] == pytest.approx(4 / 9 * (rho ** 2 + 0.25), rel=1e-12)


def test_comparator_quadratic_by_hand():
    from ldpcode.bco import _comparator
    S = np.zeros(5)
    Q = np.zeros(1)
    Q[0], S[0] = 2.5, 5.0          # ten centres all at 0.5 e_1: min_x sum (4/9)||x - c||^2 = 0
    assert _comparator(1, 10, 5, S, Q) == pytest.approx(0.0)
    S[0] = 0.0                     # centres cancel (sum 0) with sum ||c||^2 = 2.5: min = (4/9) * 2.5 at x = 0
    assert _comparator(1, 10, 5, S, Q) == pytest.approx(4 / 9 * 2.5)
    S[:2] = [3.0, 4.0]             # linear: min over the ball of S.x = -||S||
    assert _comparator(0, 10, 5, S, Q) == pytest.approx(-5.0)


@pytest.mark.parametrize("kwargs, name", [
    (dict(epsilon=0.0), "epsilon"), (dict(epsilon=-1.0), "epsilon"),
    (dict(delta=0.0), "delta"), (dict(delta=1.0), "delta"),
    (dict(d=2), "d"), (dict(horizon=1), "horizon"), (dict(runs=0), "runs"),
])
def test_validation(kwargs, name):
    for f in (bco.simulate_one_point, bco.simulate_two_point):
        with pytest.raises(ValueError, match=name):
            f("quadratic", **{"horizon": 10, **kwargs})


def test_validation_constants():
    with pytest.raises(ValueError, match="B"):
        bco.one_point_sigma(1.0, 1e-5, 0.0)
    with pytest.raises(ValueError, match="G"):
        bco.two_point_sigma(1.0, 1e-5, -1.0)
    with pytest.raises(ValueError, match="environment"):
        bco.make_environment("cubic")
    with pytest.raises(ValueError, match="strongly_convex"):
        bco.simulate_one_point("linear", horizon=10, strongly_convex=True)
    with pytest.raises(ValueError, match="checkpoints"):
        bco.simulate_one_point("linear", horizon=10, checkpoints=[20])


def test_determinism_and_prefix_property():
    a = bco.simulate_one_point("quadratic", horizon=2000, runs=3, seed=5)
    b = bco.simulate_one_point("quadratic", horizon=2000, runs=3, seed=5)
    assert np.array_equal(a.regret, b.regret)
    c = bco.simulate_one_point("quadratic", horizon=2000, runs=2, seed=5)   # runs are independent streams
    assert np.array_equal(a.regret[:2], c.regret)
    d = bco.simulate_two_point("linear", horizon=2000, runs=2, seed=5)
    e = bco.simulate_two_point("linear", horizon=2000, runs=2, seed=6)
    assert not np.array_equal(d.regret, e.regret)


def test_two_point_private_noise_enters():
    a = bco.simulate_two_point("quadratic", horizon=5000, runs=4, seed=1, epsilon=None)
    b = bco.simulate_two_point("quadratic", horizon=5000, runs=4, seed=1, epsilon=0.5)
    assert b.sigma == pytest.approx(bco.two_point_sigma(0.5, 1e-5, 4 / 3))
    assert b.regret[:, -1].mean() > a.regret[:, -1].mean()


def test_two_point_release_noise_sd():
    # n.(x1 - x2) with x1 - x2 = 2 rho u, ||u|| = 1: sd 2 rho sigma
    rng = np.random.default_rng(0)
    n, d, rho, sigma = 200_000, 5, 0.05, 3.0
    u = rng.standard_normal((n, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    rel = bco.two_point_release(np.ones(n), np.zeros(n), rho * u, -rho * u, sigma, np.random.default_rng(1))
    assert rel.mean() == pytest.approx(1.0, abs=4 * 2 * rho * sigma / math.sqrt(n))
    assert rel.std() == pytest.approx(2 * rho * sigma, rel=4 / math.sqrt(2 * n))
    with pytest.raises(ValueError, match="sigma"):
        bco.two_point_release(np.ones(2), np.zeros(2), u[:2], u[:2], -1.0, rng)
    with pytest.raises(ValueError, match="x1"):
        bco.two_point_release(np.ones(2), np.zeros(2), u[:2], u[:3], 1.0, rng)
