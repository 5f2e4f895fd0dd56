"""Lemma 3 (Ren et al. 2020, Section 3.1.1): the exact tail of a sum of Laplace variables."""

import math

import numpy as np
import pytest

from ldpcode import bounds, mechanisms


@pytest.mark.parametrize("lam", [0.0, 0.5, 3.0, 40.0, 400.0])
def test_laplace_sum_sf_closed_forms(lam):
    # n = 1: e^-x / 2; n = 2: (2 + x) e^-x / 4; n = 3: (8 + 5x + x^2) e^-x / 16 (x = lam / b, lam >= 0),
    # from the densities e^-|y|/2, (1 + |y|) e^-|y|/4, (3 + 3|y| + y^2) e^-|y|/16
    for b in (1.0, 2.5):
        x = lam / b
        assert mechanisms.laplace_sum_sf(lam, 1, b) == pytest.approx(math.exp(-x) / 2, rel=1e-9)
        assert mechanisms.laplace_sum_sf(lam, 2, b) == pytest.approx((2 + x) * math.exp(-x) / 4, rel=1e-9)
        assert mechanisms.laplace_sum_sf(lam, 3, b) == pytest.approx((8 + 5 * x + x * x) * math.exp(-x) / 16, rel=1e-9)


def test_laplace_sum_sf_symmetry_and_shape():
    lam = np.array([[-2.0, -0.5], [0.5, 2.0]])
    out = mechanisms.laplace_sum_sf(lam, 5, 1.0)
    assert out.shape == (2, 2)
    assert out[0, 0] + out[1, 1] == pytest.approx(1.0, abs=1e-12)
    assert mechanisms.laplace_sum_sf(0.0, 7, 1.0) == pytest.approx(0.5, abs=1e-12)


def test_laplace_sum_sf_against_monte_carlo(rng):
    n, b, N = 6, 0.7, 400_000
    y = rng.laplace(0.0, b, size=(N, n)).sum(axis=1)
    for lam in (0.5, 2.0, 4.0):
        p = mechanisms.laplace_sum_sf(lam, n, b)
        assert abs((y > lam).mean() - p) < 4.5 * math.sqrt(p * (1 - p) / N)


def test_laplace_sum_sf_respects_lemma3():
    n, b = 16, 1.0
    lam = np.linspace(0.5, 2 * math.sqrt(2) * b * n - 0.5, 50)
    assert (mechanisms.laplace_sum_sf(lam, n, b) <= bounds.laplace_sum_tail_bound(lam, n, b)).all()


def test_laplace_sum_sf_rejects_bad_input():
    with pytest.raises(ValueError, match="n must be"):
        mechanisms.laplace_sum_sf(1.0, 0, 1.0)
    with pytest.raises(ValueError, match="b must be > 0"):
        mechanisms.laplace_sum_sf(1.0, 3, -1.0)
    with pytest.raises(ValueError, match="lam"):
        mechanisms.laplace_sum_sf(np.inf, 3, 1.0)


def test_lemma3_and_lemma6_at_extreme_scales():
    """The bounds depend on lam/v and v/b only: exp(-(lam/v)^2/8) = e^{-1/8} at lam = v = b, whatever their scale (nan
    at 1e-200 and 1e200: v^2 under- or overflowed). The exact tail at b = 5e-324: lam/b = inf, P{Y_2 > 1} = 0 (nan)."""
    assert bounds.laplace_sum_tail_bound(1e-200, 1, 1e-200) == pytest.approx(math.exp(-1 / 8), rel=1e-15)
    assert bounds.laplace_mixed_sum_tail_bound(1e200, [1e200]) == pytest.approx(math.exp(-1 / 8), rel=1e-15)
    assert bounds.laplace_mixed_sum_tail_bound(1e-200, [1e-200, 1e-200]) == pytest.approx(math.exp(-1 / 16), rel=1e-15)
    assert mechanisms.laplace_sum_sf(1.0, 2, 5e-324) == 0.0
    assert mechanisms.laplace_sum_sf(-1.0, 2, 5e-324) == 1.0
