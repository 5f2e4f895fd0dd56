r"""(ε, δ)-LDP (Zheng et al. 2020): the Gaussian mechanism, its ε-LDP Laplace counterpart, and their exact laws.

=================================  ================================================================================
name                               what it computes
=================================  ================================================================================
:class:`GaussianMechanism`         :math:`x + N(0, \sigma^2)`, :math:`\sigma = \Delta\sqrt{2\log(1.25/\delta)}/\epsilon`
                                   (Dwork and Roth 2014, Theorem A.1)
:class:`LaplaceMechanism`          :math:`x + \mathrm{Lap}(\Delta_1/\epsilon)` (Dwork and Roth 2014, Theorem 3.6)
:func:`gaussian_exact_delta`       the exact δ(ε) of the Gaussian mechanism (Balle and Wang 2018, Theorem 8)
:func:`gaussian_epsilon_at_delta`  its inverse: the exact ε at a given δ
:func:`gaussian_loss_tail`         :math:`P[L > \epsilon]`, L the privacy loss random variable (Dwork and Roth, App. A)
:func:`gaussian_privacy_loss`      the privacy loss at given outputs (Dwork and Roth, Appendix A)
=================================  ================================================================================

Both mechanisms are members of the family :class:`ldpcode.mechanisms.LocalMechanism` (``privatize``,
``output_mean``, ``output_law``, ``privacy_loss``, ``exact_epsilon``); the audits
(:func:`ldpcode.audit.exact_curator_loss`) and the Zheng et al. modules (:mod:`ldpcode.reductions`,
:mod:`ldpcode.bco`, :mod:`ldpcode.contextual`) use these methods and functions instead of their own copies.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

import numpy as np

from .._validate import (
    check_array,
    check_delta,
    check_epsilon,
    check_finite_array,
    check_probability,
    check_real,
    check_rng,
)


def _check_sensitivity(value, name: str = "sensitivity") -> float:
    value = check_real(name, value)
    if value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def _check_curve_epsilon(epsilon) -> np.ndarray:
    """The ε of a point of the Gaussian mechanism's privacy curve: finite numbers >= 0, an array or a number (strings,
    bools and nan refused by name; '0.5' was 0.5)."""
    return check_array("epsilon", epsilon, low=0)


def _spread(inputs, default_sensitivity: float) -> float:
    """max - min of ``inputs`` (at least one finite number), or the sensitivity when ``inputs`` is None."""
    if inputs is None:
        return default_sensitivity
    x = check_finite_array("inputs", inputs).ravel()
    if x.size == 0:
        raise ValueError("inputs must hold at least one number")
    return float(x.max() - x.min())


# ----------------------------------------------------------------------------------------------
# The exact privacy curve of the Gaussian mechanism
# ----------------------------------------------------------------------------------------------

GAUSSIAN_MIN_RATIO = 1e-6
"""The smallest Δ/σ at which :func:`gaussian_exact_delta` (and so :func:`gaussian_epsilon_at_delta`) computes: its two
terms Φ(a − b) and e^ε Φ(−a − b), a = Δ/(2σ), nearly cancel for small a, and the closed form keeps a relative error
of about 1.5e-11·σ/Δ (measured against 80-digit mpmath over every δ above 1e-300: 1e-11 at Δ/σ = 1, 9e-6 at 1e-6,
1.4e-3 at 1e-8, and negative values at 1e-12). At 1e-6 every ε >= 1e-4 (the papers' smallest) of the Gaussian
mechanism at any δ >= 5e-324 is in range (there Δ/σ = ε/√(2 log(1.25/δ)) >= 2.6e-6)."""


def _check_ratio(sigma: float, sensitivity: float) -> None:
    if sensitivity / sigma < GAUSSIAN_MIN_RATIO:
        raise ValueError(
            f"sensitivity / sigma must be >= {GAUSSIAN_MIN_RATIO:g} (GAUSSIAN_MIN_RATIO: below it the closed form of "
            f"delta(eps) loses its digits to cancellation, a relative error of about 1.5e-11 sigma/sensitivity), "
            f"got sensitivity={sensitivity!r}, sigma={sigma!r}"
        )


def gaussian_exact_delta(epsilon, sigma, sensitivity):
    r"""The exact δ(ε) of the Gaussian mechanism (Balle and Wang 2018, Theorem 8):

    .. math:: \delta(\epsilon) = \Phi\Big(\frac{\Delta}{2\sigma} - \frac{\epsilon\sigma}{\Delta}\Big)
              - e^{\epsilon}\,\Phi\Big(-\frac{\Delta}{2\sigma} - \frac{\epsilon\sigma}{\Delta}\Big),

    the smallest δ for which :math:`x\mapsto x + N(0,\sigma^2)` with sensitivity Δ is (ε, δ)-DP.
    Equivalently, with the privacy loss :math:`L\sim N(\mu, 2\mu)`, :math:`\mu = \Delta^2/(2\sigma^2)`:
    :math:`\delta = P[L>\epsilon] - e^\epsilon P[L' < -\epsilon]`. ``epsilon`` may be an array of finite numbers
    >= 0 (ε = 0 included: the curve starts there, :func:`gaussian_epsilon_at_delta` reads it; no floor, since
    nothing here divides by ε).

    Accurate to a relative error of about 1.5e-11·σ/Δ for δ above 1e-300, so Δ/σ below
    :data:`GAUSSIAN_MIN_RATIO` (1e-6), where the two terms cancel, is refused (1e-14 gave -1.5e-102 for +1.4e-104).
    Below 1e-300 the difference is rounding: the result is clipped at 0 (-2.4e-311 at ε = 38.2, Δ = σ).
    """
    from scipy.stats import norm

    eps = _check_curve_epsilon(epsilon)
    s = check_real("sigma", sigma)
    if s <= 0:
        raise ValueError(f"sigma must be > 0, got {sigma!r}")
    d = check_real("sensitivity", sensitivity)
    if d <= 0:
        raise ValueError(f"sensitivity must be > 0, got {sensitivity!r}")
    _check_ratio(s, d)
    a, b = d / (2 * s), eps * s / d
    # e^eps Phi(-a-b) computed in logs to avoid overflow at large eps; a negative difference is rounding (below 1e-300)
    out = norm.cdf(a - b) - np.exp(eps + norm.logcdf(-a - b))
    return np.where(out < 0, 0.0, out)[()]  # -0.0, where the terms are equal, stays as it was


def gaussian_epsilon_at_delta(sigma, sensitivity, delta) -> float:
    r"""The exact ε of the Gaussian mechanism :math:`x + N(0, \sigma^2)` with sensitivity Δ at a given δ:
    the smallest ε >= 0 with :math:`\delta(\epsilon) \le \delta`, for the exact
    :math:`\delta(\epsilon) = \Phi(\tfrac{\Delta}{2\sigma} - \tfrac{\epsilon\sigma}{\Delta}) - e^\epsilon
    \Phi(-\tfrac{\Delta}{2\sigma} - \tfrac{\epsilon\sigma}{\Delta})` of Balle and Wang (2018, Theorem 8)
    (:func:`gaussian_exact_delta`), which decreases in ε (root by Brent's method). 0 when Δ = 0 or
    δ(0) <= δ; ``inf`` at δ = 0 (Δ > 0): the Gaussian mechanism satisfies no pure ε-DP, its privacy loss
    random variable being unbounded. Δ/σ below :data:`GAUSSIAN_MIN_RATIO` gives 0 where δ(0) = erf(Δ/(2√2σ)) <= δ
    (no cancellation there) and is refused otherwise (:func:`gaussian_exact_delta`).
    Brent's absolute tolerance of 1e-12 left a root below 1e-6 to a relative error above 1e-6 (0.0 for a root of
    1e-13, 9.1e-13 for 8e-14): such a root is solved again with a tolerance relative to it."""
    from scipy.optimize import brentq

    s = check_real("sigma", sigma)
    if s <= 0:
        raise ValueError(f"sigma must be > 0, got {sigma!r}")
    dd = check_real("sensitivity", sensitivity)
    if dd < 0:
        raise ValueError(f"sensitivity must be >= 0, got {sensitivity!r}")
    dl = check_probability("delta", delta, low_closed=True)
    if dd == 0:
        return 0.0
    if dl == 0.0:
        return math.inf  # Gaussian noise has no pure-epsilon guarantee: delta(eps) > 0 for every finite eps
    if math.erf(dd / (2.0 * math.sqrt(2.0) * s)) <= dl:  # δ(0) = Φ(a) - Φ(-a) = erf(a/√2): no cancellation, any Δ/σ
        return 0.0
    f = lambda e: float(gaussian_exact_delta(e, s, dd)) - dl  # noqa: E731
    hi = 1.0
    while f(hi) > 0:
        hi *= 2.0
        if hi > 1e300:  # the root is beyond the doubles (Delta/sigma above 1e150): the loss is infinite
            return math.inf
    root = float(brentq(f, 0.0, hi, xtol=1e-12, rtol=1e-12))
    if root < 1e-6:  # within 1e-12 of the root, whose sign change is in [0, root + 1e-12]: solve relative to it
        top = root + 2e-12 if f(root + 2e-12) <= 0 else hi
        root = float(brentq(f, 0.0, top, xtol=1e-12 * top, rtol=1e-12, maxiter=400))
    return root


def gaussian_loss_tail(epsilon, sigma, sensitivity):
    r""":math:`P[L > \epsilon]` for the privacy loss :math:`L\sim N(\mu, 2\mu)`, :math:`\mu=\Delta^2/(2\sigma^2)`
    (Dwork and Roth 2014, proof of Theorem A.1 bounds it by δ for ε < 1). ``epsilon`` as in
    :func:`gaussian_exact_delta`. Where Δ or σ leave [2^-250, 2^250] (μ over- or underflowed: nan, ZeroDivisionError),
    as :math:`\bar\Phi(\epsilon/r - r/2)`, :math:`r = \Delta/\sigma = \sqrt{2\mu}`."""
    from scipy.stats import norm

    eps = _check_curve_epsilon(epsilon)
    s = check_real("sigma", sigma)
    d = check_real("sensitivity", sensitivity)
    if s <= 0 or d <= 0:
        raise ValueError(f"sigma and sensitivity must be > 0, got sigma={sigma!r}, sensitivity={sensitivity!r}")
    if not (2.0**-250 <= s <= 2.0**250 and 2.0**-250 <= d <= 2.0**250):  # elementwise: ε may be an array
        r = d / s
        if r == 0:  # Δ/σ underflowed: L ~ N(μ, 2μ) with μ -> 0, so P[L > ε] -> 0 for ε > 0 and 1/2 at ε = 0
            return np.where(eps == 0, 0.5, 0.0) if eps.ndim else (0.5 if eps == 0 else 0.0)
        with np.errstate(over="ignore"):  # ε/r beyond the doubles is inf: a tail of 0
            return norm.sf(np.where(eps == 0, 0.0, eps / r) - r / 2)
    mu = d * d / (2 * s * s)
    return norm.sf((eps - mu) / math.sqrt(2 * mu))


def gaussian_privacy_loss(outputs, f, f_prime, sigma):
    r"""Privacy loss :math:`\ln\frac{p(y\mid f)}{p(y\mid f')} = \frac{(y-f')^2 - (y-f)^2}{2\sigma^2}` of the
    Gaussian mechanism at outputs y (Dwork and Roth 2014, Appendix A). ``outputs``, ``f`` and ``f_prime`` are finite
    numbers or arrays that broadcast together (f = nan gave a loss of nan). Where the squares overflow, the equal
    :math:`\frac{f-f'}{\sigma}\cdot\frac{(y-f)/2 + (y-f')/2}{\sigma}` (at y = 1e200 the loss was nan)."""
    y = check_array("outputs", outputs)
    f, f_prime = check_array("f", f), check_array("f_prime", f_prime)
    try:
        np.broadcast_shapes(y.shape, f.shape, f_prime.shape)
    except ValueError:
        raise ValueError(
            f"outputs, f and f_prime must broadcast together, got shapes {y.shape}, {f.shape} and {f_prime.shape}"
        ) from None
    s = check_real("sigma", sigma)
    if s <= 0:
        raise ValueError(f"sigma must be > 0, got {sigma!r}")
    with np.errstate(over="ignore", invalid="ignore"):
        out = ((y - f_prime) ** 2 - (y - f) ** 2) / (2 * s * s)
    if np.isfinite(out).all():
        return out
    with np.errstate(over="ignore"):  # inf only where the loss itself is beyond the doubles
        return np.where(np.isfinite(out), out, (f - f_prime) / s * ((0.5 * (y - f) + 0.5 * (y - f_prime)) / s))[()]


# ----------------------------------------------------------------------------------------------
# The mechanisms
# ----------------------------------------------------------------------------------------------


def _log_ratio(a, d: float) -> float:
    """log(a/d) for a > 0 (a double or an integer of any size, such as a horizon) and d > 0, finite for every
    positive double d: a/d overflows to inf for d below about 1e-308 (δ = 5e-324 made σ infinite and the learner
    deaf to every reward), or raises for an integer a beyond the doubles, and there it is log a − log d. Elsewhere
    it is log(a/d) itself, so that every σ of the book stays bit for bit what it was."""
    try:
        ratio = a / d
    except OverflowError:  # an integer a above 1.8e308: math.log takes it as it is
        ratio = math.inf
    return math.log(ratio) if math.isfinite(ratio) else math.log(a) - math.log(d)


_SQRT_MAX = math.sqrt(sys.float_info.max)  # 1.34e154: the largest σ whose square σ² is still a double


def _floor3(x: float) -> str:
    """x rounded down to three significant digits, for a bound a refusal message offers (never above x)."""
    step = 10.0 ** (math.floor(math.log10(x)) - 2)
    return f"{math.floor(x / step) * step:.3g}"


def _check_noise(kind: str, sd: float, variance: float, settings: str, largest: float) -> None:
    """Refuse, in one line naming the parameters, a noise whose scale ``sd`` or ``variance`` is not a finite double
    (the learners of :mod:`ldpcode.reductions` are tuned to the variance); ``largest`` is the largest sensitivity
    the other parameters allow."""
    if not (math.isfinite(sd) and math.isfinite(variance)):
        raise ValueError(
            f"the {kind} mechanism at {settings} has a noise variance beyond the doubles (scale {sd:.3g}): "
            f"sensitivity must be <= {_floor3(largest)} at this epsilon{' and delta' if 'delta' in settings else ''}"
        )


@dataclass(frozen=True, init=False)
class GaussianMechanism:
    r"""The Gaussian mechanism (Dwork and Roth 2014, Theorem A.1), the curator of Zheng et al. (2020):
    :math:`x \mapsto x + N(0, \sigma^2 I)` with

    .. math:: \sigma = \frac{\Delta\sqrt{2\log(1.25/\delta)}}{\epsilon},

    Δ the L2 sensitivity of x. Dwork and Roth prove (ε, δ)-DP for ε < 1; for ε >= 1 the same σ is used
    by the paper, and :meth:`exact_epsilon` (Balle and Wang 2018, Theorem 8) shows what it gives.
    ``privatize(values, rng)`` adds the noise to every entry (scalars or vectors, any shape).

    ``delta`` is any probability in (0, 1), down to :data:`~ldpcode._validate.DELTA_FLOOR` (5e-324, the smallest
    positive double), where log(1.25/δ) = 744.66 and σ = 38.6 Δ/ε. A sensitivity so large that σ² (the noise
    variance the learners are tuned to) leaves the doubles, Δ above 1.34e154·ε/√(2 log(1.25/δ)), is refused.
    """

    epsilon: float
    delta: float
    sensitivity: float
    sigma: float

    def __init__(self, epsilon, delta, sensitivity=1.0):
        eps = check_epsilon(epsilon)
        d = check_delta(delta)
        s = _check_sensitivity(sensitivity)
        object.__setattr__(self, "epsilon", eps)
        object.__setattr__(self, "delta", d)
        object.__setattr__(self, "sensitivity", s)
        root = math.sqrt(2.0 * _log_ratio(1.25, d))  # <= 38.6 for every delta >= DELTA_FLOOR
        sigma = s * root / eps
        _check_noise(
            "Gaussian",
            sigma,
            sigma * sigma,
            f"epsilon={eps!r}, delta={d!r}, sensitivity={s!r}",
            _SQRT_MAX * (eps / root),
        )
        object.__setattr__(self, "sigma", sigma)

    def privatize(self, values, rng: np.random.Generator) -> np.ndarray:
        """``values`` plus independent N(0, σ²) noise on every entry."""
        x = check_finite_array("values", values)
        return x + self.sigma * check_rng("rng", rng).standard_normal(x.shape)

    @property
    def noise_variance(self) -> float:
        """σ², the variance of the added noise (the learners of :mod:`ldpcode.reductions` are tuned to it)."""
        return self.sigma**2

    def output_mean(self, mu):
        """The noise has mean 0: the mean output on an input of mean ``mu`` (any finite number) is ``mu``."""
        return check_finite_array("mu", mu) * 1.0

    def output_law(self, x):
        """The law of the output on input ``x``: ``scipy.stats.norm(loc=x, scale=sigma)`` (frozen; arrays broadcast)."""
        from scipy.stats import norm

        return norm(loc=check_finite_array("x", x), scale=self.sigma)

    def exact_delta(self, epsilon, sensitivity=None):
        """The exact δ(ε) at this σ (:func:`gaussian_exact_delta`; Δ = ``sensitivity``, default the mechanism's)."""
        d = self.sensitivity if sensitivity is None else sensitivity
        return gaussian_exact_delta(epsilon, self.sigma, d)

    def privacy_loss(self, inputs=None, delta=None) -> float:
        r"""The exact ε over ``inputs`` at ``delta`` (default: the mechanism's own δ): the smallest ε with
        :math:`\delta(\epsilon) \le \delta` for Δ = the spread of ``inputs`` (default: Δ = the sensitivity)
        (:func:`gaussian_epsilon_at_delta`; ``inf`` at δ = 0)."""
        dl = self.delta if delta is None else delta
        return gaussian_epsilon_at_delta(self.sigma, _spread(inputs, self.sensitivity), dl)

    def exact_epsilon(self, delta=None) -> float:
        """The exact worst-case ε at ``delta`` (default the mechanism's δ), over inputs at distance the
        sensitivity: :meth:`privacy_loss` with its default inputs. Below ε for ε < 1 (Theorem A.1 is loose)."""
        return self.privacy_loss(None, delta)


@dataclass(frozen=True, init=False)
class LaplaceMechanism:
    r"""The ε-DP Laplace mechanism (Dwork and Roth 2014, Theorem 3.6): :math:`x \mapsto x + \mathrm{Lap}(\Delta_1/\epsilon)`
    entrywise, Δ₁ the L1 sensitivity of x: the pure-ε counterpart of :class:`GaussianMechanism`. A sensitivity so
    large that the variance 2(Δ₁/ε)² leaves the doubles (Δ₁ above 9.48e153·ε) is refused."""

    epsilon: float
    sensitivity: float
    scale: float

    def __init__(self, epsilon, sensitivity=1.0):
        eps = check_epsilon(epsilon)
        s = _check_sensitivity(sensitivity)
        object.__setattr__(self, "epsilon", eps)
        object.__setattr__(self, "sensitivity", s)
        b = s / eps
        _check_noise("Laplace", b, 2.0 * b * b, f"epsilon={eps!r}, sensitivity={s!r}", _SQRT_MAX / math.sqrt(2.0) * eps)
        object.__setattr__(self, "scale", b)

    def privatize(self, values, rng: np.random.Generator) -> np.ndarray:
        """``values`` plus independent Laplace(Δ₁/ε) noise on every entry."""
        x = check_finite_array("values", values)
        return x + check_rng("rng", rng).laplace(0.0, self.scale, x.shape)

    @property
    def noise_variance(self) -> float:
        """2 b², the variance of Laplace noise of scale b = Δ₁/ε."""
        return 2.0 * self.scale**2

    def output_mean(self, mu):
        """The noise has mean 0: the mean output on an input of mean ``mu`` (any finite number) is ``mu``."""
        return check_finite_array("mu", mu) * 1.0

    def output_law(self, x):
        """The law of the output on input ``x``: ``scipy.stats.laplace(loc=x, scale=b)`` (frozen; arrays broadcast)."""
        from scipy.stats import laplace

        return laplace(loc=check_finite_array("x", x), scale=self.scale)

    def privacy_loss(self, inputs=None) -> float:
        r"""The exact privacy loss over ``inputs``: Laplace laws of one scale b shifted by at most
        :math:`\max x - \min x`, so :math:`\sup_y |\log f(y\mid x)/f(y\mid x')| = (\max x - \min x)/b`
        (default inputs: two at distance the sensitivity)."""
        return float(_spread(inputs, self.sensitivity) / self.scale)

    def exact_epsilon(self) -> float:
        """The exact worst-case loss, Δ₁/b: ε up to the rounding of b = Δ₁/ε (Theorem 3.6)."""
        return self.privacy_loss()
