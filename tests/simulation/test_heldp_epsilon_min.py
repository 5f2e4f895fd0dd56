"""ldpcode.experiments.heldp_epsilon_min, the helpers of the notebook on the choice of eps_min (Section 4.2 of Ren et
al. 2020b): values by hand on the two-point law uniform on {1, 2}, where V_L = E[(1 + 4/eps)^2 | kept] / p_0 is
(25 + 9)/2 = 17 at eps_min = 1 and 9 / 0.5 = 18 at eps_min = 2."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.bounds import EpsilonMinChoice
from ldpcode.experiments import heldp_epsilon_min as hem

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TWO = ldp.make_privacy_levels("discrete", values=[1.0, 2.0])  # p_0 = 1 at eps_min = 1, 0.5 at eps_min = 2
MEANS = [0.9, 0.5]


def _beta(e):
    return ((math.exp(e) + 1) / (math.exp(e) - 1)) ** 2


def test_section42_laws_by_hand():
    laws = hem.section42_laws(2.0)
    assert list(laws) == ["discrete", "gaussian", "exponential"]
    assert laws["discrete"].values.tolist() == [0.0, 0.2, 1.0, 2.0, 100.0]
    assert laws["gaussian"].p_at_least(1e-12) == pytest.approx(1 - 0.158655, abs=1e-6)  # P{N(1, 1) > 0}
    assert laws["exponential"].name == "exponential(mean 2)"
    # P{eps >= 3} = exp(-3/2) = 0.2231 for the exponential of mean 2, from the fixed-seed Monte Carlo sample
    assert laws["exponential"].p_at_least(3.0) == pytest.approx(math.exp(-1.5), abs=0.003)


@pytest.mark.parametrize(
    "bad, error", [(0.0, ValueError), (-1.0, ValueError), (math.nan, ValueError), ("1", TypeError)]
)
def test_section42_laws_refuses_a_bad_mean(bad, error):
    with pytest.raises(error, match="exponential_mean"):
        hem.section42_laws(bad)


def test_describe_laws_by_hand():
    text = hem.describe_laws({"two": TWO, "discrete": ldp.make_privacy_levels("ren-heldp-discrete")})
    assert text.splitlines() == [
        f"two          {'discrete[1.0, 2.0]':40s} P(ε = 0) = 0.000, P(ε ≥ 3) = 0.000, ε_max = 2",
        f"discrete     {'ren-heldp-discrete':40s} P(ε = 0) = 0.200, P(ε ≥ 3) = 0.200, ε_max = 100",
    ]


def test_describe_laws_refuses_what_is_not_a_dict_of_laws():
    with pytest.raises(TypeError, match="levels must be a non-empty dict"):
        hem.describe_laws([TWO])
    with pytest.raises(TypeError, match=r"levels\['two'\] must be PrivacyLevels"):
        hem.describe_laws({"two": [1.0, 2.0]})


def test_curve_grids_by_hand():
    gauss = ldp.make_privacy_levels("ren-heldp-gaussian")
    xs = hem.curve_grids({"two": TWO, "gaussian": gauss}, [1.0, 2.0], (0.5, 2.0, 3))
    assert xs["two"].tolist() == [1.0, 2.0]  # finite support: the given points
    assert xs["gaussian"] == pytest.approx([0.5, 1.0, 2.0], rel=1e-15)  # geometric, ratio 2


def test_criterion_curves_by_hand():
    # T = 2: p_0 T = 2 > 1 at eps_min = 1, = 1 at eps_min = 2 (the bound does not apply), p_0 = 0 at eps_min = 3
    cr = hem.criterion_curves({"two": TWO}, MEANS, 2, {"two": [1.0, 2.0, 3.0]})
    assert list(cr) == [("two", "HeLDP-UCB-L"), ("two", "HeLDP-UCB-B")]
    lap, ber = cr[("two", "HeLDP-UCB-L")], cr[("two", "HeLDP-UCB-B")]
    assert (lap.mechanism, ber.mechanism) == ("L", "B")
    assert lap.v[:2] == pytest.approx([17.0, 18.0], rel=1e-12) and lap.v[2] == math.inf
    vb = [(_beta(1) + _beta(2)) / 2, _beta(2) / 0.5]  # 3.2034, 3.4481
    assert ber.v[:2] == pytest.approx(vb, rel=1e-12) and ber.v[2] == math.inf
    assert lap.heuristic.epsilon_min == 1.0 and lap.heuristic.value == pytest.approx(17.0, rel=1e-12)
    assert ber.heuristic.epsilon_min == 1.0 and ber.heuristic.value == pytest.approx(vb[0], rel=1e-12)
    assert lap.bound[0] == ldp.bounds.heldp_ucb_l_regret_bound(MEANS, 2, TWO, 1.0)
    assert ber.bound[0] == ldp.bounds.heldp_ucb_b_regret_bound(MEANS, 2, TWO, 1.0)
    for c in (lap, ber):
        assert math.isfinite(c.bound[0]) and c.bound[1:].tolist() == [math.inf, math.inf]
        assert c.bound_best == 1.0 and c.xs.tolist() == [1.0, 2.0, 3.0]


def test_criterion_curves_bound_best_is_the_argmin_of_the_bound():
    cr = hem.criterion_curves({"two": TWO}, MEANS, 1000, {"two": [1.0, 2.0]})
    for agent, fn in (("HeLDP-UCB-L", ldp.bounds.heldp_ucb_l_regret_bound), ("HeLDP-UCB-B", None)):
        c = cr[("two", agent)]
        assert c.bound_best == [1.0, 2.0][int(np.argmin(c.bound))]
        if fn is not None:
            assert c.bound.tolist() == [fn(MEANS, 1000, TWO, 1.0), fn(MEANS, 1000, TWO, 2.0)]


def _criterion(mech, h, value, bb):
    choice = EpsilonMinChoice(epsilon_min=h, mechanism=mech, value=value, candidates=(h,), values=(value,))
    xs = np.array([1.0, 2.0])
    return hem.Criterion(mech, choice, xs, np.array([17.0, 18.0]), np.array([300.0, 600.0]), bb)


def _thresholds(best=1.0):
    final = {1.0: np.array([10.0, 12.0, 14.0]), 2.0: np.array([20.0, 20.0, 20.0])}
    mean, se = np.array([12.0, 20.0]), np.array([2 / math.sqrt(3), 0.0])
    return hem.Thresholds([1.0, 2.0], {}, final, mean, se, best)


def test_thresholds_ratio_by_hand():
    t = _thresholds()
    r, se = t.ratio(2.0, 1.0)
    # R = 20/12; the numerator does not vary, so Var(R) = R^2 s_Y^2 / (n Ybar^2) with s_Y^2 = 4, n = 3
    assert r == pytest.approx(20 / 12, rel=1e-12)
    assert se == pytest.approx((20 / 12) * math.sqrt(4 / 3) / 12, rel=1e-12)  # 0.16038
    assert t.ratio(1.0, 1.0) == (1.0, 0.0)


def test_run_thresholds_simulates_the_union_of_the_grid_and_both_choices():
    inst = ldp.make_instance("bernoulli", means=MEANS)
    crit = {
        ("two", "HeLDP-UCB-L"): _criterion("L", 1.0, 17.0, 2.0),
        ("two", "HeLDP-UCB-B"): _criterion("B", 2.0, 3.4, 2.0),
    }
    sims = hem.run_thresholds({"two": TWO}, crit, {"two": [2.0]}, inst, 200, 3, 7)
    assert list(sims) == [("two", "HeLDP-UCB-L"), ("two", "HeLDP-UCB-B")]
    assert sims[("two", "HeLDP-UCB-L")].epsilon_min == [1.0, 2.0]  # grid {2} with the heuristic's 1
    assert sims[("two", "HeLDP-UCB-B")].epsilon_min == [2.0]  # every choice is 2
    t = sims[("two", "HeLDP-UCB-L")]
    pol = ldp.make_policy("HeLDP-UCB-L", epsilon_min=1.0)
    direct = ldp.simulate(pol, inst, 200, 3, 7, privacy_levels=TWO, checkpoints=[200]).final_regret()
    assert t.final[1.0].tolist() == direct.tolist() and t.results[1.0].final_regret().tolist() == direct.tolist()
    assert t.mean[0] == pytest.approx(direct.mean(), rel=1e-15)
    assert t.se[0] == pytest.approx(direct.std(ddof=1) / math.sqrt(3), rel=1e-12)
    assert t.best == [1.0, 2.0][int(np.argmin(t.mean))]


def test_run_thresholds_refuses_a_non_instance():
    with pytest.raises(TypeError, match=r"^instance must come from make_instance\(\), got list$"):
        hem.run_thresholds({"two": TWO}, {}, {"two": [1.0]}, [0.9, 0.5], 100, 2, 0)


def test_ratio_to_best_other_by_hand():
    # the chosen threshold's mean 2 over the smaller of the other means (5 and 4): 1/2; every run the same, so se 0
    r, se = hem.ratio_to_best_other(np.array([2.0, 2.0]), [np.array([5.0, 5.0]), np.array([4.0, 4.0])])
    assert r == 0.5 and se == 0.0
    # runs differ: each bootstrap replicate recomputes the runner-up
    choice, others = np.array([1.0, 3.0]), [np.array([4.0, 1.0]), np.array([3.0, 3.0])]
    r, se = hem.ratio_to_best_other(choice, others)
    assert r == pytest.approx(2 / 2.5, rel=1e-15)  # other means 2.5 and 3
    reps = []
    for i in ldp.stats.bootstrap_indices(2, 1000, 0):
        reps.append(choice[i].mean() / min(o[i].mean() for o in others))
    assert se == pytest.approx(np.std(reps, ddof=1), rel=1e-12) and se > 0


def test_ratio_to_best_other_needs_another_threshold():
    with pytest.raises(ValueError, match="at_others must be a non-empty list"):
        hem.ratio_to_best_other(np.array([1.0, 2.0]), [])


def test_comparison_text_by_hand():
    crit = {("two", "HeLDP-UCB-L"): _criterion("L", 1.0, 17.0, 2.0)}
    text = hem.comparison_text({"two": TWO}, crit, {("two", "HeLDP-UCB-L"): _thresholds()}, 1000, 3)
    assert text.splitlines() == [
        "T = 1,000, 3 runs; mean pseudo-regret at T ± standard error; "
        "H = heuristic's choice, T7/T10 = bound's choice, * = empirical best",
        "",
        "two, HeLDP-UCB-L: heuristic ε_min = 1 (V_L = 17), bound's = 2, empirical best = 1",
        "   ε_min = 1        V_L =       17   R(T) =       12 ±    1  H *",
        "   ε_min = 2        V_L =       18   R(T) =       20 ±    0  T7 ",
        "   R(heuristic) / R(best) = 1.000 ± 0.000;  R(bound's) / R(best) = 1.667 ± 0.160",
    ]
    crit = {("two", "HeLDP-UCB-B"): _criterion("B", 2.0, 3.448, 2.0)}
    text = hem.comparison_text({"two": TWO}, crit, {("two", "HeLDP-UCB-B"): _thresholds()}, 1000, 3)
    assert "   ε_min = 2        V_B =    3.448   R(T) =       20 ±    0  H T10 " in text.splitlines()


def test_choice_figure_draws_one_panel_per_law_and_agent():
    crit = {
        ("two", "HeLDP-UCB-L"): _criterion("L", 1.0, 17.0, 2.0),
        ("two", "HeLDP-UCB-B"): _criterion("B", 2.0, 3.4, 2.0),
    }
    sims = {key: _thresholds() for key in crit}
    fig = hem.choice_figure({"two": TWO}, crit, sims, horizon=1000, runs=3)
    try:
        assert len(fig.axes) == 2 and fig.get_size_inches().tolist() == pytest.approx([10, 15 / 3])
        left, right = fig.axes
        assert left.get_title().startswith("HeLDP-UCB-L, discrete[1.0, 2.0]\nT = ") and "3 runs" in left.get_title()
        assert left.get_ylim() == pytest.approx((0.9, 30))
        labels = [ln.get_label() for ln in right.get_lines()]
        assert {"V_B", "Theorem 10 bound", "heuristic = bound: 2", "best R(T): 1"} <= set(labels)  # one line at x = 2
        assert "Theorem 7 bound" in [ln.get_label() for ln in left.get_lines()]
    finally:
        plt.close(fig)
