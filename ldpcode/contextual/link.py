r"""The logistic link and the context law of the contextual bandits of Zheng et al. (2020), Section 4.

* :func:`logistic`, :func:`logistic_derivative`: the link :math:`\mu(z) = 1/(1 + e^{-z})` of the generalized linear
  bandits (Section 4.2, Algorithm 3) and μ', whose value at S = 1 is the κ of GLOC.
* :func:`logistic_loss_gradient`: the gradient of the logistic loss, the online learner's input in
  Algorithm 3 (line 9, the released ∇ℓ_t) and in the non-private GLOC of Jun et al. (2017).
* :func:`sample_unit_ball`: uniform contexts in the unit ball of :math:`\mathbb R^d`.
"""

from __future__ import annotations

import numpy as np

from .._validate import check_int, check_rng


def logistic(z):
    r"""The logistic link :math:`\mu(z) = 1/(1 + e^{-z})` of Section 4.2 (Bernoulli rewards)."""
    z = np.asarray(z, dtype=float)
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def logistic_derivative(z):
    r""":math:`\mu'(z) = \mu(z)(1 - \mu(z))`; :math:`\kappa = \inf_{|z|\le 1}\mu'(z) = \mu'(1)` is the μ of
    Section 4.2."""
    m = logistic(z)
    return m * (1.0 - m)


def logistic_loss_gradient(theta, x, y):
    r"""Gradient in θ of the negative log-likelihood :math:`\ell(a, b) = -ab + m(a)`, :math:`m(a) = \ln(1 + e^a)`,
    at :math:`a = x^\top\theta` (Section 4.2): :math:`\nabla_\theta\ell = (\mu(x^\top\theta) - y)\,x`. Broadcasts over
    leading axes."""
    theta = np.asarray(theta, dtype=float)
    x = np.asarray(x, dtype=float)
    if theta.shape[-1] != x.shape[-1]:
        raise ValueError(f"theta and x must have the same last dimension, got {theta.shape} and {x.shape}")
    a = np.sum(theta * x, axis=-1)
    return (logistic(a) - np.asarray(y, dtype=float))[..., None] * x


def sample_unit_ball(rng: np.random.Generator, shape, dim: int) -> np.ndarray:
    r"""Uniform points in the unit ball of :math:`\mathbb R^{\mathrm{dim}}`: Gaussian direction, radius
    :math:`U^{1/\mathrm{dim}}` with U uniform on [0, 1)."""
    rng = check_rng("rng", rng)
    dim = check_int("dim", dim, minimum=1)
    g = rng.standard_normal((*shape, dim))
    g /= np.linalg.norm(g, axis=-1, keepdims=True)
    return g * rng.random((*shape, 1)) ** (1.0 / dim)
