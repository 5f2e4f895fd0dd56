"""ldpcode.contextual.table1: the caps a contextual regret is read against, and the claims of Table 1's contextual
rows built from horizon sweeps (hand-computed values)."""

import math
from types import SimpleNamespace

import numpy as np
import pytest

from ldpcode.book import Notebook
from ldpcode.contextual import (
    HorizonSweep,
    epsilon_exponent_room,
    make_contextual_instance,
    sweep_table,
    table1_claims,
    worst_arm_regret,
)


class _ThreeArms:
    """Every round the same three contexts, whose means under theta are 0.5, -0.25 and 0.1."""

    theta = np.array([1.0, 0.0])

    def mean(self, z):
        return np.asarray(z, dtype=float)

    def draw_contexts(self, rng, m):
        x = np.zeros((m, 3, 2))
        x[:, :, 0] = [0.5, -0.25, 0.1]
        return x


def test_worst_arm_regret_is_the_mean_gap_between_the_best_and_the_worst_arm():
    assert worst_arm_regret(_ThreeArms(), 10) == pytest.approx(0.75, abs=1e-15)
    same = make_contextual_instance(3, 4, contexts="identical", seed=1)
    assert worst_arm_regret(same, 1000, seed=2) == 0.0  # K copies of one context: no arm is worse
    ball = make_contextual_instance(3, 4, seed=1)
    assert 0 < worst_arm_regret(ball, 1000, seed=2) <= 2.0  # |x.theta| <= 1 on the unit ball


def test_epsilon_exponent_room_is_the_exponent_that_reaches_the_cap():
    # cap 1 per round over T = 100 rounds, R = 10 at eps = 10: room for 10x over a 10x range of eps, exponent 1;
    # cap 0.5 x 1000 = 500, R = 50 at eps = 100: room for 10x over a 100x range, exponent 1/2
    assert epsilon_exponent_room(1.0, 100, [80.0, 10.0], [1.0, 10.0]) == pytest.approx(1.0, rel=1e-15)
    assert epsilon_exponent_room(0.5, 1000, [400.0, 90.0, 50.0], [1.0, 10.0, 100.0]) == pytest.approx(0.5, rel=1e-15)
    # any order: the largest eps and its regret are found, not read off the end of the list (a reader's [100, 10, 1]
    # once gave a negative room)
    assert epsilon_exponent_room(0.5, 1000, [50.0, 90.0, 400.0], [100.0, 10.0, 1.0]) == pytest.approx(0.5, rel=1e-15)
    assert epsilon_exponent_room(0.5, 1000, [400.0, 0.0], [1.0, 10.0]) == math.inf  # no regret left: no cap
    with pytest.raises(ValueError, match="two different values"):
        epsilon_exponent_room(0.5, 1000, [1.0, 2.0], [3.0, 3.0])
    with pytest.raises(ValueError, match="one mean regret per epsilon"):
        epsilon_exponent_room(0.5, 1000, [1.0], [1.0, 3.0])


def _sweep(epsilon, mean_curve):
    hs = np.array([1000, 2000, 4000, 8000])
    final = np.stack([np.array(mean_curve) * 0.9, np.array(mean_curve) * 1.1])  # 2 runs, mean = mean_curve
    fit = SimpleNamespace(slope=0.85, se=0.01)
    return HorizonSweep("ldp-linucb", epsilon, hs, final, fit, curve=None)


def _build():
    kinked = [1.0, 2.0, 4.0, 4.0 * math.sqrt(2.0)]  # slope 1 on [1e3, 4e3], 0.75 on [2e3, 8e3], 0.85 on all
    sweeps = {"LinUCB": _sweep(None, kinked), "eps = 1": _sweep(1.0, kinked), "eps = 10": _sweep(10.0, kinked)}
    nb = Notebook("chapters/zheng2020/theorems7_8_linear.ipynb", {}, "zheng2020.theorems7_8_linear")
    reasons = {"nonprivate": "why np", "private": "why p", "eps": "why eps"}
    table1_claims(nb, sweeps, SimpleNamespace(slope=-0.4, se=0.02), row="Contextual Linear Bandits",
                  theorem="Theorem 8", reference="Abbasi-Yadkori et al. 2011",
                  statement="zheng2020locally.table1.linear_contextual", learners=("non-private LinUCB", "LDP LinUCB"),
                  delta=0.01, reasons=reasons)  # fmt: skip
    return {c.id.removeprefix("zheng2020.theorems7_8_linear."): c for c in nb.claims}


def test_table1_claims_judges_the_nonprivate_learner_and_the_smallest_epsilon_only():
    claims = _build()
    assert list(claims) == [
        "exponent_nonprivate",
        "regret_T8000_nonprivate",
        "exponent_eps1",
        "regret_T8000_eps1",
        "exponent_eps10",
        "regret_T8000_eps10",
        "eps_exponent",
    ]
    kinds = [c.kind for c in claims.values()]
    assert kinds == ["statistical", "reproducible", "statistical", "reproducible"] + ["reproducible"] * 2 + [
        "statistical"
    ]
    assert claims["exponent_nonprivate"].paper == 0.5 and claims["exponent_eps1"].paper == 0.75
    assert claims["exponent_nonprivate"].source == (
        "Table 1, Contextual Linear Bandits row: exponent of T in the best non-private regret O~(T^1/2) "
        "(Abbasi-Yadkori et al. 2011)"
    )
    assert claims["exponent_eps1"].source == (
        "Theorem 8 / Table 1, Contextual Linear Bandits row: exponent of T in the private regret O~(T^3/4/ε)"
    )
    assert claims["exponent_eps1"].reason == "why p" and claims["eps_exponent"].reason == "why eps"
    assert claims["exponent_eps10"].source == "LDP LinUCB, ε = 10, δ = 0.01: exponent of T in the regret"


def test_table1_claims_systematic_is_the_largest_change_of_the_slope_over_the_windows():
    c = _build()["exponent_eps1"]
    # windows of >= 3 consecutive horizons: [1e3, 4e3] slope 1, [1e3, 8e3] 0.85, [2e3, 8e3] 0.75; reference 0.85
    assert c.systematic == pytest.approx(0.15, abs=1e-12)
    assert "(slopes 1.000 on [1000, 4000], 0.850 on [1000, 8000], 0.750 on [2000, 8000])" in c.systematic_how
    assert (
        c.systematic_how.endswith(f"((ln T)^k would add {1 / math.log(1000):.3f} k)") and "0.145 k" in c.systematic_how
    )
    assert c.reproduced == 0.85 and c.se == 0.01 and c.runs == 2 and c.horizon == 8000
    assert c.note == (
        "LDP LinUCB, ε = 1, δ = 0.01; slope of log mean regret on log T, T in [1000, 2000, 4000, 8000], 2 runs per T, "
        "bootstrap se"
    )


def test_table1_claims_regret_at_T_and_the_epsilon_exponent():
    claims = _build()
    r = claims["regret_T8000_nonprivate"]
    last = 4.0 * math.sqrt(2.0)
    assert r.reproduced == pytest.approx(last)
    assert r.se == pytest.approx(np.std([0.9 * last, 1.1 * last], ddof=1) / math.sqrt(2))  # 0.1 * last
    e = claims["eps_exponent"]
    assert e.reproduced == 0.4 and e.se == 0.02 and e.paper == 1.0 and e.sense == "<="
    assert e.note == "minus the slope of log mean regret at T on log ε, ε in [1.0, 10.0], 2 runs, bootstrap se"


def test_sweep_table_gives_each_sweep_its_regret_exponent_and_table1s_exponent():
    """One row per sweep: the mean regret at the largest T ± 1.96 se, the exponent of T with its interval, and Table
    1's exponent by privacy (1/2 without, 3/4 with), in an HTML table rather than a printed line too wide to read."""
    fit = SimpleNamespace(slope=0.85, se=0.01, ci_low=0.8312, ci_high=0.8734)
    hs = np.array([1000, 2000])
    sweeps = {
        "LinUCB": HorizonSweep("linucb", None, hs, np.array([[10.0, 30.0], [10.0, 50.0]]), fit, curve=None),
        "LDP LinUCB, ε = 1": HorizonSweep("ldp-linucb", 1.0, hs, np.array([[5.0, 8000.0], [5.0, 9000.0]]), fit, None),
    }
    table = sweep_table(sweeps)
    se = 1.96 * 1000.0 / math.sqrt(2) / math.sqrt(2)  # sd of (8000, 9000) over sqrt(2 runs)
    assert table._cells() == [
        ["LinUCB", "40 ± 20", "0.850", "[0.831, 0.873]", "0.5"],
        ["LDP LinUCB, ε = 1", f"8,500 ± {se:,.0f}", "0.850", "[0.831, 0.873]", "0.75"],
    ]
