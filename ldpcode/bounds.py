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
:func:`gdp_minimax_lower_bound`        Azize-Basu 2022 (global DP), Thm 2: :math:`\max\{\sqrt{T(K-1)}/27, (K-1)/(131\epsilon)\}`
:func:`gdp_minimax_threshold`          Thm 2's crossing :math:`\frac{27}{131}\sqrt{(K-1)/T}` (the paper prints 131/27)
:func:`gdp_lower_bound_constant`       Azize-Basu, Thm 3: :math:`\sum\Delta_a/\min\{d_{\inf}, 6\epsilon t_{\inf}\}` (per arm: :func:`gdp_lower_bound_terms`)
:func:`linear_minimax_lower_bound`     Azize-Basu, Thm 4: :math:`\max\{e^{-2}d\sqrt T/8, e^{-6}d/(4\epsilon)\}` (crossing: :func:`linear_minimax_threshold`)
:func:`linear_c_epsilon`               Azize-Basu, Thm 5: the program :math:`c_\epsilon(\mathcal A,\theta)` (ε = ∞: :func:`linear_graves_lai_constant`)
:func:`adap_ucb_regret_bound`          Azize-Basu, Thm 7: :math:`\sum 16\alpha\log T/\min\{\Delta_a,\epsilon\} + 3\alpha/(\alpha-3)`
:func:`adap_klucb_regret_bound`        Azize-Basu, Thm 8, with its unknown :math:`C_1(\alpha), C_2` given by the caller
:func:`gdp_minimax_upper_rate`         Azize-Basu, after Thm 8: :math:`\sqrt{KT\log T} + K\log T/\epsilon` (a rate)
:func:`dp_ucb_rate`, :func:`dp_se_rate`  Azize-Basu, Table 1: DP-UCB and DP-SE regret rates (constant 1)
:func:`adap_ucb_rate`                  Azize-Basu, Table 1: :math:`\sum\Delta_a\log T/\min\{\Delta_a^2,\epsilon\Delta_a\}` (a rate)
:func:`adap_klucb_rate`                Azize-Basu, Table 1: :math:`\sum\Delta_a\log T/\min\{d(\mu_a,\mu^*),\epsilon\Delta_a\}` (a rate)
=====================================  ===========================================================
"""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate, optimize

from ._validate import as_float_array, check_array, check_epsilon, check_int, check_probability_vector, check_real
from .divergences import kl_bernoulli


def _gaps(means) -> np.ndarray:
    means = as_float_array("means", means, bools=False)
    if means.ndim != 1 or means.size < 2 or not np.isfinite(means).all():
        raise ValueError(f"means must be a 1-d sequence of at least 2 finite numbers, got {means!r}")
    gaps = means.max() - means
    return gaps[gaps > 0]


def _log_horizon(horizon) -> float:
    return math.log(check_int("horizon", horizon, minimum=2))


# Large epsilon. Every formula below is evaluated as it always was wherever it is finite (so stored numbers keep
# their bits); only where a term would overflow (e^eps beyond eps = 709.78, a square beyond 1.3e154: Python
# raises OverflowError on both) is an equal, overflow-free form used. Bounds then take their limits as eps grows
# (a lower-bound constant tends to 0, an upper-bound factor to its non-private value) instead of raising.


def _square(x: float) -> float:
    """x ** 2, or inf where it overflows a double (Python's ** raises OverflowError there)."""
    return x**2 if abs(x) < 1e150 else math.inf


def _inv_two_sinh_squared(eps: float) -> float:
    r""":math:`(e^\epsilon - e^{-\epsilon})^{-2} = (2\sinh\epsilon)^{-2}`; for ε > 350 as the equal
    :math:`e^{-2\epsilon}/(1 - e^{-2\epsilon})^2`, which underflows towards 0 instead of raising."""
    if eps <= 350.0:
        return 1.0 / (2.0 * math.sinh(eps)) ** 2
    return math.exp(-2.0 * eps) / (-math.expm1(-2.0 * eps)) ** 2


def laplace_ratio(epsilon) -> float:
    r"""The privacy cost factor of LDP-UCB-L over UCB1: :math:`(1 + 4/\epsilon)^2` (Theorem 4, Remark i)."""
    return (1.0 + 4.0 / check_epsilon(epsilon)) ** 2


def bernoulli_ratio(epsilon) -> float:
    r"""The privacy cost factor of LDP-UCB-B over UCB1: :math:`((e^\epsilon+1)/(e^\epsilon-1))^2` (Thm 6)."""
    return float(heldp_beta(check_epsilon(epsilon)))


def lower_bound_constant(means, epsilon) -> float:
    r"""Theorem 1: :math:`(e^\epsilon - e^{-\epsilon})^{-2} \sum_{a:\Delta_a>0} 1/\Delta_a` (Bernoulli arms)."""
    eps = check_epsilon(epsilon)
    if eps <= 350.0:
        return float(np.sum(1.0 / _gaps(means)) / (2.0 * math.sinh(eps)) ** 2)
    return float(np.sum(1.0 / _gaps(means)) * _inv_two_sinh_squared(eps))


def basu2019_lower_bound_constant(means, epsilon) -> float:
    r"""The ε-LDP lower bound of Basu, Dimitrakakis and Tossou (2019) on Bernoulli arms,

    .. math:: \liminf_T \frac{R(T)}{\log T} \ge \sum_{a:\Delta_a>0}
              \frac{\Delta_a}{2\min\{4, e^{2\epsilon}\}(e^\epsilon-1)^2\,D(\mathrm{Ber}(\mu_a)\|\mathrm{Ber}(\mu^*))},

    the KL-based bound that Ren et al. say Theorem 1 improves on (Section 2).
    """
    eps = check_epsilon(epsilon)
    means = check_probability_vector("means", means)
    if means.size < 2:
        raise ValueError(f"means must hold at least 2 arms, got {means.tolist()}")
    best = means.max()
    sub = means[means < best]
    if sub.size == 0:
        return 0.0  # no suboptimal arm: no regret to bound (as lower_bound_constant)
    kl = kl_bernoulli(sub, np.full_like(sub, best))
    cap = min(4.0, math.exp(2 * eps)) if eps < 1.0 else 4.0  # e^{2 eps} > 7 from eps = 1 on
    growth = _square(math.expm1(eps)) if eps < 700.0 else math.inf  # (e^eps - 1)^2; its inverse -> 0
    with np.errstate(divide="ignore"):
        return float(np.sum((best - sub) / (2.0 * cap * growth * kl)))


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
    p, q = check_array("p", p, low=0, high=1), check_array("q", q, low=0, high=1)
    if eps <= 350.0:
        return (2.0 * math.sinh(eps)) ** 2 * (p - q) ** 2
    # (2 sinh eps)^2 overflows a double: the bound is +inf (a true, if empty, upper bound) unless p = q
    return np.where(p == q, 0.0, np.inf)


def fact13_bound(r, R):
    r"""Fact 13 (Dragomir and Gluščević 2001, Lemma 1): if :math:`0 < r \le f_1/g_1 \le R`, then
    :math:`D_{\mathrm{KL}}(f_1\|g_1) \le (R-r)^2/(4rR)`. Broadcasts over arrays."""
    r = as_float_array("r", r, bools=False)
    R = as_float_array("R", R, bools=False)
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
    p = as_float_array("p", p, bools=False)
    q = as_float_array("q", q, bools=False)
    for name, v in (("p", p), ("q", q)):
        if not np.isfinite(v).all() or (v < 0).any() or (v > 1).any():
            raise ValueError(f"{name} must lie in [0, 1], got {v!r}")
    # (R - r)^2/(4rR) = sinh^2(log(R/r)/2), with log R = log(p + (1-p)e^-eps) - log(q + (1-q)e^-eps) and
    # log r = log(p e^-eps + 1-p) - log(q e^-eps + 1-q) as log-sum-exps: no e^eps to overflow, and no
    # q e^-eps + 1 - q to cancel (at q = 1 and eps > 37 that sum rounded to 0 and the bound was nan)
    with np.errstate(divide="ignore"):
        lp, lq, l1p, l1q = np.log(p), np.log(q), np.log1p(-p), np.log1p(-q)
    log_ratio = (
        np.logaddexp(lp, l1p - eps)
        - np.logaddexp(lq, l1q - eps)
        - np.logaddexp(lp - eps, l1p)
        + np.logaddexp(lq - eps, l1q)
    )
    with np.errstate(over="ignore"):  # sinh^2(eps) ~ e^{2 eps}/4 is beyond a double from eps = 355: inf
        return np.sinh(log_ratio / 2.0) ** 2


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
    lam = check_array("lam", lam)
    valid = (lam > 0) & (lam < 2 * math.sqrt(2) * v * v / b)
    return np.where(valid, np.exp(-(lam**2) / (8 * v * v)), np.nan)


def _regret_bound(means, horizon, factor, const):
    gaps = _gaps(means)
    return float(np.sum(8.0 * factor * _log_horizon(horizon) / gaps + const * gaps))


def ucb1_regret_bound(means, horizon) -> float:
    r"""Auer, Cesa-Bianchi, Fischer (2002), Theorem 1: :math:`\sum 8\log T/\Delta_a + (1+\pi^2/3)\Delta_a`."""
    return _regret_bound(means, horizon, 1.0, 1.0 + math.pi**2 / 3)


def ldp_ucb_l_regret_bound(means, horizon, epsilon, c_s: float = 1.0) -> float:
    r"""Theorem 4: :math:`\sum [8(1+4/\epsilon)^2\log T/\Delta_a + (1 + 2\pi^2/3)\Delta_a]`.

    With ``c_s`` < 1 the whole bound is divided by :math:`c_s^2`: Corollary 10 (LDP-UCB-LS).
    """
    c_s = check_real("c_s", c_s)
    if not 0 < c_s <= 1:
        raise ValueError(f"c_s must be in (0, 1], got {c_s!r}")
    return _regret_bound(means, horizon, laplace_ratio(epsilon), 1.0 + 2 * math.pi**2 / 3) / c_s**2


def ldp_ucb_b_regret_bound(means, horizon, epsilon, c_s: float = 1.0) -> float:
    r"""Theorem 6: :math:`\sum [8((e^\epsilon+1)/(e^\epsilon-1))^2\log T/\Delta_a + (1+\pi^2/3)\Delta_a]`.

    With ``c_s`` < 1 the whole bound is divided by :math:`c_s^2`: Corollary 11 (LDP-UCB-BS).
    """
    c_s = check_real("c_s", c_s)
    if not 0 < c_s <= 1:
        raise ValueError(f"c_s must be in (0, 1], got {c_s!r}")
    return _regret_bound(means, horizon, bernoulli_ratio(epsilon), 1.0 + math.pi**2 / 3) / c_s**2


def ldp_ucb_l_pulls_bound(gap, horizon, epsilon):
    r"""Proof of Theorem 4: :math:`E[N_a(T)] \le 8(1+4/\epsilon)^2\log T/\Delta_a^2 + 1 + 2\pi^2/3`."""
    gap = check_array("gap", gap, low=0, low_open=True)
    return 8 * laplace_ratio(epsilon) * _log_horizon(horizon) / gap**2 + 1 + 2 * math.pi**2 / 3


def ldp_ucb_b_pulls_bound(gap, horizon, epsilon):
    r"""Proof of Theorem 6: :math:`E[N_a(T)] \le 8\log T/\Delta_{a,\epsilon}^2 + 1 + \pi^2/3`,
    :math:`\Delta_{a,\epsilon} = \Delta_a (e^\epsilon-1)/(e^\epsilon+1)`."""
    gap = check_array("gap", gap, low=0, low_open=True)
    return 8 * bernoulli_ratio(epsilon) * _log_horizon(horizon) / gap**2 + 1 + math.pi**2 / 3


def distribution_free_rate(n_arms, horizon, epsilon) -> float:
    r""":math:`\epsilon^{-1}\sqrt{nT\log T}`: the distribution-free order of Theorems 4 and 6.

    The paper gives no constant; this is the rate with constant 1, for drawing slopes.
    """
    n = check_int("n_arms", n_arms, minimum=1)
    log_t = _log_horizon(horizon)
    return math.sqrt(n * int(horizon) * log_t) / check_epsilon(epsilon)


def _v(a):
    r"""Lemma 7's :math:`v_a`: the positive root of :math:`e^{-x}/(1+e^{-x})^2 = a`, for a in (0, 1/4)."""
    return math.log(1 / (2 * a) - 1 + math.sqrt(1 / (4 * a * a) - 1 / a))


def lemma7_subgaussian_objective(a):
    r""":math:`a(1 - 2e^{-v_a^2/2})`, the quantity Lemma 7 maximizes over :math:`a \in (0, 1/4)`."""
    return a * (1 - 2 * math.exp(-(_v(a) ** 2) / 2))


def lemma7_subgaussian_sup() -> tuple[float, float]:
    """(argmax a, max value) of :func:`lemma7_subgaussian_objective` (the paper: a = 0.107, 0.0765)."""
    res = optimize.minimize_scalar(
        lambda a: -lemma7_subgaussian_objective(a),
        bounds=(1e-6, 0.25 - 1e-9),
        method="bounded",
        options={"xatol": 1e-12},
    )
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
    cost = 0.25 / np.cosh((t + z) / 2) ** 2  # s'(x) = 1/(4 cosh^2(x/2))
    res = linprog(
        cost, A_eq=np.vstack([np.ones_like(z), z, z * z]), b_eq=[1.0, 0.0, var], bounds=(0, None), method="highs"
    )
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
    eps = check_array("epsilon", epsilon, low=0)
    with np.errstate(divide="ignore", over="ignore"):  # alpha(0) = inf; beyond 1e154, eps^2 = inf and alpha = 0
        return 1.0 / (eps * eps)


def heldp_beta(epsilon):
    r""":math:`\beta(\epsilon) = ((e^\epsilon+1)/(e^\epsilon-1))^2 = \coth^2(\epsilon/2)` (Section 3.2,
    before Theorem 10), computed as :math:`1/\tanh^2(\epsilon/2)`, which cannot overflow. Broadcasts."""
    from .mechanisms import bernoulli_scale

    # the curator's own coth(eps/2) (pure-Python form, so any array shape broadcasts), squared
    return bernoulli_scale.py_func(check_array("epsilon", epsilon, low=0)) ** 2


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
        lead = 8.0 / (p0 * gaps) * (1 + 4 * math.sqrt(a0 + kappa * q.q_l)) ** 2 * log_t
        kappa_term = gaps * (log_t + math.log(p0)) / (2 * p0 * kappa**2) + gaps / p0
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
        kappa_term = gaps * (log_t + math.log(p0)) / (2 * p0 * kappa**2) + gaps
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


# ===================================================================================================
# Azize and Basu (2022): epsilon-global DP
# ===================================================================================================
# "When Privacy Meets Partial Information: A Refined Analysis of Differentially Private Bandits",
# NeurIPS 2022. Lower bounds (Theorems 2-5, Table 2), upper bounds of AdaP-UCB / AdaP-KLUCB (Theorems 7,
# 8) and the regret rates of Table 1. Conventions of this section:
#   * epsilon is a finite number > 0 (check_epsilon); only linear_c_epsilon also accepts math.inf (no privacy);
#   * horizon is an integer >= 1 (Theorem 2: >= K - 1); logs are natural;
#   * means of bounded or Bernoulli arms lie in [0, 1]; Gaussian means are any finite numbers;
#   * a sum over the suboptimal arms that would be empty (all means equal) raises ValueError: every
#     statement here is about instances with a suboptimal arm (Theorem 5 even asks for a unique optimum),
#     and an all-equal ``means`` is far more often a typo than an intended zero.
import numbers as _numbers  # noqa: E402
from dataclasses import field as _field  # noqa: E402

from scipy import linalg as _linalg  # noqa: E402

from ._validate import check_choice as _check_choice  # noqa: E402
from .divergences import d_inf_bernoulli, d_inf_gaussian, t_inf_bernoulli, t_inf_gaussian  # noqa: E402


def _gdp_log_horizon(horizon, minimum: int = 1) -> float:
    return math.log(check_int("horizon", horizon, minimum=minimum))


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
    k = check_int("n_arms", n_arms, minimum=2)
    t = check_int("horizon", horizon, minimum=max(1, k - 1))
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
    k = check_int("n_arms", n_arms, minimum=2)
    t = check_int("horizon", horizon, minimum=max(1, k - 1))
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
        if variance != "known" or sig is None or not np.all(sig == 1.0):
            raise ValueError(
                f"sigma and variance apply to family='gaussian' only; for 'bernoulli' leave them at "
                f"their defaults, got sigma={sigma!r}, variance={variance!r}"
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
                f"sigma must be one standard deviation > 0 or one per arm ({means.size}), got {sigma!r}"
            ) from exc
        if not (np.isfinite(sig).all() and (sig > 0).all()):
            raise ValueError(f"sigma must be finite and > 0 (a standard deviation), got {sigma!r}")
        d = np.asarray(d_inf_gaussian(means[idx], best, sig[idx], variance), dtype=float).reshape(-1)
        t = np.asarray(t_inf_gaussian(means[idx], best, sig[idx], variance), dtype=float).reshape(-1)
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


def linear_minimax_lower_bound(horizon, dim, epsilon) -> float:
    r"""Theorem 4 (Azize and Basu 2022), eq. (5): for :math:`\mathcal A = [-1,1]^d`, :math:`\Theta=\mathbb R^d`
    and unit Gaussian noise, every ε-global-DP policy has

    .. math:: \mathrm{Reg}^{\mathrm{minimax}}_T \ge \max\Big\{\frac{e^{-2}}{8}d\sqrt T,\; \frac{e^{-6}}{4}\frac d\epsilon\Big\}.
    """
    t = check_int("horizon", horizon, minimum=1)
    d = check_int("dim", dim, minimum=1)
    eps = check_epsilon(epsilon)
    return max(math.exp(-2) / 8.0 * d * math.sqrt(t), math.exp(-6) / 4.0 * d / eps)


def linear_minimax_threshold(horizon) -> float:
    r"""The regime threshold of Theorem 4 given in the Remarks after Theorem 5: :math:`\epsilon = 2e^{-4}/\sqrt T`.

    It is exactly where the two terms of :func:`linear_minimax_lower_bound` are equal, for every d:
    :math:`\frac{e^{-2}}{8}d\sqrt T = \frac{e^{-6}}{4}\frac d\epsilon \iff \epsilon = \frac{8e^{-6}}{4e^{-2}\sqrt T}
    = \frac{2e^{-4}}{\sqrt T}` (d cancels). Below it the private term dominates.
    """
    return 2.0 * math.exp(-4) / math.sqrt(check_int("horizon", horizon, minimum=1))


@dataclass(frozen=True, eq=False)
class LinearCEpsilon:
    r"""The solution of Theorem 5's program (:func:`linear_c_epsilon`).

    ``value`` is :math:`c_\epsilon(\mathcal A,\theta)`; ``alpha`` the optimal allocation per action (``inf`` at
    the optimal action, see :func:`linear_c_epsilon`); ``gaps`` :math:`\Delta_a`; ``bounds`` the right-hand
    sides :math:`\min\{\Delta_a^2/2, 3\epsilon\rho\Delta_a\}` (``nan`` at the optimal action); ``norms``
    :math:`\|a\|^2_{H_\alpha^{-1}}` at the solution; ``regime`` per action: ``"optimal"``, ``"non-private"``
    (:math:`\Delta_a^2/2` is the smaller bound) or ``"private"`` (:math:`3\epsilon\rho\Delta_a` is);
    ``tight`` whether the constraint holds with equality (relative 1e-6) at the solution; ``dual_bound`` a
    certified lower bound on ``value`` from a dual-feasible point (``value - dual_bound`` bounds the error).
    """

    value: float
    alpha: np.ndarray
    gaps: np.ndarray
    bounds: np.ndarray
    norms: np.ndarray
    regime: tuple
    tight: np.ndarray
    dual_bound: float
    optimal_index: int
    epsilon: float
    rho: float


def _check_epsilon_or_inf(epsilon) -> float:
    if isinstance(epsilon, _numbers.Real) and not isinstance(epsilon, bool) and float(epsilon) == math.inf:
        return math.inf
    return check_epsilon(epsilon, "epsilon (finite > 0, or math.inf for no privacy)")


def _check_linear_instance(actions, theta):
    A = as_float_array("actions", actions, bools=False)
    th = as_float_array("theta", theta, bools=False)
    if A.ndim != 2 or A.shape[0] < 2 or A.shape[1] < 1:
        raise ValueError(f"actions must be a 2-d array of at least 2 actions (one per row), got shape {A.shape}")
    if not np.isfinite(A).all():
        raise ValueError("actions must contain only finite numbers")
    n, d = A.shape
    if th.shape != (d,) or not np.isfinite(th).all():
        raise ValueError(f"theta must be a finite vector of length d = {d}, got {theta!r}")
    if np.linalg.matrix_rank(A) < d:
        raise ValueError(f"actions must span R^d (d = {d}); their rank is {np.linalg.matrix_rank(A)}")
    values = A @ th
    best = float(values.max())
    tol = 1e-12 * max(1.0, float(np.abs(values).max()))
    opt = np.flatnonzero(values >= best - tol)
    if opt.size != 1:
        raise ValueError(
            f"theta must have a unique optimal action (Theorem 5); actions {opt.tolist()} tie at <a, theta> = {best!r}"
        )
    gaps = np.where(values >= best - tol, 0.0, best - values)
    return A, th, int(opt[0]), gaps


def _c_eps_norms(Z, alpha, ridge=0.0):
    """(g, M): g_a = z_a^T H^{-1} z_a and M_ab = (z_a^T H^{-1} z_b)^2, H = sum alpha_b z_b z_b^T (+ ridge I)."""
    H = Z.T @ (alpha[:, None] * Z)
    if ridge:
        H = H + ridge * np.eye(H.shape[0])
    G = Z @ np.linalg.solve(H, Z.T)
    return np.diag(G).copy(), G * G


def _c_eps_to_boundary(Z, b, alpha):
    """Scale alpha onto the feasible set: the constraints are homogeneous of degree -1 in alpha."""
    g, _ = _c_eps_norms(Z, alpha)
    s = float(np.max(g / b))
    if not (np.isfinite(s) and s > 0):
        raise np.linalg.LinAlgError("singular H")
    return alpha * s


def _c_eps_solve(Z, gaps, b):
    r"""Minimise :math:`\sum_c\alpha_c\Delta_c` s.t. :math:`g_a(\alpha) = z_a^\top H_\alpha^{-1}z_a \le b_a`, α >= 0
    (rows :math:`z_a` of Z span :math:`\mathbb R^m`). A convex program (linear cost; :math:`g_a` is convex in α since
    the matrix inverse is operator convex), solved by a log-barrier interior-point method with exact Newton steps
    (Boyd and Vandenberghe, Convex Optimization, Section 11.3), using
    :math:`\partial g_a/\partial\alpha_c = -G_{ac}^2` and :math:`\partial^2 g_a/\partial\alpha_c\partial\alpha_e =
    2G_{ac}G_{ce}G_{ea}`, :math:`G = ZH_\alpha^{-1}Z^\top`. Stops when the barrier's gap bound 2n/t is below 1e-9
    of the cost; the result is then scaled onto the exact feasible set, and entries below 1e-9 of the largest set
    to 0 when that costs nothing. Returns (alpha, value, dual bound from :func:`_c_eps_dual`)."""
    n = Z.shape[0]
    a0 = 2.0 * _c_eps_to_boundary(Z, b, 1.0 / b)  # strictly feasible: g = b/2 at the largest
    unit = float(a0.mean())
    bb = b * unit  # g(alpha) = g(y)/unit for alpha = unit * y
    y = a0 / unit
    c = gaps / float(np.dot(gaps, y))  # cost normalised to 1 at the start

    def state(y):
        G = Z @ np.linalg.solve(Z.T @ (y[:, None] * Z), Z.T)
        return G, bb - np.diag(G)

    def phi(t, y, s):
        return t * float(np.dot(c, y)) - float(np.sum(np.log(s))) - float(np.sum(np.log(y)))

    t = 2.0 * n
    G, s = state(y)
    for _outer in range(60):
        for _newton in range(200):
            M = G * G
            grad = t * c - M.T @ (1.0 / s) - 1.0 / y
            hess = M.T @ (M / (s * s)[:, None]) + 2.0 * G * (G.T @ (G / s[:, None])) + np.diag(1.0 / (y * y))
            try:
                step = -np.linalg.solve(hess, grad)
            except np.linalg.LinAlgError:  # pragma: no cover
                step = -grad / np.diag(hess)
            dec = -float(np.dot(grad, step))
            if dec <= 1e-8:  # centred enough: the barrier's own gap bound dominates
                break
            f0, tau = phi(t, y, s), 1.0
            neg = step < 0
            if neg.any():
                tau = min(1.0, 0.99 * float(np.min(-y[neg] / step[neg])))
            while tau > 1e-8:
                y_new = y + tau * step
                G_new, s_new = state(y_new)
                if (s_new > 0).all() and phi(t, y_new, s_new) <= f0 - 0.25 * tau * dec:
                    break
                tau *= 0.5
            else:  # no progress at working precision
                break
            y, G, s = y_new, G_new, s_new
        if 2.0 * n / t < 1e-9 * float(np.dot(c, y)):
            break
        t *= 8.0
    alpha = _c_eps_to_boundary(Z, b, y * unit)
    value = float(np.dot(alpha, gaps))
    small = alpha < 1e-9 * alpha.max()
    if small.any():
        try:
            cleaned = _c_eps_to_boundary(Z, b, np.where(small, 0.0, alpha))
            if float(np.dot(cleaned, gaps)) <= value:
                alpha, value = cleaned, float(np.dot(cleaned, gaps))
        except np.linalg.LinAlgError:
            pass
    return alpha, value, min(_c_eps_dual(Z, gaps, b, alpha), value)


def _c_eps_dual(Z, gaps, b, alpha):
    r"""A certified lower bound on the program's value. For any vectors :math:`v_a` with
    :math:`\sum_a (z_c^\top v_a)^2 \le \Delta_c` for every c, Cauchy-Schwarz gives, for every feasible α',
    :math:`\sum_c\alpha'_c\Delta_c \ge \sum_a v_a^\top H_{\alpha'} v_a \ge \sum_a (v_a^\top z_a)^2/b_a`. With
    :math:`v_a = \sqrt{\lambda_a}H_\alpha^{-1}z_a` at the computed α, the best λ >= 0 solves the LP
    max :math:`\sum_a\lambda_a g_a^2/b_a` s.t. :math:`M^\top\lambda \le \Delta` (tight at the exact optimum, by KKT)."""
    g, M = _c_eps_norms(Z, alpha)
    res = optimize.linprog(-(g * g / b), A_ub=M.T, b_ub=gaps, bounds=[(0, None)] * Z.shape[0], method="highs")
    if res.status != 0:  # pragma: no cover
        return 0.0
    lam = np.maximum(res.x, 0.0)
    kappa = max(1.0, float(np.max((lam @ M) / gaps)))  # guard against solver round-off
    return float(np.sum(lam * g * g / b) / kappa)


def linear_c_epsilon(actions, theta, epsilon, rho=1.0) -> LinearCEpsilon:
    r"""Theorem 5 (Azize and Basu 2022), eq. (6): for a finite action set :math:`\mathcal A` spanning
    :math:`\mathbb R^d` and θ with a unique optimal action, every consistent ε-global-DP policy has
    :math:`\liminf_T \mathrm{Reg}_T/\log T \ge c_\epsilon(\mathcal A,\theta)`, the structural distinguishability gap

    .. math:: c_\epsilon = \inf_{\alpha\in[0,\infty)^{\mathcal A}} \sum_a \alpha(a)\Delta_a \quad\text{s.t.}\quad
              \|a\|^2_{H_\alpha^{-1}} \le \min\{\tfrac12\Delta_a^2,\; 3\epsilon\rho\Delta_a\}\ \ \forall a:\Delta_a>0,
              \qquad H_\alpha = \sum_a \alpha(a)\,aa^\top.

    Readings of this book (the extraction of the paper is incomplete here):

    * the extraction prints :math:`\|a\|_{H_\alpha}`; Table 2 prints :math:`\|a\|_{H_\alpha^{-1}}`, and so does the
      Graves-Lai program the Remarks refer to (Lattimore and Szepesvári 2017). It is the :math:`H_\alpha^{-1}`
      norm (with :math:`H_\alpha` the constraint would push α *down* and the infimum would be 0).
    * :math:`\rho_a(\mathcal A)` ("a structure-dependent constant") is never defined; Table 2 writes one
      :math:`\rho(\mathcal A)`. Here ``rho`` is one constant for all arms, an explicit parameter (default 1).
      :math:`c_\epsilon` depends on ε only through :math:`\epsilon\rho`.
    * ``epsilon=math.inf`` drops the private constraint: the ε-free Graves-Lai constant
      (:func:`linear_graves_lai_constant`). :math:`c_\epsilon` is non-increasing in ε.

    The optimal action :math:`a^*` has :math:`\Delta=0`, so :math:`\alpha(a^*)` costs nothing and, since raising
    it lowers every :math:`\|a\|^2_{H_\alpha^{-1}}`, the infimum is the limit :math:`\alpha(a^*) = M\to\infty`. With
    :math:`H' = \sum_{a\ne a^*}\alpha(a)aa^\top` and :math:`x^\top H^{-1}x = \sup_y\, 2x^\top y - y^\top Hy`, the
    penalty :math:`M(a^{*\top}y)^2` forces :math:`y\perp a^*` in the limit:
    :math:`\|a\|^2_{(H'+Ma^*a^{*\top})^{-1}} \downarrow z_a^\top(Q^\top H'Q)^{-1}z_a`, :math:`z_a = Q^\top a`, Q an
    orthonormal basis of :math:`a^{*\perp}` (when H' is invertible this is :math:`\min_c\|a-c\,a^*\|^2_{H'^{-1}}`).
    So the program is solved in :math:`a^{*\perp}` over the suboptimal arms only, and ``alpha`` is reported as
    ``inf`` at :math:`a^*`; actions parallel to :math:`a^*` get α = 0 (their constraint reads 0 <= b).
    The reduced program (linear cost, convex constraints) is solved by a log-barrier interior-point method with
    exact Newton steps, and the result scaled onto the feasible set (the constraints are homogeneous in α); a
    dual-feasible point gives ``dual_bound`` <= ``value``, a certificate of accuracy (relative gap ~1e-6 or
    better in the tests, where the value also matches closed forms and brute-force grids). Meant for small sets
    (d ≤ 5, |A| ≤ 20: well under a second). Returns a :class:`LinearCEpsilon`.
    """
    A, th, opt, gaps = _check_linear_instance(actions, theta)
    eps = _check_epsilon_or_inf(epsilon)
    rho = check_epsilon(rho, "rho", floor=0.0)
    n, d = A.shape
    sub = np.flatnonzero(np.arange(n) != opt)
    g_sub = gaps[sub]
    b_sub = np.minimum(0.5 * g_sub**2, 3.0 * eps * rho * g_sub)
    Q = _linalg.null_space(A[opt][None, :]) if np.any(A[opt] != 0) else np.eye(d)
    Z = A[sub] @ Q  # coordinates in the complement of a*
    alpha_sub = np.zeros(sub.size)
    norms_sub = np.zeros(sub.size)
    value, dual = 0.0, 0.0
    if Q.shape[1] > 0:
        nz = np.linalg.norm(Z, axis=1) > 1e-12 * max(1.0, float(np.abs(A).max()))
        # arms along a* (z_a = 0) are known once a* is: their constraint reads 0 <= b_a, and they add nothing to H
        Zn, gn, bn = Z[nz], g_sub[nz], b_sub[nz]
        al, value, dual = _c_eps_solve(Zn, gn, bn)
        alpha_sub[nz] = al
        norms_sub[nz] = _c_eps_norms(Zn, al)[0]
    alpha = np.zeros(n)
    alpha[sub] = alpha_sub
    alpha[opt] = math.inf
    bounds_all = np.full(n, np.nan)
    bounds_all[sub] = b_sub
    norms = np.zeros(n)
    norms[sub] = norms_sub
    tight = np.zeros(n, dtype=bool)
    tight[sub] = norms_sub >= b_sub * (1 - 1e-6)
    regime = tuple(
        "optimal" if i == opt else ("private" if 3.0 * eps * rho * gaps[i] < 0.5 * gaps[i] ** 2 else "non-private")
        for i in range(n)
    )
    return LinearCEpsilon(
        value=float(value),
        alpha=alpha,
        gaps=gaps,
        bounds=bounds_all,
        norms=norms,
        regime=regime,
        tight=tight,
        dual_bound=float(dual),
        optimal_index=opt,
        epsilon=eps,
        rho=rho,
    )


def linear_graves_lai_constant(actions, theta) -> LinearCEpsilon:
    r"""The non-private Graves-Lai constant of the linear bandit with unit Gaussian noise (Lattimore and
    Szepesvári 2017): Theorem 5's program with only :math:`\|a\|^2_{H_\alpha^{-1}} \le \Delta_a^2/2`, i.e.
    :func:`linear_c_epsilon` at ``epsilon=math.inf``; the limit of :math:`c_\epsilon` for large ε."""
    return linear_c_epsilon(actions, theta, math.inf)


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
    k = check_int("n_arms", n_arms, minimum=1)
    eps = check_epsilon(epsilon)
    t = check_int("horizon", horizon, minimum=1)
    log_t = math.log(t)
    return math.sqrt(k * t * log_t) + k * log_t / eps


def dp_ucb_rate(means, horizon, epsilon) -> float:
    r"""Table 1, DP-UCB (Mishra and Thakurta 2015; Tossou and Dimitrakakis 2016):
    :math:`\log(T)^{2.5}/\epsilon + \sum_{a:\Delta_a>0}\log T/\Delta_a`, the :math:`\mathcal O(\cdot)` rate with
    constant 1 (a rate, not a bound). Means of [0, 1]-valued arms."""
    eps = check_epsilon(epsilon)
    log_t = _gdp_log_horizon(horizon)
    _, _, _, gaps = _gdp_suboptimal(means)
    return float(log_t**2.5 / eps + np.sum(log_t / gaps))


def dp_se_rate(means, horizon, epsilon) -> float:
    r"""Table 1, DP-SE (Sajed and Sheffet 2019): :math:`K\log T/\epsilon + \sum_{a:\Delta_a>0}\log T/\Delta_a`
    (constant 1; a rate). K is ``len(means)``."""
    eps = check_epsilon(epsilon)
    log_t = _gdp_log_horizon(horizon)
    means, _, _, gaps = _gdp_suboptimal(means)
    return float(means.size * log_t / eps + np.sum(log_t / gaps))


def adap_ucb_rate(means, horizon, epsilon) -> float:
    r"""Table 1, AdaP-UCB: :math:`\sum_{a:\Delta_a>0}\Delta_a\log T/\min\{\Delta_a^2, \epsilon\Delta_a\}`
    (:math:`= \sum\log T/\min\{\Delta_a,\epsilon\}`, Theorem 7 without its constants; a rate)."""
    eps = check_epsilon(epsilon)
    log_t = _gdp_log_horizon(horizon)
    _, _, _, gaps = _gdp_suboptimal(means)
    return float(np.sum(gaps * log_t / np.minimum(gaps**2, eps * gaps)))


def adap_klucb_rate(means, horizon, epsilon) -> float:
    r"""Table 1, AdaP-KLUCB: :math:`\sum_{a:\Delta_a>0}\Delta_a\log T/\min\{d(\mu_a,\mu^*), \epsilon\Delta_a\}`,
    d the Bernoulli KL (Theorem 8 with :math:`C_1 = C_2 = 1` and without its additive term; a rate)."""
    eps = check_epsilon(epsilon)
    log_t = _gdp_log_horizon(horizon)
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
    k = check_int("n_arms", n_arms, minimum=1)
    t = check_int("horizon", horizon, minimum=k)
    return float(k + k * math.log2(t / k))
