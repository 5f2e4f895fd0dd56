"""ldpcode.experiments.heldp_figure2, the helpers of the notebook on Figure 2 of Ren et al. 2020b (Section 4.2): values
by hand on the two-point law uniform on {1, 2}, where V_L = E[(1 + 4/eps)^2 | kept] / p_0 is (25 + 9)/2 = 17 at
eps_min = 1 and 9 / 0.5 = 18 at eps_min = 2, and on made-up regrets lying on lines chosen so that every fit is known."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.experiments import heldp_figure2 as f2

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

L, B = f2.AGENTS
D, G = "ren-heldp-discrete", "ren-heldp-gaussian"
TWO = ldp.make_privacy_levels("discrete", values=[1.0, 2.0])  # p_0 = 1 at eps_min = 1, 0.5 at eps_min = 2
POINTS = [(D, 1.0), (D, 2.0), (D, 3.0), (G, 1.0), (G, 2.0), (G, 3.0)]


def _beta(e):
    return ((math.exp(e) + 1) / (math.exp(e) - 1)) ** 2


def _line_data(outlier=None):
    """V = 1..6 over the six points for each agent, mean regret 2 V + 1 (a point's mean set to ``outlier[1]``)."""
    vals = {(p, lv, em): float(i + 1) for p in f2.AGENTS for i, (lv, em) in enumerate(POINTS)}
    mean = {k: 2 * v + 1 for k, v in vals.items()}
    if outlier is not None:
        mean[outlier[0]] = outlier[1]
    return vals, mean


class FakeResult:
    """A result whose runs' regrets at each checkpoint are given: ``at(t)`` and ``final_regret()``."""

    def __init__(self, by_t):
        self.by_t = by_t
        self.checkpoints = np.array(sorted(by_t))

    def at(self, t):
        return np.asarray(self.by_t[int(t)], dtype=float)

    def final_regret(self):
        return self.at(self.checkpoints[-1])


def test_keys_of_orders_filters_and_drops():
    pts = [(D, 1.0), (G, 0.5)]
    assert f2.keys_of(f2.AGENTS, pts) == [(L, D, 1.0), (L, G, 0.5), (B, D, 1.0), (B, G, 0.5)]
    assert f2.keys_of([B], pts, laws=[G]) == [(B, G, 0.5)]
    assert f2.keys_of([L], pts, drop=[(L, D, 1.0)]) == [(L, G, 0.5)]


def test_keys_of_refuses_unknown_agents_and_bad_points():
    with pytest.raises(ValueError, match="agents must be a list of agents"):
        f2.keys_of(["UCB1"], [(D, 1.0)])
    with pytest.raises(ValueError, match="agents must be a list of agents"):
        f2.keys_of(L, [(D, 1.0)])
    with pytest.raises(TypeError, match="points must be a non-empty list"):
        f2.keys_of(f2.AGENTS, [])
    with pytest.raises(TypeError, match="each point must be a"):
        f2.keys_of(f2.AGENTS, [D])


def test_theory_by_hand_on_the_two_point_law():
    quant, vals = f2.theory({"two": TWO}, [("two", 1.0), ("two", 2.0)])
    assert [quant[("two", e)].p0 for e in (1.0, 2.0)] == [1.0, 0.5]
    assert quant[("two", 1.0)].alpha0 == pytest.approx((1 + 1 / 4) / 2)  # E[eps^-2] over {1, 2}
    assert vals[(L, "two", 1.0)] == pytest.approx(17.0)
    assert vals[(L, "two", 2.0)] == pytest.approx(18.0)
    assert vals[(B, "two", 1.0)] == pytest.approx((_beta(1) + _beta(2)) / 2)
    assert vals[(B, "two", 2.0)] == pytest.approx(_beta(2) / 0.5)
    assert list(vals) == [(L, "two", 1.0), (L, "two", 2.0), (B, "two", 1.0), (B, "two", 2.0)]


def test_theory_refuses_a_law_it_was_not_given():
    with pytest.raises(ValueError, match="is not one of levels"):
        f2.theory({"two": TWO}, [("three", 1.0)])


def test_run_points_runs_each_agent_with_its_threshold():
    inst, levels = ldp.make_instance("ren2020-bernoulli"), {D: ldp.make_privacy_levels(D)}
    res = f2.run_points(inst, levels, [(D, 1.0)], horizon=40, runs=2, seed=3)
    assert list(res) == [(L, D, 1.0), (B, D, 1.0)]
    for (p, _, em), r in res.items():
        direct = ldp.simulate(ldp.make_policy(p, epsilon_min=em), inst, 40, 2, 3, privacy_levels=levels[D])
        assert r.horizon == 40 and r.runs == 2
        np.testing.assert_array_equal(r.final_regret(), direct.final_regret())


def test_final_regrets_by_hand():
    reg, mean, se = f2.final_regrets({"k": FakeResult({10: [0.0, 0.0], 20: [1.0, 3.0]})})
    assert reg["k"].tolist() == [1.0, 3.0]
    assert mean == {"k": 2.0}
    assert se["k"] == pytest.approx(1.0)  # std (ddof 1) sqrt(2), over sqrt(2 runs)


def test_point_table_rows_by_hand():
    pts = [("two", 1.0)]
    quant, vals = f2.theory({"two": TWO}, pts)
    mean, se = {(L, "two", 1.0): 100.0, (B, "two", 1.0): 50.0}, {(L, "two", 1.0): 2.0, (B, "two", 1.0): 1.0}
    table = f2.point_table(pts, quant, vals, mean, se)
    row = table.body[0]
    assert row[:3] == ["two", 1.0, 1.0] and row[5] == pytest.approx(17.0)
    assert row[7:] == [(100.0, 2.0), (50.0, 1.0)]
    assert "100.0 ± 2.0" in repr(table) and "R_B(T) ± se" in repr(table)


def test_fit_on_v_by_hand():
    keys = [(L, D, 1.0), (L, D, 2.0), (L, D, 3.0)]
    vals = dict(zip(keys, [0.0, 1.0, 2.0]))
    fit = f2.fit_on_v(keys, vals, dict(zip(keys, [0.0, 0.0, 3.0])))
    # x = 0, 1, 2 and y = 0, 0, 3: slope 3/2, intercept 1 - 3/2, residuals 0.5, -1, 0.5 over total 6
    assert (fit.slope, fit.intercept, fit.r2, fit.n) == pytest.approx((1.5, -0.5, 0.75, 3))
    quant = {(D, e): type("Q", (), {"p0": 0.5})() for e in (1.0, 2.0, 3.0)}
    halved = f2.fit_on_v(keys, vals, dict(zip(keys, [1.0, 2.0, 3.0])), quant)  # y = x + 1 = 2 (x p_0) + 1
    assert (halved.slope, halved.intercept, halved.r2) == pytest.approx((2.0, 1.0, 1.0))


def test_all_fits_by_hand():
    vals, mean = _line_data(outlier=((L, D, 1.0), 100.0))
    quant = {pt: type("Q", (), {"p0": 0.5})() for pt in POINTS}
    fits = f2.all_fits(POINTS, quant, vals, mean, drop=(L, D, 1.0))
    assert (fits.agent[B].slope, fits.agent[B].intercept, fits.agent[B].r2) == pytest.approx((2.0, 1.0, 1.0))
    assert fits.agent[L].r2 < 0.5 and fits.agent[L].n == 6  # the outlier breaks L's line
    assert (fits.without.slope, fits.without.intercept, fits.without.n) == pytest.approx((2.0, 1.0, 5))
    assert fits.times_p0[B].slope == pytest.approx(4.0)  # V halved, slope doubled
    assert fits.agent_law[(B, G)].n == 3 and fits.pooled.n == 12 and fits.pooled_law[D].n == 6
    assert fits.pooled_law[G].r2 == pytest.approx(1.0)  # the outlier is on the discrete law


def test_all_fits_refuses_a_bad_drop():
    vals, mean = _line_data()
    with pytest.raises(ValueError, match="drop must be one key"):
        f2.all_fits(POINTS, {}, vals, mean, drop=[(L, D, 1.0)])


def test_fit_table_names_each_fit_with_its_points():
    vals, mean = _line_data()
    quant = {pt: type("Q", (), {"p0": 1.0})() for pt in POINTS}
    names = [row[0] for row in f2.fit_table(f2.all_fits(POINTS, quant, vals, mean, drop=(L, D, 2.0))).body]
    assert names[0] == f"{L}, both laws (6 points)"
    assert names[2] == f"{L}, {D} (3 points)"
    assert names[6] == "both agents pooled (12 points)"
    assert names[7] == f"{L}, both laws, V times p_0"
    assert names[-1] == f"{L} without discrete ε_min 2 (5)"


def _fake_runs():
    """Six points per agent, V = 1..6, two runs each; the mean regret is 2 V + 1 at t = 1000 (each run 1 away),
    and symmetric in V (1 at V = 1, 6, else 0: R^2 = 0) at t = 100 and 320."""
    vals, mean = _line_data()
    sym = {1.0: 1.0, 6.0: 1.0}
    res = {
        k: FakeResult({10: [0.0, 0.0], 100: [sym.get(v, 0.0)] * 2, 320: [sym.get(v, 0.0)] * 2,
                       1000: [mean[k] - 1, mean[k] + 1]})
        for k, v in vals.items()
    }  # fmt: skip
    return vals, res


def test_pooled_r2_at_and_late_r2_by_hand():
    vals, res = _fake_runs()
    assert f2.pooled_r2_at(res, vals, POINTS, 1000) == pytest.approx(1.0)
    assert f2.pooled_r2_at(res, vals, POINTS, 100) == pytest.approx(0.0, abs=1e-12)
    assert f2.late_r2(res, vals, POINTS, 1000) == pytest.approx({320: 0.0, 1000: 1.0})  # 320 >= 1000/sqrt(10)


def test_nearest_checkpoint_on_a_log_scale():
    assert f2.nearest_checkpoint([10, 100, 320, 1000], 1000 / math.sqrt(10)) == 320
    assert f2.nearest_checkpoint([10, 100, 1000], 200) == 100  # log 200 is nearer log 100 than log 1000
    with pytest.raises(ValueError, match="checkpoints must be"):
        f2.nearest_checkpoint([0, 10], 5)


def test_pooled_r2_table_by_hand():
    vals, res = _fake_runs()
    reg, mean, _ = f2.final_regrets(res)
    quant = {pt: type("Q", (), {"p0": 1.0})() for pt in POINTS}
    table = f2.pooled_r2_table(res, reg, vals, POINTS, f2.all_fits(POINTS, quant, vals, mean, drop=(L, D, 1.0)), 1000)
    assert table.head[0] == "pooled fit (both agents, 12 points unless said)"
    got = {name: r2 for name, r2 in table.body}
    assert got["pooled, read at t = 100"] == pytest.approx(0.0, abs=1e-12)
    assert got["pooled, read at t = 320"] == pytest.approx(0.0, abs=1e-12)
    assert got["pooled, read at T = 1,000 (the fit judged)"] == pytest.approx(1.0)
    # every run: residuals +-1 (sum 12) against a total 2 * 4 * 17.5 + 12 = 152 about the mean
    assert got["pooled, on every run's regret (12 × runs points)"] == pytest.approx(1 - 12 / 152)
    assert got[f"pooled, {G} only (6 points)"] == pytest.approx(1.0)


def test_bootstrap_fit_on_exact_lines():
    vals, mean = _line_data()
    reg = {k: np.array([m, m, m]) for k, m in mean.items()}  # every run on the line: no spread to resample
    pooled, own = f2.bootstrap_fit(vals, reg, POINTS), f2.bootstrap_fit(vals, reg, POINTS, [B])
    assert (pooled.fit.slope, pooled.fit.intercept, pooled.fit.n, own.fit.n) == pytest.approx((2.0, 1.0, 12, 6))
    assert own.se == pytest.approx({"slope": 0.0, "intercept": 0.0, "r2": 0.0}, abs=1e-9)


def test_grid_words():
    assert f2.grid_words({D: [1, 2, 3, 4], G: [1, 2, 3, 4]}) == "2 laws x 4 eps_min"
    assert f2.grid_words({D: [1, 2, 3], G: [1, 2, 3, 4, 5]}) == "2 laws, 3 + 5 eps_min"
    with pytest.raises(TypeError, match="grids must be a non-empty dict"):
        f2.grid_words([[1, 2, 3]])


def test_figure_draws_one_panel_per_agent():
    vals, mean = _line_data()
    se = {k: 0.5 for k in vals}
    quant = {pt: type("Q", (), {"p0": 1.0})() for pt in POINTS}
    fits = f2.all_fits(POINTS, quant, vals, mean, drop=(L, D, 1.0))
    fig = f2.figure(POINTS, vals, mean, se, fits, horizon=10**6, runs=50, z=2)
    try:
        left, right = fig.axes
        assert left.get_title().startswith(f"{L}: R(T) against $V_L$") and "50 runs" in left.get_title()
        assert right.get_xlabel() == "$V_B$" and left.get_ylabel() == "pseudo-regret R(T)"
        assert [t.get_text() for t in left.texts] == ["d 1", "d 2", "d 3", "g 1", "g 2", "g 3"]
        labels = left.get_legend_handles_labels()[1]
        assert f"{L}, mean ± 2 se" in labels and any(s.startswith("fit R = 2 V + 1") for s in labels)
    finally:
        plt.close(fig)
