"""Issue 23, part 4: the global baselines' confidence parameters (DP-SE's β, DP-UCB's γ) have the floor of δ:
every positive double is accepted and gives finite epoch lengths and noise bounds (before: β = 5e-324 raised
OverflowError mid-simulation, γ = 5e-324 ZeroDivisionError, and a γ near 1e-300 at T = 2^53 gave B = inf)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ldpcode as ldp
from ldpcode.global_policies.dp_se import dp_se_epoch_length
from ldpcode.global_policies.per_step import dp_ucb_noise_bound

TINY = st.floats(min_value=5e-324, max_value=1.0, exclude_max=True)


@settings(max_examples=200, deadline=None)
@given(gamma=TINY, horizon=st.integers(1, 2**53), arms=st.integers(1, 1000))
def test_the_dp_ucb_noise_bound_is_finite_for_every_gamma(gamma, horizon, arms):
    depth, scale, bound = dp_ucb_noise_bound(horizon, arms, 1e-9, gamma)
    assert math.isfinite(bound) and bound > 0


def test_the_dp_ucb_noise_bound_is_bit_for_bit_where_delta_is_a_normal_double():
    L, b, bound = dp_ucb_noise_bound(10**6, 20, 1.0, 0.1)
    lg = math.log(2.0 / (0.1 / (20 * 10**6)))
    assert bound == b * max(math.sqrt(L), math.sqrt(lg)) * math.sqrt(8.0 * lg)
    # at the floor: log(2KT/γ) from its logarithms, 2·2^53/5e-324 being beyond the doubles
    *_, far = dp_ucb_noise_bound(2**53, 2, 1e-9, 5e-324)
    lg = math.log(4.0 * 2**53) + 744.4400719213812
    assert far == pytest.approx(54 / 1e-9 * max(math.sqrt(54), math.sqrt(lg)) * math.sqrt(8.0 * lg), rel=1e-12)


@settings(max_examples=200, deadline=None)
@given(beta=TINY, active=st.integers(1, 1000), epoch=st.integers(1, 60))
def test_dp_se_epoch_lengths_are_finite_for_every_beta(beta, active, epoch):
    assert dp_se_epoch_length(active, epoch, 1.0, beta) >= 1


@pytest.mark.parametrize(("name", "kw"), [("DP-SE", {"beta": 5e-324}), ("DP-UCB", {"gamma": 5e-324})])
def test_the_global_baselines_run_at_the_floor(name, kw):
    result = ldp.simulate(ldp.make_policy(name, epsilon=1.0, **kw), ldp.make_instance("ren2020-bernoulli"), 2000, 2)
    assert all(math.isfinite(r) for r in result.final_regret())
