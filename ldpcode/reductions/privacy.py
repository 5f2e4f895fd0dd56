r"""The privacy side of Algorithm 1 of Zheng et al. (2020): its noise, and the Gaussian mechanism's privacy loss.

Algorithm 1 (Section 3.1), line 2: user t releases :math:`f_t(x_t) + Z_t`, :math:`Z_t\sim N(0,\sigma^2)` with
:math:`\sigma = 2B\sqrt{2\ln(1.25/\delta)}/\epsilon`, B the loss bound, so 2B is the sensitivity
(Theorem 2: (ε, δ)-LDP). :func:`algorithm1_mechanism` builds that
:class:`ldpcode.mechanisms.GaussianMechanism`, :func:`laplace_mechanism` the ε-LDP variant
(:math:`\mathrm{Lap}(2B/\epsilon)`), :func:`noise_variance` the variance the learner is tuned to
(Theorem 3's learner on noisy losses).

The privacy loss of the Gaussian mechanism, for the notebook ``algorithm1_theorems2_3`` (Theorem 2's
calibration against the exact curve): :func:`gaussian_exact_delta` (Balle and Wang 2018, Theorem 8),
:func:`gaussian_loss_tail` and :func:`gaussian_privacy_loss` (Dwork and Roth 2014, Appendix A).
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import check_real
from ..mechanisms import GaussianMechanism, LaplaceMechanism


# ----------------------------------------------------------------------------------------------
# Mechanisms of Algorithm 1
# ----------------------------------------------------------------------------------------------


def _check_loss_bound(loss_bound) -> float:
    b = check_real("loss_bound", loss_bound)
    if b <= 0:
        raise ValueError(f"loss_bound must be a finite number > 0 (B with |f_t(x)| <= B), got {loss_bound!r}")
    return b


def algorithm1_mechanism(epsilon, delta, loss_bound=1.0) -> GaussianMechanism:
    r"""The noise of Algorithm 1, line 2: Gaussian with sensitivity 2B, so
    :math:`\sigma = 2B\sqrt{2\ln(1.25/\delta)}/\epsilon` ((ε, δ)-LDP, Theorem 2)."""
    b = _check_loss_bound(loss_bound)
    return GaussianMechanism(epsilon, delta, sensitivity=2.0 * b)


def laplace_mechanism(epsilon, loss_bound=1.0) -> LaplaceMechanism:
    r"""The ε-LDP variant of Algorithm 1: :math:`\mathrm{Lap}(2B/\epsilon)` noise on the loss."""
    b = _check_loss_bound(loss_bound)
    return LaplaceMechanism(epsilon, sensitivity=2.0 * b)


def noise_variance(mechanism) -> float:
    """Variance of the noise a mechanism adds: σ² (Gaussian), 2 b² (Laplace of scale b), or ``.variance``."""
    if isinstance(mechanism, GaussianMechanism):
        return mechanism.sigma**2
    if isinstance(mechanism, LaplaceMechanism):
        return 2.0 * mechanism.scale**2
    v = getattr(mechanism, "variance", None)
    if v is None:
        raise ValueError(
            f"mechanism must be a GaussianMechanism, a LaplaceMechanism or have a .variance, got {mechanism!r}"
        )
    return float(v)


# ----------------------------------------------------------------------------------------------
# Privacy loss of the Gaussian mechanism (notebook algorithm1_theorems2_3)
# ----------------------------------------------------------------------------------------------


def gaussian_exact_delta(epsilon, sigma, sensitivity):
    r"""The exact δ(ε) of the Gaussian mechanism (Balle and Wang 2018, Theorem 8):

    .. math:: \delta(\epsilon) = \Phi\Big(\frac{\Delta}{2\sigma} - \frac{\epsilon\sigma}{\Delta}\Big)
              - e^{\epsilon}\,\Phi\Big(-\frac{\Delta}{2\sigma} - \frac{\epsilon\sigma}{\Delta}\Big),

    the smallest δ for which :math:`x\mapsto x + N(0,\sigma^2)` with sensitivity Δ is (ε, δ)-DP.
    Equivalently, with the privacy loss :math:`L\sim N(\mu, 2\mu)`, :math:`\mu = \Delta^2/(2\sigma^2)`:
    :math:`\delta = P[L>\epsilon] - e^\epsilon P[L' < -\epsilon]`. ``epsilon`` may be an array.
    """
    from scipy.stats import norm

    eps = np.asarray(epsilon, dtype=float)
    if not np.all(np.isfinite(eps)) or np.any(eps < 0):
        raise ValueError(f"epsilon must be finite and >= 0, got {epsilon!r}")
    s = check_real("sigma", sigma)
    if s <= 0:
        raise ValueError(f"sigma must be > 0, got {sigma!r}")
    d = check_real("sensitivity", sensitivity)
    if d <= 0:
        raise ValueError(f"sensitivity must be > 0, got {sensitivity!r}")
    a, b = d / (2 * s), eps * s / d
    # e^eps Phi(-a-b) computed in logs to avoid overflow at large eps
    return norm.cdf(a - b) - np.exp(eps + norm.logcdf(-a - b))


def gaussian_loss_tail(epsilon, sigma, sensitivity):
    r""":math:`P[L > \epsilon]` for the privacy loss :math:`L\sim N(\mu, 2\mu)`, :math:`\mu=\Delta^2/(2\sigma^2)`
    (Dwork and Roth 2014, proof of Theorem A.1 bounds it by δ for ε < 1)."""
    from scipy.stats import norm

    eps = np.asarray(epsilon, dtype=float)
    s = check_real("sigma", sigma)
    d = check_real("sensitivity", sensitivity)
    if s <= 0 or d <= 0:
        raise ValueError(f"sigma and sensitivity must be > 0, got sigma={sigma!r}, sensitivity={sensitivity!r}")
    mu = d * d / (2 * s * s)
    return norm.sf((eps - mu) / math.sqrt(2 * mu))


def gaussian_privacy_loss(outputs, f, f_prime, sigma):
    r"""Privacy loss :math:`\ln\frac{p(y\mid f)}{p(y\mid f')} = \frac{(y-f')^2 - (y-f)^2}{2\sigma^2}` of the
    Gaussian mechanism at outputs y (Dwork and Roth 2014, Appendix A)."""
    y = np.asarray(outputs, dtype=float)
    s = check_real("sigma", sigma)
    if s <= 0:
        raise ValueError(f"sigma must be > 0, got {sigma!r}")
    return ((y - f_prime) ** 2 - (y - f) ** 2) / (2 * s * s)
