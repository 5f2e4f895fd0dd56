r"""The computations and figures of the chapter on Lemmas 2 and 5 of Ren et al. (2020), the two curators for rewards
in [0, 1] (``chapters/ren2020/lemmas2_5_curators.ipynb``).

:func:`exact_loss_sweep` takes the exact privacy loss of CTB (Curator 3, Lemma 5) and CTL (Curator 1, Lemma 2) over a
grid of ε, :func:`arm_kinds` and :func:`output_means` check the curators' mean responses (Lemma 5's
:math:`\mu_{a,\epsilon}` for CTB, :math:`\mu_a` for CTL) on every kind of arm of an instance, and
:func:`plot_privacy_losses`, :func:`plot_binned_audits` and :func:`plot_output_means` draw the chapter's figures.

This module sits in the low-level package :mod:`ldpcode.mechanisms`, which the audit and the plotting code import:
so it imports neither. The loss matrix of :func:`exact_loss_sweep` is passed in (the chapter passes
:func:`ldpcode.audit.privacy_loss_matrix`), and the figures take their colours and the theory line's style as
arguments (the chapter passes those of :mod:`ldpcode.plotting`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..claims.tables import format_number
from ..stats import mean_se
from .curators import CTB, CTL


class LossErrors(NamedTuple):
    """The deviations of an :class:`ExactLossSweep` from Lemmas 5 and 2, rounded to 1e-12."""

    ctb: float  # max over eps of the gap between CTB's largest loss and eps
    ctl: float  # max over eps of the gap between CTL's largest loss and eps
    ctl_dist: float  # max over eps, r, r' of the gap between CTL's loss and eps |r - r'|


@dataclass(frozen=True)
class ExactLossSweep:
    r"""What :func:`exact_loss_sweep` returns: the rewards ``r``, and one entry per ε of ``epsilons``."""

    epsilons: np.ndarray
    r: np.ndarray
    ctb_max: np.ndarray  # max over (r, r') of CTB's loss matrix
    ctb_at_01: np.ndarray  # CTB's loss at the pairs (r, r') = (0, 1) and (1, 0), the larger
    ctl_max: np.ndarray  # max over (r, r') of CTL's loss matrix
    ctl_dev: np.ndarray  # max over (r, r') of the gap between CTL's loss and eps |r - r'|

    @property
    def errors(self) -> LossErrors:
        r"""The deviations from Lemmas 2 and 5, rounding errors (about 1e-15, platform-dependent) rounded to 1e-12:
        :math:`\max_\epsilon |\max M - \epsilon|` for CTB and for CTL, and the largest gap between CTL's loss
        and :math:`\epsilon|r - r'|`."""
        raw = (
            np.abs(self.ctb_max - self.epsilons).max(),
            np.abs(self.ctl_max - self.epsilons).max(),
            self.ctl_dev.max(),
        )
        return LossErrors(*(float(np.round(v, 12)) for v in raw))

    def summary(self) -> str:
        """Four lines: the deviations of :attr:`errors`, and whether CTB's maximum is at the pair {0, 1}."""
        ctb_err, ctl_err, ctl_dist_err = self.errors
        at_01 = bool(np.allclose(self.ctb_at_01, self.ctb_max, rtol=0, atol=1e-12))
        return (
            f"CTB: max over ε of |max_(r, r', x) log ratio - ε|       = {format_number(ctb_err, '.1e')}\n"
            f"CTB: the maximum is attained at {{r, r'}} = {{0, 1}} for every ε: {at_01}\n"
            f"CTL: max over ε of |max_(r, r', x) log ratio - ε|       = {format_number(ctl_err, '.1e')}\n"
            f"CTL: max over ε, r, r' of |sup_x log ratio - ε |r - r'|| = {format_number(ctl_dist_err, '.1e')}"
        )


def ctb_table(epsilon, r) -> np.ndarray:
    r"""CTB's output laws on the rewards ``r``, one row :math:`(1 - p(r), p(r))` per reward, with Curator 3's
    :math:`p(r) = (re^\epsilon + 1 - r)/(1 + e^\epsilon)` (``CTB.probability_one``)."""
    p = CTB(epsilon).probability_one(r)
    return np.column_stack([1 - p, p])


def ctl_table(epsilon, r, x) -> np.ndarray:
    r"""CTL's output densities :math:`f(x_k \mid r_i)` (Curator 1: Laplace of scale 1/ε around r), one row per reward
    of ``r``, one column per output of ``x``."""
    return CTL(epsilon).density(np.asarray(x)[None, :], np.asarray(r)[:, None])


def audit_bin_edges(lo: float, hi: float, width: float) -> np.ndarray:
    """The bins of the sample audit of CTL: inner bins of ``width`` from ``lo`` to ``hi`` (edges rounded to 10
    decimals, so 0.30000000000000004 is 0.3) and the two tails, -inf and inf at the ends."""
    return np.r_[-np.inf, np.round(np.arange(lo, hi + width / 2, width), 10), np.inf]


def exact_loss_sweep(epsilons, r, x, loss_matrix) -> ExactLossSweep:
    r"""The exact privacy loss of CTB and CTL (Lemmas 5 and 2) for each ε of ``epsilons``, over the rewards ``r``
    (and, for CTL, the outputs ``x``).

    ``loss_matrix`` maps a table of output laws (:func:`ctb_table`, :func:`ctl_table`) to the matrix
    :math:`M_{ij} = \max_k \log(\mathrm{table}[i, k]/\mathrm{table}[j, k])`, as
    :func:`ldpcode.audit.privacy_loss_matrix` does. Lemma 5 says :math:`\max M = \epsilon` for CTB, attained at
    :math:`\{r, r'\} = \{0, 1\}`; Lemma 2 says :math:`M_{ij} = \epsilon|r_i - r_j|` for CTL, when ``x`` reaches left
    of 0 and right of 1.
    """
    if not callable(loss_matrix):
        raise TypeError(f"loss_matrix must be a function of a table, got {type(loss_matrix).__name__}")
    eps_grid, r = np.asarray(epsilons, dtype=float), np.asarray(r, dtype=float)
    if eps_grid.ndim != 1 or r.ndim != 1 or eps_grid.size == 0 or r.size < 2:
        raise ValueError("epsilons must be a non-empty 1-d array and r a 1-d array of at least 2 rewards")
    dist = np.abs(r[:, None] - r[None, :])
    ctb_max, ctb_at_01, ctl_max, ctl_dev = [], [], [], []
    for eps in eps_grid:
        m = loss_matrix(ctb_table(eps, r))
        ctb_max.append(m.max())
        ctb_at_01.append(max(m[0, -1], m[-1, 0]))
        m = loss_matrix(ctl_table(eps, r, x))
        ctl_max.append(m.max())
        ctl_dev.append(np.abs(m - eps * dist).max())
    return ExactLossSweep(eps_grid, r, *map(np.array, (ctb_max, ctb_at_01, ctl_max, ctl_dev)))


def arm_kinds(means) -> list:
    """One arm of each distinct mean of ``means`` (the first with it), best first: the kinds of arm of an instance
    such as Ren et al.'s mixed instance (Fig. 1(e, f)), whose arms repeat five laws."""
    means = np.asarray(means, dtype=float)
    if means.ndim != 1 or means.size == 0:
        raise ValueError(f"means must be a non-empty 1-d array, got shape {means.shape}")
    _, first = np.unique(means, return_index=True)
    return sorted(first, key=lambda i: -means[i])


class OutputMean(NamedTuple):
    """One case of :func:`output_means`: a curator's mean response on an arm at one ε."""

    curator: str  # "CTB" or "CTL"
    eps: float
    arm: int
    mean: float  # the empirical mean response
    se: float  # its standard error, the sample's s / sqrt(n)
    theory: float  # the closed form: Lemma 5's mu_a,eps for CTB, mu_a for CTL

    @property
    def z(self) -> float:
        """(empirical - theory) / se."""
        return (self.mean - self.theory) / self.se


def output_means(inst, arms, epsilons, samples: int, rng: np.random.Generator) -> list[OutputMean]:
    r"""The mean responses of CTB and CTL on the arms ``arms`` of the instance ``inst``, for each ε of ``epsilons``.

    For each ε, then each arm: ``samples`` rewards of the arm, privatized by CTB(ε) then by CTL(ε) (in this order,
    from ``rng``). Each :class:`OutputMean` holds the empirical mean, its standard error and the closed form:
    Lemma 5's :math:`\mu_{a,\epsilon} = \tfrac12 + (2\mu_a - 1)\tfrac{e^\epsilon - 1}{2(e^\epsilon + 1)}` for CTB,
    :math:`\mu_a` for CTL (Lemma 2's unbiased Laplace noise). Raises RuntimeError if a CTB response is not 0 or
    1 (Curator 3 answers with one bit, whatever the law of the reward).
    """
    out = []
    for eps in epsilons:
        for arm in arms:
            rewards = inst.sample(arm, samples, rng)
            for cur in (CTB(eps), CTL(eps)):
                resp = cur.privatize(rewards, rng)
                if cur.name == "CTB" and not set(np.unique(resp)) <= {0.0, 1.0}:
                    raise RuntimeError(f"CTB({eps:g}) gave a response other than 0 and 1")
                out.append(
                    OutputMean(cur.name, eps, arm, resp.mean(), mean_se(resp), float(cur.output_mean(inst.means[arm])))
                )
    return out


def plot_privacy_losses(sweep: ExactLossSweep, ctl_losses: dict, *, colors: dict, eps_colors: dict, theory_style):
    r"""The figure of the exact privacy loss (Lemmas 2 and 5). Left: CTB's and CTL's largest loss against ε
    (``sweep``, from :func:`exact_loss_sweep`), with the diagonal ε. Right: for each ε of ``ctl_losses`` (a dict
    ε -> CTL's loss matrix on ``sweep.r``), every pair's loss against :math:`|r - r'|`, with the line
    :math:`\epsilon|r - r'|`. ``colors`` maps ``"CTB"`` and ``"CTL"`` to colours, ``eps_colors`` each ε of
    ``ctl_losses`` to one; ``theory_style`` is the keyword arguments of the theory lines. Returns the figure."""
    import matplotlib.pyplot as plt

    dist = np.abs(sweep.r[:, None] - sweep.r[None, :])
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    ax = axes[0]
    ax.plot(sweep.epsilons, sweep.ctb_max, color=colors["CTB"], lw=3, alpha=0.6, label="CTB (exact)")
    ax.plot(sweep.epsilons, sweep.ctl_max, color=colors["CTL"], label="CTL (exact)")
    ax.plot(sweep.epsilons, sweep.epsilons, color="k", **theory_style, label=r"Lemmas 2, 5: $\epsilon$")
    ax.set_xlabel(r"$\epsilon$")
    ax.set_ylabel(r"$\max_{r, r', x}\ \log\, P\{M(r)=x\} / P\{M(r')=x\}$")
    ax.set_title(f"exact privacy loss, {sweep.r.size} rewards on [0, 1]")
    ax.legend()
    ax = axes[1]
    for eps, m in ctl_losses.items():
        c = eps_colors[eps]
        ax.plot(dist.ravel(), m.ravel(), "o", ms=2, color=c, label=rf"CTL, $\epsilon$ = {eps:g}")
        ax.plot([0, 1], [0, eps], color=c, **theory_style)
    ax.set_xlabel(r"$|r - r'|$")
    ax.set_ylabel(r"$\sup_x \log f(x|r)/f(x|r')$")
    ax.set_title(r"CTL: largest log-ratio over $x$, against $\epsilon|r-r'|$ (dashed)")
    ax.legend()
    fig.tight_layout()
    return fig


def plot_binned_audits(audits: dict, width: float, samples: int, *, eps_colors: dict, theory_style):
    r"""The figure of the sample-based audit of CTL (Lemma 2): for each ε of ``audits`` (a dict ε -> binned
    log-ratio of the outputs for r = 0 and r = 1, from :func:`ldpcode.audit.binned_log_ratio` with ``samples``
    outputs each, on edges of inner bins of ``width`` between two tail bins), the estimates with their simultaneous
    intervals, the true :math:`\log f(x|0)/f(x|1) = \epsilon(|x - 1| - |x|)` and the lines :math:`\pm\epsilon`.
    The tail bins are drawn 2.5 widths outside the inner ones. Returns the figure."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(audits), figsize=(10, 3.4), sharey=True)
    axes = np.atleast_1d(axes)  # one value: plt.subplots returns a single Axes
    first = next(iter(audits.values()))
    inner = first.edges[1:-1]
    mid = np.r_[inner[0] - width * 2.5, 0.5 * (inner[:-1] + inner[1:]), inner[-1] + width * 2.5]
    xx = np.linspace(mid[0], mid[-1], 400)
    for ax, (eps, a) in zip(axes, audits.items()):
        c = eps_colors[eps]
        ax.errorbar(mid, a.log_ratio, yerr=[a.log_ratio - a.lower, a.upper - a.log_ratio], fmt="o", ms=3,
                    color=c, elinewidth=1, label="binned estimate")  # fmt: skip
        ax.plot(xx, eps * (np.abs(xx - 1) - np.abs(xx)), color="k", **theory_style, label=r"$\log f(x|0)/f(x|1)$")
        ax.axhline(eps, color="grey", lw=0.8)
        ax.axhline(-eps, color="grey", lw=0.8)
        ax.set_title(rf"$\epsilon$ = {eps:g}: largest |log-ratio| ≥ {a.max_lower:.3f}")  # max_lower, a lower bound
        ax.set_xlabel("CTL output x")
    axes[0].set_ylabel("log-ratio of bin probabilities")
    axes[0].legend(loc="lower left")
    fig.suptitle(f"CTL outputs for r = 0 vs r = 1: {samples:,} samples each, "
                 f"{100 * (1 - first.alpha):g}% simultaneous intervals (outermost points: the two tail bins)")  # fmt: skip
    fig.tight_layout()
    return fig


def plot_output_means(means, inst, arms, title: str, *, colors: dict, eps_colors: dict, theory_style):
    r"""The figure of the curators' output means (Lemmas 2 and 5) from :func:`output_means` on the arms ``arms``
    of ``inst``: for CTB and for CTL, each mean response against the arm's mean, with the closed form dashed
    (Lemma 5's :math:`\mu_{a,\epsilon}`, :math:`\mu_a`); then every case's z-score, with the band ±4. ``colors``
    maps ``"CTB"`` and ``"CTL"`` to colours (the z-score panel's title calls them red and blue), ``eps_colors`` each
    ε to one; ``title`` is the figure's title. Returns the figure."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(10, 3.4))
    markers = dict(zip(arms, "osD^v"))
    mu = np.linspace(0.45, 0.95, 2)
    epsilons = list(dict.fromkeys(c.eps for c in means))
    for k, name in enumerate(("CTB", "CTL")):
        ax = axes[k]
        for eps in epsilons:
            c = eps_colors[eps]
            ax.plot(mu, CTB(eps).output_mean(mu) if name == "CTB" else mu, color=c, **theory_style)
            for case in means:
                if case.curator == name and case.eps == eps:
                    ax.plot(inst.means[case.arm], case.mean, markers[case.arm], color=c, ms=5,
                            label=rf"$\epsilon$ = {eps:g}" if case.arm == arms[0] else None)  # fmt: skip
        ax.set(xlabel=r"arm mean $\mu_a$", ylabel="mean response")
        ax.set_title(f"{name}: dashed = " + (r"Lemma 5's $\mu_{a,\epsilon}$" if name == "CTB" else r"$\mu_a$"))
        ax.legend(loc="upper left")
    ax = axes[2]
    for j, case in enumerate(means):
        ax.plot(j, case.z, markers[case.arm], ms=5, color=colors[case.curator])
    for arm in arms:
        ax.plot([], [], markers[arm], color="grey", ms=5, label=inst.arms[arm].describe())
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize="x-small")  # right of the last panel: z fills it
    ax.set_ylim(-6, 6)
    ax.axhspan(-4, 4, color="grey", alpha=0.15)
    ax.set(xlabel="(curator, eps, arm) case", ylabel="(empirical - theory) / s.e.")
    ax.set_title("z-scores (red CTB, blue CTL)")
    fig.suptitle(title)
    fig.tight_layout()
    return fig
