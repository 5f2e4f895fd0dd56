"""Figure 3 of Azize and Basu (2022): the bootstrap over runs of the two-regime (hinge) fit that locates the
regime change of AdaP-KLUCB's regret in ε (ldpcode.simulate.hinge_bootstrap), and the noise-free model of
the AdaP indexes that explains where it lies (ldpcode.global_policies.noise_free_pulls)."""

import importlib
import math

import numpy as np
import pytest

import ldpcode as ldp

sim = importlib.import_module("ldpcode.simulate")  # ldpcode.simulate the name is the function


def test_hinge_bootstrap_hand_computed_exact_hinge():
    # x* = 1 is a candidate of the grid (grid = 3 on [log 0.01, log 100] gives x* in {0.1, 1, 10}); y is an
    # exact hinge of slope -1 and plateau 100. Runs are 0.5 y and 1.5 y: every resampled mean is c y with
    # c in {0.5, 1, 1.5}, a constant shift of log y, so every replicate has breakpoint 1, slope -1 and
    # plateau 100 c, with c the mean of the two chosen multipliers.
    x = np.array([0.01, 0.1, 1.0, 10.0, 100.0])
    y = 100.0 * np.minimum(x, 1.0) ** -1.0  # 10000, 1000, 100, 100, 100
    mult = np.array([0.5, 1.5])
    values = mult[:, None] * y[None, :]
    b = sim.hinge_bootstrap(x, values, n_boot=50, seed=7, grid=3)
    idx = np.random.default_rng(7).integers(0, 2, size=(50, 2))
    np.testing.assert_array_equal(b.indices, idx)
    np.testing.assert_allclose(b.breakpoints, 1.0, rtol=1e-12)
    np.testing.assert_allclose(b.slopes, -1.0, rtol=1e-12)
    np.testing.assert_allclose(b.plateaus, 100.0 * mult[idx].mean(axis=1), rtol=1e-12)
    assert b.breakpoint_se == pytest.approx(0.0, abs=1e-12)
    assert b.fit.breakpoint == pytest.approx(1.0) and b.fit.plateau == pytest.approx(100.0)
    # plateaus take the values 50, 100, 150: their sd is the sd of the hand-computed list
    assert b.plateau_se == pytest.approx(float(np.std(100.0 * mult[idx].mean(axis=1), ddof=1)))


def test_hinge_bootstrap_matches_hinge_fit_replicate_by_replicate():
    rng = np.random.default_rng(3)
    x = np.geomspace(0.05, 10, 25)
    base = 600.0 * np.minimum(x / 1.5, 1.0) ** -0.8
    values = base[None, :] * np.exp(rng.normal(0, 0.2, size=(20, x.size)))
    b = sim.hinge_bootstrap(x, values, n_boot=40, seed=11, grid=301)
    for k in range(0, 40, 7):
        f = sim.hinge_fit(x, values[b.indices[k]].mean(axis=0), grid=301)
        assert b.breakpoints[k] == pytest.approx(f.breakpoint, rel=1e-9)
        assert b.slopes[k] == pytest.approx(f.slope, rel=1e-7)
        assert b.plateaus[k] == pytest.approx(f.plateau, rel=1e-7)
    f_all = sim.hinge_fit(x, values.mean(axis=0), grid=301)
    assert b.fit == f_all
    assert 1.0 < f_all.breakpoint < 2.3 and b.breakpoint_se > 0


def test_hinge_bootstrap_bad_input():
    x = np.geomspace(0.1, 10, 6)
    ok = np.ones((3, 6)) + np.arange(6)
    with pytest.raises(ValueError, match=r"values must have shape \(runs >= 2, 6\)"):
        sim.hinge_bootstrap(x, ok[0])
    with pytest.raises(ValueError, match="values must have shape"):
        sim.hinge_bootstrap(x, ok[:1])
    with pytest.raises(ValueError, match="values must have shape"):
        sim.hinge_bootstrap(x, ok[:, :5])
    bad = ok.copy()
    bad[1, 2] = 0.0
    with pytest.raises(ValueError, match="finite and > 0"):
        sim.hinge_bootstrap(x, bad)
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match="finite and > 0"):
        sim.hinge_bootstrap(x, bad)
    with pytest.raises(ValueError, match="n_boot"):
        sim.hinge_bootstrap(x, ok, n_boot=1)
    with pytest.raises(ValueError, match="seed"):
        sim.hinge_bootstrap(x, ok, seed=-1)
    with pytest.raises(ValueError, match="positive"):
        sim.hinge_bootstrap(-x, ok)


# ---------------------------------------------------------------------------------------------------
# The noise-free model of the AdaP indexes (ldpcode.global_policies.noise_free_pulls)
# ---------------------------------------------------------------------------------------------------


def test_noise_free_pulls_ucb_closed_form():
    # AdaP-UCB: mu_a + sqrt(a/(2m)) + a/(eps m) = mu* is a quadratic in u = 1/sqrt(m):
    # (a/eps) u^2 + sqrt(a/2) u - Delta = 0.
    from ldpcode import global_policies as gp

    T, eps, alpha = 10**4, 0.7, 3.1
    a = alpha * math.log(T)
    delta = 0.5
    u = (-math.sqrt(a / 2) + math.sqrt(a / 2 + 4 * (a / eps) * delta)) / (2 * a / eps)
    m_star = 1 / u**2  # 184.1 for these numbers
    got = gp.noise_free_pulls("AdaP-UCB", [0.75, 0.25], T, eps, alpha, staircase=False)
    assert got[1] == pytest.approx(2 * m_star, rel=1e-9)
    assert got[0] == pytest.approx(T - 2 * m_star, rel=1e-9)
    stair = gp.noise_free_pulls("AdaP-UCB", [0.75, 0.25], T, eps, alpha)
    assert 128 < m_star < 256 and stair[1] == 512 and stair[0] == T - 512


def test_noise_free_pulls_klucb_large_epsilon_is_kl_ucb():
    # Without the privacy shift, klucb(mu_a, a/m) = mu* exactly when d(mu_a, mu*) = a/m.
    from ldpcode import global_policies as gp

    T, alpha = 10**7, 3.1
    a = alpha * math.log(T)
    d = 0.1 * math.log(0.1 / 0.8) + 0.9 * math.log(0.9 / 0.2)  # d(0.1, 0.8) = 1.1457
    got = gp.noise_free_pulls("AdaP-KLUCB", [0.8, 0.1, 0.1], T, 1e9, alpha, staircase=False)
    np.testing.assert_allclose(got[1:], 2 * a / d, rtol=1e-5)  # m* = 43.6
    np.testing.assert_array_equal(gp.noise_free_pulls("AdaP-KLUCB", [0.8, 0.1, 0.1], T, 1e9, alpha)[1:], 128)


def test_noise_free_pulls_match_a_simulation_where_the_shift_dominates():
    # At eps = 0.05 the privacy shift a/(eps m) is alpha log t = 50 Laplace scales: the noise never matters,
    # and every run pulls each arm of mean 0.1 exactly 4096 times (m* = 1674, last episode 2048).
    from ldpcode import global_policies as gp

    means = [0.8, 0.1, 0.1, 0.1, 0.1]
    pred = gp.noise_free_pulls("AdaP-KLUCB", means, 10**7, 0.05)
    np.testing.assert_array_equal(pred[1:], 4096)
    res = ldp.simulate(
        ldp.make_policy("AdaP-KLUCB", epsilon=0.05),
        ldp.make_instance("bernoulli", means=means),
        10**7,
        runs=3,
        seed=5,
        checkpoints=[10**7],
    )
    np.testing.assert_array_equal(res.pulls[:, 1:], 4096)


def test_noise_free_pulls_bad_input():
    from ldpcode import global_policies as gp

    with pytest.raises(ValueError, match="name must be 'AdaP-UCB' or 'AdaP-KLUCB'"):
        gp.noise_free_pulls("DP-SE", [0.5, 0.4], 100, 1.0)
    with pytest.raises(ValueError, match=r"means(\[0\])? must be"):
        gp.noise_free_pulls("AdaP-UCB", [1.5, 0.4], 100, 1.0)
    with pytest.raises(ValueError, match="suboptimal"):
        gp.noise_free_pulls("AdaP-UCB", [0.4, 0.4], 100, 1.0)
    with pytest.raises(ValueError, match="horizon"):
        gp.noise_free_pulls("AdaP-UCB", [0.5, 0.4], 1, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        gp.noise_free_pulls("AdaP-UCB", [0.5, 0.4], 100, 0.0)
    with pytest.raises(ValueError, match="alpha"):
        gp.noise_free_pulls("AdaP-UCB", [0.5, 0.4], 100, 1.0, alpha=-1.0)


def test_noise_free_model_refuses_a_horizon_shorter_than_its_exploration():
    """Issue 12: at T = 100 the model returned negative pulls for the best arm ([-220, 256, 64]-like rows):
    a silent wrong result. It now refuses, naming horizon, and the notebook's rule refuses such a horizon."""
    with pytest.raises(ValueError, match="horizon=100 is too short for the noise-free model") as info:
        ldp.global_policies.noise_free_pulls("AdaP-KLUCB", [0.8, 0.1, 0.1, 0.1, 0.1], 100, 0.05)
    assert isinstance(info.value, ldp.global_policies.HorizonTooShort)  # what the notebook rule catches
    with pytest.raises(ValueError, match="alpha") as info:  # other refusals are not that class
        ldp.global_policies.noise_free_pulls("AdaP-KLUCB", [0.8, 0.1], 10**6, 1.0, alpha=-1.0)
    assert not isinstance(info.value, ldp.global_policies.HorizonTooShort)
    pulls = ldp.global_policies.noise_free_pulls("AdaP-KLUCB", [0.8, 0.1, 0.1, 0.1, 0.1], 10**7, 0.05)
    assert (pulls >= 0).all() and pulls.sum() == 10**7
