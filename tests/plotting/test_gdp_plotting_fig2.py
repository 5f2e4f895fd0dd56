"""mean_sd_panel (Azize and Basu 2022, Figure 2: mean regret with a band of one standard deviation over runs)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

from ldpcode import plotting
from ldpcode.simulate import SimulationResult


def _result():
    # two arms, gaps (0, 1): the regret of a run is the count of arm 1.
    # run 0: regret 0, 1, 1 at t = 1, 2, 4; run 1: 1, 1, 3.
    counts = np.array([[[1, 0], [1, 1], [3, 1]], [[0, 1], [1, 1], [1, 3]]])
    return SimulationResult("AdaP-UCB", 1.0, "toy", 4, 2, 0, np.array([1, 2, 4]), counts, np.array([0.0, 1.0]))


def _band_y(ax):
    verts = ax.collections[0].get_paths()[0].vertices
    return verts[:, 1].min(), verts[:, 1].max()


def test_mean_and_sd_by_hand_linear_axes():
    fig, ax = plt.subplots()
    out = plotting.mean_sd_panel(ax, [_result()], loglog=False)
    t, m, s = out["AdaP-UCB (ε = 1)"]
    np.testing.assert_array_equal(t, [1, 2, 4])
    np.testing.assert_allclose(m, [0.5, 1.0, 2.0])
    np.testing.assert_allclose(s, [np.sqrt(0.5), 0.0, np.sqrt(2.0)])  # ddof = 1
    lo, hi = _band_y(ax)
    assert lo == pytest.approx(0.5 - np.sqrt(0.5))  # linear axes: mean - sd, negative here
    assert hi == pytest.approx(2.0 + np.sqrt(2.0))
    assert ax.get_xscale() == "linear"
    assert ax.lines[0].get_color() == plotting.POLICY_COLORS["AdaP-UCB"]
    assert "mean ± 1 sd" in ax.get_title()
    plt.close(fig)


def test_log_axes_clip_lower_edge_and_n_sd():
    fig, ax = plt.subplots()
    plotting.mean_sd_panel(ax, [_result()], n_sd=2.0)
    lo, hi = _band_y(ax)
    assert lo == pytest.approx(0.05)  # at t = 1: 0.5 - 2 sqrt(0.5) < 0, clipped at 0.5 / 10
    assert hi == pytest.approx(2.0 + 2.0 * np.sqrt(2.0))
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    plt.close(fig)


def test_policy_colors_for_global_dp():
    for name in ("AdaP-UCB", "AdaP-KLUCB", "DP-SE", "DP-UCB", "KL-UCB"):
        assert name in plotting.POLICY_COLORS
    assert len({plotting.POLICY_COLORS[n] for n in ("AdaP-UCB", "AdaP-KLUCB", "DP-SE", "DP-UCB")}) == 4


@pytest.mark.parametrize("bad", [0, -1.0, float("nan")])
def test_bad_n_sd(bad):
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="n_sd"):
        plotting.mean_sd_panel(ax, [_result()], n_sd=bad)
    plt.close(fig)


def test_no_results():
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="results"):
        plotting.mean_sd_panel(ax, [])
    plt.close(fig)
