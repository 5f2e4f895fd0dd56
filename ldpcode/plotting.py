"""One look for every figure: a seaborn theme, one colour per algorithm, the papers' log-log axes.

Notebooks call :func:`use_theme` once, then :func:`regret_panel` / :func:`ratio_panel` per panel.
"""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

POLICY_COLORS = {
    "UCB1": "#000000", "UCB1-S": "#000000",
    "LDP-UCB-L": "#1f77b4", "LDP-UCB-LS": "#1f77b4",
    "LDP-UCB-B": "#d62728", "LDP-UCB-BS": "#d62728",
}
THEORY_STYLE = dict(linestyle="--", linewidth=1.2, alpha=0.9)


def use_theme() -> None:
    """The book's seaborn theme (white grid, colour-blind-safe palette, readable sizes)."""
    import seaborn as sns

    sns.set_theme(context="notebook", style="whitegrid", palette="colorblind")
    plt.rcParams.update({"figure.dpi": 90, "savefig.dpi": 90, "legend.fontsize": "small",
                         "axes.titlesize": "medium"})


def epsilon_colors(epsilons) -> dict:
    """A sequential palette keyed by epsilon, darker for more privacy (smaller epsilon)."""
    import seaborn as sns

    eps = sorted(set(float(e) for e in epsilons))
    pal = sns.color_palette("viridis", n_colors=max(len(eps), 2))
    return {e: pal[i] for i, e in enumerate(eps)}


def format_horizon(T: int) -> str:
    """``10**6`` -> ``'10^6'`` for titles; other numbers with separators."""
    k = math.log10(T)
    return f"10^{int(round(k))}" if abs(k - round(k)) < 1e-12 else f"{T:,}"


def paper_axes(ax, *, xlabel="time t (pulls)", ylabel="pseudo-regret R(t)", title=None, loglog=True):
    """Log-log axes labelled as in the papers' figures."""
    if loglog:
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    return ax


def regret_panel(ax, results, *, labels=None, colors=None, band: float | None = 0.95, title=None,
                 t_min: int = 20):
    """Mean pseudo-regret of each result against t, with a confidence band over runs."""
    for i, res in enumerate(results):
        label = labels[i] if labels else res.label
        color = colors[i] if colors else POLICY_COLORS.get(res.policy)
        keep = res.checkpoints >= t_min
        t = res.checkpoints[keep]
        ax.plot(t, res.mean_regret()[keep], label=label, color=color)
        if band and res.runs > 1:
            lo, hi = res.regret_band(band)
            ax.fill_between(t, np.maximum(lo[keep], 1e-9), hi[keep], color=ax.lines[-1].get_color(), alpha=0.2,
                            linewidth=0)
    T = max(r.horizon for r in results)
    runs = {r.runs for r in results}
    sub = f"T = {format_horizon(T)}, {'/'.join(map(str, sorted(runs)))} runs"
    paper_axes(ax, title=f"{title}\n{sub}" if title else sub)
    ax.legend(loc="upper left")
    return ax


def band_curve(ax, t, values, *, label=None, color=None, band: float | None = 0.95):
    """Mean over runs of ``values`` (shape (runs, len(t))) against ``t``, with a normal confidence band.

    For curves other than the regret, e.g. the mean pull count of a gap group, E[N_a(t)], beside its
    bound in the proof of Theorem 4 or 6 of Ren et al. (2020). The band is mean +- z * sd / sqrt(runs)
    (sd with ddof = 1), as in :meth:`ldpcode.simulate.SimulationResult.regret_band`. Returns the mean.
    """
    from .simulate import mean_and_half_width

    t = np.asarray(t)
    v = np.asarray(values, dtype=float)
    if v.ndim != 2 or v.shape[1] != t.shape[0]:
        raise ValueError(f"values must have shape (runs, {t.shape[0]}) to match t, got {v.shape}")
    mean, half = mean_and_half_width(v, band or 0.95)
    (line,) = ax.plot(t, mean, label=label, color=color)
    if band and v.shape[0] > 1:
        ax.fill_between(t, mean - half, mean + half, color=line.get_color(), alpha=0.2, linewidth=0)
    return mean


PAPER_STYLE = dict(linestyle=":", linewidth=1.4, alpha=0.9)


def ratio_panel(ax, pairs, *, theory=None, paper=None, band: float | None = None, title=None,
                t_min: int = 1000):
    """Ratio of mean regrets (numerator / denominator) against t, one line per pair.

    ``pairs``: list of (label, numerator result, denominator result, colour). ``theory``: dict
    label -> value drawn as a dashed horizontal line of the same colour; ``paper``: dict label -> the
    paper's empirical value, drawn dotted (the paper gives no horizon for it). ``band``: a confidence
    level (e.g. 0.95) for a normal band of half-width z * :func:`ldpcode.simulate.ratio_of_means_se`.
    """
    from scipy.stats import norm

    from .simulate import ratio_of_means_se

    for label, num, den, color in pairs:
        if not np.array_equal(num.checkpoints, den.checkpoints):
            raise ValueError("ratio_panel needs results with the same checkpoints")
        keep = num.checkpoints >= t_min
        ratio = num.mean_regret()[keep] / den.mean_regret()[keep]
        ax.plot(num.checkpoints[keep], ratio, label=label, color=color)
        if band and num.runs > 1 and den.runs > 1:
            half = norm.ppf(0.5 + band / 2) * ratio_of_means_se(num.regret[:, keep], den.regret[:, keep],
                                                                  paired=num.runs == den.runs)
            ax.fill_between(num.checkpoints[keep], np.maximum(ratio - half, 1e-9), ratio + half,
                            color=ax.lines[-1].get_color(), alpha=0.2, linewidth=0)
        if theory and label in theory:
            ax.axhline(theory[label], color=color, **THEORY_STYLE)
        if paper and label in paper:
            ax.axhline(paper[label], color=color, **PAPER_STYLE)
    paper_axes(ax, ylabel="regret ratio", title=title)
    ax.legend(loc="best")
    return ax


def bound_curve(ax, t, bound, *, color="k", linestyle="--", label=None):
    """A regret bound drawn against the horizon: ``bound(T)`` at each ``T`` in ``t``, in THEORY_STYLE.

    ``bound`` is a callable of one integer horizon, e.g.
    ``lambda T: bounds.ldp_ucb_l_regret_bound(means, T, eps, c_s=c)`` (Corollary 10 of Ren et al.
    2020). Returns the values drawn.
    """
    if not callable(bound):
        raise ValueError(f"bound must be a callable of the horizon T, got {bound!r}")
    t = np.asarray(t)
    if t.ndim != 1 or t.size == 0 or (t < 2).any():
        raise ValueError(f"t must be a non-empty 1-d array of horizons >= 2, got {t!r}")
    values = np.array([bound(int(x)) for x in t], dtype=float)
    ax.plot(t, values, color=color, label=label, **{**THEORY_STYLE, "linestyle": linestyle})
    return values


def gap_panel(ax, x, gaps, se=None, *, exact=None, constants=None, color=None, label=None, z: float = 2.0,
              xlabel=None, ylabel=None, title=None):
    """Gaps between output means against the gap they must exceed a multiple of (Lemmas 7-9, Ren et al.).

    Points (x, gaps), with error bars of +- ``z`` * ``se`` when ``se`` is given (measured gaps), as small
    dots otherwise (exact gaps over a grid); ``exact`` adds a thin line through (x, exact); ``constants``
    (dict name -> c) adds the lower-bound lines y = c x from 0 to max x, in black, dotted then dashed then
    dash-dotted. Linear axes.
    """
    x = np.asarray(x, dtype=float)
    gaps = np.asarray(gaps, dtype=float)
    if x.shape != gaps.shape or x.ndim != 1:
        raise ValueError(f"x and gaps must be 1-d of the same shape, got {x.shape} and {gaps.shape}")
    if se is None:
        ax.scatter(x, gaps, s=6, color=color or "grey", label=label)
    else:
        se = np.asarray(se, dtype=float)
        if se.shape != x.shape:
            raise ValueError(f"se must have the shape of x, {x.shape}, got {se.shape}")
        ax.errorbar(x, gaps, yerr=z * se, fmt="o", color=color, label=label)
    if exact is not None:
        order = np.argsort(x)
        ax.plot(x[order], np.asarray(exact, dtype=float)[order], color=color or "grey", linewidth=0.8)
    if constants:
        xs = np.array([0.0, x.max()])
        for (name, c), ls in zip(constants.items(), (":", "--", "-.")):
            ax.plot(xs, c * xs, color="k", linestyle=ls, linewidth=1.2, label=f"{c:.3g} x ({name})")
    ax.set(xlabel=xlabel or ax.get_xlabel(), ylabel=ylabel or ax.get_ylabel())
    if title:
        ax.set_title(title)
    ax.legend(loc="upper left", fontsize="x-small")
    return ax


def fit_panel(ax, x, y, se=None, *, fit=None, color=None, label=None, annotate=None, z: float = 1.96,
              xlabel=None, ylabel=None, title=None):
    """Points (x, y) with a least-squares line, as in Figure 2 of Ren et al. (extended version): the mean
    regret of each (law, epsilon_min) against V_L or V_B.

    ``se``: standard errors of y, drawn as error bars of +- ``z`` * se; ``fit``: a
    :class:`ldpcode.simulate.LinearFit` (default: :func:`ldpcode.simulate.linear_fit` of x, y), drawn as
    a dashed line over the range of x in ``THEORY_STYLE``, labelled with its slope, intercept and R^2;
    ``annotate``: one text per point, written beside it. Linear axes. Returns the fit.
    """
    from .simulate import linear_fit

    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"x and y must be 1-d of the same shape, got {x.shape} and {y.shape}")
    fit = linear_fit(x, y) if fit is None else fit
    if se is None:
        pts = ax.scatter(x, y, color=color, label=label, zorder=3)
        c = pts.get_facecolor()[0]
    else:
        se = np.asarray(se, dtype=float)
        if se.shape != x.shape:
            raise ValueError(f"se must have the shape of x, {x.shape}, got {se.shape}")
        cont = ax.errorbar(x, y, yerr=z * se, fmt="o", color=color, label=label, capsize=3, zorder=3)
        c = cont.lines[0].get_color()
    xs = np.array([x.min(), x.max()])
    ax.plot(xs, fit.predict(xs), color=c, **THEORY_STYLE,
            label=f"fit {fit.slope:.4g} V + {fit.intercept:.4g}, R² = {fit.r2:.4f}")
    if annotate is not None:
        if len(annotate) != x.size:
            raise ValueError(f"annotate must hold one text per point ({x.size}), got {len(annotate)}")
        for xi, yi, s in zip(x, y, annotate):
            ax.annotate(s, (xi, yi), textcoords="offset points", xytext=(5, -10), fontsize="x-small", color=c)
    ax.set(xlabel=xlabel or ax.get_xlabel(), ylabel=ylabel or ax.get_ylabel())
    if title:
        ax.set_title(title)
    ax.legend(loc="upper left", fontsize="x-small")
    return fit


def relative_panel(ax, x, y, se=None, *, curves=None, marks=None, color=None, label=None, z: float = 1.96,
                   logx: bool = True, xlabel=None, ylabel="value / its minimum", title=None):
    """Several functions of one parameter, each divided by its own minimum, so that their minimizers can
    be compared on one axis (Section 4.2 of Ren et al., extended version: choose ε_min minimizing V_L or
    V_B instead of the regret).

    Points (x, y / min y), with error bars of +- ``z`` * se / min y when ``se`` is given (e.g. mean regrets
    over runs); ``curves``: dict label -> (xs, ys), each drawn as a line divided by min(ys), the first
    solid, the next in ``THEORY_STYLE`` (dashed), then dotted; non-finite ys are skipped. ``marks``:
    dict label -> x value, drawn as vertical lines (solid, dashed, dotted, dash-dotted). Log y axis,
    log x axis unless ``logx=False``. Returns ax.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or x.size == 0:
        raise ValueError(f"x and y must be non-empty 1-d of the same shape, got {x.shape} and {y.shape}")
    if not (np.isfinite(y).all() and (y > 0).all()):
        raise ValueError("y must be finite and > 0 (it is divided by its minimum on a log axis)")
    ymin = y.min()
    if se is None:
        pts = ax.plot(x, y / ymin, "o", color=color, label=label, zorder=3)[0]
    else:
        se = np.asarray(se, dtype=float)
        if se.shape != x.shape:
            raise ValueError(f"se must have the shape of x, {x.shape}, got {se.shape}")
        pts = ax.errorbar(x, y / ymin, yerr=z * se / ymin, fmt="o", color=color, label=label, capsize=3,
                          zorder=3).lines[0]
    c = pts.get_color()
    styles = [dict(linestyle="-", linewidth=1.0, alpha=0.8), THEORY_STYLE, dict(linestyle=":", linewidth=1.4)]
    for i, (name, (xs, ys)) in enumerate((curves or {}).items()):
        xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
        if xs.shape != ys.shape or xs.ndim != 1:
            raise ValueError(f"curve {name!r}: xs and ys must be 1-d of the same shape, got {xs.shape}, {ys.shape}")
        ok = np.isfinite(ys) & (ys > 0)
        if ok.any():
            ax.plot(xs[ok], ys[ok] / ys[ok].min(), color="grey" if i == 0 else c, label=name,
                    **styles[min(i, len(styles) - 1)])
    for (name, xv), ls in zip((marks or {}).items(), ("-", "--", ":", "-.")):
        ax.axvline(xv, color="k", linestyle=ls, linewidth=0.9, label=f"{name}: {xv:.3g}")
    if logx:
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_yscale("log")
    ax.set(xlabel=xlabel or ax.get_xlabel(), ylabel=ylabel)
    if title:
        ax.set_title(title)
    ax.legend(loc="upper center", fontsize="x-small")
    return ax
