r"""Azize and Basu (2022), Theorem 2: tables, simulations and figures of ``chapters/azize2022/theorem2_minimax``.

The minimax lower bound (3), :math:`\max\{\sqrt{T(K-1)}/27, (K-1)/(131\epsilon)\}`, is
:func:`ldpcode.bounds.gdp_minimax_lower_bound`; this module is what the notebook does with it: the bound at a few
ε (:func:`bound_table`) and against ε and T (:func:`bound_figure`); the simulated worst case of ε-global DP
policies over a grid of Bernoulli instances (:func:`simulate_grid`, a :class:`MinimaxGrid`), read at the horizon
(:func:`worst_cases`, :func:`smaller_worst_case`, :func:`placement_table`, :func:`gap_figure`), along the run
(:func:`horizon_figure`) and at the first checkpoint :math:`t \ge 10`, where (3) fails on bounded rewards
(:func:`early_worst_cases`). The notebook's second computations (the closed-form crossing written out) stay in the
notebook: a claim's second way must not come from the package.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from ..bounds import gdp_minimax_lower_bound, gdp_minimax_threshold
from ..claims import Table
from ..claims.tables import power_of_ten
from ..instances import make_instance
from ..policies import make_policy
from ..simulate import simulate
from ..stats import mean_se

PLACEMENTS = ("first", "last")


@dataclass(frozen=True)
class MinimaxGrid:
    r"""What :func:`simulate_grid` returns: the regret of each policy on the instances :math:`\{\mu_0 + \Delta,
    \mu_0, \dots, \mu_0\}` with the better arm first or last. ``regret[policy, K, epsilon]`` is an array of shape
    (placements, gaps, runs, checkpoints), the placements in the order of ``PLACEMENTS``."""

    policies: tuple
    n_arms: tuple
    epsilons: tuple
    gaps: np.ndarray
    checkpoints: np.ndarray
    runs: int
    regret: dict

    @property
    def horizon(self) -> int:
        """The last checkpoint T."""
        return int(self.checkpoints[-1])


def _check_grid(grid) -> MinimaxGrid:
    if not isinstance(grid, MinimaxGrid):
        raise TypeError(f"grid must be a MinimaxGrid (azize_minimax.simulate_grid), got {type(grid).__name__}")
    return grid


def bound_table(horizon: int, n_arms: int, epsilons) -> Table:
    r"""Theorem 2's bound (3) at each ε of ``epsilons``, beside its ε-free term :math:`\sqrt{T(K-1)}/27`, for
    T = ``horizon``, K = ``n_arms``: the bound at the crossing of its two terms and at the paper's threshold."""
    rows = [[e, gdp_minimax_lower_bound(horizon, n_arms, e), math.sqrt(horizon * (n_arms - 1)) / 27] for e in epsilons]
    return Table(["ε", "bound (3)", "ε-free term"], rows, formats=[".5f", ".2f", ".2f"])


def example_words(horizon: int, n_arms: int) -> tuple[str, str]:
    """The example (T, K) of the Consequences of Theorem 2 in a claim: its id part (``'T1e6_K100'``) and its words
    (``'T = 10^6, K = 100'``; a horizon that is not a power of ten written out)."""
    from ..claims.tables import horizon_tag

    k = round(math.log10(horizon))
    t = f"10^{k}" if horizon == 10**k else f"{horizon}"
    return f"{horizon_tag(horizon)}_K{n_arms}", f"T = {t}, K = {n_arms}"


def bound_figure(curves_kt, curves_eps, example, printed_threshold: float):
    """Theorem 2's bound (3) against ε for each (T, K) of ``curves_kt`` (dots: the crossing of its two terms,
    :func:`ldpcode.bounds.gdp_minimax_threshold`; dotted: ``printed_threshold``, the paper's threshold at
    ``example`` = (T, K)), and against T at K of ``example`` for each ε of ``curves_eps``. Returns the figure."""
    import matplotlib.pyplot as plt

    from ..claims.tables import format_horizon
    from ..plotting import THEORY_STYLE, legend_below, paper_axes

    t_ex, k_ex = example
    eps_axis = np.geomspace(1e-6, 10, 400)
    t_axis = np.unique(np.geomspace(100, 1e9, 300).astype(np.int64))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 5))
    for (T, K), c in zip(curves_kt, plt.cm.viridis(np.linspace(0, 0.85, len(curves_kt)))):
        label = f"K = {K}, T = {format_horizon(T, mathtext=True)}"
        ax1.plot(eps_axis, [gdp_minimax_lower_bound(T, K, e) for e in eps_axis], color=c, label=label)
        x = gdp_minimax_threshold(T, K)
        ax1.plot([x], [gdp_minimax_lower_bound(T, K, x)], "o", color=c)
    label = f"printed threshold, K = {k_ex}, T = {format_horizon(t_ex, mathtext=True)}: {printed_threshold:.3f}"
    ax1.axvline(printed_threshold, color="k", linestyle=":", linewidth=1.2, label=label)
    title = "Theorem 2 against ε (dots: where the two terms cross)"
    paper_axes(ax1, xlabel="privacy budget ε", ylabel="minimax lower bound (3)", title=title)
    legend_below(ax1, offset=-0.2)  # inside, it hid curves
    for e, c in zip(curves_eps, plt.cm.viridis(np.linspace(0, 0.85, len(curves_eps)))):
        ax2.plot(t_axis, [gdp_minimax_lower_bound(int(T), k_ex, e) for T in t_axis], color=c, label=f"ε = {e:g}")
    free = np.sqrt(t_axis * (k_ex - 1)) / 27
    ax2.plot(t_axis, free, color="k", **THEORY_STYLE, label="ε-free term √(T(K-1))/27")
    title = f"Theorem 2 against T, K = {k_ex}"
    paper_axes(ax2, xlabel="horizon T", ylabel="minimax lower bound (3)", title=title)
    legend_below(ax2, offset=-0.2)
    fig.tight_layout()
    return fig


def simulate_grid(policies, n_arms_list, epsilons, gaps, checkpoints, *, base_mean, alpha, runs, seed) -> MinimaxGrid:
    r"""The empirical side of Theorem 2: each policy of ``policies`` (with exploration ``alpha``) at each K of
    ``n_arms_list`` and ε of ``epsilons``, simulated (``runs`` runs, seed ``seed``, read at ``checkpoints``, the
    last one the horizon) on every Bernoulli instance with K - 1 arms of mean ``base_mean`` and one of mean
    ``base_mean`` + Δ, Δ in ``gaps``, placed first and last (``PLACEMENTS``). Running both placements is how the grid
    answers AdaP-KLUCB's saturation at small ε (every index 1, the run set by the order of the arms): the worst case
    is taken over both orders, so the grid does not show :class:`~ldpcode.global_policies.episodes.TieBreakWarning`."""
    from ..global_policies.episodes import TieBreakWarning

    gaps, checkpoints = np.asarray(gaps), np.asarray(checkpoints)
    horizon = int(checkpoints[-1])
    regret = {}
    for name in policies:
        for K in n_arms_list:
            for eps in epsilons:
                pol = make_policy(name, epsilon=eps, alpha=alpha)
                out = np.empty((2, gaps.size, runs, checkpoints.size))
                for p, place in enumerate(PLACEMENTS):
                    for g, d in enumerate(gaps):
                        m = [base_mean] * K
                        m[0 if place == "first" else K - 1] = base_mean + d
                        instance = make_instance("bernoulli", means=m)
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore", TieBreakWarning)
                            out[p, g] = simulate(pol, instance, horizon, runs, seed, checkpoints=checkpoints).regret
                regret[name, K, eps] = out
    return MinimaxGrid(tuple(policies), tuple(n_arms_list), tuple(epsilons), gaps, checkpoints, runs, regret)


def worst_cases(grid) -> tuple[dict, Table]:
    """The worst instance of the grid, for each (policy, K, ε), against Theorem 2's bound (3) at the horizon: the
    largest mean regret over gaps and placements, its standard error over runs, the bound, the placement and the
    gap. Returns the dict ``(policy, K, ε) -> dict(sup, se, bound, place, gap)`` and its table."""
    grid = _check_grid(grid)
    summary, rows = {}, []
    for (name, K, eps), out in grid.regret.items():
        mean = out[..., -1].mean(axis=2)  # (placements, gaps)
        p, g = np.unravel_index(int(np.argmax(mean)), mean.shape)
        se = mean_se(out[p, g, :, -1])
        lb = gdp_minimax_lower_bound(grid.horizon, K, eps)
        summary[name, K, eps] = dict(sup=mean[p, g], se=se, bound=lb, place=PLACEMENTS[p], gap=grid.gaps[g])
        rows.append([name, K, eps, lb, mean[p, g], se, PLACEMENTS[p], grid.gaps[g], mean[p, g] / lb])
    head = ["policy", "K", "ε", "bound (3)", "sup mean regret", "sd/√n", "placement", "Δ", "sup/bound"]
    return summary, Table(head, rows, formats=[None, "d", power_of_ten, ".1f", ".1f", ".1f", None, ".4f", ".1f"])


def smaller_worst_case(summary: dict, policies, n_arms: int, epsilon: float) -> tuple[dict, list]:
    """Of the policies' worst cases in ``summary`` (:func:`worst_cases`) at K = ``n_arms``, ε = ``epsilon``, the
    smaller (the one that bounds the minimax regret best from above), and the names of the policies that reach it."""
    s = min((summary[name, n_arms, epsilon] for name in policies), key=lambda s: s["sup"])
    return s, [name for name in policies if summary[name, n_arms, epsilon]["sup"] == s["sup"]]


def placement_table(grid, epsilon: float) -> Table:
    """At ε = ``epsilon``, for each policy and K, the gap whose worse placement has the largest mean regret at the
    horizon, and the mean regret there with the better arm first and last (tie-breaking of the indices)."""
    grid = _check_grid(grid)
    rows = []
    for name in grid.policies:
        for K in grid.n_arms:
            mean = grid.regret[name, K, epsilon][..., -1].mean(axis=2)
            g = int(np.argmax(mean.max(axis=0)))
            rows.append([name, K, epsilon, grid.gaps[g], mean[0, g], mean[1, g]])
    head = ["policy", "K", "ε", "Δ", "better arm first", "better arm last"]
    return Table(head, rows, formats=[None, "d", power_of_ten, ".4f", ".1f", ".1f"])  # ε and Δ as worst_cases


def gap_figure(grid):
    """For each K (rows) and policy (columns), the mean regret at the horizon against the gap Δ, worse placement,
    with its 95 % band, for each ε, beside Theorem 2's bound (3) (dashed, as each title says). Returns the figure."""
    import matplotlib.pyplot as plt

    from ..claims.tables import format_horizon
    from ..plotting import THEORY_STYLE, epsilon_colors, paper_axes

    grid = _check_grid(grid)
    colors, n_rows = epsilon_colors(grid.epsilons), len(grid.n_arms)
    fig, axes = plt.subplots(n_rows, len(grid.policies), figsize=(10, 3.6 * n_rows), squeeze=False)
    t = format_horizon(grid.horizon, mathtext=True)
    for i, K in enumerate(grid.n_arms):
        for j, name in enumerate(grid.policies):
            ax = axes[i, j]
            for eps in grid.epsilons:
                out = grid.regret[name, K, eps][..., -1]  # (placements, gaps, runs)
                worst = np.argmax(out.mean(axis=2), axis=0)  # worst placement per gap
                vals = out[worst, np.arange(grid.gaps.size)]  # (gaps, runs)
                m = vals.mean(axis=1)
                half = 1.96 * vals.std(axis=1, ddof=1) / math.sqrt(grid.runs)
                c = colors[eps]
                ax.plot(grid.gaps, m, "o-", color=c, markersize=3, label=f"ε = {eps:g}")
                ax.fill_between(grid.gaps, np.maximum(m - half, 1e-1), m + half, color=c, alpha=0.2, linewidth=0)
                ax.axhline(gdp_minimax_lower_bound(grid.horizon, K, eps), color=c, **THEORY_STYLE)
            title = f"{name}, K = {K}: T = {t}, {grid.runs} runs\ndashed: Theorem 2's bound (3) at each ε"
            paper_axes(ax, xlabel="gap Δ of the better arm", ylabel="regret at T", title=title)
            ax.set_ylim(bottom=1)
            ax.legend(loc="lower right", fontsize="x-small")
    fig.tight_layout()
    return fig


def horizon_figure(grid):
    """For each policy, the worst case over the grid of the mean regret at each checkpoint t (from t = max(K, 10)
    on), for each K and ε, beside Theorem 2's bound (3) at horizon t (dashed); one legend below both panels.
    Returns the figure."""
    import matplotlib.pyplot as plt

    from ..plotting import epsilon_colors, paper_axes

    grid = _check_grid(grid)
    colors, cps = epsilon_colors(grid.epsilons), grid.checkpoints
    fig, axes = plt.subplots(1, len(grid.policies), figsize=(10, 3.8), squeeze=False)
    for j, name in enumerate(grid.policies):
        ax = axes[0, j]
        for K, ls in zip(grid.n_arms, ("-", ":")):  # dotted, not dash-dot: dash-dot read as the dashed bounds
            for eps in grid.epsilons:
                sup_t = grid.regret[name, K, eps].mean(axis=2).max(axis=(0, 1))  # (checkpoints,)
                keep = cps >= max(K, 10)
                ax.plot(cps[keep], sup_t[keep], linestyle=ls, color=colors[eps], label=f"K = {K}, ε = {eps:g}")
                bound = [gdp_minimax_lower_bound(int(t), K, eps) for t in cps[keep]]
                ax.plot(cps[keep], bound, color=colors[eps], linestyle="--", linewidth=1.0, alpha=0.8)
        title = f"{name}: worst case vs (3) (dashed), {grid.runs} runs"
        paper_axes(ax, xlabel="horizon t", ylabel="max over the grid of mean regret", title=title)
    fig.tight_layout()
    # one legend for both panels (the same lines), below them: inside, it lay over the curves. One column per ε,
    # one row per K
    handles, labels = axes[0, 0].get_legend_handles_labels()
    n_eps = len(grid.epsilons)
    order = [i + k * n_eps for i in range(n_eps) for k in range(len(grid.n_arms))]
    # the bounds have no entry of their own (one per line would double the legend): one key for all, in grey
    key = plt.Line2D([], [], color="0.45", linestyle="--", linewidth=1.0)
    key.set_label("bound (3) at t, thin dashed,\nin the colour of its (K, ε)")
    fig.legend([handles[i] for i in order] + [key], [labels[i] for i in order] + [key.get_label()], loc="upper center",
               bbox_to_anchor=(0.5, 0.01), ncol=n_eps + 1, fontsize="xx-small")  # fmt: skip
    return fig


@dataclass(frozen=True)
class EarlyWorstCases:
    """What :func:`early_worst_cases` returns: the first checkpoint ``t`` >= 10 and its ``index``; ``values``
    maps (policy, K) to (worst case over the grid, bound (3)) at t; ``larger`` maps K to (policy, worst case,
    bound, standard error) of the policy with the larger worst case; and the ``table``."""

    t: int
    index: int
    values: dict
    larger: dict
    table: Table


def early_worst_cases(grid, epsilon: float) -> EarlyWorstCases:
    r"""The worst case over the grid at ε = ``epsilon`` and the first checkpoint :math:`t \ge 10`, against Theorem
    2's bound (3) at horizon t and the regret :math:`t(K-1)/K` of uniform play (the largest worst case on bounded
    rewards). Below :math:`\epsilon = K/(131 t)` the bound exceeds the latter: (3) fails there."""
    grid = _check_grid(grid)
    cps = grid.checkpoints
    t = int(cps[cps >= 10][0])
    i = int(np.flatnonzero(cps == t)[0])
    values, rows, larger = {}, [], {}
    for name in grid.policies:
        for K in grid.n_arms:
            sup = grid.regret[name, K, epsilon].mean(axis=2).max(axis=(0, 1))[i]
            lb = gdp_minimax_lower_bound(t, K, epsilon)
            values[name, K] = (sup, lb)
            rows.append([name, K, epsilon, t, sup, t * (K - 1) / K, lb])
    for K in grid.n_arms:
        name, (sup, lb) = max(((n, values[n, K]) for n in grid.policies), key=lambda x: x[1][0])
        g = grid.regret[name, K, epsilon][..., i].mean(axis=2)
        p, j = np.unravel_index(int(np.argmax(g)), g.shape)
        larger[K] = (name, sup, lb, mean_se(grid.regret[name, K, epsilon][p, j, :, i]))
    head = ["policy", "K", "ε", "t", "worst case over the grid", "uniform play on {1, 0, …}", "bound (3)"]
    table = Table(head, rows, formats=[None, "d", power_of_ten, "d", ".2f", ".1f", ".1f"])
    return EarlyWorstCases(t, i, values, larger, table)
