r"""Azize and Basu (2022), ε-global DP, multi-armed bandits: lower bounds, upper bounds, rates.

"When Privacy Meets Partial Information: A Refined Analysis of Differentially Private Bandits", NeurIPS 2022:
the minimax lower bound of Theorem 2 and its regime threshold, the problem-dependent lower bound of Theorem 3
(with its per-arm terms), the upper bounds of AdaP-UCB (Theorem 7) and AdaP-KLUCB (Theorem 8), the minimax
upper rate stated after Theorem 8, the regret rates of Table 1 (DP-UCB, DP-SE, AdaP-UCB, AdaP-KLUCB) and
Table 1's number of private means. The linear bandit (Theorems 4 and 5) is in :mod:`~ldpcode.bounds.linear`.

Conventions (shared with :mod:`~ldpcode.bounds.linear`):

* epsilon is a finite number > 0 (check_epsilon); only linear_c_epsilon also accepts math.inf (no privacy);
* horizon is an integer >= 1 (Theorem 2: >= K - 1; a rate: >= 2, where log T > 0); logs are natural;
* means of bounded or Bernoulli arms lie in [0, 1]; Gaussian means are any finite numbers;
* a sum over the suboptimal arms that would be empty (all means equal) raises ValueError: every
  statement here is about instances with a suboptimal arm (Theorem 5 even asks for a unique optimum),
  and an all-equal ``means`` is far more often a typo than an intended zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from dataclasses import field as _field

import numpy as np

from .._validate import as_float_array, check_array, check_epsilon, check_probability_vector, check_real, one_line
from .._validate import check_choice as _check_choice
from ..divergences import (
    _check_law_on_unit_interval,
    d_inf_bernoulli,
    d_inf_bounded,
    d_inf_gaussian,
    t_inf_bernoulli,
    t_inf_bounded,
    t_inf_gaussian,
)
from ._common import _check_count, _check_horizon


def _gdp_log_horizon(horizon, minimum: int = 1) -> float:
    return math.log(_check_horizon(horizon, minimum=minimum))


def _gdp_suboptimal(means, family: str = "bernoulli"):
    """(means, best mean, indices of suboptimal arms, their gaps); raises when there is no suboptimal arm."""
    if family == "bernoulli":
        means = check_probability_vector("means", means)
    else:
        means = check_array("means", means, ndim=1)
    if means.size < 2:
        raise ValueError(f"means must hold at least 2 arms, got {means.size}")
    best = float(means.max())
    idx = np.flatnonzero(means < best)
    if idx.size == 0:
        raise ValueError(f"means must contain at least one suboptimal arm (Delta_a > 0), got all equal to {best!r}")
    return means, best, idx, best - means[idx]


def _check_alpha_gdp(alpha) -> float:
    alpha = check_real("alpha", alpha)
    if not alpha > 3:
        raise ValueError(f"alpha must be > 3 (Theorems 7 and 8 need alpha > 3), got {alpha!r}")
    return alpha


def gdp_minimax_lower_bound(horizon, n_arms, epsilon) -> float:
    r"""Theorem 2 (Azize and Basu 2022), eq. (3): for :math:`K > 1`, :math:`T \ge K-1`, :math:`\epsilon > 0`,

    .. math:: \mathrm{Reg}^{\mathrm{minimax}}_{T,\epsilon} \ge \max\Big\{\frac{1}{27}\sqrt{T(K-1)},\;
              \frac{1}{131}\frac{K-1}{\epsilon}\Big\}.
    """
    k = _check_count("n_arms", n_arms, minimum=2)
    t = _check_horizon(horizon, minimum=max(1, k - 1))
    eps = check_epsilon(epsilon)
    return max(math.sqrt(t * (k - 1)) / 27.0, (k - 1) / (131.0 * eps))


def gdp_minimax_threshold(horizon, n_arms, as_printed: bool = False) -> float:
    r"""The ε below which the private term of Theorem 2 dominates: the crossing of its two terms,

    .. math:: \frac{1}{27}\sqrt{T(K-1)} = \frac{K-1}{131\,\epsilon} \iff \epsilon = \frac{27}{131}\sqrt{\frac{K-1}{T}}.

    **Discrepancy with the paper.** The text after Theorem 2 puts the threshold at
    :math:`\frac{131}{27}\sqrt{(K-1)/T}` (the ratio inverted, 23.5 times larger), and its example
    (T = 10^6, K = 100: "ε ≥ 0.05") uses that printed value (0.0483); the true crossing there is 0.00205.
    This function returns the true crossing; ``as_printed=True`` returns the paper's printed expression.
    Same conditions as :func:`gdp_minimax_lower_bound` (K ≥ 2, T ≥ K − 1).
    """
    k = _check_count("n_arms", n_arms, minimum=2)
    t = _check_horizon(horizon, minimum=max(1, k - 1))
    if not isinstance(as_printed, (bool, np.bool_)):
        raise TypeError(f"as_printed must be True or False, got {as_printed!r}")
    ratio = 131.0 / 27.0 if as_printed else 27.0 / 131.0
    return ratio * math.sqrt((k - 1) / t)


_GDP_FAMILIES = ("bernoulli", "gaussian")


@dataclass(frozen=True, eq=False)
class GDPLowerBoundTerms:
    r"""Per-arm pieces of Theorem 3, for the suboptimal arms only (index ``arms`` into ``means``):
    ``gaps`` :math:`\Delta_a`, ``d_inf``, ``t_inf``, ``epsilon_threshold`` :math:`d_{\inf}/(6t_{\inf})`
    (the ε below which the private term :math:`6\epsilon t_{\inf}` is the smaller one), ``private`` (whether
    ``epsilon`` is below it), ``terms`` :math:`\Delta_a/\min(d_{\inf}, 6\epsilon t_{\inf})` and their sum
    ``value`` (the constant of :func:`gdp_lower_bound_constant`)."""

    epsilon: float
    family: str
    variance: str
    arms: np.ndarray
    gaps: np.ndarray
    d_inf: np.ndarray
    t_inf: np.ndarray
    epsilon_threshold: np.ndarray
    private: np.ndarray
    terms: np.ndarray
    value: float = _field(default=float("nan"))


def gdp_lower_bound_terms(means, epsilon, family="bernoulli", sigma=1.0, variance="known") -> GDPLowerBoundTerms:
    r"""The per-arm quantities of Theorem 3 (see :func:`gdp_lower_bound_constant` for the statement and the
    arguments), returned as a :class:`GDPLowerBoundTerms`, so that a notebook can show which arms are in the
    high-privacy regime :math:`\epsilon < d_{\inf}/(6 t_{\inf})` (remark 3 after Theorem 3)."""
    eps = check_epsilon(epsilon)
    _check_choice("family", family, _GDP_FAMILIES)
    _check_choice("variance", variance, ("known", "unknown"))
    means, best, idx, gaps = _gdp_suboptimal(means, family)
    if family == "bernoulli":
        try:
            sig = as_float_array("sigma", sigma, bools=False)
        except TypeError:
            sig = None
        if variance != "known" or sig is None or sig.size == 0 or not np.all(sig == 1.0):  # np.all([] == 1) is True
            raise ValueError(
                f"sigma and variance apply to family='gaussian' only; for 'bernoulli' leave them at "
                f"their defaults, got sigma={one_line(sigma)}, variance={one_line(variance)}"
            )
        if best >= 1.0:
            raise ValueError(
                "for family='bernoulli' the best mean must be < 1: no Bernoulli law has a mean above 1, "
                "so d_inf and t_inf are infima over an empty set (+inf) and Theorem 3 says nothing; "
                f"got max(means) = {best!r}"
            )
        d = np.asarray(d_inf_bernoulli(means[idx], best), dtype=float).reshape(-1)
        t = np.asarray(t_inf_bernoulli(means[idx], best), dtype=float).reshape(-1)
    else:
        sig = as_float_array("sigma", sigma, bools=False)
        try:
            sig = np.broadcast_to(sig, means.shape)
        except ValueError as exc:
            raise ValueError(
                f"sigma must be one standard deviation > 0 or one per arm ({means.size}), got shape {sig.shape}"
            ) from exc
        if not (np.isfinite(sig).all() and (sig > 0).all()):
            bad = float(sig[~(np.isfinite(sig) & (sig > 0))].ravel()[0])  # the first, not the repr of every entry
            raise ValueError(
                f"sigma must be finite and > 0 (a standard deviation), got {bad!r} among {one_line(sigma)}"
            )
        d = np.asarray(d_inf_gaussian(means[idx], best, sig[idx], variance), dtype=float).reshape(-1)
        t = np.asarray(t_inf_gaussian(means[idx], best, sig[idx], variance), dtype=float).reshape(-1)
    return _terms(eps, family, variance, idx, gaps, d, t)


def _terms(eps, family, variance, idx, gaps, d, t) -> GDPLowerBoundTerms:
    r"""Theorem 3's per-arm terms from the gaps and the two distinguishability gaps of the suboptimal arms ``idx``:
    each :math:`\Delta_a/\min(d_{\inf}, 6\epsilon t_{\inf})`, the switch points and their sum."""
    thr = d / (6.0 * t)
    terms = gaps / np.minimum(d, 6.0 * eps * t)
    return GDPLowerBoundTerms(
        epsilon=eps,
        family=family,
        variance=variance,
        arms=idx,
        gaps=gaps,
        d_inf=d,
        t_inf=t,
        epsilon_threshold=thr,
        private=eps < thr,
        terms=terms,
        value=float(terms.sum()),
    )


#: means closer than this to the best count as the best (:func:`gdp_lower_bound_terms_bounded`)
TIE = 1e-12


def gdp_lower_bound_terms_bounded(laws, epsilon) -> GDPLowerBoundTerms:
    r"""The per-arm quantities of Theorem 3 when each arm is a discrete law on [0, 1] and the class
    :math:`\mathcal M_a` is every law on [0, 1]: :math:`d_{\inf} = K_{\inf}` (:func:`~ldpcode.divergences.d_inf_bounded`)
    and :math:`t_{\inf}` (:func:`~ldpcode.divergences.t_inf_bounded`), which is :math:`\ge \Delta_a`, above it
    unless the arm has mass :math:`\ge \Delta_a` at 0. ``laws``: one ``(values, probs)`` pair per arm, at least one
    suboptimal, the best mean below 1. Means within :data:`TIE` of the best count as the best (a gap of rounding,
    5.6e-17 between two laws of mean 0.4, made a term of 3e15). Returns a :class:`GDPLowerBoundTerms` with
    ``family="bounded"`` (its ``value`` times log T is eq. (4))."""
    eps = check_epsilon(epsilon)
    if not isinstance(laws, (list, tuple)) or len(laws) < 2:
        raise ValueError(f"laws must be a list of at least 2 (values, probs) pairs, one per arm, got {one_line(laws)}")
    checked = []
    for i, law in enumerate(laws):
        if not isinstance(law, (list, tuple)) or len(law) != 2:
            raise ValueError(f"laws[{i}] must be a (values, probs) pair, got {one_line(law)}")
        try:
            checked.append(_check_law_on_unit_interval(*law, 0.0)[:2])
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"laws[{i}]: {exc}") from None
    means = np.array([float(p @ x) for x, p in checked])
    best = float(means.max())
    idx = np.flatnonzero(means < best - TIE)
    if idx.size == 0:
        raise ValueError(f"laws must contain at least one suboptimal arm (Delta_a > {TIE:g}), all means are {best!r}")
    if best >= 1.0 - TIE:
        raise ValueError(
            "the best law's mean must be < 1: no law on [0, 1] has a mean above 1, so d_inf and t_inf are infima "
            f"over an empty set (+inf) and Theorem 3 says nothing; got a best mean of {best!r}"
        )
    d = np.array([d_inf_bounded(*checked[i], best) for i in idx])
    t = np.array([t_inf_bounded(*checked[i], best) for i in idx])
    return _terms(eps, "bounded", "-", idx, best - means[idx], d, t)


def gdp_lower_bound_constant(means, epsilon, family="bernoulli", sigma=1.0, variance="known") -> float:
    r"""Theorem 3 (Azize and Basu 2022), eq. (4): every consistent ε-global-DP policy has

    .. math:: \liminf_{T\to\infty}\frac{\mathrm{Reg}_T}{\log T} \ge \sum_{a:\Delta_a>0}
              \frac{\Delta_a}{\min\{d_{\inf}(P_a,\mu^*,\mathcal M_a),\; 6\epsilon\, t_{\inf}(P_a,\mu^*,\mathcal M_a)\}}.

    ``family="bernoulli"``: means in [0, 1] with the best < 1, :math:`d_{\inf} = d(\mu_a,\mu^*)`,
    :math:`t_{\inf} = \Delta_a` (:func:`~ldpcode.divergences.d_inf_bernoulli`). ``family="gaussian"``: arm a is
    :math:`\mathcal N(\mu_a, \sigma_a^2)` (``sigma`` one value or one per arm) in the class of Gaussians with
    that variance (``variance="known"``) or of all Gaussians (``"unknown"``); see
    :func:`~ldpcode.divergences.d_inf_gaussian` and :func:`~ldpcode.divergences.t_inf_gaussian`.
    For large ε this is the Lai-Robbins constant :math:`\sum\Delta_a/d_{\inf}`; the per-arm switch points are
    in :func:`gdp_lower_bound_terms`.

    Remark 2 after Theorem 3 says that, as :math:`d_{\inf}\ge 2\Delta_a^2` (Pinsker), the bound "reduces to"
    :math:`\Omega(\sum\log T/\min\{\Delta_a,\epsilon\})`. Pinsker gives the other direction: each term is
    *at most* :math:`1/(2\min\{\Delta_a,\epsilon\})`. The Ω form needs the reverse inequality
    :math:`d(\mu_a,\mu^*)\le\Delta_a^2/(\mu^*(1-\mu^*))` (KL ≤ χ²), which gives each term *at least*
    :math:`1/(\max\{1/(\mu^*(1-\mu^*)), 6\}\min\{\Delta_a,\epsilon\})`: the Ω holds with a constant that
    depends on :math:`\mu^*` (both sides are checked in the tests).
    """
    return gdp_lower_bound_terms(means, epsilon, family=family, sigma=sigma, variance=variance).value


def adap_ucb_regret_bound(means, horizon, epsilon, alpha=3.1) -> float:
    r"""Theorem 7 (Azize and Basu 2022): for rewards in [0, 1] and α > 3, AdaP-UCB has

    .. math:: \mathrm{Reg}_T \le \sum_{a:\Delta_a>0}\Big(\frac{16\alpha}{\min\{\Delta_a,\epsilon\}}\log T
              + \frac{3\alpha}{\alpha-3}\Big).

    ``alpha`` ≤ 3 is a ValueError: the theorem needs α > 3 (Remark 1). The paper's experiments use α = 3.1.
    """
    eps = check_epsilon(epsilon)
    alpha = _check_alpha_gdp(alpha)
    log_t = _gdp_log_horizon(horizon)
    _, _, _, gaps = _gdp_suboptimal(means)
    return float(np.sum(16.0 * alpha / np.minimum(gaps, eps) * log_t + 3.0 * alpha / (alpha - 3.0)))


def adap_klucb_regret_bound(means, horizon, epsilon, *, c1, c2, alpha=3.1) -> float:
    r"""Theorem 8 (Azize and Basu 2022): for Bernoulli rewards, α > 3 and constants :math:`C_1(\alpha), C_2 > 0`,
    AdaP-KLUCB has

    .. math:: \mathrm{Reg}_T \le \sum_{a:\Delta_a>0}\Big(\frac{C_1(\alpha)\Delta_a}{\min\{d_{\inf}(\mu_a,\mu^*),
              C_2\epsilon\Delta_a\}}\log T + \frac{3\alpha}{\alpha-3}\Big),

    with :math:`d_{\inf}(\mu_a,\mu^*) = d(\mu_a,\mu^*)` the Bernoulli gap (``inf`` when :math:`\mu^* = 1`, when
    the private term is the minimum). The paper does not give :math:`C_1(\alpha)` or :math:`C_2`, so ``c1`` (the
    value of :math:`C_1` at this ``alpha``) and ``c2`` are required keyword arguments, finite and > 0; this module
    never invents them. Only the shape of the bound in ε and :math:`\Delta_a` is the paper's.
    """
    eps = check_epsilon(epsilon)
    c1 = check_epsilon(c1, "c1", floor=0.0)
    c2 = check_epsilon(c2, "c2", floor=0.0)
    alpha = _check_alpha_gdp(alpha)
    log_t = _gdp_log_horizon(horizon)
    means, best, idx, gaps = _gdp_suboptimal(means)
    d = np.asarray(d_inf_bernoulli(means[idx], best), dtype=float).reshape(-1)
    return float(np.sum(c1 * gaps / np.minimum(d, c2 * eps * gaps) * log_t + 3.0 * alpha / (alpha - 3.0)))


def gdp_minimax_upper_rate(horizon, n_arms, epsilon) -> float:
    r""":math:`\sqrt{KT\log T} + K\log T/\epsilon`: the minimax upper rate of AdaP-UCB and AdaP-KLUCB
    (Appendix E.4, stated after Theorem 8 as :math:`\mathcal O(\cdot)`; the constant is not given, this is the
    rate with constant 1, for drawing slopes beside :func:`gdp_minimax_lower_bound`)."""
    k = _check_count("n_arms", n_arms, minimum=2)  # one arm is no bandit: its regret is 0, not a rate
    eps = check_epsilon(epsilon)
    t = _check_horizon(horizon, minimum=2)  # at T = 1 the rate was 0 (log 1): -inf on the log axes it is drawn on
    log_t = math.log(t)
    return math.sqrt(k * t * log_t) + k * log_t / eps


def dp_ucb_rate(means, horizon, epsilon) -> float:
    r"""Table 1, DP-UCB (Mishra and Thakurta 2015; Tossou and Dimitrakakis 2016):
    :math:`\log(T)^{2.5}/\epsilon + \sum_{a:\Delta_a>0}\log T/\Delta_a`, the :math:`\mathcal O(\cdot)` rate with
    constant 1 (a rate, not a bound). Means of [0, 1]-valued arms."""
    eps = check_epsilon(epsilon)
    log_t = _gdp_log_horizon(horizon, minimum=2)  # at T = 1 a rate of 0 (log 1): -inf on log axes
    _, _, _, gaps = _gdp_suboptimal(means)
    return float(log_t**2.5 / eps + np.sum(log_t / gaps))


def dp_se_rate(means, horizon, epsilon) -> float:
    r"""Table 1, DP-SE (Sajed and Sheffet 2019): :math:`K\log T/\epsilon + \sum_{a:\Delta_a>0}\log T/\Delta_a`
    (constant 1; a rate). K is ``len(means)``."""
    eps = check_epsilon(epsilon)
    log_t = _gdp_log_horizon(horizon, minimum=2)  # at T = 1 a rate of 0 (log 1): -inf on log axes
    means, _, _, gaps = _gdp_suboptimal(means)
    return float(means.size * log_t / eps + np.sum(log_t / gaps))


def adap_ucb_rate(means, horizon, epsilon) -> float:
    r"""Table 1, AdaP-UCB: :math:`\sum_{a:\Delta_a>0}\Delta_a\log T/\min\{\Delta_a^2, \epsilon\Delta_a\}`
    (:math:`= \sum\log T/\min\{\Delta_a,\epsilon\}`, Theorem 7 without its constants; a rate)."""
    eps = check_epsilon(epsilon)
    log_t = _gdp_log_horizon(horizon, minimum=2)  # at T = 1 a rate of 0 (log 1): -inf on log axes
    _, _, _, gaps = _gdp_suboptimal(means)
    return float(np.sum(gaps * log_t / np.minimum(gaps**2, eps * gaps)))


def adap_klucb_rate(means, horizon, epsilon) -> float:
    r"""Table 1, AdaP-KLUCB: :math:`\sum_{a:\Delta_a>0}\Delta_a\log T/\min\{d(\mu_a,\mu^*), \epsilon\Delta_a\}`,
    d the Bernoulli KL (Theorem 8 with :math:`C_1 = C_2 = 1` and without its additive term; a rate)."""
    eps = check_epsilon(epsilon)
    log_t = _gdp_log_horizon(horizon, minimum=2)  # at T = 1 a rate of 0 (log 1): -inf on log axes
    means, best, idx, gaps = _gdp_suboptimal(means)
    d = np.asarray(d_inf_bernoulli(means[idx], best), dtype=float).reshape(-1)
    return float(np.sum(gaps * log_t / np.minimum(d, eps * gaps)))


def adap_releases_bound(horizon, n_arms) -> float:
    r"""Most private means Algorithm 1 (AdaP-UCB, AdaP-KLUCB) computes in T steps (Table 1 of Azize and
    Basu 2022, "# Private Means", stated as :math:`\mathcal O(\log T)`): :math:`K + K\log_2(T/K)`.

    K releases come from the initial pull of each arm. Every later release closes an episode that
    doubles its arm's count, so arm a closes at most :math:`\log_2 N_a(T)` episodes, and
    :math:`\sum_a \log_2 N_a(T) \le K\log_2(T/K)` by concavity since :math:`\sum_a N_a(T) = T`. (Our
    derivation; the paper states only the order.) ``horizon`` must be an integer >= ``n_arms`` >= 1.
    """
    k = _check_count("n_arms", n_arms, minimum=1)
    t = _check_horizon(horizon, minimum=k)
    return float(k + k * math.log2(t / k))
