r"""Azize and Basu (2022), Figure 3: the regret of AdaP-KLUCB against ε and its regime change, for
``chapters/azize2022/figure3``.

:func:`run_grid` simulates AdaP-KLUCB at each ε of a grid and reads the regret at T (with either reading of
eq. (8), :data:`READINGS`); :func:`theory_curves`
evaluates beside it Theorem 3's lower bound and its two parts, the shape of Theorem 8 and the noise-free model
of the index (:func:`ldpcode.global_policies.noise_free_pulls`); :func:`grid_table` shows both.
:func:`regime_fits` fits the two-regime hinge (:func:`ldpcode.stats.hinge_fit`, :func:`ldpcode.stats.hinge_bootstrap`) to
the measured regret and to the noise-free model, :func:`fit_report` prints it and :func:`figure3` draws it all.
:func:`above_switch`, :func:`episode_lengths`, :func:`switch_report` and :func:`regret_over_bound` are what the
check of the paper's switch at ε = 0.3 and of the gap to Theorem 3 reads.
The notebook's claims are built in the notebook.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np

from ..bounds import adap_klucb_regret_bound, gdp_lower_bound_terms, lai_robbins_constant
from ..claims import Table
from ..claims.tables import format_horizon
from ..global_policies import noise_free_pulls
from ..global_policies.episodes import AdaptiveEpisodes
from ..global_policies.indexes import KLUCBIndexAsPrinted
from ..plotting import POLICY_COLORS, THEORY_STYLE, band_curve, legend_below, paper_axes
from ..policies import make_policy
from ..simulate import simulate
from ..stats import HingeBootstrap, HingeFit, hinge_bootstrap, hinge_fit, ratio_of_means_se, se_or_zero

#: The policy of Figure 3.
POLICY = "AdaP-KLUCB"


def _grid(eps_grid) -> np.ndarray:
    eps = np.asarray(eps_grid, dtype=float)
    if eps.ndim != 1 or eps.size < 1 or not (eps > 0).all():
        raise ValueError(f"eps_grid must be a non-empty 1-d array of privacy budgets > 0, got {eps_grid!r}")
    return eps


@dataclass(frozen=True)
class GridRun:
    """What :func:`run_grid` returns: ``final``, the regret at T of each run at each ε, shape (runs, len(ε));
    its ``mean_regret`` and ``sd_regret`` (ddof = 1) over runs; ``pulls_sub``, the mean pulls at T of a
    suboptimal arm (arms 1, 2, ...) at each ε."""

    final: np.ndarray
    mean_regret: np.ndarray
    sd_regret: np.ndarray
    pulls_sub: np.ndarray


#: The two readings of eq. (8) (:func:`run_grid`): the shifted private mean its next sentence defines (the
#: book's AdaP-KLUCB), or the private mean as eq. (8) itself prints it (:class:`KLUCBIndexAsPrinted`).
READINGS = ("shifted", "as printed")


def run_grid(
    instance, eps_grid, horizon: int, runs: int, seed: int, *, alpha: float, reading: str = "shifted"
) -> GridRun:
    """Simulate AdaP-KLUCB (exploration ``alpha``) on ``instance`` at each ε of ``eps_grid``, one simulation of
    ``runs`` runs per ε, all with the same ``seed``, read at the ``horizon`` only: the measured curve of Figure 3
    of Azize and Basu (2022). The best arm must be arm 0. ``reading`` (one of :data:`READINGS`) chooses the index
    of eq. (8): ``"shifted"``, the book's AdaP-KLUCB, or ``"as printed"``, without the shift. Returns a
    :class:`GridRun`."""
    if reading not in READINGS:
        raise ValueError(f"reading must be one of {', '.join(map(repr, READINGS))}, got {reading!r}")
    eps = _grid(eps_grid)
    if reading == "shifted":
        policies = {e: make_policy(POLICY, epsilon=float(e), alpha=alpha) for e in eps}
    else:
        policies = {e: AdaptiveEpisodes(POLICY, KLUCBIndexAsPrinted(), float(e), alpha) for e in eps}
    res = {e: simulate(policies[e], instance, horizon, runs, seed, checkpoints=[horizon]) for e in eps}
    final = np.array([res[e].final_regret() for e in eps], dtype=float).T
    pulls_sub = np.array([res[e].pulls[:, 1:].mean() for e in eps])
    return GridRun(final, final.mean(axis=0), final.std(axis=0, ddof=1), pulls_sub)


@dataclass(frozen=True)
class Theory:
    r"""What :func:`theory_curves` returns, all regrets at T (bounds times :math:`\log T`): Theorem 3's bound
    ``lower``, its constant part ``lai_robbins`` and its ``private_part``, its switch ``lb_threshold``
    :math:`d/(6\Delta)`; Theorem 8's shape ``thm8_shape`` and corner ``thm8_corner`` :math:`d/(C_2\Delta)` at
    :math:`C_1 = C_2 = 1`; ``gap`` :math:`\Delta` and ``d_sub`` :math:`d(\mu_a, \mu^*)` of arm 1; the noise-free
    model's pulls ``nf_pulls`` (len(ε), arms) and its regret, staircase ``nf_stairs`` and smooth ``nf_smooth``."""

    lower: np.ndarray
    lai_robbins: float
    private_part: np.ndarray
    lb_threshold: float
    thm8_shape: np.ndarray
    thm8_corner: float
    gap: float
    d_sub: float
    nf_pulls: np.ndarray
    nf_stairs: np.ndarray
    nf_smooth: np.ndarray


def theory_curves(instance, eps_grid, horizon: int, alpha: float) -> Theory:
    r"""At each ε of ``eps_grid``, for the Bernoulli ``instance``: Theorem 3's lower bound
    :math:`\sum_a\Delta_a/\min\{d(\mu_a,\mu^*), 6\epsilon\Delta_a\}` (``ldp.bounds.gdp_lower_bound_terms``),
    its Lai-Robbins and private parts, Theorem 8's bound at :math:`C_1 = C_2 = 1` (shape only), all times
    :math:`\log T`, and the regret :math:`\sum_a N_a\Delta_a` of the noise-free model of AdaP-KLUCB's index: what
    Figure 3 of Azize and Basu (2022) sets the measured regret against. The switch and corner are those of
    arm 1, which stand for every suboptimal arm when they are alike. Returns a :class:`Theory`."""
    eps, means, log_t = _grid(eps_grid), instance.means, math.log(horizon)
    lb = [gdp_lower_bound_terms(means, e) for e in eps]
    nf_pulls = np.array([noise_free_pulls(POLICY, means, horizon, e, alpha) for e in eps])
    smooth = [noise_free_pulls(POLICY, means, horizon, e, alpha, staircase=False) @ instance.gaps for e in eps]
    return Theory(
        lower=np.array([t.value for t in lb]) * log_t,
        lai_robbins=lai_robbins_constant(means) * log_t,
        private_part=np.array([np.sum(t.gaps / (6 * t.epsilon * t.t_inf)) for t in lb]) * log_t,
        lb_threshold=float(lb[0].epsilon_threshold[0]),
        thm8_shape=np.array([adap_klucb_regret_bound(means, horizon, e, c1=1.0, c2=1.0, alpha=alpha) for e in eps]),
        thm8_corner=float(lb[0].d_inf[0] / lb[0].gaps[0]),
        gap=float(lb[0].gaps[0]),
        d_sub=float(lb[0].d_inf[0]),
        nf_pulls=nf_pulls,
        nf_stairs=nf_pulls @ instance.gaps,
        nf_smooth=np.array(smooth),
    )


def grid_table(eps_grid, run: GridRun, theory: Theory, means) -> Table:
    """The table of Figure 3: per ε, the mean regret at T, its sd over runs, the mean pulls of a suboptimal arm
    (headed by the mean of arm 1, ``means[1]``), the noise-free model's pulls of arm 1 and Theorem 3's bound
    times log T."""
    rows = [
        [e, run.mean_regret[i], run.sd_regret[i], run.pulls_sub[i], theory.nf_pulls[i, 1], theory.lower[i]]
        for i, e in enumerate(_grid(eps_grid))
    ]
    head = ["eps", "mean R(T)", "sd", f"N({means[1]:g} arm)", "noise-free N", "Thm 3 bound"]
    # one number of decimals per column (".5g" wrote 11,469 over 842.24): a mean over runs to 0.1, as its sd
    return Table(head, rows, formats=[".3g", ",.1f", ".1f", ",.1f", ".5g", ".4g"])


@dataclass(frozen=True)
class RegimeFits:
    """What :func:`regime_fits` returns: the hinge ``fit`` of the mean regret, its bootstrap ``boot`` and the 95 %
    percentile ``interval`` of the breakpoint; the fits of the noise-free model, ``smooth`` and ``stairs``;
    ``n_same``, the number of ε at which every run gave the same regret."""

    fit: HingeFit
    boot: HingeBootstrap
    interval: tuple
    smooth: HingeFit
    stairs: HingeFit
    n_same: int


def regime_fits(eps_grid, final, theory: Theory, *, n_boot: int, seed: int) -> RegimeFits:
    r"""The two-regime fit :math:`\log R \approx a + b\min(\log\epsilon - \log\epsilon^*, 0)` of the mean over
    runs of ``final`` (runs, len(ε)), bootstrapped over runs (``n_boot`` replicates, ``seed``), and the same fit
    of the noise-free model's smooth and staircase regret: the regime change of Figure 3 of Azize and Basu
    (2022), which the paper puts at ε = 0.3. Returns a :class:`RegimeFits`."""
    eps, final = _grid(eps_grid), np.asarray(final, dtype=float)
    if final.ndim != 2 or final.shape[1] != eps.size:
        raise ValueError(f"final must have shape (runs, {eps.size}) to match eps_grid, got {final.shape}")
    boot = hinge_bootstrap(eps, final, n_boot=n_boot, seed=seed)
    lo, hi = np.percentile(boot.breakpoints, [2.5, 97.5])
    return RegimeFits(
        fit=hinge_fit(eps, final.mean(axis=0)),
        boot=boot,
        interval=(lo, hi),
        smooth=hinge_fit(eps, theory.nf_smooth),
        stairs=hinge_fit(eps, theory.nf_stairs),
        n_same=int((np.ptp(final, axis=0) == 0).sum()),
    )


def fit_report(fits: RegimeFits, theory: Theory, runs: int) -> str:
    """The printed summary of :func:`regime_fits`: breakpoint, plateau and slope with their bootstrap standard
    errors, the number of ε where the ``runs`` runs agree, the noise-free fits, and the paper's 0.3 beside
    Theorem 3's switch and Theorem 8's corner (Figure 3 of Azize and Basu 2022)."""
    fit, boot, (lo, hi), n = fits.fit, fits.boot, fits.interval, fits.fit.n
    return "\n".join(
        [
            f"breakpoint ε* = {fit.breakpoint:.3f} (bootstrap SE {boot.breakpoint_se:.3f}, "
            f"95% percentile interval [{lo:.3f}, {hi:.3f}])",
            f"plateau       = {fit.plateau:.4g} (SE {boot.plateau_se:.3g})",
            f"slope below ε* = {fit.slope:.3f} (SE {boot.slope_se:.3f}), R² on log R = {fit.r2:.4f}",
            f"ε at which all {runs} runs give the same regret: {fits.n_same} of {n} (the bootstrap moves only "
            "the others)",
            f"noise-free model (continuous): breakpoint {fits.smooth.breakpoint:.3f}, slope {fits.smooth.slope:.3f}; "
            f"(staircase): breakpoint {fits.stairs.breakpoint:.3f}",
            f"paper: 0.3; lower bound's threshold d/(6Δ) = {theory.lb_threshold:.4f}; "
            f"Theorem 8's corner d/(C₂Δ) at C₂ = 1: {theory.thm8_corner:.4f}",
        ]
    )


def figure3(eps_grid, run: GridRun, fits: RegimeFits, theory: Theory, *, horizon: int, runs: int):
    """Figure 3 of Azize and Basu (2022), two panels. Left: the regret at T with its 95 % band, the two-regime
    fit, the fitted ε* (shaded 4 bootstrap standard errors), the paper's 0.3 and Theorem 3's switch. Right: the
    mean regret, the noise-free model (a staircase), Theorem 3's bound with its two parts and Theorem 8's shape.
    Returns the figure."""
    eps, fit, se, color = _grid(eps_grid), fits.fit, fits.boot.breakpoint_se, POLICY_COLORS[POLICY]
    at = f"T = {format_horizon(horizon, mathtext=True)}, {runs} runs"
    fig, axes = plt.subplots(1, 2, figsize=(10, 6.2))
    ax = axes[0]
    band_curve(ax, eps, run.final, label=f"{POLICY}, mean ± 95% CI", color=color)
    ax.plot(eps, fit.predict(eps), color="k", **THEORY_STYLE,
            label=f"two-regime fit: slope {fit.slope:.2f}, plateau {fit.plateau:.0f}")  # fmt: skip
    ax.axvline(fit.breakpoint, color="k", linewidth=1.0, label=f"fitted ε* = {fit.breakpoint:.2f}")
    ax.axvspan(fit.breakpoint - 4 * se, fit.breakpoint + 4 * se, color="k", alpha=0.08)
    ax.axvline(0.3, color="tab:red", linestyle=":", linewidth=1.4, label="paper: ε = 0.3")
    ax.axvline(theory.lb_threshold, color="tab:blue", linestyle="-.", linewidth=1.0,
               label=f"Thm 3 threshold {theory.lb_threshold:.3f}")  # fmt: skip
    paper_axes(ax, xlabel="privacy budget ε", ylabel="pseudo-regret R(T)", title=f"Figure 3: {POLICY}\n{at}")
    legend_below(ax, offset=-0.16, ncol=1)  # inside, it hid data

    ax = axes[1]
    ax.plot(eps, run.mean_regret, "o-", color=color, markersize=3, label=f"{POLICY} (mean)")
    ax.step(eps, theory.nf_stairs, where="mid", color=color, linestyle=":", linewidth=1.2,
            label="noise-free model of the index")  # fmt: skip
    ax.plot(eps, theory.lower, color="k", **THEORY_STYLE, label="Theorem 3 lower bound")
    ax.plot(eps, theory.private_part, color="tab:blue", linestyle=":", linewidth=1.0,
            label="its private part Σ Δ/(6ε t_inf)")  # fmt: skip
    ax.axhline(theory.lai_robbins, color="grey", linestyle=":", linewidth=1.0, label="its Lai-Robbins part Σ Δ/d")
    ax.plot(eps, theory.thm8_shape, color=color, **THEORY_STYLE, label="Thm 8, C1 = C2 = 1 (shape only)")
    paper_axes(ax, xlabel="privacy budget ε", ylabel="regret at T (all bounds × log T)",
               title=f"against the bounds\n{at}")  # fmt: skip
    legend_below(ax, offset=-0.16, ncol=1)  # inside, it hid data
    fig.tight_layout()
    return fig


@dataclass(frozen=True)
class AboveSwitch:
    """What :func:`above_switch` returns: ``index``, the first ε of the grid above the switch; ``ratio``, the mean
    regret there over that at the last ε, with its delta-method ``se`` (unpaired); ``same_stair``, whether the
    grid point just below the switch has the same mean regret."""

    index: int
    ratio: float
    se: float
    same_stair: bool


def above_switch(eps_grid, final, switch: float) -> AboveSwitch:
    """The mean regret at the smallest ε of ``eps_grid`` above ``switch`` over that at the largest ε, from
    ``final`` (runs, len(ε)), each ε its own simulation (``ratio_of_means_se(paired=False)``): 1 if the regret
    no longer depends on ε above the switch, as Azize and Basu (2022) say of Figure 3 with ``switch`` = 0.3.
    The grid must hold at least two ε above the switch."""
    eps, final = _grid(eps_grid), np.asarray(final, dtype=float)
    above = np.flatnonzero(eps > switch)
    if above.size < 2 or final.ndim != 2 or final.shape[1] != eps.size:
        raise ValueError(f"eps_grid must hold two eps above {switch} and final one column per eps, got {eps_grid!r}")
    i, mean = int(above[0]), final.mean(axis=0)
    se = float(ratio_of_means_se(final[:, i], final[:, -1], paired=False))
    return AboveSwitch(i, mean[i] / mean[-1], se, bool(i > 0 and mean[i - 1] == mean[i]))


def episode_lengths(alpha: float, horizon: int, epsilon: float, gap: float, d: float) -> tuple[float, float]:
    r"""The two episode lengths of the index of eq. (8) of Azize and Basu (2022): :math:`\alpha\log T/(\epsilon
    \Delta)`, up to which the privacy shift :math:`\alpha\log t/(\epsilon m)` alone is at least :math:`\Delta`,
    and :math:`\alpha\log T/d(\mu_a, \mu^*)`, where a non-private KL-UCB arm stops."""
    if not (epsilon > 0 and gap > 0 and d > 0):
        raise ValueError(f"epsilon, gap and d must be > 0, got {epsilon!r}, {gap!r}, {d!r}")
    log_t = math.log(horizon)
    return alpha * log_t / (epsilon * gap), alpha * log_t / d


def switch_report(eps_grid, above: AboveSwitch, theory: Theory, lengths, switch: float) -> str:
    """The printed check of the paper's switch of Figure 3 of Azize and Basu (2022): the ratio of
    :func:`above_switch` with its standard error, then the two episode lengths of eq. (8) at ε = ``switch``
    (``lengths``, from :func:`episode_lengths`) and how many times earlier the non-private arm stops."""
    m_shift, m_free = lengths
    return (
        f"smallest grid ε above {switch:g}: {_grid(eps_grid)[above.index]:.4f}; R(ε)/R(ε_max) = "
        f"{above.ratio:.3f} (SE {above.se:.3f})\neq. (8) at ε = {switch:g}: the privacy shift α log T/(ε m) "
        f"≥ Δ = {theory.gap:g} until m = {m_shift:.0f}; without privacy the arm stops at m = α log T/d = "
        f"{m_free:.1f}, {m_shift / m_free:.1f} times earlier"
    )


def regret_over_bound(run: GridRun, theory: Theory, i: int) -> tuple[float, float]:
    r"""The mean regret at T over Theorem 3's lower bound (times :math:`\log T`) at the ``i``-th ε of the grid,
    and its standard error :math:`s/(\sqrt{n}\,B)` over the n runs (0 where all runs agree,
    ``ldp.se_or_zero``): the gap between AdaP-KLUCB and the bound in Figure 3 of Azize and Basu (2022)."""
    n = run.mean_regret.size
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not -n <= i < n:
        raise ValueError(f"i must index the {n} eps of the grid, got {i!r}")
    se_mean = run.sd_regret / math.sqrt(run.final.shape[0])
    ratio = run.mean_regret[i] / theory.lower[i]
    return ratio, se_or_zero(se_mean[i] / theory.lower[i], ratio)


@dataclass(frozen=True)
class ReadingCheck:
    """What :func:`reading_check` returns: ``eps``, the smallest ε of the grid, the first above the switch and the
    largest; the mean regret at each under the book's reading of eq. (8) (``shifted``) and without the shift
    (``printed``, a :class:`GridRun`); and, without the shift, ``up`` (the ratio the check judges, as
    :func:`above_switch`) and ``low``, the regret at the smallest ε over that at the largest with its
    unpaired delta-method ``low_se``: near 1 when the regret does not depend on ε below the switch either. The same
    two ratios under the book's reading, with their standard errors: ``shifted_up`` and ``shifted_low``, a
    (ratio, se) pair."""

    eps: np.ndarray
    shifted: np.ndarray
    printed: GridRun
    up: AboveSwitch
    low: float
    low_se: float
    shifted_up: AboveSwitch
    shifted_low: tuple


def reading_check(
    instance, eps_grid, run: GridRun, horizon: int, runs: int, seed: int, *, alpha: float, switch: float
) -> ReadingCheck:
    """Eq. (8) of Azize and Basu (2022) without the shift (``reading="as printed"`` of :func:`run_grid`) at the
    smallest ε of ``eps_grid``, the first above ``switch`` and the largest, with the same horizon, runs and seed
    as ``run`` (the book's reading, on the whole grid): how much the paper's two regimes depend on that choice."""
    eps = _grid(eps_grid)
    shifted_up = above_switch(eps, run.final, switch)
    pick = [0, shifted_up.index, eps.size - 1]
    printed = run_grid(instance, eps[pick], horizon, runs, seed, alpha=alpha, reading="as printed")
    up = above_switch(eps[pick], printed.final, switch)
    low, low_se = _first_over_last(printed)
    return ReadingCheck(eps[pick], run.mean_regret[pick], printed, up, low, low_se, shifted_up, _first_over_last(run))


def _first_over_last(run: GridRun) -> tuple:
    """The mean regret at the first ε of ``run`` over that at its last, with its unpaired delta-method standard
    error (each ε is its own simulation)."""
    return (
        float(run.mean_regret[0] / run.mean_regret[-1]),
        float(ratio_of_means_se(run.final[:, 0], run.final[:, -1], paired=False)),
    )


def reading_table(check: ReadingCheck) -> Table:
    """The mean regret at T of the three ε of :func:`reading_check` under both readings of eq. (8) (to 0.1, as the
    grid's table), and the two ratios of each reading with their standard errors."""
    e = check.eps
    head = [
        "eq. (8) with",
        *(f"R(ε = {x:.3g})" for x in e),
        f"R({e[1]:.3g}) / R({e[2]:g})",
        f"R({e[0]:g}) / R({e[2]:g})",
    ]
    rows = [
        [
            "the shifted mean (the book)",
            *check.shifted,
            (check.shifted_up.ratio, check.shifted_up.se),
            check.shifted_low,
        ],
        ["the mean as printed", *check.printed.mean_regret, (check.up.ratio, check.up.se), (check.low, check.low_se)],
    ]
    return Table(head, rows, formats=[None, ",.1f", ",.1f", ",.1f", ".3g", ".3g"])
