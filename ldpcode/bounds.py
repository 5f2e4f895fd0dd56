r"""Theoretical bounds of Ren et al. (2020) as plain functions of the instance and of epsilon.

``means`` is always the vector of arm means; gaps :math:`\Delta_a = \mu^* - \mu_a` are derived from
it and only suboptimal arms (:math:`\Delta_a > 0`) enter the sums. All logs are natural.

=====================================  ===========================================================
function                               statement
=====================================  ===========================================================
:func:`lower_bound_constant`           Theorem 1: :math:`\liminf R(T)/\log T \ge (e^\epsilon-e^{-\epsilon})^{-2}\sum 1/\Delta_a`
:func:`basu2019_lower_bound_constant`  the KL-based local-DP bound of Basu et al. (2019) that Thm 1 improves
:func:`lower_bound_constant_small_epsilon`  Theorem 1's small-ε form :math:`\sum 1/(4\epsilon^2\Delta_a)`
:func:`lower_bound_constant_tightened`  Theorem 1 with Lemma 12's last relaxation removed (4 times larger)
:func:`lai_robbins_constant`           Lai and Robbins (1985), non-private Bernoulli: :math:`\sum \Delta_a/D(\mu_a\|\mu^*)`
:func:`ctb_lai_robbins_constant`       the regret constant KL-UCB attains on CTB responses (achievable)
:func:`lemma12_bound`                  Lemma 12: :math:`D(h_a\|h_b) \le (e^\epsilon-e^{-\epsilon})^2(p-q)^2`
:func:`fact13_bound`                   Fact 13: :math:`D(f_1\|g_1) \le (R-r)^2/(4rR)` when :math:`r \le f_1/g_1 \le R`
:func:`lemma12_fact13_bound`           Fact 13 as applied in the proof of Lemma 12 (before its last relaxation)
:func:`laplace_sum_tail_bound`         Lemma 3: :math:`P\{Y_n > \lambda\} \le \exp(-\lambda^2/(8v^2))`
:func:`ucb1_regret_bound`              Auer et al. (2002), Thm 1: :math:`\sum 8\log T/\Delta_a + (1+\pi^2/3)\Delta_a`
:func:`ldp_ucb_l_regret_bound`         Theorem 4 (and Corollary 10 with ``c_s``)
:func:`ldp_ucb_b_regret_bound`         Theorem 6 (and Corollary 11 with ``c_s``)
:func:`ldp_ucb_l_pulls_bound`          the bound on :math:`E[N_a(T)]` in the proof of Theorem 4
:func:`ldp_ucb_b_pulls_bound`          the bound on :math:`E[N_a(T)]` in the proof of Theorem 6
:func:`distribution_free_rate`         :math:`\epsilon^{-1}\sqrt{nT\log T}` (Thms 4, 6; constant not given)
:func:`c_s_subgaussian`                Lemma 7's constant, :math:`0.0765/e`
:func:`c_s_gaussian`                   Lemma 7's constant for Gaussian noise, :math:`0.2066/e`
:func:`lemma7_worst_noise`              the best constant Lemma 7 could state over all variance-one noises (an LP)
:func:`lemma7_chebyshev_constant`       a constant for Lemma 7 from Chebyshev's inequality alone
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


def lower_bound_constant_small_epsilon(means, epsilon) -> float:
    r"""The paper's small-ε form of Theorem 1: :math:`\frac{1}{4\epsilon^2}\sum_{a:\Delta_a>0} 1/\Delta_a`
    (from :math:`e^\epsilon - e^{-\epsilon} \simeq 2\epsilon`; always above :func:`lower_bound_constant`)."""
    eps = check_epsilon(epsilon)
    return float(np.sum(1.0 / _gaps(means)) / (4.0 * eps * eps))


def lower_bound_constant_tightened(means, epsilon) -> float:
    r"""Theorem 1 with the last step of Lemma 12's proof done without loss: :math:`\sum 1/(\Delta_a\sinh^2\epsilon)`.

    In Appendix A.8 the denominators :math:`D(x) = x^2 + x(1-x)(e^\epsilon+e^{-\epsilon}) + (1-x)^2` are
    bounded below by 1/2; since :math:`e^\epsilon+e^{-\epsilon} \ge 2`, in fact :math:`D(x) \ge (x + 1-x)^2 = 1`,
    so Lemma 12 holds with :math:`(e^\epsilon-e^{-\epsilon})^2(p-q)^2/4` and Theorem 1's constant is 4 times
    larger. (A remark of this book, not a statement of the paper.)
    """
    return 4.0 * lower_bound_constant(means, epsilon)


def lai_robbins_constant(means) -> float:
    r"""Lai and Robbins (1985) for Bernoulli arms, no privacy: :math:`\sum_{a:\Delta_a>0}\Delta_a/D(\mathrm{Ber}(\mu_a)\|\mathrm{Ber}(\mu^*))`.

    A lower bound on :math:`\liminf R(T)/\log T` for every consistent policy, private or not, so an ε-LDP
    lower bound is informative only where it exceeds this.
    """
    means = check_probability_vector("means", means)
    best = means.max()
    sub = means[means < best]
    if sub.size == 0:
        raise ValueError(f"means must contain at least one suboptimal arm, got {means!r}")
    return float(np.sum((best - sub) / kl_bernoulli(sub, np.full_like(sub, best))))


def ctb_lai_robbins_constant(means, epsilon) -> float:
    r""":math:`\sum_{a:\Delta_a>0} \Delta_a / D(\mathrm{Ber}(\mu_{a,\epsilon})\|\mathrm{Ber}(\mu^*_\epsilon))`, with
    :math:`\mu_{a,\epsilon}` the CTB output mean of Lemma 5.

    The Lai-Robbins constant of the Bernoulli bandit an agent sees through CTB: the asymptotic
    :math:`R(T)/\log T` of KL-UCB on CTB responses, so an *achievable* constant, which Theorem 1's lower
    bound must not exceed. (For Bernoulli rewards every ε-DP mechanism is a post-processing of CTB, i.e.
    binary randomized response, by the characterization of Kairouz, Oh and Viswanath 2015; so this is also
    the best lower bound of the Lai-Robbins type.)
    """
    from .mechanisms import ctb_output_mean

    eps = check_epsilon(epsilon)
    means = check_probability_vector("means", means)
    best = means.max()
    sub = means[means < best]
    if sub.size == 0:
        raise ValueError(f"means must contain at least one suboptimal arm, got {means!r}")
    m_sub, m_best = ctb_output_mean(sub, eps), float(ctb_output_mean(best, eps))
    return float(np.sum((best - sub) / kl_bernoulli(m_sub, np.full_like(m_sub, m_best))))


def lemma12_bound(p, q, epsilon):
    r"""Lemma 12's right-hand side :math:`(e^\epsilon - e^{-\epsilon})^2 (p-q)^2`."""
    eps = check_epsilon(epsilon)
    return (2.0 * math.sinh(eps)) ** 2 * (np.asarray(p, dtype=float) - np.asarray(q, dtype=float)) ** 2


def fact13_bound(r, R):
    r"""Fact 13 (Dragomir and Gluščević 2001, Lemma 1): if :math:`0 < r \le f_1/g_1 \le R`, then
    :math:`D_{\mathrm{KL}}(f_1\|g_1) \le (R-r)^2/(4rR)`. Broadcasts over arrays."""
    r = np.asarray(r, dtype=float)
    R = np.asarray(R, dtype=float)
    if not (np.isfinite(r).all() and np.isfinite(R).all()) or (r <= 0).any() or (R < r).any():
        raise ValueError(f"need finite 0 < r <= R, got r={r!r}, R={R!r}")
    return (R - r) ** 2 / (4.0 * r * R)


def lemma12_fact13_bound(p, q, epsilon):
    r"""The intermediate bound in the proof of Lemma 12: Fact 13 with
    :math:`R = \frac{pe^\epsilon+1-p}{qe^\epsilon+1-q}`, :math:`r = \frac{pe^{-\epsilon}+1-p}{qe^{-\epsilon}+1-q}`,

    i.e. :math:`D(h_a\|h_b) \le (R-r)^2/(4rR)`, which the proof then relaxes to :func:`lemma12_bound` (the
    relaxation loses at least a factor 4; exactly 4 at :math:`\{p, q\} = \{0, 1\}`). Symmetric in (r, R), so
    valid for p < q too.
    """
    eps = check_epsilon(epsilon)
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    for name, v in (("p", p), ("q", q)):
        if not np.isfinite(v).all() or (v < 0).any() or (v > 1).any():
            raise ValueError(f"{name} must lie in [0, 1], got {v!r}")
    hi, lo = math.exp(eps), math.exp(-eps)
    R = (p * hi + 1 - p) / (q * hi + 1 - q)
    r = (p * lo + 1 - p) / (q * lo + 1 - q)
    return (R - r) ** 2 / (4.0 * r * R)


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


def lemma7_worst_noise(t, *, variance: float = 1.0, z_max: float = 12.0, step: float = 0.01):
    r"""The smallest :math:`\mathbb{E}[s'(t + Z)]` over noise laws Z with mean 0 and variance ``variance``.

    Why it matters for Lemma 7: :math:`\mathbb{E}[s(\lambda+Z)-s(\mu+Z)] = \int_\mu^\lambda \mathbb{E}[s'(t+Z)]\,dt`,
    so the smallest gap ratio :math:`\mathbb{E}[s(X)-s(Y)]/(\lambda-\mu)` over :math:`0\le\mu<\lambda\le1`
    and over a class of noises is :math:`\min_{t\in[0,1]}\inf_Z \mathbb{E}[s'(t+Z)]`: the best constant
    :math:`c_s` the lemma could state for that class. Here
    :math:`s'(x) = e^{-x}/(1+e^{-x})^2`.

    Computed as a linear program over the laws supported on the grid
    :math:`\{-z_{\max}, -z_{\max}+\text{step}, \dots, z_{\max}\}` (an optimum has at most three atoms,
    one per moment constraint). Every such law is bounded, hence sub-Gaussian, so the value is an upper
    bound on the infimum over sub-Gaussian noises with that variance, and tight up to the grid (refining
    the step from 0.01 to 0.002 moves it by about 1e-6).

    Returns ``(value, atoms, probs)``: the minimum and the minimizing law (atoms with mass > 1e-9).
    """
    from scipy.optimize import linprog

    t = check_real("t", t)
    var = check_real("variance", variance)
    z_max = check_real("z_max", z_max)
    step = check_real("step", step)
    if var <= 0:
        raise ValueError(f"variance must be > 0, got {variance!r}")
    if not 0 < step < z_max or z_max * z_max <= var:
        raise ValueError(f"need 0 < step < z_max and z_max^2 > variance, got step={step!r}, z_max={z_max!r}")
    z = np.linspace(-z_max, z_max, int(round(2 * z_max / step)) + 1)
    cost = 0.25 / np.cosh((t + z) / 2) ** 2          # s'(x) = 1/(4 cosh^2(x/2))
    res = linprog(cost, A_eq=np.vstack([np.ones_like(z), z, z * z]), b_eq=[1.0, 0.0, var],
                  bounds=(0, None), method="highs")
    if res.status != 0:
        raise RuntimeError(f"linear program failed: {res.message}")
    keep = res.x > 1e-9
    return float(res.fun), z[keep], res.x[keep] / res.x[keep].sum()


def lemma7_chebyshev_constant() -> tuple[float, float]:
    r"""A constant for Lemma 7 from Chebyshev's inequality alone (no sub-Gaussian tail; a remark of this book).

    For :math:`t\in[0,1]` and :math:`|z|\le c`, :math:`s'(t+z) \ge s'(1+c)`; and
    :math:`P\{|Z|\le c\} \ge 1 - 1/c^2` for any Z with mean 0 and variance at most 1. So
    :math:`\mathbb{E}[s(X)-s(Y)]/(\lambda-\mu) \ge \max_{c>1} (1-1/c^2)\, s'(1+c)`. Returns (argmax c, value).
    """
    f = lambda c: (1 - 1 / (c * c)) * 0.25 / math.cosh((1 + c) / 2) ** 2
    res = optimize.minimize_scalar(lambda c: -f(c), bounds=(1.0, 10.0), method="bounded", options={"xatol": 1e-12})
    return float(res.x), float(-res.fun)


def c_s_subgaussian() -> float:
    """Lemma 7's universal constant for sub-Gaussian noise, computed: sup value / e (paper: 0.0765/e)."""
    return lemma7_subgaussian_sup()[1] / math.e


def c_s_gaussian() -> float:
    """Lemma 7's constant for standard Gaussian noise, computed: integral / e (paper: 0.2066/e)."""
    return lemma7_gaussian_integral() / math.e
