r"""A tail bound on a sum of Laplace variables beside the sum's exact tail and a Monte Carlo estimate of it, for two
chapters: Lemma 3 of Ren et al. (2020a) (``chapters/ren2020/lemma3_laplace_tail``, n terms of one scale b) and
Lemma 6 of the HeLDP paper (``chapters/heldp/lemma6_laplace_tail``, m terms of scales :math:`b_i = 1/\epsilon_i`).

On a grid of λ over the lemma's range, a :class:`TailCurve` holds the Monte Carlo tail :math:`P\{Y > \lambda\}` of
the sum's draws, the exact tail and the lemma's bound. :meth:`TailCurve.summary` reads them at the last λ the Monte
Carlo estimates well (``samples`` x exact >= ``min_count``): the exponent ratio :math:`\rho = \log(\text{bound}) /
\log P`, how much of the true exponent the bound keeps, with its delta-method standard error; and
:meth:`TailCurve.violations` lists what would contradict the lemma. :func:`tails_figure` and
:func:`exponent_ratio_panel` draw them. The draws, the exact tail and the bound are the chapter's (each lemma has its
own); this module only compares them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import plotting
from .._validate import check_finite_array, check_int, check_real


@dataclass(frozen=True)
class TailCurve:
    """One sum's tails on the grid ``lam``: ``emp`` (Monte Carlo, ``samples`` draws), ``exact`` and ``bound``; ``end``
    is the end of the lemma's range of λ (the grid's x axis in :func:`exponent_ratio_panel`), ``min_count`` the
    smallest expected count of draws beyond λ at which the Monte Carlo tail counts as well estimated."""

    lam: np.ndarray
    emp: np.ndarray
    exact: np.ndarray
    bound: np.ndarray
    samples: int
    min_count: int
    end: float

    @property
    def ok(self) -> np.ndarray:
        """Where the Monte Carlo tail is well estimated: samples x exact >= min_count."""
        return self.exact * self.samples >= self.min_count

    @property
    def se(self) -> np.ndarray:
        """The binomial standard error of the Monte Carlo tail, from the exact one."""
        return np.sqrt(self.exact * (1 - self.exact) / self.samples)

    def summary(self) -> dict:
        r"""At the last well-estimated λ (``lam``): ``emp``, ``exact``, ``bound``; the exponent ratios
        ``rho_mc`` = log(bound)/log(emp) with its standard error ``rho_se`` (delta method on the binomial
        :math:`\hat p`: :math:`\rho\sqrt{(1-p)/(np)}/|\log p|`) and ``rho_exact`` = log(bound)/log(exact); ``rho_end``,
        the exact ratio at the grid's end; ``z_max``, the largest \|Monte Carlo - exact\| in standard errors over the
        well-estimated grid."""
        well = np.flatnonzero(self.ok)
        if well.size == 0:
            raise ValueError(f"no grid point has samples x P >= min_count ({self.min_count}): raise samples")
        i = well[-1]
        p = self.emp[i]
        if p == 0:  # its log is -inf: no exponent ratio, and no standard error
            raise ValueError(
                f"no Monte Carlo draw exceeds λ = {self.lam[i]:g}, the last grid point with samples x P >= min_count "
                f"({self.min_count}): raise samples or min_count"
            )
        rho_mc, rho_exact = np.log(self.bound[i]) / np.log(p), np.log(self.bound[i]) / np.log(self.exact[i])
        ok = self.ok
        return dict(
            lam=self.lam[i],
            emp=p,
            exact=self.exact[i],
            bound=self.bound[i],
            rho_mc=rho_mc,
            rho_se=rho_mc * math.sqrt((1 - p) / (self.samples * p)) / abs(math.log(p)),
            rho_exact=rho_exact,
            rho_end=np.log(self.bound[-1]) / np.log(self.exact[-1]),
            z_max=float(np.max(np.abs(self.emp - self.exact)[ok] / self.se[ok])),
        )

    def violations(self) -> list[str]:
        """What would contradict the lemma or the Monte Carlo: the exact tail above the bound, the Monte Carlo tail
        more than 4 standard errors above it, the two exponent ratios more than 4 standard errors apart."""
        out = []
        if not (self.exact <= self.bound).all():
            out.append("the exact tail exceeds the bound")
        if not (self.emp <= self.bound + 4 * self.se).all():
            out.append("the Monte Carlo tail exceeds the bound by more than 4 standard errors")
        s = self.summary()
        if not abs(s["rho_mc"] - s["rho_exact"]) <= 4 * s["rho_se"]:
            out.append("the Monte Carlo exponent ratio is more than 4 standard errors from the exact one")
        return out


def tail_curve(draws, lam, exact, bound, *, end: float, min_count: int) -> TailCurve:
    """The :class:`TailCurve` of a sum from its ``draws`` (1-d, one per Monte Carlo sample) on the grid ``lam``, beside
    its ``exact`` tail and the lemma's ``bound`` there (arrays of ``lam``'s shape); ``end`` and ``min_count`` as in
    :class:`TailCurve`."""
    end = check_real("end", end)
    min_count = check_int("min_count", min_count, minimum=1)
    draws = check_finite_array("draws", draws).reshape(-1)
    lam = check_finite_array("lam", lam)
    exact, bound = check_finite_array("exact", exact), check_finite_array("bound", bound)
    if draws.size == 0 or lam.ndim != 1 or exact.shape != lam.shape or bound.shape != lam.shape:
        raise ValueError(
            f"need draws and a 1-d grid lam with exact and bound of its shape, got {draws.size} draws and shapes "
            f"{lam.shape}, {exact.shape}, {bound.shape}"
        )
    y = np.sort(draws)
    emp = 1.0 - np.searchsorted(y, lam, side="right") / y.size
    return TailCurve(lam, emp, exact, bound, y.size, min_count, end)


def tails_figure(curves: dict, scale: dict, *, symbol: str, lemma: str, xlabel: str, title: str):
    """One panel per curve (``curves``: key -> :class:`TailCurve`, titled ``symbol = key``): the Monte Carlo tail
    where well estimated, the exact tail and the lemma's bound (dashed), against λ / ``scale[key]`` (labelled
    ``xlabel``), on log axes; one legend under the panels. Returns the figure."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(curves), figsize=(10, 3), squeeze=False)
    for ax, (k, c) in zip(axes[0], curves.items()):
        x, ok = c.lam / scale[k], c.ok
        ax.semilogy(x[ok], c.emp[ok], label="Monte Carlo")
        ax.semilogy(x, c.exact, color="k", linewidth=0.8, label="exact")
        ax.semilogy(x, c.bound, **plotting.THEORY_STYLE, color="C3", label=f"{lemma} bound")
        ax.set_title(f"{symbol} = {k}")
        ax.set_xlabel(xlabel)
    axes[0][0].set_ylabel(rf"$P\{{Y_{symbol} > \lambda\}}$")
    fig.suptitle(title)
    # one legend under all panels: inside any of them it lay over the curves
    plotting.legend_under_panels(fig, axes[0][0], ncol=3, space=0.08)
    return fig


def exponent_ratio_panel(ax, curves: dict, *, symbol: str, range_text: str, title: str):
    r"""The exponent ratio :math:`\rho` = log(bound) / log(tail) against λ / (the end of the lemma's range,
    ``range_text`` in the x label): a line per curve from the exact tail, dots from the Monte Carlo one where it is
    well estimated (every sixth grid point)."""
    for k, c in curves.items():
        x = c.lam / c.end
        (line,) = ax.plot(x, np.log(c.bound) / np.log(c.exact), label=f"{symbol} = {k} (exact)")
        ok = c.ok
        ax.plot(x[ok][::6], (np.log(c.bound[ok]) / np.log(c.emp[ok]))[::6], "o", markersize=3, color=line.get_color())
    ax.set_xlabel(rf"$\lambda$ / end of the lemma's range {range_text}")
    ax.set_ylabel(r"exponent ratio $\rho$")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="upper left")
    return ax


def t4_panel(ax, curves: dict, marks: dict, *, bound_label: str, xlabel: str, ylabel: str, title: str):
    r"""How the proof uses the bound: per t of ``curves`` (t -> (k, P·t⁴) on a grid of k), the exact tail times
    :math:`t^4` against k on log axes, 1 (where P = :math:`t^{-4}`, the proof's bound, ``bound_label``) dashed, and a
    dotted line at ``marks[t]`` (the k from which the proof applies it); one colour per decade of t, the legend
    outside on the right (inside, it hid the curves)."""
    from ..claims import format_horizon

    colors = plotting.epsilon_colors(np.log10(list(curves)))
    for t, (ks, ratio) in curves.items():
        c = colors[float(np.log10(t))]
        ax.semilogy(ks, np.maximum(ratio, 1e-300), color=c, label=f"t = {format_horizon(t, mathtext=True)}")
        ax.axvline(marks[t], color=c, linestyle=":", linewidth=1)
    ax.axhline(1.0, **plotting.THEORY_STYLE, color="k", label=bound_label)
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize="x-small")
    return ax
