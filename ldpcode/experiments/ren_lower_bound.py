r"""Ren et al. (2020), Theorem 1 and Lemma 12: the computations and figures of ``chapters/ren2020/theorem1_lower_bound``.

Theorem 1's constant and its neighbours are the plain functions of :mod:`ldpcode.bounds.ren2020`; this module is
what the notebook does with them: the curves in ε and the table at a few ε (:func:`constant_curves`,
:func:`constants_table`, with the proof's chain :func:`constant_via_lemma12`), where Theorem 1 meets the
non-private Lai-Robbins constant (:func:`lai_robbins_crossings`), Lemma 12 and Fact 13 on the CTB pair over a
:math:`(p, q)` grid (:func:`ctb_grid_ratios`) and on random ε-DP pairs (:func:`random_pair_ratios`,
:func:`lemma12_summary`), and the two figures (:func:`constants_figure`, :func:`lemma12_figure`). The notebook's
second computations (Theorem 1's statement and the proof's :math:`R`, :math:`r` transcribed from the paper) stay
in the notebook: a claim's second way must not come from the package.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from .._validate import as_float_array, check_int, check_probability_vector
from ..audit import random_dp_pair
from ..bounds import (
    basu2019_lower_bound_constant,
    ctb_lai_robbins_constant,
    lai_robbins_constant,
    lemma12_bound,
    lemma12_fact13_bound,
    lower_bound_constant,
    lower_bound_constant_small_epsilon,
    lower_bound_constant_tightened,
)
from ..claims import Table
from ..divergences import kl_mixture

#: the constants of :func:`constant_curves`, label -> function of ``(means, epsilon)``, in the order drawn
CURVES = {
    "Theorem 1": lower_bound_constant,
    "Basu et al. 2019": basu2019_lower_bound_constant,
    "small-ε form 1/(4ε²) Σ 1/Δ": lower_bound_constant_small_epsilon,
    "Theorem 1, Lemma 12 tightened (×4)": lower_bound_constant_tightened,
    "achievable: KL-UCB on CTB": ctb_lai_robbins_constant,
}
#: the two kinds of random pairs of :func:`random_pair_ratios` (``ldp.audit.random_dp_pair``)
MODES = ("interior", "extreme")


def constant_curves(means, epsilons) -> dict:
    r"""Each constant of :data:`CURVES` (Theorem 1, Basu et al. 2019, the small-ε form, Theorem 1 tightened by
    :math:`D(x) \ge 1`, the constant KL-UCB attains on CTB responses) on the Bernoulli arms ``means`` at each ε of
    ``epsilons``: label -> array of the constants, in the order of ``epsilons``."""
    return {name: np.array([fn(means, e) for e in epsilons]) for name, fn in CURVES.items()}


def constant_via_lemma12(means, epsilon) -> float:
    r"""Theorem 1's constant through the proof's chain (Appendix A.1): the sum over the suboptimal arms of the
    Bernoulli ``means`` of :math:`\Delta_a` / Lemma 12's bound :math:`(e^\epsilon-e^{-\epsilon})^2\Delta_a^2` on
    :math:`D_{\mathrm{KL}}(\mu_a\|\mu^*)`; the same formula as ``ldp.bounds.lower_bound_constant``."""
    means = check_probability_vector("means", means)
    best = means.max()
    gaps = best - means[means < best]
    return float(np.sum(gaps / lemma12_bound(best - gaps, best, epsilon)))


def constants_table(means, epsilons) -> Table:
    r"""Theorem 1 at each ε of ``epsilons``, on the Bernoulli arms ``means``: its constant, the same through the
    proof's chain (:func:`constant_via_lemma12`), the constant of Basu et al. (2019) and the ratio, the small-ε
    form, the constant KL-UCB attains on CTB responses and its ratio to Theorem 1's. One row per ε."""
    rows = []
    for e in epsilons:
        t1, ba = lower_bound_constant(means, e), basu2019_lower_bound_constant(means, e)
        ctb = ctb_lai_robbins_constant(means, e)
        via = constant_via_lemma12(means, e)
        rows.append([e, t1, via, ba, t1 / ba, lower_bound_constant_small_epsilon(means, e), ctb, ctb / t1])
    head = ["ε", "Thm 1", "via Lemma 12", "Basu 2019", "Thm 1 / Basu", "small-ε form", "CTB achievable", "CTB / Thm 1"]
    return Table(head, rows, formats=[".2f", ".4g", ".4g", ".4g", ".3g", ".4g", ".4g", ".3g"])


def lai_robbins_crossings(means, eps_min, eps_max) -> dict:
    r"""The ε at which Theorem 1's constant, and its tightened form (×4), equal the non-private Lai-Robbins
    constant of the Bernoulli arms ``means`` (``brentq`` on ``[eps_min, eps_max]``, which must bracket them):
    ``{"Theorem 1": ..., "tightened": ...}``. Below it Theorem 1 says more than Lai and Robbins (1985)."""
    flat = lai_robbins_constant(means)
    fns = (("Theorem 1", lower_bound_constant), ("tightened", lower_bound_constant_tightened))
    return {name: brentq(lambda e: fn(means, e) - flat, eps_min, eps_max) for name, fn in fns}


def ctb_grid_ratios(epsilons, grid_pq) -> np.ndarray:
    r"""Lemma 12 and Fact 13 on the extremal pair: f, g the laws of CTB's response to the rewards 1 and 0, and
    :math:`h_a = pf + (1-p)g`, :math:`h_b = qf + (1-q)g` for p, q on ``grid_pq`` evenly spaced points of [0, 1].
    One row per ε of ``epsilons``: the largest over :math:`p \ne q` of :math:`D_{\mathrm{KL}}(h_a\|h_b)` / Lemma 12's
    bound, of :math:`D_{\mathrm{KL}}(h_a\|h_b)` / Fact 13's :math:`(R-r)^2/(4rR)`, and of Fact 13's / Lemma 12's."""
    from ..mechanisms import CTB

    n = check_int("grid_pq", grid_pq, minimum=2)
    P, Q = np.meshgrid(np.linspace(0, 1, n), np.linspace(0, 1, n), indexing="ij")
    off = P != Q
    out = []
    for e in epsilons:
        c = CTB(e)
        f = np.array([1 - c.probability_one(1.0), c.probability_one(1.0)])  # law of M_B(1) on {0, 1}
        g = np.array([1 - c.probability_one(0.0), c.probability_one(0.0)])  # law of M_B(0)
        kl = kl_mixture(P, Q, f, g)[off]
        b12, b13 = lemma12_bound(P, Q, e)[off], lemma12_fact13_bound(P, Q, e)[off]
        out.append(((kl / b12).max(), (kl / b13).max(), (b13 / b12).max()))
    return np.array(out)


def random_pair_ratios(n_pairs, eps_range, k_max, seed) -> dict:
    r"""Lemma 12 and Fact 13 on random ε-DP pairs: for each mode of :data:`MODES` in turn, ``n_pairs`` pairs
    ``ldp.audit.random_dp_pair(ε, k, rng, mode=mode)`` with, per pair, ε log-uniform on ``eps_range`` = (low,
    high), k uniform on {2, ..., ``k_max``}, then p and q uniform on [0, 1], all drawn in that order from one
    generator ``np.random.default_rng(seed)``. Returns mode -> array with one row per pair: ε,
    :math:`D_{\mathrm{KL}}(h_a\|h_b)` / Lemma 12's bound and :math:`D_{\mathrm{KL}}(h_a\|h_b)` / Fact 13's."""
    n = check_int("n_pairs", n_pairs, minimum=1)
    k_max = check_int("k_max", k_max, minimum=2)
    lo, hi = (float(x) for x in eps_range)
    if not 0 < lo <= hi:
        raise ValueError(f"eps_range must be (low, high) with 0 < low <= high, got {eps_range!r}")
    rng = np.random.default_rng(seed)
    out = {}
    for mode in MODES:
        rows = []
        for _ in range(n):
            e = float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
            f, g = random_dp_pair(e, int(rng.integers(2, k_max + 1)), rng, mode=mode)
            p, q = rng.random(2)
            kl = float(kl_mixture(p, q, f, g))
            rows.append((e, kl / lemma12_bound(p, q, e), kl / lemma12_fact13_bound(p, q, e)))
        out[mode] = np.array(rows)
    return out


def lemma12_summary(ctb, rand) -> str:
    """Three lines on how much room Lemma 12 and Fact 13 leave: the largest of each column of
    :func:`ctb_grid_ratios` ``ctb``, then for each mode of ``rand`` (mode -> rows of :func:`random_pair_ratios`)
    the largest KL / Lemma 12 bound and KL / Fact 13 bound."""
    ctb = _check_rows("ctb", ctb, 3)
    lines = [
        f"CTB pair on the grid: max KL / Lemma 12 = {ctb[:, 0].max():.4f}, max KL / Fact 13 = {ctb[:, 1].max():.4f},"
        f" max Fact 13 / Lemma 12 = {ctb[:, 2].max():.4f}"
    ]
    for mode, r in rand.items():
        r = _check_rows(f"rand[{mode!r}]", r, 3)
        lines.append(
            f"{len(r):,} random {mode} pairs: max KL / Lemma 12 = {r[:, 1].max():.4f}, "
            f"max KL / Fact 13 = {r[:, 2].max():.4f}"
        )
    return "\n".join(lines)


def _check_rows(name, x, columns) -> np.ndarray:
    x = as_float_array(name, x)
    if x.ndim != 2 or x.shape[1] != columns:
        raise ValueError(f"{name} must have {columns} columns, got shape {x.shape}")
    return x


def constants_figure(epsilons, curves, lai_robbins, n_arms):
    r"""Theorem 1 against its neighbours: left, the :func:`constant_curves` ``curves`` against ε with the
    non-private Lai-Robbins constant ``lai_robbins`` (log axes); right, Theorem 1 / Basu et al. and the achievable
    constant (CTB) / Theorem 1. ``n_arms`` goes in the title. Returns the figure."""
    import matplotlib.pyplot as plt

    from ..plotting import THEORY_STYLE, legend_under_panels, paper_axes

    if set(curves) != set(CURVES):
        raise ValueError(f"curves must be those of constant_curves, got {sorted(curves)}")
    styles = {
        "Theorem 1": dict(color="k", linewidth=2),
        "Basu et al. 2019": dict(color="C0"),
        "small-ε form 1/(4ε²) Σ 1/Δ": dict(color="C2", **THEORY_STYLE),
        "Theorem 1, Lemma 12 tightened (×4)": dict(color="k", linestyle=":"),
        "achievable: KL-UCB on CTB": dict(color="C3"),
    }
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    for name, y in curves.items():
        ax1.plot(epsilons, y, label=name, **styles[name])
    ax1.axhline(lai_robbins, color="0.5", linewidth=1, label="non-private Lai-Robbins")
    ylabel = r"constant $c$ in $\liminf\, R(T)/\log T \geq c$"
    paper_axes(ax1, xlabel="privacy level ε", ylabel=ylabel, title=f"constants on the paper's {n_arms}-arm instance")
    t1 = curves["Theorem 1"]
    ax2.plot(epsilons, t1 / curves["Basu et al. 2019"], color="C0", label="Theorem 1 / Basu et al.")
    ax2.plot(epsilons, curves["achievable: KL-UCB on CTB"] / t1, color="C3", label="achievable (CTB) / Theorem 1")
    ax2.axhline(1.0, color="0.5", linewidth=1)
    paper_axes(ax2, xlabel="privacy level ε", ylabel="ratio of constants", title="Theorem 1 against its neighbours")
    ax2.legend(loc="upper left")
    # the left panel's legend under the figure: inside (lower left) it lay over Basu et al.'s curve, and below
    # the left panel alone, in two columns, it was wider than the panel
    legend_under_panels(fig, ax1, ncol=3, space=0.12, fontsize="x-small")
    return fig


def lemma12_figure(epsilons, ctb, rand, *, grid_pq, k_max):
    r"""How much room Lemma 12 leaves: left, the three columns of :func:`ctb_grid_ratios` ``ctb`` against the ε
    of ``epsilons``; right, KL / Lemma 12's bound of each random pair of ``rand`` (mode -> rows of
    :func:`random_pair_ratios`) against its ε, with the CTB pair's maximum. ``grid_pq`` and ``k_max`` go in the
    titles. Returns the figure."""
    import matplotlib.pyplot as plt

    from ..plotting import THEORY_STYLE

    ctb = _check_rows("ctb", ctb, 3)
    if set(rand) != set(MODES):
        raise ValueError(f"rand must map each of {MODES} to its rows, got {sorted(rand)}")
    rand = {mode: _check_rows(f"rand[{mode!r}]", rand[mode], 3) for mode in MODES}
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
    ax1.plot(epsilons, ctb[:, 0], color="k", label="KL / Lemma 12 bound")
    ax1.plot(epsilons, ctb[:, 1], color="C3", label="KL / Fact 13 bound $(R-r)^2/(4rR)$")
    ax1.plot(epsilons, ctb[:, 2], color="C0", **THEORY_STYLE, label="Fact 13 bound / Lemma 12 bound")
    ax1.set_xscale("log")
    ax1.set_ylim(0, 0.8)
    ax1.set_xlabel("privacy level ε")
    ax1.set_ylabel(r"largest ratio over $p \neq q$")
    ax1.set_title(f"extremal pair (CTB), {grid_pq}×{grid_pq} grid of (p, q)")
    ax1.legend(loc="upper left", fontsize="x-small")
    for mode, color in zip(MODES, ("C2", "C1")):
        r = rand[mode]
        ax2.scatter(r[:, 0], r[:, 1], s=2, alpha=0.3, color=color, label=f"random {mode} pairs", rasterized=True)
    ax2.plot(epsilons, ctb[:, 0], color="k", label="CTB pair, max over (p, q)")
    ax2.set_xscale("log")
    ax2.set_xlabel("privacy level ε")
    ax2.set_ylabel(r"$D_{KL}(h_a\|h_b)$ / Lemma 12 bound")
    n_pairs = len(next(iter(rand.values())))
    ax2.set_title(f"{n_pairs:,} random ε-DP pairs per mode, k ≤ {k_max}")
    # right of the axes (the last panel): the random pairs fill it (upper right covered about 4,900 of them)
    ax2.legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize="x-small", markerscale=4)
    fig.tight_layout()
    return fig
