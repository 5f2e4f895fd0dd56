"""ldpcode.experiments.zheng_best_arm, the helpers of the notebook on Appendix B of Zheng et al. (2020): values by
hand. On the losses (0, 1) every loss draw is certain, so the non-private algorithm stops at the first round t
with 2 ln(8 t^2 / 0.05) < t (gap 1 > twice the radius sqrt(ln(160 t^2) / (2 t))), t = 23: 46 samples and
arm 0 in every run, whatever the seed."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

from ldpcode.experiments import zheng_best_arm as zba
from ldpcode.reductions.best_arm import BAIResult

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LOSSES = [0.0, 1.0]
CONF = 0.05
SIGMA_1 = 2 * math.sqrt(2 * math.log(1.25e6)) / 1.0  # Algorithm 1 at eps = 1, delta = 1e-6 (B = 1)


def _fake(samples, arms, s2=0.25, sigma=0.0, epsilon=math.inf):
    samples = np.array(samples, dtype=np.int64)
    return BAIResult(
        loss_means=np.array(LOSSES),
        best_arm=0,
        conf_delta=CONF,
        sigma=sigma,
        variance_proxy=s2,
        epsilon=epsilon,
        runs=samples.size,
        seed=0,
        max_samples=10**9,
        arms=np.array(arms, dtype=np.int64),
        samples=samples,
        counts=np.zeros((samples.size, 2), dtype=np.int64),
    )


@pytest.fixture(scope="module")
def levels():
    return zba.run_levels(LOSSES, CONF, 5, 3, [1.0, 2.0], 1e4, 1e-6)


def test_level_label():
    assert zba.level_label(None) == "non-private" == zba.NON_PRIVATE
    assert zba.level_label(2.0) == "ε = 2"
    assert zba.level_label(10000.0) == "ε = 10000"
    assert zba.level_label(0.5) == "ε = 0.5"
    assert zba.shown_label("ε = 10000") == "ε = 10,000" and zba.shown_label("ε = 0.5") == "ε = 0.5"
    assert zba.shown_label("non-private") == "non-private"
    with pytest.raises(TypeError, match="epsilon must be a number"):
        zba.level_label("2")


def test_run_levels_by_hand(levels):
    assert list(levels) == ["non-private", "ε = 1", "ε = 2", "ε = 10000"]
    base = levels["non-private"]
    assert base.samples.tolist() == [46] * 5 and base.arms.tolist() == [0] * 5
    assert base.sigma == 0.0 and base.variance_proxy == 0.25
    one = levels["ε = 1"]
    assert one.sigma == pytest.approx(SIGMA_1, rel=1e-12)
    assert one.variance_proxy == pytest.approx(0.25 + SIGMA_1**2, rel=1e-12)
    assert (one.samples > 46).all()  # the noise (sigma 10.6) makes elimination slower
    # sigma ~ 1e-3 moves neither the means nor the radius enough to change the stopping round
    assert levels["ε = 10000"].samples.tolist() == [46] * 5
    with pytest.raises(ValueError, match="distinct"):
        zba.run_levels(LOSSES, CONF, 5, 3, [1.0, 2.0], 2.0, 1e-6)


def test_run_broken_radius_keeps_the_nonprivate_radius():
    broken = zba.run_broken_radius(LOSSES, CONF, 5, 3, 1.0, 1e-6)
    assert broken.variance_proxy == 0.25
    assert broken.sigma == pytest.approx(SIGMA_1, rel=1e-12) and broken.epsilon == 1.0
    # a radius 21 times too narrow on noise of sd 10.6: it eliminates after a few rounds
    assert broken.samples.max() < 46


def test_predictions_solve_the_root(levels):
    pred = zba.predictions(LOSSES, CONF, levels)
    assert list(pred) == list(levels)
    t = pred["non-private"] / 2  # one suboptimal arm: t_a + max t_a = 2 t_a, t_a = 8/4 ln(8 t^2 / 0.05)
    assert t == pytest.approx(2 * math.log(160 * t * t), rel=1e-9)
    assert 22 < t < 23  # the runs stop at round 23, the first integer past the root
    s2 = 0.25 + SIGMA_1**2
    t1 = pred["ε = 1"] / 2
    assert t1 == pytest.approx(8 * s2 * math.log(160 * t1 * t1), rel=1e-9)
    with pytest.raises(TypeError, match="results must be a dict"):
        zba.predictions(LOSSES, CONF, [levels["non-private"]])


def test_levels_table_rows_by_hand(levels):
    pred = zba.predictions(LOSSES, CONF, levels)
    table = zba.levels_table(levels, pred, 0.05)
    row = table.body[0]
    assert row[:7] == ["non-private", 0.0, 0.25, 1.0, 0.0, pytest.approx(0.05**0.2, rel=1e-9), 0]
    assert row[7] == (46.0, 0.0) and row[8] == pred["non-private"]
    assert row[9] == pytest.approx(46 / pred["non-private"], rel=1e-12)
    assert [r[0] for r in table.body] == ["non-private", "ε = 1", "ε = 2", "ε = 10,000"] and len(table.head) == 10
    with pytest.raises(ValueError, match="no level 'ε = 1'"):
        zba.levels_table(levels, {"non-private": 1.0}, 0.05)


def test_broken_summary_by_hand():
    broken = _fake([10, 12], [0, 1], sigma=5.29876, epsilon=2.0)  # mean 11, se 1, P(best) 1/2, se 1/(2 sqrt 2)
    assert zba.broken_summary(broken) == (
        "broken: private releases at ε = 2 (σ 5.299) with the radius of s² = 1/4: P(best) = 0.500 ± 0.354, "
        "mean samples 11 ± 1"
    )
    with pytest.raises(TypeError, match="broken must be a BAIResult"):
        zba.broken_summary({"samples": [1, 2]})


def test_neighbour_ratios_and_table_by_hand():
    res = {"ε = 1": _fake([2, 4], [0, 0], s2=1.0), "ε = 2": _fake([2, 2], [0, 0], s2=0.5)}
    pred = {"ε = 1": 30.0, "ε = 2": 20.0}
    (p,) = zba.neighbour_ratios(res, pred, [1.0, 2.0])
    # means 3 and 2: ratio 1.5; var = (s_x^2/n - 2R s_xy/n + R^2 s_y^2/n)/ybar^2 = (2/2)/4, se 0.5
    assert p == dict(a="ε = 1", b="ε = 2", ratio=1.5, se=pytest.approx(0.5, rel=1e-12), leading=2.0, full=1.5)
    table = zba.ratios_table([p])
    assert table.body == [["ε = 1 / ε = 2", (1.5, p["se"]), 2.0, 1.5, 0.0]]
    assert "1.50 ± 0.50" in repr(table)  # the Table rounds a value to its standard error's digits
    with pytest.raises(ValueError, match="no level 'ε = 4'"):
        zba.neighbour_ratios(res, pred, [1.0, 2.0, 4.0])


def test_limit_comparison_by_hand():
    res = {"non-private": _fake([10, 20, 30, 40], [0, 0, 0, 0]), "ε = 100": _fake([10, 20, 30, 60], [0, 0, 1, 0])}
    pred = {"non-private": 40.0, "ε = 100": 41.0}
    lim = zba.limit_comparison(res, pred, 100.0)
    assert lim["ratio"] == pytest.approx(120 / 100, rel=1e-12) and lim["predicted"] == pytest.approx(41 / 40)
    assert lim["same"] == 0.5  # run 2 changed arm, run 3 changed samples
    assert lim["same_se"] == pytest.approx(math.sqrt(0.25 / 4), rel=1e-12)
    # y = 10 (1..4), x = y except x_4 = 60: s_y^2 = 500/3, s_x^2 = 1400/3, s_xy = 800/3, R = 1.2, ybar = 25,
    # var = (1400/12 - 2.4 * 800/12 + 1.44 * 500/12) / 625 = (50/3) / 625
    var = (1400 / 3 / 4 - 2 * 1.2 * 800 / 3 / 4 + 1.44 * 500 / 3 / 4) / 25**2
    assert var == pytest.approx(50 / 3 / 625, rel=1e-12)
    assert lim["se"] == pytest.approx(math.sqrt(var), rel=1e-12)
    assert lim["sigma"] == 0.0
    with pytest.raises(ValueError, match="no level 'ε = 1000'"):
        zba.limit_comparison(res, pred, 1000.0)


def test_prediction_curve_spans_the_levels(levels):
    grid, curve = zba.prediction_curve(LOSSES, CONF, levels, points=5)
    s2_max = 0.25 + SIGMA_1**2
    assert grid[0] == pytest.approx(0.25) and grid[-1] == pytest.approx(1.2 * s2_max, rel=1e-12)
    assert np.allclose(np.diff(np.log(grid)), math.log(1.2 * s2_max / 0.25) / 4)
    pred = zba.predictions(LOSSES, CONF, levels)
    assert curve[0] == pytest.approx(pred["non-private"], rel=1e-12)
    assert (np.diff(curve) > 0).all()


def test_samples_figure(levels):
    broken = zba.run_broken_radius(LOSSES, CONF, 5, 3, 2.0, 1e-6)
    grid, curve = zba.prediction_curve(LOSSES, CONF, levels, points=7)
    fig = zba.samples_figure(levels, broken, grid, curve, delta=1e-6, cp_alpha=0.05)
    ax, bx = fig.axes
    labels = [t.get_text() for t in bx.get_xticklabels()]
    assert labels == ["non-private", "ε = 10000", "ε = 2", "ε = 1", "broken (ε = 2)"]  # by s^2, then broken
    heights = [p.get_height() for p in bx.patches]
    assert heights[:4] == [1.0] * 4 and heights[4] == broken.success_rate
    assert ax.get_title() == r"successive elimination, K = 2, $\delta_c$ = 0.05, δ = 10⁻⁶, 5 runs"
    (tau,) = [line for line in ax.lines if line.get_label().startswith(r"$\tau^{pred}")]
    assert np.array_equal(tau.get_xdata(), grid) and np.array_equal(tau.get_ydata(), curve)
    assert "Clopper-Pearson lower bound (95%)" in [t.get_text() for t in bx.get_legend().get_texts()]
    plt.close(fig)
