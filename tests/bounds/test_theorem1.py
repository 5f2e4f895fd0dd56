"""Theorem 1 (Ren et al. 2020, Section 2, Appendix A.1): the lower-bound constant and its neighbours."""

import math

import pytest

from ldpcode import bounds

TWO = [0.9, 0.5]  # one suboptimal arm, gap 0.4


def test_small_epsilon_form_by_hand():
    # 1/(4 eps^2) * 1/0.4 at eps = 0.5: 1 * 2.5
    assert bounds.lower_bound_constant_small_epsilon(TWO, 0.5) == pytest.approx(2.5, rel=1e-14)
    for eps in (0.01, 0.3, 2.0):  # sinh(eps) >= eps: the approximation is always above Theorem 1
        assert bounds.lower_bound_constant_small_epsilon(TWO, eps) > bounds.lower_bound_constant(TWO, eps)


def test_theorem1_and_tightened_by_hand():
    # eps = log 2: e^eps - e^-eps = 1.5, so Thm 1 = 2.5 / 2.25; tightened: sinh^2 = 0.5625, 2.5 / 0.5625
    eps = math.log(2)
    assert bounds.lower_bound_constant(TWO, eps) == pytest.approx(2.5 / 2.25, rel=1e-14)
    assert bounds.lower_bound_constant_tightened(TWO, eps) == pytest.approx(2.5 / 0.5625, rel=1e-14)


def test_lai_robbins_by_hand():
    # 0.4 / D(0.5 || 0.9) = 0.4 / (0.5 log(5/9) + 0.5 log 5) = 0.8 / log(25/9) = 0.78304...
    assert bounds.lai_robbins_constant(TWO) == pytest.approx(0.8 / math.log(25 / 9), rel=1e-14)
    assert bounds.lai_robbins_constant(TWO) == pytest.approx(0.783046, abs=1e-6)


def test_ctb_lai_robbins_by_hand():
    # eps = log 3: CTB means 1/2 + (2 mu - 1)/4: 0.7 and 0.5; 0.4 / D(0.5 || 0.7) = 0.8 / log(25/21)
    assert bounds.ctb_lai_robbins_constant(TWO, math.log(3)) == pytest.approx(0.8 / math.log(25 / 21), rel=1e-13)
    # no privacy left at large eps: back to Lai-Robbins
    assert bounds.ctb_lai_robbins_constant(TWO, 40.0) == pytest.approx(bounds.lai_robbins_constant(TWO), rel=1e-9)


@pytest.mark.parametrize("eps", [0.01, 0.2, 1.0, 3.0])
def test_ordering_of_the_constants(eps, rng):
    # Basu <= Thm 1 (Pinsker), Thm 1 <= tightened <= CTB achievable (Lemma 12 tightened; CTB is one mechanism)
    for _ in range(20):
        means = rng.uniform(0.05, 0.95, size=int(rng.integers(2, 8)))
        thm1 = bounds.lower_bound_constant(means, eps)
        assert bounds.basu2019_lower_bound_constant(means, eps) <= thm1 * (1 + 1e-12)
        assert thm1 < bounds.lower_bound_constant_tightened(means, eps)
        assert bounds.lower_bound_constant_tightened(means, eps) <= bounds.ctb_lai_robbins_constant(means, eps)


def test_small_epsilon_limit_of_ctb_over_theorem1():
    # as eps -> 0: D(CTB_a || CTB_*) ~ Delta^2 eps^2 / 2, so CTB / Thm 1 -> (2/eps^2) / (1/(4 eps^2)) = 8
    ratio = bounds.ctb_lai_robbins_constant([0.55, 0.5], 1e-3) / bounds.lower_bound_constant([0.55, 0.5], 1e-3)
    assert ratio == pytest.approx(8.0, rel=1e-2)


def test_constants_reject_bad_input():
    with pytest.raises(ValueError, match="suboptimal"):
        bounds.lai_robbins_constant([0.5, 0.5])
    with pytest.raises(ValueError, match="suboptimal"):
        bounds.ctb_lai_robbins_constant([0.5, 0.5], 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        bounds.lower_bound_constant_small_epsilon(TWO, 0.0)
    with pytest.raises(ValueError, match=r"means\[1\]"):
        bounds.ctb_lai_robbins_constant([0.9, 1.5], 1.0)


def test_ctb_lai_robbins_constant_refuses_means_ctb_cannot_separate():
    """At eps = 1e-9 CTB maps means 1e-7 apart to output means 5e-17 apart, which round to one float: the KL was 0
    and the constant inf (true 2.0e25); a one-line refusal instead."""
    with pytest.raises(ValueError, match="epsilon=1e-09 is too small"):
        bounds.ctb_lai_robbins_constant([0.5000001, 0.5], 1e-9)
