"""ldpcode.experiments.ren_figure1, the helpers of the notebook on Figure 1 of Ren et al. (2020a): values by hand on
made-up results (one arm of gap 1, so the regret is the pull count written in), and one small simulation compared
with direct calls of ldp.simulate."""

from __future__ import annotations

import math
import types
import warnings

import matplotlib
import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.experiments import ren_figure1 as rf
from ldpcode.simulate import SimulationResult

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CP = np.array([1, 10, 10**4, 10**5])


def _result(policy, eps, regret, checkpoints=CP, instance="ren2020-x"):
    """A result whose regret is ``regret`` (runs x checkpoints): one arm of gap 1 pulled that often."""
    regret = np.asarray(regret, dtype=float)
    runs = regret.shape[0]
    return SimulationResult(
        policy, eps, instance, int(checkpoints[-1]), runs, 0, np.asarray(checkpoints), regret[:, :, None], np.ones(1)
    )


def _long(b_factor=2.0, l_factor=8.0, eps=2.0, instance="ren2020-x"):
    """UCB1 with regrets (runs 1 and 3 at every t: mean 2), LDP-UCB-B and LDP-UCB-L at ``eps`` with exactly
    ``b_factor`` and ``l_factor`` times them (so the ratio's standard error is 0)."""
    ucb = np.array([[1.0, 1.0, 1.0, 1.0], [3.0, 3.0, 3.0, 3.0]])
    return {
        (instance, "UCB1", None): _result("UCB1", None, ucb, instance=instance),
        (instance, "LDP-UCB-B", eps): _result("LDP-UCB-B", eps, b_factor * ucb, instance=instance),
        (instance, "LDP-UCB-L", eps): _result("LDP-UCB-L", eps, l_factor * ucb, instance=instance),
    }


def test_simulate_curves_matches_direct_simulations_and_skips_done_keys():
    inst = ldp.make_instance("ren2020-bernoulli")
    cps = np.array([1, 10, 50, 100, 200])
    agents = [("UCB1", None), ("LDP-UCB-B", 1.0), ("UCB1", None)]
    out = rf.simulate_curves(inst, agents, 100, 2, 7, cps)
    assert list(out) == [(inst.name, "UCB1", None), (inst.name, "LDP-UCB-B", 1.0)]
    direct = ldp.simulate(ldp.make_policy("LDP-UCB-B", epsilon=1.0), inst, 100, 2, 7, checkpoints=[1, 10, 50, 100])
    got = out[(inst.name, "LDP-UCB-B", 1.0)]
    assert got.checkpoints.tolist() == [1, 10, 50, 100]  # those up to the horizon
    assert np.array_equal(got.regret, direct.regret)
    again = rf.simulate_curves(inst, agents + [("LDP-UCB-L", 1.0)], 100, 2, 7, cps, done=out)
    assert list(again) == [(inst.name, "LDP-UCB-L", 1.0)]


def test_regret_table_sorts_and_gives_mean_and_standard_error():
    res = {
        ("b", "UCB1", None): _result("UCB1", None, [[0, 0, 0, 2.0], [0, 0, 0, 4.0]]),
        ("a", "LDP-UCB-B", 0.5): _result("LDP-UCB-B", 0.5, [[0, 0, 0, 10.0], [0, 0, 0, 10.0]]),
        ("a", "LDP-UCB-B", 2.0): _result("LDP-UCB-B", 2.0, [[0, 0, 0, 1.0], [0, 0, 0, 3.0]]),
    }
    t = rf.regret_table(res)
    assert t.head == ["instance", "curve", "R(T)"]
    assert [r[:2] for r in t.body] == [["a", "LDP-UCB-B (ε = 2)"], ["a", "LDP-UCB-B (ε = 0.5)"], ["b", "UCB1"]]
    # mean 2, sd sqrt(2), se sqrt(2)/sqrt(2) = 1; mean 3, se 1; mean 10, se 0
    assert [r[2] for r in t.body] == [(2.0, 1.0), (10.0, 0.0), (3.0, 1.0)]
    assert "2.0 ± 1.0" in repr(t)


def test_agents_and_epsilons_figures_draw_the_named_curves():
    res = {**_long(eps=2.0), **_long(eps=0.2)}
    fig = rf.agents_figure(res, "ren2020-x", [2.0, 0.2], "ab", "Bernoulli arms")
    assert [ax.get_title().split("\n")[0] for ax in fig.axes] == [
        "(a) Bernoulli arms, ε = 2",
        "(b) Bernoulli arms, ε = 0.2",
    ]
    # UCB1, LDP-UCB-L, LDP-UCB-B, from t = 20 (regret_panel's default): means 2, 16, 4
    assert [line.get_ydata().tolist() for line in fig.axes[0].lines] == [[2.0, 2.0], [16.0, 16.0], [4.0, 4.0]]
    plt.close(fig)
    fig = rf.epsilons_figure(res, "ren2020-x", [0.2, 2.0], "cd")
    assert fig.axes[1].get_title().startswith("(d) LDP-UCB-B, Bernoulli arms, several ε (our choice)")
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["ε = 0.2", "ε = 2"]
    plt.close(fig)


def test_theory_factors_by_hand():
    f = rf.theory_factors([2.0, 0.2])
    e2, e02 = math.exp(2), math.exp(0.2)
    assert f[2.0]["LDP-UCB-B / UCB1"] == pytest.approx(((e2 + 1) / (e2 - 1)) ** 2, rel=1e-12)  # 1.724
    assert f[2.0]["LDP-UCB-L / UCB1"] == pytest.approx(9.0, rel=1e-12)
    assert f[0.2]["LDP-UCB-B / UCB1"] == pytest.approx(((e02 + 1) / (e02 - 1)) ** 2, rel=1e-12)  # 100.7
    assert f[0.2]["LDP-UCB-L / UCB1"] == pytest.approx(441.0, rel=1e-12)


def test_ratio_figure_draws_from_t_min_and_a_short_run_without_warning():
    cps = np.array([1, 50, 100, 150, 200])
    ucb = _result("UCB1", None, [[1, 2, 3, 4, 5.0], [1, 2, 3, 4, 7.0]], cps)
    long = {
        ("x", "UCB1", None): ucb,
        ("x", "LDP-UCB-B", 2.0): _result("LDP-UCB-B", 2.0, 2 * ucb.regret, cps),
        ("x", "LDP-UCB-L", 2.0): _result("LDP-UCB-L", 2.0, 3 * ucb.regret, cps),
        ("x", "LDP-UCB-B", 0.2): _result("LDP-UCB-B", 0.2, 4 * ucb.regret, cps),
        ("x", "LDP-UCB-L", 0.2): _result("LDP-UCB-L", 0.2, 5 * ucb.regret, cps),
    }
    theory = rf.theory_factors([2.0, 0.2])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the default t_min = 1000 left no point: identical xlims
        fig = rf.ratio_figure(long, "x", [2.0, 0.2], theory, {2.0: {"LDP-UCB-B / UCB1": 1.6}}, horizon=100, t_min=100)
    ax = fig.axes[0]
    assert ax.lines[0].get_xdata().tolist() == [100, 150, 200]
    assert ax.lines[0].get_ydata().tolist() == [2.0, 2.0, 2.0]
    assert ax.lines[-1].get_xdata()[0] == 100  # the line at the horizon of panels (a)-(f)
    assert ax.get_title().startswith("(g1) Bernoulli arms, ε = 2, T = 200, 2 runs")  # panel (g) in parts, one per ε
    assert fig.axes[1].get_title().startswith("(g2) Bernoulli arms, ε = 0.2")
    assert ax.get_ylim()[1] >= 1.25 * theory[2.0]["LDP-UCB-L / UCB1"]  # room above the top line for its value
    # the paper prints a ratio at ε = 2 only: the panel of ε = 0.2 draws no dotted line, and its title says none
    assert ax.get_title().endswith("dashed: theory, dotted: paper")
    assert fig.axes[1].get_title().endswith("dashed: theory")
    plt.close(fig)


def test_ratio_table_reads_the_ratios_at_the_checkpoints_it_holds():
    paper = {2.0: {"LDP-UCB-B / UCB1": 1.6, "LDP-UCB-L / UCB1": 8.5}}
    t = rf.ratio_table(_long(), "ren2020-x", [2.0], rf.theory_factors([2.0]), paper)
    assert t.head == ["ratio", "t = 10⁴", "t = 10⁵", "theory", "paper"]  # 10⁶ and 10⁷ are not checkpoints
    assert t.body[0][:3] == ["LDP-UCB-B / UCB1, ε = 2", 2.0, 2.0]
    assert t.body[1][1:] == [8.0, 8.0, 9.0, 8.5]


def test_first_reach_table_by_hand():
    ucb = _result("UCB1", None, [[1, 1, 1, 1.0], [1, 1, 1, 1.0]])
    long = {
        ("x", "UCB1", None): ucb,
        ("x", "LDP-UCB-B", 2.0): _result("LDP-UCB-B", 2.0, [[9, 9, 1, 2.0], [9, 9, 1, 2.0]]),
        ("x", "LDP-UCB-L", 2.0): _result("LDP-UCB-L", 2.0, [[9, 9, 1, 2.0], [9, 9, 1, 2.0]]),
    }
    t = rf.first_reach_table(long, "x", [2.0], {2.0: {"LDP-UCB-B / UCB1": 1.6, "LDP-UCB-L / UCB1": 8.5}})
    assert t.head[-1] == "first t ≥ 10⁴ with ours ≥ paper"
    # B: ratio 1 at 10⁴, 2 >= 1.6 at 10⁵ (9 at t = 10 is before 10⁴); L: never 8.5 from 10⁴ on
    assert t.body == [
        ["LDP-UCB-B / UCB1, ε = 2", 1.6, 10**5],
        ["LDP-UCB-L / UCB1, ε = 2", 8.5, "not reached by t = 10⁵"],
    ]
    # an eps the paper prints no ratio for (a reader's eps_compare): no row here, "-" in the ratio table
    assert rf.first_reach_table(long, "x", [2.0], {}).body == []
    t = rf.ratio_table(_long(), "ren2020-x", [2.0], rf.theory_factors([2.0]), {0.2: {"LDP-UCB-B / UCB1": 74.0}})
    assert [row[-1] for row in t.body] == ["-", "-"] and "-" in repr(t)


STATED = {
    ("LDP-UCB-B", 2.0): (1.6, "ren2020ldp.fig1a.ratios_eps2"),
    ("LDP-UCB-L", 2.0): (8.5, "ren2020ldp.fig1a.ratios_eps2"),
}


def test_stated_horizons_and_joint_fit_text_by_hand():
    long = _long(b_factor=1.6, l_factor=8.5)  # exactly the printed numbers, standard error 0: every t >= t_min fits
    hz = rf.stated_horizons(long, "ren2020-x", STATED, 10)
    assert hz[("LDP-UCB-B", 2.0)].consistent == (10, 10**5)
    assert hz[("LDP-UCB-B", 2.0)].searched == (10, 10**5)
    joint = ldp.claims.joint_horizons(*hz.values())
    text = rf.joint_fit_text(long, "ren2020-x", STATED, hz, joint)
    assert text == (
        "ε = 2: 1.6 (LDP-UCB-B / UCB1) fits t ≈ 10–10⁵, 8.5 (LDP-UCB-L / UCB1) fits t ≈ 10–10⁵; one horizon for "
        "both: t ≈ 10–10⁵\nat the last t that fits 1.6 (t = 100,000) LDP-UCB-L / UCB1 = 8.5 ± 0, not 8.5"
    )
    far = _long(b_factor=2.0, l_factor=8.5)  # 2 is outside [1.55, 1.65] with standard error 0
    hz = rf.stated_horizons(far, "ren2020-x", STATED, 10)
    assert hz[("LDP-UCB-B", 2.0)].consistent == ()
    assert rf.joint_fit_text(far, "ren2020-x", STATED, hz, ()) == (
        "ε = 2: 1.6 (LDP-UCB-B / UCB1) fits no t in [10, 10⁵], 8.5 (LDP-UCB-L / UCB1) fits t ≈ 10–10⁵; one horizon "
        "for both: none"
    )
    # a stated ratio whose ε was not simulated is left out
    assert list(rf.stated_horizons(_long(eps=0.2), "ren2020-x", STATED, 10)) == []


def test_ratio_claims_ids_sources_and_the_stated_ones():
    long, res = _long(b_factor=1.6, l_factor=8.5), _long(eps=2.0, instance="ren2020-mixed")
    hz = rf.stated_horizons(long, "ren2020-x", STATED, 10)
    reasons = {k: (lambda k=k: f"why {k[0]}") for k in STATED}
    claims = rf.ratio_claims(
        long, res, "ren2020-x", "ren2020-mixed", [2.0], 10, stated=STATED, horizons=hz, reasons=reasons, t_min=10
    )
    assert [c["name"] for c in claims] == [
        "ratio_B_UCB.eps2.T1e1",
        "ratio_L_UCB.eps2.T1e1",
        "ratio_B_UCB.eps2.T1e5",
        "ratio_L_UCB.eps2.T1e5",
        "mixed.ratio_B_UCB.eps2.T1e1",
        "mixed.ratio_L_UCB.eps2.T1e1",
    ]
    assert [c["t"] for c in claims] == [10, 10, 10**5, 10**5, 10, 10]
    first, stated_b, mixed = claims[0], claims[2], claims[5]
    assert first["source"] == "Fig. 1: LDP-UCB-B / UCB1 regret ratio at ε = 2, Bernoulli arms"
    assert first["note"] == "2 paired runs; the conference paper states no number" and "paper" not in first
    assert stated_b["source"] == "Fig. 1(a): LDP-UCB-B / UCB1 regret ratio at ε = 2, Bernoulli arms"
    assert (stated_b["paper"], stated_b["statement"], stated_b["runs"]) == (1.6, "ren2020ldp.fig1a.ratios_eps2", 2)
    assert stated_b["reason"] == "why LDP-UCB-B" and stated_b["horizons"] is hz[("LDP-UCB-B", 2.0)]
    assert "the verdict is the range of t (from 10 to 10⁵)" in stated_b["note"]
    assert mixed["source"] == "Fig. 1: LDP-UCB-L / UCB1 regret ratio at ε = 2, mixed arms"
    assert mixed["num"] is res[("ren2020-mixed", "LDP-UCB-L", 2.0)]


def test_factor_reason_by_hand():
    assert rf.factor_reason(1.7241, 1.7, 0.1) == "rounds to the paper's number"
    assert rf.factor_reason(100.67, 101.0, 1.0) == "rounds to the paper's number"
    assert rf.factor_reason(9.0, 8.5, 0.1) == "the factor is 9, which does not round to the paper's 8.5"
    assert rf.factor_reason(1.76, 1.7, 0.1) == "the factor is 1.76, which does not round to the paper's 1.7"


def test_regret_bound_claims_by_hand():
    inst = types.SimpleNamespace(name="ren2020-x", means=[0.9, 0.8, 0.5])  # gaps 0.1 and 0.4
    r = _result("UCB1", None, [[0, 0, 0, 1.0]], np.array([1, 10, 50, 100]))
    (claim,) = rf.regret_bound_claims([(("ren2020-x", "UCB1", None), r)], [inst])
    assert claim["name"] == "regret.x.UCB1.T1e2"  # horizon_tag: a power of ten
    assert claim["source"] == "Fig. 1, UCB1, ren2020-x: mean pseudo-regret at T"
    assert claim["how"] == "the UCB1 bound of Auer et al. (2002) at T" and claim["result"] is r
    # 8 log(100) (1/0.1 + 1/0.4) + (1 + pi^2/3)(0.1 + 0.4)
    assert claim["bound"] == pytest.approx(8 * math.log(100) * 12.5 + (1 + math.pi**2 / 3) * 0.5, rel=1e-12)
    (claim,) = rf.regret_bound_claims([(("ren2020-x", "LDP-UCB-L", 1.0), r)], [inst])
    assert claim["name"] == "regret.x.LDP-UCB-L.eps1.T1e2"
    assert claim["source"] == "Fig. 1, LDP-UCB-L, ε = 1, ren2020-x: mean pseudo-regret at T"
    assert claim["how"] == "Theorem 4 at T"
