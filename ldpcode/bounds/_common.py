r"""Private helpers shared by the rooms of :mod:`ldpcode.bounds` (no paper item of its own).

``_gaps`` (the positive gaps :math:`\Delta_a = \mu^* - \mu_a` of ``means``), ``_log_horizon`` (natural
:math:`\log T`), ``_regret_bound`` (the common shape :math:`\sum 8\,\mathrm{factor}\log T/\Delta_a +
\mathrm{const}\,\Delta_a` of the UCB-type bounds of Ren et al.'s Theorems 4, 6 and of the HeLDP paper's
Corollaries 8, 11), ``_chan_tail_bound`` (the Laplace-sum tail bound of Lemma 3 and of the HeLDP paper's Lemma 6),
and the overflow-free forms ``_square`` and ``_inv_two_sinh_squared``.

Large epsilon. Every formula of the package is evaluated as it always was wherever it is finite (so stored
numbers keep their bits); only where a term would overflow (e^eps beyond eps = 709.78, a square beyond 1.3e154:
Python raises OverflowError on both) is an equal, overflow-free form used. Bounds then take their limits as eps
grows (a lower-bound constant tends to 0, an upper-bound factor to its non-private value) instead of raising.
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import as_float_array, check_int, check_probability_vector, one_line


def _gaps(means, *, bounded: bool = True) -> np.ndarray:
    """The positive gaps of ``means``. With ``bounded`` (a statement about rewards in [0, 1]: Bernoulli arms,
    UCB1, Theorems 1, 4, 6, 7 and 10) every mean must lie in [0, 1]: ucb1_regret_bound([5.0, -3.0], T) was a
    number; ``bounded=False`` for the Sigmoid corollaries, whose arms are unbounded."""
    means = as_float_array("means", means, bools=False)
    if means.ndim != 1 or means.size < 2 or not np.isfinite(means).all():
        raise ValueError(f"means must be a 1-d sequence of at least 2 finite numbers, got {one_line(means)}")
    if bounded:
        check_probability_vector("means", means)
    gaps = means.max() - means
    return gaps[gaps > 0]


def _check_horizon(horizon, minimum: int = 1) -> int:
    """A horizon T of a formula that multiplies T by other numbers: an integer in [``minimum``, 2**53]
    (:data:`ldpcode.limits.MAX_HORIZON`, every engine's largest horizon). A horizon of 1e308 overflowed a double
    (OverflowError) in sqrt(T (K - 1)) and sqrt(n T log T)."""
    from ..limits import MAX_HORIZON

    return check_int("horizon", horizon, minimum=minimum, maximum=MAX_HORIZON)


def _check_count(name: str, value, minimum: int) -> int:
    """A count of a formula (K arms, d dimensions): an integer in [``minimum``, 2**53], the horizon's cap. Without
    the cap, ``n_arms=10**400`` overflowed a double (OverflowError) and a refusal printed K - 1 in full."""
    from ..limits import MAX_HORIZON

    return check_int(name, value, minimum=minimum, maximum=MAX_HORIZON)


def _log_horizon(horizon) -> float:
    return math.log(_check_horizon(horizon, minimum=2))


def _square(x: float) -> float:
    """x ** 2, or inf where it overflows a double (Python's ** raises OverflowError there)."""
    return x**2 if abs(x) < 1e150 else math.inf


def _inv_two_sinh_squared(eps: float) -> float:
    r""":math:`(e^\epsilon - e^{-\epsilon})^{-2} = (2\sinh\epsilon)^{-2}`; for ε > 350 as the equal
    :math:`e^{-2\epsilon}/(1 - e^{-2\epsilon})^2`, which underflows towards 0 instead of raising."""
    if eps <= 350.0:
        return 1.0 / (2.0 * math.sinh(eps)) ** 2
    return math.exp(-2.0 * eps) / (-math.expm1(-2.0 * eps)) ** 2


def _regret_bound(means, horizon, factor, const, *, bounded: bool = True):
    gaps = _gaps(means, bounded=bounded)
    return float(np.sum(8.0 * factor * _log_horizon(horizon) / gaps + const * gaps))


def _chan_tail_bound(lam: np.ndarray, v: float, b_max: float) -> np.ndarray:
    r"""Chan, Shi and Song (2011), Lemma 2.8, the bound of Ren et al.'s Lemma 3 and of the HeLDP paper's Lemma 6:
    :math:`\exp(-\lambda^2/(8v^2))` for :math:`0 < \lambda < 2\sqrt2\,v^2/b_M`, nan elsewhere (the lemma says
    nothing there). Where :math:`b_M` or v leave [2^-250, 2^250] (v² under- or overflows: nan at 1e-200), the same in
    the ratio: :math:`\exp(-(\lambda/v)^2/8)` for :math:`\lambda/v < 2\sqrt2\,v/b_M`."""
    if not (2.0**-250 <= b_max <= 2.0**250 and 2.0**-250 <= v <= 2.0**250):
        return np.where((lam > 0) & (lam / v < 2 * math.sqrt(2) * (v / b_max)), np.exp(-((lam / v) ** 2) / 8), np.nan)
    valid = (lam > 0) & (lam < 2 * math.sqrt(2) * v * v / b_max)
    return np.where(valid, np.exp(-(lam**2) / (8 * v * v)), np.nan)
