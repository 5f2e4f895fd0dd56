"""ldpcode.experiments.heldp_figure1, the helpers of the notebook on Figure 1 of Ren et al. (2020b): a small run of
every curve checked against direct simulations with the same seed, and hand-made regret curves (one arm of gap 1,
so the regret is the count) for the tables, the ratios against the paper's numbers, the thresholds and the claims."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.claims import statements
from ldpcode.experiments import heldp_figure1 as f1
from ldpcode.simulate import SimulationResult

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

B, L, D, G = "HeLDP-UCB-B", "HeLDP-UCB-L", "ren-heldp-discrete", "ren-heldp-gaussian"


def curve(rows, checkpoints, policy="x") -> SimulationResult:
    """A result whose regret is ``rows`` (runs, checkpoints): one arm of gap 1, pulled ``rows`` times."""
    rows = np.asarray(rows, dtype=float)
    cps = np.asarray(checkpoints)
    return SimulationResult(policy, None, "hand", int(cps[-1]), rows.shape[0], 0, cps, rows[:, :, None], np.ones(1))


# ---------------------------------------------------------------- runs


def test_ratio_checkpoints_hold_both_grids_and_the_fine_one():
    cp = f1.ratio_checkpoints(10, 10**4, fine=3)  # the fine grid of 3 points up to 10^4 is 1, 100, 10^4
    assert set(range(1, 11)) <= set(cp.tolist())  # every pull up to 10 (121 log points in [1, 10])
    assert 100 in cp and cp[-1] == 10**4
    assert (np.diff(cp) > 0).all()


def test_grid_step_percent_is_the_fine_grids_step():
    assert f1.grid_step_percent(100, fine=2) == pytest.approx(9900.0)  # two points: 1 and 100
    assert f1.grid_step_percent(10**7) == pytest.approx(100 * (10 ** (7 / 480) - 1))
    assert f"{f1.grid_step_percent(10**7):.2g}" == "3.4"  # the claims' "checkpoints every 3.4 % in t"
    cp = f1.ratio_checkpoints(10**6, 10**7)
    cp = cp[cp >= f1.T_MIN]
    assert (cp[1:] / cp[:-1] - 1).max() * 100 < f1.grid_step_percent(10**7) + 0.1  # + integer rounding at 10^3


@pytest.fixture(scope="module")
def small():
    return f1.run_curves(horizon=40, ratio_horizon=80, runs=2, seed=7, epsilons=[1.0], eps_compare=[2.0, 0.2],
                         grids={D: [0.2, 1.0]})  # fmt: skip


def test_run_curves_keys_in_order(small):
    long, res = small
    mixed_keys = [f1.UCB_KEY, (f1.MIXED, L, "constant", 2.0), (f1.MIXED, B, "constant", 2.0),
                  (f1.MIXED, L, "constant", 0.2), (f1.MIXED, B, "constant", 0.2)]  # fmt: skip
    bern = [(f1.BERNOULLI, L, "constant", 1.0), (f1.BERNOULLI, B, "constant", 1.0), (f1.BERNOULLI, L, D, 0.2),
            (f1.BERNOULLI, L, D, 1.0), (f1.BERNOULLI, B, D, 0.2), (f1.BERNOULLI, B, D, 1.0)]  # fmt: skip
    assert list(long) == mixed_keys
    assert list(res) == mixed_keys + bern
    assert {r.horizon for r in long.values()} == {80} and {r.horizon for r in res.values()} == {40}
    assert all(r.runs == 2 and r.seed == 7 for r in res.values())


def test_run_curves_are_the_direct_simulations(small):
    long, res = small
    bern, mixed = ldp.make_instance(f1.BERNOULLI), ldp.make_instance(f1.MIXED)
    cp = f1.ratio_checkpoints(40, 80)
    ucb = ldp.simulate(ldp.make_policy("UCB1"), mixed, 80, 2, 7, checkpoints=cp)
    assert np.array_equal(long[f1.UCB_KEY].regret, ucb.regret)
    lv = ldp.make_privacy_levels("constant", epsilon=0.2)
    b02 = ldp.simulate(ldp.make_policy(B, epsilon_min=0.2), mixed, 80, 2, 7, privacy_levels=lv, checkpoints=cp)
    assert np.array_equal(long[(f1.MIXED, B, "constant", 0.2)].regret, b02.regret)
    cut = res[(f1.MIXED, B, "constant", 0.2)]  # the long run cut at 40
    assert np.array_equal(cut.regret, b02.regret[:, cp <= 40])
    lv = ldp.make_privacy_levels(D)
    l1 = ldp.simulate(ldp.make_policy(L, epsilon_min=1.0), bern, 40, 2, 7, privacy_levels=lv)
    assert np.array_equal(res[(f1.BERNOULLI, L, D, 1.0)].regret, l1.regret)
    lv = ldp.make_privacy_levels("constant", epsilon=1.0)
    b1 = ldp.simulate(ldp.make_policy(B, epsilon_min=1.0), bern, 40, 2, 7, privacy_levels=lv)
    assert np.array_equal(res[(f1.BERNOULLI, B, "constant", 1.0)].regret, b1.regret)


# ---------------------------------------------------------------- tables


def test_kept_share_table():
    levels = {D: ldp.make_privacy_levels(D), G: ldp.make_privacy_levels(G)}
    body = f1.kept_share_table(levels, {D: [0.2, 1.0], G: [2.0]}).body
    assert [row[:2] for row in body] == [[D, 0.2], [D, 1.0], [G, 2.0]]
    # uniform on {0, 0.2, 1, 2, 100}: 4/5 and 3/5 kept; N(1, 1): P{ε_t >= 2} = Φ(-1)
    assert [row[2] for row in body] == pytest.approx([0.8, 0.6, 0.5 * math.erfc(1 / math.sqrt(2))])


def test_final_regret_table_mean_and_se():
    res = {f1.UCB_KEY: curve([[0, 1], [0, 3]], [1, 5]), (f1.BERNOULLI, L, D, 0.2): curve([[2], [2]], [5])}
    body = f1.final_regret_table(res).body
    assert body[0][:4] == [f1.MIXED, "UCB1", "-", None]
    assert body[0][4] == pytest.approx((2.0, 1.0))  # sd of (1, 3) is sqrt 2, over sqrt 2 runs
    assert body[1][:4] == [f1.BERNOULLI, L, D, 0.2] and body[1][4] == pytest.approx((2.0, 0.0))


# ---------------------------------------------------------------- figures

T3 = [1000, 10**4, 2 * 10**4]


def hand_long(ratios: dict):
    """UCB1 regret 10 at T3, each agent's the ratio times that (one number per t or one for all)."""
    long = {f1.UCB_KEY: curve([[10.0] * 3] * 2, T3, "UCB1")}
    for (e, p), r in ratios.items():
        long[(f1.MIXED, p, "constant", e)] = curve([list(np.broadcast_to(np.multiply(r, 10.0), 3))] * 2, T3, p)
    return long


def test_panels_ab_and_efgh_draw_one_curve_per_level():
    res = {(f1.BERNOULLI, p, "constant", e): curve([[1, 5], [1, 7]], [20, 40], p) for p in (L, B) for e in (0.5, 1.0)}
    fig = f1.panels_ab(res, [0.5, 1.0])
    assert [len(ax.lines) for ax in fig.axes] == [2, 2]
    assert fig.axes[1].get_title().startswith("(b) HeLDP-UCB-B, Bernoulli arms,\nseveral ε (our choice)")
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == [
        r"$\epsilon_t \equiv \epsilon$ = 0.5",
        r"$\epsilon_t \equiv \epsilon$ = 1",
    ]
    plt.close(fig)
    res = {(f1.BERNOULLI, p, G, e): curve([[1, 5], [1, 7]], [20, 40], p) for p in (L, B) for e in (1.0, 2.0)}
    fig = f1.panels_efgh(res, G, [1.0, 2.0])
    assert [ax.get_title().split(" ")[0] for ax in fig.axes] == ["(g)", "(h)"]
    assert fig.axes[0].get_ylim()[0] == 1.0
    plt.close(fig)


def test_panels_cd_draw_ucb_and_both_agents():
    res = {f1.UCB_KEY: curve([[1, 2], [1, 2]], [20, 40], "UCB1")}
    res |= {(f1.MIXED, p, "constant", e): curve([[1, 5], [1, 7]], [20, 40], p) for p in (L, B) for e in (2.0, 0.2)}
    fig = f1.panels_cd(res, [2.0, 0.2])
    labels = [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
    assert labels == ["UCB1 (non-private)", "HeLDP-UCB-L, ε = 0.2", "HeLDP-UCB-B, ε = 0.2"]
    plt.close(fig)


def test_panel_i_draws_the_ratio_its_theory_and_the_paper():
    long = hand_long({(2.0, B): 2.0, (2.0, L): 3.0, (0.2, B): 4.0, (0.2, L): 5.0})
    fig = f1.panel_i(long, [2.0, 0.2], horizon=10**4)
    ax = fig.axes[0]
    assert list(ax.lines[0].get_ydata()) == [2.0, 2.0, 2.0]  # B / UCB1 at ε = 2
    assert ax.lines[1].get_ydata()[0] == pytest.approx(((math.e**2 + 1) / (math.e**2 - 1)) ** 2)  # theory, dashed
    assert ax.lines[2].get_ydata()[0] == 1.6  # the paper, dotted
    assert list(ax.lines[-1].get_xdata()) == [10**4, 10**4]  # the grey line at the horizon
    assert "ε = 2,\nT = " + ldp.claims.format_horizon(2 * 10**4, mathtext=True) + ", 2 runs" in ax.get_title()
    assert ax.get_title().startswith("(i1) ratios of panel (c)")  # the two parts of panel (i)
    assert fig.axes[1].get_title().startswith("(i2) ratios of panel (d)")
    plt.close(fig)


# ---------------------------------------------------------------- ratios against the paper


def test_ratio_table_reads_the_ratio_at_powers_of_ten():
    long = hand_long({(2.0, B): 2.0, (2.0, L): 3.0, (0.2, B): 4.0, (0.2, L): 5.0})
    table = f1.ratio_table(long, [2.0, 0.2])
    assert table.head == ["ratio", "t = 10⁴", "theory", "paper"]  # 10^3 is not read, 2·10^4 is no power of ten
    b2, l2, b02, l02 = table.body
    assert b2[0] == "HeLDP-UCB-B / UCB1, ε = 2" and b2[1] == pytest.approx(2.0) and b2[3] == 1.6
    assert b2[2] == pytest.approx(((math.e**2 + 1) / (math.e**2 - 1)) ** 2)  # 1.72
    assert l2[2] == pytest.approx(9.0) and l02[2] == pytest.approx(441.0)  # (1 + 4/ε)^2
    assert b02[2] == pytest.approx(((math.exp(0.2) + 1) / (math.exp(0.2) - 1)) ** 2) and l02[3] == 210.0


@pytest.fixture()
def reach_long():
    # B at ε = 2 on 1.6 everywhere; L at ε = 2 on 8.6 only at 2·10^4; 74 only at 10^4; 210 never (300)
    return hand_long({(2.0, B): 1.6, (2.0, L): [1.0, 1.0, 8.6], (0.2, B): [1.0, 74.0, 1.0], (0.2, L): 300.0})


def test_paper_reach_counts_the_numbers_reached_at_each_t(reach_long):
    reach = f1.paper_reach(reach_long, [2.0, 0.2])
    assert list(reach.t) == T3
    assert list(reach.n_inside) == [1, 2, 2]
    assert list(reach.both_c) == [False, False, True]
    assert reach.most == 2 and reach.at_most() == "10⁴, 2·10⁴"
    assert reach.summary() == "at most 2 of the four numbers at one t, at t = 10⁴, 2·10⁴"
    body = reach.table().body
    assert body[0] == ["HeLDP-UCB-B / UCB1, ε = 2", 1.6, "10³ – 2·10⁴", 3]
    assert body[3] == ["HeLDP-UCB-L / UCB1, ε = 0.2", 210.0, "none", 0]
    assert body[4] == ["all four at one t", "", "none", 0]
    assert body[5] == ["both of panel (c) (1.6 and 8.6)", "", "2·10⁴", 1]


def test_paper_reach_none_reached():
    reach = f1.paper_reach(hand_long({k: 1000.0 for k in f1.PAPER_RATIO}), [0.2, 2.0])
    assert reach.most == 0 and reach.summary() == "at most 0 of the four numbers at one t"


def test_paper_reach_needs_the_papers_levels(reach_long):
    with pytest.raises(ValueError, match=r"^eps_compare must hold the paper's levels 0.2 and 2.0, got \[2.0, 0.5\]$"):
        f1.paper_reach(reach_long, [2.0, 0.5])


def test_ratio_reason(reach_long):
    reach = f1.paper_reach(reach_long, [2.0, 0.2])
    why = f1.ratio_reason(reach_long, reach, 2.0, L, 10**4, 2 * 10**4)
    assert why.startswith("the ratio still grows with t (1 at T = 10⁴, 8.6 at 2·10⁴); the paper's 8.6 fits t ≈ ")
    assert ", and panel (c)'s other number fits t ≈ " in why and not why.endswith("no one horizon gives both")
    why = f1.ratio_reason(reach_long, reach, 0.2, L, 10**4, 2 * 10**4)
    assert (
        why == "the ratio still grows with t (300 at T = 10⁴, 300 at 2·10⁴); the paper's 210 fits no t in [10³, 2·10⁴]"
    )
    apart = hand_long({(2.0, B): [1.6, 5.0, 5.0], (2.0, L): [1.0, 1.0, 8.6], (0.2, B): 74.0, (0.2, L): 210.0})
    why = f1.ratio_reason(apart, f1.paper_reach(apart, [2.0, 0.2]), 2.0, B, 10**4, 2 * 10**4)
    assert why.endswith("; no one horizon gives both")


def test_format_horizon_in_ascii_as_the_stored_claim_texts_write_it():
    from ldpcode.claims import format_horizon

    assert [format_horizon(t, caret=True) for t in (10**3, 10**7, 2000, 6)] == ["10^3", "10^7", "2,000", "6"]
    assert format_horizon(10**7, mathtext=True) == "$10^{7}$" and format_horizon(10**7) == "10⁷"


def test_paper_numbers_are_the_statements():
    # each panel's two numbers, in the order its sentence prints them: (c) "B ... is 1.6, ... L is 8.6", (d) "210 and 74"
    for e, tag, order in ((2.0, "c", (B, L)), (0.2, "d", (L, B))):
        printed = statements.get(f"ren2020heldp.fig1{tag}.ratios").printed
        assert statements.numbers_in(printed) == [f1.PAPER_RATIO[(e, p)] for p in order]
    assert {law: w[:2] for law, w in f1.WORST_IN_PAPER.items()} == {D: (0.2, "too small"), G: (2.0, "too large")}
    for w, words, key, _ in f1.WORST_IN_PAPER.values():
        assert statements.get(key).key == key and words.replace("too ", "") in key


# ---------------------------------------------------------------- thresholds of (e)-(h)


@pytest.fixture()
def thresholds():
    # HeLDP-UCB-L final regrets per run at 0.2, 1.0, 2.0: means 12, 5.5, 8; HeLDP-UCB-B: 3, 9, 1
    finals = {L: ([10, 14], [4, 7], [7, 9]), B: ([3, 3], [8, 10], [1, 1])}
    return {(f1.BERNOULLI, p, D, em): curve([[0, x] for x in v[i]], [1, 50]) for p, v in finals.items()
            for i, em in enumerate([0.2, 1.0, 2.0])}  # fmt: skip


def test_threshold_table_and_best(thresholds):
    table = f1.threshold_table(thresholds, D, [0.2, 1.0, 2.0])
    assert table.head[0] == f"panel ({D})" and table.head[1] == "R(T), ε_min = 0.2"
    assert table.body[0] == ["(e) HeLDP-UCB-L", 12.0, 5.5, 8.0, 1.0, 0.2]
    assert table.body[1] == ["(f) HeLDP-UCB-B", 3.0, 9.0, 1.0, 2.0, 1.0]
    assert f1.best_threshold(thresholds, D, L, [0.2, 1.0, 2.0]) == 1.0
    assert f1.best_threshold(thresholds, D, B, [0.2, 1.0, 2.0]) == 2.0


def test_threshold_margins(thresholds):
    (gap, gap_se), (margin, margin_se) = f1.threshold_margins(thresholds, D, L, [0.2, 1.0, 2.0], 0.2, 1.0)
    assert gap == pytest.approx(12 - 8) and margin == pytest.approx(8 - 5.5)
    assert gap_se > 0 and margin_se > 0
    (gap, gap_se), (margin, margin_se) = f1.threshold_margins(thresholds, D, B, [0.2, 1.0, 2.0], 0.2, 2.0)
    assert gap == pytest.approx(3 - 9) and margin == pytest.approx(3 - 1)
    assert margin_se == 0.0  # B's runs agree at 0.2 and 2.0, the two means of the margin: every replicate is 2
    with pytest.raises(ValueError, match=r"^worst and best must be thresholds of grid \[0.2, 1.0, 2.0\], got 0.5"):
        f1.threshold_margins(thresholds, D, L, [0.2, 1.0, 2.0], 0.5, 1.0)


# ---------------------------------------------------------------- claims


def test_curve_claim_names_and_panels():
    assert f1.curve_claim((f1.BERNOULLI, L, "constant", 0.5), 10**6) == (
        "regret.bernoulli.HeLDP-UCB-L.eps0.5.T1e6",
        "Fig. 1(a): HeLDP-UCB-L, ε_t ≡ 0.5, bernoulli arms: mean pseudo-regret at T",
    )
    assert f1.curve_claim((f1.MIXED, B, "constant", 0.2), 10**6)[0] == "regret.mixed.HeLDP-UCB-B.eps0.2.T1e6"
    assert f1.curve_claim((f1.MIXED, B, "constant", 2.0), 10**6)[1].startswith("Fig. 1(c): ")
    assert f1.curve_claim((f1.BERNOULLI, B, G, 1.5), 10**6) == (
        "regret.bernoulli.HeLDP-UCB-B.gaussian.eps_min1.5.T1e6",
        "Fig. 1(h): HeLDP-UCB-B, gaussian levels, ε_min = 1.5, bernoulli arms: mean pseudo-regret at T",
    )
    assert f1.curve_claim((f1.BERNOULLI, L, D, 0.2), 1000)[1].startswith("Fig. 1(e): HeLDP-UCB-L, discrete levels")
    with pytest.raises(ValueError, match="^.* is UCB1 on the mixed arms, stored by chapters/ren2020/figure1"):
        f1.curve_claim(f1.UCB_KEY, 10**6)


def test_panel_letters():
    assert f1.PANEL == {(D, L): "e", (D, B): "f", (G, L): "g", (G, B): "h"}


def test_worst_since_is_the_first_checkpoint_of_the_last_run_of_leads():
    """The review: Section 4.2's orderings were read at T only; the rows now say from which checkpoint on the
    paper's threshold has the largest regret at every checkpoint."""
    cps = [10, 100, 1000, 10000]
    means = {0.2: [5, 1, 9, 12], 1.0: [1, 2, 3, 4], 2.0: [2, 3, 10, 11]}  # 0.2 leads at 10, loses at 100 and 1000
    res = {(f1.BERNOULLI, L, D, em): curve([m, m], cps) for em, m in means.items()}
    assert f1.worst_since(res, D, L, [0.2, 1.0, 2.0], 0.2) == 10000
    assert f1.worst_since(res, D, L, [0.2, 1.0, 2.0], 1.0) is None  # not the largest at T
    res[(f1.BERNOULLI, L, D, 0.2)] = curve([[9, 9, 19, 19]] * 2, cps)
    assert f1.worst_since(res, D, L, [0.2, 1.0, 2.0], 0.2) == 10  # the largest throughout
    # a tie is the largest for no threshold, whichever comes first in the grid (argmax took the first)
    res[(f1.BERNOULLI, L, D, 0.2)] = curve([[9, 9, 11, 19]] * 2, cps)  # ties 2.0 at 1000 (11 = 11)
    res[(f1.BERNOULLI, L, D, 2.0)] = curve([[2, 3, 11, 11]] * 2, cps)
    assert f1.worst_since(res, D, L, [0.2, 1.0, 2.0], 0.2) == 10000
    assert f1.worst_since(res, D, L, [2.0, 1.0, 0.2], 0.2) == 10000
    with pytest.raises(ValueError, match="worst must be a threshold of grid"):
        f1.worst_since(res, D, L, [0.2, 1.0, 2.0], 0.5)
    with pytest.raises(ValueError, match=r"^grid must list each threshold once, got \[0.2, 0.2, 1.0\]$"):
        f1.worst_since(res, D, L, [0.2, 0.2, 1.0], 0.2)  # the copy tied with itself: always None
