"""ldpcode.bco.table1: Table 1's BCO rows as claims of the learners' runs, and the O(log T) test (hand-computed
values)."""

import math
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from ldpcode.bco import ONE_POINT_ROWS, log_increment_ratio, one_point_eps_claim, one_point_exponent_claims
from ldpcode.book import Notebook

PREFIX = "zheng2020.corollary4_one_point_bco"


def _nb():
    return Notebook("chapters/zheng2020/corollary4_one_point_bco.ipynb", {}, PREFIX)


def _claims(nb):
    return {c.id.removeprefix(PREFIX + "."): c for c in nb.claims}


def _power_law(exponent, horizon=10_000):
    """Two runs whose mean regret is exactly t**exponent at 41 log-spaced checkpoints."""
    cp = np.unique(np.geomspace(1, horizon, 41).astype(np.int64))
    curve = cp.astype(float) ** exponent
    return SimpleNamespace(horizon=horizon, checkpoints=cp, regret=np.stack([0.5 * curve, 1.5 * curve]))


def test_the_rows_state_exact_fractions():
    assert [r.exponent for r in ONE_POINT_ROWS.values()] == [3 / 4, 2 / 3, 2 / 3, 1 / 2]
    for row in ONE_POINT_ROWS.values():
        assert Fraction(row.fraction) == Fraction(row.exponent).limit_denominator(10)


def test_a_row_is_judged_late_with_the_window_spread_as_systematic():
    nb = _nb()
    result = _power_law(0.7)  # the slope is 0.7 from every window start; the judged late fit says 0.75
    one_point_exponent_claims(nb, "linear", "GD", 1.0, SimpleNamespace(slope=0.8, se=0.01),
                              SimpleNamespace(slope=0.75, se=0.02), result, t_min=10, t_min_late=1000,
                              delta=1e-5, reason="why")  # fmt: skip
    c = _claims(nb)
    assert list(c) == ["exponent_linear_private", "exponent_linear_private_late"]
    full, late = c["exponent_linear_private"], c["exponent_linear_private_late"]
    assert full.kind == "reproducible" and full.reproduced == 0.8 and full.horizon == 10_000
    assert full.source == "one-point BCO, GD, ε = 1, δ = 10⁻⁵: log-log slope of the regret on t in [10, 10000]"
    assert full.note == "2 runs, bootstrap se"
    assert late.kind == "statistical" and late.paper == 0.75 and late.sense == "<=" and late.runs == 2
    assert late.source == "Table 1, Convex row: exponent of T in the private regret O~(T^3/4/ε)"
    assert late.statement == "zheng2020locally.table1.convex.private" and late.reason == "why"
    assert late.systematic == pytest.approx(0.05, abs=1e-9)  # |0.7 - 0.75| from every start
    assert "(slopes 0.700 from 10², 0.700 from 3.2·10², 0.700 from 3.2·10³)" in late.systematic_how
    assert late.systematic_how.startswith("fit window: the largest change of the slope when the window's start 1000 ")
    assert late.systematic_how.endswith(f"((ln T)^k would add {1 / math.log(1000):.3f} k)")
    assert late.note == "GD, ε = 1, δ = 10⁻⁵; log-log slope on t in [1000, 10000], 2 runs, bootstrap se"


def test_the_nonprivate_source_names_the_learner_that_attains_the_row():
    nb = _nb()
    fit = SimpleNamespace(slope=0.5, se=0.01)
    one_point_exponent_claims(nb, "sc_smooth", "HL", None, fit, fit, _power_law(0.5), t_min=10, t_min_late=1000,
                              delta=1e-5, reason="r")  # fmt: skip
    late = _claims(nb)["exponent_sc_smooth_nonprivate_late"]
    assert late.source == (
        "Table 1, S.C + Smooth row: exponent of T in the best non-private regret O~(T^1/2) (Hazan and Levy 2014)"
    )
    assert late.statement == "zheng2020locally.table1.sc_smooth.nonprivate" and late.paper == 0.5
    assert late.systematic == pytest.approx(0.0, abs=1e-9)


def test_a_setting_that_is_no_row_is_measured_not_judged():
    nb = _nb()
    fit = SimpleNamespace(slope=0.6, se=0.01)
    one_point_exponent_claims(nb, "stochastic", "HL", None, fit, fit, _power_law(0.6), t_min=10, t_min_late=1000,
                              delta=1e-5)  # fmt: skip
    one_point_eps_claim(nb, "stochastic", "HL", SimpleNamespace(slope=0.3, se=0.01), horizon=1000, runs=8,
                        epsilons=[0.5, 1.0])  # fmt: skip
    c = _claims(nb)
    assert [x.kind for x in c.values()] == ["reproducible"] * 3
    assert c["exponent_stochastic_nonprivate_late"].source == (
        "one-point BCO, HL: log-log slope of the regret on t in [1000, 10000]"
    )
    assert c["eps_exponent_stochastic"].source == "one-point BCO, HL: exponent of 1/ε in the regret ratio"


def test_the_epsilon_exponent_of_a_row_is_judged_against_one():
    nb = _nb()
    one_point_eps_claim(nb, "quadratic", "GD", SimpleNamespace(slope=0.4, se=0.02), horizon=10**5, runs=8,
                        epsilons=[0.5, 1.0, 2.0], reason="capped")  # fmt: skip
    e = _claims(nb)["eps_exponent_quadratic"]
    assert e.kind == "statistical" and e.paper == 1.0 and e.sense == "<=" and e.reproduced == 0.4
    assert e.source == "Table 1, S.C row: exponent of 1/ε in the private regret"
    assert e.statement == "zheng2020locally.table1.strongly_convex.private" and e.runs == 8 and e.horizon == 10**5
    assert e.note == (
        "GD; slope of log(private / non-private regret) on log(1/ε), ε in [0.5, 1.0, 2.0], 8 paired runs, bootstrap se"
    )


def _curves(f):
    cp = np.array([1, 10, 100, 1000, 10_000])
    return SimpleNamespace(horizon=10_000, checkpoints=cp, regret=np.stack([c * f(cp.astype(float)) for c in (1, 3)]))


def test_log_increment_ratio_is_one_for_a_plus_b_log_t():
    # t0 = 100 (first checkpoint >= t_min), t2 = T = 1e4, t1 = 1e3 (the checkpoint nearest sqrt(t0 T) in log t)
    g = log_increment_ratio(_curves(lambda t: 5.0 + 2.0 * np.log(t)), 100)
    assert g.windows == (100, 1000, 10_000)
    assert g.ratio == pytest.approx(1.0, rel=1e-12)
    g_offset = log_increment_ratio(_curves(lambda t: -50.0 + 2.0 * np.log(t)), 100)  # whatever the offset a
    assert g_offset.ratio == pytest.approx(1.0, rel=1e-12)


def test_log_increment_ratio_of_a_linear_regret():
    g = log_increment_ratio(_curves(lambda t: t), 100)
    # slopes per unit log t: (1e4 - 1e3)/ln 10 over (1e3 - 1e2)/ln 10 = 9000 / 900
    assert g.ratio == pytest.approx(10.0, rel=1e-12)
    h = log_increment_ratio(_curves(lambda t: t), 10)  # t0 = 10, and sqrt(10 x 1e4) = 316 is as far from 100 as
    assert h.windows == (10, 100, 10_000)  # from 1000 in log t: the first, 100, is taken
    assert h.ratio == pytest.approx(math.log(10) / math.log(100) * 9900 / 90, rel=1e-12)  # 55
    assert g.se == pytest.approx(0.0, abs=1e-9)  # the runs are proportional: every run gives the same ratio
    ratio, se, (t0, t1, t2) = g  # unpacks as the notebook reads it
    assert (ratio, t0, t1, t2) == (g.ratio, 100, 1000, 10_000)
