"""ldpcode.bounds.table2.table2_cells: one row of Table 2 of Azize and Basu (2022) beside its theorems, checked
against values worked out by hand (the formulas written out here, not the module's)."""

import math

import pytest

from ldpcode.bounds.table2 import table2_cells

T, K, D = 10**6, 100, 4
MEANS = [0.75, 0.625, 0.5, 0.375, 0.25]  # gaps 0.125, 0.25, 0.375, 0.5
THETA = [1.0, 0.8, 0.5, 0.2]  # basis gaps 0.2, 0.5, 0.8
LOG_T = math.log(T)


def _row(eps, sigma=1.0, rho=1.0):
    return table2_cells(T, K, D, eps, MEANS, MEANS, sigma, THETA, rho)


def test_the_stochastic_minimax_cell_is_eq_3_and_says_which_term_wins():
    high = _row(0.001)
    assert high["sm_table"] == pytest.approx(99 / (131 * 0.001), rel=1e-12)  # 755.73: the private term
    assert high["sm_thm"] == pytest.approx(high["sm_table"], rel=1e-12)
    assert high["sm_private"] is True
    low = _row(1.0)
    assert low["sm_table"] == pytest.approx(math.sqrt(99e6) / 27, rel=1e-12)  # 368.51
    assert low["sm_private"] is False
    assert low["eps"] == 1.0


def test_the_bernoulli_cell_is_theorem_3_in_both_regimes():
    # eps = 0.001: every arm private, sum Delta log T / (6 eps Delta) = 4 log T / 0.006
    high = _row(0.001)
    assert high["pb_table"] == pytest.approx(4 * LOG_T / 0.006, rel=1e-12)
    assert high["pb_thm"] == pytest.approx(high["pb_table"], rel=1e-12)
    # eps = 1: every arm in the KL regime, sum Delta log T / d(mu_a, 0.75) with d the Bernoulli KL
    kl = lambda p, q: p * math.log(p / q) + (1 - p) * math.log((1 - p) / (1 - q))  # noqa: E731
    lai = sum((0.75 - m) / kl(m, 0.75) for m in MEANS[1:]) * LOG_T
    low = _row(1.0)
    assert low["pb_table"] == pytest.approx(lai, rel=1e-12)
    assert low["pb_thm"] == pytest.approx(lai, rel=1e-12)


def test_the_gaussian_cell_writes_delta_where_theorem_3_has_t_inf():
    high = _row(0.001)
    assert high["pg_table"] == pytest.approx(4 * LOG_T / 0.006, rel=1e-12)  # 9210.3, as for Bernoulli arms
    # Theorem 3: t_inf = 2 Phi(Delta / 2 sigma) - 1 = erf(Delta / (2 sqrt 2)) at sigma = 1
    thm = sum(g * LOG_T / (6 * 0.001 * math.erf(g / (2 * math.sqrt(2)))) for g in (0.125, 0.25, 0.375, 0.5))
    assert high["pg_thm"] == pytest.approx(thm, rel=1e-9)
    assert high["pg_thm"] / high["pg_table"] == pytest.approx(2.5189, abs=1e-4)  # the notebook's printed ratio
    low = _row(1.0)  # KL regime: d = Delta^2 / 2, both are sum 2 log T / Delta
    assert low["pg_table"] == pytest.approx(2 * LOG_T * (8 + 4 + 8 / 3 + 2), rel=1e-12)
    assert low["pg_thm"] == pytest.approx(low["pg_table"], rel=1e-12)


def test_the_linear_cells_are_theorems_4_and_5_on_the_basis():
    low = _row(1.0)
    assert low["lm_table"] == pytest.approx(math.exp(-2) / 8 * D * 1000, rel=1e-12)  # 67.668
    assert low["lm_thm"] == pytest.approx(low["lm_table"], rel=1e-12)
    # sum over the basis of 1 / min(Delta / 2, 3 eps rho): 1/0.1 + 1/0.25 + 1/0.4 = 16.5
    assert low["lp_table"] == pytest.approx(16.5 * LOG_T, rel=1e-12)
    assert low["lp_thm"] == pytest.approx(low["lp_table"], rel=1e-7)
    # eps rho = 0.01: every constraint private, 3 / (3 * 0.01) per arm; rho enters as eps * rho
    private = _row(0.05, rho=0.2)
    assert private["lp_table"] == pytest.approx(3 * LOG_T / 0.03, rel=1e-12)
    assert private["lp_thm"] == pytest.approx(private["lp_table"], rel=1e-7)


def test_bad_arguments_are_refused_by_name():
    with pytest.raises(ValueError, match="horizon"):
        table2_cells(0, K, D, 1.0, MEANS, MEANS, 1.0, THETA)
    with pytest.raises(ValueError, match="epsilon"):
        table2_cells(T, K, D, -1.0, MEANS, MEANS, 1.0, THETA)
    with pytest.raises(ValueError):
        table2_cells(T, K, D, 1.0, [0.5, 0.5], MEANS, 1.0, THETA)  # no suboptimal arm
