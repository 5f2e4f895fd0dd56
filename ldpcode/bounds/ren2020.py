r"""Bounds of Ren et al. (2020), homogeneous ε-LDP, as plain functions of the instance and of epsilon.

Theorem 1's lower-bound constant (with its small-ε form, the tightened form of this book, and the
earlier bound of Basu et al. 2019 it improves on), the non-private Lai-Robbins constant and the
constant KL-UCB attains on CTB responses, Lemma 12 and Fact 13 (Appendix A.8), Lemma 3's Laplace-sum
tail bound, the regret bounds of UCB1 (Auer et al. 2002, Theorem 1), LDP-UCB-L (Theorem 4, Corollary 10)
and LDP-UCB-B (Theorem 6, Corollary 11), the bounds on :math:`E[N_a(T)]` in the proofs of Theorems 4 and
6, and the distribution-free rate of Theorems 4 and 6. The privacy cost factors are in
:mod:`~ldpcode.bounds.factors`, Lemma 7's constants :math:`c_s` in :mod:`~ldpcode.bounds.lemma7`.

Conventions (what the functions refuse: a value of the wrong type, such as a string or a bool, raises TypeError; a
value out of range raises ValueError):

* ``epsilon`` is a finite number ≥ :data:`ldpcode.EPSILON_FLOOR` = 10⁻⁹ (0, negatives, ``inf`` and ``nan`` are
  refused);
* ``means`` is a 1-d sequence of at least 2 finite numbers, all in [0, 1]: Theorems 1, 4 and 6 and UCB1 are about
  rewards in [0, 1]. Only the Sigmoid corollaries (``c_s`` < 1 in :func:`ldp_ucb_l_regret_bound` and
  :func:`ldp_ucb_b_regret_bound`) accept means outside [0, 1];
* a sum over the suboptimal arms that would be empty (all means equal) is 0 in the lower-bound constants
  (:func:`lower_bound_constant` and its variants, :func:`basu2019_lower_bound_constant`) and in the regret bounds,
  but raises ValueError in :func:`lai_robbins_constant` and :func:`ctb_lai_robbins_constant`, which need a
  suboptimal arm;
* ``horizon`` is an integer in [2, ``2**53``] (log T > 0; ``2**53`` is :data:`ldpcode.limits.MAX_HORIZON`), a whole
  float such as 1e6 being accepted; ``n_arms`` is an integer in [1, ``2**53``];
* ``c_s`` is a finite number in (0, 1]; a ``gap`` of the ``*_pulls_bound`` functions is finite and > 0, entry by
  entry; ``p`` and ``q`` (Lemma 12) lie in [0, 1]; Fact 13 needs finite :math:`0 < r \le R`;
* :func:`laplace_sum_tail_bound` needs ``n`` an integer ≥ 1, ``b`` finite and > 0, ``v`` finite and
  :math:`\ge b\sqrt n`, and finite ``lam``; a λ outside the lemma's range gives ``nan``, not an error.
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import (
    as_float_array,
    check_array,
    check_epsilon,
    check_int,
    check_probability_vector,
    check_real,
    check_same_shape,
    one_line,
)
from ..divergences import kl_bernoulli
from ._common import (
    _chan_tail_bound,
    _check_count,
    _check_horizon,
    _gaps,
    _inv_two_sinh_squared,
    _log_horizon,
    _regret_bound,
    _square,
)
from .factors import bernoulli_ratio, laplace_ratio


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
        raise ValueError(f"means must contain at least one suboptimal arm, got {one_line(means)}")
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
    from ..mechanisms import ctb_output_mean

    eps = check_epsilon(epsilon)
    means = check_probability_vector("means", means)
    best = means.max()
    sub = means[means < best]
    if sub.size == 0:
        raise ValueError(f"means must contain at least one suboptimal arm, got {one_line(means)}")
    m_sub, m_best = ctb_output_mean(sub, eps), float(ctb_output_mean(best, eps))
    if (m_sub == m_best).any():  # the KL rounds to 0 and the constant to inf
        raise ValueError(f"epsilon={eps!r} is too small for the gaps of means: CTB's output means coincide in floats")
    return float(np.sum((best - sub) / kl_bernoulli(m_sub, np.full_like(m_sub, m_best))))


def lemma12_bound(p, q, epsilon):
    r"""Lemma 12's right-hand side :math:`(e^\epsilon - e^{-\epsilon})^2 (p-q)^2`; where :math:`(p-q)^2` is subnormal
    (:math:`0 < |p - q| < 2^{-511}`), or :math:`(2\sinh\epsilon)^2` overflows (ε > 350), as
    :math:`\exp(2(\log(2\sinh\epsilon) + \log|p-q|))` (3.8e-140 at p - q = 1e-200, ε = 300, was 0; inf beyond 1.8e308)."""
    eps = check_epsilon(epsilon)
    p, q = check_array("p", p, low=0, high=1), check_array("q", q, low=0, high=1)
    check_same_shape(p=p, q=q)  # NumPy's "operands could not be broadcast together" named neither
    d = np.abs(p - q)
    if eps <= 350.0:
        out = (2.0 * math.sinh(eps)) ** 2 * (p - q) ** 2
        odd = (d > 0) & (d < 2.0**-511)
        if not odd.any():
            return out
    else:  # (2 sinh eps)^2 overflows a double
        out, odd = np.where(p == q, 0.0, np.inf), p != q
    with np.errstate(divide="ignore", over="ignore"):
        logs = np.exp(2.0 * ((math.log(2.0 * math.sinh(eps)) if eps < 700.0 else eps) + np.log(d)))
    return np.where(odd, logs, out)[()] if eps <= 350.0 else np.where(odd, logs, out)


def fact13_bound(r, R):
    r"""Fact 13 (Dragomir and Gluščević 2001, Lemma 1): if :math:`0 < r \le f_1/g_1 \le R`, then
    :math:`D_{\mathrm{KL}}(f_1\|g_1) \le (R-r)^2/(4rR)`. Broadcasts over arrays. Where r, R or R - r > 0 leave
    [2^-250, 2^250] (the squares over- or underflow: nan at r = 1e200), as :math:`((R-r)/R)((R-r)/r)/4`."""
    r = as_float_array("r", r, bools=False)
    R = as_float_array("R", R, bools=False)
    check_same_shape(r=r, R=R)
    if not (np.isfinite(r).all() and np.isfinite(R).all()) or (r <= 0).any() or (R < r).any():
        raise ValueError(f"need finite 0 < r <= R, got r={one_line(r)}, R={one_line(R)}")
    h = R - r
    odd = ~((r >= 2.0**-250) & (R <= 2.0**250) & ((h >= 2.0**-250) | (h == 0)))
    if not odd.any():
        return h**2 / (4.0 * r * R)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        return np.where(odd, (h / R) * (h / r) / 4.0, h**2 / (4.0 * r * R))[()]


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
            raise ValueError(f"{name} must lie in [0, 1], got {one_line(v)}")
    check_same_shape(p=p, q=q)
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
    :math:`\lambda` the lemma says nothing and ``nan`` is returned. Where b or v leave [2^-250, 2^250], as
    :math:`\exp(-(\lambda/v)^2/8)` for :math:`\lambda/v < 2\sqrt2\,(v/b)`.
    """
    n = check_int("n", n, minimum=1, maximum=2**1023)  # sqrt(10**400) raised OverflowError
    b = check_real("b", b)
    if b <= 0:
        raise ValueError(f"b must be > 0, got {b!r}")
    v = b * math.sqrt(n) if v is None else check_real("v", v)
    if v < b * math.sqrt(n) * (1 - 1e-12):
        raise ValueError(f"v must be >= b sqrt(n) = {b * math.sqrt(n):g}, got {one_line(v)}")
    return _chan_tail_bound(check_array("lam", lam), v, b)


def ucb1_regret_bound(means, horizon) -> float:
    r"""Auer, Cesa-Bianchi, Fischer (2002), Theorem 1: :math:`\sum 8\log T/\Delta_a + (1+\pi^2/3)\Delta_a`."""
    return _regret_bound(means, horizon, 1.0, 1.0 + math.pi**2 / 3)


def ldp_ucb_l_regret_bound(means, horizon, epsilon, c_s: float = 1.0) -> float:
    r"""Theorem 4: :math:`\sum [8(1+4/\epsilon)^2\log T/\Delta_a + (1 + 2\pi^2/3)\Delta_a]`.

    With ``c_s`` < 1 the whole bound is divided by :math:`c_s^2`: Corollary 10 (LDP-UCB-LS), whose means may lie
    outside [0, 1]; Theorem 4's (``c_s`` = 1) must lie in [0, 1].
    """
    c_s = check_real("c_s", c_s)
    if not 0 < c_s <= 1:
        raise ValueError(f"c_s must be in (0, 1], got {c_s!r}")
    # Theorem 4 (c_s = 1) is about rewards in [0, 1]; Corollary 10 (c_s < 1) about unbounded ones
    bound = _regret_bound(means, horizon, laplace_ratio(epsilon), 1.0 + 2 * math.pi**2 / 3, bounded=c_s == 1)
    return bound / c_s**2 if c_s >= 2.0**-500 else bound / c_s / c_s  # c_s^2 underflows: ZeroDivisionError


def ldp_ucb_b_regret_bound(means, horizon, epsilon, c_s: float = 1.0) -> float:
    r"""Theorem 6: :math:`\sum [8((e^\epsilon+1)/(e^\epsilon-1))^2\log T/\Delta_a + (1+\pi^2/3)\Delta_a]`.

    With ``c_s`` < 1 the whole bound is divided by :math:`c_s^2`: Corollary 11 (LDP-UCB-BS), whose means may lie
    outside [0, 1]; Theorem 6's (``c_s`` = 1) must lie in [0, 1].
    """
    c_s = check_real("c_s", c_s)
    if not 0 < c_s <= 1:
        raise ValueError(f"c_s must be in (0, 1], got {c_s!r}")
    # Theorem 6 (c_s = 1) is about rewards in [0, 1]; Corollary 11 (c_s < 1) about unbounded ones
    bound = _regret_bound(means, horizon, bernoulli_ratio(epsilon), 1.0 + math.pi**2 / 3, bounded=c_s == 1)
    return bound / c_s**2 if c_s >= 2.0**-500 else bound / c_s / c_s  # c_s^2 underflows: ZeroDivisionError


def ldp_ucb_l_pulls_bound(gap, horizon, epsilon):
    r"""Proof of Theorem 4: :math:`E[N_a(T)] \le 8(1+4/\epsilon)^2\log T/\Delta_a^2 + 1 + 2\pi^2/3`, for a gap
    :math:`\Delta_a \in (0, 1]` (rewards in [0, 1]: a gap of 2 returned a number)."""
    gap = check_array("gap", gap, low=0, high=1, low_open=True)
    return 8 * laplace_ratio(epsilon) * _log_horizon(horizon) / gap**2 + 1 + 2 * math.pi**2 / 3


def ldp_ucb_b_pulls_bound(gap, horizon, epsilon):
    r"""Proof of Theorem 6: :math:`E[N_a(T)] \le 8\log T/\Delta_{a,\epsilon}^2 + 1 + \pi^2/3`,
    :math:`\Delta_{a,\epsilon} = \Delta_a (e^\epsilon-1)/(e^\epsilon+1)`, for a gap :math:`\Delta_a \in (0, 1]`
    (rewards in [0, 1])."""
    gap = check_array("gap", gap, low=0, high=1, low_open=True)
    return 8 * bernoulli_ratio(epsilon) * _log_horizon(horizon) / gap**2 + 1 + math.pi**2 / 3


def distribution_free_rate(n_arms, horizon, epsilon) -> float:
    r""":math:`\epsilon^{-1}\sqrt{nT\log T}`: the distribution-free order of Theorems 4 and 6.

    The paper gives no constant; this is the rate with constant 1, for drawing slopes.
    """
    n = _check_count("n_arms", n_arms, minimum=2)  # one arm is no bandit: its regret is 0, not a rate
    _check_horizon(horizon, minimum=2)
    log_t = _log_horizon(horizon)
    return math.sqrt(n * int(horizon) * log_t) / check_epsilon(epsilon)
