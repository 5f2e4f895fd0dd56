r"""Tails of sums of independent Laplace variables with *unequal* scales: the quantity Lemma 6 of the HeLDP paper
(Lemma 2.8 of Chan, Shi and Song 2011) bounds, which HeLDP-UCB-L's index relies on.

For :math:`Y = X_1 + \dots + X_m` with :math:`X_i \sim \mathrm{Laplace}(b_i)` independent, the characteristic
function is rational, :math:`\varphi(s) = \prod_i (1 + b_i^2 s^2)^{-1}`. Two independent ways to its tail:

* :func:`laplace_mixed_sum_sf`: when the scales are distinct, the partial fractions
  :math:`\varphi(s) = \sum_i c_i/(1 + b_i^2 s^2)`, :math:`c_i = \prod_{j\ne i} b_i^2/(b_i^2 - b_j^2)`, make the
  law of Y a signed mixture of Laplace laws, so :math:`P\{Y > \lambda\} = \tfrac12\sum_i c_i e^{-\lambda/b_i}`
  for :math:`\lambda \ge 0`. The :math:`c_i` alternate in sign and can be huge when two scales are close, so the
  sum is evaluated in decimal arithmetic (Python's ``decimal``) at a precision doubled until two successive
  precisions agree to 1e-17 relative: exact to double precision, deep in the tail too.
* :func:`laplace_mixed_sum_sf_inversion`: the Gil-Pelaez inversion
  :math:`P\{Y > \lambda\} = \tfrac12 - \tfrac1\pi\int_0^\infty \sin(s\lambda)\varphi(s)/s\,ds` by QUADPACK
  (``scipy.integrate.quad``; its Fourier weight QAWF beyond s = 1). Any scales, repeated ones included, but an
  absolute error of about 1e-14: it cannot resolve tails below about 1e-10.

:func:`laplace_mixed_sums` draws Monte Carlo sums. The bound itself is
:func:`ldpcode.bounds.laplace_mixed_sum_tail_bound`; equal scales have their own exact tail,
:func:`ldpcode.mechanisms.laplace_sum_sf`.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np

from ._validate import MAX_COUNT, as_float_array, check_finite_array, check_int, check_rng, one_line
from .limits import check_limits

MIXED_SUM_MAX_TERMS = 2000
"""The most terms :func:`laplace_mixed_sum_sf` accepts: its cost is m^2 decimal products per precision tried."""

MIXED_SUMS_DRAW_SECONDS = 40e-9
"""The time :func:`laplace_mixed_sums` counts for one Laplace draw added to a running sum (measured 18 ns, rounded up
twofold as ldpcode's other costs: ``ldpcode.parameters.library.LAPLACE_DRAW_SECONDS``)."""

KEPT_SCALES_MAX_CHUNK = 2**20
"""The most levels :func:`kept_scales` draws at a time (``chunk``): 8 MiB of them."""

_MAX_DIGITS = 20_000  # the precision doubling stops here (clustered scales needing more raise, not guess)


def _check_scales(scales, *, distinct: bool) -> np.ndarray:
    b = as_float_array("scales", scales, bools=False)
    if b.ndim != 1 or b.size == 0 or not np.isfinite(b).all() or (b <= 0).any():
        raise ValueError(f"scales must be a non-empty 1-d sequence of finite numbers > 0, got {one_line(scales)}")
    if b.size > MIXED_SUM_MAX_TERMS:
        raise ValueError(f"scales must hold at most {MIXED_SUM_MAX_TERMS} terms (MIXED_SUM_MAX_TERMS), got {b.size}")
    if distinct and np.unique(b).size != b.size:
        raise ValueError(
            "scales must be distinct for the partial-fraction tail (a repeated scale is a pole of higher order); "
            "for repeated scales use laplace_mixed_sum_sf_inversion, for all-equal ones "
            f"ldpcode.mechanisms.laplace_sum_sf; got {b.size} scales of which {np.unique(b).size} distinct"
        )
    return b


def _partial_fraction_tail(x: float, b: np.ndarray, digits: int) -> Decimal:
    """(1/2) sum_i c_i e^{-x/b_i}, x >= 0, in decimal arithmetic at ``digits`` significant digits."""
    with localcontext() as ctx:
        ctx.prec = digits
        bd = [Decimal(float(v)) for v in b]
        sq = [v * v for v in bd]
        xd = Decimal(float(x))
        total = Decimal(0)
        for i, bi in enumerate(bd):
            c = Decimal(1)
            for j, sj in enumerate(sq):
                if j != i:
                    c *= sq[i] / (sq[i] - sj)
            total += c * (-xd / bi).exp()
        return total / 2


def _exact_upper(x: float, b: np.ndarray) -> float:
    if x > 800.0 * b.size * float(b.max()):  # P{Y > x} <= sum_i P{X_i > x/m} <= (m/2) e^{-x/(m b_M)} < 1e-340: 0.0
        return 0.0  # (there e^{-x/b_i} underflowed in decimal arithmetic and the loop never settled)
    digits, previous = 40, _partial_fraction_tail(x, b, 40)
    while digits < _MAX_DIGITS:
        digits *= 2
        current = _partial_fraction_tail(x, b, digits)
        if current != 0 and abs(current - previous) <= abs(current) * Decimal("1e-17"):
            return float(current)
        previous = current
    raise ValueError(
        f"the partial-fraction tail did not settle below {_MAX_DIGITS} digits (scales too clustered); "
        "use laplace_mixed_sum_sf_inversion"
    )


def laplace_mixed_sum_sf(lam, scales):
    r"""Exact :math:`P\{Y > \lambda\}` for :math:`Y = \sum_i X_i`, :math:`X_i\sim\mathrm{Laplace}(b_i)` independent
    with *distinct* scales :math:`b_i` (``scales``): the quantity Lemma 6 of the HeLDP paper bounds.

    .. math:: P\{Y > \lambda\} = \tfrac12 \sum_{i=1}^m c_i\, e^{-\lambda/b_i},\qquad
              c_i = \prod_{j\ne i}\frac{b_i^2}{b_i^2 - b_j^2}\qquad(\lambda \ge 0),

    from the partial fractions of the characteristic function :math:`\prod_i (1+b_i^2s^2)^{-1}`, and
    :math:`1 - P\{Y > -\lambda\}` for :math:`\lambda < 0`. Evaluated in decimal arithmetic with the precision
    doubled until it settles (see the module docstring), so the result is right to double precision however
    deep the tail. A repeated scale is refused (it is a double pole); see :func:`laplace_mixed_sum_sf_inversion`.
    """
    b = _check_scales(scales, distinct=True)
    lam = check_finite_array("lam", lam)
    out = np.array([_exact_upper(v, b) if v >= 0 else 1.0 - _exact_upper(-v, b) for v in lam.ravel()])
    return out.reshape(lam.shape) if lam.ndim else float(out[0])


def laplace_mixed_sum_sf_inversion(lam, scales):
    r""":math:`P\{Y > \lambda\}` for a sum of independent Laplace(:math:`b_i`) variables, any scales (repeated
    ones too), by the Gil-Pelaez inversion of the characteristic function :math:`\varphi(s)=\prod_i(1+b_i^2s^2)^{-1}`:

    .. math:: P\{Y > \lambda\} = \frac12 - \frac1\pi\int_0^\infty \frac{\sin(s\lambda)}{s}\,\varphi(s)\,ds,

    integrated by QUADPACK: ``quad`` on [0, 1] (with :math:`\sin(s\lambda)/s` written through ``np.sinc``), and
    the Fourier-weighted QAWF on [1, ∞). Independent of :func:`laplace_mixed_sum_sf`'s partial fractions; its
    absolute error is about 1e-14 (QUADPACK's own estimate is 1e-14 to 3e-14 on the book's cases), so below
    about 1e-10 its relative error grows and only the partial fractions are trustworthy. The split at s = 1
    resolves :math:`\varphi` for a largest scale :math:`b_M` in [1, 256] only: outside, :math:`\lambda` and the
    :math:`b_i` are divided by :math:`b_M` (:math:`P\{Y > \lambda\} = P\{Y/b_M > \lambda/b_M\}`; scale 1e-3 was
    off by 2e-3), and so they are where QUADPACK's error estimate exceeds 1e-12. The result is clipped to [0, 1];
    :math:`|\lambda| > 2000\,b_M`, or an estimate above 1e-12 at :math:`b_M = 1` too, is refused (ValueError;
    :math:`\lambda = 10^4` at scale 1 gave -9.1e-5).
    """
    import warnings

    from scipy import integrate

    b = _check_scales(scales, distinct=False)
    lam = check_finite_array("lam", lam)
    bm = float(b.max())  # outside [1, 256] lam and b are divided by it (measured: 2^-1 off by 8e-9, 2^9 by 6e-9)
    if lam.size and np.abs(lam).max() > 2000.0 * bm:
        raise ValueError(
            f"|lam| must be <= 2000 max(scales) for the inversion, got {one_line(lam)}: use laplace_mixed_sum_sf"
        )

    def one(v0, c):
        v, b2 = v0 / c, (b / c) ** 2
        if v == 0:
            return 0.5
        near = integrate.quad(
            lambda s: v * np.sinc(s * v / np.pi) / np.prod(1.0 + b2 * s * s),
            0.0,
            1.0,
            epsabs=1e-15,
            epsrel=1e-13,
            limit=500,
            full_output=1,
        )
        with warnings.catch_warnings():  # QAWF warns about slow cycles far out, where the integrand is ~0
            warnings.simplefilter("ignore")
            far = integrate.quad(
                lambda s: 1.0 / (s * np.prod(1.0 + b2 * s * s)),
                1.0,
                np.inf,
                weight="sin",
                wvar=v,
                epsabs=1e-15,
                limlst=200,
                full_output=1,
            )
        if near[1] + far[1] > 1e-12 and c != bm:  # QUADPACK's error estimate: retry at b_M = 1
            return one(v0, bm)
        if near[1] + far[1] > 1e-12:  # (accepted ones erred by at most 9e-15 when measured; refused ones up to 5e-9)
            raise ValueError(f"lam={v0!r}: the inversion integral does not converge; use laplace_mixed_sum_sf")
        return min(1.0, max(0.0, 0.5 - (near[0] + far[0]) / math.pi))

    out = np.array([one(float(v), 1.0 if 1.0 <= bm <= 256.0 else bm) for v in lam.ravel()])
    return out.reshape(lam.shape) if lam.ndim else float(out[0])


def laplace_mixed_sums(scales, samples, rng, *, block: int = 2**20, limits=None) -> np.ndarray:
    """``samples`` Monte Carlo draws of :math:`\\sum_i X_i`, :math:`X_i\\sim\\mathrm{Laplace}(b_i)` independent
    (``scales`` = the :math:`b_i`), accumulated term by term in blocks of ``block`` samples (an integer >= 1;
    memory stays O(block) beyond the output). Deterministic given ``rng`` (a NumPy Generator). A call whose
    estimated cost (:data:`MIXED_SUMS_DRAW_SECONDS` a draw, 8 bytes a sample and 16 a sample of a block) is beyond
    ``limits`` (an :class:`ldpcode.Limits`, default ``Limits()``) is refused before any draw."""
    b = _check_scales(scales, distinct=False)
    samples = check_int("samples", samples, minimum=1, maximum=MAX_COUNT)  # 10**400: OverflowError in the cost
    rng = check_rng("rng", rng)
    block = check_int("block", block, minimum=1)
    check_limits(
        "laplace_mixed_sums",
        f"samples={samples} sums of {b.size} Laplace draws each",
        samples * b.size * MIXED_SUMS_DRAW_SECONDS,
        8.0 * samples + 16.0 * min(block, samples),
        limits,
        scale_out="Or lower samples, or draw them in several calls.",
    )
    out = np.empty(samples)
    for start in range(0, samples, block):
        stop = min(samples, start + block)
        acc = np.zeros(stop - start)
        for scale in b:
            acc += rng.laplace(0.0, scale, stop - start)
        out[start:stop] = acc
    return out


def kept_scales(levels, epsilon_min, rng, *, count=None, until_a=None, chunk: int = 256) -> np.ndarray:
    r"""The Laplace scales :math:`b_r = 1/\epsilon_{a,r}` of the responses HeLDP-UCB-L keeps: users' levels are
    drawn from ``levels`` (a :class:`~ldpcode.instances.PrivacyLevels`) in order, those below ``epsilon_min``
    discarded (Line 11 of Agent 2), until either ``count`` are kept or, with ``until_a``, the first time
    :math:`A = \sum_r \epsilon_{a,r}^{-2}` exceeds ``until_a`` (the end of Line 4's forced phase when
    ``until_a`` = :math:`\epsilon_{\min}^{-2}\log t^4`). Exactly one of ``count``, ``until_a``. Levels are drawn
    ``chunk`` at a time, an integer in [1, :data:`KEPT_SCALES_MAX_CHUNK`]."""
    from ._validate import check_epsilon, check_real
    from .instances import PrivacyLevels

    if not isinstance(levels, PrivacyLevels):
        raise TypeError(f"levels must be a PrivacyLevels object (ldpcode.make_privacy_levels), got {levels!r}")
    eps_min = check_epsilon(epsilon_min, "epsilon_min")
    rng = check_rng("rng", rng)
    chunk = check_int("chunk", chunk, minimum=1, maximum=KEPT_SCALES_MAX_CHUNK)  # chunk=0 looped forever
    if (count is None) == (until_a is None):
        raise ValueError(f"give exactly one of count and until_a, got count={count!r}, until_a={until_a!r}")
    if not levels.p_at_least(eps_min) > 0:
        raise ValueError(f"epsilon_min = {eps_min!r} is above every level of {levels.name!r}: nothing is kept")
    if count is not None:
        count = check_int("count", count, minimum=1, maximum=MIXED_SUM_MAX_TERMS)
    else:
        until_a = check_real("until_a", until_a)
        if not 0 <= until_a < MIXED_SUM_MAX_TERMS / eps_min**2:  # A = sum of eps^-2 is >= 0
            raise ValueError(f"until_a must be >= 0 and < {MIXED_SUM_MAX_TERMS} / epsilon_min^2, got {until_a!r}")
    kept: list[float] = []
    a = 0.0
    while True:
        for e in levels.sample(rng, chunk):
            if e < eps_min:
                continue
            kept.append(1.0 / float(e))
            a += 1.0 / float(e) ** 2
            if (count is not None and len(kept) == count) or (until_a is not None and a > until_a):
                return np.array(kept)
