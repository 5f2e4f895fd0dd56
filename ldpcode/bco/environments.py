r"""The environments of the BCO simulations: the losses f_t on the unit ball of R^d, their constants
(:class:`Environment`, :func:`make_environment`), and their compiled forms used by every kernel
(``_loss``, f_t at a point; ``_accumulate``, the running sums of θ_s or c_s; ``_comparator``, the exact
:math:`\min_{x\in X}\sum_{s\le t} f_s(x)` from those sums). Also ``_check_positive``, the check of a
positive number the other rooms share.

``"linear"``: f_t(x) = θ_t·x, θ_t = (0.6, 0.4 cos(2π t/P), 0.4 sin(2π t/P), 0, ..., 0), P = :data:`PERIOD`;
``"quadratic"``: f_t(x) = :data:`QUAD_SCALE` ||x - c_t||², c_t = 0.5 (cos(2π t/P), sin(2π t/P), 0, ..., 0);
``"stochastic"``: f(x) = QUAD_SCALE ||x - c||², c = (0.5, 0, ..., 0), observed with i.i.d. Gaussian
noise of standard deviation :data:`STOCH_NOISE_SD`; ``"constant"``: f_t = 1/2. The constants B, G, μ and β of each are
derived in the docstring of :mod:`ldpcode.bco`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from numba import njit

from .._validate import check_int, check_real


ENVIRONMENTS = ("linear", "quadratic", "stochastic", "constant")


_ENV_CODE = {"linear": 0, "quadratic": 1, "stochastic": 2, "constant": 3}


PERIOD = 7.0  # period P of the moving θ_t / c_t (short: not trackable by the learner)


QUAD_SCALE = 4.0 / 9.0  # f_t = QUAD_SCALE ||x - c_t||^2


STOCH_NOISE_SD = 0.1  # sd of q_t in the stochastic environment


#: the range (max - min) of f_t over the unit ball: 2|θ_t| = 2·hypot(0.6, 0.4) for the linear losses, QUAD_SCALE·(1 +
#: 0.5)² = 1 for the quadratics (c_t at radius 0.5; the stochastic one without its noise). A regret per round is at
#: most this, which caps the exponent of 1/ε an ε sweep can show (:func:`ldpcode.bco.report.exponent_room`)
LOSS_RANGE = {"linear": 2 * math.hypot(0.6, 0.4), "quadratic": 1.0, "stochastic": 1.0}


@dataclass(frozen=True)
class Environment:
    """Constants of one environment (see the module docstring): ``B`` bound on ``|f_t|`` on X, ``G``
    Lipschitz constant used in the tuning, ``mu`` strong-convexity modulus (0 if only convex), ``beta``
    smoothness constant (∇f_t is β-Lipschitz: 0 for linear and constant losses, 8/9 for the quadratics)."""

    name: str
    d: int
    B: float
    G: float
    mu: float
    beta: float = 0.0


def make_environment(name: str, d: int = 5) -> Environment:
    """The environment ``name`` ("linear", "quadratic" or "stochastic") on the unit ball of R^d, d >= 3."""
    if name not in ENVIRONMENTS:
        raise ValueError(f"environment must be one of {ENVIRONMENTS}, got {name!r}")
    d = check_int("d", d, minimum=3)
    if name in ("linear", "constant"):
        return Environment(name, d, B=1.0, G=1.0, mu=0.0)
    return Environment(name, d, B=1.0, G=QUAD_SCALE * 2 * 1.5, mu=2 * QUAD_SCALE, beta=2 * QUAD_SCALE)


def _check_positive(name, value):
    v = check_real(name, value)
    if v <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return v


@njit(cache=True)
def _loss(env, x, t, d, cvec):
    """f_t(x) for env 0 (linear), 1 (quadratic), 2 (stochastic: f without q_t). ``cvec`` scratch."""
    ang = 2.0 * math.pi * t / PERIOD
    if env == 3:
        return 0.5
    if env == 0:
        s = 0.6 * x[0] + 0.4 * math.cos(ang) * x[1] + 0.4 * math.sin(ang) * x[2]
        return s
    for i in range(d):
        cvec[i] = 0.0
    if env == 1:
        cvec[0] = 0.5 * math.cos(ang)
        cvec[1] = 0.5 * math.sin(ang)
    else:
        cvec[0] = 0.5
    s = 0.0
    for i in range(d):
        s += (x[i] - cvec[i]) ** 2
    return QUAD_SCALE * s


@njit(cache=True)
def _comparator(env, t, d, S, Q):
    """min over X of sum_{s<=t} f_s, from the running sums S (θ_s or c_s) and Q (sum ||c_s||^2)."""
    if env == 0:
        n = 0.0
        for i in range(d):
            n += S[i] * S[i]
        return -math.sqrt(n)
    if env == 1:
        n = 0.0
        for i in range(d):
            n += S[i] * S[i]
        return QUAD_SCALE * (Q[0] - n / t)
    if env == 3:
        return Q[0]
    return 0.0


@njit(cache=True)
def _accumulate(env, t, d, S, Q):
    ang = 2.0 * math.pi * t / PERIOD
    if env == 0:
        S[0] += 0.6
        S[1] += 0.4 * math.cos(ang)
        S[2] += 0.4 * math.sin(ang)
    elif env == 1:
        S[0] += 0.5 * math.cos(ang)
        S[1] += 0.5 * math.sin(ang)
        Q[0] += 0.25
    elif env == 3:
        Q[0] += 0.5
