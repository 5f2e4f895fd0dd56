"""Whole figures shared by two notebooks each: Ren et al. (2020a), Theorems 4 and 6; Ren et al. (2020b), Theorems 7
and 10; each a short sequence of the panels of :mod:`.panels`. The computations behind them are in
:mod:`ldpcode.experiments`, which hands them their data."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from .panels import band_curve, regret_panel
from .theme import THEORY_STYLE, legend_under_panels, paper_axes


def looseness_figure(curves, t, keep, *, title, ylabel, ratio_title, uniform_rate, t_min):
    """Two panels: the mean regret of each run with its bound (dashed) and the regret of uniform play
    ``t * uniform_rate`` (dotted); then the ratio bound / mean regret against t.

    ``curves``: list of (label, SimulationResult, bound at each t, colour); ``keep`` selects ``t`` from the
    results' checkpoints. For Theorem 4 (LDP-UCB-L) and Theorem 6 (LDP-UCB-B, beside UCB1's bound of Auer et
    al. 2002) of Ren et al. (2020a). Returns the figure.
    """
    curves = list(curves)
    if not curves:
        raise ValueError("curves must hold at least one (label, result, bound, colour), got none")
    t = np.asarray(t)
    for label, res, bound, _ in curves:
        if np.shape(bound) != t.shape:
            raise ValueError(
                f"the bound of {label!r} must have one value per t, shape {t.shape}, got {np.shape(bound)}"
            )
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    regret_panel(
        axes[0],
        [c[1] for c in curves],
        colors=[c[3] for c in curves],
        labels=[c[0] for c in curves],
        title=title,
        t_min=t_min,
    )
    for _, _, bound, color in curves:
        axes[0].plot(t, bound, color=color, **THEORY_STYLE)
    axes[0].plot(t, t * uniform_rate, color="grey", linestyle=":", label="uniform play")
    axes[0].legend(loc="lower right")  # the regrets rise from the lower left; upper left, it hid the dashed bounds
    for label, res, bound, color in curves:
        axes[1].plot(t, bound / res.mean_regret()[keep], color=color, label=label)
    paper_axes(axes[1], ylabel=ylabel, title=ratio_title)
    axes[1].legend()
    fig.tight_layout()
    return fig


def gap_pulls_figure(t, pulls, pulls_bound, *, horizon, title, forced_floor=False):
    """One panel per ε: the mean pulls E[N_a(t)] of each gap group (solid, :func:`band_curve`) and its bound
    (dashed), the bound on the pulls of a suboptimal arm in the proofs of Theorems 4 and 6 of Ren et al.
    (2020a), Appendix A.2 / A.4. ``pulls`` and ``pulls_bound``: ε -> gap -> values at each t (pulls with one
    row per run), as :func:`ldpcode.experiments.bounds_along_run` gives them. ``forced_floor`` draws
    LDP-UCB-L's floor of forced pulls 4 log(t + 1) (its Lines 5-6). ``title`` is the figure's title, to which
    the horizon and number of runs are added. Returns the figure.
    """
    from ..claims.tables import format_horizon

    epsilons = list(pulls)
    if not epsilons or set(epsilons) != set(pulls_bound):
        raise ValueError(
            f"pulls and pulls_bound must have the same non-empty epsilons, got {epsilons} and {list(pulls_bound)}"
        )
    t = np.asarray(t)
    gaps = list(pulls[epsilons[0]])
    runs = next(iter(pulls[epsilons[0]].values())).shape[0]
    gap_colors = dict(zip(gaps, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    fig, axes = plt.subplots(1, len(epsilons), figsize=(10, 3.6), sharey=True)
    axes = np.atleast_1d(axes)  # one value: plt.subplots returns a single Axes
    for ax, eps in zip(axes, epsilons):
        for g in gaps:
            band_curve(ax, t, pulls[eps][g], color=gap_colors[g], label=f"Δ = {g:g}")
            ax.plot(t, pulls_bound[eps][g], color=gap_colors[g], **THEORY_STYLE)
        if forced_floor:
            ax.plot(t, 4 * np.log(t + 1), color="grey", linestyle=":", label="4 log(t+1)")
        paper_axes(ax, ylabel=r"$E[N_a(t)]$ per arm" if eps == epsilons[0] else "", title=f"ε = {eps:g}")
        ax.set_ylim(1, 2 * horizon)
    fig.suptitle(f"{title}, T = {format_horizon(horizon, mathtext=True)}, {runs} runs", fontsize="medium")
    # one legend under the panels: inside any of them it lay over the counts or the dashed bounds
    legend_under_panels(fig, axes[0], ncol=len(axes[0].get_legend_handles_labels()[1]), space=0.08)
    return fig


def rate_figure(results, t, n_arms, *, colors, title):
    r"""The mean regret of each run (ε -> SimulationResult) with the distribution-free rate
    ε^{-1} sqrt(n t log t) of Theorems 4 and 6 of Ren et al. (2020a) at constant 1 (dotted,
    :func:`ldpcode.bounds.distribution_free_rate`), one colour per ε (``colors``: ε -> colour). Returns the
    figure."""
    from ..bounds import distribution_free_rate

    epsilons = list(results)
    if not epsilons:
        raise ValueError("results must hold at least one epsilon -> SimulationResult, got none")
    fig, ax = plt.subplots(figsize=(6.5, 4))
    regret_panel(
        ax,
        list(results.values()),
        colors=[colors[e] for e in epsilons],
        labels=[f"ε = {e:g}" for e in epsilons],
        t_min=n_arms,
        title=title,
    )
    for eps in epsilons:
        ax.plot(t, [distribution_free_rate(n_arms, int(s), eps) for s in t], color=colors[eps], linestyle=":")
    return fig


def heterogeneous_bound_figure(run, instance, *, label, theorem, regret_bound):
    """One panel per setting, two a row: the mean regret of ``run`` (a :class:`ldpcode.experiments.HeterogeneousRun`) with
    the theorem's bound, infimum over κ, at every t (dashed); a last panel with the bracket at T against κ,
    ``regret_bound(means, T, levels, ε_min, kappa=κ)``, and its infimum (dots). For Theorem 7 (HeLDP-UCB-L)
    and Theorem 10 (HeLDP-UCB-B) of Ren et al. (2020b); ``label`` names the agent, ``theorem`` the bound.
    Returns the figure."""
    from ..claims.tables import heldp_setting_name

    if not callable(regret_bound):
        raise TypeError(f"regret_bound must be a function of ldpcode.bounds, got {type(regret_bound).__name__}")
    horizon = next(iter(run.results.values())).horizon
    # two panels a row: five in one row were shown at 9 px fonts and 110 px panels in the book's column
    rows = math.ceil((len(run.results) + 1) / 2)
    fig, grid = plt.subplots(rows, 2, figsize=(8.5, 3.4 * rows), squeeze=False)
    axes = list(grid.ravel())
    for extra in axes[len(run.results) + 1 :]:
        extra.remove()
    axes = axes[: len(run.results) + 1]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, (key, res), col in zip(axes, run.results.items(), colors):
        regret_panel(ax, [res], labels=[label], colors=[col], title=heldp_setting_name(*key), t_min=instance.n_arms)
        ax.plot(run.t, run.best[key][:, 1], color=col, label=theorem, **THEORY_STYLE)
        ax.set_ylim(bottom=1)
        ax.get_legend().remove()  # the figure's suptitle is the key
    # one key for the three regret panels, above them: a legend inside each was wider than its narrow panel and
    # covered the tick labels, or the dashed bound at the top
    fig.suptitle(f"solid: {label}, mean regret; dashed: {theorem}'s bound, infimum over κ", fontsize="medium")
    kappas = np.exp(np.linspace(math.log(1e-2), math.log(10.0), 60))
    ax = axes[-1]
    for (key, lv), col in zip(run.levels.items(), colors):
        vals = [regret_bound(instance.means, horizon, lv, key[1], kappa=k) for k in kappas]
        ax.plot(kappas, vals, color=col, label=heldp_setting_name(*key))
        ax.plot(*run.best[key][-1], "o", color=col)
    paper_axes(ax, xlabel="κ", ylabel=f"{theorem}'s bracket at T", title="the infimum over κ (dots)")
    ax.legend(fontsize="x-small", loc="upper center")  # between the two arms of the U-shaped brackets
    fig.tight_layout()
    return fig


def constant_levels_figure(pairs, t, n_arms, *, labels, bound_label):
    """One panel per ε: the mean regrets of the heterogeneous and the homogeneous agent under constant levels
    ε = ε_min (``pairs``: ε -> :class:`ldpcode.experiments.ConstantLevelsPair`; ``labels``: their two names)
    and the corollary's bound at every t (dashed, ``bound_label``): Corollaries 8 and 11 of Ren et al.
    (2020b). Returns the figure."""
    if not pairs:
        raise ValueError("pairs must hold at least one epsilon -> ConstantLevelsPair, got none")
    if len(labels) != 2:
        raise ValueError(f"labels must name the two agents (heterogeneous, homogeneous), got {labels!r}")
    fig, axes = plt.subplots(1, len(pairs), figsize=(10, 3.8))
    axes = np.atleast_1d(axes)  # one value: plt.subplots returns a single Axes
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, (eps, p) in zip(axes, pairs.items()):
        regret_panel(
            ax,
            [p.he, p.ho],
            labels=list(labels),
            colors=[colors[0], colors[1]],
            styles=["-", (0, (4, 3))],  # the homogeneous agent dashed: where both make the same choices, both show
            title=f"constant levels ε = ε_min = {eps:g}",
            t_min=n_arms,
        )
        ax.plot(t, p.corollary_t, color="k", label=bound_label, **THEORY_STYLE)
        ax.legend(loc="lower right", fontsize="small")  # the regrets rise from the lower left, the bound runs on top
    fig.tight_layout()
    return fig
