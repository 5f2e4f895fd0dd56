r"""Ren et al. (2020b), Figure 2 (Section 4.2): the runs, fits, tables and picture of ``chapters/heldp/figure2``.

Figure 2 fits the mean regret at T of HeLDP-UCB-L and HeLDP-UCB-B, one point per (law of the levels,
:math:`\epsilon_{\min}`), against :math:`V_L` or :math:`V_B` (:func:`ldpcode.bounds.v_l`, :func:`ldpcode.bounds.v_b`).
A point is keyed by (agent, law, :math:`\epsilon_{\min}`). :func:`theory` computes the quantities of Theorems 7 and 10
and the two values of Section 4.2, :func:`run_points` simulates, :func:`final_regrets` reads the regrets at T and
:func:`point_table` prints them; :func:`all_fits` makes the least-squares fits (:func:`fit_on_v`) and
:func:`fit_table` prints them; :func:`pooled_r2_at`, :func:`late_r2` and :func:`pooled_r2_table` show what moves the
:math:`R^2` of the pooled fit; :func:`bootstrap_fit` gives the fits' bootstrap standard errors; :func:`figure` draws
Figure 2. The notebook's second computation of :math:`V_L`, :math:`V_B` (transcribed from Section 4.2) stays in the
notebook: a claim's second way must not come from the package.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np

from ..bounds import heldp_quantities, v_b, v_l
from ..bounds.heldp import RegretFitOnV, regret_fit_on_v
from ..claims import Table, format_horizon, format_number
from ..plotting import POLICY_COLORS, fit_label, fit_panel, label_points, legend_below
from ..policies import make_policy
from ..simulate import simulate
from ..stats import LinearFit, linear_fit, mean_se

AGENTS = ("HeLDP-UCB-L", "HeLDP-UCB-B")  #: the two agents of Figure 2, in the order of its panels
_V = {"HeLDP-UCB-L": v_l, "HeLDP-UCB-B": v_b}  # the value of Section 4.2 each agent's points are fitted on
SHORT = {"ren-heldp-discrete": "d", "ren-heldp-gaussian": "g"}  #: law -> the letter beside its points in the figure


def _check_points(points, levels=None) -> list:
    if not isinstance(points, (list, tuple)) or not points:
        raise TypeError(f"points must be a non-empty list of (law, epsilon_min) pairs, got {points!r}")
    for pt in points:
        if not (isinstance(pt, tuple) and len(pt) == 2):
            raise TypeError(f"each point must be a (law, epsilon_min) pair, got {pt!r}")
        if levels is not None and pt[0] not in levels:
            raise ValueError(f"the law {pt[0]!r} of point {pt!r} is not one of levels {sorted(levels)}")
    return list(points)


def keys_of(agents, points, laws=None, drop=()) -> list:
    """The keys (agent, law, ε_min) of ``agents`` at ``points`` ((law, ε_min) pairs), agent by agent in the order of
    ``points``; only the laws in ``laws`` (default: all), without the keys in ``drop``."""
    points = _check_points(points)
    if isinstance(agents, str) or not set(agents) <= set(AGENTS):
        raise ValueError(f"agents must be a list of agents among {AGENTS}, got {agents!r}")
    keep = lambda lv, key: (laws is None or lv in laws) and key not in drop  # noqa: E731
    return [(p, lv, em) for p in agents for lv, em in points if keep(lv, (p, lv, em))]


def theory(levels: dict, points) -> tuple[dict, dict]:
    r"""What Figure 2 needs of the law of the levels alone (Theorems 7, 10 and Section 4.2): (``quant``, ``vals``),
    ``quant`` (law, ε_min) -> :func:`ldpcode.bounds.heldp_quantities` (:math:`p_0, \alpha_0, \beta_0`, ...) and
    ``vals`` (agent, law, ε_min) -> :math:`V_L` for HeLDP-UCB-L, :math:`V_B` for HeLDP-UCB-B. ``levels``: law ->
    ``ldp.make_privacy_levels(law)``; ``points``: (law, ε_min) pairs."""
    points = _check_points(points, levels)
    quant = {pt: heldp_quantities(levels[pt[0]], pt[1]) for pt in points}
    vals = {(p, lv, em): _V[p](levels[lv], em) for p in AGENTS for lv, em in points}
    return quant, vals


def run_points(instance, levels: dict, points, *, horizon: int, runs: int, seed: int) -> dict:
    r"""One simulation per point of Figure 2: each agent with threshold ε_min on ``instance``, the users' levels
    drawn from ``levels[law]``, ``runs`` runs to ``horizon``, all from ``seed`` (common random numbers). Returns
    (agent, law, ε_min) -> the result of :func:`ldpcode.simulate`."""
    points = _check_points(points, levels)
    return {
        (p, lv, em): simulate(make_policy(p, epsilon_min=em), instance, horizon, runs, seed, privacy_levels=levels[lv])
        for p in AGENTS
        for lv, em in points
    }


def final_regrets(res: dict) -> tuple[dict, dict, dict]:
    """(``reg``, ``mean``, ``se``), key -> the pseudo-regret of each run at the horizon, its mean over the runs, and
    the standard error of that mean (:func:`ldpcode.stats.mean_se`), for each result of ``res``."""
    reg = {key: r.final_regret() for key, r in res.items()}
    mean = {key: float(r.mean()) for key, r in reg.items()}
    se = {key: mean_se(r) for key, r in reg.items()}
    return reg, mean, se


def point_table(points, quant: dict, vals: dict, mean: dict, se: dict) -> Table:
    r"""The table the paper left to its supplement: per (law, ε_min), :math:`p_0, \alpha_0, \beta_0, V_L, V_B` and
    both agents' mean regrets at T ± their standard errors (the arguments as :func:`theory` and
    :func:`final_regrets` return them)."""
    rows = []
    for lv, em in _check_points(points):
        q, (kl, kb) = quant[(lv, em)], keys_of(AGENTS, [(lv, em)])
        rows.append([lv, em, q.p0, q.alpha0, q.beta0, vals[kl], vals[kb], (mean[kl], se[kl]), (mean[kb], se[kb])])
    head = ["law", "ε_min", "p_0", "α_0", "β_0", "V_L", "V_B", "R_L(T) ± se", "R_B(T) ± se"]
    return Table(head, rows, formats=[None, "g", ".4f", ".4g", ".4g", ".4g", ".4g", ".0f", ".0f"])


def fit_on_v(keys, vals: dict, mean: dict, quant: dict | None = None) -> LinearFit:
    r"""The least-squares line :math:`\bar R(T) \approx a V + b` of Figure 2 through the points ``keys``
    (:func:`ldpcode.stats.linear_fit`). With ``quant``, V is read the other finite way, times :math:`p_0`."""
    x = [vals[k] if quant is None else vals[k] * quant[k[1:]].p0 for k in keys]
    return linear_fit(x, [mean[k] for k in keys])


@dataclass(frozen=True)
class Fits:
    """The fits of :func:`all_fits`: ``agent`` agent -> its own fit over both laws; ``agent_law`` (agent, law) -> over
    one law; ``pooled``, one line through every point of both agents; ``pooled_law`` law -> the same on one law;
    ``times_p0`` agent -> its own fit on V times :math:`p_0`; ``without``, the fit of the agent of ``dropped`` without
    that one point."""

    agent: dict
    agent_law: dict
    pooled: LinearFit
    pooled_law: dict
    times_p0: dict
    dropped: tuple
    without: LinearFit


def all_fits(points, quant: dict, vals: dict, mean: dict, *, drop: tuple) -> Fits:
    """Every fit of Figure 2 the notebook reports (:class:`Fits`, each by :func:`fit_on_v`); ``drop``: the key
    (agent, law, ε_min) of the one point left out of its agent's last fit."""
    if not (isinstance(drop, tuple) and len(drop) == 3 and drop[0] in AGENTS):
        raise ValueError(f"drop must be one key (agent, law, epsilon_min), got {drop!r}")
    laws = list(dict.fromkeys(lv for lv, _ in _check_points(points)))
    fit = lambda agents, on=None, **kw: fit_on_v(keys_of(agents, points, on, **kw), vals, mean)  # noqa: E731
    return Fits(
        agent={p: fit([p]) for p in AGENTS},
        agent_law={(p, lv): fit([p], [lv]) for p in AGENTS for lv in laws},
        pooled=fit(AGENTS),
        pooled_law={lv: fit(AGENTS, [lv]) for lv in laws},
        times_p0={p: fit_on_v(keys_of([p], points), vals, mean, quant) for p in AGENTS},
        dropped=drop,
        without=fit([drop[0]], drop=[drop]),
    )


def fit_table(fits: Fits) -> Table:
    """Slope, intercept and :math:`R^2` of the fits of :func:`all_fits`, each named with its points."""
    rows = [(f"{p}, both laws ({f.n} points)", f) for p, f in fits.agent.items()]
    rows += [(f"{p}, {lv} ({f.n} points)", f) for (p, lv), f in fits.agent_law.items()]
    rows += [(f"both agents pooled ({fits.pooled.n} points)", fits.pooled)]
    rows += [(f"{p}, both laws, V times p_0", f) for p, f in fits.times_p0.items()]
    p, lv, em = fits.dropped
    rows += [(f"{p} without {lv.removeprefix('ren-heldp-')} ε_min {em:g} ({fits.without.n})", fits.without)]
    body = [[name, f.slope, f.intercept, f.r2] for name, f in rows]
    return Table(["fit", "slope", "intercept", "R²"], body, formats=[None, ".4g", ".4g", ".4f"])


def pooled_r2_at(res: dict, vals: dict, points, t: int) -> float:
    """The :math:`R^2` of the pooled fit (both agents, every point) on the mean regrets read at checkpoint ``t`` of
    the results ``res`` (:func:`run_points`) instead of at their horizon."""
    keys = keys_of(AGENTS, points)
    return linear_fit([vals[k] for k in keys], [res[k].at(t).mean() for k in keys]).r2


def late_r2(res: dict, vals: dict, points, horizon: int) -> dict:
    r"""t -> :func:`pooled_r2_at` t, at every checkpoint t of the runs in :math:`[T/\sqrt{10}, T]` (the last
    half-decade; ``horizon`` is T): the spread of the pooled :math:`R^2` over the horizons Section 4.2 leaves open."""
    cps = res[keys_of(AGENTS, points)[0]].checkpoints  # the curves share their checkpoints
    return {int(t): pooled_r2_at(res, vals, points, t) for t in cps if t >= horizon / math.sqrt(10)}


def nearest_checkpoint(checkpoints, t: float) -> int:
    """The checkpoint nearest to ``t`` on a log scale."""
    cps = np.asarray(checkpoints)
    if cps.ndim != 1 or cps.size == 0 or not (cps > 0).all() or not t > 0:
        raise ValueError(f"checkpoints must be a non-empty 1-d array of rounds > 0 and t > 0, got {t!r}")
    return int(cps[np.argmin(np.abs(np.log(cps) - math.log(t)))])


def pooled_r2_table(res: dict, reg: dict, vals: dict, points, fits: Fits, horizon: int) -> Table:
    r"""What moves the :math:`R^2` of the pooled fit: read at the checkpoints nearest :math:`T/10` and
    :math:`T/\sqrt{10}`, at T (``fits.pooled``), on every run's regret instead of the means (``reg``, as
    :func:`final_regrets` returns it), and on one law at a time (``fits.pooled_law``)."""
    keys = keys_of(AGENTS, points)
    x, cps = [vals[k] for k in keys], res[keys[0]].checkpoints
    near = [nearest_checkpoint(cps, t) for t in (horizon / 10, horizon / math.sqrt(10))]
    rows = [[f"pooled, read at t = {format_number(t, '.3g')}", pooled_r2_at(res, vals, points, t)] for t in near]
    every = linear_fit(np.repeat(x, reg[keys[0]].size), np.concatenate([reg[k] for k in keys])).r2
    rows += [
        [f"pooled, read at T = {format_horizon(horizon)} (the fit judged)", fits.pooled.r2],
        [f"pooled, on every run's regret ({len(keys)} × runs points)", every],
    ]
    rows += [[f"pooled, {lv} only ({f.n} points)", f.r2] for lv, f in fits.pooled_law.items()]
    return Table([f"pooled fit (both agents, {len(keys)} points unless said)", "R²"], rows, formats=[None, ".4f"])


def bootstrap_fit(vals: dict, reg: dict, points, agents=AGENTS) -> RegretFitOnV:
    """The fit of Figure 2 through the points of ``agents`` (default: both, the pooled fit) with the bootstrap
    standard errors over runs of its slope, intercept and :math:`R^2` (:func:`ldpcode.bounds.heldp.regret_fit_on_v`
    on each run's regret ``reg``, as :func:`final_regrets` returns it)."""
    keys = keys_of(agents, points)
    return regret_fit_on_v([vals[k] for k in keys], np.column_stack([reg[k] for k in keys]))


def grid_words(grids: dict) -> str:
    """The points of one agent in words: "2 laws x 4 eps_min" when every law of ``grids`` (law -> its thresholds)
    has as many thresholds, else "2 laws, 3 + 5 eps_min"."""
    if not isinstance(grids, dict) or not grids:
        raise TypeError(f"grids must be a non-empty dict law -> thresholds, got {grids!r}")
    sizes = [len(g) for g in grids.values()]
    if len(set(sizes)) == 1:
        return f"{len(grids)} laws x {sizes[0]} eps_min"
    return f"{len(grids)} laws, {' + '.join(map(str, sizes))} eps_min"


def figure(points, vals: dict, mean: dict, se: dict, fits: Fits, *, horizon: int, runs: int, z: float = 1.96):
    r"""Figure 2 as we read it: one panel per agent, the mean regret at T of each (law, ε_min) against
    :math:`V_L` or :math:`V_B` with error bars of ± ``z`` standard errors, the agent's own fit (``fits.agent``)
    dashed (:func:`ldpcode.plotting.fit_panel`), the pooled fit (``fits.pooled``: one line through both agents' points,
    the fit the paper describes and the book judges) dotted grey in both panels, each point labelled with its law's
    letter (:data:`SHORT`) and ε_min, kept apart once the layout is done (:func:`ldpcode.plotting.label_points`).
    For the runs on the Bernoulli arms of Ren et al. Returns the figure."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 5.2))
    labels = []
    for ax, p in zip(axes, AGENTS):
        keys, v = keys_of([p], points), f"$V_{p[-1]}$"
        x, y, color = [vals[k] for k in keys], [mean[k] for k in keys], POLICY_COLORS["LDP-UCB-" + p[-1]]
        fit_panel(ax, x, y, se=[se[k] for k in keys], fit=fits.agent[p], color=color, label=f"{p}, mean ± {z:g} se",
                  z=z, xlabel=v, ylabel="pseudo-regret R(T)",
                  title=f"{p}: R(T) against {v}\n"
                        f"T = {format_horizon(horizon, mathtext=True)}, {runs} runs, Bernoulli arms")  # fmt: skip
        xs = np.array([min(x), max(x)])
        ax.plot(xs, fits.pooled.predict(xs), color="0.3", linestyle=":", linewidth=1.5,
                label=fit_label(fits.pooled, what="pooled"))  # fmt: skip
        legend_below(ax, offset=-0.2, ncol=1)  # inside, the fit lines ran under it
        labels.append((ax, x, y, [f"{SHORT[lv]} {em:g}" for _, lv, em in keys], color))
    fig.tight_layout()
    for ax, x, y, texts, color in labels:  # after the layout: the labels are kept apart at the scale they are drawn at
        label_points(ax, np.asarray(x, dtype=float), np.asarray(y, dtype=float), texts, color=color)
    return fig
