"""ldpcode.experiments.azize_minimax, the helpers of the notebook on Theorem 2 of Azize and Basu (2022): values by
hand on a made-up grid of regrets (two policies, K = 2, one epsilon, two gaps, two runs, checkpoints 1, 10, 100),
and one small simulation compared with direct calls of ldp.simulate."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.experiments import azize_minimax as am

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _bound(t, k, eps):  # eq. (3) written out: max(sqrt(T(K-1))/27, (K-1)/(131 eps))
    return max(math.sqrt(t * (k - 1)) / 27, (k - 1) / (131 * eps))


def _grid() -> am.MinimaxGrid:
    """regret[policy, 2, 1.0][placement, gap, run, checkpoint]. At T = 100 (last checkpoint), policy A has the mean
    regrets [[2, 6], [12, 0]] (placements x gaps), worst: last, gap 0.1, runs 10 and 14 (sd/sqrt(2) = 2); policy B
    has 4 everywhere. At t = 10, A has 1 everywhere but 3 (runs 2, 4) at (first, gap 0.2); B has 5 everywhere."""
    a = np.zeros((2, 2, 2, 3))
    a[..., 1] = 1.0
    a[0, 1, :, 1] = [2.0, 4.0]
    a[0, 0, :, 2], a[0, 1, :, 2], a[1, 0, :, 2], a[1, 1, :, 2] = [1, 3], [5, 7], [10, 14], [0, 0]
    b = np.full((2, 2, 2, 3), 4.0)
    b[..., 1] = 5.0
    regret = {("A", 2, 1.0): a, ("B", 2, 1.0): b}
    return am.MinimaxGrid(("A", "B"), (2,), (1.0,), np.array([0.1, 0.2]), np.array([1, 10, 100]), 2, regret)


def test_bound_table_by_hand():
    table = am.bound_table(10**6, 100, [1.0, 1e-6])
    assert table.head == ["ε", "bound (3)", "ε-free term"]
    free = math.sqrt(99e6) / 27  # 368.51
    assert [r[0] for r in table.body] == [1.0, 1e-6]
    assert [r[1] for r in table.body] == pytest.approx([free, 99 / (131 * 1e-6)])  # flat at eps = 1, 755725 below
    assert [r[2] for r in table.body] == pytest.approx([free, free])
    assert free == pytest.approx(368.5139, abs=1e-4)


def test_example_words():
    assert am.example_words(10**6, 100) == ("T1e6_K100", "T = 10^6, K = 100")
    assert am.example_words(3 * 10**6, 5) == ("T3000000_K5", "T = 3000000, K = 5")


def test_bound_figure_draws_each_curve_and_the_printed_threshold():
    fig = am.bound_figure([[10**6, 2], [10**4, 10]], [1e-2], [10**6, 100], 0.048)
    ax1, ax2 = fig.axes
    assert len(ax1.lines) == 5  # two curves, their two crossing dots, the printed threshold
    dot = ax1.lines[1]
    x = 27 / 131 * math.sqrt(1 / 10**6)  # the crossing for T = 10^6, K = 2
    assert dot.get_xdata()[0] == pytest.approx(x) and dot.get_ydata()[0] == pytest.approx(1000 / 27)
    assert ax1.lines[4].get_xdata()[0] == 0.048 and "0.048" in ax1.lines[4].get_label()
    curve, free = ax2.lines  # against T at K = 100, eps = 0.01; and the eps-free term
    t, y = curve.get_xdata(), curve.get_ydata()
    assert t[0] == 100 and y[0] == pytest.approx(99 / 1.31)  # private term at T = 100
    assert y[-1] == pytest.approx(math.sqrt(t[-1] * 99) / 27)
    assert free.get_ydata()[-1] == pytest.approx(y[-1])
    assert ax2.get_title() == "Theorem 2 against T, K = 100"
    plt.close(fig)


def test_simulate_grid_is_the_simulation_of_each_instance():
    cps = ldp.log_checkpoints(60, 4)
    grid = am.simulate_grid(["AdaP-UCB"], [3], [1.0], [0.2], cps, base_mean=0.4, alpha=3.1, runs=2, seed=5)
    assert list(grid.regret) == [("AdaP-UCB", 3, 1.0)] and grid.horizon == 60
    out = grid.regret["AdaP-UCB", 3, 1.0]
    assert out.shape == (2, 1, 2, cps.size)
    pol = ldp.make_policy("AdaP-UCB", epsilon=1.0, alpha=3.1)
    best = 0.4 + 0.2  # as the grid computes it (0.6000000000000001)
    for p, means in enumerate(([best, 0.4, 0.4], [0.4, 0.4, best])):
        res = ldp.simulate(pol, ldp.make_instance("bernoulli", means=means), 60, 2, 5, checkpoints=cps)
        np.testing.assert_array_equal(out[p, 0], res.regret)


def test_worst_cases_by_hand():
    grid = _grid()
    summary, table = am.worst_cases(grid)
    a, b = summary["A", 2, 1.0], summary["B", 2, 1.0]
    assert (a["sup"], a["se"], a["place"], a["gap"]) == (12.0, pytest.approx(2.0), "last", 0.1)
    assert (b["sup"], b["se"], b["place"], b["gap"]) == (4.0, 0.0, "first", 0.1)
    assert a["bound"] == pytest.approx(_bound(100, 2, 1.0)) == pytest.approx(10 / 27)
    assert table.body[0][-1] == pytest.approx(12 / (10 / 27)) and len(table.body) == 2


def test_smaller_worst_case_names_every_policy_that_reaches_it():
    summary, _ = am.worst_cases(_grid())
    s, who = am.smaller_worst_case(summary, ["A", "B"], 2, 1.0)
    assert s["sup"] == 4.0 and who == ["B"]
    summary["A", 2, 1.0] = dict(summary["A", 2, 1.0], sup=4.0)
    assert am.smaller_worst_case(summary, ["A", "B"], 2, 1.0)[1] == ["A", "B"]


def test_placement_table_by_hand():
    table = am.placement_table(_grid(), 1.0)
    # A: max over placements [12, 6] -> gap 0.1, first 2, last 12; B: 4 everywhere -> gap 0.1
    assert table.body == [["A", 2, 1.0, 0.1, 2.0, 12.0], ["B", 2, 1.0, 0.1, 4.0, 4.0]]


def test_gap_figure_plots_the_worse_placement_per_gap():
    fig = am.gap_figure(_grid())
    ax_a, ax_b = fig.axes
    mean_a = ax_a.lines[0]
    assert list(mean_a.get_ydata()) == [12.0, 6.0]  # gap 0.1: last (12), gap 0.2: first (6)
    assert ax_a.lines[1].get_ydata()[0] == pytest.approx(10 / 27)  # bound (3) at T = 100
    assert ax_b.get_title() == "B, K = 2: T = $10^{2}$, 2 runs\ndashed: Theorem 2's bound (3) at each ε"  # the key
    plt.close(fig)


def test_horizon_figure_plots_the_sup_from_t_10_on():
    fig = am.horizon_figure(_grid())
    ax_a = fig.axes[0]
    sup, bound = ax_a.lines
    assert list(sup.get_xdata()) == [10, 100] and list(sup.get_ydata()) == [3.0, 12.0]
    assert list(bound.get_ydata()) == pytest.approx([math.sqrt(10) / 27, 10 / 27])
    plt.close(fig)


def test_early_worst_cases_by_hand():
    early = am.early_worst_cases(_grid(), 1.0)
    assert (early.t, early.index) == (10, 1)
    lb = math.sqrt(10) / 27  # bound (3) at t = 10, K = 2, eps = 1
    assert early.values["A", 2] == (3.0, pytest.approx(lb)) and early.values["B", 2] == (5.0, pytest.approx(lb))
    name, sup, bound, se = early.larger[2]
    assert (name, sup, se) == ("B", 5.0, 0.0) and bound == pytest.approx(lb)
    assert early.table.body[0][3:6] == [10, 3.0, 5.0]  # t, worst case, uniform play t(K-1)/K


def test_bad_grid_is_refused():
    for f in (am.worst_cases, am.gap_figure, am.horizon_figure):
        with pytest.raises(TypeError, match="grid must be a MinimaxGrid"):
            f({"A": 1})
    with pytest.raises(TypeError, match="grid must be a MinimaxGrid"):
        am.early_worst_cases("grid", 1.0)
