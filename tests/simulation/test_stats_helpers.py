"""The small statistics and naming helpers the notebooks share (ldpcode.stats.mean_with_se, se_or_zero;
ldpcode.claims.horizon_tag), each against a hand-computed value and its refusals."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

import ldpcode as ldp


def test_mean_with_se_by_hand():
    m, se = ldp.mean_with_se([1.0, 2.0, 4.0])
    assert m == pytest.approx(7 / 3)
    # sample sd with ddof=1: sqrt(((1-7/3)^2 + (2-7/3)^2 + (4-7/3)^2) / 2) = sqrt(7/3); over sqrt(3)
    assert se == pytest.approx(math.sqrt(7 / 3) / math.sqrt(3))
    x = np.random.default_rng(0).normal(size=50)
    assert ldp.mean_with_se(x) == (float(np.mean(x)), float(np.std(x, ddof=1) / np.sqrt(len(x))))


@pytest.mark.parametrize("bad", [[1.0], [1.0, np.nan], [[1.0, 2.0], [3.0, 4.0]]])
def test_mean_with_se_refuses_what_has_no_standard_error(bad):
    with pytest.raises(ValueError, match="values must be a finite 1-d array of at least 2 runs"):
        ldp.mean_with_se(bad)


def test_se_or_zero_drops_only_round_off():
    assert ldp.se_or_zero(1e-13, 1.0) == 0.0  # below 1e-12 of the value: the runs agree exactly
    assert ldp.se_or_zero(2e-12, 1.0) == 2e-12
    assert ldp.se_or_zero(0.5, -3.0) == 0.5
    assert ldp.se_or_zero(1e-300, 0.0) == 1e-300  # a value of 0: any positive se is kept
    assert type(ldp.se_or_zero(np.float64(0.5), 1.0)) is float


@pytest.mark.parametrize(
    "t,tag", [(10**6, "T1e6"), (10**7, "T1e7"), (3 * 10**6, "T3000000"), (1000, "T1e3"), (999, "T999")]
)
def test_horizon_tag(t, tag):
    assert ldp.claims.horizon_tag(t) == tag


def test_window_spread_refits_each_window_against_hand_computed_slopes():
    import ldpcode as ldp

    x = np.array([1.0, 10.0, 100.0, 1000.0])
    y = np.array([1.0, 10.0, 100.0, 10000.0])  # slope 1 on the first three points, 1.5 on the last three
    full = ldp.linear_fit(np.log(x), np.log(y)).slope
    ws = ldp.window_spread(x, y, ldp.consecutive_windows(4), full)
    assert set(ws.slopes) == {(1.0, 100.0), (10.0, 1000.0), (1.0, 1000.0)}
    assert ws.slopes[(1.0, 100.0)] == pytest.approx(1.0) and ws.slopes[(10.0, 1000.0)] == pytest.approx(1.5)
    assert ws.spread == pytest.approx(max(abs(1.0 - full), abs(1.5 - full)))
    labelled = ldp.window_spread(x, y, {"late": x >= 10, "too short": x >= 100}, 1.5)
    assert labelled.slopes == {"late": pytest.approx(1.5)} and labelled.spread == pytest.approx(0.0)
    assert ldp.window_spread(x, y, [slice(0, 2)], 1.0).spread == 0.0  # nothing to fit: no spread claimed
    assert [(s.start, s.stop) for s in ldp.consecutive_windows(4, 3)] == [(0, 3), (0, 4), (1, 4)]
    with pytest.raises(ValueError, match="one length"):
        ldp.window_spread(x, y[:3], [slice(0, 3)], 1.0)
    with pytest.raises(ValueError, match="min_points"):
        ldp.consecutive_windows(4, 1)


@pytest.mark.parametrize(
    "se,value,error",
    [
        (math.nan, 5.0, ValueError),  # was 0.0: an unknown error read as runs that agree exactly
        (-1.0, 5.0, ValueError),
        (math.inf, 5.0, ValueError),
        (0.1, math.nan, ValueError),
        (0.1, math.inf, ValueError),
        ("0.1", 1.0, TypeError),
        (True, 1.0, TypeError),
        (np.array([0.1, 0.2]), 1.0, ValueError),
    ],
)
def test_se_or_zero_refuses_what_is_no_standard_error(se, value, error):
    with pytest.raises(error, match=r"^(se|value) must be"):
        ldp.se_or_zero(se, value)


def test_window_spread_refuses_what_it_used_to_leave_out():
    """A window of 3 or more points with a y <= 0 (or a nan anywhere) was left out, and the spread taken over the
    windows left; an index, or a mask of the wrong length, was a window of one point, left out too, or an IndexError
    from NumPy. Windows of fewer than 3 points are still left out, and none left claims no spread (as documented)."""
    x = np.array([1.0, 10.0, 100.0, 1000.0])
    y = np.array([1.0, 10.0, 100.0, 10000.0])
    with pytest.raises(ValueError, match=r"^x and y must be > 0 in windows\[0\]"):
        ldp.window_spread(x, np.array([1.0, 0.0, 100.0, 1e4]), [slice(0, 3)], 1.0)
    with pytest.raises(ValueError, match=r"^y must be finite, got nan at index 1"):
        ldp.window_spread(x, np.array([1.0, math.nan, 100.0, 1e4]), [slice(2, 4)], 1.0)
    for bad in ([0, 1, 2, 3], [np.array([True, True, True])], [[0, 1, 2]], [slice(0, 4, 0)], [slice("a", None)]):
        with pytest.raises(ValueError, match=r"^windows\[0\] must be a slice of integers or a boolean mask of 4"):
            ldp.window_spread(x, y, bad, 1.0)
    with pytest.raises(ValueError, match=r"^windows\['late'\] must be"):
        ldp.window_spread(x, y, {"late": [1, 1, 1, 1]}, 1.0)
    for bad in ("abc", None, 5):
        with pytest.raises(TypeError, match=r"^windows must be a list, tuple or dict"):
            ldp.window_spread(x, y, bad, 1.0)
    assert ldp.window_spread(x, y, [], 1.0).spread == 0.0
    masks = ldp.window_spread(x, y, [x >= 10, list(x >= 1)], 1.5)  # masks as arrays or lists of bools
    assert masks.slopes == {
        (10.0, 1000.0): pytest.approx(1.5),
        (1.0, 1000.0): pytest.approx(ldp.linear_fit(np.log(x), np.log(y)).slope),
    }


@pytest.mark.parametrize("values", [[1.0, math.nan, 3.0], [1.0, math.inf, 3.0], [[1.0, 2.0], [-math.inf, 1.0]]])
def test_mean_and_half_width_refuses_non_finite_runs(values):
    """A nan run gave a nan band, an inf one a nan half-width around an inf mean."""
    from ldpcode.stats import mean_and_half_width

    with pytest.raises(ValueError, match=r"^values must be finite, got"):
        mean_and_half_width(values)


def _plain_linear_fit(x, y):
    """The least-squares fit as the formulas of ldpcode.stats.linear_fit's docstring write it, on the raw values."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    dx, dy = x - x.mean(), y - y.mean()
    slope = float(dx @ dy) / float(dx @ dx)
    intercept = float(y.mean() - slope * x.mean())
    resid = y - slope * x - intercept
    return slope, intercept, float(1.0 - (resid @ resid) / float(dy @ dy))


@given(
    # ordinary: no magnitude below 1e-6 but 0 (near 1e-278 the plain squares underflow to 0 and the scaled do not)
    st.lists(st.floats(-1e6, 1e6).map(lambda v: v if abs(v) >= 1e-6 else 0.0), min_size=3, max_size=40).filter(
        lambda v: len(set(v)) > 1
    ),
    st.integers(0, 2**32 - 1),
)
@settings(max_examples=200, deadline=None)
def test_scaled_helpers_are_bit_for_bit_the_plain_formulas_on_ordinary_values(x, seed):
    """The helpers compute on values divided by a power of two (ldpcode.stats._scaled) so that values near 1e308 or
    1e-300 neither overflow nor vanish; on ordinary values that scaling is exact, so every number is the plain one."""
    x = np.array(x)
    y = x * 0.5 + np.random.default_rng(seed).normal(size=x.size) * 3.0
    assert ldp.mean_with_se(x) == (float(np.mean(x)), float(np.std(x, ddof=1) / math.sqrt(x.size)))
    fit = ldp.stats.linear_fit(x, y)
    assert (fit.slope, fit.intercept, fit.r2) == _plain_linear_fit(x, y)
    half = ldp.stats.mean_and_half_width(x)[1]
    assert half == norm.ppf(0.975) * np.std(x, ddof=1) / np.sqrt(x.size)


def test_values_near_the_limits_of_a_double_give_the_hand_computed_numbers():
    # the plain formulas gave an infinite standard error for two equal runs of 1e308, and a slope of 0 on x near 1e200
    assert ldp.mean_with_se([1e308, 1e308]) == (1e308, 0.0)
    assert ldp.stats.mean_se([1e308, -1e308]) == pytest.approx(1e308)  # sd sqrt(2) * 1e308, over sqrt(2)
    fit = ldp.stats.linear_fit([1e200, 2e200, 3e200], [1.0, 2.0, 3.0])
    assert (fit.slope, fit.r2) == (pytest.approx(1e-200), pytest.approx(1.0))
    fit = ldp.stats.linear_fit([1e-300, 2e-300, 3e-300], [1.0, 2.0, 3.0])  # "x must not be constant" before
    assert (fit.slope, fit.r2) == (pytest.approx(1e300), pytest.approx(1.0))
    # means 1.5 and 2 (x 1e300), r = 0.75; var = 0.5/2 + 0.75^2 * 2/2 - 2 * 0.75 * 1/2 = 0.0625; sqrt / 2 = 0.125
    assert ldp.stats.ratio_of_means_se([1e300, 2e300], [1e300, 3e300]) == pytest.approx(0.125)


@pytest.mark.parametrize(
    "call, what",
    [
        (lambda: ldp.stats.mean_and_half_width(np.array([1e308, -1e308])), "the half-width"),
        (lambda: ldp.stats.ratio_of_means_se([1e308, 1e308], [1e-308, 1e-308]), "the ratio"),
        # slope 1.7e308 fits, but the intercept 0 - 1.7e308 * 2 does not
        (lambda: ldp.stats.linear_fit([1.0, 2.0, 3.0], [-1.7e308, 0.0, 1.7e308]), "the intercept"),
    ],
)
def test_a_result_beyond_a_double_is_refused_in_one_line(call, what):
    with pytest.raises(ValueError, match=f"^{what} of these values overflows a double") as info:
        call()
    assert "\n" not in str(info.value)


def test_scaling_back_is_one_exact_step_and_an_underflow_is_refused_not_read_as_exact_runs():
    """The second look at this change: ``se * (sx / sy)`` let the factor sx / sy underflow to 0 where se * sx / sy is
    representable (a standard error of 0.0 reads as runs that agree exactly), and the sd was scaled back before its
    division by sqrt(n), so two runs of ±1.5e308 (se 1.5e308) were refused."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning on the way either
        mean, se = ldp.mean_with_se([1.5e308, -1.5e308])
        assert (mean, se) == (0.0, pytest.approx(1.5e308))
        base = ldp.stats.ratio_of_means_se([1.0] * 3, [2.0**100, -(2.0**100), 3.0])
        tiny = ldp.stats.ratio_of_means_se([2.0**-100] * 3, [2.0**1000, -(2.0**1000), 3 * 2.0**900])
        assert tiny == base * 2.0**-1000 and tiny > 0  # numerator scaled by 2^-100, denominator by 2^900: exact
        with pytest.raises(ValueError, match="^the slope of these values overflows a double"):
            ldp.stats.linear_fit([1e-300, 2e-300, 3e-300], [1e300, 2e300, 3.1e300])  # slope 1e600
