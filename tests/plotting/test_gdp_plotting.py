"""ldpcode.plotting.episode_timeline (Figure 1 of Azize and Basu 2022: the episodes of one run)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import ldpcode as ldp  # noqa: E402
from ldpcode.global_policies import Blocks  # noqa: E402
from ldpcode.simulate import run_streams  # noqa: E402


def example2_blocks():
    return Blocks(2, [0, 2, 3, 5, 6], [(0, 1), (0,), (0,), (1,), (0,)], [2, 1, 2, 1, 4])


def test_bars_of_example2_by_hand():
    fig, ax = plt.subplots()
    bars = ldp.plotting.episode_timeline(ax, example2_blocks())
    # step t is [t, t + 1): arm 1 at step 1, then [3], [4, 5], [7..10]; arm 2 at step 2, then [6]
    assert bars == {0: [(1, 1), (3, 1), (4, 2), (7, 4)], 1: [(2, 1), (6, 1)]}
    # the bars as drawn: arm 1 on the top row (y = 1)
    rows = {round(c.get_paths()[0].vertices[:, 1].mean()): c for c in ax.collections}
    assert set(rows) == {0, 1}
    xs = sorted({round(v, 6) for p in rows[1].get_paths() for v in p.vertices[:, 0]})
    assert xs == [1, 2, 3, 4, 6, 7, 11]
    # one dotted vertical per episode start t_1..t_4 = 3, 4, 6, 7
    assert sorted(l.get_xdata()[0] for l in ax.lines) == [3, 4, 6, 7]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["arm 2", "arm 1"]
    assert "4 episodes" in ax.get_title() and ax.get_xlim() == (1, 11)
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == ["1", "1", "1", "1", "2", "4"]
    top = next(a for a in ax.child_axes)
    assert [t.get_text() for t in top.get_xticklabels()] == ["$t_{1}$", "$t_{2}$", "$t_{3}$", "$t_{4}$"]
    plt.close(fig)


def test_close_episode_starts_are_labelled_in_two_staggered_rows():
    """The visual review: at T = 100 one row of labels skipped t_2 and t_4 of Example 2 (t_4 = 7, which its text
    explains); the second row, one line higher, holds them."""
    fig, ax = plt.subplots()
    ldp.plotting.episode_timeline(ax, Blocks(2, [0, 2, 3, 5, 6], [(0, 1), (0,), (0,), (1,), (0,)], [2, 1, 2, 1, 94]))
    top = next(a for a in ax.child_axes)
    assert [t.get_text() for t in top.get_xticklabels()] == ["$t_{1}$", "$t_{2}$\n", "$t_{3}$", "$t_{4}$\n"]
    plt.close(fig)


def test_long_run_on_log_axis():
    inst = ldp.make_instance("bernoulli", means=[0.75, 0.625, 0.5, 0.375, 0.25])
    b = ldp.make_policy("AdaP-UCB", epsilon=1.0).run(inst, 10**6, *run_streams(np.random.SeedSequence(0)))
    fig, ax = plt.subplots()
    bars = ldp.plotting.episode_timeline(ax, b, log=True, mark_starts=False)
    assert ax.get_xscale() == "log" and not ax.lines
    assert sum(w for v in bars.values() for _, w in v) == 10**6
    assert sum(len(v) for v in bars.values()) == len(b.start) - 1 + 5
    plt.close(fig)


def test_multi_arm_blocks_are_hatched_spans():
    b = Blocks(2, [0, 6], [(0, 1), (1,)], [6, 2])  # a DP-SE-like epoch of 3 pulls per arm
    fig, ax = plt.subplots()
    bars = ldp.plotting.episode_timeline(ax, b)
    assert bars == {0: [], 1: [(7, 2)]}
    assert sum(c.get_hatch() == "//" for c in ax.collections) == 2
    plt.close(fig)


def test_rejects_bad_input():
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="blocks"):
        ldp.plotting.episode_timeline(ax, [(0, 1)])
    with pytest.raises(ValueError, match="arm_labels"):
        ldp.plotting.episode_timeline(ax, example2_blocks(), arm_labels=["a"])
    with pytest.raises(ValueError, match="colors"):
        ldp.plotting.episode_timeline(ax, example2_blocks(), colors=["r", "g", "b"])
    plt.close(fig)


def test_log_ratio_panel_by_hand():
    fig, ax = plt.subplots()
    x = np.array([0, 1, 2, 3])
    est = np.array([0.5, 1.4, -np.inf, np.nan])
    lo = np.array([0.2, 1.1, -np.inf, -np.inf])
    hi = np.array([0.8, 1.9, -1.2, np.inf])
    n = ldp.plotting.log_ratio_panel(ax, x, est, lo, hi, epsilon=1.0, exact=[0.5, 1.0, -1.0, 0.0])
    assert n == 2  # [1.1, 1.9] above eps, [-inf, -1.2] below -eps
    assert ax.get_ylim() == (-2.5, 2.5)
    segs = ax.collections[0].get_segments()
    assert [tuple(s[:, 1]) for s in segs] == [(0.2, 0.8), (1.1, 1.9), (-2.5, -1.2), (-2.5, 2.5)]
    pts = ax.lines[0]
    assert list(pts.get_xdata()) == [0, 1] and list(pts.get_ydata()) == [0.5, 1.4]
    assert sorted(l.get_ydata()[0] for l in ax.lines[2:]) == [-1.0, 1.0]
    with pytest.raises(ValueError, match="one shape"):
        ldp.plotting.log_ratio_panel(ax, x, est[:2], lo, hi, epsilon=1.0)
    with pytest.raises(ValueError, match="epsilon"):
        ldp.plotting.log_ratio_panel(ax, x, est, lo, hi, epsilon=0)
    plt.close(fig)
