"""δ near the bottom of double precision: σ = Δ√(2 log(1.25/δ))/ε stays finite (issue 23). 1.25/δ overflows to inf
for δ below about 1e-308; σ was then infinite, and a learner fed infinite noise played arm 0 forever."""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import ldpcode as ldp
from ldpcode.bco.privacy import noisy_range
from ldpcode.mechanisms import GaussianMechanism, LaplaceMechanism


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


# --- δ's documented floor, and every σ, variance and range a finite double (issue 23, fourth part) -------------------

MAX = 1.7976931348623157e308


def test_delta_floor_is_the_smallest_positive_double():
    from ldpcode._validate import DELTA_FLOOR, check_delta

    assert DELTA_FLOOR == math.ulp(0.0) == 5e-324
    assert check_delta(DELTA_FLOOR) == DELTA_FLOOR and check_delta(1 - 2**-53) == 1 - 2**-53
    for bad in (0.0, 1.0, -1e-3, math.nan, math.inf):
        with pytest.raises(ValueError, match=r"^delta must be a probability in \(0, 1\), got "):
            check_delta(bad)


def _pow10(e: float) -> float:
    """10**e, at most MAX: at e = log10(MAX) the power itself overflows (Python raises rather than give inf)."""
    try:
        return min(10.0**e, MAX)
    except OverflowError:
        return MAX


def _log_uniform(lo, hi):
    return st.floats(lo, hi).map(_pow10)


@settings(max_examples=80, deadline=None)
@given(
    eps=_log_uniform(-9.0, math.log10(MAX)).filter(lambda e: e >= 1e-9),
    delta=st.one_of(st.floats(5e-324, 1.0, exclude_max=True), _log_uniform(-323.3, -1.0)).filter(lambda d: 0 < d < 1),
    sensitivity=_log_uniform(-3.0, 300.0),
)
@example(eps=1e-9, delta=5e-324, sensitivity=1.0)
@example(eps=1e-9, delta=1e-5, sensitivity=1e150)  # before: noise_variance raised a bare OverflowError
def test_every_accepted_delta_gives_a_finite_sigma(eps, delta, sensitivity):
    """Each (ε, δ, Δ) is refused in one line naming the sensitivity, or σ, σ² and the range of
    ``noisy_range`` (T up to 2^53) are finite; σ is Δ√(2 log(1.25/δ))/ε to rounding."""
    try:
        m = GaussianMechanism(eps, delta, sensitivity)
    except ValueError as exc:
        msg = str(exc)
        assert "\n" not in msg and "sensitivity must be <=" in msg and f"delta={delta!r}" in msg
        assert sensitivity * math.sqrt(2 * (math.log(1.25) - math.log(delta))) / eps > 1.3e154
        return
    assert math.isfinite(m.sigma) and math.isfinite(m.noise_variance)
    root = math.sqrt(2 * (math.log(1.25) - math.log(delta)))
    assert m.sigma == pytest.approx(sensitivity * root / eps, rel=1e-12) or m.sigma < 1e-300
    if sensitivity <= 2.0:
        assert math.isfinite(noisy_range(1.0, m.sigma, 2**53, delta))
        policy = ldp.make_policy("OnePoint-UCB", epsilon=eps, delta=delta)
        assert math.isfinite(policy.width_constant)


def test_the_refusal_offers_a_sensitivity_that_is_accepted():
    with pytest.raises(ValueError) as err:
        GaussianMechanism(1e-9, 1e-5, sensitivity=1e150)
    offered = float(str(err.value).split("sensitivity must be <= ")[1].split()[0])
    assert math.isfinite(GaussianMechanism(1e-9, 1e-5, sensitivity=offered).noise_variance)


@pytest.mark.parametrize("sensitivity", [1e150, 1e300])
def test_laplace_scale_and_variance_stay_finite(sensitivity):
    """Before: LaplaceMechanism(1e-9, sensitivity=1e300).scale was inf, and at 1e150 noise_variance raised a bare
    OverflowError."""
    with pytest.raises(
        ValueError, match=r"^the Laplace mechanism at epsilon=1e-09, sensitivity=.*must be <= 9.48e\+144"
    ):
        LaplaceMechanism(1e-9, sensitivity=sensitivity)
    assert math.isfinite(LaplaceMechanism(1e-9, sensitivity=9.48e144).noise_variance)


def test_noisy_range_is_finite_or_refused_by_name():
    """Before: horizon 10**400 raised OverflowError (int too large to convert to float), and sigma 1e308 returned inf."""
    assert noisy_range(1.0, 1.0, 10**400, 1e-5) == pytest.approx(
        1 + math.sqrt(2 * (400 * math.log(10) - math.log(1e-5))), rel=1e-12
    )
    with pytest.raises(
        ValueError, match=r"^the noisy range .* sigma=1e\+308, horizon=1000000, delta=1e-05: sigma must"
    ):
        noisy_range(1.0, 1e308, 10**6, 1e-5)
    assert noisy_range(1.0, 2.0, 100, 0.01) == 1 + 2 * math.sqrt(2 * math.log(100 / 0.01))  # bit for bit
