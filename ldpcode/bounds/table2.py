r"""Azize and Basu (2022), Table 2 ("Regret lower bounds for bandits with ε-global DP"), transcribed as printed.

Each function writes one cell of the table literally, so that a notebook can set it beside the theorem it
summarises (Theorems 2 to 5, :mod:`~ldpcode.bounds.azize2022` and :mod:`~ldpcode.bounds.linear`) and see where
they differ. The table states its problem-dependent cells as bounds on the regret, :math:`\log T` times the
theorems' asymptotic constants (the theorems bound :math:`\liminf_T \mathrm{Reg}_T/\log T`).

* :func:`table2_stochastic_minimax`, :func:`table2_linear_minimax`: the minimax cells (as eqs. (3) and (5));
* :func:`table2_stochastic_problem_dependent`: :math:`\sum_{a:\Delta_a>0}\Delta_a\log T/\min(d_a, 6\epsilon\Delta_a)`,
  where Theorem 3 has :math:`6\epsilon\, t_{\inf}` in place of :math:`6\epsilon\Delta_a`;
* :func:`linear_c_epsilon_basis`: the linear cell's program in closed form when the actions are the standard
  basis of :math:`\mathbb R^d` (a second computation of :func:`~ldpcode.bounds.linear.linear_c_epsilon`);
* :func:`table2_cells`: one row of the comparison, every cell at one ε beside its theorem on given instances.
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import as_float_array, check_epsilon, one_line
from ..divergences import d_inf_bernoulli, d_inf_gaussian
from ._common import _check_count, _check_horizon
from .azize2022 import gdp_lower_bound_constant, gdp_minimax_lower_bound
from .linear import linear_c_epsilon, linear_minimax_lower_bound


def table2_stochastic_minimax(horizon, n_arms, epsilon) -> float:
    r"""Table 2, stochastic multi-armed bandit, minimax: :math:`\max(\frac1{27}\sqrt{T(K-1)}, \frac1{131}\frac{K-1}\epsilon)`,
    for :math:`T \ge K - 1` as Theorem 2 (a horizon below it is refused, as by
    :func:`~ldpcode.bounds.azize2022.gdp_minimax_lower_bound`)."""
    k = _check_count("n_arms", n_arms, minimum=2)
    t = _check_horizon(horizon, minimum=max(1, k - 1))
    eps = check_epsilon(epsilon)
    return max(math.sqrt(t * (k - 1)) / 27.0, (k - 1) / eps / 131.0)


def table2_linear_minimax(horizon, dim, epsilon) -> float:
    r"""Table 2, stochastic linear bandit, minimax: :math:`\max(\frac{\exp(-2)}8 d\sqrt T, \frac{\exp(-6)}4\frac d\epsilon)`."""
    t = _check_horizon(horizon, minimum=1)
    d = _check_count("dim", dim, minimum=1)
    eps = check_epsilon(epsilon)
    return max(math.exp(-2) / 8.0 * d * math.sqrt(t), math.exp(-6) / 4.0 * d / eps)


def _positive_vector(name, values) -> np.ndarray:
    """A number or a 1-d sequence of finite numbers > 0, as a 1-d array (a 2-d one was flattened silently)."""
    x = as_float_array(name, values, bools=False)
    if x.ndim > 1:
        raise ValueError(f"{name} must be a non-empty 1-d vector of finite numbers > 0, got shape {x.shape}")
    x = x.reshape(-1)
    if x.size == 0 or not (np.isfinite(x).all() and (x > 0).all()):
        raise ValueError(f"{name} must be a non-empty 1-d vector of finite numbers > 0, got {one_line(values)}")
    return x


def table2_stochastic_problem_dependent(gaps, d, horizon, epsilon) -> float:
    r"""Table 2, stochastic multi-armed bandit, problem dependent, as printed:
    :math:`\sum_{a:\Delta_a>0}\frac{\Delta_a\log T}{\min(d_a, 6\epsilon\Delta_a)}`.

    ``gaps`` are the :math:`\Delta_a > 0` of the suboptimal arms and ``d`` their :math:`d_a` (Theorem 3's
    :math:`d_{\inf}(P_a, \mu^*, \mathcal M_a)`), one per arm. The table writes :math:`\Delta_a` where Theorem 3
    writes the TV-distinguishability gap :math:`t_{\inf}`; the two agree for Bernoulli arms only (Theorem 3,
    consequence 2)."""
    g = _positive_vector("gaps", gaps)
    dd = _positive_vector("d", d)
    if g.shape != dd.shape:
        raise ValueError(f"gaps and d must have one entry per suboptimal arm, got {g.size} and {dd.size}")
    log_t = math.log(_check_horizon(horizon, minimum=1))
    eps = check_epsilon(epsilon)
    return float(np.sum(g * log_t / np.minimum(dd, 6.0 * eps * g)))


def linear_c_epsilon_basis(gaps, epsilon, rho=1.0) -> float:
    r"""Theorem 5's :math:`c_\epsilon(\mathcal A, \theta)` (Table 2, linear, problem dependent, divided by
    :math:`\log T`) when :math:`\mathcal A = \{e_1, \dots, e_d\}` is the standard basis, in closed form.

    Then :math:`H_\alpha = \mathrm{diag}(\alpha)` and :math:`\|e_a\|^2_{H_\alpha^{-1}} = 1/\alpha(a)`; the
    optimal action takes :math:`\alpha = \infty` at no cost, and each other action's constraint
    :math:`1/\alpha(a) \le \Delta_a\min(\Delta_a/2, 3\epsilon\rho)` (the table's form; Theorem 5's
    :math:`\min(\Delta_a^2/2, 3\epsilon\rho\Delta_a)` is the same number) is tight at the optimum, so

    .. math:: c_\epsilon = \sum_{a\ne a^*}\frac{\Delta_a}{\Delta_a\min(\Delta_a/2, 3\epsilon\rho)}
              = \sum_{a\ne a^*}\frac1{\min(\Delta_a/2, 3\epsilon\rho)}.

    ``gaps``: the :math:`\Delta_a = \theta_{a^*} - \theta_a > 0` of the d - 1 suboptimal actions; ``rho`` the
    undefined structure constant :math:`\rho(\mathcal A)`, one number (as in
    :func:`~ldpcode.bounds.linear.linear_c_epsilon`). Where the product :math:`\Delta_a\min(\cdot)` is subnormal or
    0 (gaps below about 1e-154), the term is the simplified :math:`1/\min(\Delta_a/2, 3\epsilon\rho)` (2e160 at a
    gap of 1e-160, where the table's form gave 2.000022e160, and 2e162 at 1e-162, where it gave inf); elsewhere the
    table's form, as it always was."""
    g = _positive_vector("gaps", gaps)
    eps = check_epsilon(epsilon)
    rho = check_epsilon(rho, "rho", floor=0.0)
    m = np.minimum(g / 2.0, 3.0 * eps * rho)
    with np.errstate(divide="ignore", over="ignore"):  # 1/m is inf only where the term itself is beyond a double
        terms = np.where(g * m >= np.finfo(float).tiny, g / (g * m), 1.0 / m)
    return float(np.sum(terms))


def table2_cells(horizon, n_arms, dim, epsilon, bernoulli_means, gaussian_means, sigma, theta, rho=1.0) -> dict:
    r"""Every cell of Table 2 at one ε, each beside the theorem it summarises, on the instances given: a dict
    with ``eps`` and, per cell, ``<cell>_table`` (the cell as printed) and ``<cell>_thm`` (the theorem; the
    problem-dependent ones times :math:`\log T`, as the table states them):

    * ``sm``, stochastic minimax (``horizon`` T, ``n_arms`` K): :func:`table2_stochastic_minimax` against
      Theorem 2, eq. (3), :math:`\max(\frac1{27}\sqrt{T(K-1)}, \frac{K-1}{131\epsilon})`
      (:func:`~ldpcode.bounds.azize2022.gdp_minimax_lower_bound`); ``sm_private`` says whether the private term
      :math:`\frac{K-1}{131\epsilon}` is the larger;
    * ``pb``, stochastic problem dependent on Bernoulli arms of means ``bernoulli_means``:
      :math:`\sum_a\Delta_a\log T/\min(d_a, 6\epsilon\Delta_a)` with :math:`d_a = d(\mu_a, \mu^*)`
      (:func:`table2_stochastic_problem_dependent`) against Theorem 3, eq. (4),
      :math:`\sum_a\Delta_a/\min(d_{\inf}, 6\epsilon t_{\inf})` times :math:`\log T`
      (:func:`~ldpcode.bounds.azize2022.gdp_lower_bound_constant`): equal, since :math:`t_{\inf} = \Delta_a`;
    * ``pg``, the same for Gaussian arms of means ``gaussian_means`` and known standard deviation ``sigma``
      (:math:`d_a = \Delta_a^2/(2\sigma^2)`), where Theorem 3's :math:`t_{\inf} = 2\Phi(\Delta_a/2\sigma) - 1`
      is below :math:`\Delta_a`, so the theorem exceeds the cell in the high-privacy regime;
    * ``lm``, linear minimax in dimension ``dim``: :func:`table2_linear_minimax` against Theorem 4, eq. (5)
      (:func:`~ldpcode.bounds.linear.linear_minimax_lower_bound`);
    * ``lp``, linear problem dependent, actions the standard basis of :math:`\mathbb R^d` and parameter ``theta``:
      the closed form :func:`linear_c_epsilon_basis` against Theorem 5's program, eq. (6), solved by
      :func:`~ldpcode.bounds.linear.linear_c_epsilon`, both times :math:`\log T`; ``rho`` is the theorem's
      undefined :math:`\rho(\mathcal A)`.

    The gaps are taken from the means (:math:`\Delta_a = \mu^* - \mu_a` over the suboptimal arms)."""
    log_t = math.log(_check_horizon(horizon, minimum=1))
    eps = check_epsilon(epsilon)
    bern = np.array(bernoulli_means, dtype=float)
    b_sub = bern[bern < bern.max()]
    gauss = np.array(gaussian_means, dtype=float)
    g_sub = gauss[gauss < gauss.max()]
    th = np.array(theta, dtype=float)
    t_gaps = th.max() - np.delete(th, int(np.argmax(th)))
    return dict(
        eps=eps,
        sm_table=table2_stochastic_minimax(horizon, n_arms, eps),
        sm_thm=gdp_minimax_lower_bound(horizon, n_arms, eps),
        sm_private=(n_arms - 1) / (131 * eps) > math.sqrt(horizon * (n_arms - 1)) / 27,
        pb_table=table2_stochastic_problem_dependent(
            bern.max() - b_sub, np.atleast_1d(d_inf_bernoulli(b_sub, bern.max())), horizon, eps
        ),
        pb_thm=gdp_lower_bound_constant(bern, eps) * log_t,
        pg_table=table2_stochastic_problem_dependent(
            gauss.max() - g_sub, np.atleast_1d(d_inf_gaussian(g_sub, gauss.max(), sigma)), horizon, eps
        ),
        pg_thm=gdp_lower_bound_constant(gauss, eps, family="gaussian", sigma=sigma) * log_t,
        lm_table=table2_linear_minimax(horizon, dim, eps),
        lm_thm=linear_minimax_lower_bound(horizon, dim, eps),
        lp_thm=linear_c_epsilon(np.eye(th.size), th, eps, rho=rho).value * log_t,
        lp_table=linear_c_epsilon_basis(t_gaps, eps, rho) * log_t,
    )
