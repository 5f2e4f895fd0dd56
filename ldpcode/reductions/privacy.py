r"""The privacy side of Algorithm 1 of Zheng et al. (2020): its noise, and the Gaussian mechanism's privacy loss.

Algorithm 1 (Section 3.1), line 2: user t releases :math:`f_t(x_t) + Z_t`, :math:`Z_t\sim N(0,\sigma^2)` with
:math:`\sigma = 2B\sqrt{2\ln(1.25/\delta)}/\epsilon`, B the loss bound, so 2B is the sensitivity
(Theorem 2: (ε, δ)-LDP). :func:`algorithm1_mechanism` builds that
:class:`ldpcode.mechanisms.GaussianMechanism`, :func:`laplace_mechanism` the ε-LDP variant
(:math:`\mathrm{Lap}(2B/\epsilon)`), :func:`noise_variance` the variance the learner is tuned to
(Theorem 3's learner on noisy losses).

The privacy loss of the Gaussian mechanism, for the notebook ``algorithm1_theorems2_3`` (Theorem 2's
calibration against the exact curve): :func:`gaussian_exact_delta` (Balle and Wang 2018, Theorem 8),
:func:`gaussian_loss_tail` and :func:`gaussian_privacy_loss` (Dwork and Roth 2014, Appendix A), which live
with the mechanism (:mod:`ldpcode.mechanisms.gaussian`) and are importable from here as before.
"""

from __future__ import annotations


from .._validate import check_real
from ..mechanisms import (
    GaussianMechanism,
    LaplaceMechanism,
    gaussian_exact_delta as gaussian_exact_delta,
    gaussian_loss_tail as gaussian_loss_tail,
    gaussian_privacy_loss as gaussian_privacy_loss,
)


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
    if isinstance(mechanism, (GaussianMechanism, LaplaceMechanism)):
        return mechanism.noise_variance
    v = getattr(mechanism, "variance", None)
    if v is None:
        raise ValueError(
            f"mechanism must be a GaussianMechanism, a LaplaceMechanism or have a .variance, got {mechanism!r}"
        )
    return float(v)
