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
    assert np.allclose(g, [[0.0, 12.0, 0.0]])  # (3 / 0.5) * 2 * u
    with pytest.raises(ValueError, match="u"):
        bco.sphere_gradient_estimate([2.0], [[0.0, 1.0]], 0.5, 3)
    with pytest.raises(ValueError, match="values"):
        bco.sphere_gradient_estimate([2.0, 1.0], [[0.0, 1.0, 0.0]], 0.5, 3)
    with pytest.raises(ValueError, match="rho"):
        bco.sphere_gradient_estimate([2.0], [[0.0, 1.0, 0.0]], 0.0, 3)


def test_projection_onto_ball():
    p = bco.project_ball([[3.0, 4.0], [0.1, 0.2]], 0.5)
    assert np.allclose(p[0], [0.3, 0.4])  # scaled onto the sphere of radius 0.5
    assert np.allclose(p[1], [0.1, 0.2])  # inside: unchanged
    with pytest.raises(ValueError, match="radius"):
        bco.project_ball([[1.0, 0.0]], -1.0)


def test_sigma_by_hand():
    # Algorithm 1: sigma = 2B sqrt(2 ln(1.25/delta)) / eps
    assert bco.one_point_sigma(1.0, 1e-5, 1.0) == pytest.approx(2 * math.sqrt(2 * math.log(1.25e5)), rel=1e-12)
    assert bco.one_point_sigma(2.0, 1e-5, 3.0) == pytest.approx(14.53442, rel=1e-5)  # 2*3*4.844805/2
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
    res = bco.simulate_one_point("linear", horizon=2, runs=1, seed=7, epsilon=1.0, delta=1e-5, checkpoints=[1, 2])
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
    x2 = bco.project_ball(-tun["eta0"] * 5 / rho1 * obs * u, 1 - min(tun["rho_max"], tun["rho0"] * 2**-0.25))
    res2 = bco.simulate_one_point("linear", horizon=2, runs=1, seed=7, epsilon=1.0, delta=1e-5, checkpoints=[2])
    u2 = g_u.standard_normal(5)
    u2 /= np.linalg.norm(u2)
    y2 = x2 + min(tun["rho_max"], tun["rho0"] * 2**-0.25) * u2
    theta2 = np.array([0.6, 0.4 * math.cos(4 * math.pi / 7), 0.4 * math.sin(4 * math.pi / 7), 0, 0])
    assert res2.regret[0, 0] == pytest.approx(theta1 @ y + theta2 @ y2 + np.linalg.norm(theta1 + theta2), rel=1e-9)


def test_regret_of_constant_loss_is_zero():
    for f in (bco.simulate_one_point, bco.simulate_two_point):
        for eps in (None, 1.0):
            res = f("constant", horizon=5000, runs=3, seed=0, epsilon=eps)
            assert np.all(res.regret == 0.0)


def test_two_point_first_round_by_hand():
    # x_1 = 0, f(x) = (4/9)||x - c||^2, c = 0.5 e_1, rho = ln 3 / 3: (f(rho u) + f(-rho u))/2 = (4/9)(rho^2 + 0.25)
    res = bco.simulate_two_point("stochastic", horizon=3, runs=1, seed=0, epsilon=None, checkpoints=[1, 3])
    rho = math.log(3) / 3
    assert res.regret[0, 0] == pytest.approx(4 / 9 * (rho**2 + 0.25), rel=1e-12)


def test_comparator_quadratic_by_hand():
    from ldpcode.bco.environments import _comparator

    S = np.zeros(5)
    Q = np.zeros(1)
    Q[0], S[0] = 2.5, 5.0  # ten centres all at 0.5 e_1: min_x sum (4/9)||x - c||^2 = 0
    assert _comparator(1, 10, 5, S, Q) == pytest.approx(0.0)
    S[0] = 0.0  # centres cancel (sum 0) with sum ||c||^2 = 2.5: min = (4/9) * 2.5 at x = 0
    assert _comparator(1, 10, 5, S, Q) == pytest.approx(4 / 9 * 2.5)
    S[:2] = [3.0, 4.0]  # linear: min over the ball of S.x = -||S||
    assert _comparator(0, 10, 5, S, Q) == pytest.approx(-5.0)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(epsilon=0.0), "epsilon"),
        (dict(epsilon=-1.0), "epsilon"),
        (dict(delta=0.0), "delta"),
        (dict(delta=1.0), "delta"),
        (dict(d=2), "d"),
        (dict(horizon=1), "horizon"),
        (dict(runs=0), "runs"),
    ],
)
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
    c = bco.simulate_one_point("quadratic", horizon=2000, runs=2, seed=5)  # runs are independent streams
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


# ------------------------------------------------------------------------------------------------------
# the self-concordant-barrier learners (Saha and Tewari 2011; Hazan and Levy 2014)
# ------------------------------------------------------------------------------------------------------


def test_ball_barrier_hand_values():
    v, g, h = bco.ball_barrier(np.zeros(5))
    assert v == 0.0 and np.all(g == 0.0) and np.allclose(h, 2 * np.eye(5))
    # x = 0.6 e_1: p = 1 - 0.36 = 0.64; R = -ln 0.64; grad = 2x/p = 1.875 e_1;
    # Hessian 2/p = 3.125 across, 2(1 + r^2)/p^2 = 2 * 1.36 / 0.4096 = 6.640625 along e_1
    v, g, h = bco.ball_barrier([0.6, 0.0, 0.0])
    assert v == pytest.approx(-math.log(0.64), rel=1e-14)
    assert np.allclose(g, [1.875, 0, 0], rtol=1e-14)
    assert np.allclose(h, np.diag([6.640625, 3.125, 3.125]), rtol=1e-14)
    # nu = 1: Newton decrement grad' H^{-1} grad = 2 r^2/(1 + r^2) = 0.72 / 1.36 < 1
    assert g @ np.linalg.solve(h, g) == pytest.approx(0.72 / 1.36, rel=1e-12)
    assert bco.BARRIER_NU == 1.0
    with pytest.raises(ValueError, match="x"):
        bco.ball_barrier([0.8, 0.6])
    with pytest.raises(ValueError, match="x"):
        bco.ball_barrier(np.zeros((2, 2)))


def test_ball_barrier_against_finite_differences():
    rng = np.random.default_rng(3)
    for r in (0.1, 0.5, 0.9):
        x = rng.standard_normal(5)
        x *= r / np.linalg.norm(x)
        _, g, h = bco.ball_barrier(x)
        e = 1e-6
        g_fd = np.array(
            [(bco.ball_barrier(x + e * ei)[0] - bco.ball_barrier(x - e * ei)[0]) / (2 * e) for ei in np.eye(5)]
        )
        h_fd = np.array(
            [(bco.ball_barrier(x + e * ei)[1] - bco.ball_barrier(x - e * ei)[1]) / (2 * e) for ei in np.eye(5)]
        )
        scale = np.abs(h).max()
        assert np.allclose(g, g_fd, atol=1e-6 * scale)
        assert np.allclose(h, h_fd, atol=1e-5 * scale)
        # self-concordance parameter: lambda^2 = grad' H^{-1} grad = 2 r^2/(1 + r^2) <= nu = 1
        assert g @ np.linalg.solve(h, g) == pytest.approx(2 * r * r / (1 + r * r), rel=1e-10)


def test_ftrl_step_hand_value_and_first_order_condition():
    # c = 0, a = 3 e_1: s solves 2s/(1 - s^2) = 3, s = (sqrt(10) - 1)/3; x = -s e_1
    x = bco.ftrl_barrier_step([3.0, 0.0, 0.0], 0.0)
    assert np.allclose(x, [-(math.sqrt(10) - 1) / 3, 0, 0], rtol=1e-14)
    assert np.all(bco.ftrl_barrier_step(np.zeros(4), 2.0) == 0.0)
    rng = np.random.default_rng(0)
    # (1e4, 1e6): the start s_0 is near the pole s = 1 and the root near 0.01 (Newton must walk away from 1)
    for scale, c in ((0.1, 0.0), (1.0, 0.5), (50.0, 3.0), (1e4, 100.0), (1e3, 0.0), (1e4, 1e6)):
        a = scale * rng.standard_normal(5)
        x = bco.ftrl_barrier_step(a, c)
        assert np.linalg.norm(x) < 1
        _, g, _ = bco.ball_barrier(x)
        assert np.allclose(a + c * x + g, 0.0, atol=1e-9 * max(1.0, np.abs(a).max()))
    with pytest.raises(ValueError, match="c"):
        bco.ftrl_barrier_step([1.0, 0.0], -1.0)
    with pytest.raises(ValueError, match="a"):
        bco.ftrl_barrier_step([np.nan, 0.0], 1.0)


def test_ftrl_step_against_brute_force_minimisation():
    from scipy.optimize import minimize

    def objective(x, a, c):
        n2 = x @ x
        return np.inf if n2 >= 1 else a @ x + 0.5 * c * n2 - math.log(1 - n2)

    rng = np.random.default_rng(11)
    for c in (0.0, 0.7, 5.0):
        a = 2.0 * rng.standard_normal(5)
        x = bco.ftrl_barrier_step(a, c)
        best = minimize(
            objective,
            np.zeros(5),
            args=(a, c),
            method="Nelder-Mead",
            options=dict(xatol=1e-11, fatol=1e-14, maxiter=40_000, maxfev=40_000),
        )
        assert best.success
        assert objective(x, a, c) <= best.fun + 1e-12
        assert np.allclose(x, best.x, atol=1e-6)


def test_ellipsoid_point_matches_matrix_square_roots_and_stays_inside():
    rng = np.random.default_rng(5)
    for r, c, scale in ((0.0, 0.0, 1.0), (0.5, 0.0, 0.3), (0.9, 2.0, 1.0), (0.999, 0.0, 1.0), (0.99, 50.0, 1.0)):
        x = rng.standard_normal(5)
        x *= r / max(np.linalg.norm(x), 1e-300)
        u = rng.standard_normal((2000, 5))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        y, w = bco.ellipsoid_point(x, c, u, scale)
        A = bco.ball_barrier(x)[2] + c * np.eye(5)
        lam, V = np.linalg.eigh(A)
        inv_sqrt = V @ np.diag(lam**-0.5) @ V.T
        sqrt = V @ np.diag(lam**0.5) @ V.T
        assert np.allclose(y, x + scale * u @ inv_sqrt, atol=1e-12)
        assert np.allclose(w, u @ sqrt, rtol=1e-10, atol=1e-10 * lam.max() ** 0.5)
        assert np.all(np.linalg.norm(y, axis=1) < 1)
        # inside the Dikin ellipsoid of radius scale: ||y - x||_{Hess R(x)} <= scale
        H = bco.ball_barrier(x)[2]
        assert np.all(np.einsum("ni,ij,nj->n", y - x, H, y - x) <= scale**2 * (1 + 1e-12))
    with pytest.raises(ValueError, match="scale"):
        bco.ellipsoid_point(np.zeros(3), 0.0, np.eye(3), 0.0)
    with pytest.raises(ValueError, match="x"):
        bco.ellipsoid_point(np.array([1.0, 0, 0]), 0.0, np.eye(3))
    with pytest.raises(ValueError, match="u"):
        bco.ellipsoid_point(np.zeros(3), 0.0, np.eye(2))
    with pytest.raises(ValueError, match="c"):
        bco.ellipsoid_point(np.zeros(3), -1.0, np.eye(3))


def test_ellipsoid_estimator_unbiased_on_linear_loss():
    # f(y) = theta.y: E[d f(y) A^{1/2} u / scale] = theta exactly, at any x, c, scale
    d, n = 5, 400_000
    rng = np.random.default_rng(2)
    theta = np.array([0.6, -0.3, 0.2, 0.0, 0.1])
    for x, c, scale in ((np.array([0.3, 0.5, -0.2, 0.1, 0.0]), 0.0, 0.4), (np.array([0.0, 0, 0, 0.8, 0]), 3.0, 1.0)):
        u = rng.standard_normal((n, d))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        y, _ = bco.ellipsoid_point(x, c, u, scale)
        g = bco.ellipsoid_gradient_estimate(y @ theta, x, c, u, scale)
        mean, se = g.mean(axis=0), g.std(axis=0, ddof=1) / math.sqrt(n)
        assert np.all(np.abs(mean - theta) < 4 * se)
        assert np.any(np.abs(mean / d - theta) > 4 * se)  # without the factor d: fails
    with pytest.raises(ValueError, match="values"):
        bco.ellipsoid_gradient_estimate(np.ones(3), np.zeros(5), 0.0, u[:2], 1.0)


def test_barrier_tuning_by_hand():
    q = bco.make_environment("quadratic")
    lin = bco.make_environment("linear")
    assert q.beta == pytest.approx(8 / 9) and lin.beta == 0.0
    # Hazan-Levy: eta0 = sqrt(nu + 2 beta/mu)/(2 d B) = sqrt(3)/10 (beta = mu = 8/9, B_tilde = 1)
    t = bco.barrier_tuning(q, 1000, 0.0, 1e-5, True)
    assert t["eta0"] == pytest.approx(math.sqrt(3) / 10, rel=1e-12) and t["delta0"] == 1.0
    # Saha-Tewari on linear losses, beta defaults to 1: eta0 = (2 sqrt 2/(3 d))^{2/3}, delta0^2 = d sqrt(2 eta0)
    t = bco.barrier_tuning(lin, 1000, 0.0, 1e-5, False)
    eta0 = (2 * math.sqrt(2) / 15) ** (2 / 3)
    assert t["beta"] == 1.0 and t["eta0"] == pytest.approx(eta0, rel=1e-12)
    assert t["delta0"] == pytest.approx(math.sqrt(5 * math.sqrt(2 * eta0)), rel=1e-12)
    # private: the range is B_tilde (Theorem 3)
    s = bco.one_point_sigma(1.0, 1e-5, 1.0)
    t = bco.barrier_tuning(q, 10**4, s, 1e-5, True)
    assert t["B_tilde"] == pytest.approx(bco.noisy_range(1.0, s, 10**4, 1e-5))
    assert t["eta0"] == pytest.approx(math.sqrt(3) / (10 * t["B_tilde"]), rel=1e-12)
    with pytest.raises(ValueError, match="beta"):
        bco.barrier_tuning(lin, 1000, 0.0, 1e-5, False, beta=0.0)
    with pytest.raises(ValueError, match="strongly_convex"):
        bco.barrier_tuning(lin, 1000, 0.0, 1e-5, True)


def test_hazan_levy_first_two_rounds_by_hand():
    # x_1 = 0, A_1 = (2 + eta_1 mu) I, y_1 = A_1^{-1/2} u_1; regret(1) = f_1(y_1) - min f_1 = (4/9)||y_1 - c_1||^2;
    # x_2 = argmin eta_1 (g_1.x + mu/2 ||x - x_1||^2) + R(x), g_1 = d obs A_1^{1/2} u_1; A_2 = Hess R(x_2) + 2 eta_2 mu I
    res = bco.simulate_one_point(
        "quadratic", horizon=2, runs=1, seed=4, epsilon=1.0, learner="barrier", checkpoints=[1, 2]
    )
    assert res.algorithm == "one-point-hazan-levy"
    eta0, mu, d = res.tuning["eta0"], 8 / 9, 5
    g_u, g_z = run_streams(np.random.SeedSequence(4).spawn(1)[0], 2)
    u = g_u.standard_normal(5)
    u /= np.linalg.norm(u)
    y1 = u / math.sqrt(2 + eta0 * mu)
    c1 = np.array([0.5 * math.cos(2 * math.pi / 7), 0.5 * math.sin(2 * math.pi / 7), 0, 0, 0])
    f1 = 4 / 9 * np.sum((y1 - c1) ** 2)
    assert res.regret[0, 0] == pytest.approx(f1, rel=1e-12)
    g1 = d * (f1 + res.sigma * g_z.standard_normal()) * math.sqrt(2 + eta0 * mu) * u
    x2 = bco.ftrl_barrier_step(eta0 * g1, eta0 * mu)
    u2 = g_u.standard_normal(5)
    u2 /= np.linalg.norm(u2)
    eta2 = eta0 / math.sqrt(2)
    y2, _ = bco.ellipsoid_point(x2, eta2 * mu * 2, u2[None, :])
    c2 = np.array([0.5 * math.cos(4 * math.pi / 7), 0.5 * math.sin(4 * math.pi / 7), 0, 0, 0])
    f2 = 4 / 9 * np.sum((y2[0] - c2) ** 2)
    comp = 4 / 9 * (0.5 - np.sum((c1 + c2) ** 2) / 2)  # min_x f_1 + f_2
    assert res.regret[0, 1] == pytest.approx(f1 + f2 - comp, rel=1e-10)


def test_saha_tewari_first_two_rounds_by_hand():
    res = bco.simulate_one_point(
        "linear", horizon=2, runs=1, seed=9, epsilon=None, learner="barrier", checkpoints=[1, 2]
    )
    assert res.algorithm == "one-point-saha-tewari"
    eta0, delta0, d = res.tuning["eta0"], res.tuning["delta0"], 5
    g_u, _ = run_streams(np.random.SeedSequence(9).spawn(1)[0], 2)
    u = g_u.standard_normal(5)
    u /= np.linalg.norm(u)
    dl1 = min(1.0, delta0)
    y1 = dl1 * u / math.sqrt(2)  # Hess R(0) = 2I
    th1 = np.array([0.6, 0.4 * math.cos(2 * math.pi / 7), 0.4 * math.sin(2 * math.pi / 7), 0, 0])
    assert res.regret[0, 0] == pytest.approx(th1 @ y1 + np.linalg.norm(th1), rel=1e-12)
    g1 = d / dl1 * (th1 @ y1) * math.sqrt(2) * u
    x2 = bco.ftrl_barrier_step(eta0 * g1, 0.0)
    u2 = g_u.standard_normal(5)
    u2 /= np.linalg.norm(u2)
    y2, _ = bco.ellipsoid_point(x2, 0.0, u2[None, :], min(1.0, delta0 * 2 ** (-1 / 6)))
    th2 = np.array([0.6, 0.4 * math.cos(4 * math.pi / 7), 0.4 * math.sin(4 * math.pi / 7), 0, 0])
    assert res.regret[0, 1] == pytest.approx(th1 @ y1 + th2 @ y2[0] + np.linalg.norm(th1 + th2), rel=1e-10)


def test_barrier_learners_constant_loss_zero_regret_and_points_inside():
    # "constant" is not strongly convex: only Saha-Tewari runs there (Hazan-Levy is checked by hand above)
    for eps in (None, 1.0):
        res = bco.simulate_one_point("constant", horizon=5000, runs=3, seed=0, epsilon=eps, learner="barrier")
        assert res.algorithm == "one-point-saha-tewari"
        assert np.all(res.regret == 0.0)
        assert np.all(res.max_norm < 1) and np.all(res.max_norm > 0)
    # every played point y_t of every run lies inside the unit ball (the kernel records max_t ||y_t||)
    for env in ("linear", "quadratic", "stochastic"):
        for sc in (False, True) if env != "linear" else (False,):
            for eps in (None, 0.5):
                res = bco.simulate_one_point(
                    env, horizon=20_000, runs=2, seed=1, epsilon=eps, learner="barrier", strongly_convex=sc
                )
                assert np.all(res.max_norm < 1)


def test_barrier_determinism_and_threads():
    import numba

    a = bco.simulate_one_point("stochastic", horizon=3000, runs=3, seed=5, learner="barrier")
    n0 = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        b = bco.simulate_one_point("stochastic", horizon=3000, runs=3, seed=5, learner="barrier")
    finally:
        numba.set_num_threads(n0)
    assert np.array_equal(a.regret, b.regret) and np.array_equal(a.max_norm, b.max_norm)
    c = bco.simulate_one_point("stochastic", horizon=3000, runs=2, seed=5, learner="barrier")
    assert np.array_equal(a.regret[:2], c.regret)
    e = bco.simulate_one_point("stochastic", horizon=3000, runs=2, seed=6, learner="barrier")
    assert not np.array_equal(c.regret, e.regret)
    # the private learner sees other values: a different path, a larger regret
    p = bco.simulate_one_point("quadratic", horizon=20_000, runs=4, seed=1, epsilon=1.0, learner="barrier")
    q = bco.simulate_one_point("quadratic", horizon=20_000, runs=4, seed=1, epsilon=None, learner="barrier")
    assert p.regret[:, -1].mean() > q.regret[:, -1].mean()


def test_barrier_validation():
    with pytest.raises(ValueError, match="learner"):
        bco.simulate_one_point("quadratic", horizon=10, learner="ellipsoid")
    with pytest.raises(TypeError, match="learner"):
        bco.simulate_one_point("quadratic", horizon=10, learner=1)
    with pytest.raises(ValueError, match="beta"):
        bco.simulate_one_point("quadratic", horizon=10, beta=1.0)  # sphere learner has no beta
    with pytest.raises(ValueError, match="beta"):
        bco.simulate_one_point("linear", horizon=10, learner="barrier", beta=0.0)
    with pytest.raises(ValueError, match="beta"):
        bco.simulate_one_point("quadratic", horizon=10, learner="barrier", beta=-1.0)
    with pytest.raises(TypeError, match="beta"):
        bco.simulate_one_point("quadratic", horizon=10, learner="barrier", beta="1")
    with pytest.raises(ValueError, match="strongly_convex"):
        bco.simulate_one_point("linear", horizon=10, learner="barrier", strongly_convex=True)
    with pytest.raises(ValueError, match="epsilon"):
        bco.simulate_one_point("quadratic", horizon=10, learner="barrier", epsilon=0.0)


def test_hazan_levy_exploration_cost_by_hand_and_against_simulation():
    # t = 1: (beta/2)/(2 + eta0 mu); t = 4: sum over s = 1..4 of (beta/2)/(2 + eta0 mu sqrt s)
    e = bco.hazan_levy_exploration_cost([1, 4], 0.5, 2.0, 1.0)
    assert e[0] == pytest.approx(0.5 / 3.0, rel=1e-14)
    assert e[1] == pytest.approx(sum(0.5 / (2 + math.sqrt(s)) for s in range(1, 5)), rel=1e-14)
    # the exact exploration cost at x = 0 of a quadratic with Hessian beta I: (beta/2) E||A^{-1/2} u||^2
    rng = np.random.default_rng(8)
    u = rng.standard_normal((200_000, 5))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    y, _ = bco.ellipsoid_point(np.zeros(5), 0.5 * 2.0 * 1, u)  # c = eta_1 mu * 1 with eta0 = 0.5, mu = 2
    cost = 0.5 * 1.0 * (y**2).sum(axis=1)  # f(y) - f(0), f = (beta/2)||.||^2, beta = 1
    assert cost.mean() == pytest.approx(e[0], abs=4 * cost.std() / math.sqrt(u.shape[0]) + 1e-15)
    with pytest.raises(ValueError, match="checkpoints"):
        bco.hazan_levy_exploration_cost([3, 2], 0.5, 2.0, 1.0)
    with pytest.raises(ValueError, match="eta0"):
        bco.hazan_levy_exploration_cost([1], 0.0, 2.0, 1.0)
    with pytest.raises(ValueError, match="beta"):
        bco.hazan_levy_exploration_cost([1], 0.5, 2.0, -1.0)


@pytest.mark.parametrize("simulate", [bco.simulate_one_point, bco.simulate_two_point])
def test_a_non_private_run_refuses_a_privacy_argument(simulate):
    """Issue 12: epsilon=None with a delta ran the non-private learner and silently ignored delta."""
    with pytest.raises(ValueError, match="delta is a privacy argument"):
        simulate("quadratic", horizon=20, runs=1, seed=0, epsilon=None, delta=1e-5, d=3)
    free = simulate("quadratic", horizon=20, runs=1, seed=0, epsilon=None, d=3)
    assert free.sigma == 0 and math.isnan(free.delta)
    private = simulate("quadratic", horizon=20, runs=1, seed=0, epsilon=1.0, d=3)
    assert private.delta == bco.DEFAULT_DELTA


def test_relabel_writes_setting_keys_in_words_and_keeps_the_rest():
    from ldpcode.bco import report

    words = {"convex_smooth": "convex + smooth", "sc_smooth": "S.C + smooth"}
    got = report.relabel({"convex_smooth": 1, ("sc_smooth", 0.5): 2}, words)
    assert got == {"convex + smooth": 1, ("S.C + smooth", 0.5): 2}
