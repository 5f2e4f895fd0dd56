r"""What the users release, and at which noise: the σ of Algorithm 1 (:func:`one_point_sigma`, one
noisy loss value, sensitivity 2B) and of Algorithm 2 (:func:`two_point_sigma`, a noisy difference of two
values, sensitivity 4ρG) of Zheng et al. (2020), the range :math:`\tilde B` of the noisy values that the
black box is tuned for (:func:`noisy_range`, Theorem 3), and Algorithm 2's release itself
(:func:`two_point_release`). The compiled kernels of :mod:`ldpcode.bco.kernels` inline the same releases.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from .._validate import check_delta, check_int, check_real
from ..mechanisms import GaussianMechanism
from ..mechanisms.gaussian import _log_ratio
from ..reductions import algorithm1_mechanism
from .environments import _check_positive


def one_point_sigma(epsilon, delta, B) -> float:
    r"""σ of Algorithm 1 (Zheng et al. 2020, line 2): :math:`\sigma = 2B\sqrt{2\ln(1.25/\delta)}/\epsilon`,
    the Gaussian mechanism for a value in [-B, B] (L2 sensitivity 2B): the ``sigma`` of
    :func:`ldpcode.reductions.algorithm1_mechanism`, the one place where Algorithm 1's noise is calibrated."""
    return algorithm1_mechanism(epsilon, delta, _check_positive("B", B)).sigma


def two_point_sigma(epsilon, delta, G) -> float:
    r"""σ of Algorithm 2 (Zheng et al. 2020, line 2 and Section 3.2), read as
    :math:`\sigma = 2G\sqrt{2\ln(1.25/\delta)}/\epsilon` (the extraction prints "2G 2 ln(1.25/δ) T"; the
    text under Algorithm 2 gives ε in the denominator). The released difference
    f(x_{t,1}) - f(x_{t,2}) lies in [-2ρG, 2ρG] (L2 sensitivity 4ρG) and the added noise
    n_t·(x_{t,1} - x_{t,2}) = 2ρ n_t·u_t ~ N(0, (2ρσ)²): 2ρσ is exactly the Gaussian mechanism's σ for
    sensitivity 4ρG, whatever ρ."""
    return GaussianMechanism(epsilon, delta, sensitivity=2.0 * _check_positive("G", G)).sigma


def noisy_range(B, sigma, horizon, delta) -> float:
    r"""The range of the virtual loss f_t + Z_t used to tune the black box (Theorem 3 of Zheng et al.):
    :math:`\tilde B = B + \sigma\sqrt{2\ln(T/\delta)}` (with probability >= 1 - δ all ``|Z_t|`` are below
    the second term). For σ = 0 (no privacy noise) it is B, and δ is not used (a non-private run has none).
    Finite for every δ in (0, 1) (down to :data:`~ldpcode._validate.DELTA_FLOOR`) and every horizon; a B or σ so
    large that the range leaves the doubles is refused by name."""
    B = _check_positive("B", B)
    sigma = check_real("sigma", sigma)
    if sigma < 0:
        raise ValueError(f"sigma must be >= 0, got {sigma!r}")
    T = check_int("horizon", horizon, minimum=1)
    if sigma == 0:
        return B
    d = check_delta(delta)
    root = math.sqrt(2.0 * _log_ratio(max(T, 2), d))  # finite for every δ > 0 and every T
    Bt = B + sigma * root
    if not math.isfinite(Bt):
        shown = T if T.bit_length() <= 64 else f"2^{T.bit_length() - 1}+"
        raise ValueError(
            f"the noisy range B + sigma*sqrt(2 log(horizon/delta)) leaves the doubles at B={B!r}, sigma={sigma!r}, "
            f"horizon={shown}, delta={d!r}: sigma must be <= {(sys.float_info.max - B) / root / 2:.3g} there"
        )
    return Bt


def two_point_release(f1, f2, x1, x2, sigma, rng: np.random.Generator):
    r"""What user t sends in Algorithm 2 (line 5): :math:`f_t(x_{t,1}) - f_t(x_{t,2}) + n_t^\top(x_{t,1} - x_{t,2})`,
    :math:`n_t \sim N(0, \sigma^2 I_d)`. Vectorised: ``f1``, ``f2`` (n,), ``x1``, ``x2`` (n, d). (The
    simulation kernel inlines the same computation.)"""
    sigma = check_real("sigma", sigma)
    if sigma < 0:
        raise ValueError(f"sigma must be >= 0, got {sigma!r}")
    x1 = np.asarray(x1, dtype=float)
    x2 = np.asarray(x2, dtype=float)
    if x1.shape != x2.shape or x1.ndim != 2:
        raise ValueError(f"x1 and x2 must have the same shape (n, d), got {x1.shape} and {x2.shape}")
    f1 = np.asarray(f1, dtype=float)
    f2 = np.asarray(f2, dtype=float)
    if f1.shape != (x1.shape[0],) or f2.shape != f1.shape:
        raise ValueError(f"f1 and f2 must have shape ({x1.shape[0]},), got {f1.shape} and {f2.shape}")
    n = sigma * rng.standard_normal(x1.shape)
    return f1 - f2 + ((x1 - x2) * n).sum(axis=1)
