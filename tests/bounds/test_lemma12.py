"""Lemma 12 and Fact 13 (Ren et al. 2020, Appendix A.8): the ε-DP pair generator, the mixture KL, the bounds."""

import math

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import audit
from ldpcode.bounds import fact13_bound, lemma12_bound, lemma12_fact13_bound
from ldpcode.divergences import kl_discrete, kl_mixture


@pytest.mark.parametrize("mode", ["interior", "extreme"])
@pytest.mark.parametrize("eps", [0.01, 0.5, 2.0, 8.0])
@pytest.mark.parametrize("k", [2, 3, 10])
def test_random_dp_pair_is_eps_dp_and_normalized(mode, eps, k, rng):
    for _ in range(200):
        f, g = audit.random_dp_pair(eps, k, rng, mode=mode)
        assert f.shape == g.shape == (k,)
        assert (f > 0).all() and (g > 0).all()
        assert abs(f.sum() - 1) < 1e-12 and abs(g.sum() - 1) < 1e-12
        assert np.abs(np.log(f / g)).max() <= eps * (1 + 1e-12)
        assert audit.max_log_ratio(f, g) <= eps * (1 + 1e-12)
        if mode == "extreme":  # every ratio is e^{+eps} or e^{-eps}, both occur
            lr = np.log(f / g)
            assert np.allclose(np.abs(lr), eps, rtol=1e-12)
            assert (lr > 0).any() and (lr < 0).any()


def test_random_dp_pair_interior_fills_the_range(rng):
    # not a degenerate generator: ratios spread over most of [e^-eps, e^eps], and f differs from g
    lr = np.concatenate([np.log(np.divide(*audit.random_dp_pair(1.0, 5, rng))) for _ in range(2000)])
    assert lr.min() < -0.8 and lr.max() > 0.8


def test_random_dp_pair_is_reproducible():
    a = audit.random_dp_pair(1.0, 4, np.random.default_rng(3))
    b = audit.random_dp_pair(1.0, 4, np.random.default_rng(3))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_max_log_ratio_by_hand():
    assert audit.max_log_ratio([0.5, 0.5], [0.25, 0.75]) == pytest.approx(math.log(2))
    assert audit.max_log_ratio([1.0, 0.0], [0.5, 0.5]) == math.inf
    assert audit.max_log_ratio([0.5, 0.5, 0.0], [0.5, 0.5, 0.0]) == 0.0


def test_kl_mixture_by_hand():
    # p = 1/2, q = 0, f = (3/4, 1/4), g = (1/4, 3/4): h_a = (1/2, 1/2), h_b = g,
    # D = 1/2 log(2) + 1/2 log(2/3) = 1/2 log(4/3) = 0.14384103622589045
    f, g = np.array([0.75, 0.25]), np.array([0.25, 0.75])
    assert kl_mixture(0.5, 0.0, f, g) == pytest.approx(0.5 * math.log(4 / 3), rel=1e-14)
    assert kl_mixture(0.5, 0.0, f, g) == pytest.approx(0.14384103622589045, rel=1e-12)
    # endpoints: h_a = f, h_b = g
    assert kl_mixture(1.0, 0.0, f, g) == pytest.approx(kl_discrete(f, g), rel=1e-14)
    assert kl_mixture(0.3, 0.3, f, g) == 0.0


def test_kl_mixture_broadcasts():
    f, g = np.array([0.75, 0.25]), np.array([0.25, 0.75])
    p = np.array([0.1, 0.5, 0.9])
    out = kl_mixture(p[:, None], p[None, :], f, g)
    assert out.shape == (3, 3)
    assert out[1, 0] == pytest.approx(kl_mixture(0.5, 0.1, f, g))
    fs = np.stack([f, g])
    assert kl_mixture(0.5, 0.0, fs, fs[::-1]).shape == (2,)


def test_extreme_pair_has_the_kl_of_ctb(rng):
    # an extreme pair is randomized response split over k points: the likelihood ratio h_a/h_b only
    # depends on which side a point is, so the KL equals that of the binary CTB pair (sufficiency)
    eps, p, q = 1.3, 0.8, 0.35
    e = math.exp(eps)
    ctb_f, ctb_g = np.array([e, 1]) / (1 + e), np.array([1, e]) / (1 + e)
    f, g = audit.random_dp_pair(eps, 7, rng, mode="extreme")
    assert kl_mixture(p, q, f, g) == pytest.approx(kl_mixture(p, q, ctb_f, ctb_g), rel=1e-10)
    # and the CTB pair gives the KL of the two Bernoulli output laws of Lemma 5
    a, b = ldp.CTB(eps).output_mean(np.array([p, q]))
    assert kl_mixture(p, q, ctb_g, ctb_f) == pytest.approx(float(ldp.divergences.kl_bernoulli(a, b)), rel=1e-12)


def test_fact13_by_hand():
    assert fact13_bound(0.5, 2.0) == pytest.approx(1.5**2 / 4)  # 0.5625
    assert fact13_bound(1.0, 1.0) == 0.0
    # Lemma 12's R, r at p = 1, q = 0 are e^eps, e^-eps: (R - r)^2 / (4 r R) = sinh(eps)^2
    assert lemma12_fact13_bound(1.0, 0.0, math.log(2)) == pytest.approx(0.5625, rel=1e-14)
    assert lemma12_fact13_bound(0.0, 1.0, 0.7) == pytest.approx(math.sinh(0.7) ** 2, rel=1e-14)
    # the final relaxation of the proof loses a factor 4 D(p) D(q), exactly 4 at {p, q} = {0, 1}
    assert lemma12_bound(1.0, 0.0, 0.7) / lemma12_fact13_bound(1.0, 0.0, 0.7) == pytest.approx(4.0)
    p, q, eps = 0.3, 0.6, 1.1
    D = lambda x: x * x + x * (1 - x) * 2 * math.cosh(eps) + (1 - x) ** 2
    assert lemma12_bound(p, q, eps) / lemma12_fact13_bound(p, q, eps) == pytest.approx(4 * D(p) * D(q))


def test_lemma12_chain_holds_on_random_pairs(rng):
    for _ in range(500):
        eps = float(np.exp(rng.uniform(np.log(0.01), np.log(6.0))))
        f, g = audit.random_dp_pair(eps, int(rng.integers(2, 8)), rng)
        p, q = rng.random(2)
        kl = kl_mixture(p, q, f, g)
        assert kl <= lemma12_fact13_bound(p, q, eps) * (1 + 1e-9) + 1e-300
        assert lemma12_fact13_bound(p, q, eps) <= lemma12_bound(p, q, eps) / 4 * (1 + 1e-12)
        # Fact 13 itself on (f, g)
        lr = f / g
        assert kl_discrete(f, g) <= fact13_bound(lr.min(), lr.max()) * (1 + 1e-9)


@pytest.mark.parametrize(
    "bad, exc",
    [
        (dict(epsilon=0.0), ValueError),
        (dict(epsilon=-1.0), ValueError),
        (dict(k=1), ValueError),
        (dict(k=2.5), TypeError),
        (dict(rng=3), TypeError),
        (dict(mode="edge"), ValueError),
        (dict(concentration=0.0), ValueError),
    ],
)
def test_random_dp_pair_rejects_bad_input(bad, exc):
    kw = dict(epsilon=1.0, k=3, rng=np.random.default_rng(0)) | bad
    mode = {k: kw.pop(k) for k in ("mode", "concentration") if k in kw}
    with pytest.raises(exc, match=next(iter(bad))):
        audit.random_dp_pair(kw["epsilon"], kw["k"], kw["rng"], **mode)


def test_kl_mixture_and_bounds_reject_bad_input():
    f, g = np.array([0.75, 0.25]), np.array([0.25, 0.75])
    with pytest.raises(ValueError, match="p must lie in"):
        kl_mixture(1.2, 0.0, f, g)
    with pytest.raises(ValueError, match="q must lie in"):
        kl_mixture(0.2, -0.1, f, g)
    with pytest.raises(ValueError, match="f must be a probability vector"):
        kl_mixture(0.2, 0.1, np.array([0.7, 0.7]), g)
    with pytest.raises(ValueError, match="same shape"):
        kl_mixture(0.2, 0.1, np.array([0.5, 0.25, 0.25]), g)
    with pytest.raises(ValueError, match="r <= R"):
        fact13_bound(2.0, 1.0)
    with pytest.raises(ValueError, match="r <= R"):
        fact13_bound(0.0, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        lemma12_fact13_bound(0.5, 0.2, 0.0)
    with pytest.raises(ValueError, match="p must lie in"):
        lemma12_fact13_bound(1.5, 0.2, 1.0)


def test_lemma12_and_fact13_bounds_at_extreme_scales():
    """By hand: (2 sinh 300)^2 (1e-200)^2 = ((e^300 - e^-300) 1e-200)^2 = 3.773e-140 (was 0: (p-q)^2 underflowed);
    (e^400 1e-300)^2 = e^800 1e-600 = 2.726e-253 (was inf). Fact 13: (R-r)^2/(4rR) = (0.5e200)^2/(6e400) = 1/24 at
    r = 1e200, R = 1.5e200 (was nan) and (1e200 - 1)^2/(4e200) = 2.5e199 at r = 1 (was inf)."""
    assert lemma12_bound(1e-200, 0.0, 300.0) == pytest.approx((math.exp(300) * 1e-200) ** 2, rel=1e-12, abs=0)
    assert lemma12_bound(1e-300, 0.0, 400.0) == pytest.approx(math.exp(800 - 600 * math.log(10)), rel=1e-12)
    assert fact13_bound(1e200, 1.5e200) == pytest.approx(1 / 24, rel=1e-15)
    assert fact13_bound(1.0, 1e200) == pytest.approx(2.5e199, rel=1e-15)
