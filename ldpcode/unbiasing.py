r"""HeLDP-UCB-B's unbiased values: CTB's bit under each user's own level :math:`\epsilon_t`, mapped through the map g
of the HeLDP paper (Section 3.2), one value per response, through the same compiled kernels
``ldpcode.mechanisms.respond`` and ``ldpcode.mechanisms.unbias`` the engines use. The chapter
``chapters/heldp/unbiasing_map_g`` checks by Monte Carlo that their mean is the reward mean for every level, and their variance
(:func:`ldpcode.bounds.unbiased_ctb_variance`): :func:`kept_levels` draws the levels of the users HeLDP-UCB-B keeps, and
:func:`sample_moments` gives the g-values' mean and variance with their standard errors.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ._validate import (
    EPSILON_FLOOR,
    as_float_array,
    check_sample_size,
    check_epsilon,
    check_int,
    check_rng,
    check_unit_interval,
)
from .limits import check_limits
from .mechanisms import Mechanism, respond, unbias


_BERNOULLI = int(Mechanism.BERNOULLI)  # a global: numba freezes it into the compiled loop


@njit(cache=True)
def _g_values(rewards, epsilons, uniforms):
    out = np.empty_like(rewards)
    for i in range(rewards.shape[0]):
        e = epsilons[i]
        bit = respond(_BERNOULLI, False, rewards[i], uniforms[i], 0.0, math.exp(e))
        out[i] = unbias(bit, e)
    return out


def ctb_unbiased_values(rewards, epsilons, rng) -> np.ndarray:
    r""":math:`g(M_B(R_t;\epsilon_t);\epsilon_t)` for each reward :math:`R_t` in ``rewards`` (in [0, 1]) and its user's
    level :math:`\epsilon_t` in ``epsilons`` (same length, each > 0; a scalar is used for all): CTB (Curator 3)
    answers 1 with probability :math:`(R_te^{\epsilon_t}+1-R_t)/(1+e^{\epsilon_t})` from one uniform draw of
    ``rng``, and g maps the bit to :math:`\tfrac12 + (x - \tfrac12)\frac{e^{\epsilon_t}+1}{e^{\epsilon_t}-1}`
    (line 9 of Agent 4, HeLDP-UCB-B)."""
    r = check_unit_interval("rewards", rewards, ndim=1)
    e = as_float_array("epsilons", epsilons, bools=False)
    if e.ndim == 0:
        e = np.full(r.shape, check_epsilon(float(e), "epsilons"))
    if e.shape != r.shape:
        raise ValueError(
            f"epsilons must be finite levels > 0, one per reward ({r.size}) or one for all, got shape {e.shape}"
        )
    bad = ~(np.isfinite(e) & (e >= EPSILON_FLOOR))  # 1e-320 gave g-values of -1e300
    if bad.any():  # each level is a privacy level, with check_epsilon's floor and message
        i = int(np.flatnonzero(bad)[0])
        check_epsilon(float(e[i]), f"epsilons[{i}]")
    rng = check_rng("rng", rng)
    return _g_values(np.ascontiguousarray(r), np.ascontiguousarray(e), rng.random(r.size))


def kept_levels(levels, epsilon_min: float, rng, size: int, *, limits=None) -> np.ndarray:
    r"""The levels of ``size`` users that HeLDP-UCB-B keeps (:math:`\epsilon_t \ge \epsilon_{\min}`, line 7 of Agent 4):
    ``4 size`` levels drawn from ``levels`` (a :class:`~ldpcode.instances.PrivacyLevels`) with one
    ``levels.sample(rng, 4 size)`` call, the first ``size`` of those that reach ``epsilon_min``, in their order.
    Raises ValueError when fewer than ``size`` of the ``4 size`` reach it (a law that keeps under a quarter of its
    users needs its own draw). ``size`` is an integer in [1, 2**53] whose draws, 1 µs and 48 bytes a kept level
    (measured 0.06-0.65 µs), are within ``limits`` (default ``Limits()``), checked before any draw (10**12 raised
    MemoryError for 29 TiB)."""
    from .instances import PrivacyLevels

    if not isinstance(levels, PrivacyLevels):
        raise TypeError(f"levels must be a PrivacyLevels object (ldpcode.make_privacy_levels), got {levels!r}")
    epsilon_min = check_epsilon(epsilon_min, "epsilon_min")
    rng = check_rng("rng", rng)
    size, count = check_sample_size(check_int("size", size, minimum=1))
    work, scale_out = f"size={size:,} kept levels", "Or lower size, or draw the levels in several calls."
    check_limits("kept_levels", work, 1e-6 * count, 48.0 * count, limits, scale_out=scale_out)
    eps = levels.sample(rng, 4 * size)
    eps = eps[eps >= epsilon_min][:size]
    if eps.size < size:
        raise ValueError(f"fewer than {size:,} of {4 * size:,} levels of {levels.name} reach {epsilon_min}")
    return eps


@dataclass(frozen=True)
class SampleMoments:
    """The mean of a sample and its unbiased variance, each with its standard error (:func:`sample_moments`)."""

    mean: float
    mean_se: float
    var: float
    var_se: float


def sample_moments(values) -> SampleMoments:
    r"""The mean :math:`\bar g` of the n ``values`` with its standard error :math:`\sqrt{s^2/n}`, and their unbiased
    variance :math:`s^2 = \frac1{n-1}\sum_i (g_i-\bar g)^2` with its standard error

    .. math:: \mathrm{se}(s^2) = \sqrt{\frac{m_4 - m_2^2}{n} + \frac{2 s^4}{n(n-1)}},\qquad
              m_k = \frac1n\sum_i (g_i-\bar g)^k,

    the plug-in estimate of the exact :math:`\mathrm{Var}[s^2] = \frac{\mu_4 - \sigma^4}{n} + \frac{2\sigma^4}{n(n-1)}`
    of i.i.d. values (central moments :math:`\mu_4`, :math:`\sigma^2`). Each term is estimated on its own, so the
    estimate never falls below its second-order part: for a two-point law with equal weights (the g-values of an arm
    of mean 1/2 at a constant level) :math:`\mu_4 = \sigma^4` and the first term vanishes, and the former plug-in
    :math:`(m_4 - s^4\frac{n-3}{n-1})/n`, which mixes :math:`m_2` and :math:`s^2`, fell to about 0 there and made a
    correct variance look tens of standard errors off. What the chapter ``chapters/heldp/unbiasing_map_g`` compares with
    :math:`E[g] = \mu` and with :func:`ldpcode.bounds.unbiased_ctb_variance`. Needs n >= 4 finite values. Computed on
    the values divided by a power of two c (:func:`ldpcode.stats._scaled`) and scaled back (bit for bit the plain
    computation wherever that neither over- nor underflows: 1e200's gave an infinite variance, 1e-200's a zero error);
    a variance beyond a double is refused."""
    from .stats import _finite, _scaled

    g = as_float_array("values", values, bools=False)
    if g.ndim != 1 or g.size < 4 or not np.isfinite(g).all():
        raise ValueError(f"values must be a 1-d sequence of at least 4 finite numbers, got shape {g.shape}")
    n, (g, c) = g.size, _scaled(g)
    mean, s2 = float(g.mean()), float(g.var(ddof=1))
    d2 = (g - mean) ** 2
    m2, m4 = float(d2.mean()), float(np.mean(d2 * d2))
    var_se = math.sqrt(max(m4 - m2 * m2, 0.0) / n + 2 * s2 * s2 / (n * (n - 1)))
    with np.errstate(over="ignore"):
        var, var_se = (
            _finite("the variance", np.float64(s2) * c * c),
            _finite("the variance", np.float64(var_se) * c * c),
        )
    return SampleMoments(mean * c, math.sqrt(s2 / n) * c, float(var), float(var_se))
