r"""Theoretical bounds of Ren et al. (2020) as plain functions of the instance and of epsilon.

``means`` is always the vector of arm means; gaps :math:`\Delta_a = \mu^* - \mu_a` are derived from
it and only suboptimal arms (:math:`\Delta_a > 0`) enter the sums. All logs are natural.

=====================================  ===========================================================
function                               statement
=====================================  ===========================================================
:func:`lower_bound_constant`           Theorem 1: :math:`\liminf R(T)/\log T \ge (e^\epsilon-e^{-\epsilon})^{-2}\sum 1/\Delta_a`
:func:`basu2019_lower_bound_constant`  the KL-based local-DP bound of Basu et al. (2019) that Thm 1 improves
:func:`lemma12_bound`                  Lemma 12: :math:`D(h_a\|h_b) \le (e^\epsilon-e^{-\epsilon})^2(p-q)^2`
:func:`laplace_sum_tail_bound`         Lemma 3: :math:`P\{Y_n > \lambda\} \le \exp(-\lambda^2/(8v^2))`
:func:`ucb1_regret_bound`              Auer et al. (2002), Thm 1: :math:`\sum 8\log T/\Delta_a + (1+\pi^2/3)\Delta_a`
:func:`ldp_ucb_l_regret_bound`         Theorem 4 (and Corollary 10 with ``c_s``)
:func:`ldp_ucb_b_regret_bound`         Theorem 6 (and Corollary 11 with ``c_s``)
:func:`ldp_ucb_l_pulls_bound`          the bound on :math:`E[N_a(T)]` in the proof of Theorem 4
:func:`ldp_ucb_b_pulls_bound`          the bound on :math:`E[N_a(T)]` in the proof of Theorem 6
:func:`distribution_free_rate`         :math:`\epsilon^{-1}\sqrt{nT\log T}` (Thms 4, 6; constant not given)
:func:`c_s_subgaussian`                Lemma 7's constant, :math:`0.0765/e`
:func:`c_s_gaussian`                   Lemma 7's constant for Gaussian noise, :math:`0.2066/e`
=====================================  ===========================================================
"""
from __future__ import annotations

import math

import numpy as np
from scipy import integrate, optimize

from ._validate import check_epsilon, check_int, check_probability_vector, check_real
from .divergences import kl_bernoulli


def _gaps(means) -> np.ndarray:
    means = np.asarray(means, dtype=float)
    if means.ndim != 1 or means.size < 2 or not np.isfinite(means).all():
        raise ValueError(f"means must be a 1-d sequence of at least 2 finite numbers, got {means!r}")
    gaps = means.max() - means
    return gaps[gaps > 0]


def _log_horizon(horizon) -> float:
    return math.log(check_int("horizon", horizon, minimum=2))


def laplace_ratio(epsilon) -> float:
    r"""The privacy cost factor of LDP-UCB-L over UCB1: :math:`(1 + 4/\epsilon)^2` (Theorem 4, Remark i)."""
    return (1.0 + 4.0 / check_epsilon(epsilon)) ** 2


def bernoulli_ratio(epsilon) -> float:
    r"""The privacy cost factor of LDP-UCB-B over UCB1: :math:`((e^\epsilon+1)/(e^\epsilon-1))^2` (Thm 6)."""
    eps = check_epsilon(epsilon)
    return ((math.exp(eps) + 1.0) / math.expm1(eps)) ** 2


def lower_bound_constant(means, epsilon) -> float:
    r"""Theorem 1: :math:`(e^\epsilon - e^{-\epsilon})^{-2} \sum_{a:\Delta_a>0} 1/\Delta_a` (Bernoulli arms)."""
    eps = check_epsilon(epsilon)
    return float(np.sum(1.0 / _gaps(means)) / (2.0 * math.sinh(eps)) ** 2)


def basu2019_lower_bound_constant(means, epsilon) -> float:
    r"""The ε-LDP lower bound of Basu, Dimitrakakis and Tossou (2019) on Bernoulli arms,

    .. math:: \liminf_T \frac{R(T)}{\log T} \ge \sum_{a:\Delta_a>0}
              \frac{\Delta_a}{2\min\{4, e^{2\epsilon}\}(e^\epsilon-1)^2\,D(\mathrm{Ber}(\mu_a)\|\mathrm{Ber}(\mu^*))},

    the KL-based bound that Ren et al. say Theorem 1 improves on (Section 2).
    """
    eps = check_epsilon(epsilon)
    means = check_probability_vector("means", means)
    best = means.max()
    sub = means[means < best]
    kl = kl_bernoulli(sub, np.full_like(sub, best))
    return float(np.sum((best - sub) / (2.0 * min(4.0, math.exp(2 * eps)) * math.expm1(eps) ** 2 * kl)))


def lemma12_bound(p, q, epsilon):
    r"""Lemma 12's right-hand side :math:`(e^\epsilon - e^{-\epsilon})^2 (p-q)^2`."""
    eps = check_epsilon(epsilon)
    return (2.0 * math.sinh(eps)) ** 2 * (np.asarray(p, dtype=float) - np.asarray(q, dtype=float)) ** 2


def laplace_sum_tail_bound(lam, n, b, v=None):
    r"""Lemma 3 (Chan, Shi, Song 2011, Lemma 2.8): for the sum :math:`Y_n` of n i.i.d. Laplace(b),

    :math:`P\{Y_n > \lambda\} \le \exp(-\lambda^2/(8v^2))` for :math:`v \ge b\sqrt n` and
    :math:`0 < \lambda < 2\sqrt2\, v^2/b`. ``v`` defaults to :math:`b\sqrt n`. Outside the range of
    :math:`\lambda` the lemma says nothing and ``nan`` is returned.
    """
    n = check_int("n", n, minimum=1)
    b = check_real("b", b)
    if b <= 0:
        raise ValueError(f"b must be > 0, got {b!r}")
    v = b * math.sqrt(n) if v is None else check_real("v", v)
    if v < b * math.sqrt(n) * (1 - 1e-12):
        raise ValueError(f"v must be >= b sqrt(n) = {b * math.sqrt(n):g}, got {v!r}")
    lam = np.asarray(lam, dtype=float)
    valid = (lam > 0) & (lam < 2 * math.sqrt(2) * v * v / b)
    return np.where(valid, np.exp(-lam ** 2 / (8 * v * v)), np.nan)


def _regret_bound(means, horizon, factor, const):
    gaps = _gaps(means)
    return float(np.sum(8.0 * factor * _log_horizon(horizon) / gaps + const * gaps))


def ucb1_regret_bound(means, horizon) -> float:
    r"""Auer, Cesa-Bianchi, Fischer (2002), Theorem 1: :math:`\sum 8\log T/\Delta_a + (1+\pi^2/3)\Delta_a`."""
    return _regret_bound(means, horizon, 1.0, 1.0 + math.pi ** 2 / 3)


def ldp_ucb_l_regret_bound(means, horizon, epsilon, c_s: float = 1.0) -> float:
    r"""Theorem 4: :math:`\sum [8(1+4/\epsilon)^2\log T/\Delta_a + (1 + 2\pi^2/3)\Delta_a]`.

    With ``c_s`` < 1 the whole bound is divided by :math:`c_s^2`: Corollary 10 (LDP-UCB-LS).
    """
    c_s = check_real("c_s", c_s)
    if not 0 < c_s <= 1:
        raise ValueError(f"c_s must be in (0, 1], got {c_s!r}")
    return _regret_bound(means, horizon, laplace_ratio(epsilon), 1.0 + 2 * math.pi ** 2 / 3) / c_s ** 2


def ldp_ucb_b_regret_bound(means, horizon, epsilon, c_s: float = 1.0) -> float:
    r"""Theorem 6: :math:`\sum [8((e^\epsilon+1)/(e^\epsilon-1))^2\log T/\Delta_a + (1+\pi^2/3)\Delta_a]`.

    With ``c_s`` < 1 the whole bound is divided by :math:`c_s^2`: Corollary 11 (LDP-UCB-BS).
    """
    c_s = check_real("c_s", c_s)
    if not 0 < c_s <= 1:
        raise ValueError(f"c_s must be in (0, 1], got {c_s!r}")
    return _regret_bound(means, horizon, bernoulli_ratio(epsilon), 1.0 + math.pi ** 2 / 3) / c_s ** 2


def ldp_ucb_l_pulls_bound(gap, horizon, epsilon):
    r"""Proof of Theorem 4: :math:`E[N_a(T)] \le 8(1+4/\epsilon)^2\log T/\Delta_a^2 + 1 + 2\pi^2/3`."""
    gap = np.asarray(gap, dtype=float)
    return 8 * laplace_ratio(epsilon) * _log_horizon(horizon) / gap ** 2 + 1 + 2 * math.pi ** 2 / 3


def ldp_ucb_b_pulls_bound(gap, horizon, epsilon):
    r"""Proof of Theorem 6: :math:`E[N_a(T)] \le 8\log T/\Delta_{a,\epsilon}^2 + 1 + \pi^2/3`,
    :math:`\Delta_{a,\epsilon} = \Delta_a (e^\epsilon-1)/(e^\epsilon+1)`."""
    gap = np.asarray(gap, dtype=float)
    return 8 * bernoulli_ratio(epsilon) * _log_horizon(horizon) / gap ** 2 + 1 + math.pi ** 2 / 3


def distribution_free_rate(n_arms, horizon, epsilon) -> float:
    r""":math:`\epsilon^{-1}\sqrt{nT\log T}`: the distribution-free order of Theorems 4 and 6.

    The paper gives no constant; this is the rate with constant 1, for drawing slopes.
    """
    n = check_int("n_arms", n_arms, minimum=1)
    return math.sqrt(n * horizon * _log_horizon(horizon)) / check_epsilon(epsilon)


def _v(a):
    r"""Lemma 7's :math:`v_a`: the positive root of :math:`e^{-x}/(1+e^{-x})^2 = a`, for a in (0, 1/4)."""
    return math.log(1 / (2 * a) - 1 + math.sqrt(1 / (4 * a * a) - 1 / a))


def lemma7_subgaussian_objective(a):
    r""":math:`a(1 - 2e^{-v_a^2/2})`, the quantity Lemma 7 maximizes over :math:`a \in (0, 1/4)`."""
    return a * (1 - 2 * math.exp(-_v(a) ** 2 / 2))


def lemma7_subgaussian_sup() -> tuple[float, float]:
    """(argmax a, max value) of :func:`lemma7_subgaussian_objective` (the paper: a = 0.107, 0.0765)."""
    res = optimize.minimize_scalar(lambda a: -lemma7_subgaussian_objective(a), bounds=(1e-6, 0.25 - 1e-9),
                                   method="bounded", options={"xatol": 1e-12})
    return float(res.x), float(-res.fun)


def lemma7_gaussian_integral() -> float:
    r""":math:`E[e^{-Z}/(1+e^{-Z})^2]` for :math:`Z\sim N(0,1)` (the paper: 0.2066)."""
    # e^{-x}/(1+e^{-x})^2 = 1/(4 cosh^2(x/2)), which cannot overflow; the Gaussian tail past 40 is < 1e-300.
    f = lambda x: math.exp(-x * x / 2) / (4 * math.cosh(x / 2) ** 2 * math.sqrt(2 * math.pi))
    return float(integrate.quad(f, -40.0, 40.0, epsabs=1e-14, epsrel=1e-12, limit=200)[0])


def c_s_subgaussian() -> float:
    """Lemma 7's universal constant for sub-Gaussian noise, computed: sup value / e (paper: 0.0765/e)."""
    return lemma7_subgaussian_sup()[1] / math.e


def c_s_gaussian() -> float:
    """Lemma 7's constant for standard Gaussian noise, computed: integral / e (paper: 0.2066/e)."""
    return lemma7_gaussian_integral() / math.e
