"""ldpcode.unbiasing's helpers of the chapter on the map g: the levels HeLDP-UCB-B keeps, and a sample's mean and
variance with their standard errors (values computed by hand)."""

import math

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import unbiasing


def test_sample_moments_by_hand():
    # 1, 2, 3, 4: mean 5/2, deviations ±1/2, ±3/2, s^2 = 5/3, m4 = (2 * 81/16 + 2 * 1/16) / 4 = 41/16
    s = unbiasing.sample_moments([1.0, 2.0, 3.0, 4.0])
    assert s.mean == 2.5
    assert s.var == pytest.approx(5 / 3, rel=1e-15)
    assert s.mean_se == pytest.approx(math.sqrt(5 / 12), rel=1e-15)
    # se(s^2)^2 = (m4 - m2^2) / n + 2 s^4 / (n (n - 1)), m2 = 5/4: (41/16 - 25/16) / 4 + 2 (25/9) / 12 = 77/108
    assert s.var_se == pytest.approx(math.sqrt(77 / 108), rel=1e-14)


def test_the_variance_se_of_a_fair_two_point_law_does_not_collapse():
    """The g-values of an arm of mean 1/2 at a constant level take two values with equal weights: mu_4 = sigma^4,
    so only the second-order part 2 sigma^4 / (n (n - 1)) of Var[s^2] is left. Over 300 samples of n = 1000 fair
    signs, every |s^2 - 1| is within 4 of its standard errors (with the former plug-in, which fell to about 0
    there, 7 % of them were beyond 4, the worst at 18)."""
    rng = np.random.default_rng(0)
    z = []
    for _ in range(300):
        s = unbiasing.sample_moments(rng.choice([-1.0, 1.0], size=1000))
        z.append((s.var - 1.0) / s.var_se)
    assert max(abs(v) for v in z) < 4


def test_sample_moments_of_a_normal_sample():
    # N(0, 1): Var[s^2] = 2 sigma^4 / (n - 1), so se(s^2) is about sqrt(2/n)
    x = np.random.default_rng(3).normal(size=200_000)
    s = unbiasing.sample_moments(x)
    assert s.var == pytest.approx(1.0, abs=5 * math.sqrt(2 / x.size))
    assert s.var_se == pytest.approx(math.sqrt(2 / x.size), rel=0.03)
    assert s.mean_se == pytest.approx(1 / math.sqrt(x.size), rel=0.01)


@pytest.mark.parametrize("bad", [[1.0, 2.0, 3.0], [[1.0, 2.0], [3.0, 4.0]], [1.0, 2.0, 3.0, math.nan]])
def test_sample_moments_refuses_too_few_or_bad_values(bad):
    with pytest.raises(ValueError, match="at least 4 finite numbers"):
        unbiasing.sample_moments(bad)


def test_kept_levels_are_the_first_that_reach_eps_min():
    levels = ldp.make_privacy_levels("ren-heldp-discrete")  # uniform on {0, 0.2, 1, 2, 100}: 60 % reach 1
    eps = unbiasing.kept_levels(levels, 1.0, np.random.default_rng(5), 1000)
    drawn = levels.sample(np.random.default_rng(5), 4000)
    assert eps.shape == (1000,) and (eps >= 1.0).all()
    np.testing.assert_array_equal(eps, drawn[drawn >= 1.0][:1000])
    assert set(np.unique(eps)) == {1.0, 2.0, 100.0}


def test_kept_levels_refuses_a_law_that_keeps_under_a_quarter():
    levels = ldp.make_privacy_levels("ren-heldp-discrete")  # 20 % reach 100: about 800 of 4000
    with pytest.raises(ValueError, match="fewer than 1,000 of 4,000 levels"):
        unbiasing.kept_levels(levels, 100.0, np.random.default_rng(5), 1000)


def test_sample_moments_at_extreme_scales():
    """[x, -x, x, -x]: mean 0, s^2 = 4x^2/3, se = sqrt(s^2/4) = x/sqrt(3). At x = 1e-200 the squares underflowed (se 0);
    at 1e150 s^2 = 1.33e300 is a double (was inf from the squares); at 1e200 it is not, and is refused."""
    m = unbiasing.sample_moments([1e-200, -1e-200] * 2)
    assert m.mean == 0.0 and m.mean_se == pytest.approx(1e-200 / math.sqrt(3), rel=1e-15)
    m = unbiasing.sample_moments([1e150, -1e150] * 2)
    assert m.var == pytest.approx(4e300 / 3, rel=1e-15) and m.mean_se == pytest.approx(1e150 / math.sqrt(3), rel=1e-15)
    with pytest.raises(ValueError, match="the variance of these values overflows"):
        unbiasing.sample_moments([1e200, -1e200] * 2)
