"""Panels: one axes each (a regret curve with its band, a ratio with its standard error, a bound, a gap, a fit),
the pieces every figure of the book is made of."""

from __future__ import annotations

import math

import numpy as np

from ..claims.tables import format_number, format_value
from .labels import label_points
from .theme import POLICY_COLORS, THEORY_STYLE, legend_below, legend_clear_of_texts, paper_axes, plain_log_ticks


def regret_panel(
    ax, results, *, labels=None, colors=None, styles=None, band: float | None = 0.95, title=None, t_min: int = 20
):
    """Mean pseudo-regret of each result against t, with a confidence band over runs. ``styles``: a line style per
    result (solid by default); a curve that may lie on an earlier one (two agents that make the same choices) is
    drawn dashed, so that the one under it shows between its dashes."""
    from ..claims.tables import format_horizon

    for i, res in enumerate(results):
        label = labels[i] if labels else res.label
        color = colors[i] if colors else POLICY_COLORS.get(res.policy)
        keep = res.checkpoints >= t_min
        t = res.checkpoints[keep]
        ax.plot(t, res.mean_regret()[keep], label=label, color=color, linestyle=styles[i] if styles else "-")
        if band and res.runs > 1:
            lo, hi = res.regret_band(band)
            ax.fill_between(
                t, np.maximum(lo[keep], 1e-9), hi[keep], color=ax.lines[-1].get_color(), alpha=0.2, linewidth=0
            )
    T = max(r.horizon for r in results)
    runs = {r.runs for r in results}
    sub = f"T = {format_horizon(T, mathtext=True)}, {'/'.join(map(str, sorted(runs)))} runs"
    paper_axes(ax, title=f"{title}\n{sub}" if title else sub)
    ax.legend(loc="upper left")
    return ax


def mean_sd_panel(
    ax, results, *, labels=None, colors=None, n_sd: float = 1.0, loglog: bool = True, title=None, t_min: int = 1
):
    """Mean pseudo-regret of each result against t with a band of +- ``n_sd`` standard deviations of the
    runs (sd with ddof = 1): the spread of single runs, not a confidence interval for the mean.

    This is how Azize and Basu (2022, Section 5) draw Figure 2: "we plot corresponding average and
    standard deviations of regrets". ``loglog=False`` gives linear axes. On log axes, points with a
    mean <= 0 are skipped and the band's lower edge is clipped at one decade below the mean (mean - sd
    may be <= 0). Only checkpoints >= ``t_min`` are drawn. Returns a dict label -> (t, mean, sd).
    """
    from ..claims.tables import format_horizon

    results = list(results)
    if not results:
        raise ValueError("results must hold at least one SimulationResult, got none")
    n_sd = float(n_sd)
    if not (math.isfinite(n_sd) and n_sd > 0):
        raise ValueError(f"n_sd must be a finite number > 0 (standard deviations in the band), got {n_sd!r}")
    out = {}
    for i, res in enumerate(results):
        label = labels[i] if labels else res.label
        color = colors[i] if colors else POLICY_COLORS.get(res.policy)
        reg = np.asarray(res.regret, dtype=float)
        mean = reg.mean(axis=0)
        sd = reg.std(axis=0, ddof=1) if reg.shape[0] > 1 else np.zeros_like(mean)
        keep = res.checkpoints >= t_min
        if loglog:
            keep &= mean > 0
        t = res.checkpoints[keep]
        m, s = mean[keep], sd[keep]
        lo, hi = m - n_sd * s, m + n_sd * s
        if loglog:
            lo = np.maximum(lo, m / 10)
        (line,) = ax.plot(t, m, label=label, color=color)
        if reg.shape[0] > 1:
            ax.fill_between(t, lo, hi, color=line.get_color(), alpha=0.2, linewidth=0)
        out[label] = (t, m, s)
    T = max(r.horizon for r in results)
    runs = "/".join(map(str, sorted({r.runs for r in results})))
    sub = f"T = {format_horizon(T, mathtext=True)}, {runs} runs, mean ± {n_sd:g} sd"
    paper_axes(ax, title=f"{title}\n{sub}" if title else sub, loglog=loglog)
    ax.legend(loc="upper left")
    return out


def band_curve(ax, t, values, *, label=None, color=None, style="-", band: float | None = 0.95):
    """Mean over runs of ``values`` (shape (runs, len(t))) against ``t``, with a normal confidence band.

    For curves other than the regret, e.g. the mean pull count of a gap group, E[N_a(t)], beside its
    bound in the proof of Theorem 4 or 6 of Ren et al. (2020). The band is mean +- z * sd / sqrt(runs)
    (sd with ddof = 1), as in :meth:`ldpcode.simulate.SimulationResult.regret_band`. Returns the mean.
    """
    from ..stats import mean_and_half_width

    t = np.asarray(t)
    v = np.asarray(values, dtype=float)
    if v.ndim != 2 or v.shape[1] != t.shape[0]:
        raise ValueError(f"values must have shape (runs, {t.shape[0]}) to match t, got {v.shape}")
    mean, half = mean_and_half_width(v, band or 0.95)
    (line,) = ax.plot(t, mean, label=label, color=color, linestyle=style)  # style: as regret_panel's styles
    if band and v.shape[0] > 1:
        ax.fill_between(t, mean - half, mean + half, color=line.get_color(), alpha=0.2, linewidth=0)
    return mean


PAPER_STYLE = dict(linestyle=":", linewidth=1.4, alpha=0.9)


def ratio_panel(ax, pairs, *, theory=None, paper=None, band: float | None = None, title=None, t_min: int = 1000):
    """Ratio of mean regrets (numerator / denominator) against t, one line per pair.

    ``pairs``: list of (label, numerator result, denominator result, colour). ``theory``: dict
    label -> value drawn as a dashed horizontal line of the same colour; ``paper``: dict label -> the
    paper's empirical value, drawn dotted (the paper gives no horizon for it). ``band``: a confidence
    level (e.g. 0.95) for a normal band of half-width z * :func:`ldpcode.simulate.ratio_of_means_se`.
    """
    from scipy.stats import norm

    from ..stats import ratio_of_means_se

    for label, num, den, color in pairs:
        if not np.array_equal(num.checkpoints, den.checkpoints):
            raise ValueError("ratio_panel needs results with the same checkpoints")
        keep = num.checkpoints >= t_min
        ratio = num.mean_regret()[keep] / den.mean_regret()[keep]
        ax.plot(num.checkpoints[keep], ratio, label=label, color=color)
        if band and num.runs > 1 and den.runs > 1:
            half = norm.ppf(0.5 + band / 2) * ratio_of_means_se(
                num.regret[:, keep], den.regret[:, keep], paired=num.runs == den.runs
            )
            ax.fill_between(
                num.checkpoints[keep],
                np.maximum(ratio - half, 1e-9),
                ratio + half,
                color=ax.lines[-1].get_color(),
                alpha=0.2,
                linewidth=0,
            )
        # each reference line carries its value (theory above it, the paper's below, at the left edge): on a log axis
        # labelled by decades only, 1.6 and 1.72, or 8.5 and 9.0, could not be told apart
        if theory and label in theory:
            ax.axhline(theory[label], color=color, **THEORY_STYLE)
            _line_value(ax, theory[label], color, above=True)
        if paper and label in paper:
            ax.axhline(paper[label], color=color, **PAPER_STYLE)
            _line_value(ax, paper[label], color, above=False)
    paper_axes(ax, ylabel="regret ratio", title=title)
    # room above the highest theory line for its value (the "9" of (1 + 4/2)² sat on the frame at 10, and "441" on
    # the one at 500): the line at most 88 % of the way up the log axis
    top = [v for v in (theory or {}).values() if np.isfinite(v) and v > 0]
    if top and ax.get_yscale() == "log":
        low, high = ax.get_ylim()
        ax.set_ylim(low, max(high, low * (max(top) / low) ** (1 / 0.88)))
    plain_log_ticks(ax.yaxis)  # 1, 2, 5, 10, ...: decades alone left an ε = 2 panel two labels, 1 and 10
    legend_clear_of_texts(ax)
    return ax


def _line_value(ax, value, color, *, above: bool):
    """Write ``value`` (3 significant digits) at the left edge of ``ax``, in the line's colour: above the line for a
    theoretical factor (``above``), below it as "paper 1.6" for a paper's number (``above=False``). The
    curves of a ratio start near 1 at the left edge; at the right edge they met the lines, and a legend outside."""
    text, offset, va = (f"{value:.3g}", (3, 1), "bottom") if above else (f"paper {value:.3g}", (3, -1), "top")
    # on a white ground: a curve or a grid line crossing the value no longer runs through its digits
    ax.annotate(text, xy=(0.0, value), xycoords=ax.get_yaxis_transform(), xytext=offset, textcoords="offset points",
                ha="left", va=va, fontsize=9, color=color,
                bbox=dict(facecolor="white", edgecolor="none", alpha=0.8, pad=0.5))  # fmt: skip


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


def gap_panel(
    ax,
    x,
    gaps,
    se=None,
    *,
    exact=None,
    constants=None,
    color=None,
    label=None,
    z: float = 2.0,
    xlabel=None,
    ylabel=None,
    title=None,
):
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
    # the gaps grow with x, so the upper left is empty once the y axis has room above the data: the legend goes there
    # (without the room it covered 24 of Corollaries 10-11's points; below the axes it met the x label once the
    # fonts were enlarged to be legible)
    lo = ax.get_ylim()[0]
    ax.set_ylim(lo, ax.dataLim.y1 + 0.9 * (ax.dataLim.y1 - lo))
    ax.legend(loc="upper left", fontsize="x-small")
    return ax


def fit_label(fit, names: tuple[str, str] = ("R", "V"), what: str = "fit") -> str:
    """A least-squares line's legend entry, the equation it is and its R^2: "fit R = 782.7 V + 26,364, R² = 0.9354"
    (``names`` = (y, x); ``what`` names the line)."""
    sign = "-" if fit.intercept < 0 else "+"
    return (
        f"{what} {names[0]} = {format_value(fit.slope)} {names[1]} {sign} {format_value(abs(fit.intercept))}, "
        f"R² = {fit.r2:.4f}"
    )


def fit_panel(
    ax,
    x,
    y,
    se=None,
    *,
    fit=None,
    color=None,
    label=None,
    annotate=None,
    z: float = 1.96,
    xlabel=None,
    ylabel=None,
    title=None,
    names: tuple[str, str] = ("R", "V"),
):
    """Points (x, y) with a least-squares line, as in Figure 2 of Ren et al. (extended version): the mean
    regret of each (law, epsilon_min) against V_L or V_B.

    ``se``: standard errors of y, drawn as error bars of +- ``z`` * se; ``fit``: a
    :class:`ldpcode.simulate.LinearFit` (default: :func:`ldpcode.simulate.linear_fit` of x, y), drawn as
    a dashed line over the range of x in ``THEORY_STYLE``, labelled as the equation it is, "fit R = 782.7 V + 26,364,
    R² = 0.9982", with ``names`` = (y, x) (``("log R", "log T")`` for a log-log fit), and its R^2;
    ``annotate``: one text per point, written beside it and kept apart (:func:`label_points`, at the scale the axes
    have now: a figure whose layout changes afterwards calls it after the layout instead). Linear axes. Returns
    the fit.
    """
    from ..stats import linear_fit

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
    ax.plot(
        xs,
        fit.predict(xs),
        color=c,
        **THEORY_STYLE,
        label=fit_label(fit, names),
    )
    ax.set(xlabel=xlabel or ax.get_xlabel(), ylabel=ylabel or ax.get_ylabel())
    if annotate is not None:
        if len(annotate) != x.size:
            raise ValueError(f"annotate must hold one text per point ({x.size}), got {len(annotate)}")
        label_points(ax, x, y, annotate, color=c)
    if title:
        ax.set_title(title)
    ax.legend(loc="upper left", fontsize="x-small")
    return fit


def relative_panel(
    ax,
    x,
    y,
    se=None,
    *,
    curves=None,
    marks=None,
    color=None,
    label=None,
    z: float = 1.96,
    logx: bool = True,
    xlabel=None,
    ylabel="value / its minimum",
    title=None,
):
    """Several functions of one parameter, each divided by its own minimum, so that their minimizers can
    be compared on one axis (Section 4.2 of Ren et al., extended version: choose ε_min minimizing V_L or
    V_B instead of the regret).

    Points (x, y / min y), with error bars of +- ``z`` * se / min y when ``se`` is given (e.g. mean regrets
    over runs); ``curves``: dict label -> (xs, ys), each drawn as a line divided by min(ys), the first
    solid, the next in ``THEORY_STYLE`` (dashed), then dotted; non-finite ys are skipped. ``marks``:
    dict label -> x value, drawn as vertical lines (solid, dashed, dotted, dash-dotted); marks at the same x, to the
    3 digits of their labels, are one line named by their names joined by " = " (``heuristic = best: 2``). Log y axis,
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
        pts = ax.errorbar(
            x, y / ymin, yerr=z * se / ymin, fmt="o", color=color, label=label, capsize=3, zorder=3
        ).lines[0]
    c = pts.get_color()
    styles = [dict(linestyle="-", linewidth=1.0, alpha=0.8), THEORY_STYLE, dict(linestyle=":", linewidth=1.4)]
    for i, (name, (xs, ys)) in enumerate((curves or {}).items()):
        xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
        if xs.shape != ys.shape or xs.ndim != 1:
            raise ValueError(f"curve {name!r}: xs and ys must be 1-d of the same shape, got {xs.shape}, {ys.shape}")
        ok = np.isfinite(ys) & (ys > 0)
        if ok.any():
            ax.plot(
                xs[ok],
                ys[ok] / ys[ok].min(),
                color="grey" if i == 0 else c,
                label=name,
                **styles[min(i, len(styles) - 1)],
            )
    groups: dict = {}  # marks at one x (to the label's 3 digits) drawn once, named together: a dotted line under a
    for (name, xv), ls in zip((marks or {}).items(), ("-", "--", ":", "-.")):  # solid one was not seen; each line
        groups.setdefault(f"{float(xv):.3g}", (float(xv), ls, []))[2].append(name)  # in its first mark's style
    for shown, (xv, ls, names) in groups.items():
        ax.axvline(xv, color="k", linestyle=ls, linewidth=0.9, label=f"{' = '.join(names)}: {shown}")
    if logx:
        ax.set_xscale("log")
        plain_log_ticks(ax.xaxis)
    ax.set_yscale("log")
    ax.set(xlabel=xlabel or ax.get_xlabel(), ylabel=ylabel)
    if title:
        ax.set_title(title)
    # below the axes: inside, it lay over the vertical lines the panel is about and the curves' upper parts
    legend_below(ax, offset=-0.22)
    return ax


def episode_timeline(
    ax,
    blocks,
    *,
    log: bool = False,
    arm_labels=None,
    colors=None,
    mark_starts: bool = True,
    annotate: bool = True,
    max_marks: int = 12,
    title=None,
):
    r"""Figure 1 of Azize and Basu (2022): the episodes of one run of Algorithm 1, one row per arm.

    ``blocks`` is a :class:`ldpcode.global_policies.Blocks` (``policy.run(...)``). Step t occupies
    [t, t + 1) on the x axis, so the episode :math:`[t_\ell, t_{\ell+1} - 1]` is a bar from
    :math:`t_\ell` to :math:`t_{\ell+1}`; the first block (each arm once, round-robin) gives one unit bar
    per arm. A block of several arms with more than one pull each (a DP-SE epoch) is drawn hatched across
    its span on each of its arms' rows. ``mark_starts``: dotted verticals at the episode starts
    :math:`t_\ell` (labelled :math:`t_1, t_2, \dots` above the axes for the first ``max_marks``);
    ``annotate``: the length of each bar written in it when it is wide enough; ``log``: log x axis (for
    long runs, where doubling episodes have equal widths). Arms are labelled 1..K (the paper's
    numbering) unless ``arm_labels`` is given, arm 1 on top. Returns a dict arm -> list of (start, length)
    of its bars.
    """
    from matplotlib.ticker import NullLocator

    from ..claims.tables import format_horizon
    from ..global_policies import Blocks

    if not isinstance(blocks, Blocks) or not blocks.start:
        raise ValueError(f"blocks must be a non-empty ldpcode.global_policies.Blocks (policy.run(...)), got {blocks!r}")
    K = blocks.n_arms
    labels = list(arm_labels) if arm_labels is not None else [f"arm {a + 1}" for a in range(K)]
    if len(labels) != K:
        raise ValueError(f"arm_labels must hold one label per arm ({K}), got {len(labels)}")
    colors = list(colors) if colors is not None else [f"C{a % 10}" for a in range(K)]
    if len(colors) != K:
        raise ValueError(f"colors must hold one colour per arm ({K}), got {len(colors)}")
    max_marks = int(max_marks)
    if max_marks < 0:
        raise ValueError(f"max_marks must be an integer >= 0, got {max_marks!r}")
    T = int(sum(blocks.length))
    bars = {a: [] for a in range(K)}
    spans = {a: [] for a in range(K)}
    for s, arms, n in zip(blocks.start, blocks.arms, blocks.length):
        k = len(arms)
        if k == 1:
            bars[arms[0]].append((s + 1, n))
        elif n <= k:
            for i in range(n):
                bars[arms[i]].append((s + 1 + i, 1))
        else:
            for a in arms:
                spans[a].append((s + 1, n))
    for a in range(K):
        y = K - 1 - a
        ax.broken_barh(bars[a], (y - 0.35, 0.7), facecolors=colors[a], edgecolor="white", linewidth=0.8)
        if spans[a]:
            ax.broken_barh(spans[a], (y - 0.35, 0.7), facecolors="none", edgecolor=colors[a], hatch="//", linewidth=0.8)
        if annotate:
            for x0, w in bars[a]:
                text, chars = _length_label(w)
                if _axis_fraction(x0, x0 + w, T, log) >= 0.012 * max(chars, 2):
                    xc = math.sqrt(x0 * (x0 + w)) if log else x0 + w / 2
                    ax.text(xc, y, text, ha="center", va="center", fontsize="x-small", color="white")
    if log:
        ax.set_xscale("log")
    ax.set_xlim(1, T + 1)
    if mark_starts:
        starts = [s + 1 for s in blocks.start[1:]]
        for t in starts:
            ax.axvline(t, color="0.3", linestyle=":", linewidth=0.8)
        # label t_l in two staggered rows, a label only where it does not collide with the last one of its row (one
        # row skipped t_2 and t_4 of Example 2, whose t_4 = 7 the text explains)
        marks, last = [], [None, None]
        for i, t in enumerate(starts):
            row = next((r for r in (0, 1) if last[r] is None or _axis_fraction(last[r], t, T, log) >= 0.03), None)
            if len(marks) < max_marks and row is not None:
                marks.append((t, f"$t_{{{i + 1}}}$" + "\n" * row))
                last[row] = t
        top = ax.secondary_xaxis("top")
        top.set_xticks([t for t, _ in marks])
        top.set_xticklabels([lab for _, lab in marks], fontsize="x-small")
        top.xaxis.set_minor_locator(NullLocator())
    ax.set_ylim(-0.6, K - 0.4)
    ax.set_yticks(range(K))
    ax.set_yticklabels(labels[::-1])
    ax.grid(False, axis="y")
    ax.set_xlabel("step t")
    horizon = format_horizon(T, mathtext=True) if T >= 1000 else str(T)
    ax.set_title(title if title is not None else f"{K} arms, T = {horizon}, {len(blocks.start) - 1} episodes")
    return bars


def _axis_fraction(x0: float, x1: float, T: int, log: bool) -> float:
    """The fraction of the timeline [1, T + 1] between x0 and x1, on a linear or log axis."""
    if log:
        return (math.log(x1) - math.log(x0)) / math.log(T + 1.0)
    return (x1 - x0) / T


def _length_label(n: int) -> tuple[str, int]:
    """The text written in an episode bar, and about how many characters wide it is."""
    if n < 10_000:
        return f"{n}", len(str(n))
    k = n.bit_length() - 1
    if n == 1 << k:
        return f"$2^{{{k}}}$", 3
    return format_number(n, ".0e"), 5


def log_ratio_panel(
    ax, x, log_ratio, lower, upper, *, epsilon, exact=None, color=None, label=None, ylim=None, xlabel=None, title=None
):
    r"""Estimated privacy-loss log-ratios with their confidence intervals against the ε band.

    For :func:`ldpcode.audit.binned_log_ratio` (x: bin centres) and
    :func:`ldpcode.audit.action_sequence_audit` (x: a rank of the action sequences): points
    (x, log_ratio) with bars from ``lower`` to ``upper``, clipped to ``ylim`` (default ±(2ε + 0.5)); an
    infinite bound is drawn to the edge of the panel, a non-finite point not at all. Dashed lines at
    ±ε (Definition 2 of Azize and Basu, Definition 1 of Ren et al.: an ε-DP mechanism keeps every
    log-ratio inside). ``exact``: values at x drawn as black crosses (e.g. exact bin log-ratios). Returns
    the number of intervals lying entirely outside [-ε, ε] (a violation at the intervals' confidence).
    """
    x = np.asarray(x, dtype=float)
    est, lo, hi = (np.asarray(v, dtype=float) for v in (log_ratio, lower, upper))
    if not (x.ndim == 1 and est.shape == lo.shape == hi.shape == x.shape):
        raise ValueError(
            f"x, log_ratio, lower and upper must be 1-d of one shape, got {x.shape}, {est.shape}, "
            f"{lo.shape}, {hi.shape}"
        )
    eps = float(epsilon)
    if not (math.isfinite(eps) and eps > 0):
        raise ValueError(f"epsilon must be a finite number > 0, got {epsilon!r}")
    y0, y1 = ylim if ylim is not None else (-(2 * eps + 0.5), 2 * eps + 0.5)
    clo = np.clip(np.nan_to_num(lo, nan=y0, neginf=y0), y0, y1)
    chi = np.clip(np.nan_to_num(hi, nan=y1, posinf=y1), y0, y1)
    ok = np.isfinite(est)
    pts = np.clip(est, y0, y1)
    bars = ax.vlines(x, clo, chi, color=color, linewidth=1.2, alpha=0.7)
    c = bars.get_color()[0] if color is None else color
    ax.plot(x[ok], pts[ok], "o", color=c, markersize=3.5, label=label)
    if exact is not None:
        ex = np.asarray(exact, dtype=float)
        if ex.shape != x.shape:
            raise ValueError(f"exact must have the shape of x, {x.shape}, got {ex.shape}")
        ax.plot(x, ex, "x", color="k", markersize=5, label="exact")
    for s in (-1, 1):
        ax.axhline(s * eps, color="k", **THEORY_STYLE, label=r"$\pm\epsilon$" if s == 1 else None)
    ax.set_ylim(y0, y1)
    ax.set(xlabel=xlabel or ax.get_xlabel(), ylabel="log-ratio of probabilities")
    if title:
        ax.set_title(title)
    return int(((lo > eps) | (hi < -eps)).sum())
