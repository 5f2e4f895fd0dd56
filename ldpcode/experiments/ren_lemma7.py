r"""Ren et al. (2020a), Lemma 7: tables, claims and figures of ``chapters/ren2020/lemma7_sigmoid``.

Lemma 7 bounds :math:`\mathbb{E}[s(\lambda+Z)-s(\mu+Z)] \ge c_s(\lambda-\mu)` for the Sigmoid s; its constants are
in :mod:`ldpcode.bounds.lemma7`. This module is what the notebook does with them: the constants and the objective
of step (3) of the proof (:func:`constants`, :func:`constants_summary`), the gap ratio of each noise law on a grid
of pairs and the worst variance-one law (:func:`gap_ratios`, :func:`gap_table`, :func:`worst_law_summary`), the
"bound" claims on the smallest gap ratios (:func:`gap_ratio_claims`) and the two figures
(:func:`objective_ratio_figure`, :func:`adjacent_ratio_figure`). The notebook's second computations (the paper's
:math:`v_a` transcribed, Stein's identity, the Chebyshev first-order condition) stay in the notebook: a claim's
second way must not come from the package.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import plotting
from .._validate import check_int
from ..bounds import (
    c_s_gaussian,
    c_s_subgaussian,
    lemma7_chebyshev_constant,
    lemma7_gaussian_integral,
    lemma7_subgaussian_objective,
    lemma7_subgaussian_sup,
    lemma7_worst_noise,
)
from ..claims import Table
from ..mechanisms import discrete_sigmoid_mean, gaussian_sigmoid_mean

#: The noise laws of the gap-ratio table, in its order: the Gaussian, two discrete sub-Gaussian laws of variance
#: one (name -> (atoms, probabilities)), and the worst variance-one law of the linear program.
GAUSSIAN = "Gaussian N(0, 1)"
DISCRETE = {
    "Rademacher ±1": ([-1.0, 1.0], [0.5, 0.5]),
    "three-point {-√3, 0, √3}": ([-math.sqrt(3), 0.0, math.sqrt(3)], [1 / 6, 2 / 3, 1 / 6]),
}
WORST = "worst case at t = 1 (LP)"
#: The claim id of each noise law: ``min_gap_ratio_<slug>``.
SLUGS = {GAUSSIAN: "gaussian", **dict(zip(DISCRETE, ("rademacher", "three_point"))), WORST: "worst_variance_one_law"}
LP_NOTE = "rtol 10⁻⁶: the law comes from a linear program that HiGHS solves to a feasibility tolerance of 10⁻⁷"


@dataclass(frozen=True)
class Constants:
    """What :func:`constants` returns: the argmax ``a_star`` and maximum ``sup_value`` of step (3)'s objective,
    the Gaussian expectation ``gauss_integral``, the constants ``c_sub`` and ``c_gauss`` (divided by e), the
    Chebyshev constant ``cheb_value`` at ``cheb_c``, and the ``objective`` on the grid ``a_grid``."""

    a_star: float
    sup_value: float
    gauss_integral: float
    c_sub: float
    c_gauss: float
    cheb_c: float
    cheb_value: float
    a_grid: np.ndarray
    objective: np.ndarray


def constants(a_points: int) -> Constants:
    r"""The constants of Lemma 7 of Ren et al. (2020a), Appendix A.5, recomputed by ``ldp.bounds``: the supremum of
    step (3)'s objective :math:`a(1-2e^{-v_a^2/2})` and its argmax, the Gaussian :math:`\mathbb{E}[s'(Z)]`,
    :math:`c_s` for both, the Chebyshev constant, and the objective at ``a_points`` evenly spaced interior points
    of :math:`(0, 1/4)`."""
    a_points = check_int("a_points", a_points, minimum=1)
    a_star, sup_value = lemma7_subgaussian_sup()
    cheb_c, cheb_value = lemma7_chebyshev_constant()
    a_grid = np.linspace(0.0, 0.25, a_points + 2)[1:-1]
    return Constants(
        a_star=a_star,
        sup_value=sup_value,
        gauss_integral=lemma7_gaussian_integral(),
        c_sub=c_s_subgaussian(),
        c_gauss=c_s_gaussian(),
        cheb_c=cheb_c,
        cheb_value=cheb_value,
        a_grid=a_grid,
        objective=np.array([lemma7_subgaussian_objective(a) for a in a_grid]),
    )


def constants_summary(k: Constants, paper_a: float, paper_sup: float, paper_gauss: float) -> str:
    """Six lines setting the constants ``k`` of :func:`constants` beside the paper's numbers of Lemma 7 (Appendix
    A.5): its point ``paper_a``, its lower bound ``paper_sup`` on the supremum and its Gaussian value
    ``paper_gauss``."""
    return "\n".join(
        [
            f"argmax a = {k.a_star:.6f} (the paper evaluates at a = {paper_a}); objective there {k.sup_value:.6f} "
            f"(paper: sup ≥ {paper_sup})",
            f"objective at the paper's a = {paper_a}: {lemma7_subgaussian_objective(paper_a):.6f}",
            f"Gaussian E[e^-Z/(1+e^-Z)^2] = {k.gauss_integral:.6f} (paper: {paper_gauss})",
            f"c_s sub-Gaussian = {k.c_sub:.6f} (paper {paper_sup}/e = {paper_sup / math.e:.6f})",
            f"c_s Gaussian     = {k.c_gauss:.6f} (paper {paper_gauss}/e = {paper_gauss / math.e:.6f})",
            f"Chebyshev constant (variance ≤ 1 only) = {k.cheb_value:.6f} at c = {k.cheb_c:.4f}",
        ]
    )


@dataclass(frozen=True)
class GapRatios:
    """What :func:`gap_ratios` returns: the grid ``x`` and its pairs ``mu_i < lam_j`` (indices); per noise law
    (name) the gap ratio of every pair (``ratios``) and its minimum (``mins``: ratio, mu, lambda); the grid
    ``t_grid``, the linear program's result (value, atoms, probs) at each t (``worst``) and the index
    ``i_worst`` of the smallest."""

    x: np.ndarray
    mu_i: np.ndarray
    lam_j: np.ndarray
    ratios: dict
    mins: dict
    t_grid: np.ndarray
    worst: list
    i_worst: int

    @property
    def lp(self) -> tuple:
        """(value, atoms, probs) of the worst variance-one law over ``t_grid``: the best constant Lemma 7 could
        state."""
        return self.worst[self.i_worst]


def gap_ratios(grid_points: int, t_points: int, z_max: float, step: float) -> GapRatios:
    r"""The gap ratio :math:`(m(\lambda)-m(\mu))/(\lambda-\mu)`, :math:`m(x) = \mathbb{E}[s(x+Z)]`, of every pair
    :math:`\mu < \lambda` of ``grid_points`` evenly spaced points of [0, 1], for each noise law: the Gaussian
    (``ldp.mechanisms.gaussian_sigmoid_mean``), those of ``DISCRETE`` and the worst variance-one law
    (``ldp.mechanisms.discrete_sigmoid_mean``). The worst law is the minimizer of
    ``ldp.bounds.lemma7_worst_noise(t, z_max=z_max, step=step)`` over ``t_points`` evenly spaced t in [0, 1].
    The measured side of Lemma 7 of Ren et al. (2020a)."""
    grid_points = check_int("grid_points", grid_points, minimum=2)
    t_points = check_int("t_points", t_points, minimum=1)
    x = np.linspace(0.0, 1.0, grid_points)
    means = {GAUSSIAN: gaussian_sigmoid_mean(x)}
    means.update({name: discrete_sigmoid_mean(x, atoms, probs) for name, (atoms, probs) in DISCRETE.items()})
    t_grid = np.linspace(0.0, 1.0, t_points)
    worst = [lemma7_worst_noise(t, z_max=z_max, step=step) for t in t_grid]
    i_worst = int(np.argmin([w[0] for w in worst]))
    means[WORST] = discrete_sigmoid_mean(x, worst[i_worst][1], worst[i_worst][2])
    mu_i, lam_j = np.triu_indices(grid_points, k=1)
    ratios, mins = {}, {}
    for name, m in means.items():
        r = (m[lam_j] - m[mu_i]) / (x[lam_j] - x[mu_i])
        ratios[name] = r
        j = int(np.argmin(r))
        mins[name] = (float(r[j]), x[mu_i[j]], x[lam_j[j]])
    return GapRatios(x, mu_i, lam_j, ratios, mins, t_grid, worst, i_worst)


def gap_table(g: GapRatios, k: Constants) -> Table:
    """Per noise law: the smallest gap ratio of ``g``, the pair (mu, lambda) where it is reached, and its ratio to
    the two constants c_s of Lemma 7 in ``k`` (sub-Gaussian and Gaussian)."""
    rows = [[name, r, f"({mu:.2f}, {lam:.2f})", r / k.c_sub, r / k.c_gauss] for name, (r, mu, lam) in g.mins.items()]
    return Table(
        ["noise", "min gap ratio", "at (μ, λ)", "/ c_s", "/ c_s Gauss"], rows, formats=[None, ".4f", None, ".2f", ".2f"]
    )


def worst_law_summary(g: GapRatios, k: Constants) -> str:
    """Two lines: the worst variance-one law of ``g`` (atoms, probabilities, the t where it is worst) and the best
    constant Lemma 7 could state, against the constants c_s of ``k``."""
    value, atoms, probs = g.lp
    return (
        f"worst law over variance-one noises: atoms {np.round(atoms, 2).tolist()}, "
        f"probabilities {np.round(probs, 3).tolist()}, at t = {g.t_grid[g.i_worst]:.2f}\n"
        f"best possible constant (LP): {value:.4f} = {value / k.c_sub:.2f} c_s = {value / k.c_gauss:.2f} c_s(Gauss)"
    )


def gap_ratio_claims(g: GapRatios, k: Constants, src: str, *, paper_sup: float, paper_gauss: float) -> list[dict]:
    """The "bound" claims of Lemma 7 of Ren et al. (2020a), as keyword arguments of ``nb.bound``: the smallest
    gap ratio of each noise law of ``g`` is at least the lemma's c_s (``k.c_gauss`` for the Gaussian, ``k.c_sub``
    for the others; the paper prints them as ``paper_gauss``/e and ``paper_sup``/e), and so is the best constant
    over all variance-one laws. ``src`` opens each claim's text."""
    gauss = f"Lemma 7's c_s = {paper_gauss}/e for Gaussian noise"
    sub = f"Lemma 7's c_s = {paper_sup}/e for sub-Gaussian noise"
    out = []
    for name, (r, mu, lam) in g.mins.items():
        lp = name == WORST
        out.append(
            dict(
                name=f"min_gap_ratio_{SLUGS[name]}",
                source=f"{src}: smallest gap ratio over the grid, {name} noise",
                reproduced=r,
                bound=k.c_gauss if name == GAUSSIAN else k.c_sub,
                sense=">=",
                how=gauss if name == GAUSSIAN else sub,
                rtol=1e-6 if lp else 1e-9,
                note=f"minimum over the grid at (mu, lambda) = ({mu:.2f}, {lam:.2f})" + (f"; {LP_NOTE}" if lp else ""),
            )
        )
    out.append(
        dict(
            name="best_constant_variance_one",
            source=f"{src}: min over t of inf_Z E[s'(t + Z)], Z of mean 0, variance 1",
            reproduced=g.lp[0],
            bound=k.c_sub,
            sense=">=",
            rtol=1e-6,
            how=f"Lemma 7's c_s = {paper_sup}/e, stated for every sub-Gaussian noise of variance one",
            note=f"the best constant Lemma 7 could state for variance-one noises (linear programs); {LP_NOTE}",
        )
    )
    return out


def objective_ratio_figure(k: Constants, g: GapRatios, paper_a: float, paper_sup: float):
    """Left: step (3)'s objective of Lemma 7 against a (``k``), with its argmax, the paper's ``paper_a`` and
    value ``paper_sup``. Right: the gap ratio of Gaussian noise over the triangle mu < lambda of ``g``'s grid.
    Returns the figure."""
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.6))
    ax1.plot(k.a_grid, k.objective, color="k", label=r"$a\,(1 - 2e^{-v_a^2/2})$")
    ax1.axvline(k.a_star, color="C0", linewidth=1, label=f"argmax a = {k.a_star:.4f}")
    ax1.axvline(paper_a, color="C3", **plotting.THEORY_STYLE, label=f"paper's a = {paper_a}")
    ax1.axhline(paper_sup, color="0.5", linewidth=1, label=f"paper's value {paper_sup}")
    ax1.set_ylim(-0.02, 0.09)
    ax1.set_xlabel("a")
    ax1.set_ylabel("objective of step (3)")
    ax1.set_title("the sub-Gaussian constant (before dividing by e)")
    plotting.legend_below(ax1, offset=-0.2)  # inside, it met the curve
    n = g.x.size
    img = np.full((n, n), np.nan)
    img[g.lam_j, g.mu_i] = g.ratios[GAUSSIAN]
    im = ax2.imshow(img, origin="lower", extent=(0, 1, 0, 1), cmap="viridis", aspect="auto")
    fig.colorbar(im, ax=ax2, label=r"$\mathbb{E}[s(X)-s(Y)]/(\lambda-\mu)$")
    ax2.grid(False)
    ax2.set_xlabel(r"$\mu$")
    ax2.set_ylabel(r"$\lambda$")
    ax2.set_title(f"gap ratio, Gaussian noise, {n}×{n} grid")
    fig.tight_layout()
    return fig


def adjacent_ratio_figure(k: Constants, g: GapRatios):
    """The gap ratio of the pairs of neighbouring grid points of ``g`` against their midpoint, per noise law, with
    the linear program's infimum at each t and the constants c_s and the Chebyshev constant of ``k``: Lemma 7's
    constants against the measured ratios. Returns the figure."""
    import matplotlib.pyplot as plt

    x, mu_i, lam_j = g.x, g.mu_i, g.lam_j
    fig, ax = plt.subplots(figsize=(8, 4))
    adjacent = lam_j == mu_i + 1
    # the Gaussian curve lies on the three-point one from midpoint 0.3 on: drawn wide and pale beneath it, the
    # three-point dashed over it, and the worst case in a colour of its own (C1 and C3 are both orange-red)
    styles = {GAUSSIAN: dict(linewidth=3.2, alpha=0.55), WORST: dict(color="C4")}
    styles.update({name: dict(linestyle=(0, (4, 2))) for name in DISCRETE if name.startswith("three-point")})
    for name, r in g.ratios.items():
        ax.plot((x[mu_i] + x[lam_j])[adjacent] / 2, r[adjacent], label=name, **styles.get(name, {}))
    ax.plot(g.t_grid, [w[0] for w in g.worst], "o", color="k", markersize=4, label="inf over variance-one laws (LP)")
    ax.axhline(k.c_gauss, color="C0", **plotting.THEORY_STYLE, label=f"paper's c_s, Gaussian = {k.c_gauss:.4f}")
    ax.axhline(k.c_sub, color="C7", **plotting.THEORY_STYLE, label=f"paper's c_s, sub-Gaussian = {k.c_sub:.4f}")
    ax.axhline(k.cheb_value, color="k", linestyle=":", label=f"Chebyshev constant = {k.cheb_value:.4f}")
    ax.set_ylim(0, 0.22)
    ax.set_xlabel(r"midpoint $(\mu + \lambda)/2$")
    ax.set_ylabel("gap ratio")
    ax.set_title(rf"Lemma 7: measured gap ratios against $c_s$ ($\lambda - \mu$ = {x[1] - x[0]:g})")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="x-small")
    fig.tight_layout()
    return fig
