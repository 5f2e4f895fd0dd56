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
:func:`heldp_quantities`               heterogeneous setting: :math:`p_0, \alpha_0, \beta_0, \epsilon_{\max}, Q_L, Q_B` (Thms 7, 10)
:func:`heldp_ucb_l_regret_bound`       HeLDP paper, Theorem 7 (inf over κ: :func:`heldp_ucb_l_best_kappa`)
:func:`heldp_ucb_b_regret_bound`       HeLDP paper, Theorem 10 (inf over κ: :func:`heldp_ucb_b_best_kappa`)
:func:`heldp_ucb_l_homogeneous_bound`  HeLDP paper, Corollary 8: :math:`\sum 8(1+4/\epsilon)^2\log T/\Delta_a + (3+2\pi^2/3)\Delta_a`
:func:`heldp_ucb_b_homogeneous_bound`  HeLDP paper, Corollary 11: :math:`\sum 8\beta(\epsilon)\log T/\Delta_a + (2+\pi^2/3)\Delta_a`
:func:`v_l`, :func:`v_b`               HeLDP paper, Section 4.2: :math:`V_L`, :math:`V_B`
:func:`choose_epsilon_min`             HeLDP paper, Section 4.2: ε_min minimizing :math:`V_L` or :math:`V_B`
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
    return float(heldp_beta(check_epsilon(epsilon)))


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


# ---------------------------------------------------------------------------------------------------
# The heterogeneous setting (Ren et al., extended version: Theorems 7 and 10, Corollaries 8 and 11,
# Section 4.2). Every function takes a PrivacyLevels object ``levels`` (the law F of the users' eps_t)
# and the threshold ``epsilon_min`` below which the agents discard responses.
# ---------------------------------------------------------------------------------------------------
from dataclasses import dataclass  # noqa: E402


def heldp_alpha(epsilon):
    r""":math:`\alpha(\epsilon) = \epsilon^{-2}` (Section 3.1, before Theorem 7). Broadcasts."""
    eps = np.asarray(epsilon, dtype=float)
    return 1.0 / (eps * eps)


def heldp_beta(epsilon):
    r""":math:`\beta(\epsilon) = ((e^\epsilon+1)/(e^\epsilon-1))^2 = \coth^2(\epsilon/2)` (Section 3.2,
    before Theorem 10), computed as :math:`1/\tanh^2(\epsilon/2)`, which cannot overflow. Broadcasts."""
    from .mechanisms import bernoulli_scale

    # the curator's own coth(eps/2) (pure-Python form, so any array shape broadcasts), squared
    return bernoulli_scale.py_func(np.asarray(epsilon, dtype=float)) ** 2


def _check_levels(levels):
    from .instances import PrivacyLevels

    if not isinstance(levels, PrivacyLevels):
        raise TypeError(f"levels must be a PrivacyLevels object (ldpcode.make_privacy_levels), got {levels!r}")
    return levels


def _kept_share(levels, epsilon_min):
    """(levels, eps_min, p_0) after validation; p_0 = 0 is refused."""
    levels = _check_levels(levels)
    eps_min = check_epsilon(epsilon_min, "epsilon_min")
    p0 = levels.p_at_least(eps_min)
    if not p0 > 0:
        raise ValueError(f"epsilon_min must be a level some users reach (p_0 = P{{eps_t >= epsilon_min}} > 0); "
                         f"got epsilon_min={eps_min!r}, for which p_0 = {p0!r} under {levels.name!r} "
                         f"(eps_max = {levels.sup:g})")
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
        epsilon_min=eps_min, p0=float(p0), alpha0=float(alpha0), beta0=float(beta0), epsilon_max=eps_max,
        q_l=float(heldp_alpha(eps_min) - heldp_alpha(eps_max)), q_b=float(heldp_beta(eps_min) - heldp_beta(eps_max)))


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
        raise ValueError(f"the bound of Theorem {7 if mechanism == 'L' else 10} needs p_0 T > 1 (else its kappa "
                         f"term is unbounded below); got p_0 = {q.p0:g}, horizon = {horizon!r}")
    return gaps, log_t, q


def _heldp_l_value(gaps, log_t, q, kappa):
    # Theorem 7, per arm a with Delta_a > 0:
    #   max{8/(p0 D) (1+4 sqrt(a0 + k Q_L))^2 log T, 2D/(p0 a0^2) (4 a0 e_min^-2 + e_min^-4) log T}
    #   + D/(2 p0 k^2) log(p0 T exp{2 k^2}) + 2D/p0 + 2 pi^2 D/3,
    # with log(p0 T exp{2k^2}) = log(p0 T) + 2k^2 (so the kappa term is D log(p0 T)/(2 p0 k^2) + D/p0).
    p0, a0, e2 = q.p0, q.alpha0, 1.0 / q.epsilon_min ** 2
    if math.isinf(kappa):
        if q.q_l > 0:
            return math.inf
        lead = 8.0 / (p0 * gaps) * (1 + 4 * math.sqrt(a0)) ** 2 * log_t
        kappa_term = gaps / p0
    else:
        lead = 8.0 / (p0 * gaps) * (1 + 4 * math.sqrt(a0 + kappa * q.q_l)) ** 2 * log_t
        kappa_term = gaps * (log_t + math.log(p0)) / (2 * p0 * kappa ** 2) + gaps / p0
    second = 2.0 * gaps / (p0 * a0 ** 2) * (4 * a0 * e2 + e2 * e2) * log_t
    return float(np.sum(np.maximum(lead, second) + kappa_term + 2 * gaps / p0 + 2 * math.pi ** 2 * gaps / 3))


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
        kappa_term = gaps * (log_t + math.log(p0)) / (2 * p0 * kappa ** 2) + gaps
    return float(np.sum(lead + kappa_term + gaps / p0 + math.pi ** 2 * gaps / 3))


def _inf_over_kappa(value, q_gap):
    r"""(kappa*, inf_kappa value(kappa)): a grid over log kappa in [-20, 20] refined by a bounded scalar
    search, and the limit kappa -> infinity (finite only when the Q term vanishes)."""
    grid = np.linspace(-20.0, 20.0, 401)
    vals = np.array([value(math.exp(x)) for x in grid])
    i = int(np.argmin(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    res = optimize.minimize_scalar(lambda x: value(math.exp(x)), bounds=(lo, hi), method="bounded",
                                   options={"xatol": 1e-10})
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

    .. math:: \inf_{\kappa>0}\sum_{a:\Delta_a>0}\Big[\max\Big\{\frac{8}{p_0\Delta_a}(1+4\sqrt{\alpha_0+\kappa Q_L})^2\log T,\;
              \frac{2\Delta_a}{p_0\alpha_0^2}(4\alpha_0\epsilon_{\min}^{-2}+\epsilon_{\min}^{-4})\log T\Big\}
              + \frac{\Delta_a}{2p_0\kappa^2}\log(p_0Te^{2\kappa^2}) + \frac{2\Delta_a}{p_0} + \frac{2\pi^2\Delta_a}{3}\Big]

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
    return _regret_bound(means, horizon, laplace_ratio(epsilon), 3.0 + 2 * math.pi ** 2 / 3)


def heldp_ucb_b_homogeneous_bound(means, horizon, epsilon) -> float:
    r"""Corollary 11 (ε_t ≡ ε = ε_min): :math:`\sum_{a:\Delta_a>0}[8((e^\epsilon+1)/(e^\epsilon-1))^2\log T/\Delta_a + (2+\pi^2/3)\Delta_a]`
    (equal to Theorem 10's limit κ → ∞ with :math:`p_0=1`, :math:`Q_B=0`)."""
    return _regret_bound(means, horizon, bernoulli_ratio(epsilon), 2.0 + math.pi ** 2 / 3)


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
    return float(levels.expect(f, eps_min) / p0 ** 2)


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
        cand = np.atleast_1d(np.asarray(candidates, dtype=float))
        if cand.ndim != 1 or cand.size == 0:
            raise ValueError(f"candidates must be a non-empty 1-d sequence of epsilon_min values, got {candidates!r}")
        for c in cand:
            check_epsilon(float(c), "candidates[i] (an epsilon_min)")
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
        res = optimize.minimize_scalar(lambda c: value(c), bounds=(lo, hi), method="bounded",
                                       options={"xatol": 1e-6 * max(1.0, hi)})
        if res.fun < best_v:
            best_c, best_v = float(res.x), float(res.fun)
            kept.append(best_c)
            vals.append(best_v)
    return EpsilonMinChoice(epsilon_min=best_c, mechanism=mech, value=best_v, candidates=tuple(kept),
                            values=tuple(vals))
