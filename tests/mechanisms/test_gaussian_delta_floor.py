"""δ near the bottom of double precision: σ = Δ√(2 log(1.25/δ))/ε stays finite (issue 23). 1.25/δ overflows to inf
for δ below about 1e-308; σ was then infinite, and a learner fed infinite noise played arm 0 forever."""

import math

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.bco.privacy import noisy_range
from ldpcode.mechanisms import GaussianMechanism


@pytest.mark.parametrize("delta", [5e-324, 1e-315, 1e-308])
def test_sigma_is_finite_for_every_positive_delta(delta):
    m = GaussianMechanism(1.0, delta)
    # by hand: log(1.25/δ) = log 1.25 − log δ; at δ = 5e-324 (the smallest double), log δ = −744.44
    assert m.sigma == pytest.approx(math.sqrt(2 * (math.log(1.25) - math.log(delta))), rel=1e-12)
    assert math.isfinite(noisy_range(1.0, m.sigma, 10**6, delta))


@pytest.mark.parametrize("delta", [0.5, 1e-5, 1e-12, 1e-300])
def test_ordinary_deltas_keep_sigma_bit_for_bit(delta):
    """The stored numbers of the book were drawn with σ = Δ·sqrt(2·log(1.25/δ))/ε as written: unchanged."""
    assert GaussianMechanism(2.0, delta, sensitivity=3.0).sigma == 3.0 * math.sqrt(2.0 * math.log(1.25 / delta)) / 2.0


def test_a_learner_at_the_smallest_delta_does_not_favour_arm_0():
    """With finite (huge) noise the learner is near-random whichever arm is best, not stuck on arm 0."""
    p = ldp.make_policy("OnePoint-UCB", epsilon=1, delta=5e-324)
    first = ldp.simulate(p, ldp.make_instance("bernoulli", means=[0.9, 0.5]), 4000, 4, 1).final_regret()
    second = ldp.simulate(p, ldp.make_instance("bernoulli", means=[0.5, 0.9]), 4000, 4, 1).final_regret()
    assert np.all(first > 100) and np.all(second > 100)  # both explore: neither is 0.4 nor 1600
    assert abs(first.mean() - second.mean()) < 0.25 * second.mean()
