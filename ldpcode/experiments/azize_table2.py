r"""Azize and Basu (2022), Theorem 1 and Table 2: the audits, tables and figures of
``chapters/azize2022/theorem1_table2``.

Theorem 1 (the d-dimensional Laplace mechanism at scale :math:`s(f)/\epsilon` is ε-DP): :func:`exact_losses`
computes the privacy loss of a pair of inputs two ways and :func:`loss_table` shows it;
:func:`theorem1_audits` audits the mechanism and a broken one at a fraction of its scale
(:func:`ldpcode.audit.laplace_mechanism_audit`), :func:`audit_table` and :func:`theorem1_figure` show them.
Table 2 (its cells beside Theorems 2 to 5, :func:`ldpcode.bounds.table2.table2_cells`): :func:`table2_tables`
shows the rows and :func:`table2_figure` draws every cell against ε. :func:`bounded_cell_vs_theorem3` sets the
stochastic problem-dependent cell beside Theorem 3 on laws on [0, 1] that are not Bernoulli (:func:`two_point_laws`).
The notebook's claims are built in the notebook.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from .. import audit
from .._validate import check_epsilon, check_probability_vector, check_real, one_line
from ..bounds._common import _check_horizon
from ..bounds.azize2022 import TIE, gdp_lower_bound_constant, gdp_lower_bound_terms_bounded
from ..bounds.table2 import (
    linear_c_epsilon_basis,
    table2_linear_minimax,
    table2_stochastic_minimax,
    table2_stochastic_problem_dependent,
)
from ..claims import Table
from ..divergences import d_inf_bernoulli, d_inf_gaussian
from ..plotting import THEORY_STYLE, log_ratio_panel


def _check_epsilons(epsilons) -> list:
    if isinstance(epsilons, (str, bytes)) or not hasattr(epsilons, "__iter__"):
        raise TypeError(f"epsilons must be a list of privacy budgets, got {type(epsilons).__name__}")
    epsilons = list(epsilons)
    if not epsilons:
        raise ValueError("epsilons must hold at least one privacy budget, got an empty list")
    return epsilons


def _check_factor(broken_factor) -> float:
    if not (isinstance(broken_factor, (int, float)) and 0 < broken_factor < 1):
        raise ValueError(f"broken_factor must be a number in (0, 1), got {broken_factor!r}")
    return broken_factor


def _check_same_keys(audits: dict, broken: dict) -> list:
    if not audits or list(audits) != list(broken):
        raise ValueError(f"audits and broken must be audited at the same ε, got {list(audits)} and {list(broken)}")
    return list(audits)


def exact_losses(f, f_prime, sensitivity, epsilons, grid_points: int) -> dict:
    r"""The privacy loss of the Laplace mechanism of Theorem 1 at scale :math:`b = s(f)/\epsilon` on the pair
    ``f``, ``f_prime``, two ways: ε -> (closed form :math:`\|f - f'\|_1/b`,
    :func:`ldpcode.audit.laplace_privacy_loss`; supremum of the log density ratio on a grid of ``grid_points``
    per coordinate, :func:`ldpcode.audit.laplace_privacy_loss_grid`)."""
    out = {}
    for eps in _check_epsilons(epsilons):
        b = sensitivity / eps
        out[eps] = (
            audit.laplace_privacy_loss(f, f_prime, b),
            audit.laplace_privacy_loss_grid(f, f_prime, b, grid_points),
        )
    return out


def loss_table(exact: dict, sensitivity) -> Table:
    r"""The table of :func:`exact_losses`: per ε the scale :math:`b = s(f)/\epsilon`, the closed form, the grid
    supremum and the loss over ε (1 when the pair is at distance :math:`s(f)`, the bound of Theorem 1)."""
    rows = [[eps, sensitivity / eps, closed, grid, closed / eps] for eps, (closed, grid) in exact.items()]
    return Table(
        ["ε", "b = s/ε", "closed form", "grid sup", "loss / ε"], rows, formats=["g", ".4g", ".6f", ".6f", ".6f"]
    )


def theorem1_audits(
    f, f_prime, sensitivity, epsilons, samples: int, rng, *, bins: int, alpha: float, broken_factor: float
) -> tuple[dict, dict]:
    r"""Theorem 1's audit at each ε, in order, all drawing from ``rng``: the Laplace mechanism at the theorem's
    scale :math:`s(f)/\epsilon`, then a broken one at ``broken_factor`` times it, both claiming ε
    (:func:`ldpcode.audit.laplace_mechanism_audit`, ``samples`` releases per input, ``bins`` bins, simultaneous
    1 - ``alpha`` intervals). Returns (ε -> audit, ε -> broken audit)."""
    factor = _check_factor(broken_factor)
    audits, broken = {}, {}
    for eps in _check_epsilons(epsilons):
        b = sensitivity / eps
        audits[eps] = audit.laplace_mechanism_audit(f, f_prime, b, samples, rng, claimed=eps, bins=bins, alpha=alpha)
        broken[eps] = audit.laplace_mechanism_audit(
            f, f_prime, factor * b, samples, rng, claimed=eps, bins=bins, alpha=alpha
        )
    return audits, broken


def audit_table(audits: dict, broken: dict, broken_factor: float) -> Table:
    """The table of :func:`theorem1_audits` (Theorem 1): per ε, the mechanism at the theorem's scale and the
    broken one, each with the ε it claims, its exact loss, its log-ratio on the atom of L at +exact loss (with
    its standard error), its lower confidence bound on the loss and the verdict."""
    factor = _check_factor(broken_factor)
    rows = []
    for eps in _check_same_keys(audits, broken):
        for name, a in (("Theorem 1 (scale b)", audits[eps]), (f"BROKEN ({factor:g} b)", broken[eps])):
            bn = a.binned
            verdict = "REFUTED" if a.refuted else "within ε"
            rows.append([name, eps, a.exact, (bn.log_ratio[-1], bn.se[-1]), bn.max_lower, verdict])
    return Table(
        ["mechanism", "claims ε", "exact loss", "log-ratio at atom +ε", "lower bound", "verdict"],
        rows,
        formats=[None, "g", ".4f", ("+.4f", ".4f"), ".4f", None],
    )


def bin_centres(edges) -> np.ndarray:
    """The abscissae of the bins of a Laplace audit's ``edges`` (:func:`ldpcode.audit.atom_edges`: two
    half-lines, then equal bins): the centres of the finite bins, and for each half-line its finite edge moved
    out by half a bin (by 0.5 with a single finite bin)."""
    e = np.asarray(edges, dtype=float)
    if e.ndim != 1 or e.size < 3:
        raise ValueError(f"edges must be a vector of at least 3 bin edges, got shape {e.shape}")
    step = (e[2] - e[1]) if e.size > 3 else 1.0
    return np.r_[e[1] - step / 2, (e[1:-2] + e[2:-1]) / 2, e[-2] + step / 2]


def theorem1_figure(audits: dict, broken: dict, *, broken_factor: float, dim: int):
    """The figure of Theorem 1's audits (:func:`theorem1_audits`): left, the log-ratio per bin of L with its
    interval at the middle ε of the audits, beside the exact values; right, the lower confidence bound on the
    loss of both mechanisms against the ε they claim. ``dim`` is d, the dimension of f. Returns the figure."""
    factor = _check_factor(broken_factor)
    epsilons = _check_same_keys(audits, broken)
    mid = epsilons[len(epsilons) // 2]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
    bn = audits[mid].binned
    x = bin_centres(bn.edges)
    log_ratio_panel(
        ax1, x, bn.log_ratio, bn.lower, bn.upper, epsilon=mid, exact=x.clip(-mid, mid),
        xlabel="value of L (privacy loss random variable)", title=f"Theorem 1 audit, ε = {mid:g}, d = {dim}",
    )  # fmt: skip
    ax1.set_ylabel("log P_D(bin) / P_D'(bin)")
    es = np.array(epsilons)
    top = es.max() / factor * 1.05
    ax2.plot([0, top], [0, top], color="k", **THEORY_STYLE, label="loss = claimed ε")
    ax2.plot(es, [audits[x].binned.max_lower for x in es], "o", color="C0", label="Theorem 1's scale: lower bound")
    ax2.plot(
        es, [broken[x].binned.max_lower for x in es], "X", color="C3", markersize=9,
        label=f"BROKEN {factor:g} b: lower bound",
    )  # fmt: skip
    ax2.plot(es, es / factor, ":", color="0.5", label="BROKEN: its exact loss")
    ax2.set_xlabel("ε the mechanism claims")
    ax2.set_ylabel("lower confidence bound on the loss")
    ax2.set_title(f"{audits[mid].samples:,} releases per input")
    ax2.legend(fontsize="x-small", loc="lower right")  # upper left hid the broken point at the largest eps
    fig.tight_layout()
    return fig


def table2_tables(rows) -> tuple[Table, Table]:
    """The two tables of Table 2's rows (:func:`ldpcode.bounds.table2.table2_cells`, one per ε): the stochastic
    cells (minimax with its regime; problem dependent on Bernoulli and on Gaussian arms, each with Theorem 3
    over the cell) and the linear cells (minimax; problem dependent with Theorem 5 over the cell)."""
    rows = list(rows)
    stochastic = Table(
        ["ε", "stochastic minimax", "regime", "Bernoulli PD", "thm/table", "Gaussian PD", "thm/table"],
        [
            [r["eps"], r["sm_table"], "private" if r["sm_private"] else "free", r["pb_table"],
             r["pb_thm"] / r["pb_table"], r["pg_table"], r["pg_thm"] / r["pg_table"]]
            for r in rows
        ],
        formats=["g", ".2f", None, ".1f", ".4f", ".1f", ".4f"],
    )  # fmt: skip
    linear = Table(
        ["ε", "linear minimax", "linear PD", "thm/table"],
        [[r["eps"], r["lm_table"], r["lp_table"], r["lp_thm"] / r["lp_table"]] for r in rows],
        formats=["g", ".3f", ".1f", ".6f"],
    )
    return stochastic, linear


def _suboptimal(means) -> tuple[np.ndarray, np.ndarray]:
    m = np.array(means, dtype=float)
    sub = m[m < m.max()]
    if sub.size == 0:
        raise ValueError(f"means must hold a suboptimal arm, got {means!r}")
    return m, sub


def table2_figure(horizon, n_arms, dim, epsilons, bernoulli_means, gaussian_means, sigma, theta, rho=1.0):
    r"""Every cell of Table 2 against ε on 60 log-spaced ε from min(``epsilons``)/10 to max(10 max(``epsilons``),
    10), at T = ``horizon``: the stochastic minimax cell (K = ``n_arms``), the stochastic problem-dependent cell
    on Bernoulli arms (equal to Theorem 3), on Gaussian arms of standard deviation ``sigma`` beside Theorem 3
    (:func:`~ldpcode.bounds.azize2022.gdp_lower_bound_constant` times :math:`\log T`), the linear minimax cell in
    dimension ``dim`` and the linear problem-dependent cell on the standard basis with parameter ``theta``
    (:func:`~ldpcode.bounds.table2.linear_c_epsilon_basis` times :math:`\log T`). Returns the figure."""
    epsilons = _check_epsilons(epsilons)
    log_t = math.log(horizon)
    bern, b_sub = _suboptimal(bernoulli_means)
    gauss, g_sub = _suboptimal(gaussian_means)
    bgaps, bd = bern.max() - b_sub, np.atleast_1d(d_inf_bernoulli(b_sub, bern.max()))
    ggaps, gd = gauss.max() - g_sub, np.atleast_1d(d_inf_gaussian(g_sub, gauss.max(), sigma))
    th = np.array(theta, dtype=float)
    lgaps = th.max() - np.delete(th, int(np.argmax(th)))
    grid = np.geomspace(min(epsilons) / 10, max(max(epsilons) * 10, 10.0), 60)
    fig, ax = plt.subplots(figsize=(8, 4.2))
    curves = [
        ("stochastic minimax (Thm 2)", [table2_stochastic_minimax(horizon, n_arms, e) for e in grid], "C0", "-"),
        ("stochastic PD, Bernoulli (Thm 3)",
         [table2_stochastic_problem_dependent(bgaps, bd, horizon, e) for e in grid], "C1", "-"),
        ("stochastic PD, Gaussian: table cell",
         [table2_stochastic_problem_dependent(ggaps, gd, horizon, e) for e in grid], "C2", "--"),
        ("stochastic PD, Gaussian: Thm 3",
         [gdp_lower_bound_constant(gauss, e, family="gaussian", sigma=sigma) * log_t for e in grid], "C2", "-"),
        (f"linear minimax, d = {dim} (Thm 4)", [table2_linear_minimax(horizon, dim, e) for e in grid], "C3", "-"),
        (f"linear PD, basis of R^{th.size} (Thm 5)",
         [linear_c_epsilon_basis(lgaps, e, rho) * log_t for e in grid], "C4", "-"),
    ]  # fmt: skip
    for label, y, c, ls in curves:
        ax.plot(grid, y, color=c, linestyle=ls, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("privacy budget ε")
    ax.set_ylabel(f"lower bound on the regret at T = {horizon:,}")
    ax.set_title(f"Table 2's cells against ε (K = {n_arms} for the minimax cell)")
    ax.legend(fontsize="x-small", loc="upper right")
    fig.tight_layout()
    return fig


def two_point_laws(means, half_width) -> list:
    r"""Arm a uniform on the two points :math:`\{\mu_a - h, \mu_a + h\}` (``half_width`` h > 0): laws on [0, 1] with
    the means ``means`` that are not Bernoulli. Their :math:`t_{\inf}` exceeds :math:`\Delta_a` unless the lower
    point is 0 with its weight 1/2 at least :math:`\Delta_a` (:func:`~ldpcode.divergences.t_inf_bounded`). Returns
    ``[(values, probs), ...]``; a ValueError (one line) when a point leaves [0, 1]."""
    m = check_probability_vector("means", means)
    h = check_real("half_width", half_width)
    if m.size < 2:
        raise ValueError(f"means must hold at least 2 arms, got {one_line(means)}")
    if not h > 0:
        raise ValueError(f"half_width must be a finite number > 0, got {half_width!r}")
    if (m - h).min() < 0 or (m + h).max() > 1:
        raise ValueError(
            f"every point mu_a +- half_width must lie in [0, 1], got half_width = {h:g} and means from {m.min():g} "
            f"to {m.max():g} (half_width <= {min(m.min(), 1 - m.max()):g} here)"
        )
    return [([mu - h, mu + h], [0.5, 0.5]) for mu in m.tolist()]


def _two_point_written_out(means, h, epsilon) -> float:
    """Theorem 3's constant on :func:`two_point_laws`, written out: for arm a with atoms l, u (each of mass 1/2),
    t_inf moves mass from l, then from u, to 1 until the mean reaches mu*; K_inf's dual
    0.5 log(1 - lam a) + 0.5 log(1 - lam b), a = l - mu*, b = u - mu*, is largest at lam = (a + b) / (2ab) (its
    derivative's root) or, when both atoms lie below mu*, at the end 1/(1 - mu*) of the interval."""
    m = np.array(means, dtype=float)
    best, total = float(m.max()), 0.0
    for mu in m[m < m.max() - TIE].tolist():  # a rounding gap is no gap (as in gdp_lower_bound_terms_bounded)
        gap, lo, up = best - mu, mu - h, mu + h
        room = 0.5 * (1 - lo)  # the mean gained by moving all of l's mass to 1
        t_inf = gap / (1 - lo) if gap <= room else 0.5 + (gap - room) / (1 - up)
        a, b = lo - best, up - best
        lam = 1 / (1 - best) if b <= 0 else min((a + b) / (2 * a * b), 1 / (1 - best))
        d_inf = 0.5 * math.log(1 - lam * a) + 0.5 * math.log(1 - lam * b)
        total += gap / min(d_inf, 6 * epsilon * t_inf)
    return total


def bounded_cell_vs_theorem3(means, half_width, horizon, epsilon) -> dict:
    r"""Table 2's stochastic problem-dependent cell against Theorem 3 on :func:`two_point_laws` (``means``,
    ``half_width``), the class of every law on [0, 1], at T = ``horizon`` and ``epsilon``. The cell writes
    :math:`6\epsilon\Delta_a` where the theorem has :math:`6\epsilon t_{\inf}`; here :math:`t_{\inf} \ge \Delta_a`,
    so the cell is at least as large, and larger wherever the private term is the minimum and an arm's mass at 0
    is below :math:`\Delta_a`. Returns ``cell`` (the cell with :math:`d_a = K_{\inf}`,
    :func:`~ldpcode.bounds.table2.table2_stochastic_problem_dependent`), ``thm`` (Theorem 3 times log T,
    :func:`~ldpcode.bounds.azize2022.gdp_lower_bound_terms_bounded`), ``thm_written`` (the same, written out for
    two-point laws, :func:`_two_point_written_out`: a second implementation of the same derivations, in closed
    form, which catches a slip of either, not an error of the derivation; the tests check both against the
    definitions by linear and nonlinear programming) and ``terms`` (the per-arm pieces). ``horizon`` T >= 2."""
    log_t = math.log(_check_horizon(horizon, minimum=2))  # every argument before any work
    check_epsilon(epsilon)
    laws = two_point_laws(means, half_width)
    terms = gdp_lower_bound_terms_bounded(laws, epsilon)
    return dict(
        cell=table2_stochastic_problem_dependent(terms.gaps, terms.d_inf, horizon, epsilon),
        thm=terms.value * log_t,
        thm_written=_two_point_written_out(means, float(half_width), float(epsilon)) * log_t,
        terms=terms,
    )
