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


def ratio_panel(ax, pairs, *, theory=None, title=None, t_min: int = 1000):
    """Ratio of mean regrets (numerator / denominator) against t, one line per pair.

    ``pairs``: list of (label, numerator result, denominator result, colour). ``theory``: dict
    label -> value drawn as a dashed horizontal line of the same colour.
    """
    for label, num, den, color in pairs:
        if not np.array_equal(num.checkpoints, den.checkpoints):
            raise ValueError("ratio_panel needs results with the same checkpoints")
        keep = num.checkpoints >= t_min
        ratio = num.mean_regret()[keep] / den.mean_regret()[keep]
        ax.plot(num.checkpoints[keep], ratio, label=label, color=color)
        if theory and label in theory:
            ax.axhline(theory[label], color=color, **THEORY_STYLE)
    paper_axes(ax, ylabel="regret ratio", title=title)
    ax.legend(loc="best")
    return ax
