"""ldpcode.experiments.azize_figure3, the helpers of the notebook on Figure 3 of Azize and Basu (2022): values by
hand on the instance of the figure, {0.8, 0.1, 0.1, 0.1, 0.1}, on a two-arm instance and on hand-made runs."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.experiments import azize_figure3 as f3

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MEANS = [0.8, 0.1, 0.1, 0.1, 0.1]  # Figure 3: four suboptimal arms of gap 0.7
D = 0.1 * math.log(0.1 / 0.8) + 0.9 * math.log(0.9 / 0.2)  # d(0.1, 0.8) = 1.145725
LOG_T = math.log(10**7)


def _run(final, pulls_sub=None) -> f3.GridRun:
    final = np.asarray(final, dtype=float)
    pulls = np.zeros(final.shape[1]) if pulls_sub is None else np.asarray(pulls_sub, dtype=float)
    return f3.GridRun(final, final.mean(axis=0), final.std(axis=0, ddof=1), pulls)


def _theory(lower=(1.0, 1.0), nf=None) -> f3.Theory:
    lower = np.asarray(lower, dtype=float)
    nf = lower if nf is None else np.asarray(nf, dtype=float)
    return f3.Theory(lower, 2.0, lower, 0.25, lower, 1.5, 0.7, 1.1, np.ones((lower.size, 2)), nf, nf)


def test_theory_curves_by_hand_on_figure3s_instance():
    inst = ldp.make_instance("bernoulli", means=MEANS)
    th = f3.theory_curves(inst, [0.1, 1.0, 10.0], 10**7, 3.1)
    assert th.gap == pytest.approx(0.7) and th.d_sub == pytest.approx(D, rel=1e-12)
    assert th.lb_threshold == pytest.approx(D / (6 * 0.7), rel=1e-12)  # 0.2728: the bound's switch
    assert th.thm8_corner == pytest.approx(D / 0.7, rel=1e-12)  # 1.637: Theorem 8's corner at C2 = 1
    # eps = 0.1 is below the switch: 4 arms of Delta / (6 eps Delta); eps = 1 and 10 above it: 4 Delta / d
    assert th.lower == pytest.approx(np.array([4 / 0.6, 4 * 0.7 / D, 4 * 0.7 / D]) * LOG_T, rel=1e-12)
    assert th.lai_robbins == pytest.approx(4 * 0.7 / D * LOG_T, rel=1e-12)
    assert th.private_part == pytest.approx(np.array([4 / 0.6, 4 / 6, 4 / 60]) * LOG_T, rel=1e-12)
    # large eps: m* -> alpha log T / d = 43.6, doubled up to 64, N = 2 * 64 = 128 (the notebook's prose)
    assert th.nf_pulls[2, 1:].tolist() == [128.0] * 4
    assert th.nf_stairs == pytest.approx(0.7 * th.nf_pulls[:, 1:].sum(axis=1))
    assert (th.nf_smooth <= th.nf_stairs).all() and (th.nf_stairs <= 2 * th.nf_smooth).all()
    assert th.thm8_shape[0] > th.thm8_shape[1] > th.thm8_shape[2] > 0  # Theorem 8 falls with eps
    with pytest.raises(ValueError, match="eps_grid must be"):
        f3.theory_curves(inst, [], 10**7, 3.1)


def test_run_grid_regret_is_gap_times_pulls():
    inst = ldp.make_instance("bernoulli", means=[0.8, 0.1])
    run = f3.run_grid(inst, [0.5, 5.0], 2000, 3, 7, alpha=3.1)
    assert run.final.shape == (3, 2)
    assert run.mean_regret == pytest.approx(0.7 * run.pulls_sub)  # one suboptimal arm of gap 0.7
    assert run.sd_regret == pytest.approx(run.final.std(axis=0, ddof=1))
    assert run.mean_regret[0] > run.mean_regret[1]  # more privacy, more regret
    again = f3.run_grid(inst, [0.5, 5.0], 2000, 3, 7, alpha=3.1)
    assert np.array_equal(again.final, run.final)  # the seed fixes the runs
    with pytest.raises(ValueError, match="eps_grid must be"):
        f3.run_grid(inst, [0.5, -1.0], 2000, 3, 7, alpha=3.1)


def test_grid_table_rows_and_header():
    run = _run([[7.0, 1.4], [7.0, 2.8]], pulls_sub=[10.0, 3.0])
    table = f3.grid_table([0.5, 5.0], run, _theory([3.0, 2.0]), MEANS)
    assert table.head == ["eps", "mean R(T)", "sd", "N(0.1 arm)", "noise-free N", "Thm 3 bound"]
    assert table.body[1][:4] == pytest.approx([5.0, 2.1, 1.4 / math.sqrt(2), 3.0])  # sd of 1.4 and 2.8
    assert table.body[0][4:] == [1.0, 3.0]
    assert f3.grid_table([0.5, 5.0], run, _theory([3.0, 2.0]), [0.9, 0.25]).head[3] == "N(0.25 arm)"


def test_regime_fits_recover_a_hinge():
    eps = np.geomspace(0.1, 10.0, 9)  # the breakpoint 1 is the grid's middle point
    y = 100 * np.minimum(eps, 1.0) ** -0.5  # slope -1/2 below 1, plateau 100 above
    fits = f3.regime_fits(eps, np.vstack([y, y]), _theory(y, nf=y), n_boot=5, seed=0)
    for fit in (fits.fit, fits.smooth, fits.stairs):
        assert fit.breakpoint == pytest.approx(1.0, rel=1e-2)
        assert fit.slope == pytest.approx(-0.5, rel=1e-2) and fit.plateau == pytest.approx(100, rel=1e-2)
    assert fits.n_same == 9 and fits.boot.breakpoint_se == 0.0  # identical runs: the bootstrap cannot move
    assert fits.interval[0] == fits.interval[1] == fits.fit.breakpoint
    report = f3.fit_report(fits, _theory(y), 2).splitlines()
    assert len(report) == 6 and report[3].startswith("ε at which all 2 runs give the same regret: 9 of 9")
    assert (
        report[5] == "paper: 0.3; lower bound's threshold d/(6Δ) = 0.2500; Theorem 8's corner d/(C₂Δ) at C₂ = 1: 1.5000"
    )
    with pytest.raises(ValueError, match="final must have shape"):
        f3.regime_fits(eps, np.vstack([y, y])[:, :5], _theory(y), n_boot=5, seed=0)


def test_above_switch_by_hand():
    eps = [0.1, 0.2, 0.4, 1.0]
    up = f3.above_switch(eps, [[4, 3, 1, 1], [4, 3, 3, 1]], 0.3)
    # at eps = 0.4: mean 2, variance 2 over 2 runs; at eps = 1: mean 1, variance 0; se = sqrt(2 / 2) / 1
    assert (up.index, up.ratio, up.se, up.same_stair) == (2, 2.0, pytest.approx(1.0), False)
    same = f3.above_switch(eps, [[4, 2, 2, 1], [4, 2, 2, 1]], 0.3)
    assert (same.ratio, same.se, same.same_stair) == (2.0, 0.0, True)  # eps = 0.2 is on the same stair
    with pytest.raises(ValueError, match="two eps above 0.5"):
        f3.above_switch(eps, [[4, 3, 1, 1], [4, 3, 3, 1]], 0.5)


def test_episode_lengths_and_switch_report_by_hand():
    m_shift, m_free = f3.episode_lengths(2.0, 100, 0.5, 0.4, 0.5)
    assert m_shift == pytest.approx(2 * math.log(100) / 0.2) and m_free == pytest.approx(2 * math.log(100) / 0.5)
    # Figure 3 at the paper's 0.3: 3.1 ln 10^7 / (0.3 x 0.7) = 238, 3.1 ln 10^7 / d = 43.6
    lengths = f3.episode_lengths(3.1, 10**7, 0.3, 0.7, D)
    assert round(lengths[0]) == 238 and round(lengths[1], 1) == 43.6
    up = f3.AboveSwitch(index=1, ratio=7.25, se=0.5, same_stair=False)
    report = f3.switch_report([0.2, 0.36, 10.0], up, _theory([1.0, 1.0, 1.0]), lengths, 0.3)
    assert report.splitlines() == [
        "smallest grid ε above 0.3: 0.3600; R(ε)/R(ε_max) = 7.250 (SE 0.500)",
        "eq. (8) at ε = 0.3: the privacy shift α log T/(ε m) ≥ Δ = 0.7 until m = 238; without "
        "privacy the arm stops at m = α log T/d = 43.6, 5.5 times earlier",
    ]
    with pytest.raises(ValueError, match="must be > 0"):
        f3.episode_lengths(3.1, 10**7, 0.0, 0.7, D)


def test_regret_over_bound_by_hand():
    run, th = _run([[2.0, 6.0], [4.0, 6.0]]), _theory([1.5, 3.0])
    ratio, se = f3.regret_over_bound(run, th, 0)  # mean 3, sd sqrt(2), 2 runs: se of the mean 1, over 1.5
    assert ratio == pytest.approx(2.0) and se == pytest.approx(1 / 1.5)
    assert f3.regret_over_bound(run, th, -1) == (2.0, 0.0)  # all runs agree: se 0
    with pytest.raises(ValueError, match="i must index the 2 eps"):
        f3.regret_over_bound(run, th, 2)


def test_figure3_draws_both_panels():
    eps = np.geomspace(0.1, 10.0, 9)
    y = 100 * np.minimum(eps, 1.0) ** -0.5
    final = np.vstack([y, y * 1.01])
    th = _theory(y, nf=y)
    fits = f3.regime_fits(eps, final, th, n_boot=5, seed=0)
    fig = f3.figure3(eps, _run(final), fits, th, horizon=10**7, runs=2)
    left, right = fig.axes
    assert left.get_title().startswith("Figure 3: AdaP-KLUCB\nT = ") and left.get_title().endswith(", 2 runs")
    assert left.get_xscale() == right.get_yscale() == "log"
    labels = [t.get_text() for t in left.get_legend().get_texts()]
    assert "paper: ε = 0.3" in labels and "Thm 3 threshold 0.250" in labels
    assert len(right.get_legend().get_texts()) == 6
    plt.close(fig)


def test_the_reading_of_eq8_is_checked_and_named():
    """Both readings of eq. (8) on Figure 3's instance at a short horizon: without the shift the regret does not
    depend on eps at all (the index never reads eps), with it the regret at small eps is larger. A misspelt
    reading is refused before any run."""
    inst = ldp.make_instance("bernoulli", means=MEANS)
    eps = [0.05, 0.2, 0.4, 10.0]
    run = f3.run_grid(inst, eps, 10**5, 4, 7, alpha=3.1)
    check = f3.reading_check(inst, eps, run, 10**5, 4, 7, alpha=3.1, switch=0.3)
    assert list(check.eps) == [0.05, 0.4, 10.0]
    assert np.array_equal(check.shifted, run.mean_regret[[0, 2, 3]])
    assert check.shifted[0] > 2 * check.shifted[2]  # the shift makes small eps costly
    assert check.printed.mean_regret[0] < check.shifted[0] / 10  # ... and the reading as printed has no shift
    assert check.low == pytest.approx(check.printed.mean_regret[0] / check.printed.mean_regret[2])
    assert check.up.index == 1 and check.low_se > 0
    assert check.shifted_low[0] == pytest.approx(run.mean_regret[0] / run.mean_regret[3])
    assert check.shifted_up.ratio == pytest.approx(run.mean_regret[2] / run.mean_regret[3])
    table = repr(f3.reading_table(check))
    assert "the mean as printed" in table and "R(0.4) / R(10)" in table
    assert table.count(" ± ") == 4  # both readings' ratios with their standard errors
    with pytest.raises(ValueError, match="reading must be one of 'shifted', 'as printed', got 'literal'"):
        f3.run_grid(inst, eps, 10**5, 4, 7, alpha=3.1, reading="literal")
