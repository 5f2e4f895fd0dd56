"""Tests of ldpcode.contextual: LDP LinUCB and LDP GLOC of Zheng et al. (2020), Section 4."""

import math

import numpy as np
import pytest

from ldpcode import contextual as C
from ldpcode.contextual import runs as C_runs
from ldpcode.contextual.privacy import _server_update


@pytest.fixture
def lin():
    return C.make_contextual_instance(5, 10, link="linear", noise=0.5, seed=3)


@pytest.fixture
def glm():
    return C.make_contextual_instance(5, 10, link="logistic", seed=3)


def test_sigmas_by_hand():
    eps, delta = 2.0, 0.01
    mV, mu = C.linucb_mechanisms(eps, delta, 1.5)
    # (eps/2, delta/2), sensitivity 2 and 2 * 1.5 = 3
    assert mV.sigma == pytest.approx(2 * math.sqrt(2 * math.log(1.25 / 0.005)) / 1.0)
    assert mu.sigma == pytest.approx(3 * math.sqrt(2 * math.log(1.25 / 0.005)) / 1.0)
    a, b, g = C.gloc_mechanisms(eps, delta, 1.0)
    # Algorithm 3, line 2: sigma = 6 sqrt(2 ln(3.75/delta)) / eps
    assert a.sigma == pytest.approx(6 * math.sqrt(2 * math.log(3.75 / delta)) / eps)
    assert b.sigma == a.sigma and g.sigma == pytest.approx(a.sigma)


def test_release_noise_has_calibrated_sd(lin, glm, monkeypatch):
    """Instrument the server: it receives only xx^T + B, y x + xi (and grad + r); the noise it
    carries has the calibrated sd, and the off-diagonal noise is symmetric."""
    seen = []
    orig_user = C.user_release

    def spy_user(x, stat, *args):
        rel = orig_user(x, stat, *args)
        seen.append((x.copy(), np.asarray(stat).copy(), rel))
        return rel

    received = []
    orig_server = _server_update

    def spy_server(state, released):
        received.append(released)
        orig_server(state, released)

    # simulate_contextual looks the user and the server up in ldpcode.contextual.runs: patch them there
    monkeypatch.setattr(C_runs, "user_release", spy_user)
    monkeypatch.setattr(C_runs, "_server_update", spy_server)
    res = C.simulate_contextual("ldp-linucb", lin, 300, 4, 5, epsilon=1.0, delta=0.01, engine="numpy")
    assert len(received) == 300 and all(r is s[2] for r, s in zip(received, seen))
    B = np.stack([rel[0] - x[:, :, None] * x[:, None, :] for x, _, rel in seen])
    xi = np.stack([rel[1] - y[:, None] * x for x, y, rel in seen])
    np.testing.assert_allclose(B, np.swapaxes(B, -1, -2))
    sV = 2 * math.sqrt(2 * math.log(1.25 / 0.005)) / 0.5
    su = 2 * 1.5 * math.sqrt(2 * math.log(1.25 / 0.005)) / 0.5
    assert res.sigmas["matrix"] == pytest.approx(sV) and res.sigmas["vector"] == pytest.approx(su)
    iu = np.triu_indices(5)
    assert B[..., iu[0], iu[1]].std() == pytest.approx(sV, rel=0.05)
    assert xi.std() == pytest.approx(su, rel=0.05)
    assert abs(B.mean()) < 0.05 * sV
    # the released matrix is far from the raw statistic (what the server sees is privatised)
    assert np.abs(B).mean() > 1.0
    seen.clear()
    received.clear()
    C.simulate_contextual("ldp-gloc", glm, 200, 4, 5, epsilon=1.0, delta=0.01, engine="numpy")
    sg = 6 * math.sqrt(2 * math.log(3.75 / 0.01))
    r = np.stack([rel[2] for _, _, rel in seen])
    assert len(received) == 200 and all(len(rel) == 3 for rel in received)
    # grad + r: |grad| <= 1 so the sd is dominated by r ~ N(0, sigma^2)
    assert r.std() == pytest.approx(sg, rel=0.06)


def test_sigma_to_zero_equals_linucb(lin):
    a = C.simulate_contextual("linucb", lin, 400, 3, 11, record_choices=True)
    b = C.simulate_contextual(
        "ldp-linucb", lin, 400, 3, 11, epsilon=1.0, delta=0.01, sigma_scale=0.0, record_choices=True
    )
    np.testing.assert_array_equal(a.choices, b.choices)
    np.testing.assert_allclose(a.regret, b.regret)
    c = C.simulate_contextual("ldp-linucb", lin, 400, 3, 11, epsilon=1.0, delta=0.01, record_choices=True)
    assert (c.choices != a.choices).any()


def test_link_and_gradient_by_hand():
    assert C.logistic(0.0) == 0.5
    assert C.logistic(math.log(3)) == pytest.approx(0.75)
    assert C.logistic_derivative(math.log(3)) == pytest.approx(0.75 * 0.25)
    theta = np.array([1.0, 0.0])
    x = np.array([math.log(3), 2.0])
    # mu(ln 3) = 0.75; grad = (0.75 - 1) x
    np.testing.assert_allclose(C.logistic_loss_gradient(theta, x, 1.0), [-0.25 * math.log(3), -0.5])
    # numerical derivative of l(theta) = -y x.theta + ln(1 + e^{x.theta})
    loss = lambda th, y: -y * x @ th + math.log1p(math.exp(x @ th))
    h = 1e-6
    num = [(loss(theta + h * e, 0.0) - loss(theta - h * e, 0.0)) / (2 * h) for e in np.eye(2)]
    np.testing.assert_allclose(C.logistic_loss_gradient(theta, x, 0.0), num, rtol=1e-6)


def test_upsilon_and_gloc_a_by_hand():
    assert C.upsilon(2.0, 4, 4, 10, 0.2) == pytest.approx(2 * 2 * (8 + 2 * math.log(100)))
    k, R, a = 0.2, 0.5, 0.1
    want = 1 + 4 * 3 / k + 8 * R**2 / k**2 * math.log(2 / a * math.sqrt(1 + 2 * 3 / k + 4 * R**4 / (k**4 * a**2)))
    assert C.gloc_a(3.0, k, R, a) == pytest.approx(want)


def test_regret_zero_when_arms_equal():
    inst = C.make_contextual_instance(5, 4, link="linear", contexts="identical", seed=0)
    r = C.simulate_contextual("ldp-linucb", inst, 200, 3, 0, epsilon=1.0, delta=0.1)
    assert np.all(r.regret == 0)
    g = C.make_contextual_instance(5, 4, link="logistic", contexts="identical", seed=0)
    assert np.all(C.simulate_contextual("gloc", g, 200, 3, 0).regret == 0)


def test_regret_positive_and_sublinear_nonprivate(lin):
    r = C.simulate_contextual("linucb", lin, 2000, 4, 0, checkpoints=[100, 2000])
    assert np.all(r.regret > 0)
    # sublinear: average regret per round falls
    assert r.regret[:, 1].mean() / 2000 < 0.5 * r.regret[:, 0].mean() / 100


def test_unit_ball_sampler():
    x = C.sample_unit_ball(np.random.default_rng(0), (20000,), 5)
    n = np.linalg.norm(x, axis=1)
    assert n.max() <= 1
    # E|x|^2 = d/(d+2) for the uniform ball
    assert (n**2).mean() == pytest.approx(5 / 7, abs=0.01)


@pytest.mark.parametrize(
    "kwargs,name",
    [
        (dict(epsilon=0.0, delta=0.1), "epsilon"),
        (dict(epsilon=-1.0, delta=0.1), "epsilon"),
        (dict(epsilon=1.0, delta=0.0), "delta"),
        (dict(epsilon=1.0, delta=1.0), "delta"),
    ],
)
def test_privacy_validation(lin, kwargs, name):
    with pytest.raises(ValueError, match=name):
        C.simulate_contextual("ldp-linucb", lin, 10, 1, 0, **kwargs)
    with pytest.raises(ValueError, match=name):
        C.gloc_mechanisms(**kwargs)


def test_instance_validation():
    with pytest.raises(ValueError, match="theta"):
        C.make_contextual_instance(5, 10, theta=[0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="n_arms"):
        C.make_contextual_instance(5, 1)
    with pytest.raises(ValueError, match="dim"):
        C.make_contextual_instance(0, 10)
    with pytest.raises(ValueError, match="link"):
        C.make_contextual_instance(5, 10, link="probit")
    with pytest.raises(ValueError, match="theta"):
        C.make_contextual_instance(2, 10, theta=[1.0, 1.0])
    with pytest.raises(ValueError, match="theta"):
        C.logistic_loss_gradient(np.zeros(3), np.zeros(2), 1.0)


def test_policy_validation(lin, glm):
    with pytest.raises(ValueError, match="policy"):
        C.simulate_contextual("ucb", lin, 10, 1, 0)
    with pytest.raises(ValueError, match="link"):
        C.simulate_contextual("gloc", lin, 10, 1, 0)
    with pytest.raises(ValueError, match="epsilon"):
        C.simulate_contextual("ldp-gloc", glm, 10, 1, 0)
    with pytest.raises(ValueError, match="checkpoints"):
        C.simulate_contextual("linucb", lin, 10, 1, 0, checkpoints=[5, 20])


def test_deterministic(lin, glm):
    for pol, inst, kw in [
        ("ldp-linucb", lin, dict(epsilon=2.0, delta=0.01)),
        ("ldp-gloc", glm, dict(epsilon=2.0, delta=0.01)),
        ("gloc", glm, {}),
    ]:
        a = C.simulate_contextual(pol, inst, 700, 3, 9, **kw)
        b = C.simulate_contextual(pol, inst, 700, 3, 9, **kw)
        np.testing.assert_array_equal(a.regret, b.regret)
        # run r does not depend on how many runs are simulated
        c = C.simulate_contextual(pol, inst, 700, 2, 9, **kw)
        np.testing.assert_allclose(a.regret[:2], c.regret, rtol=1e-9, atol=1e-9)


def test_horizon_sweep(lin):
    s = C.horizon_sweep("linucb", lin, [50, 100, 200], 3, 0, n_boot=50)
    assert s.final.shape == (3, 3) and s.curve.horizon == 200
    np.testing.assert_allclose(s.final[:, -1], s.curve.regret[:, -1])
    with pytest.raises(ValueError, match="horizons"):
        C.horizon_sweep("linucb", lin, [100, 50, 200], 3, 0)


@pytest.mark.parametrize(
    "policy,link,kw",
    [
        ("linucb", "linear", {}),
        ("ldp-linucb", "linear", dict(epsilon=3.0, delta=0.01)),
        ("gloc", "logistic", {}),
        ("ldp-gloc", "logistic", dict(epsilon=3.0, delta=0.01)),
    ],
)
def test_numba_engine_equals_numpy_engine(policy, link, kw):
    """The compiled engine makes the same choices as the instrumented NumPy engine (which only feeds
    the server the released statistics), on the same random numbers."""
    inst = C.make_contextual_instance(5, 6, link=link, seed=4)
    a = C.simulate_contextual(policy, inst, 600, 3, 8, engine="numpy", record_choices=True, **kw)
    b = C.simulate_contextual(policy, inst, 600, 3, 8, engine="numba", record_choices=True, **kw)
    np.testing.assert_array_equal(a.choices, b.choices)
    np.testing.assert_allclose(a.regret, b.regret, rtol=1e-9, atol=1e-9)
    with pytest.raises(ValueError, match="engine"):
        C.simulate_contextual(policy, inst, 10, 1, 0, engine="torch", **kw)


def test_uniform_play_regret_by_hand():
    same = C.make_contextual_instance(3, 4, contexts="identical", seed=0)
    assert C.uniform_play_regret(same, 100) == 0.0
    # two arms, d = 1, theta = 1: E[max(x1, x2) - (x1 + x2)/2] = E|x1 - x2|/2 = (2/3)/2 for x uniform on [-1, 1]
    inst = C.make_contextual_instance(1, 2, theta=[1.0])
    assert C.uniform_play_regret(inst, 200_000, seed=1) == pytest.approx(1 / 3, abs=0.005)
