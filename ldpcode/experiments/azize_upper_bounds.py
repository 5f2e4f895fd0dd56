r"""Azize and Basu (2022), Theorems 7 and 8: simulations, tables and figure of
``chapters/azize2022/theorems7_8_upper_bounds``, built on :func:`ldpcode.bounds.adap_ucb_regret_bound` (Theorem 7),
:func:`ldpcode.bounds.adap_klucb_regret_bound` (Theorem 8) and :func:`ldpcode.bounds.gdp_lower_bound_constant`
(Theorem 3). Part (a), against t at one ε: :func:`over_t` (an :class:`OverT`, with :meth:`OverT.c1_needed`),
:func:`decade_table`, :func:`arm_order_effect`, :func:`privacy_cost`. Part (b), against ε at one horizon: :func:`epsilon_grid`,
:func:`over_eps` (an :class:`OverEps`), :func:`epsilon_table`. Then :func:`flat_from`, :func:`out_of_range_alpha`
and :func:`figure`.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from .._validate import check_int
from ..bounds import adap_klucb_regret_bound, adap_ucb_regret_bound, gdp_lower_bound_constant, gdp_lower_bound_terms
from ..claims import Table
from ..claims.tables import power_of_ten
from ..engine import decade_checkpoints, log_checkpoints
from ..global_policies import noise_free_pulls
from ..policies import make_policy
from ..simulate import simulate
from ..stats import mean_se, ratio_of_means_se, se_or_zero

ADAP = ("AdaP-UCB", "AdaP-KLUCB")  # the two instances of Algorithm 1 that Theorems 7 and 8 bound
NONPRIVATE = {"AdaP-UCB": "UCB1", "AdaP-KLUCB": "KL-UCB"}  # their non-private ancestors


def checkpoints(horizon, *extra) -> np.ndarray:
    """:func:`ldpcode.log_checkpoints` up to ``horizon`` with :func:`~ldpcode.engine.decade_checkpoints` and the rounds ``extra`` added."""
    cp = np.union1d(log_checkpoints(horizon), decade_checkpoints(horizon))
    return np.union1d(cp, list(extra)) if extra else cp


@dataclass(frozen=True)
class C1Needed:
    r"""What :meth:`OverT.c1_needed` returns: ``per_t``, the :math:`C_1` at which Theorem 8 equals the mean regret at
    each checkpoint, its largest ``value``, at checkpoint ``index``, and its ``se``."""

    per_t: np.ndarray
    index: int
    value: float
    se: float


@dataclass(frozen=True)
class OverT:
    r"""What :func:`over_t` returns. ``results`` and ``references`` map each AdaP policy and each non-private one to
    its :class:`ldpcode.SimulationResult`; ``t`` are the checkpoints :math:`t \ge 2` (``keep`` selects them from
    the AdaP results' checkpoints); ``mean`` and ``se`` the AdaP mean regret and its standard error
    :math:`s/\sqrt{n}` at ``t``. On ``t``: ``thm7`` (Theorem 7), ``thm8`` (Theorem 8 at ``c1``, ``c2``),
    ``step8`` = Theorem 8 at ``2 c1`` minus at ``c1``, ``additive8`` = :math:`\sum_a 3\alpha/(\alpha-3)` (Theorem 8
    is linear in :math:`C_1`), ``lower`` = ``lower_constant`` :math:`\times\log t` (Theorem 3)."""

    epsilon: float
    c1: float
    c2: float
    horizon_np: int
    results: dict
    references: dict
    t: np.ndarray
    keep: np.ndarray
    mean: dict
    se: dict
    thm7: np.ndarray
    thm8: np.ndarray
    step8: np.ndarray
    additive8: np.ndarray
    lower_constant: float
    lower: np.ndarray

    @property
    def below_thm7(self) -> bool:
        """Whether AdaP-UCB's mean regret is at most Theorem 7's bound at every checkpoint."""
        return bool((self.mean["AdaP-UCB"] <= self.thm7).all())

    @property
    def worst_run_over_thm7(self) -> float:
        """The largest single-run regret of AdaP-UCB over Theorem 7's bound, over runs and checkpoints."""
        return float((self.results["AdaP-UCB"].regret[:, self.keep] / self.thm7).max())

    @property
    def over_lower(self) -> dict:
        """Each AdaP policy's mean regret at the horizon over Theorem 3's lower bound there."""
        return {p: self.mean[p][-1] / self.lower[-1] for p in ADAP}

    def largest_over_thm7(self) -> tuple[int, float, float]:
        """(index in ``t``, ratio, standard error) of the largest mean regret of AdaP-UCB over Theorem 7's bound;
        the standard error is 0 where every run agrees (:func:`ldpcode.se_or_zero`)."""
        ratio = self.mean["AdaP-UCB"] / self.thm7
        j = int(np.argmax(ratio))
        return j, float(ratio[j]), se_or_zero(self.se["AdaP-UCB"][j] / self.thm7[j], ratio[j])

    def c1_needed(self) -> C1Needed:
        r"""The :math:`C_1` of Theorem 8 (at :math:`C_2` = ``c2``) that covers AdaP-KLUCB's mean regret
        :math:`R(t)` at every checkpoint, :math:`\max_t C_1 (R(t) - A)/S(t)` with :math:`S` = ``step8``,
        :math:`A` = ``additive8``: a number of ours, the paper gives no :math:`C_1`."""
        per_t = self.c1 * (self.mean["AdaP-KLUCB"] - self.additive8) / self.step8
        j = int(np.argmax(per_t))
        return C1Needed(per_t, j, float(per_t[j]), float(self.c1 * self.se["AdaP-KLUCB"][j] / self.step8[j]))


def _check(obj, cls):
    if not isinstance(obj, cls):
        raise TypeError(f"expected a {cls.__name__} (azize_upper_bounds), got {type(obj).__name__}")
    return obj


def over_t(inst, horizon, horizon_np, runs, seed, *, epsilon, alpha, c1, c2) -> OverT:
    """Part (a) of the notebook on Theorems 7 and 8: AdaP-UCB and AdaP-KLUCB at ``epsilon`` on ``inst`` up to
    ``horizon`` (:func:`checkpoints`, with ``horizon_np``), UCB1 and KL-UCB up to ``horizon_np`` (event-driven engine),
    ``runs`` runs from ``seed``; Theorems 7, 8 (at ``c1``, ``c2``) and 3 at each checkpoint from 2 on."""
    cp = checkpoints(horizon, horizon_np)
    adap = lambda p: make_policy(p, epsilon=epsilon, alpha=alpha)
    res = {p: simulate(adap(p), inst, horizon, runs, seed, checkpoints=cp) for p in ADAP}
    cp_np, refs = checkpoints(horizon_np), NONPRIVATE.values()
    res_np = {
        q: simulate(make_policy(q), inst, horizon_np, runs, seed, checkpoints=cp_np, engine="event") for q in refs
    }
    means, keep = inst.means, cp >= 2  # log t > 0
    t = cp[keep]
    thm7 = np.array([adap_ucb_regret_bound(means, int(x), epsilon, alpha) for x in t])
    bound8 = lambda k: np.array([adap_klucb_regret_bound(means, int(x), epsilon, c1=k, c2=c2, alpha=alpha) for x in t])
    thm8 = {k: bound8(k) for k in (c1, 2 * c1)}
    step8 = thm8[2 * c1] - thm8[c1]
    lb_const = gdp_lower_bound_constant(means, epsilon)
    mean = {p: res[p].mean_regret()[keep] for p in ADAP}
    se = {p: res[p].regret[:, keep].std(axis=0, ddof=1) / math.sqrt(runs) for p in ADAP}
    args = (res, res_np, t, keep, mean, se, thm7, thm8[c1], step8, thm8[c1] - step8, lb_const, lb_const * np.log(t))
    return OverT(epsilon, c1, c2, horizon_np, *args)


def decade_table(a: OverT) -> Table:
    """The table of part (a) at each power of ten from 100 on (:func:`~ldpcode.engine.decade_checkpoints`): AdaP-UCB's mean regret, Theorem 7's
    bound and their ratio, AdaP-KLUCB's mean regret and Theorem 3's lower bound."""
    a = _check(a, OverT)
    tens = decade_checkpoints(int(a.t[-1]))
    at = [int(np.flatnonzero(a.t == x)[0]) for x in tens[tens >= 100]]
    ucb, klucb = a.mean["AdaP-UCB"], a.mean["AdaP-KLUCB"]
    rows = [[float(a.t[i]), ucb[i], a.thm7[i], ucb[i] / a.thm7[i], klucb[i], a.lower[i]] for i in at]
    head = ["t", "AdaP-UCB", "Thm 7", "ratio", "AdaP-KLUCB", "Thm 3 LB"]
    return Table(head, rows, formats=[power_of_ten, ".5g", ".5g", ".3f", ".5g", ".4g"])


def arm_order_effect(inst, runs, seed, *, epsilon, alpha, checkpoints=(100, 1000)) -> Table:
    """Each AdaP policy's mean regret at ``checkpoints`` on ``inst`` with its arms as listed and in reverse order
    (``runs`` runs from ``seed``). Early on every AdaP-KLUCB index is clipped at 1 and a tie goes to the
    lowest-numbered arm, the best one when the instance lists it first: the early regret is then the order's."""
    cp = sorted(check_int("checkpoint", t, minimum=1) for t in checkpoints)
    reversed_ = type(inst)(f"{inst.name}, arms reversed", tuple(inst.arms[::-1]))  # the same laws, any family
    orders = {"as listed": inst, "reversed": reversed_}
    rows = []
    for p in ADAP:
        pol = make_policy(p, epsilon=epsilon, alpha=alpha)
        means = {k: simulate(pol, i, cp[-1], runs, seed, checkpoints=cp).mean_regret() for k, i in orders.items()}
        rows += [[p, k, *m] for k, m in means.items()]
    head = ["policy", "arms", *(f"R(t = {power_of_ten(t)})" for t in cp)]
    return Table(head, rows, formats=[None, None, *([".4g"] * len(cp))])


def privacy_cost(a: OverT) -> tuple[dict, Table]:
    """The price of privacy at ``a.horizon_np``: each AdaP policy's mean regret over its non-private ancestor's
    (:data:`NONPRIVATE`), with the delta-method standard error of an unpaired ratio
    (:func:`ldpcode.ratio_of_means_se`). Returns (policy -> (ratio, SE), the table)."""
    a = _check(a, OverT)
    cost, rows = {}, []
    for p, q in NONPRIVATE.items():
        x, y = a.results[p].at(a.horizon_np).astype(float), a.references[q].final_regret().astype(float)
        cost[p] = (x.mean() / y.mean(), float(ratio_of_means_se(x, y, paired=False)))
        rows.append([p, x.mean(), q, y.mean(), cost[p]])
    head = ["private", "R(T)", "non-private", "R(T)", "ratio ± SE"]
    return cost, Table(head, rows, formats=[None, ".5g", None, ".5g", ".3f"])


def epsilon_grid(eps_min, eps_max, n_eps) -> np.ndarray:
    """``n_eps`` log-spaced ε from ``eps_min`` to ``eps_max``, with ε = 1 added (sorted, no repeats): the grid of
    part (b) of the notebook on Theorems 7 and 8."""
    return np.unique(np.r_[np.geomspace(eps_min, eps_max, check_int("n_eps", n_eps, minimum=2)), 1.0])


@dataclass(frozen=True)
class OverEps:
    """What :func:`over_eps` returns: the grid ``eps`` (``i1`` the index of ε = 1), ``horizon`` and ``runs``;
    ``regret`` maps each AdaP policy to its regret at the horizon, shape (runs, len(eps)); ``model`` to the
    noise-free model's regret (:func:`ldpcode.global_policies.noise_free_pulls`); ``thm7`` and ``lower`` are
    Theorem 7's bound and Theorem 3's lower bound at each ε."""

    eps: np.ndarray
    i1: int
    horizon: int
    runs: int
    regret: dict
    model: dict
    thm7: np.ndarray
    lower: np.ndarray

    @property
    def below_thm7(self) -> bool:
        """Whether AdaP-UCB's mean regret is at most Theorem 7's bound at every ε."""
        return bool((self.regret["AdaP-UCB"].mean(axis=0) <= self.thm7).all())

    def largest_over_thm7(self) -> tuple[int, float, float]:
        """(index in ``eps``, ratio, standard error) of the largest mean regret of AdaP-UCB over Theorem 7's bound;
        the standard error is 0 where every run agrees (:func:`ldpcode.se_or_zero`)."""
        ratio = self.regret["AdaP-UCB"].mean(axis=0) / self.thm7
        k = int(np.argmax(ratio))
        return k, float(ratio[k]), se_or_zero(mean_se(self.regret["AdaP-UCB"][:, k]) / self.thm7[k], ratio[k])

    def ratio(self, policy: str, k: int, k_ref: int) -> tuple[float, float]:
        """The policy's mean regret at ``eps[k]`` over that at ``eps[k_ref]``, with the delta-method standard error
        of an unpaired ratio (each ε consumes the reward stream differently)."""
        x, y = self.regret[policy][:, k], self.regret[policy][:, k_ref]
        return x.mean() / y.mean(), float(ratio_of_means_se(x, y, paired=False))


def over_eps(inst, eps, horizon, runs, seed, *, alpha) -> OverEps:
    """Part (b) of the notebook on Theorems 7 and 8: AdaP-UCB and AdaP-KLUCB on ``inst`` at each ε of ``eps`` (which
    must hold 1), read at ``horizon``, ``runs`` runs each from ``seed``; beside them the noise-free model of their
    indexes, Theorem 7's bound and Theorem 3's lower bound at each ε. Returns an :class:`OverEps`."""
    eps = np.asarray(eps)
    if not (eps == 1.0).any():
        raise ValueError(f"eps must hold 1 (the reference of the ratios), got {eps!r}")
    final = lambda p, e: simulate(
        make_policy(p, epsilon=float(e), alpha=alpha), inst, horizon, runs, seed, checkpoints=[horizon]
    ).final_regret()
    sweep = {p: np.array([final(p, e) for e in eps], dtype=float).T for p in ADAP}
    means, i1 = inst.means, int(np.flatnonzero(eps == 1.0)[0])
    model = {p: np.array([noise_free_pulls(p, means, horizon, e, alpha) @ inst.gaps for e in eps]) for p in ADAP}
    thm7 = np.array([adap_ucb_regret_bound(means, horizon, e, alpha) for e in eps])
    lower = np.array([gdp_lower_bound_constant(means, e) for e in eps]) * math.log(horizon)
    return OverEps(eps, i1, horizon, runs, sweep, model, thm7, lower)


def epsilon_table(b: OverEps) -> Table:
    """The table of part (b): at each ε, each policy's mean regret beside its noise-free model, Theorem 7's bound
    and Theorem 3's lower bound."""
    b = _check(b, OverEps)
    (ucb, klucb), (m_ucb, m_klucb) = (b.regret[p] for p in ADAP), (b.model[p] for p in ADAP)
    rows = [
        [e, ucb[:, k].mean(), m_ucb[k], klucb[:, k].mean(), m_klucb[k], b.thm7[k], b.lower[k]]
        for k, e in enumerate(b.eps)
    ]
    head = ["eps", "AdaP-UCB", "model", "AdaP-KLUCB", "model", "Thm 7", "Thm 3 LB"]
    return Table(head, rows, formats=[".3g", ".5g", ".5g", ".5g", ".5g", ".5g", ".4g"])


def flat_from(means) -> tuple[float, float]:
    r"""The ε above which each bound no longer depends on ε, on Bernoulli ``means``: Theorem 3's constant from the
    largest switch point :math:`d_{\inf}/(6t_{\inf})` on, Theorem 7's bound from :math:`\max_a\Delta_a` on (its
    :math:`\min\{\Delta_a,\epsilon\}`). Returns (Theorem 3's, Theorem 7's)."""
    terms = gdp_lower_bound_terms(means, 1.0)  # the switch points do not depend on ε
    return float(terms.epsilon_threshold.max()), float(terms.gaps.max())


def out_of_range_alpha(epsilon, alpha, means, horizon) -> tuple[object, list]:
    """AdaP-UCB at an ``alpha`` outside Theorems 7 and 8 (at most 3): the policy, and the lines the notebook prints,
    the warnings its construction gives ("UserWarning: ...") then the ValueError of Theorem 7's bound
    (``ldp.bounds.adap_ucb_regret_bound(means, horizon, epsilon, alpha=alpha)``), if any."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        policy = make_policy("AdaP-UCB", epsilon=epsilon, alpha=alpha)
    lines = [f"{w.category.__name__}: {w.message}" for w in caught]
    try:
        adap_ucb_regret_bound(means, horizon, epsilon, alpha=alpha)
    except ValueError as err:
        lines.append(f"ValueError: {err}")
    return policy, lines


def figure(a: OverT, b: OverEps, c1n: C1Needed):
    """The figure of Theorems 7 and 8. Above, part (a): mean regret with 95 % bands against t from t = 20, Theorem 7,
    Theorem 8 at (``a.c1``, ``a.c2``) and at the needed :math:`C_1` of ``c1n``, Theorem 3, its key under it. Below,
    part (b): regret against ε, the noise-free model, Theorem 7 and Theorem 3, its key beside it. Returns the figure
    (its axes: part (a), its key, part (b), its key)."""
    import matplotlib.pyplot as plt

    from ..claims.tables import format_horizon
    from ..plotting import POLICY_COLORS as colors
    from ..plotting import THEORY_STYLE, band_curve, legend_cell, paper_axes, regret_panel

    a, b, c1n = _check(a, OverT), _check(b, OverEps), _check(c1n, C1Needed)
    # part (a) over the whole width, its key under it, part (b) with its key beside it: side by side, with their
    # keys, the two parts were 13 in wide and shown at half their size in the book's column
    fig = plt.figure(figsize=(8.5, 9.5))
    gs = fig.add_gridspec(3, 2, height_ratios=[1, 0.32, 1], width_ratios=[1.5, 1])
    ax, t = fig.add_subplot(gs[0, :]), a.t
    td = t >= 20  # the regret panel starts at t = 20
    t_np, refs = format_horizon(a.horizon_np, mathtext=True), NONPRIVATE.values()
    labels = [f"{p} (ε = {a.epsilon:g})" for p in ADAP] + [f"{q} (non-private, T = {t_np})" for q in refs]
    results = [a.results[p] for p in ADAP] + [a.references[q] for q in refs]
    regret_panel(ax, results, labels=labels, title=f"(a) Figure 2 instance, ε = {a.epsilon:g}")
    ax.plot(t[td], a.thm7[td], color=colors["AdaP-UCB"], **THEORY_STYLE, label="Theorem 7")
    label8 = f"Theorem 8, C1 = {a.c1:g}, C2 = {a.c2:g}: shape only, constants unknown"
    ax.plot(t[td], a.thm8[td], color=colors["AdaP-KLUCB"], **THEORY_STYLE, label=label8)
    needed = (a.additive8 + c1n.value * a.step8 / a.c1)[td]
    label8 = f"Theorem 8, C1 = {c1n.value:.1f} (needed), C2 = {a.c2:g}"
    ax.plot(t[td], needed, color=colors["AdaP-KLUCB"], linestyle=":", linewidth=1.4, label=label8)
    ax.plot(t[td], a.lower[td], color="k", **THEORY_STYLE, label="Theorem 3 lower bound")
    ax.set_ylim(1, None)
    legend_cell(fig, gs[1, :], ax, loc="center", ncol=2, fontsize="x-small")
    ax.get_legend().remove()

    ax = fig.add_subplot(gs[2, 0])
    for p in ADAP:
        band_curve(ax, b.eps, b.regret[p], label=f"{p}, mean ± 95% CI", color=colors[p])
        ax.step(b.eps, b.model[p], where="mid", color=colors[p], ls=":", lw=1.2, label=f"{p}, noise-free model")
    ax.plot(b.eps, b.thm7, color=colors["AdaP-UCB"], **THEORY_STYLE, label="Theorem 7")
    ax.plot(b.eps, b.lower, color="k", **THEORY_STYLE, label="Theorem 3 lower bound")
    title = f"(b) against ε\nT = {format_horizon(b.horizon, mathtext=True)}, {b.runs} runs"
    paper_axes(ax, xlabel="privacy budget ε", ylabel="pseudo-regret R(T)", title=title)
    legend_cell(fig, gs[2, 1], ax, loc="center left", fontsize="x-small")
    fig.tight_layout()
    return fig
