"""ldpcode.bounds.heldp.regret_fit_on_v: Figure 2's least-squares line of the mean regret on V, with the bootstrap
standard errors over runs (values by hand)."""

import math

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.bounds.heldp import regret_fit_on_v


def test_fit_on_the_run_means_by_hand():
    # means over the two runs: 0, 1, 1 at V = 0, 1, 2: slope 1/2, intercept 1/6, R^2 = 1 - (1/6)/(2/3) = 3/4
    got = regret_fit_on_v([0.0, 1.0, 2.0], [[0.0, 0.0, 2.0], [0.0, 2.0, 0.0]])
    assert got.fit.slope == pytest.approx(0.5, rel=1e-15)
    assert got.fit.intercept == pytest.approx(1 / 6, rel=1e-14)
    assert got.fit.r2 == pytest.approx(0.75, rel=1e-14)
    assert got.fit.n == 3


def test_bootstrap_of_two_parallel_runs():
    # runs 2V - 1 and 2V + 1: every replicate's mean is 2V - 1 + 2q, q the share of the second run (0, 1/2, 1 with
    # probabilities 1/4, 1/2, 1/4): the slope and R^2 never move, the intercept has standard deviation sqrt(1/2)
    v = [1.0, 2.0, 3.0]
    got = regret_fit_on_v(v, [[1.0, 3.0, 5.0], [3.0, 5.0, 7.0]], n_boot=4000, seed=1)
    assert (got.fit.slope, got.fit.intercept, got.fit.r2) == pytest.approx((2.0, 0.0, 1.0), abs=1e-12)
    assert got.se["slope"] == pytest.approx(0.0, abs=1e-12)
    assert got.se["r2"] == pytest.approx(0.0, abs=1e-12)
    assert got.se["intercept"] == pytest.approx(math.sqrt(0.5), rel=0.05)


def test_se_is_the_bootstrap_of_each_fitted_number():
    rng = np.random.default_rng(7)
    v = np.array([3.0, 5.0, 9.0, 20.0])
    per_run = 100 * v + 50 + rng.normal(0, 30, size=(12, v.size))
    got = regret_fit_on_v(v, per_run)
    for what in ("slope", "intercept", "r2"):
        stat = lambda m, what=what: getattr(ldp.linear_fit(v, m.mean(axis=0)), what)  # noqa: E731
        assert got.se[what] == ldp.bootstrap_se(stat, per_run)


def test_refuses_a_matrix_that_does_not_match_v():
    with pytest.raises(ValueError, match="one column per value of v"):
        regret_fit_on_v([1.0, 2.0, 3.0], [[1.0, 2.0], [3.0, 4.0]])
