"""ldpcode.bco.report: the runs, tables, figure and claims of Corollary 4's notebook (hand-computed values)."""

import math
from types import SimpleNamespace

import matplotlib
import numpy as np
import pytest

from ldpcode.bco import report, simulate_one_point
from ldpcode.book import Notebook
from ldpcode.exponents import loglog_slope, ratio_exponent

PREFIX = "zheng2020.corollary4_one_point_bco"
CP = np.unique(np.geomspace(1, 10_000, 41).astype(np.int64))


class _Result(SimpleNamespace):
    def at(self, t):
        return self.regret[:, list(self.checkpoints).index(t)]


def _power_law(exponent, scale=1.0, tuning=None, **kw):
    """Two runs whose mean regret is exactly scale * t**exponent (runs 0.5 and 1.5 times it)."""
    curve = scale * CP.astype(float) ** exponent
    regret = np.stack([0.5 * curve, 1.5 * curve])
    return _Result(horizon=int(CP[-1]), checkpoints=CP, regret=regret, tuning=tuning or {}, **kw)


def _fit(slope, lo, hi, se=0.01):
    return SimpleNamespace(slope=slope, ci_low=lo, ci_high=hi, se=se)


def _nb():
    return Notebook("chapters/zheng2020/corollary4_one_point_bco.ipynb", {}, PREFIX)


def _claims(nb):
    return {c.id.removeprefix(PREFIX + "."): c for c in nb.claims}


def test_learner_name_and_interval_text():
    assert report.learner_name(None) == "non-private"
    assert report.learner_name(1.0) == "ε = 1" and report.learner_name(0.25) == "ε = 0.25"
    assert report.ci_text(_fit(0.7, 0.61234, 0.8)) == "[0.612, 0.800]"
    assert report.ci_text(_fit(0.7, 0.61234, 0.8), ".2f") == "[0.61, 0.80]"


def test_run_settings_is_simulate_one_point_at_each_setting_and_epsilon():
    settings = {"lin": {"environment": "linear"}, "quad": {"environment": "quadratic", "rho_max": 0.4}}
    res = report.run_settings(settings, (None, 2.0), horizon=500, runs=2, seed=3, delta=1e-4, d=3)
    assert list(res) == [("lin", None), ("lin", 2.0), ("quad", None), ("quad", 2.0)]
    direct = simulate_one_point("quadratic", horizon=500, runs=2, seed=3, epsilon=2.0, delta=1e-4, d=3, rho_max=0.4)
    assert np.array_equal(res["quad", 2.0].regret, direct.regret) and res["quad", 2.0].delta == 1e-4
    assert math.isnan(res["lin", None].delta)  # the non-private run is given no delta
    with pytest.raises(ValueError, match="setting 'x' must name its environment"):
        report.run_settings({"x": {}}, (None,), horizon=500, runs=2, seed=3, delta=1e-4, d=3)


def test_fit_slopes_measures_the_exponent_of_each_result():
    res = {("a", None): _power_law(0.7), ("a", 1.0): _power_law(0.5, scale=3.0)}
    fits = report.fit_slopes(res, t_min=100, n_boot=50, seed=1)
    assert list(fits) == list(res)
    assert fits["a", None].slope == pytest.approx(0.7, abs=1e-12)
    assert fits["a", 1.0].slope == pytest.approx(0.5, abs=1e-12) and fits["a", 1.0].x[0] >= 100
    same = loglog_slope(CP, res["a", None].regret, t_min=100, n_boot=50, seed=1)
    assert fits["a", None].se == same.se and fits["a", None].n == same.n


def test_epsilon_sweep_pairs_private_runs_with_the_non_private_one():
    sweep = report.epsilon_sweep({"lin": {"environment": "linear"}}, (1.0, 2.0, 4.0), horizon=600, runs=3, seed=5,
                                 delta=1e-5, d=3, n_boot=40, boot_seed=2)  # fmt: skip
    s = sweep["lin"]
    assert (s.environment, s.horizon, s.num.shape, s.den.shape) == ("linear", 600, (3, 3), (3,))
    assert s.epsilons == [1.0, 2.0, 4.0]  # a list, as the claims' notes print it
    kw = dict(horizon=600, runs=3, seed=5, d=3, checkpoints=[600])
    assert np.array_equal(s.den, simulate_one_point("linear", epsilon=None, **kw).regret[:, -1])
    assert np.array_equal(s.num[2], simulate_one_point("linear", epsilon=4.0, delta=1e-5, **kw).regret[:, -1])
    fit = ratio_exponent([1.0, 0.5, 0.25], s.num.T, s.den, n_boot=40, seed=2)
    assert s.fit.slope == fit.slope and s.fit.se == fit.se
    assert np.allclose(s.ratios, s.num.mean(axis=1) / s.den.mean())


def test_sweep_ratios_and_table():
    s = report.Sweep("linear", [0.5, 2.0], 100, np.array([[1.0, 3.0], [2.0, 6.0]]), np.array([1.0, 1.0]),
                     _fit(1.2, 0.9, 1.5))  # fmt: skip
    assert s.ratios.tolist() == [2.0, 4.0]
    t = report.sweep_table({"lin": s}, first="losses")
    assert t.head == ["losses", "ε = 0.5", "ε = 2", "slope on log(1/ε)", "95% CI"]
    assert t.body == [["lin", 2.0, 4.0, 1.2, "[0.900, 1.500]"]]
    assert t.formats == [None, ".3f", ".3f", ".3f", None]


def test_tuning_table_rows_follow_the_results():
    res = {
        ("k", None): _Result(tuning={"eta0": 0.5, "delta0": 2.0}, regret=np.array([[1.0, 4.0], [1.0, 8.0]]),
                             max_norm=np.array([0.9, 0.95])),
        ("k", 1.0): _Result(tuning={"eta0": 0.1, "delta0": 3.0}, regret=np.array([[1.0, 10.0], [1.0, 20.0]]),
                            max_norm=np.array([0.5, 0.25])),
    }  # fmt: skip
    t = report.tuning_table(res, {"k": "the label"}, ("eta0", "delta0"), first="setting", max_norm=True)
    assert t.head == ["setting", "learner", "η_0", "δ_0", "R(T)", "max |y|"]
    assert t.body == [["the label", "non-private", 0.5, 2.0, 6.0, 0.95], ["the label", "ε = 1", 0.1, 3.0, 15.0, 0.5]]
    assert t.formats == [None, None, ".4f", ".3f", ".4g", ".4f"]
    plain = report.tuning_table(res, {"k": "L"}, ("eta0",), first="losses")
    assert plain.head == ["losses", "learner", "η_0", "R(T)"] and plain.body[1] == ["L", "ε = 1", 0.1, 15.0]
    with pytest.raises(KeyError):
        report.tuning_table(res, {"k": "L"}, ("rho0",), first="losses")  # these runs have no rho0


def test_slope_table_with_and_without_the_late_interval():
    slopes = {("k", None): _fit(0.8, 0.7, 0.9)}
    late = {("k", None): _fit(0.75, 0.6, 0.95)}
    t = report.slope_table(slopes, late, {"k": "L"}, {"k": 3 / 4}, first="losses")
    assert t.head == ["losses", "learner", "slope", "95% CI", "late slope", "95% CI", "stated"]
    assert t.body == [["L", "non-private", 0.8, "[0.700, 0.900]", 0.75, "[0.600, 0.950]", 0.75]]
    assert t.formats == [None, None, ".3f", None, ".3f", None, ".3f"]
    short = report.slope_table(slopes, late, {"k": "L"}, {"k": 0.5}, first="setting", late_ci=False)
    assert short.head == ["setting", "learner", "slope", "95% CI", "late slope", "stated"]
    assert short.body == [["L", "non-private", 0.8, "[0.700, 0.900]", 0.75, 0.5]]


def test_ratio_table_is_the_ratio_of_means_with_its_delta_method_se():
    # x = (2, 4), y = (1, 3): R = 3/2; s_x^2 = s_y^2 = s_xy = 2, n = 2:
    # Var R = (1/4)(2/2 - 2 (3/2) 2/2 + (9/4) 2/2) = 1/16, se = 1/4
    res = {("lin", None): _Result(regret=np.array([[0.0, 1.0], [0.0, 3.0]]), horizon=10**6),
           ("lin", 1.0): _Result(regret=np.array([[0.0, 2.0], [0.0, 4.0]]), tuning={"B_tilde": 70.0}, horizon=10**6)}  # fmt: skip
    t = report.ratio_table(res, 1.0)
    assert t.head == ["losses", "ratio at T = 10⁶, ε = 1", "Theorem 3's factor B_tilde/B"]
    (row,) = t.body
    assert row[0] == "lin" and row[1][0] == 1.5 and row[1][1] == pytest.approx(0.25, rel=1e-12) and row[2] == 70.0
    with pytest.raises(ValueError, match="no result at epsilon=2.0"):
        report.ratio_table(res, 2.0)


def test_setting_claims_builds_the_exponents_the_ratio_and_the_epsilon_exponent_in_order():
    nb = _nb()
    res = {("linear", None): _power_law(0.7), ("linear", 1.0): _power_law(0.7, scale=2.0, tuning={"B_tilde": 70.0})}
    fits = {k: _fit(0.7, 0.6, 0.8) for k in res}
    sweep = report.Sweep("linear", [0.5, 1.0], 1000, np.ones((2, 8)), np.ones(8), _fit(0.4, 0.3, 0.5, se=0.02))
    report.setting_claims(nb, "linear", "GD", res, fits, fits, sweep, t_min=10, t_min_late=1000, delta=1e-5,
                          reasons={("linear", None): "fast", ("linear", 1.0): "why", "eps": "capped"},
                          ratio=True)  # fmt: skip
    c = _claims(nb)
    assert list(c) == ["exponent_linear_nonprivate", "exponent_linear_nonprivate_late", "exponent_linear_private",
                       "exponent_linear_private_late", "ratio_linear", "eps_exponent_linear"]  # fmt: skip
    assert c["exponent_linear_private_late"].reason == "why" and c["exponent_linear_nonprivate_late"].reason == "fast"
    r = c["ratio_linear"]
    assert r.reproduced == pytest.approx(2.0, rel=1e-12) and r.horizon == 10_000
    assert r.source == "one-point BCO, GD: private / non-private regret at T, ε = 1"
    assert r.note == "Theorem 3's scale factor B_tilde/B = 70; delta-method se over paired runs"
    e = c["eps_exponent_linear"]
    assert e.reproduced == 0.4 and e.runs == 8 and e.horizon == 1000 and e.reason == "capped"
    assert "ε in [0.5, 1.0], 8 paired runs" in e.note
    with pytest.raises(ValueError, match="no result for the setting 'quadratic'"):
        report.setting_claims(_nb(), "quadratic", "GD", res, fits, fits, sweep, t_min=10, t_min_late=1000,
                              delta=1e-5, reasons={})  # fmt: skip
    two = res | {("linear", 2.0): res["linear", 1.0]}
    with pytest.raises(ValueError, match=r"the claims of 'linear' take one private result, got eps \[1.0, 2.0\]"):
        report.setting_claims(_nb(), "linear", "GD", two, fits, fits, sweep, t_min=10, t_min_late=1000, delta=1e-5,
                              reasons={})  # fmt: skip
    private_only = {("linear", 1.0): res["linear", 1.0]}
    with pytest.raises(ValueError, match="ratio=True needs a private and a non-private result"):
        report.setting_claims(_nb(), "linear", "GD", private_only, fits, fits, sweep, t_min=10, t_min_late=1000,
                              delta=1e-5, reasons={}, ratio=True)  # fmt: skip


def _hl_result(eta0, beta=2.0):
    cp = np.array([1, 4, 16, 64, 256, 1024])
    return _Result(checkpoints=cp, tuning={"eta0": eta0, "beta": beta}, regret=np.array([[0.0] * 5 + [3.0]] * 2))


def test_exploration_costs_sum_the_hazan_levy_exploration_at_the_centre():
    res = {("sc", None): _hl_result(2.0), ("sc", 1.0): _hl_result(0.5), ("other", None): _hl_result(1.0)}
    costs = report.exploration_costs(res, ("sc",), t_mins=(1, 16), mu=1.0)
    assert list(costs) == [("sc", None), ("sc", 1.0)]
    cost, full, late = costs["sc", None]
    # beta/2 = 1: E_t = sum_{s <= t} 1/(2 + 2 sqrt s); E_1 = 1/4, E_4 = 1/4 + 1/(2 + 2√2) + 1/(2 + 2√3) + 1/6
    assert cost[0] == pytest.approx(0.25, rel=1e-12)
    assert cost[1] == pytest.approx(0.25 + 1 / (2 + 2 * math.sqrt(2)) + 1 / (2 + 2 * math.sqrt(3)) + 1 / 6, rel=1e-12)
    cp = res["sc", None].checkpoints
    assert full == pytest.approx(np.polyfit(np.log(cp), np.log(cost), 1)[0], rel=1e-10)
    assert late == pytest.approx(np.polyfit(np.log(cp[2:]), np.log(cost[2:]), 1)[0], rel=1e-10)
    assert 0.5 < late < full < 1  # falls towards 1/2 as eta0 mu sqrt t outgrows 2
    with pytest.raises(ValueError, match="no result for the keys"):
        report.exploration_costs(res, ("none",), t_mins=(1,))
    with pytest.raises(TypeError, match="not the string 'sc'"):
        report.exploration_costs(res, "sc", t_mins=(1,))


def test_exploration_table_and_claims():
    res = {("sc", None): _hl_result(0.5), ("sc", 2.0): _hl_result(0.25)}
    costs = report.exploration_costs(res, ("sc",), t_mins=(1, 16))  # mu = 8/9, the quadratics'
    t = report.exploration_table(costs, res)
    assert t.head[-1] == "t where η_t μ t = 2" and t.formats == [None, None, ".4g", ".4g", ".3f", ".3f", ".3g"]
    assert t.body[0][:2] == ["sc", "non-private"] and t.body[0][3] == 3.0
    assert t.body[0][-1] == pytest.approx(20.25, rel=1e-12)  # (2 / (0.5 * 8/9))^2 = 4.5^2
    assert t.body[1][-1] == pytest.approx(81.0, rel=1e-12)  # (2 / (0.25 * 8/9))^2 = 9^2
    nb = _nb()
    report.exploration_claims(nb, costs, "sc", t_mins=(1, 16), horizon=1024)
    c = _claims(nb)
    assert list(c) == ["exploration_cost_slope_nonprivate", "exploration_cost_slope_nonprivate_late",
                       "exploration_cost_slope_private", "exploration_cost_slope_private_late"]  # fmt: skip
    assert c["exploration_cost_slope_private_late"].reproduced == costs["sc", 2.0][2]
    assert c["exploration_cost_slope_private"].source == (
        "Hazan-Levy, ε = 2: log-log slope of the exploration cost sum_s (β/2)/(2 + η0 μ √s) on t in [1, 1024]"
    )
    assert c["exploration_cost_slope_nonprivate_late"].source.startswith("Hazan-Levy: log-log slope")
    with pytest.raises(ValueError, match="t_mins must hold the starts of the full and the late window"):
        report.exploration_claims(_nb(), costs, "sc", t_mins=(1,), horizon=1024)


def test_per_round_table_starts_at_the_first_checkpoint_past_t_from():
    r = _Result(checkpoints=np.array([10, 100, 1000]), regret=np.array([[1.0, 40.0, 100.0], [3.0, 60.0, 300.0]]))
    t = report.per_round_table({("k", None): r}, t_from=50)  # mean (2, 50, 200); window from t = 100
    assert t.head == ["setting", "learner", "R(T)/T", "regret per round on [50, T]"]
    assert t.body[0][:2] == ["k", "non-private"]
    assert t.body[0][2] == pytest.approx(0.2, rel=1e-12) and t.body[0][3] == pytest.approx(150 / 900, rel=1e-12)
    with pytest.raises(ValueError, match="leaves no window before the last checkpoint 1000"):
        report.per_round_table({("k", None): r}, t_from=1000)


def test_exponent_room():
    s = report.Sweep("quadratic", [0.5, 2.0], 1000, np.array([[50.0, 50.0], [5.0, 15.0]]), np.ones(2), None)
    room = report.exponent_room({"k": s}, {"quadratic": 1.0})
    assert room["k"] == pytest.approx(math.log2(10), rel=1e-12)  # ln(1 * 1000 / 10) / ln(2 / 0.5)
    assert report.exponent_room({"k": s}, {"quadratic": 0.1})["k"] == pytest.approx(math.log(10) / math.log(4))
    with pytest.raises(ValueError, match="no entry for the environment 'quadratic'"):
        report.exponent_room({"k": s}, {"linear": 1.0})
    backwards = s._replace(epsilons=[2.0, 0.5], num=s.num[::-1])  # the same sweep listed from the largest eps
    assert report.exponent_room({"k": backwards}, {"quadratic": 1.0})["k"] == pytest.approx(room["k"], rel=1e-12)
    zero = s._replace(num=np.array([[50.0, 50.0], [0.0, 0.0]]))
    assert report.exponent_room({"k": zero}, {"quadratic": 1.0})["k"] == math.inf
    flat = s._replace(epsilons=[1.0, 1.0])
    with pytest.raises(ValueError, match="needs two different epsilons"):
        report.exponent_room({"k": flat}, {"quadratic": 1.0})


def test_exponents_figure_draws_the_curves_guides_and_ratios():
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    res = {("a", None): _power_law(0.7), ("a", 1.0): _power_law(0.7, scale=4.0), ("b", None): _power_law(0.5)}
    slopes = {k: _fit(0.7 if k[0] == "a" else 0.5, 0.6, 0.8) for k in res}
    num = np.array([[8.0, 8.0], [4.0, 4.0], [2.0, 2.0]])  # ratios 8, 4, 2 at eps 0.5, 1, 2
    sweeps = {"a": report.Sweep("linear", [0.5, 1.0, 2.0], 100, num, np.ones(2), _fit(1.0, 0.9, 1.1)),
              "b": report.Sweep("linear", [0.5, 2.0], 100, num[[0, 2]], np.ones(2), _fit(1.0, 0.9, 1.1))}  # fmt: skip
    fig = report.exponents_figure(res, slopes, {"a": 0.75, "b": 0.5}, sweeps, t_min=100, title="L", sweep_title="R")
    try:
        left, right = fig.axes
        assert left.get_title() == "L" and right.get_title() == "R"
        assert [t.get_text() for t in left.get_legend().get_texts()] == [
            "a, non-private: slope 0.70 on t ≥ 100",
            "a, ε = 1: slope 0.70 on t ≥ 100",
            "b, non-private: slope 0.50 on t ≥ 100",
            "dashed: the stated rate $t^a$, through the mean at t = 100",
        ]  # fmt: skip (the window named: the Check's late slopes differ)
        curves, guides = left.lines[0:6:2], left.lines[1:6:2]  # then the key of the guides, drawing nothing
        assert left.lines[6].get_xdata().size == 0 and left.lines[6].get_linestyle() == "--"
        assert [ln.get_linestyle() for ln in curves] == [":", "-", ":"]
        assert [ln.get_color() for ln in curves] == ["C0", "C0", "C3"]
        t0 = CP[np.searchsorted(CP, 100)]  # the guide T^0.75 passes through the mean at t0
        x, y = guides[1].get_data()
        assert x[0] == t0 and y[0] == pytest.approx(4.0 * t0**0.7, rel=1e-12)
        assert y[-1] == pytest.approx(4.0 * t0**0.7 * (CP[-1] / t0) ** 0.75, rel=1e-12)
        assert right.lines[2].get_ydata().tolist() == [8.0, 4.0, 2.0]  # through the ratio at eps = 1: 4 / eps
        assert right.lines[3].get_ydata().tolist() == [8.0, 2.0]  # no eps = 1 swept: through eps 0.5, 8 / (2 eps)
        # (it was 16 and 4: the ratio at the first eps put at eps = 1, through no point of the sweep)
        assert [t.get_text() for t in right.get_legend().get_texts()][0] == "a: slope 1.00 [0.90, 1.10]"
        assert right.get_legend().get_texts()[-1].get_text() == "dashed: Table 1's ∝ 1/ε, through the first ε"
        assert [t.get_text() for t in right.get_xticklabels()] == ["2", "0.5"]
    finally:
        plt.close(fig)


def test_loss_range_is_the_range_of_each_environments_losses_on_the_ball():
    """LOSS_RANGE caps the exponent of 1/ε a sweep can show (the 'reachable' of the 1/ε claims), so it must be the
    true max - min of f_t over the unit ball: reached at two points (±θ_t/|θ_t| for the linear losses; c_t and the
    antipode of c_t's direction for the quadratics), and never exceeded at random points of the ball."""
    import math

    import numpy as np

    from ldpcode.bco import LOSS_RANGE
    from ldpcode.bco.environments import _ENV_CODE, _loss

    d, rng, scratch = 5, np.random.default_rng(3), np.zeros(5)
    for name, width in LOSS_RANGE.items():
        code = _ENV_CODE[name]
        for t in (1, 2, 5):
            ang = 2 * math.pi * t / 7.0
            if name == "linear":
                theta = np.array([0.6, 0.4 * math.cos(ang), 0.4 * math.sin(ang), 0, 0])
                hi, lo = theta / np.linalg.norm(theta), -theta / np.linalg.norm(theta)
            else:
                c = (
                    np.array([0.5 * math.cos(ang), 0.5 * math.sin(ang), 0, 0, 0])
                    if name == "quadratic"
                    else np.eye(5)[0] * 0.5
                )
                lo, hi = c, -c / np.linalg.norm(c)
            f = lambda x: _loss(code, x, float(t), d, scratch)  # noqa: E731
            assert f(hi) - f(lo) == pytest.approx(width, rel=1e-12), (name, t)
            x = rng.normal(size=(2000, d))
            x *= (rng.random(2000) ** (1 / d) / np.linalg.norm(x, axis=1))[:, None]
            values = np.array([f(row) for row in x])
            assert values.max() - values.min() <= width + 1e-12, (name, t)
