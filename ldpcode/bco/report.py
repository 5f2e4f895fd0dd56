r"""The runs, tables, figures and claims of Corollary 4's notebook (Zheng et al. 2020, Algorithm 1 around a
one-point learner; Table 1's one-point rows), so that the notebook only calls them.

A setting is a key (``"linear"``, ``"sc_smooth"``, ...) with the keyword arguments of
:func:`~ldpcode.bco.simulate_one_point` that pick it (``environment`` and, for the barrier learners, ``learner``,
``strongly_convex``, ``beta``). Results are dicts keyed ``(key, eps)``, ``eps`` None for the non-private learner.

* :func:`run_settings`, :func:`fit_slopes`, :func:`epsilon_sweep` (:class:`Sweep`): the runs and their exponents.
* :func:`tuning_table`, :func:`slope_table`, :func:`sweep_table`, :func:`ratio_table`, :func:`per_round_table`,
  :func:`exploration_table`: the tables; :func:`exponents_figure`: the two-panel figure.
* :func:`setting_claims`, :func:`exploration_claims`: the claims; :func:`exploration_costs`,
  :func:`exponent_room`: the numbers that explain them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..claims import Table, format_horizon
from ..exponents import loglog_slope, ratio_exponent
from ..stats import linear_fit, ratio_of_means_se
from .environments import QUAD_SCALE
from .runs import hazan_levy_exploration_cost, simulate_one_point
from .table1 import capped_eps_exponent, one_point_eps_claim, one_point_exponent_claims

_TUNING = {"rho0": ("ρ_0", ".3f"), "eta0": ("η_0", ".4f"), "delta0": ("δ_0", ".3f")}
COLORS = ("C0", "C3", "C2")
"""The colour of each setting in :func:`exponents_figure`, in the order of the results."""


def learner_name(eps) -> str:
    """The learner column of the tables: ``"non-private"`` for ``eps`` None, else ``"ε = <eps>"``."""
    return "non-private" if eps is None else f"ε = {eps:g}"


def ci_text(fit, spec: str = ".3f") -> str:
    """The 95% interval ``[ci_low, ci_high]`` of a :class:`~ldpcode.exponents.SlopeFit`, each written with ``spec``."""
    return f"[{fit.ci_low:{spec}}, {fit.ci_high:{spec}}]"


def _keys(results) -> list:
    return list(dict.fromkeys(key for key, _ in results))


def relabel(results: dict, words: dict) -> dict:
    """``results`` with each setting key, or the first part of a tuple key, written as ``words`` has it ("convex +
    smooth" for "convex_smooth"), for a table's rows and a figure's legend; the claims keep the keys."""
    return {((words[k[0]], *k[1:]) if isinstance(k, tuple) else words[k]): v for k, v in results.items()}


def run_settings(settings: dict, epsilons, *, horizon, runs, seed, delta, d, checkpoints=None) -> dict:
    """Algorithm 1 (Corollary 4) on every setting at every ε of ``epsilons`` (None: the non-private learner, run
    without δ; otherwise δ = ``delta``): ``{(key, eps): simulate_one_point(...)}``, key-major, the same ``seed``,
    ``horizon``, ``runs``, ``d`` and ``checkpoints`` for all. ``settings[key]`` must name its ``environment``."""
    for key, kw in settings.items():
        if "environment" not in kw:
            raise ValueError(f"setting {key!r} must name its environment, got {kw!r}")
    return {
        (key, eps): simulate_one_point(horizon=horizon, runs=runs, seed=seed, epsilon=eps, d=d,
                                       delta=None if eps is None else delta, checkpoints=checkpoints, **kw)
        for key, kw in settings.items()
        for eps in epsilons
    }  # fmt: skip


def fit_slopes(results: dict, *, t_min: int, n_boot: int, seed: int) -> dict:
    """The measured exponent of T of each result (Table 1's one-point rows): :func:`~ldpcode.exponents.loglog_slope` of
    its regret on the checkpoints t >= ``t_min``, bootstrap over runs (``n_boot``, ``seed``); keyed as ``results``."""
    return {k: loglog_slope(r.checkpoints, r.regret, t_min=t_min, n_boot=n_boot, seed=seed) for k, r in results.items()}


class Sweep(NamedTuple):
    """One setting's ε sweep (:func:`epsilon_sweep`): ``num`` (len(epsilons), runs) the private regrets at
    ``horizon``, ``den`` (runs,) the non-private ones, ``fit`` the slope of the log ratio on log(1/ε)."""

    environment: str
    epsilons: list
    horizon: int
    num: np.ndarray
    den: np.ndarray
    fit: object

    @property
    def ratios(self) -> np.ndarray:
        """Private over non-private mean regret at each ε."""
        return self.num.mean(axis=1) / self.den.mean()


def epsilon_sweep(settings: dict, epsilons, *, horizon, runs, seed, delta, d, n_boot, boot_seed) -> dict:
    """Table 1's exponent of 1/ε: each setting run at ``horizon`` only, non-private and at each ε of ``epsilons``
    (:func:`run_settings`, ``seed``), and :func:`~ldpcode.exponents.ratio_exponent` of the paired regrets on 1/ε
    (``n_boot``, ``boot_seed``). Returns ``{key: Sweep}``."""
    res = run_settings(settings, (None, *epsilons), horizon=horizon, runs=runs, seed=seed, delta=delta, d=d,
                       checkpoints=[horizon])  # fmt: skip
    out = {}
    for key, kw in settings.items():
        den = res[key, None].regret[:, -1]
        num = np.array([res[key, e].regret[:, -1] for e in epsilons])
        fit = ratio_exponent(1 / np.array(epsilons), num.T, den, n_boot=n_boot, seed=boot_seed)
        out[key] = Sweep(kw["environment"], list(epsilons), horizon, num, den, fit)
    return out


def tuning_table(results: dict, labels: dict, keys, *, first: str, max_norm: bool = False) -> Table:
    """Each run's tuning (the entries ``keys`` of its ``tuning``: ``"rho0"``, ``"eta0"``, ``"delta0"``) and its mean
    regret at T, one row per result, labelled by ``labels[key]`` (header ``first``) and the learner; with
    ``max_norm``, the barrier learners' largest norm of a played point (below 1: inside the ball)."""
    rows = [[labels[k], learner_name(e), *(r.tuning[t] for t in keys), r.regret[:, -1].mean(),
             *([r.max_norm.max()] if max_norm else [])] for (k, e), r in results.items()]  # fmt: skip
    head = [first, "learner", *(_TUNING[t][0] for t in keys), "R(T)", *(["max |y|"] if max_norm else [])]
    return Table(
        head, rows, formats=[None, None, *(_TUNING[t][1] for t in keys), ".4g", *([".4f"] if max_norm else [])]
    )


def slope_table(slopes: dict, late: dict, labels: dict, stated: dict, *, first: str, late_ci: bool = True) -> Table:
    """The exponents of T (:func:`fit_slopes`) over the full and the late window, their 95% intervals (the late
    one if ``late_ci``), beside the exponent Table 1 states (``stated[key]``)."""
    rows = [[labels[k], learner_name(e), s.slope, ci_text(s), late[k, e].slope,
             *([ci_text(late[k, e])] if late_ci else []), stated[k]] for (k, e), s in slopes.items()]  # fmt: skip
    cis = ["95% CI"] if late_ci else []
    return Table([first, "learner", "slope", "95% CI", "late slope", *cis, "stated"], rows,
                 formats=[None, None, ".3f", None, ".3f", *[None] * len(cis), ".3f"])  # fmt: skip


def sweep_table(sweeps: dict, *, first: str, ratio_format: str = ".3f") -> Table:
    """Private over non-private mean regret at each ε of the sweeps (:func:`epsilon_sweep`, or the two-point
    notebook's :func:`ldpcode.bco.two_point_report.two_point_sweep`), each written with ``ratio_format``, and the
    slope of its log on log(1/ε) with its 95% interval (Table 1 states 1 for the one-point rows, 2 for MP-BCO)."""
    eps = next(iter(sweeps.values())).epsilons
    rows = [[k, *s.ratios, s.fit.slope, ci_text(s.fit)] for k, s in sweeps.items()]
    return Table([first, *[f"ε = {e:g}" for e in eps], "slope on log(1/ε)", "95% CI"], rows,
                 formats=[None, *[ratio_format] * len(eps), ".3f", None])  # fmt: skip


def ratio_table(results: dict, epsilon) -> Table:
    """Private (ε = ``epsilon``) over non-private mean regret at T with its delta-method standard error over paired
    runs (:func:`~ldpcode.stats.ratio_of_means_se`), beside Theorem 3's scale factor :math:`\\tilde B/B`."""
    if not any(e == epsilon for _, e in results):
        raise ValueError(f"no result at epsilon={epsilon!r}")
    rows = []
    for k in _keys(results):
        x, y = results[k, epsilon].regret[:, -1], results[k, None].regret[:, -1]
        ratio = (float(x.mean() / y.mean()), float(ratio_of_means_se(x, y)))
        rows.append([k, ratio, results[k, epsilon].tuning["B_tilde"]])
    horizon = results[rows[0][0], epsilon].horizon
    head = ["losses", f"ratio at T = {format_horizon(horizon)}, ε = {epsilon:g}", "Theorem 3's factor B_tilde/B"]
    return Table(head, rows, formats=[None, (".3f", ".3f"), ".2f"])


def setting_claims(nb, key, learner, results, slopes, late, sweep: Sweep, *, t_min, t_min_late, delta, reasons,
                   ratio: bool = False, loss_range: dict | None = None) -> None:  # fmt: skip
    """The claims of one setting of Table 1 built into ``nb``: its exponents of T, non-private and at the one private
    ε of ``results`` (:func:`~ldpcode.bco.one_point_exponent_claims`, reason ``reasons[key, eps]``), with ``ratio`` the private over
    non-private regret at T (``ratio_<key>``, reproducible), then its exponent of 1/ε from ``sweep``
    (:func:`~ldpcode.bco.one_point_eps_claim`, ``reasons["eps"]``), with the largest exponent a regret capped by
    ``loss_range`` allows over the sweep (:func:`exponent_room`) as what it could reach."""
    eps_values = [e for k, e in results if k == key]
    if not eps_values:
        raise ValueError(f"no result for the setting {key!r}")
    private = [e for e in eps_values if e is not None]
    if len(private) > 1:
        raise ValueError(f"the claims of {key!r} take one private result, got eps {private}")
    if ratio and (not private or None not in eps_values):
        raise ValueError(f"ratio=True needs a private and a non-private result of {key!r}, got eps {eps_values}")
    for e in eps_values:
        one_point_exponent_claims(nb, key, learner, e, slopes[key, e], late[key, e], results[key, e], t_min=t_min,
                                  t_min_late=t_min_late, delta=delta, reason=reasons.get((key, e)))  # fmt: skip
    if ratio:
        (eps,) = private
        num, den = results[key, eps], results[key, None]
        nb.ratio(f"ratio_{key}", f"one-point BCO, {learner}: private / non-private regret at T, ε = {eps:g}", num,
                 den, t=num.horizon, note="Theorem 3's scale factor B_tilde/B = "
                 f"{num.tuning['B_tilde']:.4g}; delta-method se over paired runs")  # fmt: skip
    reachable = None if loss_range is None else exponent_room({key: sweep}, loss_range)[key]
    one_point_eps_claim(nb, key, learner, sweep.fit, horizon=sweep.horizon, runs=sweep.num.shape[1],
                        epsilons=sweep.epsilons, reason=reasons.get("eps"), reachable=reachable)  # fmt: skip


def exploration_costs(results: dict, keys, *, t_mins, mu: float = 2 * QUAD_SCALE) -> dict:
    """Hazan-Levy's exploration cost at the centre (S.C + Smooth row of Table 1;
    :func:`~ldpcode.bco.hazan_levy_exploration_cost` with each run's η0 and β and the quadratics' μ = 8/9) at the
    checkpoints of the results of ``keys``, and its log-log slope from each start of ``t_mins``:
    ``{(key, eps): (cost, slope, ...)}``."""
    if isinstance(keys, str):
        raise TypeError(f"keys must be a collection of setting keys, not the string {keys!r}")
    out = {}
    for (k, e), r in results.items():
        if k in keys:
            cp, tun = r.checkpoints, r.tuning
            cost = hazan_levy_exploration_cost(cp, tun["eta0"], mu, tun["beta"])
            out[k, e] = (cost, *(linear_fit(np.log(cp[cp >= t]), np.log(cost[cp >= t])).slope for t in t_mins))
    if not out:
        raise ValueError(f"no result for the keys {keys!r}")
    return out


def exploration_table(costs: dict, results: dict, *, mu: float = 2 * QUAD_SCALE) -> Table:
    """:func:`exploration_costs` at T beside the regret R(T), their slopes over the two windows, and the t where
    :math:`\\eta_t\\mu t = 2` (:math:`\\eta_t = \\eta_0/\\sqrt t`: the barrier's curvature at the centre)."""
    rows = [[k, learner_name(e), cost[-1], results[k, e].regret[:, -1].mean(), *fits,
             (2 / (results[k, e].tuning["eta0"] * mu)) ** 2] for (k, e), (cost, *fits) in costs.items()]  # fmt: skip
    return Table(["setting", "learner", "exploration cost at T", "regret R(T)", "its slope", "late slope",
                  "t where η_t μ t = 2"], rows, formats=[None, None, ".4g", ".4g", ".3f", ".3f", ".3g"])  # fmt: skip


def exploration_claims(nb, costs: dict, key: str, *, t_mins, horizon: int) -> None:
    """``exploration_cost_slope_<nonprivate|private>`` (and ``_late``), built into ``nb``: the slopes of
    :func:`exploration_costs` of ``key`` from each start of ``t_mins`` (the full, then the late window),
    reproducible and deterministic."""
    if len(t_mins) != 2:
        raise ValueError(f"t_mins must hold the starts of the full and the late window, got {t_mins!r}")
    note = "deterministic; the measured regret slopes of both Hazan-Levy instances sit beside it"
    for e in [e for k, e in costs if k == key]:
        for i, t0 in enumerate(t_mins):
            tag, what = ("nonprivate", "") if e is None else ("private", f", ε = {e:g}")
            nb.reproducible(f"exploration_cost_slope_{tag}{'_late' * (i > 0)}",
                            f"Hazan-Levy{what}: log-log slope of the exploration cost sum_s (β/2)/(2 + η0 μ √s) on "
                            f"t in [{t0}, {horizon}]", reproduced=costs[key, e][1 + i], horizon=horizon,
                            note=note)  # fmt: skip


def per_round_table(results: dict, *, t_from: int) -> Table:
    """Whether the claims could fail: each run set's mean regret per round, R(T)/T and over [``t_from``, T] (from
    the first checkpoint >= ``t_from``), beside what a learner that learns nothing pays."""
    rows = []
    for (k, e), r in results.items():
        cp, m = r.checkpoints, r.regret.mean(axis=0)
        i0 = int(np.searchsorted(cp, t_from))
        if i0 >= cp.size - 1:
            raise ValueError(f"t_from={t_from!r} leaves no window before the last checkpoint {cp[-1]} of {k!r}")
        rows.append([k, learner_name(e), m[-1] / cp[-1], (m[-1] - m[i0]) / (cp[-1] - cp[i0])])
    return Table(["setting", "learner", "R(T)/T", f"regret per round on [{format_horizon(t_from)}, T]"], rows,
                 formats=[None, None, ".4f", ".4f"])  # fmt: skip


def exponent_room(sweeps: dict, loss_range: dict) -> dict:
    """The largest exponent of 1/ε a regret capped by the loss range leaves over each sweep (power of Table 1's
    1/ε claims): :func:`~ldpcode.bco.table1.capped_eps_exponent` with the cap ``loss_range[environment]`` x T (the
    range of the losses on the ball, each round) and the sweep's mean private regret at each of its ε, listed in
    any order; inf when the regret at the largest ε is 0 (no cap)."""
    room = {}
    for k, s in sweeps.items():
        if s.environment not in loss_range:
            raise ValueError(f"loss_range has no entry for the environment {s.environment!r}")
        try:
            room[k] = capped_eps_exponent(
                loss_range[s.environment] * s.horizon, [row.mean() for row in s.num], s.epsilons
            )
        except ValueError as exc:
            raise ValueError(f"the sweep of {k!r}: {exc}") from None
    return room


def ratio_panel_guides(ax, sweeps: dict, colors, power: float) -> None:
    """On a panel of regret ratios against 1/ε: each sweep's Table 1 rate, the ratio ∝ (1/ε)^``power``, dashed
    through its point at ε = 1 (its first ε if 1 is not swept), in the colour of ``colors`` (one per sweep), and one
    grey key that names them in the panel's legend."""
    from .. import plotting

    for s, col in zip(sweeps.values(), colors):
        inv, rr = 1 / np.array(s.epsilons), s.ratios
        i = s.epsilons.index(1.0) if 1.0 in s.epsilons else 0  # the guide passes through (1/ε_i, r_i)
        ax.plot(inv, rr[i] * (s.epsilons[i] * inv) ** power, color=col, **plotting.THEORY_STYLE)
    at = "ε = 1" if all(1.0 in s.epsilons for s in sweeps.values()) else "the first ε"
    rate = {1.0: "1/ε", 2.0: "1/ε²"}.get(float(power), f"(1/ε)^{power:g}")
    plotting.guide_key(ax, f"dashed: Table 1's ∝ {rate}, through {at}")


def exponents_figure(results: dict, slopes: dict, stated: dict, sweeps: dict, *, t_min: int, title: str,
                     sweep_title: str):  # fmt: skip
    """Corollary 4's figure. Left: each run set's mean regret with its 95% band (dotted non-private, solid private;
    its legend gives the log-log slope on t >= ``t_min``, the first window of the tables), and the stated rate
    :math:`T^a` (``stated[key]``) dashed through the mean at the first checkpoint >= ``t_min``;
    its legend below the panel (the curves fill it from corner to corner).
    Right: the regret ratio of each sweep against 1/ε, with Table 1's ratio proportional to 1/ε dashed through
    ε = 1 (the first ε if 1 is not swept); a grey key in each legend names the dashed lines. Returns the figure."""
    import matplotlib.pyplot as plt

    from .. import plotting

    colors = dict(zip(_keys(results), COLORS))
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    ax = axes[0]
    for (k, e), r in results.items():
        slope = f"slope {slopes[k, e].slope:.2f} on t ≥ {format_horizon(t_min)}"  # not the late window's of the Check
        mean = plotting.band_curve(
            ax, r.checkpoints, r.regret, color=colors[k], label=f"{k}, {learner_name(e)}: {slope}"
        )
        ax.lines[-1].set_linestyle(":" if e is None else "-")
        i0 = int(np.searchsorted(r.checkpoints, t_min))
        t0, m0, a = r.checkpoints[i0], mean[i0], stated[k]
        plotting.bound_curve(ax, r.checkpoints[i0:], lambda T, t0=t0, m0=m0, a=a: m0 * (T / t0) ** a, color=colors[k])
    plotting.paper_axes(ax, xlabel="t (rounds)", ylabel="regret", title=title)
    plotting.guide_key(ax, f"dashed: the stated rate $t^a$, through the mean at t = {format_horizon(t_min)}")
    plotting.legend_below(ax, offset=-0.2, ncol=1, fontsize=7)  # inside, it lay over the curves
    ax = axes[1]
    for (k, s), col in zip(sweeps.items(), COLORS):
        inv = 1 / np.array(s.epsilons)
        ax.plot(inv, s.ratios, "o-", color=col, label=f"{k}: slope {s.fit.slope:.2f} {ci_text(s.fit, '.2f')}")
    ratio_panel_guides(ax, sweeps, COLORS, 1.0)
    plotting.paper_axes(ax, xlabel="1/ε", ylabel="private / non-private regret", title=sweep_title)
    ax.minorticks_off()
    ax.set_xticks(inv, [f"{x:g}" for x in inv])
    plotting.plain_log_ticks(ax.yaxis)  # a decade or less: 10^0 and 10^1 alone said little
    plotting.legend_below(ax, offset=-0.2, ncol=1, fontsize=7)  # inside, it lay over a guide
    return fig
