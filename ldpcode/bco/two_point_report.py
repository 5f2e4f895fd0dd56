r"""The runs, tables, figure and claims of Algorithm 2's notebook (Zheng et al. 2020, private two-point BCO,
Theorems 5 and 6; Table 1's MP-BCO rows), so that the notebook only calls them.

Results are dicts keyed ``(environment, eps)``, ``eps`` None for the non-private learner; the environments are
``"linear"`` (the convex row) and ``"quadratic"`` (the strongly convex row).

* :func:`release_noise`: Theorem 5's released noise, simulated.
* :func:`run_two_point`, :func:`fit_rates`, :func:`two_point_sweep`: the runs and their rates.
* :func:`late_text`, :func:`increment_text`, :func:`fit_table`: what the notebook shows (its sweep table is
  :func:`ldpcode.bco.report.sweep_table` with two decimals).
* :func:`rate_claims`, :func:`eps_claims`: the claims; :func:`rates_figure`: the three-panel figure.
* :func:`exponent_text`: a power of ten written ``10⁴``, for the claims' reasons.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..claims import Table, format_horizon, format_number, format_value
from ..exponents import log_growth, loglog_slope, ratio_exponent
from ..stats import bootstrap_se, linear_fit
from .environments import QUAD_SCALE
from .privacy import two_point_release
from .report import Sweep, ci_text, exponent_room, learner_name, ratio_panel_guides
from .runs import simulate_two_point
from .table1 import window_systematic


class ReleaseNoise(NamedTuple):
    """:func:`release_noise`'s result: the sample sd of the released noise, its standard error, and the largest
    ``|f(x1) - f(x2)|`` over the releases."""

    sd: float
    sd_se: float
    max_diff: float


def release_noise(rho: float, sigma: float, *, releases: int, d: int, rng) -> ReleaseNoise:
    r"""Theorem 5's noise, simulated: ``releases`` directions u uniform on the unit sphere of :math:`R^d` (drawn
    from ``rng``), the points :math:`x_{1,2} = \pm\rho u`, the quadratic loss
    :math:`f(x) = (4/9)\lVert x - c\rVert^2`, :math:`c = (0.5, 0, \dots, 0)`, and the noise
    ``two_point_release(f1, f2, x1, x2, sigma, rng) - (f1 - f2)`` of the released difference. Returns its sample
    sd (ddof = 1), the sd's standard error :math:`s/\sqrt{2(n - 1)}`, and :math:`\max\lvert f(x_1) - f(x_2)\rvert`."""
    if not (isinstance(releases, int) and releases >= 2):
        raise ValueError(f"releases must be an integer >= 2, got {releases!r}")
    u = rng.standard_normal((releases, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    x1, x2 = rho * u, -rho * u
    f1 = QUAD_SCALE * ((x1 - np.eye(d)[0] * 0.5) ** 2).sum(axis=1)
    f2 = QUAD_SCALE * ((x2 - np.eye(d)[0] * 0.5) ** 2).sum(axis=1)
    noise = two_point_release(f1, f2, x1, x2, sigma, rng) - (f1 - f2)
    sd = noise.std(ddof=1)
    return ReleaseNoise(sd, sd / math.sqrt(2 * (releases - 1)), np.abs(f1 - f2).max())


def run_two_point(envs, epsilons, *, horizon, runs, seed, delta, d, checkpoints=None) -> dict:
    """Algorithm 2 on every environment of ``envs`` at every ε of ``epsilons`` (None: the non-private learner, run
    without δ; otherwise δ = ``delta``): ``{(env, eps): simulate_two_point(...)}``, environment-major, the same
    ``seed``, ``horizon``, ``runs``, ``d`` and ``checkpoints`` for all."""
    if isinstance(envs, str):
        raise TypeError(f"envs must be a collection of environment names, not the string {envs!r}")
    return {
        (env, eps): simulate_two_point(env, horizon=horizon, runs=runs, seed=seed, epsilon=eps,
                                       delta=None if eps is None else delta, d=d, checkpoints=checkpoints)
        for env in envs
        for eps in epsilons
    }  # fmt: skip


def fit_rates(results: dict, *, t_min: int, t_min_log: int, n_boot: int, seed: int) -> dict:
    """The rate of each result of :func:`run_two_point` (Table 1's MP-BCO rows): for ``"linear"`` the log-log slope
    (:func:`~ldpcode.exponents.loglog_slope`, t >= ``t_min``), for the others the slope on log t
    (:func:`~ldpcode.exponents.log_growth`, t >= ``t_min_log``); bootstrap over runs (``n_boot``, ``seed``)."""
    return {
        (env, eps): loglog_slope(r.checkpoints, r.regret, t_min=t_min, n_boot=n_boot, seed=seed)
        if env == "linear"
        else log_growth(r.checkpoints, r.regret, t_min=t_min_log, n_boot=n_boot, seed=seed)
        for (env, eps), r in results.items()
    }


def _t(t) -> str:
    """A checkpoint as the book writes it: 10⁶, 89,125 (:func:`~ldpcode.claims.format_horizon`)."""
    return format_horizon(int(t))


def late_text(late: dict, *, t_min: int, horizon: int) -> str:
    """One line per convex result of ``late`` (keyed ``(env, eps)``): its log-log slope on t in [``t_min``,
    ``horizon``] with its 95% interval (Theorem 6's exponent 1/2 of T)."""
    return "\n".join(
        f"convex, {learner_name(e)}: slope fitted on t in [{_t(t_min)}, {_t(horizon)}] only: {s.slope:.4f} "
        f"[{s.ci_low:.4f}, {s.ci_high:.4f}]"
        for (_, e), s in late.items()
    )


def increment_text(increments: dict) -> str:
    """One line per entry ``{eps: log_increment_ratio(...)}``: the late over early slope of the strongly convex
    regret on log t with its standard error (1 for Theorem 6's :math:`a + b\\log t`)."""
    return "\n".join(
        f"strongly convex, {learner_name(e)}: slope on log t from {_t(t1)} to {_t(t2)} / slope from {_t(t0)} to "
        f"{_t(t1)} = {g:.3f} ± {g_se:.3f} (1 for a + b log t)"
        for e, (g, g_se, (t0, t1, t2)) in increments.items()
    )


def fit_table(results: dict, fits: dict, coef: dict, envs: dict) -> Table:
    """The fitted rates (:func:`fit_rates`) with their 95% intervals and :math:`R^2`, beside the mean regret at T:
    the log-log slope of the linear losses (Table 1 states 0.5), the slope on log t of the others with its bound
    ``coef[eps]``; ``envs[env]`` labels the rows."""
    rows = []
    for env, label in envs.items():
        for (k, eps), r in results.items():
            if k != env:
                continue
            s = fits[env, eps]
            what = "log-log slope (stated 0.5)" if env == "linear" else f"d R/d log t (bound {coef[eps]:.4g})"
            rows.append([label, learner_name(eps), r.regret[:, -1].mean(), what, s.slope, ci_text(s, ".4g"), s.r2])
    return Table(["losses", "learner", "R(T)", "fitted", "value", "95% CI", "R²"], rows,
                 formats=[None, None, ".4g", None, ".4g", None, ".4f"])  # fmt: skip


def rate_claims(nb, results, fits, late, increments, coef, *, reasons, paper_unit, delta, t_min, t_min_log, horizon,
                runs, n_boot, seed) -> None:  # fmt: skip
    """The claims of Table 1's MP-BCO rows built into ``nb``, non-private then private (the ε of ``increments``):
    the convex exponent of T (reproducible, on [``t_min``, T]; statistical <= 1/2, on [``t_min_log``, T], with the
    fit window's spread as its systematic, :func:`~ldpcode.bco.table1.window_systematic`), the
    strongly convex slope on log t (bound ``coef[eps]``, Agarwal et al. 2010's d² G~²/(2μ)) and its :math:`R^2`
    (bootstrap se), and the late over early slope on log t (statistical <= 1, Theorem 6's O(log T)). The reasons
    are :func:`fit_reason` with ``reasons["convex", eps]``, and ``reasons["log", eps]``; ``paper_unit`` marks the
    stated 1/2 and 1 exact."""
    for eps in increments:
        tag, what = ("nonprivate", "") if eps is None else ("private", f", ε = {eps:g}, δ = {format_number(delta)}")
        s, q, (g, g_se, (t0, t1, t2)) = fits["linear", eps], fits["quadratic", eps], increments[eps]
        nb.reproducible(f"exponent_convex_{tag}", f"two-point BCO, linear losses{what}: log-log slope of the regret "
                        f"on t in [{t_min}, {horizon}]", reproduced=s.slope, se=s.se, horizon=horizon,
                        note=f"{runs} runs, bootstrap se")  # fmt: skip
        rate = (
            "the private regret O~(T^1/2/ε²) (Theorem 6)"
            if eps is not None
            else "the best non-private regret O~(T^1/2) (Agarwal et al. 2010)"
        )
        nb.statistical(f"exponent_convex_{tag}_late", f"Table 1, MP-BCO Convex row: exponent of T in {rate}",
                       reproduced=late["linear", eps].slope, se=late["linear", eps].se, paper=0.5,
                       paper_unit=paper_unit, sense="<=", runs=runs, horizon=horizon,
                       statement=f"zheng2020locally.table1.mp_convex.{tag}",
                       reason=fit_reason(late["linear", eps], 0.5, reasons["convex", eps]),
                       **window_systematic(results["linear", eps], t_min_log, late["linear", eps].slope),
                       note=f"linear losses{what}; log-log slope on t in [{t_min_log}, {horizon}], {runs} runs, "
                       "bootstrap se")  # fmt: skip
        nb.bound(f"logT_slope_strongly_convex_{tag}", f"two-point BCO, moving quadratics{what}: slope of the regret on "
                 f"log t, t in [{t_min_log}, {horizon}]", reproduced=q.slope, se=q.se, bound=coef[eps], horizon=horizon,
                 how="Agarwal et al. (2010): coefficient d² G~² / (2μ) of log T for the virtual losses")  # fmt: skip
        r = results["quadratic", eps]
        keep = r.checkpoints >= t_min_log
        logt = np.log(r.checkpoints[keep])
        nb.reproducible(f"logT_r2_strongly_convex_{tag}", f"two-point BCO, moving quadratics{what}: R² of the regret "
                        f"on log t, t in [{t_min_log}, {horizon}]", reproduced=q.r2, horizon=horizon,
                        se=bootstrap_se(lambda reg: linear_fit(logt, reg.mean(axis=0)).r2, r.regret[:, keep],
                                        n_boot=n_boot, seed=seed), note=f"bootstrap se over {runs} runs")  # fmt: skip
        nb.statistical(f"log_increment_ratio_{tag}", "Table 1, MP-BCO Strongly Convex row: "
                       + ("private regret O~(log T/ε²) (Theorem 6)" if eps is not None else
                          "best non-private regret O(log T) (Agarwal et al. 2010)") + ", as the ratio of late to early "
                       "slope on log t", reproduced=g, se=g_se, paper=1.0, paper_unit=paper_unit, sense="<=", runs=runs,
                       statement=f"zheng2020locally.table1.mp_strongly_convex.{tag}", horizon=horizon,
                       reason=reasons["log", eps], note=f"slope of the regret on log t from {t1} to {t2} / from "
                       f"{t0} to {t1}: 1 for a + b log t; delta-method se over {runs} runs")  # fmt: skip


def log_reason(increment, fit, *, t_min: int, horizon: int) -> str:
    """The reason of a ``log_increment_ratio_*`` claim, written from its own numbers so that it stays true at any
    parameters: ``increment`` is :func:`~ldpcode.bco.log_increment_ratio`'s result (g, its se), ``fit`` the
    slope-on-log-t fit of the same regret (its ``r2``) on [``t_min``, ``horizon``]. g <= 1: the slope falls, the
    regret grows no faster than log t; g above 1 by at most 2 se: it still rises but stays close to
    :math:`a + b\\log t`; further above: on this window the regret grows faster than log t."""
    g, se, r2 = float(increment[0]), float(increment[1]), float(fit.r2)
    span = f"[{exponent_text(t_min)}, {exponent_text(horizon)}]"
    if g <= 1:
        return f"the slope on log t falls: the regret grows no faster than log t (R² {r2:.3f} of a + b log t on {span})"
    rise = f"by {(g - 1) / se:.1f} standard errors" if se > 0 else f"to {g:.2f} times its early value"
    if se > 0 and g - 1 <= 2 * se:
        return (f"the slope on log t still rises, {rise}: close to a + b log t (R² {r2:.3f} on {span}), as with a "
                "large negative offset from the early rounds held by the projection")  # fmt: skip
    return (f"the slope on log t still rises, {rise}: on {span} the regret grows faster than a + b log t "
            f"(R² {r2:.3f}); a longer horizon would show whether the log T regime comes")  # fmt: skip


def two_point_sweep(envs, epsilons, *, horizon, runs, seed, delta, d, n_boot, boot_seed) -> dict:
    """Table 1's exponent of 1/ε for the MP-BCO rows: each environment of ``envs`` run at ``horizon`` only,
    non-private and at each ε of ``epsilons`` (``seed``), and :func:`~ldpcode.exponents.ratio_exponent` of the paired
    regrets on 1/ε (``n_boot``, ``boot_seed``). Returns ``{env: Sweep}`` (:class:`~ldpcode.bco.report.Sweep`)."""
    res = run_two_point(envs, (None, *epsilons), horizon=horizon, runs=runs, seed=seed, delta=delta, d=d,
                        checkpoints=[horizon])  # fmt: skip
    out = {}
    for env in envs:
        den = res[env, None].regret[:, -1]
        num = np.array([res[env, e].regret[:, -1] for e in epsilons])
        fit = ratio_exponent(1 / np.array(epsilons), num.T, den, n_boot=n_boot, seed=boot_seed)
        out[env] = Sweep(env, list(epsilons), horizon, num, den, fit)
    return out


def eps_claims(nb, sweeps: dict, *, reasons: dict, paper_unit: float, loss_range: dict | None = None) -> None:
    """``eps_exponent_<env>``, built into ``nb`` for each sweep (:func:`two_point_sweep`): the slope of the log
    regret ratio on log(1/ε), statistical <= 2 (Table 1's 1/ε² of the MP-BCO rows), reason
    :func:`fit_reason` of the fit and ``reasons["eps", env]``; with ``loss_range``, the largest exponent a regret
    capped by it allows over the sweep (:func:`~ldpcode.bco.report.exponent_room`) as what the claim could reach."""
    room = {} if loss_range is None else exponent_room(sweeps, loss_range)
    for env, s in sweeps.items():
        row, name = ("mp_convex", "Convex") if env == "linear" else ("mp_strongly_convex", "Strongly Convex")
        nb.statistical(f"eps_exponent_{env}",
                       f"Table 1, MP-BCO {name} row: exponent of 1/ε in the private regret (1/ε²)",
                       reproduced=s.fit.slope, se=s.fit.se, paper=2.0, paper_unit=paper_unit, sense="<=",
                       statement=f"zheng2020locally.table1.{row}.private", runs=s.num.shape[1], horizon=s.horizon,
                       reason=fit_reason(s.fit, 2, reasons["eps", env]), reachable=room.get(env),
                       note=f"slope of log(private / non-private regret) on log(1/ε), ε "
                       f"in {s.epsilons}, {s.num.shape[1]} paired runs, bootstrap se")  # fmt: skip


def fit_reason(fit, stated: float, why: str) -> str:
    """The reason of a claim on a fitted exponent, written from its own numbers so that it stays true at any
    parameters: where the fit (``fit.slope``, ``fit.se``) lies against the ``stated`` value at two standard errors
    (below, about, above; the check table shows the fit itself beside it), then ``why``, the mechanism, which names
    no measured number."""
    slope, se = float(fit.slope), float(fit.se)
    where = "below" if slope + 2 * se < stated else "about" if slope - 2 * se <= stated else "above"
    return f"{where} {stated:g}: {why}"


def exponent_text(t) -> str:
    """A number as the claims' reasons write it, mantissa and power of ten: ``10**4 -> '10⁴'``,
    ``2.5e5 -> '2.5·10⁵'`` (:func:`~ldpcode.claims.format_number`)."""
    if not (isinstance(t, (int, float)) and t > 0):
        raise ValueError(f"t must be a positive number, got {t!r}")
    mant = f"{float(f'{t:e}'.split('e')[0]):g}"  # the mantissa's digits, trailing zeros dropped
    return format_number(t, f".{len(mant.partition('.')[2])}e")


def rates_figure(results: dict, fits: dict, sweeps: dict, *, title: str, runs: int):
    r"""Theorem 6's figure. Left: the convex mean regret with its 95% band (dotted non-private, solid private) and
    :math:`T^{1/2}` dashed through the fitted curve's first point; middle: the strongly convex regret on log t with
    the fitted :math:`a + b\log t`; right: each sweep's regret ratio against 1/ε with Table 1's
    :math:`1/\epsilon^2` dashed through ε = 1 (the first ε if 1 is not swept). Returns the figure."""
    import matplotlib.pyplot as plt

    from .. import plotting

    fig, axes = plt.subplots(1, 3, figsize=(10, 4.4))
    for eps in [e for k, e in results if k == "linear"]:
        ls, name = (":", "non-private") if eps is None else ("-", f"ε = {eps:g}")
        r, s = results["linear", eps], fits["linear", eps]
        slope = f"slope {s.slope:.2f} on t ≥ {format_horizon(int(s.x[0]))}"  # the fit's window, not the late one
        plotting.band_curve(axes[0], r.checkpoints, r.regret, color="C0", label=f"{name}: {slope}")
        axes[0].lines[-1].set_linestyle(ls)
        plotting.bound_curve(axes[0], s.x, lambda T, s=s: s.y[0] * (T / s.x[0]) ** 0.5, color="C0")
        r, s = results["quadratic", eps], fits["quadratic", eps]
        plotting.band_curve(axes[1], r.checkpoints, r.regret, color="C3",
                            label=f"{name}: {format_value(s.slope)} per unit log t,\nR² {s.r2:.3f}")  # fmt: skip
        axes[1].lines[-1].set_linestyle(ls)
        axes[1].plot(s.x, s.predict(np.log(s.x)), color="k", **plotting.THEORY_STYLE)  # the fitted a + b log t
    plotting.guide_key(axes[0], "dashed: $t^{1/2}$ through the fit's first t")
    plotting.guide_key(axes[1], "black dashed: the fitted a + b log t", color="k")
    plotting.paper_axes(axes[0], xlabel="t (rounds)", ylabel="regret", title=f"convex, {runs} runs")
    plotting.paper_axes(axes[1], xlabel="t (rounds, log scale)", ylabel="regret", loglog=False,
                        title=f"strongly convex, {runs} runs")  # fmt: skip
    axes[1].set_xscale("log")
    axes[1].set_yscale("symlog", linthresh=10)
    axes[1].set_ylim(bottom=0)
    for (env, s), col in zip(sweeps.items(), ("C0", "C3")):
        inv = 1 / np.array(s.epsilons)
        axes[2].plot(inv, s.ratios, "o-", color=col, label=f"{env}: slope {s.fit.slope:.2f}")
    ratio_panel_guides(axes[2], sweeps, ("C0", "C3"), 2.0)
    plotting.paper_axes(axes[2], xlabel="1/ε", ylabel="private / non-private", title=f"T = {format_horizon(s.horizon)}")
    axes[2].minorticks_off()
    axes[2].set_xticks(inv, [f"{x:g}" for x in inv])
    # no panel has room: the strongly convex one's legend lay over the private curve, the convex one's names the
    # slopes' window, and the ratios' key of its dashed guides reached over the axis label: every legend below
    for ax in axes:
        plotting.legend_below(ax, offset=-0.3, ncol=1, fontsize=6)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig
