r"""The tables, audit, runs and figures of the notebook ``algorithm1_theorems2_3`` (Zheng et al. 2020, Algorithm 1,
Theorem 2's privacy and Theorem 3's utility), so that the notebook only calls them.

* Theorem 2: :func:`calibration_rows` and :func:`calibration_table` (line 2's σ against the exact privacy loss at
  each ε), :func:`exact_delta_curves` (the exact δ(ε) of the calibrated σ on a grid), :func:`loss_audit`
  (:class:`LossAudit`, a Monte Carlo audit of the privacy loss) and :func:`loss_audit_figure`.
* Theorem 3: :func:`wrapped_regrets` (each learner non-private and wrapped by Algorithm 1), :func:`ratio_se` (the
  standard error of the wrapped / non-private regret ratio) and :func:`ratio_figure`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm

from ..audit import binned_log_ratio
from ..claims import Table, format_number
from ..stats import mean_se, ratio_of_means_se
from .learners import make_agent
from .losses import bernoulli_losses
from .privacy import algorithm1_mechanism, gaussian_exact_delta, gaussian_loss_tail, gaussian_privacy_loss
from .runs import simulate_mab

TAIL_SD = 3.0
"""The audit's second tail threshold, :math:`\\mu + 3` standard deviations of the privacy loss."""


def calibration_rows(eps_grid, delta, loss_bound) -> list[dict]:
    r"""Theorem 2's calibration at each ε of ``eps_grid``: line 2's σ (:func:`algorithm1_mechanism`), the mean
    :math:`\mu = \Delta^2/(2\sigma^2)` of the privacy loss :math:`L\sim N(\mu, 2\mu)` (:math:`\Delta = 2B`), the
    tail :math:`P[L > \epsilon]` Dwork and Roth bound by δ, and the exact δ(ε) of Balle and Wang (2018, Thm 8).
    One dict per ε with keys ``eps``, ``sigma``, ``mu``, ``tail``, ``exact``."""
    sens = 2 * loss_bound
    rows = []
    for e in eps_grid:
        m = algorithm1_mechanism(e, delta, loss_bound)
        rows.append(dict(eps=e, sigma=m.sigma, mu=sens ** 2 / (2 * m.sigma ** 2),
                         tail=float(gaussian_loss_tail(e, m.sigma, sens)),
                         exact=float(gaussian_exact_delta(e, m.sigma, sens))))  # fmt: skip
    return rows


def calibration_table(rows, delta) -> Table:
    """The rows of :func:`calibration_rows` as a table, with the target δ over the exact δ(ε) (Theorem 2 holds at ε
    where it is at least 1)."""
    return Table(["eps", "sigma", "mu", "P[L > eps]", "exact delta", "delta / exact"],
                 [[r["eps"], r["sigma"], r["mu"], r["tail"], r["exact"], delta / r["exact"]] for r in rows],
                 formats=["g", ".4g", ".4g", ".3g", ".3g", ".3g"])  # fmt: skip


def exact_delta_curves(eps_line, delta_grid, loss_bound) -> tuple[dict, dict]:
    r"""For each δ of ``delta_grid``, the exact δ(ε) (Balle and Wang 2018, Thm 8) of line 2's
    :math:`\sigma = 2B\sqrt{2\ln(1.25/\delta)}/\epsilon` at each ε of ``eps_line`` (Theorem 2's calibration outside
    Dwork and Roth's ε < 1), and the ε where it first exceeds δ: a root (brentq) between the grid's last ε below
    and first ε above (the grid's first ε if it starts above, ``inf`` if none; a grid point alone read 8.95 for
    the root 8.78 at δ = 10⁻⁶). Returns ``(curves, cross)``, both keyed by δ."""
    from scipy.optimize import brentq

    eps_line = np.asarray(eps_line, dtype=float)
    if eps_line.ndim != 1 or eps_line.size == 0 or not (eps_line > 0).all():
        raise ValueError(f"eps_line must be a non-empty 1-d array of epsilons > 0, got shape {eps_line.shape}")
    sens = 2 * loss_bound
    curves, cross = {}, {}
    for d in delta_grid:
        sig = sens * math.sqrt(2 * math.log(1.25 / d)) / eps_line
        curves[d] = np.array([float(gaussian_exact_delta(e, s, sens)) for e, s in zip(eps_line, sig)])
        over = np.flatnonzero(curves[d] > d)
        cross[d] = eps_line[over[0]] if over.size else float("inf")
        if over.size and over[0] > 0:
            c = sens * math.sqrt(2 * math.log(1.25 / d))
            excess = lambda e, c=c, d=d: float(gaussian_exact_delta(e, c / e, sens)) - d  # noqa: E731
            cross[d] = brentq(excess, eps_line[over[0] - 1], eps_line[over[0]], xtol=1e-12, rtol=1e-14)
    return curves, cross


@dataclass(frozen=True)
class LossAudit:
    """A Monte Carlo audit of the privacy loss of Algorithm 1's noise (:func:`loss_audit`): ``y_a``, ``y_b`` the
    outputs of M(B) and M(-B), ``loss`` the privacy loss L of ``y_a``, ``mu`` its exact mean, ``emp_*`` the
    sample values and ``exact_*`` the exact ones, ``blr`` the binned log-ratio over bins with midpoints
    ``centres``."""

    epsilon: float
    delta: float
    samples: int
    sens: float
    sigma: float
    y_a: np.ndarray
    y_b: np.ndarray
    loss: np.ndarray
    mu: float
    emp_mean: float
    emp_var: float
    emp_tail: float
    exact_tail: float
    emp_thr: float
    exact_thr: float
    blr: object
    centres: np.ndarray

    @property
    def mean_se(self) -> float:
        """Standard error of the sample mean of L (:func:`~ldpcode.stats.mean_se`)."""
        return mean_se(self.loss)

    @property
    def thr_se(self) -> float:
        """Binomial standard error of the sample frequency of L above :math:`\\mu + 3` sd."""
        return math.sqrt(self.emp_thr * (1 - self.emp_thr) / self.samples)

    @property
    def mean_z(self) -> float:
        """The sample mean of L minus its exact mean μ, in standard errors."""
        return (self.emp_mean - self.mu) / self.mean_se

    @property
    def thr_z(self) -> float:
        """The sample frequency of L above :math:`\\mu + 3` sd minus the exact one, in binomial standard errors."""
        return (self.emp_thr - self.exact_thr) / math.sqrt(self.exact_thr * (1 - self.exact_thr) / self.samples)

    def summary(self) -> str:
        """The audit's printed lines: σ and μ, the sample mean and variance of L against μ and 2μ, both tails,
        and the binned log-ratio's lower confidence bound."""
        level, f = f"{1 - self.blr.alpha:.0%}", format_number
        return "\n".join([
            f"σ = {f(self.sigma, '.4g')}, privacy loss L ~ N(μ, 2μ), μ = {f(self.mu, '.4g')}",
            f"sample mean of L {f(self.emp_mean, '.4g')} (exact {f(self.mu, '.4g')}); sample variance "
            f"{f(self.emp_var, '.4g')} (exact {f(2 * self.mu, '.4g')})",
            f"P[L > ε = {f(self.epsilon)}]: {self.samples:,} samples give {f(self.emp_tail, '.3g')}; exact "
            f"{f(self.exact_tail, '.3g')} (δ = {f(self.delta)})",
            f"P[L > μ + {TAIL_SD:g} sd]: samples {f(self.emp_thr, '.4g')}, exact {f(self.exact_thr, '.4g')}",
            f"binned log-ratio: largest |ln(p_B/p_-B)| over {self.centres.size} bins at least "
            f"{f(self.blr.max_lower, '.3g')} ({level} lower bound), in the outermost bins",
        ])  # fmt: skip


def loss_audit(epsilon, delta, loss_bound, *, samples, bins, seed, alpha=0.05) -> LossAudit:
    r"""Theorem 2 audited: ``samples`` outputs of Algorithm 1's mechanism on B then on -B (in this order, from
    ``default_rng(seed)``), their privacy loss :math:`L\sim N(\mu, 2\mu)`, :math:`\mu = \Delta^2/(2\sigma^2)`
    (Dwork and Roth 2014, Appendix A), its sample mean, variance and tails beyond ε and beyond :math:`\mu + 3`
    sd against the exact ones, and :func:`~ldpcode.audit.binned_log_ratio` (level ``alpha``) over ``bins``
    equal-probability bins of the outputs of M(B)."""
    rng = np.random.default_rng(seed)
    am = algorithm1_mechanism(epsilon, delta, loss_bound)
    y_a = am.privatize(np.full(samples, loss_bound), rng)
    y_b = am.privatize(np.full(samples, -loss_bound), rng)
    pl = gaussian_privacy_loss(y_a, loss_bound, -loss_bound, am.sigma)
    sens = 2 * loss_bound
    mu = sens**2 / (2 * am.sigma**2)
    thr = mu + TAIL_SD * math.sqrt(2 * mu)
    edges = np.concatenate([[-np.inf], np.quantile(y_a, np.linspace(0, 1, bins + 1)[1:-1]), [np.inf]])
    return LossAudit(
        epsilon=epsilon, delta=delta, samples=samples, sens=sens, sigma=am.sigma, y_a=y_a, y_b=y_b, loss=pl, mu=mu,
        emp_mean=pl.mean(), emp_var=pl.var(ddof=1), emp_tail=float((pl > epsilon).mean()),
        exact_tail=float(gaussian_loss_tail(epsilon, am.sigma, sens)), emp_thr=float((pl > thr).mean()),
        exact_thr=float(norm.sf(TAIL_SD)), blr=binned_log_ratio(y_a, y_b, edges, alpha),
        centres=np.quantile(y_a, (np.arange(bins) + 0.5) / bins),
    )  # fmt: skip


def loss_audit_figure(audit: LossAudit, eps_line, curves: dict):
    r"""Theorem 2's figure. Left: the sampled privacy loss against :math:`N(\mu, 2\mu)` and ε. Middle: the binned
    log-ratio with its simultaneous band against :math:`\Delta y/\sigma^2` (unbounded). Right: the exact δ(ε) of
    :func:`exact_delta_curves` (solid) against each target δ (dashed). Returns the figure."""
    import matplotlib.pyplot as plt

    from ..plotting import THEORY_STYLE, legend_below

    a, blr, c = audit, audit.blr, audit.centres
    level = f"{1 - blr.alpha:.0%}"
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(11, 3.6))
    grid = np.linspace(a.mu - 5 * math.sqrt(2 * a.mu), a.epsilon * 1.3, 200)
    ax1.hist(a.loss, bins=120, density=True, color="C0", alpha=0.6, label="samples")
    ax1.plot(grid, norm.pdf(grid, a.mu, math.sqrt(2 * a.mu)), "k", lw=1, label=r"$N(\mu, 2\mu)$")
    ax1.axvline(a.epsilon, color="C3", **THEORY_STYLE, label=r"$\epsilon$")
    ax1.set_xlabel("privacy loss L")
    ax1.set_ylabel("density")
    ax1.legend(fontsize=8)
    ax1.set_title(f"ε = {a.epsilon:g}, δ = {format_number(a.delta)}, {a.samples:,} samples")
    ok = np.isfinite(blr.log_ratio)
    ax2.plot(c[ok], blr.log_ratio[ok], "o", ms=3, label="binned estimate")
    ax2.fill_between(c, np.maximum(blr.lower, -3), np.minimum(blr.upper, 3), alpha=0.25, label=f"{level} simultaneous")
    ax2.plot(c, a.sens * c / a.sigma ** 2, "k", lw=0.8, label=r"$\Delta y/\sigma^2$")  # fmt: skip
    ax2.axhline(a.epsilon, color="C3", **THEORY_STYLE)
    ax2.axhline(-a.epsilon, color="C3", **THEORY_STYLE)
    ax2.set_xlabel("output y")
    ax2.set_ylabel(r"$\ln(p_{B}/p_{-B})$ per bin")
    ax2.legend(fontsize=7)
    ax2.set_title("binned log-ratio (unbounded)")
    for d, curve in curves.items():
        (line,) = ax3.loglog(eps_line, curve, label=f"δ = {format_number(d)}")
        ax3.axhline(d, color=line.get_color(), **THEORY_STYLE)
    ax3.axvline(1.0, color="0.5", lw=0.8)
    ax3.set_ylim(1e-16, 1)
    ax3.set_xlabel("ε")
    ax3.set_ylabel(r"exact $\delta(\epsilon)$ of the calibrated σ")
    legend_below(ax3, offset=-0.3, ncol=2, fontsize=7)  # inside, it lay over the curve of δ = 10⁻¹⁰
    ax3.set_title("exact δ (solid) vs target (dashed)")
    fig.tight_layout()
    return fig


def wrapped_regrets(learners, loss_means, epsilons, *, horizon, runs, seed, delta, loss_bound) -> dict:
    """Theorem 3's runs: each learner of ``learners`` (:func:`make_agent` names) on the Bernoulli arms
    ``loss_means``, non-private and wrapped by Algorithm 1 (Gaussian noise, δ = ``delta``) at each ε of
    ``epsilons``, all with the same ``seed`` (paired runs). Returns ``{name: (base, wrapped)}``: the regrets at
    ``horizon``, ``base`` of shape (runs,), ``wrapped`` (len(epsilons), runs)."""
    if isinstance(learners, str):
        raise TypeError(f"learners must be a collection of learner names, not the string {learners!r}")
    env = bernoulli_losses(loss_means)
    final = {}
    for name in learners:
        base = simulate_mab(make_agent(name), env, horizon, runs, seed, checkpoints=[horizon])
        wrapped = [simulate_mab(make_agent(name, "gaussian", epsilon=e, delta=delta, loss_bound=loss_bound),
                                env, horizon, runs, seed, checkpoints=[horizon]) for e in epsilons]  # fmt: skip
        final[name] = (base.final_regret(), np.stack([w.final_regret() for w in wrapped]))
    return final


def ratio_se(base, wrapped) -> np.ndarray:
    """The delta-method standard error over paired runs (:func:`~ldpcode.stats.ratio_of_means_se`) of the mean
    wrapped / non-private regret at each ε (Theorem 3's ratio): ``base`` (runs,), ``wrapped`` (n_eps, runs)."""
    w = np.asarray(wrapped)
    if w.ndim != 2:
        raise ValueError(f"wrapped must have shape (n_eps, runs), got {w.shape}")
    return ratio_of_means_se(w.T, np.repeat(np.asarray(base)[:, None], w.shape[0], 1))


def ratio_figure(final: dict, fits: dict, epsilons, *, reference, delta, loss_bound, horizon, runs, loss_means):
    r"""Theorem 3's figure: each learner's wrapped / non-private regret ratio (``fits[name].y``, 1.96 standard
    errors of :func:`ratio_se`) against 1/ε, log-log, beside :math:`1 + 4\sigma^2` (gap-dependent UCB) and slope 1
    (Theorem 3) through the last ratio of ``fits[reference]``. Returns the figure."""
    import matplotlib.pyplot as plt

    from ..plotting import THEORY_STYLE, plain_log_ticks

    if reference not in fits:
        raise ValueError(f"reference {reference!r} is not one of the fitted learners {list(fits)}")
    inv_eps = 1.0 / np.array(epsilons)
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for i, name in enumerate(final):
        ax.errorbar(inv_eps, fits[name].y, yerr=1.96 * ratio_se(*final[name]), fmt="o-", color=f"C{i}", capsize=3,
                    label=f"{name} (slope {fits[name].slope:.2f})")  # fmt: skip
    sigma_per_inv_eps = 2 * loss_bound * math.sqrt(2 * math.log(1.25 / delta))  # sigma = this / eps
    ax.plot(inv_eps, 1 + 4 * (sigma_per_inv_eps * inv_eps) ** 2, color="C2", **THEORY_STYLE,
            label=r"$1 + 4\sigma^2$ (gap-dependent UCB)")  # fmt: skip
    ax.plot(inv_eps, fits[reference].y[-1] * inv_eps / inv_eps[-1], color="k", linestyle=":",
            label=r"slope 1 (Theorem 3)")  # fmt: skip
    ax.set_xscale("log")
    ax.set_yscale("log")
    plain_log_ticks(ax.yaxis)  # 10 and 100 alone said little
    ax.set_xticks(inv_eps, labels=[f"1/{e:g}" for e in epsilons])
    ax.xaxis.set_minor_formatter(plt.NullFormatter())
    ax.set_xlabel(r"$1/\epsilon$")
    ax.set_ylabel("regret(wrapped) / regret(non-private) at T")
    ax.set_title(f"Theorem 3: T = {horizon:,}, {runs} runs, δ = {format_number(delta)}, means {loss_means}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
