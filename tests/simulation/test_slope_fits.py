"""The measured exponents of ldpcode.simulate: loglog_slope, log_growth, ratio_exponent (hand-computed values)."""

import math

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.simulate import bootstrap_indices, log_growth, loglog_slope, ratio_exponent


def test_loglog_slope_exact_power_law():
    # every run is C_r t^0.75, so every bootstrap mean is (mean C) t^0.75: slope 0.75 exactly, zero-width interval
    t = np.array([10.0, 100.0, 1000.0, 10000.0])
    reg = np.vstack([2.0 * t**0.75, 3.0 * t**0.75, 7.0 * t**0.75])
    s = loglog_slope(t, reg, n_boot=50)
    assert s.slope == pytest.approx(0.75, abs=1e-12)
    assert s.intercept == pytest.approx(math.log(4.0), abs=1e-12)  # mean constant (2 + 3 + 7)/3 = 4
    assert s.se == pytest.approx(0.0, abs=1e-12)
    assert s.ci_low == pytest.approx(0.75, abs=1e-12) and s.ci_high == pytest.approx(0.75, abs=1e-12)
    assert s.r2 == pytest.approx(1.0) and s.n == 4 and s.n_boot == 50 and s.level == 0.95
    np.testing.assert_allclose(s.y, 4.0 * t**0.75)
    np.testing.assert_array_equal(s.x, t)
    # t_min keeps t >= t_min only: 3 points
    s2 = loglog_slope(t, reg, t_min=100, n_boot=10)
    assert s2.n == 3 and s2.slope == pytest.approx(0.75, abs=1e-12)


def test_loglog_slope_by_hand_with_noise():
    # two runs, means 1, 5.5, 50.5 at T = 10, 100, 1000: slope = OLS of log means on log T
    T = np.array([10.0, 100.0, 1000.0])
    final = np.array([[1.0, 10.0, 100.0], [1.0, 1.0, 1.0]])
    s = loglog_slope(T, final, n_boot=500, seed=3)
    lm = np.log([1.0, 5.5, 50.5])
    assert s.slope == pytest.approx((lm[2] - lm[0]) / (2 * math.log(10)), abs=1e-12)  # 3 equally spaced points
    # replicates are {row0,row0} (slope 1), {row1,row1} (0) or mixed (the full fit): all in [0, 1]
    # (a replicate of run 0 alone is the exact line 10^k, whose least-squares slope is 1 up to rounding)
    assert s.se > 0 and -1e-12 <= s.ci_low <= s.slope <= s.ci_high <= 1 + 1e-12
    # the bootstrap is the documented one: rows resampled by bootstrap_indices, slopes of log means
    idx = bootstrap_indices(2, 500, 3)
    ref = [np.polyfit(np.log(T), np.log(final[i].mean(axis=0)), 1)[0] for i in idx]
    assert s.se == pytest.approx(np.std(ref, ddof=1), rel=1e-9)


def test_log_growth_known():
    # mean regret 6 + 2 log t exactly: slope 2, intercept 6, R^2 = 1, every replicate slope 2
    t = np.array([10.0, 100.0, 1000.0, 10000.0])
    reg = np.vstack([5 + 2.0 * np.log(t), 7 + 2.0 * np.log(t)])
    s = log_growth(t, reg, n_boot=20)
    assert s.slope == pytest.approx(2.0, abs=1e-12) and s.intercept == pytest.approx(6.0, abs=1e-12)
    assert s.r2 == pytest.approx(1.0) and s.se == pytest.approx(0.0, abs=1e-12)
    assert s.ci_low == pytest.approx(2.0) and s.ci_high == pytest.approx(2.0)
    # a power law is not a log growth: sqrt(t) on log t has R^2 < 1
    assert log_growth(t, np.vstack([np.sqrt(t), np.sqrt(t)]), n_boot=5).r2 < 0.95
    # negative regret is allowed here (nothing is logged but t)
    assert log_growth(t, reg - 100, n_boot=5).slope == pytest.approx(2.0)


def test_ratio_exponent_paired_and_unpaired():
    x = np.array([1.0, 2.0, 4.0])
    den = np.array([1.0, 3.0])  # mean 2
    num = np.array([[2.0, 8.0, 32.0], [6.0, 24.0, 96.0]])  # (runs, len(x)); ratios 2, 8, 32: slope 2
    s = ratio_exponent(x, num, den, n_boot=50)
    np.testing.assert_allclose(s.y, [2.0, 8.0, 32.0])
    assert s.slope == pytest.approx(2.0, abs=1e-12)
    assert s.se == pytest.approx(0.0, abs=1e-12)  # paired: every run has the same ratio profile
    u = ratio_exponent(x, num, den, paired=False, n_boot=200)
    assert u.slope == pytest.approx(2.0, abs=1e-12)
    assert u.se == pytest.approx(0.0, abs=1e-12)  # the den factor is common to all x: slope unchanged
    # ratio = 3 x: slope 1
    x4 = np.array([0.5, 1.0, 2.0, 4.0])
    num4 = np.outer(np.ones(3), 2.0 * 3 * x4)
    assert ratio_exponent(x4, num4, np.full(3, 2.0), n_boot=20).slope == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    "call, param",
    [
        (lambda: loglog_slope([10, 100, 1000], -np.ones((2, 3))), "regret_runs"),
        (lambda: loglog_slope([10, 100, 1000], np.ones((2, 2))), "regret_runs"),
        (lambda: loglog_slope([10, 100, 1000], np.ones((1, 3))), "regret_runs"),
        (lambda: loglog_slope([0, 100, 1000], np.ones((2, 3))), "t"),
        (lambda: loglog_slope([10, 100, 1000], np.ones((2, 3)), t_min=200), "t_min"),
        (lambda: loglog_slope([10, 100, 1000], np.ones((2, 3)) * [1, 2, 3], n_boot=1), "n_boot"),
        (lambda: loglog_slope([10, 100, 1000], np.ones((2, 3)) * [1, 2, 3], level=1.5), "level"),
        (lambda: log_growth([10, 100, 1000, 10000], np.ones((2, 4)), t_min=5000), "t_min"),
        (lambda: log_growth([10, 100], np.ones((2, 2))), "t"),
        (lambda: ratio_exponent([1, 2, 4], np.ones((2, 2)), np.ones(2)), "num_runs"),
        (lambda: ratio_exponent([1, 2, 4], np.ones((2, 3)), np.ones(3)), "paired"),
        (lambda: ratio_exponent([1, 2, 4], np.ones((2, 3)), np.ones((2, 1))), "den_runs"),
        (lambda: ratio_exponent([1, 2, 4], -np.ones((2, 3)), np.ones(2)), "ratio"),
        (lambda: ratio_exponent([-1, 2, 4], np.ones((2, 3)), np.ones(2)), "x"),
    ],
)
def test_bad_input_raises(call, param):
    with pytest.raises(ValueError, match=param):
        call()


def test_exported_and_checkpoints():
    assert ldp.loglog_slope is loglog_slope and ldp.SlopeFit is type(
        loglog_slope([1, 2, 4], [[1, 2, 4], [1, 2, 4]], n_boot=2)
    )
    from ldpcode.simulate import resolve_checkpoints

    np.testing.assert_array_equal(resolve_checkpoints(1000, None, 30), ldp.log_checkpoints(1000, 30))
    np.testing.assert_array_equal(resolve_checkpoints(10, [1, 5, 10]), [1, 5, 10])
    with pytest.raises(ValueError, match="checkpoints"):
        resolve_checkpoints(10, [5, 1])
    with pytest.raises(ValueError, match="checkpoints"):
        resolve_checkpoints(10, [1, 20])
