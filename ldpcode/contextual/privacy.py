r"""The privacy side of the contextual bandits of Zheng et al. (2020), Section 4: what the user releases,
at which noise level, and how the server absorbs the noise.

* :func:`linucb_mechanisms`: the two Gaussian mechanisms of LDP LinUCB (Section 4.1, (ε, δ)-LDP by
  Theorem 7), each at (ε/2, δ/2).
* :func:`gloc_mechanisms`: the three Gaussian mechanisms of LDP GLOC (Algorithm 3, line 2; (ε, δ)-LDP by
  Theorem 9), each at (ε/3, δ/3).
* :func:`upsilon`: Υ_t, the operator-norm bound of the summed noise matrices (Algorithm 3, line 3), which
  sets the shift c_t = 2Υ_t and the widths of Theorems 8 and 10.
* :func:`gloc_a`: a(B) of Jun et al. (2017), Theorem 1, in the GLOC widths.
* :func:`symmetric_from_upper`: the symmetric noise matrix B from its upper triangle.
* :func:`user_release`, ``_server_update``: the user/server split (Algorithm 3, lines 9-10): the server
  sees only the released tuple.
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import EPSILON_FLOOR, check_array, check_int, check_real
from ..mechanisms import GaussianMechanism


def linucb_mechanisms(epsilon, delta, y_max):
    """The two Gaussian mechanisms of LDP LinUCB (Section 4.1): (xxᵀ at (ε/2, δ/2), sensitivity 2) and
    (y x at (ε/2, δ/2), sensitivity 2 y_max)."""
    eps, d = _split(epsilon, delta, 2, "LDP LinUCB")
    y_max = check_real("y_max", y_max)
    if y_max <= 0:
        raise ValueError(f"y_max must be > 0, got {y_max!r}")
    return GaussianMechanism(eps / 2, d / 2, 2.0), GaussianMechanism(eps / 2, d / 2, 2.0 * y_max)


def gloc_mechanisms(epsilon, delta, grad_bound=1.0):
    """The three Gaussian mechanisms of Algorithm 3: xxᵀ and z x with σ = 6√(2 ln(3.75/δ))/ε
    (= (ε/3, δ/3), sensitivity 2) and the gradient with sd Cσ (sensitivity 2C), C = ``grad_bound``."""
    eps, d = _split(epsilon, delta, 3, "LDP GLOC")
    c = check_real("grad_bound", grad_bound)
    if c <= 0:
        raise ValueError(f"grad_bound must be > 0, got {grad_bound!r}")
    m = GaussianMechanism(eps / 3, d / 3, 2.0)
    return m, m, GaussianMechanism(eps / 3, d / 3, 2.0 * c)


def _split(epsilon, delta, parts: int, name: str) -> tuple[float, float]:
    """(ε, δ) checked, and refused where ε/``parts``, each mechanism's share, is below :data:`EPSILON_FLOOR`: the
    refusal names the reader's ε, not the share (ε = 2e-9 for GLOC was refused as "got 6.67e-10")."""
    base = GaussianMechanism(epsilon, delta, 2.0)  # validates epsilon and delta
    if base.epsilon / parts < EPSILON_FLOOR:
        raise ValueError(
            f"epsilon must be >= {parts * EPSILON_FLOOR:g} for {name}, whose {parts} releases each spend epsilon/"
            f"{parts} (at least ldpcode's EPSILON_FLOOR, {EPSILON_FLOOR:g}), got {base.epsilon!r}"
        )
    return base.epsilon, base.delta


def upsilon(sigma, t, dim, horizon, alpha):
    r"""Υ_t = σ√t (4√d + 2 ln(2T/α)) (Algorithm 3, line 3, our reading): w.h.p. bound on the operator
    norm of the sum of t symmetric Gaussian noise matrices with entry sd σ."""
    sigma = check_real("sigma", sigma)
    if sigma < 0:
        raise ValueError(f"sigma must be >= 0, got {sigma!r}")
    t = check_array("t", t, low=0)
    dim = check_int("dim", dim, minimum=1)
    horizon = check_int("horizon", horizon, minimum=1)
    alpha = check_real("alpha", alpha)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    return sigma * np.sqrt(t) * (4.0 * math.sqrt(dim) + 2.0 * math.log(2.0 * horizon / alpha))


def gloc_a(B, kappa, R, alpha):
    r"""a(B) = 1 + 4B/κ + 8R²/κ² ln((2/α)√(1 + 2B/κ + 4R⁴/(κ⁴α²))) of Jun et al. (2017), Theorem 1."""
    B = np.asarray(B, dtype=float)
    return (
        1
        + 4 * B / kappa
        + 8 * R**2 / kappa**2 * np.log(2 / alpha * np.sqrt(1 + 2 * B / kappa + 4 * R**4 / (kappa**4 * alpha**2)))
    )


def symmetric_from_upper(upper: np.ndarray, dim: int) -> np.ndarray:
    """A symmetric (..., d, d) matrix from its upper triangle (..., d(d+1)/2) in np.triu_indices order."""
    out = np.zeros((*upper.shape[:-1], dim, dim))
    iu = np.triu_indices(dim)
    out[..., iu[0], iu[1]] = upper
    out[..., iu[1], iu[0]] = upper
    return out


def user_release(x, stat, noise_matrix, noise_vector, grad=None, noise_grad=None):
    """What user t sends (Algorithm 3, line 9): xxᵀ + B, stat·x + ξ [, ∇ℓ + r]. ``x`` (R, d), ``stat``
    (R,) the reward y (LinUCB) or the relabel z (GLOC), noises already scaled. Nothing else leaves the
    user: the server is updated only from this tuple."""
    M = x[:, :, None] * x[:, None, :] + noise_matrix
    v = stat[:, None] * x + noise_vector
    if grad is None:
        return M, v
    return M, v, grad + noise_grad


def _server_update(state: dict, released: tuple) -> None:
    """The server's only access to user data: accumulate the released statistics."""
    state["V"] += released[0]
    state["u"] += released[1]
    if len(released) > 2:
        state["g"] = released[2]
