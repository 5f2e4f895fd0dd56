r"""Floating-point Laplace and coin sampling (Mironov 2012): the privacy of the curators as implemented.

:func:`laplace_float_output` is, exactly, the double that ldpcode's Laplace curators (CTL, CTL-S, the Laplace
mechanism) output for a uniform draw :math:`k 2^{-53}`; :func:`laplace_float_reachable` tells which doubles an
input can produce, so that outputs reachable from one input only (which identify it, whatever ε the
real-number analysis of Lemma 2 promises) can be exhibited with :func:`consecutive_doubles`.
:func:`ctb_float_probability_one` is CTB's probability of answering 1 as implemented (Lemma 5's p(r) rounded),
whose loss becomes infinite beyond ε = 53 ln 2.
"""

from __future__ import annotations

import numpy as np

from .. import mechanisms as _mech
from .._validate import as_float_array, check_array, check_int, check_real, check_unit_interval
from ..limits import Limits
from ..mechanisms.curators import _laplace_from_uniform
from .ratios import _check_cost


_FLOAT_UNIFORM_STEP = 2.0**-53  # numpy's Generator.random() returns k 2^-53, k < 2^53


def laplace_float_output(k, r, scale):
    r"""The output of ldpcode's Laplace curators, in floating point, for the uniform draw :math:`U = k\,2^{-53}`.

    numpy's ``Generator.laplace`` (which CTL, CTL-S and :class:`~ldpcode.mechanisms.LaplaceMechanism` call)
    is the textbook inverse-CDF sampler: it draws :math:`U = k 2^{-53}` (``Generator.random``), returns
    :math:`\log(U + U)` for U < 1/2 and :math:`-\log(2 - U - U)` for U >= 1/2 (U = 0 redrawn), and the curator
    outputs :math:`r + b\cdot\text{that}`, every operation rounded to a double. This is that map, exactly;
    ``k`` integers in [1, 2^53) (arrays broadcast). The tests check it against ``Generator.laplace``.
    """
    k = np.asarray(k)
    if not np.issubdtype(k.dtype, np.integer) or (k < 1).any() or (k >= 2**53).any():
        raise ValueError("k must hold integers in [1, 2^53)")
    b = check_real("scale", scale)
    if b <= 0:
        raise ValueError(f"scale must be > 0, got {scale!r}")
    u = k.astype(np.float64) * _FLOAT_UNIFORM_STEP
    noise = _laplace_from_uniform(u.ravel()).reshape(u.shape)  # the engine's own copy of numpy's formula
    return check_array("r", r) + noise * b


def laplace_float_reachable(x, r, scale, window: int = 3, *, limits: Limits | None = None) -> np.ndarray:
    r"""Which outputs ``x`` the floating-point Laplace curator (:func:`laplace_float_output`) can produce from
    input ``r``: True where some :math:`k \in [1, 2^{53})` gives exactly x.

    The map k -> output is non-decreasing (log, the product by b > 0 and the sum with r are monotone under
    rounding), so a binary search over k (53 steps, vectorised over x) finds the smallest k whose output is
    >= x; x is reachable when that k, or one of its ``window`` neighbours on either side (a guard against a
    non-monotone last bit of ``log``), gives x exactly. Mironov (2012) showed that for the textbook sampler
    the outputs reachable from two inputs r and r' differ: an output reachable from r only identifies r,
    whatever ε the real-number analysis promises. The audit of :func:`curator_audit`, which bins outputs,
    cannot see this; this function can because it knows the sampler. ``limits`` caps the estimated cost (53 +
    2 ``window`` + 1 evaluations of all of x, 50 µs + 30 ns an output each), checked before any.
    """
    xs = as_float_array("x", x, bools=False)
    if not np.isfinite(xs).all():
        raise ValueError("x must contain only finite numbers")
    rr = check_real("r", r)
    b = check_real("scale", scale)
    if b <= 0:
        raise ValueError(f"scale must be > 0, got {scale!r}")
    w = check_int("window", window, minimum=0)
    evaluations = 54 + 2 * w
    work = f"{evaluations} evaluations (window={w}) of len(x)={xs.size} outputs"
    seconds = evaluations * (50e-6 + 30e-9 * xs.size)
    _check_cost("laplace_float_reachable", work, seconds, 128.0 * xs.size, limits, "window")
    lo = np.ones(xs.shape, np.int64)
    hi = np.full(xs.shape, 2**53 - 1, np.int64)
    while (lo < hi).any():
        mid = lo + (hi - lo) // 2
        ge = laplace_float_output(mid, rr, b) >= xs
        hi = np.where(ge, mid, hi)
        lo = np.where(ge, lo, mid + 1)
    out = np.zeros(xs.shape, dtype=bool)
    for dk in range(-w, w + 1):
        kk = np.clip(lo + dk, 1, 2**53 - 1)
        out |= laplace_float_output(kk, rr, b) == xs
    return out


def ctb_float_probability_one(r, epsilon):
    r"""The probability that CTB answers 1 *as implemented*: the response is 1 when a uniform draw
    :math:`U = k 2^{-53}` (``Generator.random``) is below the double :math:`\hat p = \mathrm{fl}(p(r))`, so
    :math:`P\{1\} = \lceil \hat p\, 2^{53}\rceil / 2^{53}` exactly. It differs from Lemma 5's p(r) by less than
    :math:`2^{-53}` plus the rounding of p, which matters only when :math:`1/(1+e^\epsilon)` approaches
    :math:`2^{-53}` (from ε around 30); beyond ε = 53 ln 2 ≈ 36.7, 1 + e^ε rounds to e^ε and p(1) to 1, the
    answer 0 becomes impossible under r = 1 and the implemented loss is infinite, whatever ε is claimed."""
    rr = check_unit_interval("r", r)  # CTB's rewards: r = 2 gave P{1} = 1.0, r = -1 gave 0.0
    e = check_real("epsilon", epsilon)
    if e < 0:
        raise ValueError(f"epsilon must be >= 0, got {epsilon!r}")
    p = np.asarray(_mech.ctb_probability(np.atleast_1d(rr), _mech.exp_or_inf(e))).reshape(rr.shape)
    return np.ceil(np.clip(p, 0.0, 1.0) * 2.0**53) * _FLOAT_UNIFORM_STEP


def consecutive_doubles(x0, count: int, *, limits: Limits | None = None) -> np.ndarray:
    """The ``count`` consecutive doubles starting at the positive double ``x0`` (x0, nextafter(x0), ...):
    positive doubles are ordered like their bit patterns, so they are x0's pattern plus 0, 1, 2, ... (16 bytes a
    double while they are made: ``limits`` caps ``count``)."""
    x = check_real("x0", x0)
    if x <= 0:
        raise ValueError(f"x0 must be a positive finite double, got {x0!r}")
    n = check_int("count", count, minimum=1)
    first, top = int(np.array(x, dtype=np.float64).view(np.int64)), int(np.array(np.inf).view(np.int64))
    if first + n > top:  # the patterns beyond the largest double are inf and then nan
        raise ValueError(f"count must be <= {top - first} from x0 = {x!r} (the doubles end at 1.8e308), got {n}")
    _check_cost("consecutive_doubles", f"count={n} doubles", 1e-5 + 5e-9 * n, 16.0 * n, limits, "count")
    return (np.array(x, dtype=np.float64).view(np.int64) + np.arange(n, dtype=np.int64)).view(np.float64)
