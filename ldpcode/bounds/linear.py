r"""Azize and Basu (2022), ε-global DP, linear bandits: Theorems 4 and 5.

Theorem 4's minimax lower bound for :math:`\mathcal A = [-1,1]^d` and its regime threshold (Remarks after
Theorem 5); Theorem 5's structural constant :math:`c_\epsilon(\mathcal A,\theta)`, a convex program solved by
a hand-written log-barrier interior-point method (``_c_eps_solve``) with a certified dual bound
(``_c_eps_dual``), and its ε = ∞ limit, the Graves-Lai constant (Lattimore and Szepesvári 2017). The
conventions of :mod:`~ldpcode.bounds.azize2022` apply.
"""

from __future__ import annotations

import math
import numbers as _numbers
from dataclasses import dataclass

import numpy as np
from scipy import linalg as _linalg
from scipy import optimize

from .._validate import as_float_array, check_epsilon, one_line
from ._common import _check_count, _check_horizon


def linear_minimax_lower_bound(horizon, dim, epsilon) -> float:
    r"""Theorem 4 (Azize and Basu 2022), eq. (5): for :math:`\mathcal A = [-1,1]^d`, :math:`\Theta=\mathbb R^d`
    and unit Gaussian noise, every ε-global-DP policy has

    .. math:: \mathrm{Reg}^{\mathrm{minimax}}_T \ge \max\Big\{\frac{e^{-2}}{8}d\sqrt T,\; \frac{e^{-6}}{4}\frac d\epsilon\Big\}.
    """
    t = _check_horizon(horizon, minimum=1)
    d = _check_count("dim", dim, minimum=1)
    eps = check_epsilon(epsilon)
    return max(math.exp(-2) / 8.0 * d * math.sqrt(t), math.exp(-6) / 4.0 * d / eps)


def linear_minimax_threshold(horizon) -> float:
    r"""The regime threshold of Theorem 4 given in the Remarks after Theorem 5: :math:`\epsilon = 2e^{-4}/\sqrt T`.

    It is exactly where the two terms of :func:`linear_minimax_lower_bound` are equal, for every d:
    :math:`\frac{e^{-2}}{8}d\sqrt T = \frac{e^{-6}}{4}\frac d\epsilon \iff \epsilon = \frac{8e^{-6}}{4e^{-2}\sqrt T}
    = \frac{2e^{-4}}{\sqrt T}` (d cancels). Below it the private term dominates.
    """
    return 2.0 * math.exp(-4) / math.sqrt(_check_horizon(horizon, minimum=1))


@dataclass(frozen=True, eq=False)
class LinearCEpsilon:
    r"""The solution of Theorem 5's program (:func:`linear_c_epsilon`).

    ``value`` is :math:`c_\epsilon(\mathcal A,\theta)`; ``alpha`` the optimal allocation per action (``inf`` at
    the optimal action, see :func:`linear_c_epsilon`); ``gaps`` :math:`\Delta_a`; ``bounds`` the right-hand
    sides :math:`\min\{\Delta_a^2/2, 3\epsilon\rho\Delta_a\}` (``nan`` at the optimal action); ``norms``
    :math:`\|a\|^2_{H_\alpha^{-1}}` at the solution; ``regime`` per action: ``"optimal"``, ``"non-private"``
    (:math:`\Delta_a^2/2` is the smaller bound) or ``"private"`` (:math:`3\epsilon\rho\Delta_a` is);
    ``tight`` whether the constraint holds with equality (relative 1e-6) at the solution; ``dual_bound`` a
    certified lower bound on ``value`` from a dual-feasible point (``value - dual_bound`` bounds the error).
    """

    value: float
    alpha: np.ndarray
    gaps: np.ndarray
    bounds: np.ndarray
    norms: np.ndarray
    regime: tuple
    tight: np.ndarray
    dual_bound: float
    optimal_index: int
    epsilon: float
    rho: float


def _check_epsilon_or_inf(epsilon) -> float:
    # an integer is never inf (and float(2**1100) raised OverflowError): check_epsilon refuses it by name
    if isinstance(epsilon, _numbers.Real) and not isinstance(epsilon, _numbers.Integral) and float(epsilon) == math.inf:
        return math.inf
    return check_epsilon(epsilon, "epsilon (finite > 0, or math.inf for no privacy)")


_PROGRAM_MAX = 1e150  # Theorem 5's program squares actions and bounds: beyond [1/_PROGRAM_MAX, _PROGRAM_MAX] a double


def _check_linear_instance(actions, theta):
    A = as_float_array("actions", actions, bools=False)
    th = as_float_array("theta", theta, bools=False)
    if A.ndim != 2 or A.shape[0] < 2 or A.shape[1] < 1:
        raise ValueError(f"actions must be a 2-d array of at least 2 actions (one per row), got shape {A.shape}")
    if not np.isfinite(A).all():
        raise ValueError("actions must contain only finite numbers")
    n, d = A.shape
    if th.shape != (d,) or not np.isfinite(th).all():
        raise ValueError(f"theta must be a finite vector of length d = {d}, got {one_line(theta)}")
    if np.linalg.matrix_rank(A) < d:
        raise ValueError(f"actions must span R^d (d = {d}); their rank is {np.linalg.matrix_rank(A)}")
    if np.abs(A).max() > _PROGRAM_MAX:
        raise ValueError(
            f"actions must have entries of size <= {_PROGRAM_MAX:g}: the program squares them (H = sum alpha a a^T), "
            f"which leaves the doubles; got {float(np.abs(A).max())!r} (c_eps scales as 1/|a|^2: rescale)"
        )
    values = A @ th
    best = float(values.max())
    tol = 1e-12 * float(np.abs(values).max())  # relative: 1e-12 max(1, |values|) made 1e-13 and -1e-13 tie
    opt = np.flatnonzero(values >= best - tol)
    if opt.size != 1:
        raise ValueError(
            f"theta must have a unique optimal action (Theorem 5); actions {opt.tolist()} tie at <a, theta> = {best!r}"
        )
    gaps = np.where(values >= best - tol, 0.0, best - values)
    return A, th, int(opt[0]), gaps


def _c_eps_norms(Z, alpha, ridge=0.0):
    """(g, M): g_a = z_a^T H^{-1} z_a and M_ab = (z_a^T H^{-1} z_b)^2, H = sum alpha_b z_b z_b^T (+ ridge I)."""
    H = Z.T @ (alpha[:, None] * Z)
    if ridge:
        H = H + ridge * np.eye(H.shape[0])
    G = Z @ np.linalg.solve(H, Z.T)
    return np.diag(G).copy(), G * G


def _c_eps_to_boundary(Z, b, alpha):
    """Scale alpha onto the feasible set: the constraints are homogeneous of degree -1 in alpha."""
    g, _ = _c_eps_norms(Z, alpha)
    s = float(np.max(g / b))
    if not (np.isfinite(s) and s > 0):
        raise np.linalg.LinAlgError("singular H")
    return alpha * s


def _c_eps_solve(Z, gaps, b):
    r"""Minimise :math:`\sum_c\alpha_c\Delta_c` s.t. :math:`g_a(\alpha) = z_a^\top H_\alpha^{-1}z_a \le b_a`, α >= 0
    (rows :math:`z_a` of Z span :math:`\mathbb R^m`). A convex program (linear cost; :math:`g_a` is convex in α since
    the matrix inverse is operator convex), solved by a log-barrier interior-point method with exact Newton steps
    (Boyd and Vandenberghe, Convex Optimization, Section 11.3), using
    :math:`\partial g_a/\partial\alpha_c = -G_{ac}^2` and :math:`\partial^2 g_a/\partial\alpha_c\partial\alpha_e =
    2G_{ac}G_{ce}G_{ea}`, :math:`G = ZH_\alpha^{-1}Z^\top`. Stops when the barrier's gap bound 2n/t is below 1e-9
    of the cost; the result is then scaled onto the exact feasible set, and entries below 1e-9 of the largest set
    to 0 when that costs nothing. Returns (alpha, value, dual bound from :func:`_c_eps_dual`)."""
    n = Z.shape[0]
    a0 = 2.0 * _c_eps_to_boundary(Z, b, 1.0 / b)  # strictly feasible: g = b/2 at the largest
    unit = float(a0.mean())
    bb = b * unit  # g(alpha) = g(y)/unit for alpha = unit * y
    y = a0 / unit
    c = gaps / float(np.dot(gaps, y))  # cost normalised to 1 at the start

    def state(y):
        G = Z @ np.linalg.solve(Z.T @ (y[:, None] * Z), Z.T)
        return G, bb - np.diag(G)

    def phi(t, y, s):
        return t * float(np.dot(c, y)) - float(np.sum(np.log(s))) - float(np.sum(np.log(y)))

    t = 2.0 * n
    G, s = state(y)
    for _outer in range(60):
        for _newton in range(200):
            M = G * G
            grad = t * c - M.T @ (1.0 / s) - 1.0 / y
            hess = M.T @ (M / (s * s)[:, None]) + 2.0 * G * (G.T @ (G / s[:, None])) + np.diag(1.0 / (y * y))
            try:
                step = -np.linalg.solve(hess, grad)
            except np.linalg.LinAlgError:  # pragma: no cover
                step = -grad / np.diag(hess)
            dec = -float(np.dot(grad, step))
            if dec <= 1e-8:  # centred enough: the barrier's own gap bound dominates
                break
            f0, tau = phi(t, y, s), 1.0
            neg = step < 0
            if neg.any():
                tau = min(1.0, 0.99 * float(np.min(-y[neg] / step[neg])))
            while tau > 1e-8:
                y_new = y + tau * step
                G_new, s_new = state(y_new)
                if (s_new > 0).all() and phi(t, y_new, s_new) <= f0 - 0.25 * tau * dec:
                    break
                tau *= 0.5
            else:  # no progress at working precision
                break
            y, G, s = y_new, G_new, s_new
        if 2.0 * n / t < 1e-9 * float(np.dot(c, y)):
            break
        t *= 8.0
    alpha = _c_eps_to_boundary(Z, b, y * unit)
    value = float(np.dot(alpha, gaps))
    small = alpha < 1e-9 * alpha.max()
    if small.any():
        try:
            cleaned = _c_eps_to_boundary(Z, b, np.where(small, 0.0, alpha))
            if float(np.dot(cleaned, gaps)) <= value:
                alpha, value = cleaned, float(np.dot(cleaned, gaps))
        except np.linalg.LinAlgError:
            pass
    return alpha, value, min(_c_eps_dual(Z, gaps, b, alpha), value)


def _c_eps_dual(Z, gaps, b, alpha):
    r"""A certified lower bound on the program's value. For any vectors :math:`v_a` with
    :math:`\sum_a (z_c^\top v_a)^2 \le \Delta_c` for every c, Cauchy-Schwarz gives, for every feasible α',
    :math:`\sum_c\alpha'_c\Delta_c \ge \sum_a v_a^\top H_{\alpha'} v_a \ge \sum_a (v_a^\top z_a)^2/b_a`. With
    :math:`v_a = \sqrt{\lambda_a}H_\alpha^{-1}z_a` at the computed α, the best λ >= 0 solves the LP
    max :math:`\sum_a\lambda_a g_a^2/b_a` s.t. :math:`M^\top\lambda \le \Delta` (tight at the exact optimum, by KKT)."""
    g, M = _c_eps_norms(Z, alpha)
    res = optimize.linprog(-(g * g / b), A_ub=M.T, b_ub=gaps, bounds=[(0, None)] * Z.shape[0], method="highs")
    if res.status != 0:  # pragma: no cover
        return 0.0
    lam = np.maximum(res.x, 0.0)
    kappa = max(1.0, float(np.max((lam @ M) / gaps)))  # guard against solver round-off
    return float(np.sum(lam * g * g / b) / kappa)


def linear_c_epsilon(actions, theta, epsilon, rho=1.0) -> LinearCEpsilon:
    r"""Theorem 5 (Azize and Basu 2022), eq. (6): for a finite action set :math:`\mathcal A` spanning
    :math:`\mathbb R^d` and θ with a unique optimal action, every consistent ε-global-DP policy has
    :math:`\liminf_T \mathrm{Reg}_T/\log T \ge c_\epsilon(\mathcal A,\theta)`, the structural distinguishability gap

    .. math:: c_\epsilon = \inf_{\alpha\in[0,\infty)^{\mathcal A}}\ &\sum_a \alpha(a)\Delta_a \\
              \text{s.t.}\ &\|a\|^2_{H_\alpha^{-1}} \le \min\{\tfrac12\Delta_a^2,\; 3\epsilon\rho\Delta_a\}\ \ \forall a:\Delta_a>0,\\
              &H_\alpha = \sum_a \alpha(a)\,aa^\top.

    Readings of this book (the extraction of the paper is incomplete here):

    * the extraction prints :math:`\|a\|_{H_\alpha}`; Table 2 prints :math:`\|a\|_{H_\alpha^{-1}}`, and so does the
      Graves-Lai program the Remarks refer to (Lattimore and Szepesvári 2017). It is the :math:`H_\alpha^{-1}`
      norm (with :math:`H_\alpha` the constraint would push α *down* and the infimum would be 0).
    * :math:`\rho_a(\mathcal A)` ("a structure-dependent constant") is never defined; Table 2 writes one
      :math:`\rho(\mathcal A)`. Here ``rho`` is one constant for all arms, an explicit parameter (default 1).
      :math:`c_\epsilon` depends on ε only through :math:`\epsilon\rho`.
    * ``epsilon=math.inf`` drops the private constraint: the ε-free Graves-Lai constant
      (:func:`linear_graves_lai_constant`). :math:`c_\epsilon` is non-increasing in ε.

    The optimal action :math:`a^*` has :math:`\Delta=0`, so :math:`\alpha(a^*)` costs nothing and, since raising
    it lowers every :math:`\|a\|^2_{H_\alpha^{-1}}`, the infimum is the limit :math:`\alpha(a^*) = M\to\infty`. With
    :math:`H' = \sum_{a\ne a^*}\alpha(a)aa^\top` and :math:`x^\top H^{-1}x = \sup_y\, 2x^\top y - y^\top Hy`, the
    penalty :math:`M(a^{*\top}y)^2` forces :math:`y\perp a^*` in the limit:
    :math:`\|a\|^2_{(H'+Ma^*a^{*\top})^{-1}} \downarrow z_a^\top(Q^\top H'Q)^{-1}z_a`, :math:`z_a = Q^\top a`, Q an
    orthonormal basis of :math:`a^{*\perp}` (when H' is invertible this is :math:`\min_c\|a-c\,a^*\|^2_{H'^{-1}}`).
    So the program is solved in :math:`a^{*\perp}` over the suboptimal arms only, and ``alpha`` is reported as
    ``inf`` at :math:`a^*`; actions parallel to :math:`a^*` get α = 0 (their constraint reads 0 <= b).
    The reduced program (linear cost, convex constraints) is solved by a log-barrier interior-point method with
    exact Newton steps, and the result scaled onto the feasible set (the constraints are homogeneous in α); a
    dual-feasible point gives ``dual_bound`` <= ``value``, a certificate of accuracy (relative gap ~1e-6 or
    better in the tests, where the value also matches closed forms and brute-force grids). Meant for small sets
    (d ≤ 5, at most 20 actions: well under a second). Returns a :class:`LinearCEpsilon`.
    """
    A, th, opt, gaps = _check_linear_instance(actions, theta)
    eps = _check_epsilon_or_inf(epsilon)
    rho = check_epsilon(rho, "rho", floor=0.0)
    n, d = A.shape
    sub = np.flatnonzero(np.arange(n) != opt)
    g_sub = gaps[sub]
    with np.errstate(over="ignore", under="ignore"):
        b_sub = np.minimum(0.5 * g_sub**2, 3.0 * eps * rho * g_sub)
    if not ((b_sub >= 1 / _PROGRAM_MAX) & (b_sub <= _PROGRAM_MAX)).all():
        raise ValueError(
            f"theta, epsilon and rho must give gap bounds min(gap^2/2, 3 epsilon rho gap) in [{1 / _PROGRAM_MAX:g}, "
            f"{_PROGRAM_MAX:g}] (the program squares them, which leaves the doubles beyond), got {float(b_sub.min())!r} "
            f"to {float(b_sub.max())!r}: rescale theta (c_eps is homogeneous in its scale) or change epsilon * rho "
            f"= {eps * rho!r}"
        )
    Q = _linalg.null_space(A[opt][None, :]) if np.any(A[opt] != 0) else np.eye(d)
    Z = A[sub] @ Q  # coordinates in the complement of a*
    alpha_sub = np.zeros(sub.size)
    norms_sub = np.zeros(sub.size)
    value, dual = 0.0, 0.0
    if Q.shape[1] > 0:
        nz = np.linalg.norm(Z, axis=1) > 1e-12 * max(1.0, float(np.abs(A).max()))
        # arms along a* (z_a = 0) are known once a* is: their constraint reads 0 <= b_a, and they add nothing to H
        Zn, gn, bn = Z[nz], g_sub[nz], b_sub[nz]
        al, value, dual = _c_eps_solve(Zn, gn, bn)
        alpha_sub[nz] = al
        norms_sub[nz] = _c_eps_norms(Zn, al)[0]
    alpha = np.zeros(n)
    alpha[sub] = alpha_sub
    alpha[opt] = math.inf
    bounds_all = np.full(n, np.nan)
    bounds_all[sub] = b_sub
    norms = np.zeros(n)
    norms[sub] = norms_sub
    tight = np.zeros(n, dtype=bool)
    tight[sub] = norms_sub >= b_sub * (1 - 1e-6)
    regime = tuple(
        "optimal" if i == opt else ("private" if 3.0 * eps * rho * gaps[i] < 0.5 * gaps[i] ** 2 else "non-private")
        for i in range(n)
    )
    return LinearCEpsilon(
        value=float(value),
        alpha=alpha,
        gaps=gaps,
        bounds=bounds_all,
        norms=norms,
        regime=regime,
        tight=tight,
        dual_bound=float(dual),
        optimal_index=opt,
        epsilon=eps,
        rho=rho,
    )


def linear_graves_lai_constant(actions, theta) -> LinearCEpsilon:
    r"""The non-private Graves-Lai constant of the linear bandit with unit Gaussian noise (Lattimore and
    Szepesvári 2017): Theorem 5's program with only :math:`\|a\|^2_{H_\alpha^{-1}} \le \Delta_a^2/2`, i.e.
    :func:`linear_c_epsilon` at ``epsilon=math.inf``; the limit of :math:`c_\epsilon` for large ε."""
    return linear_c_epsilon(actions, theta, math.inf)
