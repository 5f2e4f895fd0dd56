r"""The heterogeneous setting: bounds of the extended version of Ren et al. (the HeLDP paper).

Theorems 7 (HeLDP-UCB-L) and 10 (HeLDP-UCB-B) with their infimum over κ, their constants
:math:`p_0, \alpha_0, \beta_0, \epsilon_{\max}, Q_L, Q_B`, Corollaries 8 and 11 (the homogeneous case), and
Section 4.2's :math:`V_L`, :math:`V_B`, the choice of ε_min minimizing them, and Figure 2's fit of the regret on
them (:func:`regret_fit_on_v`). Every function but that fit takes a
PrivacyLevels object ``levels`` (the law F of the users' eps_t) and the threshold ``epsilon_min`` below which
the agents discard responses. The bounds take ``means`` in [0, 1]: the rewards of Theorems 7 and 10 and of
Corollaries 8 and 11 lie there, and Corollary 13's Lemma 12 needs 0 <= mu <= lambda <= 1. The cost functions :math:`\alpha(\epsilon)`, :math:`\beta(\epsilon)` are in
:mod:`~ldpcode.bounds.factors` (:func:`~ldpcode.bounds.factors.heldp_alpha`,
:func:`~ldpcode.bounds.factors.heldp_beta`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize

from .._validate import as_float_array, check_array, check_epsilon, check_real, one_line
from ..stats import LinearFit, bootstrap_se, linear_fit
from ._common import _chan_tail_bound, _gaps, _log_horizon, _regret_bound, _square
from .factors import bernoulli_ratio, heldp_alpha, heldp_beta, laplace_ratio


def _check_levels(levels):
    from ..instances import PrivacyLevels

    if not isinstance(levels, PrivacyLevels):
        raise TypeError(f"levels must be a PrivacyLevels object (ldpcode.make_privacy_levels), got {levels!r}")
    return levels


def _kept_share(levels, epsilon_min):
    """(levels, eps_min, p_0) after validation; p_0 = 0 is refused."""
    levels = _check_levels(levels)
    eps_min = check_epsilon(epsilon_min, "epsilon_min")
    p0 = levels.p_at_least(eps_min)
    if not p0 > 0:
        raise ValueError(
            f"epsilon_min must be a level some users reach (p_0 = P{{eps_t >= epsilon_min}} > 0); "
            f"got epsilon_min={eps_min!r}, for which p_0 = {p0!r} under {levels.name!r} "
            f"(eps_max = {levels.sup:g})"
        )
    return levels, eps_min, p0


@dataclass(frozen=True)
class HeLDPQuantities:
    r"""The quantities of Theorems 7 and 10 for a law of privacy levels and a threshold ε_min.

    ``p0`` = :math:`P\{\epsilon_t\ge\epsilon_{\min}\}`, ``alpha0`` = :math:`E[\epsilon_t^{-2}\mid\epsilon_t\ge\epsilon_{\min}]`,
    ``beta0`` = :math:`E[\beta(\epsilon_t)\mid\epsilon_t\ge\epsilon_{\min}]`, ``epsilon_max`` = sup of the support,
    ``q_l`` = :math:`Q_L = \alpha(\epsilon_{\min})-\alpha(\epsilon_{\max})`, ``q_b`` = :math:`Q_B = \beta(\epsilon_{\min})-\beta(\epsilon_{\max})`.
    """

    epsilon_min: float
    p0: float
    alpha0: float
    beta0: float
    epsilon_max: float
    q_l: float
    q_b: float


def heldp_quantities(levels, epsilon_min) -> HeLDPQuantities:
    r"""The constants of Theorem 7 and Theorem 10:

    .. math:: p_0 = P\{\epsilon_t \ge \epsilon_{\min}\},\quad
              \alpha_0 = E[\alpha(\epsilon_t)\mid\epsilon_t\ge\epsilon_{\min}],\quad
              \beta_0 = E[\beta(\epsilon_t)\mid\epsilon_t\ge\epsilon_{\min}],

    .. math:: Q_L = \alpha(\epsilon_{\min}) - \alpha(\epsilon_{\max}),\qquad
              Q_B = \beta(\epsilon_{\min}) - \beta(\epsilon_{\max}),

    with :math:`\alpha(\epsilon)=\epsilon^{-2}`, :math:`\beta(\epsilon)=((e^\epsilon+1)/(e^\epsilon-1))^2` and
    :math:`\epsilon_{\max}` = ``levels.sup``. Expectations via ``levels.expect`` (exact for the discrete and
    clipped-Gaussian laws; Monte Carlo with a fixed seed for a user sampler).

    The paper defines :math:`p_0` with :math:`\ge` before Theorem 7 and with :math:`>` before Theorem 10;
    the two differ when ε_min is an atom of the law (e.g. the discrete law of Section 4.2). This function
    uses :math:`\ge` for both, which is what both agents do (they keep a response iff
    :math:`\epsilon_t \ge \epsilon_{\min}`, Agent 2 Line 11, Agent 4 Line 7), and what :math:`\beta_0`'s
    conditioning event uses.

    Raises ValueError for ε_min not finite and > 0, or for an ε_min no user reaches (p_0 = 0).
    """
    levels, eps_min, p0 = _kept_share(levels, epsilon_min)
    alpha0 = levels.expect(heldp_alpha, eps_min) / p0
    beta0 = levels.expect(heldp_beta, eps_min) / p0
    eps_max = float(levels.sup)
    return HeLDPQuantities(
        epsilon_min=eps_min,
        p0=float(p0),
        alpha0=float(alpha0),
        beta0=float(beta0),
        epsilon_max=eps_max,
        q_l=float(heldp_alpha(eps_min) - heldp_alpha(eps_max)),
        q_b=float(heldp_beta(eps_min) - heldp_beta(eps_max)),
    )


def _check_kappa(kappa):
    k = check_real("kappa", kappa, allow_inf=True)
    if not k > 0:
        raise ValueError(f"kappa must be > 0 (math.inf for the limit kappa -> infinity), got {kappa!r}")
    return k


def _heldp_terms(means, horizon, levels, epsilon_min, mechanism):
    """(gaps, log T, quantities) checked for Theorems 7 / 10, with p_0 T > 1 required."""
    gaps = _gaps(means)
    log_t = _log_horizon(horizon)
    q = heldp_quantities(levels, epsilon_min)
    if not q.p0 * math.exp(log_t) > 1:
        raise ValueError(
            f"the bound of Theorem {7 if mechanism == 'L' else 10} needs p_0 T > 1 (else its kappa "
            f"term is unbounded below); got p_0 = {q.p0:g}, horizon = {horizon!r}"
        )
    return gaps, log_t, q


def _heldp_l_value(gaps, log_t, q, kappa):
    # Theorem 7, per arm a with Delta_a > 0:
    #   max{8/(p0 D) (1+4 sqrt(a0 + k Q_L))^2 log T, 2D/(p0 a0^2) (4 a0 e_min^-2 + e_min^-4) log T}
    #   + D/(2 p0 k^2) log(p0 T exp{2 k^2}) + 2D/p0 + 2 pi^2 D/3,
    # with log(p0 T exp{2k^2}) = log(p0 T) + 2k^2 (so the kappa term is D log(p0 T)/(2 p0 k^2) + D/p0).
    p0, a0, e2 = q.p0, q.alpha0, 1.0 / _square(q.epsilon_min)
    if math.isinf(kappa):
        if q.q_l > 0:
            return math.inf
        lead = 8.0 / (p0 * gaps) * (1 + 4 * math.sqrt(a0)) ** 2 * log_t
        kappa_term = gaps / p0
    else:
        width = 1 + 4 * math.sqrt(a0 + kappa * q.q_l)
        lead = 8.0 / (p0 * gaps) * (width * width) * log_t  # a float product overflows to inf; ** raised OverflowError
        kappa_term = gaps * (log_t + math.log(p0)) / (2 * p0 * (kappa**2 if kappa < 1e150 else math.inf)) + gaps / p0
    if a0 > 1e-150:
        second = 2.0 * gaps / (p0 * a0**2) * (4 * a0 * e2 + e2 * e2) * log_t
    else:  # a0^2 underflows (levels beyond 1e75): the same term with r = e2/a0 = eps_min^-2 / alpha0 <= 1
        ratio = q.epsilon_min**-2 / a0 if a0 > 0 else 1.0
        second = 2.0 * gaps / p0 * (4 * ratio + ratio * ratio) * log_t
    return float(np.sum(np.maximum(lead, second) + kappa_term + 2 * gaps / p0 + 2 * math.pi**2 * gaps / 3))


def _heldp_b_value(gaps, log_t, q, kappa):
    # Theorem 10, per arm: 8/(p0 D) (b0 + k Q_B) log T + D/(2 p0 k^2) log(p0 T exp{2 p0 k^2}) + D/p0 + pi^2 D/3,
    # with log(p0 T exp{2 p0 k^2}) = log(p0 T) + 2 p0 k^2 (so the kappa term is D log(p0 T)/(2 p0 k^2) + D).
    p0 = q.p0
    if math.isinf(kappa):
        if q.q_b > 0:
            return math.inf
        lead = 8.0 / (p0 * gaps) * q.beta0 * log_t
        kappa_term = gaps
    else:
        lead = 8.0 / (p0 * gaps) * (q.beta0 + kappa * q.q_b) * log_t
        kappa_term = gaps * (log_t + math.log(p0)) / (2 * p0 * (kappa**2 if kappa < 1e150 else math.inf)) + gaps
    return float(np.sum(lead + kappa_term + gaps / p0 + math.pi**2 * gaps / 3))


def _inf_over_kappa(value, q_gap):
    r"""(kappa*, inf_kappa value(kappa)): a grid over log kappa in [-20, 20] refined by a bounded scalar
    search, and the limit kappa -> infinity (finite only when the Q term vanishes)."""
    grid = np.linspace(-20.0, 20.0, 401)
    vals = np.array([value(math.exp(x)) for x in grid])
    i = int(np.argmin(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    res = optimize.minimize_scalar(
        lambda x: value(math.exp(x)), bounds=(lo, hi), method="bounded", options={"xatol": 1e-10}
    )
    best_k, best_v = (math.exp(res.x), float(res.fun)) if res.fun <= vals[i] else (math.exp(grid[i]), float(vals[i]))
    limit = value(math.inf)
    if q_gap == 0 and limit <= best_v:
        return math.inf, limit
    return best_k, best_v


def heldp_ucb_l_best_kappa(means, horizon, levels, epsilon_min) -> tuple[float, float]:
    r"""Theorem 7's infimum over κ > 0: returns ``(kappa, value)`` with the minimizing κ (``math.inf``
    when :math:`Q_L = 0`, where the bound decreases to its limit as κ → ∞) and the bound there.
    See :func:`heldp_ucb_l_regret_bound` for the formula."""
    gaps, log_t, q = _heldp_terms(means, horizon, levels, epsilon_min, "L")
    return _inf_over_kappa(lambda k: _heldp_l_value(gaps, log_t, q, k), q.q_l)


def heldp_ucb_l_regret_bound(means, horizon, levels, epsilon_min, kappa=None) -> float:
    r"""Theorem 7 (HeLDP-UCB-L): the distribution-dependent regret is at most

    .. math:: \inf_{\kappa>0}\sum_{a:\Delta_a>0}\Big[&\max\Big\{\frac{8}{p_0\Delta_a}(1+4\sqrt{\alpha_0+\kappa Q_L})^2\log T,\;\\
              &\qquad\quad \frac{2\Delta_a}{p_0\alpha_0^2}(4\alpha_0\epsilon_{\min}^{-2}+\epsilon_{\min}^{-4})\log T\Big\}\\
              &+ \frac{\Delta_a}{2p_0\kappa^2}\log(p_0Te^{2\kappa^2}) + \frac{2\Delta_a}{p_0} + \frac{2\pi^2\Delta_a}{3}\Big]

    with :math:`p_0, \alpha_0, Q_L` of :func:`heldp_quantities`. ``kappa=None`` computes the infimum
    numerically (:func:`heldp_ucb_l_best_kappa`); a number evaluates the bracket at that κ (``math.inf``:
    the limit κ → ∞, finite only when :math:`Q_L = 0`). Requires :math:`p_0T > 1`.
    """
    if kappa is None:
        return heldp_ucb_l_best_kappa(means, horizon, levels, epsilon_min)[1]
    k = _check_kappa(kappa)
    gaps, log_t, q = _heldp_terms(means, horizon, levels, epsilon_min, "L")
    return _heldp_l_value(gaps, log_t, q, k)


def heldp_ucb_b_best_kappa(means, horizon, levels, epsilon_min) -> tuple[float, float]:
    r"""Theorem 10's infimum over κ > 0: ``(kappa, value)`` (κ = ``math.inf`` when :math:`Q_B = 0`).
    See :func:`heldp_ucb_b_regret_bound` for the formula."""
    gaps, log_t, q = _heldp_terms(means, horizon, levels, epsilon_min, "B")
    return _inf_over_kappa(lambda k: _heldp_b_value(gaps, log_t, q, k), q.q_b)


def heldp_ucb_b_regret_bound(means, horizon, levels, epsilon_min, kappa=None) -> float:
    r"""Theorem 10 (HeLDP-UCB-B): the distribution-dependent regret is at most

    .. math:: \inf_{\kappa>0}\sum_{a:\Delta_a>0}\Big[\frac{8}{p_0\Delta_a}(\beta_0+\kappa Q_B)\log T
              + \frac{\Delta_a}{2p_0\kappa^2}\log(p_0Te^{2p_0\kappa^2}) + \frac{\Delta_a}{p_0} + \frac{\pi^2\Delta_a}{3}\Big]

    with :math:`p_0, \beta_0, Q_B` of :func:`heldp_quantities` (:math:`p_0` with :math:`\ge`; the paper
    writes :math:`>` here, see there). ``kappa`` as in :func:`heldp_ucb_l_regret_bound`.
    """
    if kappa is None:
        return heldp_ucb_b_best_kappa(means, horizon, levels, epsilon_min)[1]
    k = _check_kappa(kappa)
    gaps, log_t, q = _heldp_terms(means, horizon, levels, epsilon_min, "B")
    return _heldp_b_value(gaps, log_t, q, k)


def heldp_ucb_l_homogeneous_bound(means, horizon, epsilon) -> float:
    r"""Corollary 8 (ε_t ≡ ε = ε_min): :math:`\sum_{a:\Delta_a>0}[8(1+4/\epsilon)^2\log T/\Delta_a + (3+2\pi^2/3)\Delta_a]`.

    Not always implied by Theorem 7: its second max-term becomes :math:`10\Delta_a\log T`, which exceeds
    :math:`8(1+4/\epsilon)^2\log T/\Delta_a` when :math:`\Delta_a^2 > 0.8(1+4/\epsilon)^2` (possible for
    :math:`\epsilon > 4/(\sqrt{1.25}-1) \approx 33.9` and gaps near 1).
    """
    return _regret_bound(means, horizon, laplace_ratio(epsilon), 3.0 + 2 * math.pi**2 / 3)


def heldp_ucb_b_homogeneous_bound(means, horizon, epsilon) -> float:
    r"""Corollary 11 (ε_t ≡ ε = ε_min): :math:`\sum_{a:\Delta_a>0}[8((e^\epsilon+1)/(e^\epsilon-1))^2\log T/\Delta_a + (2+\pi^2/3)\Delta_a]`
    (equal to Theorem 10's limit κ → ∞ with :math:`p_0=1`, :math:`Q_B=0`)."""
    return _regret_bound(means, horizon, bernoulli_ratio(epsilon), 2.0 + math.pi**2 / 3)


def v_l(levels, epsilon_min) -> float:
    r"""Section 4.2's :math:`V_L := E[(1+4\sqrt{\alpha(\epsilon_t)})^2/p_0]`, read as

    .. math:: V_L = \frac{E[(1+4/\epsilon_t)^2 \mid \epsilon_t\ge\epsilon_{\min}]}{p_0}
                  = \frac{E[(1+4/\epsilon_t)^2\,1\{\epsilon_t\ge\epsilon_{\min}\}]}{p_0^2}.

    The paper does not say over which users the expectation runs. Over the kept users (conditional on
    :math:`\epsilon_t\ge\epsilon_{\min}`) is the reading consistent with Theorem 7's leading factor
    :math:`(1+4\sqrt{\alpha_0+\kappa Q_L})^2/p_0`, whose :math:`\alpha_0` is a conditional mean; it is the
    one used here. Over all users it would be infinite for any law with an atom at ε = 0 (both laws of
    Section 4.2); the other alternative, :math:`E[(1+4/\epsilon_t)^2 1\{\epsilon_t\ge\epsilon_{\min}\}]/p_0`
    (dropped users counted as 0), is this value times :math:`p_0`.
    """
    levels, eps_min, p0 = _kept_share(levels, epsilon_min)
    return _v_value(levels, eps_min, p0, "L")


def v_b(levels, epsilon_min) -> float:
    r"""Section 4.2's :math:`V_B := E[\beta(\epsilon_t)/p_0]`, read (as :func:`v_l`) over the kept users:

    .. math:: V_B = \frac{E[\beta(\epsilon_t)\mid\epsilon_t\ge\epsilon_{\min}]}{p_0} = \frac{\beta_0}{p_0},

    Theorem 10's leading factor at κ = 0. (Alternative reading: :math:`E[\beta(\epsilon_t)1\{\epsilon_t\ge\epsilon_{\min}\}]/p_0
    = \beta_0`, this value times :math:`p_0`; over all users it is infinite when :math:`P\{\epsilon_t=0\}>0`.)
    """
    levels, eps_min, p0 = _kept_share(levels, epsilon_min)
    return _v_value(levels, eps_min, p0, "B")


def _v_value(levels, eps_min, p0, mech):
    f = (lambda e: (1.0 + 4.0 / e) ** 2) if mech == "L" else heldp_beta
    return float(levels.expect(f, eps_min) / p0**2)


@dataclass(frozen=True)
class RegretFitOnV:
    """The result of :func:`regret_fit_on_v`: the least-squares ``fit`` (slope, intercept, R², n) on the mean
    regrets, and ``se``, the bootstrap standard error over runs of each of ``"slope"``, ``"intercept"``, ``"r2"``."""

    fit: LinearFit
    se: dict


def regret_fit_on_v(v, per_run, *, n_boot: int = 1000, seed: int = 0) -> RegretFitOnV:
    r"""Figure 2 of the HeLDP paper (Section 4.2, "we linearly fit the empirical regrets and the values of
    :math:`V_L` or :math:`V_B`, and summarize the corresponding :math:`R^2`-value"): the least-squares line

    .. math:: \bar R_j(T) \approx a\,V_j + b

    through one point j per (agent, law, ε_min), with ``v`` the points' :math:`V_L` or :math:`V_B` (:func:`v_l`,
    :func:`v_b`) and ``per_run`` (runs, points) the final regret of each run at each point, :math:`\bar R_j(T)`
    its column mean (:func:`ldpcode.stats.linear_fit`). The standard errors of a, b and :math:`R^2` are the bootstrap
    over runs (:func:`ldpcode.stats.bootstrap_se`, ``n_boot`` replicates from ``seed``): the points share their
    runs' seeds (common random numbers), so whole rows are resampled."""
    x = as_float_array("v", v, bools=False)
    runs = as_float_array("per_run", per_run, bools=False)
    if x.ndim != 1 or runs.ndim != 2 or runs.shape[1] != x.size:
        raise ValueError(f"per_run must be (runs, points) with one column per value of v, got {runs.shape}, {x.shape}")

    def statistic(what):
        return lambda m: getattr(linear_fit(x, m.mean(axis=0)), what)

    fit = linear_fit(x, runs.mean(axis=0))
    se = {what: bootstrap_se(statistic(what), runs, n_boot=n_boot, seed=seed) for what in ("slope", "intercept", "r2")}
    return RegretFitOnV(fit, se)


_MECHANISMS = {"laplace": "L", "l": "L", "bernoulli": "B", "b": "B"}


@dataclass(frozen=True)
class EpsilonMinChoice:
    """The result of :func:`choose_epsilon_min`: the chosen ``epsilon_min``, the ``mechanism`` ("L" or "B"),
    and the ``candidates`` with their ``values`` (V_L or V_B; candidates no user reaches are left out;
    for a continuous law's default grid, the refined minimizer is appended last)."""

    epsilon_min: float
    mechanism: str
    value: float
    candidates: tuple
    values: tuple


def _default_candidates(levels):
    if levels.values is not None:
        pos = levels.values[(levels.values > 0) & (levels.probs > 0)]
        return np.unique(pos)
    # continuous or user law: 100 quantiles of the positive part (exact for the clipped Gaussian,
    # from the fixed-seed Monte Carlo sample otherwise)
    qs = np.linspace(0.0, 0.995, 100)
    if levels.gaussian is not None:
        from scipy.stats import norm

        m, sd, lo, hi = levels.gaussian
        lo_pos = max(lo, 0.0)
        c_lo = norm.cdf((lo_pos - m) / sd)
        x = m + sd * norm.ppf(c_lo + qs * (1 - c_lo))
        x = np.clip(x, lo_pos, hi)
    else:
        sample = levels._mc_sample()
        pos = sample[sample > 0]
        if pos.size == 0:
            raise ValueError(f"levels {levels.name!r} puts no mass on positive privacy levels; no epsilon_min works")
        x = np.quantile(pos, qs)
    x = np.unique(x[np.isfinite(x) & (x > 0)])
    return x


def choose_epsilon_min(levels, mechanism, candidates=None) -> EpsilonMinChoice:
    r"""Section 4.2's heuristic: choose ε_min minimizing :math:`V_L` (``mechanism`` "laplace" or "L",
    for HeLDP-UCB-L) or :math:`V_B` ("bernoulli" or "B", for HeLDP-UCB-B), computed from the law of
    the levels alone, without pulling an arm (:func:`v_l`, :func:`v_b`).

    ``candidates`` default: for a discrete law its positive support points; otherwise 100 quantiles
    (levels 0 to 0.995) of the law restricted to ε > 0, and the best of them is then refined by a bounded
    scalar search between its two neighbours. Candidates with p_0 = 0 are skipped; ties go to the
    smallest ε_min. Returns an :class:`EpsilonMinChoice`.
    """
    levels = _check_levels(levels)
    if not isinstance(mechanism, str) or mechanism.lower() not in _MECHANISMS:
        raise ValueError(f"mechanism must be 'laplace' / 'L' or 'bernoulli' / 'B', got {mechanism!r}")
    mech = _MECHANISMS[mechanism.lower()]
    if candidates is None:
        cand = _default_candidates(levels)
    else:
        cand = np.atleast_1d(as_float_array("candidates", candidates, bools=False))
        if cand.ndim != 1 or cand.size == 0:
            raise ValueError(
                f"candidates must be a non-empty 1-d sequence of epsilon_min values, got {one_line(candidates)}"
            )
        for i, c in enumerate(cand):
            check_epsilon(float(c), f"candidates[{i}] (an epsilon_min)")

    def value(c):  # V at c, or None when no user reaches c
        p0 = levels.p_at_least(c)
        return _v_value(levels, c, p0, mech) if p0 > 0 else None

    kept, vals = [], []
    for c in np.unique(cand):
        v = value(float(c))
        if v is not None:
            kept.append(float(c))
            vals.append(v)
    if not kept:
        raise ValueError(f"no candidate epsilon_min is reached by any user (p_0 = 0 for all of {cand.tolist()})")
    i = int(np.argmin(vals))
    best_c, best_v = kept[i], vals[i]
    if candidates is None and levels.values is None and len(kept) >= 3:
        lo, hi = kept[max(i - 1, 0)], kept[min(i + 1, len(kept) - 1)]
        res = optimize.minimize_scalar(
            lambda c: value(c), bounds=(lo, hi), method="bounded", options={"xatol": 1e-6 * max(1.0, hi)}
        )
        if res.fun < best_v:
            best_c, best_v = float(res.x), float(res.fun)
            kept.append(best_c)
            vals.append(best_v)
    return EpsilonMinChoice(
        epsilon_min=best_c, mechanism=mech, value=best_v, candidates=tuple(kept), values=tuple(vals)
    )


def laplace_mixed_sum_tail_bound(lam, scales, nu=None):
    r"""Lemma 6 of the HeLDP paper (Lemma 2.8 of Chan, Shi and Song 2011): for independent zero-mean
    :math:`X_i\sim\mathrm{Laplace}(b_i)`, :math:`Y_m = X_1+\dots+X_m` and :math:`b_M = \max_i b_i`,

    .. math:: P\{Y_m > \lambda\} \le \exp\Big(-\frac{\lambda^2}{8\nu^2}\Big)
              \quad\text{for } \nu \ge \sqrt{\textstyle\sum_i b_i^2},\ 0 < \lambda < \frac{2\sqrt2\,\nu^2}{b_M}.

    The extraction of the paper cuts the right-hand side; it is Chan et al.'s, and the one the paper's
    following display uses (:math:`\lambda = \sqrt{8\nu^2\log t^4}` gives :math:`t^{-4}`). ``nu`` defaults to
    :math:`\sqrt{\sum_i b_i^2}` (the tightest bound); outside the range of :math:`\lambda` the lemma says
    nothing and ``nan`` is returned. With all :math:`b_i = b` it is Lemma 3 of the first paper
    (:func:`~ldpcode.bounds.ren2020.laplace_sum_tail_bound`). Where :math:`b_M` or ν leave [2^-250, 2^250], the
    same as :math:`\exp(-(\lambda/\nu)^2/8)` for :math:`\lambda/\nu < 2\sqrt2\,\nu/b_M`.
    """
    b = as_float_array("scales", scales, bools=False)
    if b.ndim != 1 or b.size == 0 or not np.isfinite(b).all() or (b <= 0).any():
        raise ValueError(f"scales must be a non-empty 1-d sequence of finite numbers > 0, got {one_line(scales)}")
    c = float(b.max())
    odd = not 2.0**-250 <= c <= 2.0**250  # b^2 and nu^2 over- or underflow: divided by b_M (nan at 1e200)
    root = c * math.sqrt(float(np.sum((b / c) ** 2))) if odd else math.sqrt(float(np.sum(b * b)))
    nu = root if nu is None else check_real("nu", nu)
    if not nu >= root * (1 - 1e-12):
        raise ValueError(f"nu must be >= sqrt(sum b_i^2) = {root:g}, got {nu!r}")
    lam = check_array("lam", lam)  # finite, as laplace_sum_tail_bound's (nan and inf were returned as nan and 0)
    return _chan_tail_bound(lam, nu, c)  # Lemma 3's bound with b_M for b (ratio form where the squares leave a double)


def unbiased_ctb_variance(mu, epsilon):
    r"""The variance of :math:`g(M_B(R;\epsilon);\epsilon)`, the unbiased value of HeLDP-UCB-B (Section 3.2 of
    the HeLDP paper), for a reward R in [0, 1] of mean :math:`\mu`:

    .. math:: \mathrm{Var}[g] = k^2 p(1-p) = \frac{\beta(\epsilon) - (2\mu-1)^2}{4},\quad
              k = \frac{e^\epsilon+1}{e^\epsilon-1},\ p = \tfrac12 + \frac{2\mu-1}{2k},

    since g is affine in the bit (:math:`g = \tfrac12 + (x-\tfrac12)k`) and the bit is Bernoulli(p) with p of
    Lemma 9 (it depends on R only through its mean). It is at most :math:`\beta(\epsilon)/4`, the variance proxy
    (range² / 4, range k) of the Hoeffding bound behind the paper's index (:func:`heldp_beta`).
    """
    eps = check_epsilon(epsilon)
    mu = as_float_array("mu", mu, bools=False)
    if not np.isfinite(mu).all() or (mu < 0).any() or (mu > 1).any():
        raise ValueError(f"mu must lie in [0, 1] (a mean reward for CTB), got {one_line(mu)}")
    out = (heldp_beta(eps) - (2 * mu - 1) ** 2) / 4
    return float(out) if out.ndim == 0 else out
