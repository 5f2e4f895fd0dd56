"""Lemma 6 (HeLDP paper, Section 3.1): tails of sums of Laplace variables with unequal scales, and the variance
of HeLDP-UCB-B's unbiased values (Section 3.2)."""

import math

import numpy as np
import pytest

from ldpcode import bounds, laplace_tails, mechanisms


def test_one_and_two_scales_closed_forms():
    # m = 1: e^-x / 2; m = 2 (a != b): (a^2 e^{-lam/a} - b^2 e^{-lam/b}) / (2 (a^2 - b^2))
    for lam in (0.0, 0.3, 4.0, 60.0):
        assert laplace_tails.laplace_mixed_sum_sf(lam, [1.7]) == pytest.approx(math.exp(-lam / 1.7) / 2, rel=1e-12)
        a, b = 2.0, 0.5
        want = (a * a * math.exp(-lam / a) - b * b * math.exp(-lam / b)) / (2 * (a * a - b * b))
        assert laplace_tails.laplace_mixed_sum_sf(lam, [a, b]) == pytest.approx(want, rel=1e-12)


def test_partial_fractions_agree_with_inversion():
    scales = [1.3, 0.2, 0.77, 2.0, 1.01, 1.0]
    lam = np.array([-3.0, 0.0, 0.5, 2.0, 6.0, 12.0])
    pf = laplace_tails.laplace_mixed_sum_sf(lam, scales)
    gp = laplace_tails.laplace_mixed_sum_sf_inversion(lam, scales)
    assert pf.shape == lam.shape
    np.testing.assert_allclose(pf, gp, rtol=0, atol=1e-12)
    assert pf[1] == pytest.approx(0.5, abs=1e-15)
    assert pf[0] + laplace_tails.laplace_mixed_sum_sf(3.0, scales) == pytest.approx(1.0, abs=1e-15)


def test_nearly_equal_scales_tend_to_the_equal_scale_tail():
    # clustered scales need many digits (huge alternating c_i); the limit is laplace_sum_sf
    scales = 1.0 + 1e-7 * np.arange(8)
    for lam in (1.0, 10.0, 40.0):
        got = laplace_tails.laplace_mixed_sum_sf(lam, scales)
        assert got == pytest.approx(mechanisms.laplace_sum_sf(lam, 8, 1.0 + 3.5e-7), rel=1e-5)


def test_inversion_takes_repeated_scales_and_matches_laplace_sum_sf():
    for lam in (0.5, 3.0, 9.0):
        assert laplace_tails.laplace_mixed_sum_sf_inversion(lam, [0.8] * 5) == pytest.approx(
            mechanisms.laplace_sum_sf(lam, 5, 0.8), abs=1e-13
        )
    with pytest.raises(ValueError, match="distinct"):
        laplace_tails.laplace_mixed_sum_sf(1.0, [1.0, 2.0, 1.0])


def test_monte_carlo_sums_follow_the_exact_tail():
    rng = np.random.default_rng(5)
    scales, n = [0.3, 1.0, 2.5], 400_000
    y = laplace_tails.laplace_mixed_sums(scales, n, rng, block=100_000)
    assert y.shape == (n,)
    for lam in (0.5, 2.0, 5.0):
        p = laplace_tails.laplace_mixed_sum_sf(lam, scales)
        assert abs((y > lam).mean() - p) < 4.5 * math.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize("bad", [[], [1.0, -1.0], [1.0, np.inf], [[1.0, 2.0]], [True, 2.0]])
def test_bad_scales_are_refused(bad):
    with pytest.raises((ValueError, TypeError), match="scales"):
        laplace_tails.laplace_mixed_sum_sf(1.0, bad)
    with pytest.raises((ValueError, TypeError), match="scales"):
        bounds.laplace_mixed_sum_tail_bound(1.0, bad)


def test_lemma6_bound_holds_and_reduces_to_lemma3():
    scales = np.array([2.0, 1.0, 0.5, 0.25, 0.9, 1.1])
    nu2 = float((scales**2).sum())
    lam = np.linspace(0.05, 2 * math.sqrt(2) * nu2 / scales.max() - 0.05, 40)
    bound = bounds.laplace_mixed_sum_tail_bound(lam, scales)
    assert (laplace_tails.laplace_mixed_sum_sf(lam, scales) <= bound).all()
    assert np.isnan(bounds.laplace_mixed_sum_tail_bound([0.0, 2 * math.sqrt(2) * nu2 / 2.0], scales)).all()
    lam3 = np.array([0.5, 3.0, 10.0])
    np.testing.assert_allclose(
        bounds.laplace_mixed_sum_tail_bound(lam3, [0.7] * 9), bounds.laplace_sum_tail_bound(lam3, 9, 0.7), rtol=1e-14
    )
    with pytest.raises(ValueError, match="nu"):
        bounds.laplace_mixed_sum_tail_bound(1.0, scales, nu=1.0)


@pytest.mark.parametrize("eps", [0.05, 0.5, 2.0, 30.0])
def test_unbiased_ctb_variance_is_the_two_point_variance(eps):
    for mu in (0.0, 0.3, 0.5, 1.0):
        p = mechanisms.ctb_output_mean(mu, eps)
        g1, g0 = mechanisms.unbias(1.0, eps), mechanisms.unbias(0.0, eps)
        assert p * g1 + (1 - p) * g0 == pytest.approx(mu, abs=1e-9 * max(1.0, g1))
        var = p * (1 - p) * (g1 - g0) ** 2
        assert bounds.unbiased_ctb_variance(mu, eps) == pytest.approx(var, rel=1e-9)
        assert bounds.unbiased_ctb_variance(mu, eps) <= bounds.heldp_beta(eps) / 4


def test_ctb_unbiased_values_are_unbiased_with_mixed_levels():
    from ldpcode import unbiasing

    rng = np.random.default_rng(2)
    n = 400_000
    rewards = rng.beta(4.0, 1.0, n)
    eps = rng.choice([0.3, 1.0, 4.0], n)
    g = unbiasing.ctb_unbiased_values(rewards, eps, rng)
    assert set(np.unique(np.round(g, 12))) <= {
        round(float(mechanisms.unbias(x, e)), 12) for x in (0.0, 1.0) for e in (0.3, 1.0, 4.0)
    }
    assert abs(g.mean() - 0.8) < 4 * g.std() / math.sqrt(n)
    with pytest.raises(ValueError, match="epsilons"):
        unbiasing.ctb_unbiased_values([0.5, 0.5], [1.0, 0.0], rng)
    with pytest.raises(ValueError, match="rewards"):
        unbiasing.ctb_unbiased_values([1.5], 1.0, rng)


def test_the_inversion_at_scales_far_from_1_is_the_rescaled_one():
    """P{Laplace(b) > b} = e^-1/2 at any b: the split of the inversion at s = 1 gave 5.6e-17 at b = 1e-200 and 0.161 at
    b = 1e6 before lam and the scales were divided by the largest scale."""
    for b in (1e-200, 1e-3, 1e6, 1e200):
        assert laplace_tails.laplace_mixed_sum_sf_inversion(b, [b]) == pytest.approx(math.exp(-1) / 2, rel=1e-12)
        want = laplace_tails.laplace_mixed_sum_sf(3 * b, [b, b / 3])
        assert laplace_tails.laplace_mixed_sum_sf_inversion(3 * b, [b, b / 3]) == pytest.approx(want, rel=1e-10)


def test_the_inversion_is_a_probability_or_refused():
    """Deep in the tail it rounded below 0 (-2.2e-16 at lam = 60, scale 1; -9.1e-5 at lam = 1e4): now clipped to
    [0, 1] within its absolute error, and refused where the quadrature cannot resolve it."""
    p = laplace_tails.laplace_mixed_sum_sf_inversion(60.0, [1.0])
    assert 0.0 <= p <= 1e-14
    with pytest.raises(ValueError, match="laplace_mixed_sum_sf"):
        laplace_tails.laplace_mixed_sum_sf_inversion(1e4, [1.0])


def test_the_partial_fractions_far_in_the_tail_are_0_and_1():
    """e^{-lam/b} underflowed in decimal arithmetic at lam = 1e7 and the precision doubling ended in 'scales too
    clustered'; the union bound (m/2) e^{-lam/(m b_M)} < 1e-340 makes the tail 0 (and 1 at -lam)."""
    assert laplace_tails.laplace_mixed_sum_sf(1e7, [1.0, 2.0]) == 0.0
    assert laplace_tails.laplace_mixed_sum_sf(-1e7, [1.0, 2.0]) == 1.0
