"""ldpcode.experiments.azize_episodes, the helpers of the notebook on Figure 1 and Example 2 of Azize and Basu
(2022): Example 2's run (seed 2068, found from 2022 at the 47th try, its episodes 1-4 at t_l = 3, 4, 6, 7 with
lengths 1, 2, 1, 4, as Example 2 says), small runs of Algorithm 1 checked against per-arm doubling by hand, and
hand-made statistics for the printout, the claims and the figure."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest

import ldpcode as ldp
from ldpcode import audit
from ldpcode.book import Notebook
from ldpcode.experiments import azize_episodes as ae
from ldpcode.simulate import run_streams

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PATTERN = [0, 0, 1, 0]  # Example 2's arms 1, 1, 2, 1 (0-based)


@pytest.fixture(scope="module")
def two():
    return ldp.make_instance("bernoulli", means=[0.75, 0.5])


@pytest.fixture(scope="module")
def ucb():
    return ldp.make_policy("AdaP-UCB", epsilon=1.0, alpha=3.1)


@pytest.fixture(scope="module")
def example(ucb, two):
    return audit.traced_run(ucb, two, 10, *ae.seed_streams(2068))


def _stats():
    """Two policies, two runs of two arms: episodes 1 + ceil(log2 N) per arm."""
    st = dict(
        episodes=np.array([10, 12]),
        releases=np.array([9, 11]),
        doubling=0,
        log2_rule=0,
        counts=np.array([[8, 8], [16, 16]]),
        per_arm=np.array([[5, 5], [6, 6]]),
        release_identity=0,
        simulate_agrees=0,
        example_lengths=[[1, 1, 2, 4], [1, 1, 2]],
    )
    return {"AdaP-UCB": st, "AdaP-KLUCB": dict(st, doubling=1, episodes=np.array([11, 11]))}


def test_seed_streams_are_the_generators_of_seed_sequence_s():
    r, n = ae.seed_streams(7)
    r2, n2 = run_streams(np.random.SeedSequence(7))
    assert r.random(3).tolist() == r2.random(3).tolist() and n.random(3).tolist() == n2.random(3).tolist()
    assert ae.seed_streams(8)[0].random() != ae.seed_streams(7)[0].random()


def test_find_example_seed_is_the_first_seed_playing_example2(ucb, two):
    assert ae.find_example_seed(ucb, two, 10, PATTERN, 2022) == 2068  # the 47th seed tried
    assert ae.find_example_seed(ucb, two, 10, PATTERN, 2068) == 2068
    arms = audit.traced_run(ucb, two, 10, *ae.seed_streams(2068)).blocks.arms[1:5]
    assert [a[0] for a in arms] == PATTERN


def test_find_example_seed_bounded_search_fails_in_one_line(ucb, two):
    msg = r"^no seed in \[2022, 2068\) gives example_pattern=\[0, 0, 1, 0\]; try another$"
    with pytest.raises(ValueError, match=msg):
        ae.find_example_seed(ucb, two, 10, PATTERN, 2022, tries=46)


def test_example_text_and_table_read_example2(example):
    lines = ae.example_text(example, 2068, 2022).splitlines()
    assert lines[0] == "seed 2068 (the 47-th tried); action sequence a^T = 0100010000 (0-based arms)"
    assert lines[1] == "episode starts t_ℓ: [3, 4, 6, 7]; lengths: [1, 2, 1, 4]"  # Example 2's t_l and lengths
    table = ae.example_table(pd.DataFrame(audit.decision_table(example)))
    assert len(table.head) == 12 and len(table.body) == 8  # 4 decisions x 2 arms
    cells = table._cells()
    l4 = [row for row in cells if row[:2] == ["4", "7"]]
    assert l4[0][2:5] == ["1", "[4, 5]", "2"] and l4[0][7] == "0.5"  # window [4, 5], 1/(2 eps)
    assert l4[1][2:5] == ["2", "[6]", "1"] and l4[1][7] == "1"  # window [6], 1/eps
    assert sum(row[-1] == "yes" for row in cells) == 4  # one arm chosen per decision


def test_continued_run_keeps_the_example_episodes(ucb, two, example):
    long = ae.continued_run(ucb, two, 64, 2068, example)
    assert sum(long.blocks.length) == 64 and long.blocks.arms[:5] == example.blocks.arms[:5]
    other = audit.traced_run(ucb, two, 10, *ae.seed_streams(2022))  # seed 2022 does not play Example 2
    with pytest.raises(ValueError, match="^the run continued to horizon=64 does not start with the example's"):
        ae.continued_run(ucb, two, 64, 2068, other)


def test_continued_text_counts_and_last_rows(ucb, two, example):
    long = ae.continued_run(ucb, two, 64, 2068, example)
    rows = pd.DataFrame(audit.decision_table(long))
    lines = ae.continued_text(long, rows).splitlines()
    assert lines[0] == "T = 64: 10 decisions, 11 private means; final counts N = [32, 32]"  # 32 + 32 = 64
    assert lines[1].startswith("mean of ALL the arm's rewards")
    assert lines[2].split() == ["t_l", "arm", "m", "last-episode", "mean", "all-rewards", "mean"]
    assert len(lines) == 3 + 6 and lines[-1].split() == ["49", "2", "8", "0.625", "0.500"]
    assert len(ae.continued_text(long, rows, last=2).splitlines()) == 3 + 2


def test_index_figure_draws_timeline_indexes_and_means(ucb, two, example):
    long = ae.continued_run(ucb, two, 64, 2068, example)
    rows = pd.DataFrame(audit.decision_table(long))
    fig = ae.index_figure(long.blocks, rows, [0.75, 0.5], epsilon=1.0, seed=2068, example_horizon=10)
    ax1, ax2 = fig.axes[:2]
    assert ax1.get_title() == "AdaP-UCB, ε = 1, two arms (μ = [0.75, 0.5]), seed 2068: Example 2 is steps 1-10"
    dashed = [ln.get_ydata()[0] for ln in ax2.get_lines() if ln.get_linestyle() == "--"]
    assert dashed == [0.75, 0.5]
    assert [t.get_text() for t in ax2.get_legend().get_texts()] == [
        "index of arm 1", "private mean of arm 1", "index of arm 2", "private mean of arm 2"
    ]  # fmt: skip
    assert list(ax2.get_lines()[0].get_xdata()) == list(rows[rows.arm == 0].t_l)  # one point per decision
    plt.close(fig)


def test_timelines_figure_titles(ucb):
    inst = ldp.make_instance("bernoulli", means=[0.75, 0.5, 0.25])
    small = ucb.run(inst, 20, *ae.seed_streams(0), trace=True)
    big = ucb.run(inst, 1000, *ae.seed_streams(0))
    fig = ae.timelines_figure(small, big, epsilon=0.5)
    d_small, d_big = len(small.start) - 1, len(big.start) - 1  # decisions; each of the 3 arms' initial pulls adds one
    assert fig.axes[0].get_title() == (
        f"AdaP-UCB, ε = 0.5, Figure 2 instance, T = 20: {d_small + 3} episodes (3 initial pulls, {d_small} decisions)"
    )
    assert (
        fig.axes[1].get_title()
        == f"the same seed at T = $10^{{3}}$: {d_big + 3} episodes (3 initial pulls, {d_big} decisions)"
    )
    assert fig.axes[1].get_xscale() == "log" and fig.axes[0].get_xscale() == "linear"
    plt.close(fig)


def test_paper_scale_stats_follow_per_arm_doubling():
    inst = ldp.make_instance("bernoulli", means=[0.75, 0.5, 0.25])
    stats = ae.paper_scale_stats(["AdaP-UCB", "AdaP-KLUCB"], inst, 1000, 3, 0, epsilon=1.0, alpha=3.1)
    assert list(stats) == ["AdaP-UCB", "AdaP-KLUCB"]
    for st in stats.values():
        assert st["doubling"] == st["log2_rule"] == st["release_identity"] == st["simulate_agrees"] == 0
        assert st["counts"].shape == (3, 3) and (st["counts"].sum(axis=1) == 1000).all()
        by_hand = [[1 + math.ceil(math.log2(n)) for n in run] for run in st["counts"].tolist()]
        assert st["per_arm"].tolist() == by_hand  # 1 + ceil(log2 N_a(T)) episodes per arm
        assert (st["releases"] == st["episodes"] - 1).all() and (st["episodes"] == st["per_arm"].sum(axis=1)).all()
        for ls in st["example_lengths"]:
            assert ls[:-1] == [1] + [2**i for i in range(len(ls) - 2)] and 1 <= ls[-1] <= max(1, 2 ** (len(ls) - 2))


def test_paper_scale_text_by_hand():
    lines = ae.paper_scale_text(_stats(), 2, 1000, 20.0).splitlines()
    assert lines[0] == "T = 1,000, K = 2: episode bound K log2(T/K) + K + 1 = 20.00 (K (log2(T/K) + 2) = 21.93)"
    assert lines[1].startswith(  # sd of [10, 12] is sqrt 2; se of [9, 11] is sqrt 2 / sqrt 2 = 1
        "AdaP-UCB   episodes per run: mean 11.00 (sd 1.41, max 12); private means per run: mean 10.00 (se 1.00);"
    )
    assert lines[1].endswith("arms breaking the doubling rule: 0; arms with episodes ≠ 1 + ceil(log2 N): 0;"
                             " episodes per arm (run 0): [5, 5]")  # fmt: skip
    assert "(sd 0.00, max 11)" in lines[2] and "doubling rule: 1;" in lines[2]
    assert lines[3:] == ["AdaP-UCB, run 0, episode lengths of each arm:", "  arm 1: 1; 1; 2; 4", "  arm 2: 1; 1; 2"]


def test_instance_words():
    assert ae.instance_words([0.75, 0.625, 0.5, 0.375, 0.25]) == "Fig. 2 instance"
    assert ae.instance_words([0.75, 0.5]) == "means [0.75, 0.5]"


def test_paper_scale_claims_four_bounds_per_policy():
    nb = Notebook("chapters/azize2022/figure1_episodes.ipynb", {}, "azize2022.figure1")
    means = [0.75, 0.625, 0.5, 0.375, 0.25]
    ae.paper_scale_claims(nb, _stats(), means, horizon=10**7, runs=2, epsilon=1.0, bound=110.5)
    ids = [c.id.removeprefix("azize2022.figure1.") for c in nb.claims]
    four = ["doubling_violations", "log2_rule_violations", "releases_identity", "max_episodes_per_run"]
    assert ids == [f"adap_ucb.{k}" for k in four] + [f"adap_klucb.{k}" for k in four]
    c = nb.claims[0]
    assert (
        c.source
        == "Algorithm 1 / Table 1, AdaP-UCB, Fig. 2 instance, T = 10^7, eps = 1: arms breaking the doubling rule"
    )
    assert c.note == "counted over 2 runs x 5 arms" and c.bound == 0 and c.sense == "<="
    assert nb.claims[2].note == "" and nb.claims[3].reproduced == 12 and nb.claims[3].bound == 110.5
    assert nb.claims[3].note == "mean 11.00 over 2 runs" and nb.claims[4].reproduced == 1  # KLUCB's doubling count
    nb2 = Notebook("chapters/azize2022/figure1_episodes.ipynb", {}, "azize2022.figure1")
    ae.paper_scale_claims(nb2, _stats(), [0.5, 0.25], horizon=6, runs=2, epsilon=0.5, bound=9.0)
    assert nb2.claims[0].source.startswith("Algorithm 1 / Table 1, AdaP-UCB, means [0.5, 0.25], T = 6, eps = 0.5:")


def test_episodes_figure_points_and_rule():
    fig = ae.episodes_figure(_stats(), epsilon=1.0, horizon=10**3, runs=2)
    ax = fig.axes[0]
    rule, ucb, klucb = ax.get_lines()
    assert rule.get_ydata()[0] == 1 and rule.get_ydata()[-1] == 1 + 10  # 1 + ceil(log2 N) at N = 1 and 1000
    assert ucb.get_ydata().tolist() == [4.8, 4.8, 5.8, 5.8]  # offset -0.2
    assert klucb.get_ydata().tolist() == [5.2, 5.2, 6.2, 6.2]  # offset +0.2
    assert ucb.get_xdata().tolist() == [8, 8, 16, 16]
    assert ax.get_title() == "Figure 2 instance, ε = 1, T = $10^{3}$, 2 runs (points offset vertically by ±0.2)"
    plt.close(fig)
