"""Theorem 1 of Azize and Basu (2022), the Laplace mechanism on vectors (ldpcode.audit.laplace), and their
Table 2 transcribed (ldpcode.bounds.table2)."""

import math

import numpy as np
import pytest
from scipy.stats import norm

from ldpcode import audit, bounds
from ldpcode.divergences import d_inf_bernoulli, d_inf_gaussian


def test_the_loss_is_the_l1_distance_over_the_scale_by_closed_form_and_by_grid():
    f, g = [0.1, -2.0, 3.0], [0.4, -1.0, 3.0]
    for b in (0.3, 1.0, 4.0):
        closed = audit.laplace_privacy_loss(f, g, b)
        assert closed == pytest.approx(1.3 / b, rel=1e-12)
        assert audit.laplace_privacy_loss_grid(f, g, b, points=101) == pytest.approx(closed, rel=1e-12)


def test_the_log_density_ratio_matches_the_product_of_laplace_densities_and_is_attained_on_an_orthant():
    rng = np.random.default_rng(0)
    f, g, b = np.array([0.2, 0.7]), np.array([0.5, 0.1]), 0.8
    x = rng.normal(size=(50, 2))
    dens = lambda m: np.prod(np.exp(-np.abs(x - m) / b) / (2 * b), axis=1)  # noqa: E731
    assert np.allclose(audit.laplace_log_density_ratio(x, f, g, b), np.log(dens(f) / dens(g)))
    corner = np.array([[0.2 - 5, 0.7 + 5]])  # beyond f on the side away from g, both coordinates
    assert audit.laplace_log_density_ratio(corner, f, g, b)[0] == pytest.approx(0.9 / b)


def test_the_audit_passes_the_theorems_scale_and_refutes_half_of_it():
    f, g = [0.25, 0.5], [0.75, 0.5]
    ok = audit.laplace_mechanism_audit(f, g, 0.5, 200_000, np.random.default_rng(1), claimed=1.0)
    bad = audit.laplace_mechanism_audit(f, g, 0.25, 200_000, np.random.default_rng(2), claimed=1.0)
    assert not ok.refuted and ok.binned.max_lower > 0.9
    assert bad.refuted and bad.exact == pytest.approx(2.0)
    # the atom at +loss has probability 1/2 (one coordinate differs) under f
    assert ok.binned.counts_a[-1] / 200_000 == pytest.approx(0.5, abs=0.01)


@pytest.mark.parametrize(
    "call",
    [
        lambda: audit.laplace_privacy_loss([0, 1], [0], 1.0),
        lambda: audit.laplace_privacy_loss([0], [1], 0.0),
        lambda: audit.laplace_privacy_loss_grid([0], [1], 1.0, points=2),
        lambda: audit.laplace_mechanism_audit([0.5], [0.5], 1.0, 1000, np.random.default_rng(0), claimed=1.0),
        lambda: audit.laplace_mechanism_audit([0], [1], 1.0, 1000, np.random.default_rng(0), claimed=-1.0),
        lambda: bounds.table2_stochastic_problem_dependent([0.1, 0.2], [0.1], 100, 1.0),
        lambda: bounds.linear_c_epsilon_basis([0.0, 0.2], 1.0),
    ],
)
def test_bad_inputs_are_refused_by_name(call):
    with pytest.raises(ValueError):
        call()


def test_the_minimax_cells_are_theorems_2_and_4():
    for eps in (1e-4, 0.01, 1.0):
        assert bounds.table2_stochastic_minimax(10**6, 100, eps) == pytest.approx(
            bounds.gdp_minimax_lower_bound(10**6, 100, eps), rel=1e-15
        )
        assert bounds.table2_linear_minimax(10**4, 3, eps) == pytest.approx(
            bounds.linear_minimax_lower_bound(10**4, 3, eps), rel=1e-15
        )


def test_the_problem_dependent_cell_is_theorem_3_for_bernoulli_arms_only():
    means = np.array([0.8, 0.6, 0.3])
    gaps, sub = 0.8 - means[1:], means[1:]
    for eps in (0.01, 0.1, 10.0):
        cell = bounds.table2_stochastic_problem_dependent(gaps, d_inf_bernoulli(sub, 0.8), 1000, eps)
        assert cell == pytest.approx(bounds.gdp_lower_bound_constant(means, eps) * math.log(1000), rel=1e-12)
    eps = 1e-4  # every Gaussian arm private: the ratio is the mean of Delta / t_inf
    cell = bounds.table2_stochastic_problem_dependent(gaps, d_inf_gaussian(sub, 0.8), 1000, eps)
    thm = bounds.gdp_lower_bound_constant(means, eps, family="gaussian") * math.log(1000)
    assert thm / cell == pytest.approx(np.mean(gaps / (2 * norm.cdf(gaps / 2) - 1)), rel=1e-10)


@pytest.mark.parametrize("eps", [1e-3, 0.05, 1.0, 100.0])
def test_the_basis_closed_form_matches_the_interior_point_solution(eps):
    theta = np.array([0.3, 1.0, 0.1, 0.7])
    res = bounds.linear_c_epsilon(np.eye(4), theta, eps, rho=2.0)
    assert bounds.linear_c_epsilon_basis([0.7, 0.9, 0.3], eps, rho=2.0) == pytest.approx(res.value, rel=1e-7)
