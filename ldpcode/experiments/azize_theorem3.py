r"""Azize and Basu (2022), Theorem 3: tables, checks and panels of ``chapters/azize2022/theorem3_problem_dependent``.

The constant :math:`\sum_a \Delta_a/\min(d_{\inf}, 6\epsilon t_{\inf})` of eq. (4) is
:func:`ldpcode.bounds.gdp_lower_bound_terms`; this module is what the notebook does with it: the per-arm table, the
curve in ε, its asymptotes and Lai-Robbins switch (:func:`arm_table`, :func:`constant_curve`, :func:`asymptotes`,
:func:`asymptote_errors`, :func:`lai_robbins_switch`, :func:`constant_panel`); the Bernoulli Consequence 2 and the
Shariff-Sheffet shape (:func:`consequence2`, :func:`shariff_sheffet_ratio`); the
switch points of Bernoulli and Gaussian arms (:func:`families`, :func:`switch_table`, :func:`switch_curves`,
:func:`switch_panel`). The notebook's second computations (the Bernoulli KL written out, the Gaussian gaps
integrated numerically) stay in the notebook: a claim's second way must not come from the package.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import optimize

from .._validate import as_float_array, check_int
from ..bounds import GDPLowerBoundTerms, gdp_lower_bound_constant, gdp_lower_bound_terms, lai_robbins_constant
from ..claims import Table, format_number


def _check_terms(terms) -> GDPLowerBoundTerms:
    if not isinstance(terms, GDPLowerBoundTerms):
        raise TypeError(f"terms must come from ldp.bounds.gdp_lower_bound_terms, got {type(terms).__name__}")
    return terms


def _check_curve(const, eps_axis) -> tuple[np.ndarray, np.ndarray]:
    const, eps_axis = as_float_array("const", const), as_float_array("eps_axis", eps_axis)
    if const.ndim != 1 or const.shape != eps_axis.shape:
        raise ValueError(f"const and eps_axis must be 1-d of the same length, got {const.shape} and {eps_axis.shape}")
    return const, eps_axis


def arm_table(means, terms) -> Table:
    r"""The per-arm table of Theorem 3: for each suboptimal arm, :math:`\mu_a`, :math:`\Delta_a`,
    :math:`d_{\inf}`, :math:`t_{\inf}`, :math:`2\Delta_a^2` (Pinsker), :math:`d_{\inf}/(2\Delta_a^2)`, the switch
    point :math:`\epsilon_a`, the regime at ``terms.epsilon`` and the term :math:`\Delta_a/\min(d_{\inf},
    6\epsilon t_{\inf})`. ``terms`` is ``ldp.bounds.gdp_lower_bound_terms(means, epsilon)``."""
    tr, m = _check_terms(terms), np.asarray(means)
    cols = zip(tr.arms, tr.gaps, tr.d_inf, tr.t_inf, tr.epsilon_threshold, tr.private, tr.terms)
    rows = [[m[a], g, d, t, 2 * g**2, d / (2 * g**2), e, "private" if p else "KL", x] for a, g, d, t, e, p, x in cols]
    head = ["μ_a", "Δ", "d_inf", "t_inf", "2Δ²", "d/(2Δ²)", "ε_a", "regime", "term"]
    return Table(head, rows, formats=[".3f", ".3f", ".4f", ".3f", ".4f", ".3f", ".4f", None, ".3f"])


def constant_curve(means, eps_axis, **family) -> np.ndarray:
    """The constant of eq. (4) of Theorem 3, ``ldp.bounds.gdp_lower_bound_constant(means, ε, **family)``, at each
    ε of ``eps_axis``."""
    return np.array([gdp_lower_bound_constant(means, e, **family) for e in eps_axis])


def asymptotes(terms) -> tuple[float, float]:
    r"""The two asymptotes of the constant of Theorem 3 in ε: the Lai-Robbins value
    :math:`\sum_a\Delta_a/d_{\inf}` (ε above every switch point) and the coefficient
    :math:`\sum_a\Delta_a/(6t_{\inf})` of :math:`1/\epsilon` (ε below every switch point)."""
    tr = _check_terms(terms)
    return float(np.sum(tr.gaps / tr.d_inf)), float(np.sum(tr.gaps / (6 * tr.t_inf)))


def asymptote_errors(const, eps_axis, terms) -> tuple[float, float]:
    r"""The largest :math:`|c(\epsilon)/\text{asymptote} - 1|` of the constant ``const`` of Theorem 3 on
    ``eps_axis``: below every switch point against :math:`\sum_a\Delta_a/(6\epsilon t_{\inf})`, and from the largest
    switch point on against the Lai-Robbins value (:func:`asymptotes`). Both parts of the grid must be non-empty."""
    const, eps_axis = _check_curve(const, eps_axis)
    lai, priv = asymptotes(terms)
    lo, hi = eps_axis < terms.epsilon_threshold.min(), eps_axis >= terms.epsilon_threshold.max()
    if not (lo.any() and hi.any()):
        raise ValueError("eps_axis must reach below the smallest switch point and up to the largest")
    return np.abs(const[lo] * eps_axis[lo] / priv - 1).max(), np.abs(const[hi] / lai - 1).max()


def format_small(x, floor: float = 1e-12) -> str:
    """``"< 10⁻¹²"`` (the ``floor``) for a number below it, else the number to two digits (``"3.0·10⁻⁷"``): the
    asymptote errors of Theorem 3's constant, which are round-off."""
    return f"< {format_number(floor)}" if x < floor else format_number(x, ".1e")


def lai_robbins_switch(means) -> float:
    r"""The ε at which the constant of eq. (4) of Theorem 3 leaves its Lai-Robbins value (``brentq`` on
    [1e-6, 100] for constant / Lai-Robbins = 1 + 1e-12): a second computation of the largest switch point
    :math:`d_{\inf}/(6t_{\inf})` (Consequence 3)."""
    flat = lai_robbins_constant(means)
    excess = lambda e: gdp_lower_bound_constant(means, e) / flat - (1 + 1e-12)
    return optimize.brentq(excess, 1e-6, 1e2, xtol=1e-300, rtol=1e-14)


def constant_panel(ax, eps_axis, const, terms, *, title: str, paper_switch=None) -> None:
    """The constant ``const`` of Theorem 3 against ε (log axes), with its two :func:`asymptotes` dashed, the switch
    points dotted and, if given, the paper's regime change ``paper_switch`` (Section 5). ``title`` gets the line
    "(dotted: switch points ε_a)" below it."""
    from ..plotting import THEORY_STYLE, paper_axes

    const, eps_axis = _check_curve(const, eps_axis)
    lai, priv = asymptotes(terms)
    ax.plot(eps_axis, const, color="k", linewidth=2, label="Theorem 3, Bernoulli")
    ax.axhline(lai, color="C0", **THEORY_STYLE, label=f"Lai-Robbins Σ Δ/d_inf = {lai:.3g}")
    ax.plot(eps_axis, priv / eps_axis, color="C3", **THEORY_STYLE, label=f"Σ Δ/(6ε t_inf) = {priv:.3g}/ε")
    for x in np.unique(np.round(terms.epsilon_threshold, 12)):
        ax.axvline(x, color="0.6", linewidth=0.8, linestyle=":")
    if paper_switch is not None:
        ax.axvline(paper_switch, color="C2", linewidth=1.2, linestyle="-.", label="paper's 'near 0.3' (Section 5)")
    ax.set_ylim(lai / 2, const.max() * 1.5)
    ylabel = r"constant $c$ in $\liminf \mathrm{Reg}_T/\log T \geq c$"
    paper_axes(ax, xlabel="privacy budget ε", ylabel=ylabel, title=f"{title}\n(dotted: switch points ε_a)")
    ax.legend(loc="upper right", fontsize="x-small")


@dataclass(frozen=True)
class Consequence2:
    r"""What :func:`consequence2` returns: whether :math:`t_{\inf} = \Delta_a` for every arm, ``pinsker`` =
    :math:`\min_a d_{\inf}/(2\Delta_a^2)`, ``chi2`` = :math:`\max_a d_{\inf}\mu^*(1-\mu^*)/\Delta_a^2`, the range
    ``ratio_min``, ``ratio_max`` of the constant over :math:`\sum_a 1/\min(\Delta_a,\epsilon)` on the ε grid, and
    ``lower_const`` = :math:`1/\max(1/(\mu^*(1-\mu^*)), 6)`, the χ² lower bound of that ratio."""

    t_inf_is_gap: bool
    pinsker: float
    chi2: float
    ratio_min: float
    ratio_max: float
    lower_const: float


def consequence2(means, terms, const, eps_axis) -> Consequence2:
    r"""Consequence 2 of Theorem 3 for Bernoulli arms, checked on one instance: :math:`t_{\inf} = \Delta_a`,
    Pinsker :math:`d_{\inf}\ge 2\Delta_a^2` (so the ratio of the constant ``const`` to
    :math:`\sum_a 1/\min(\Delta_a,\epsilon)` is at most 1/2), and KL ≤ χ², :math:`d_{\inf}\le\Delta_a^2/(\mu^*(1-\mu^*))`
    (so that ratio is at least ``lower_const``). ``terms`` are those of ``means``, ``const`` is on ``eps_axis``."""
    tr = _check_terms(terms)
    const, eps_axis = _check_curve(const, eps_axis)
    best = np.asarray(means).max()
    r = const / np.array([np.sum(1 / np.minimum(tr.gaps, e)) for e in eps_axis])
    return Consequence2(
        t_inf_is_gap=bool(np.array_equal(tr.t_inf, tr.gaps)),
        pinsker=float(np.min(tr.d_inf / (2 * tr.gaps**2))),
        chi2=float(np.max(tr.d_inf * best * (1 - best) / tr.gaps**2)),
        ratio_min=float(r.min()),
        ratio_max=float(r.max()),
        lower_const=1 / max(1 / (best * (1 - best)), 6),
    )


def shariff_sheffet_ratio(const, terms, eps_axis, n_arms: int) -> np.ndarray:
    r"""The constant ``const`` of Theorem 3 on ``eps_axis`` over the shape :math:`\max\{\sum_a 1/\Delta_a, K/\epsilon\}`
    of the lower bound of Shariff and Sheffet (2018), with K = ``n_arms``."""
    const, eps_axis = _check_curve(const, eps_axis)
    k = check_int("n_arms", n_arms, minimum=2)
    return const / np.maximum(np.sum(1 / _check_terms(terms).gaps), k / eps_axis)


def families(sigma, means=None) -> dict:
    r"""The families of arms whose switch points Theorem 3 compares, name -> keyword arguments of
    ``ldp.bounds.gdp_lower_bound_terms``: Bernoulli, Gaussian of standard deviation ``sigma`` in the known- and in
    the unknown-variance class and, if ``means`` is given, Gaussian with each Bernoulli arm's own standard
    deviation :math:`\sqrt{\mu_a(1-\mu_a)}` (known variance, "matched")."""
    out = {
        "Bernoulli": dict(family="bernoulli"),
        f"Gaussian σ = {sigma:g}, known": dict(family="gaussian", sigma=sigma),
        f"Gaussian σ = {sigma:g}, unknown": dict(family="gaussian", sigma=sigma, variance="unknown"),
    }
    if means is not None:
        m = np.asarray(means, dtype=float)
        out["Gaussian matched sd, known"] = dict(family="gaussian", sigma=np.sqrt(m * (1 - m)))
    return out


def switch_table(means, epsilon, sigma) -> Table:
    r"""Per family of :func:`families` (matched included): the switch points :math:`\epsilon_a = d_{\inf}/(6t_{\inf})`
    of the suboptimal arms of ``means`` and the constant of eq. (4) of Theorem 3 at ``epsilon``."""
    rows = []
    for fam, kw in families(sigma, means).items():
        tr = gdp_lower_bound_terms(means, epsilon, **kw)
        rows.append([fam, *tr.epsilon_threshold, tr.value])
    head = ["family", *[f"ε_{a}" for a in tr.arms], "constant of (4)"]
    return Table(head, rows, formats=[None] + [".4f"] * tr.arms.size + [".4f"])


def switch_curves(mu_star, gaps, epsilon, sigma) -> dict:
    """Per family of :func:`families` (matched included): the switch point of Theorem 3 of the arm
    ``mu_star - gap`` of the two-arm instance (``mu_star``, ``mu_star - gap``), at each gap of ``gaps``."""
    out = {}
    for fam in families(sigma, [mu_star]):
        pairs = ([mu_star, mu_star - g] for g in gaps)
        out[fam] = np.array(
            [gdp_lower_bound_terms(m, epsilon, **families(sigma, m)[fam]).epsilon_threshold[0] for m in pairs]
        )
    return out


def switch_panel(ax, gaps, curves, mu_star) -> None:
    r"""The :func:`switch_curves` against the gap (log axes), with the small-gap Bernoulli slope
    :math:`\Delta/(12\mu^*(1-\mu^*))` dashed: where the private term of Theorem 3 takes over."""
    from ..plotting import THEORY_STYLE, paper_axes

    styles = ({"color": "k", "linewidth": 2}, {"color": "C0"}, {"color": "C1"}, {"color": "C2", "linestyle": "-."})
    for (fam, y), st in zip(curves.items(), styles):
        ax.plot(gaps, y, label=fam, **st)
    slope, label = gaps / (12 * mu_star * (1 - mu_star)), "Δ/(12 μ*(1-μ*)), small-gap Bernoulli"
    ax.plot(gaps, slope, color="k", **THEORY_STYLE, label=label)
    xlabel, ylabel = f"gap Δ (μ* = {mu_star})", "switch point ε_a = d_inf/(6 t_inf)"
    paper_axes(ax, xlabel=xlabel, ylabel=ylabel, title="high-privacy regime for ε < ε_a")
    ax.legend(loc="upper left", fontsize="x-small")
