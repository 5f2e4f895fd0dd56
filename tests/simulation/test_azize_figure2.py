"""ldpcode.experiments.azize_figure2, the helpers of the notebook on Figure 2 of Azize and Basu (2022): values by
hand on hand-made runs and on a short simulation of the figure's instance {0.75, 0.625, 0.5, 0.375, 0.25}."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.experiments import azize_figure2 as f2

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MEANS = [0.75, 0.625, 0.5, 0.375, 0.25]
T = 2000
Z95 = 1.959963984540054  # the normal quantile of a 95 % interval


@pytest.fixture(scope="module")
def inst():
    return ldp.make_instance("bernoulli", means=MEANS)


@pytest.fixture(scope="module")
def run(inst):
    return f2.run_figure2(inst, T, 3, 7, epsilon=1.0, alpha=3.1, gamma=0.1, beta=None, linear_points=4)


def test_decade_checkpoints_are_the_powers_of_ten_up_to_the_horizon():
    """ldpcode.engine.decade_checkpoints, shared with azize_upper_bounds (one function for both notebooks)."""
    from ldpcode.engine import decade_checkpoints

    assert decade_checkpoints(10**7).tolist() == [10, 100, 1000, 10**4, 10**5, 10**6, 10**7]
    assert decade_checkpoints(999).tolist() == [10, 100]
    assert decade_checkpoints(9).tolist() == []
    with pytest.raises(ValueError, match="horizon must be an integer >= 1"):
        decade_checkpoints(0)
    for bad in (2.5, True):  # a wrong type is a TypeError, as everywhere in ldpcode
        with pytest.raises(TypeError, match="horizon must be an integer"):
            decade_checkpoints(bad)


def test_checkpoints_join_the_log_grid_the_decades_and_the_linear_times():
    cp = f2.figure2_checkpoints(100, 4)
    assert cp.dtype.kind == "i" and (np.diff(cp) > 0).all() and cp[-1] == 100
    assert {10, 25, 50, 75, 100} <= set(cp.tolist())  # decades and 100 k / 4
    assert set(ldp.log_checkpoints(100).tolist()) <= set(cp.tolist())
    assert len(f2.figure2_checkpoints(100, 100)) > len(cp)  # every t in 1..100 is now a checkpoint
    assert f2.figure2_checkpoints(100, 100).tolist() == list(range(1, 101))
    with pytest.raises(ValueError, match="linear_points must be an integer >= 1"):
        f2.figure2_checkpoints(100, 0)


def test_run_figure2_simulates_the_four_algorithms_with_one_seed(run, inst):
    assert tuple(run.results) == f2.POLICIES == ("DP-UCB", "DP-SE", "AdaP-UCB", "AdaP-KLUCB")
    assert run.checkpoints.tolist() == f2.figure2_checkpoints(T, 4).tolist()
    for p in f2.POLICIES:
        res = run.results[p]
        assert res.runs == 3 and res.checkpoints.tolist() == run.checkpoints.tolist()
        assert run.final[p].dtype == float and run.final[p].tolist() == res.final_regret().tolist()
    alone = ldp.simulate(ldp.make_policy("DP-SE", epsilon=1.0, beta=None), inst, T, 3, 7, checkpoints=run.checkpoints)
    assert np.array_equal(alone.regret, run.results["DP-SE"].regret)  # the same draws as a run of its own
    # L = floor(log2 2000) + 1 = 11 levels of Lap(11 / epsilon) noise
    assert run.noise[:2] == (11, 11.0) and run.noise == ldp.global_policies.dp_ucb_noise_bound(T, 5, 1.0, 0.1)
    lines = run.describe().split("\n")
    assert len(lines) == 4 and lines[0].startswith("Policy('DP-UCB', epsilon=1, gamma=0.1)")
    assert all(line.endswith(f"{len(run.checkpoints)} checkpoints, 3 runs") for line in lines)


def test_pulls_table_rows_are_the_means_gaps_and_mean_pulls(run, inst):
    tab = f2.pulls_table(inst, run.results)
    assert tab.head == ["", "arm 0", "arm 1", "arm 2", "arm 3", "arm 4"]
    assert tab.body[0] == ["arm mean", "0.75", "0.625", "0.5", "0.375", "0.25"]
    assert tab.body[1] == ["gap", "0", "0.125", "0.25", "0.375", "0.5"]
    for row, p in zip(tab.body[2:], f2.POLICIES):
        assert row[0] == p and sum(row[1:]) == pytest.approx(T)  # the mean pulls add up to T
        assert row[1:] == run.results[p].pulls.mean(axis=0).tolist()


def test_baselines_text_states_the_constants_of_the_baselines(run, inst):
    text = f2.baselines_text(run, inst, horizon=T, epsilon=1.0, beta=None)
    one, two, three = text.split("\n")
    B = run.noise[2]
    assert one.startswith(f"DP-UCB: depth L = 11, node noise Lap(11), noise bound B = {B:.4g}, (K-1) B = {4 * B:.4g}")
    # R_1 with |S| = 5, Delta_1 = 1/2, beta = 1/T: ceil(max(32 log(8 * 5 T) / (1/4), 8 log(4 * 5 T) / (1/2)))
    r1 = math.ceil(max(128 * math.log(40 * T), 16 * math.log(20 * T)))
    assert r1 == 1446 and two.startswith(f"DP-SE epoch lengths R_e per active arm with |S| = 5: e = 1: {r1:,}; e = 2: ")
    assert two.count("e = ") == 5
    pulls = "; ".join(f"{n:,}" for n in sorted(run.results["DP-SE"].pulls[:, 1].tolist()))
    assert three == f"DP-SE pulls of the arm of gap 0.125 in each run (sorted): {pulls}"
    three_arms = ldp.make_instance("bernoulli", means=[0.9, 0.5, 0.1])
    assert "|S| = 3" in f2.baselines_text(run, three_arms, horizon=T, epsilon=1.0, beta=0.01)
    assert "gap 0.4 " in f2.baselines_text(run, three_arms, horizon=T, epsilon=1.0, beta=0.01)


def test_ratio_table_reads_the_ratios_at_the_decades_from_1e4_and_at_T(run):
    tab = f2.ratio_table(run.results, T)
    assert tab.head == ["ratio of mean regrets", "t = 2,000"]  # no power of ten in [10^4, T)
    assert [r[0] for r in tab.body] == [
        "DP-UCB / AdaP-UCB",
        "DP-UCB / AdaP-KLUCB",
        "DP-SE / AdaP-UCB",
        "DP-SE / AdaP-KLUCB",
    ]
    fin = run.final
    assert tab.body[2][1] == pytest.approx(fin["DP-SE"].mean() / fin["AdaP-UCB"].mean(), rel=1e-12)


class _Res:
    """A stand-in SimulationResult: the mean regret at t is ``scale * t`` for every run."""

    def __init__(self, scale):
        self.scale = scale

    def at(self, t):
        return np.full(2, self.scale * t, dtype=float)


def test_ratio_table_columns_at_a_power_of_ten_horizon():
    res = {"DP-UCB": _Res(6.0), "DP-SE": _Res(12.0), "AdaP-UCB": _Res(2.0), "AdaP-KLUCB": _Res(3.0)}
    tab = f2.ratio_table(res, 10**6)
    assert tab.head == ["ratio of mean regrets", "t = 10⁴", "t = 10⁵", "t = 10⁶"]
    assert [r[1:] for r in tab.body] == [[3.0] * 3, [2.0] * 3, [6.0] * 3, [4.0] * 3]


def _final():
    return {
        "DP-UCB": np.array([2.0, 4.0]),  # mean 3, s^2 = 2
        "DP-SE": np.array([5.0, 7.0]),  # mean 6, s^2 = 2
        "AdaP-UCB": np.array([1.0, 1.0]),  # mean 1, s = 0
        "AdaP-KLUCB": np.array([0.5, 1.5]),  # mean 1, s^2 = 1/2
    }


def test_mean_difference_by_hand():
    final = {"a": np.array([1.0, 2.0, 3.0]), "b": np.array([1.0, 1.0, 4.0])}
    d, se = f2.mean_difference(final, "a", "b")
    assert d == pytest.approx(0.0) and se == pytest.approx(math.sqrt(1 / 3 + 1))  # s_a^2 = 1, s_b^2 = 3, n = 3
    d, se = f2.mean_difference(_final(), "DP-UCB", "AdaP-UCB")
    assert (d, se) == (2.0, pytest.approx(1.0))
    with pytest.raises(ValueError, match="'DP-XX' has no runs in final"):
        f2.mean_difference(_final(), "DP-XX", "AdaP-UCB")


def test_final_ratios_by_hand():
    r = f2.final_ratios(_final())
    assert list(r) == [
        ("DP-UCB", "AdaP-UCB"),
        ("DP-UCB", "AdaP-KLUCB"),
        ("DP-SE", "AdaP-UCB"),
        ("DP-SE", "AdaP-KLUCB"),
    ]
    # Var(R) = (s_X^2 / n + R^2 s_Y^2 / n) / Ybar^2 for unpaired runs
    assert r[("DP-UCB", "AdaP-UCB")] == (3.0, pytest.approx(1.0))
    assert r[("DP-UCB", "AdaP-KLUCB")] == (3.0, pytest.approx(math.sqrt(1 + 9 / 4)))
    assert r[("DP-SE", "AdaP-KLUCB")] == (6.0, pytest.approx(math.sqrt(1 + 36 / 4)))


def test_regret_note_and_table_by_hand():
    x = np.array([1.0, 2.0, 3.0])  # mean 2, sd 1, se 1/sqrt(3)
    assert f2.regret_note(x) == f"3 runs; sd 1, 95% CI +- {Z95 / math.sqrt(3):.3g}" == "3 runs; sd 1, 95% CI +- 1.13"
    with pytest.raises(ValueError, match="at least 2 runs"):
        f2.regret_note([5.0])
    tab = f2.regret_table(_final())
    assert tab.head == ["algorithm", "mean R(T)", "sd", "se", "95% CI ±"]
    p, m, sd, se, half = tab.body[0]
    assert p == "DP-UCB" and m == 3.0 and sd == pytest.approx(math.sqrt(2)) and se == pytest.approx(1.0)
    assert half == pytest.approx(Z95)
    assert tab.body[2][1:] == [1.0, 0.0, 0.0, 0.0]


def test_figure2_draws_two_panels_and_the_theorem7_bound(run):
    fig = f2.figure2(run.results, means=MEANS, horizon=T, epsilon=1.0, alpha=3.1, n_sd=1.0)
    left, right = fig.axes
    assert [ln.get_label() for ln in left.get_lines()] == list(f2.POLICIES)
    assert left.get_xscale() == "linear" and right.get_xscale() == "log"
    assert "linear axes" in left.get_title() and "log-log axes" in right.get_title()
    bound = right.get_lines()[-1]
    assert bound.get_label() == "Theorem 7 bound (AdaP-UCB)"
    t = bound.get_xdata()
    assert t.min() >= 10 and t.max() == T
    assert bound.get_ydata()[-1] == pytest.approx(ldp.bounds.adap_ucb_regret_bound(MEANS, T, 1.0, 3.1))
    assert min(right.get_lines()[0].get_xdata()) >= 10  # the log panel starts at t = 10
    plt.close(fig)
