r"""Bandit convex optimisation (BCO) under (ε, δ)-LDP: Section 3 of Zheng et al. (2020).

Everything lives on the closed unit ball of R^d (``d = 5`` by default): the decision set is
X = B (so r = R = 1 in the notation of Agarwal, Dekel and Xiao 2010, r B ⊆ X ⊆ R B), and a learner
that perturbs its point by ρ u (u uniform on the unit sphere) keeps its centre in the shrunk set
(1 - ρ) X, so every queried point lies in X.

Environments (all losses bounded by B = 1 on X; oblivious: the sequence is a fixed function of t, the
same for every run; runs differ only by the learner's and the curator's randomness):

``"linear"`` (adversarial, convex, not strongly convex)
    f_t(x) = θ_t·x, θ_t = (0.6, 0.4 cos(2π t/P), 0.4 sin(2π t/P), 0, ..., 0), P = 7:
    ||θ_t|| = √0.52 ≈ 0.721, so |f_t| ≤ 0.721 ≤ B and f_t is G-Lipschitz with G = 0.721 (we use
    G = 1 in the tuning). Comparator: min over the ball of Σ θ_s·x = -||Σ θ_s||.
``"quadratic"`` (adversarial, μ-strongly convex, moving centres)
    f_t(x) = (4/9) ||x - c_t||², c_t = 0.5 (cos(2π t/P), sin(2π t/P), 0, ..., 0): 0 ≤ f_t ≤ (4/9)(1.5)² = 1
    on X, μ = 8/9, Lipschitz G = (8/9)(1.5) = 4/3. Comparator (exact): with S = Σ c_s, Q = Σ ||c_s||²,
    the minimiser is S/t (inside X) and the minimum is (4/9)(Q - ||S||²/t).
``"stochastic"`` (stochastic BCO of Agarwal et al. 2011)
    feedback f(x) + q_t with f(x) = (4/9)||x - c||², c = (0.5, 0, ..., 0), q_t ~ N(0, 0.1²) i.i.d.
    (sub-Gaussian, mean 0); pseudo-regret Σ f(x_t) - t f(c) = Σ f(x_t).
``"constant"`` (a check)
    f_t(x) = 1/2 for every x: the regret is 0 exactly, whatever the learner does.

Learners (vectorised over runs by a numba loop per run; run r draws everything from its own
generators ``run_streams(SeedSequence(seed).spawn(runs)[r], 2)``: the first for the sphere directions
u_t (and q_t), the second for the curator's Gaussian noise, so results do not depend on threads):

* :func:`simulate_one_point`: Algorithm 1 of Zheng et al. (the one-point reduction) around the
  sphere-sampling gradient descent of Flaxman, Kalai and McMahan (2005): the server plays
  y_t = x_t + ρ_t u_t, the user releases f_t(y_t) + Z_t with Z_t ~ N(0, σ²),
  σ = ``GaussianMechanism(ε, δ, sensitivity=2B).sigma`` (Theorem 2: |f_t| ≤ B, so the released value
  has sensitivity 2B), and the learner uses only that value:
  g_t = (d/ρ_t)(f_t(y_t) + Z_t) u_t, x_{t+1} = Π_{(1-ρ_{t+1})X}(x_t - η_t g_t).
* :func:`simulate_two_point`: Algorithm 2 of Zheng et al. around Algorithm 4 (= the two-point
  algorithm of Agarwal, Dekel and Xiao 2010): x_{t,1,2} = x_t ± ρ u_t, the user releases
  f_t(x_{t,1}) - f_t(x_{t,2}) + n_t·(x_{t,1} - x_{t,2}), n_t ~ N(0, σ² I_d),
  σ = 2G √(2 ln(1.25/δ))/ε (= ``GaussianMechanism(ε, δ, sensitivity=2G).sigma``), and
  g_t = (d/(2ρ)) · released · u_t.
* :func:`simulate_one_point` with ``learner="barrier"``: Algorithm 1 around the self-concordant-barrier
  learners of the smooth rows of Table 1 / Corollary 4 (ellipsoidal sampling, FTRL with the barrier
  :math:`R(x) = -\ln(1 - \lVert x\rVert^2)` of the unit ball): Hazan and Levy (2014) for strongly convex and
  smooth losses, Saha and Tewari (2011) for convex and smooth ones; see :func:`barrier_tuning`,
  :func:`ball_barrier`, :func:`ftrl_barrier_step`, :func:`ellipsoid_point`. Same streams per run as the
  sphere learner (first: u_t and q_t, second: Z_t).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ._validate import check_int, check_real
from .mechanisms import GaussianMechanism
from .reductions import algorithm1_mechanism
from .simulate import MAX_HORIZON, MAX_RUNS, Limits, check_limits, resolve_checkpoints, run_streams

ENVIRONMENTS = ("linear", "quadratic", "stochastic", "constant")
_ENV_CODE = {"linear": 0, "quadratic": 1, "stochastic": 2, "constant": 3}
PERIOD = 7.0  # period P of the moving θ_t / c_t (short: not trackable by the learner)
QUAD_SCALE = 4.0 / 9.0  # f_t = QUAD_SCALE ||x - c_t||^2
STOCH_NOISE_SD = 0.1  # sd of q_t in the stochastic environment


@dataclass(frozen=True)
class Environment:
    """Constants of one environment (see the module docstring): ``B`` bound on |f_t| on X, ``G``
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
    :math:`\tilde B = B + \sigma\sqrt{2\ln(T/\delta)}` (with probability >= 1 - δ all |Z_t| are below
    the second term). For σ = 0 (no privacy noise) it is B, and δ is not used (a non-private run has none)."""
    B = _check_positive("B", B)
    sigma = check_real("sigma", sigma)
    if sigma < 0:
        raise ValueError(f"sigma must be >= 0, got {sigma!r}")
    T = check_int("horizon", horizon, minimum=1)
    if sigma == 0:
        return B
    d = check_real("delta", delta)
    if not 0 < d < 1:
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    return B + sigma * math.sqrt(2.0 * math.log(max(T, 2) / d))


def project_ball(x, radius):
    """Euclidean projection of the rows of ``x`` (shape (..., d)) onto the ball of ``radius`` > 0."""
    radius = _check_positive("radius", radius)
    x = np.asarray(x, dtype=float)
    n = np.linalg.norm(x, axis=-1, keepdims=True)
    return np.where(n > radius, x * (radius / np.maximum(n, 1e-300)), x)


def sphere_gradient_estimate(values, u, rho, d):
    r"""The sphere-sampling estimator of Flaxman, Kalai and McMahan (2005), Lemma 1:
    :math:`g = \frac{d}{\rho} f(x + \rho u)\, u`, unbiased for :math:`\nabla \hat f_\rho(x)`, the gradient
    of the ρ-smoothed loss :math:`\hat f_\rho(x) = E_{v\sim\text{ball}} f(x + \rho v)`. ``values`` (n,),
    ``u`` (n, d) unit vectors; returns (n, d)."""
    rho = _check_positive("rho", rho)
    u = np.asarray(u, dtype=float)
    if u.ndim != 2 or u.shape[1] != d:
        raise ValueError(f"u must have shape (n, d={d}), got {u.shape}")
    v = np.asarray(values, dtype=float)
    if v.shape != (u.shape[0],):
        raise ValueError(f"values must have shape ({u.shape[0]},) to match u, got {v.shape}")
    return (d / rho) * v[:, None] * u


BARRIER_NU = 1.0  # R(x) = -ln(1 - ||x||^2) is a 1-self-concordant barrier of the unit ball
LEARNERS = ("sphere", "barrier")


def ball_barrier(x):
    r"""The self-concordant barrier of the unit ball used by the barrier learners,
    :math:`R(x) = -\ln(1 - \lVert x\rVert^2)`, with its gradient and Hessian
    (:math:`p = 1 - \lVert x\rVert^2`):

    .. math:: \nabla R(x) = \frac{2x}{p}, \qquad \nabla^2 R(x) = \frac{2}{p} I + \frac{4}{p^2} x x^\top .

    Its eigenvalues are :math:`2/p` (across x) and :math:`2(1 + \lVert x\rVert^2)/p^2` (along x), so
    :math:`\nabla^2 R \succeq 2I`. It is a ν-self-concordant barrier with ν = :data:`BARRIER_NU` = 1
    (Nesterov and Nemirovski; the barrier of one convex quadratic constraint): the Newton decrement
    :math:`\nabla R^\top (\nabla^2 R)^{-1} \nabla R = 2\lVert x\rVert^2/(1 + \lVert x\rVert^2) < 1`.
    ``x`` of shape (d,), strictly inside the ball; returns (value, gradient (d,), Hessian (d, d))."""
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or x.size == 0 or not np.all(np.isfinite(x)):
        raise ValueError(f"x must be a finite vector of shape (d,), got shape {x.shape}")
    p = 1.0 - float(x @ x)
    if p <= 0:
        raise ValueError(f"x must lie strictly inside the unit ball, got ||x|| = {math.sqrt(1 - p):.6g}")
    return -math.log(p), 2.0 * x / p, 2.0 / p * np.eye(x.size) + 4.0 / p**2 * np.outer(x, x)


def ftrl_barrier_step(a, c=0.0):
    r"""The FTRL step of both barrier learners: :math:`\arg\min_{\lVert x\rVert < 1}\ a^\top x + \frac c2
    \lVert x\rVert^2 + R(x)`, R = :func:`ball_barrier`, c >= 0.

    Hazan and Levy (2014, Algorithm 1):
    :math:`x_{t+1} = \arg\min_x \eta\sum_{s\le t}[g_s^\top x + \frac\mu2\lVert x - x_s\rVert^2] + R(x)` is this
    problem with :math:`a = \eta(\sum_s g_s - \mu\sum_s x_s)`, :math:`c = \eta\mu t`; Saha and Tewari (2011,
    Algorithm 1): :math:`x_{t+1} = \arg\min_x \eta\sum_{s\le t} g_s^\top x + R(x)` is c = 0,
    :math:`a = \eta\sum_s g_s`.

    How it is solved: R depends on :math:`\lVert x\rVert` only and the quadratic term is isotropic, so the
    minimiser is :math:`x = -s\,a/\lVert a\rVert` with s in [0, 1) the root of the increasing, convex
    :math:`\varphi(s) = cs + 2s/(1 - s^2) - \lVert a\rVert` (the d-dimensional Newton method started at 0
    stays on this ray). Newton's method on φ is started at
    :math:`s_0 = (\sqrt{1 + \lVert a\rVert^2} - 1)/\lVert a\rVert`, the root for c = 0, where φ >= 0: on an
    increasing convex function its iterates then decrease monotonically to the root, never leave
    [root, s_0] ⊂ [0, 1), and converge quadratically (stopped when a step is below 1e-15 or after 100
    steps). ``a`` of shape (d,); returns x (d,)."""
    a = np.asarray(a, dtype=float)
    if a.ndim != 1 or a.size == 0 or not np.all(np.isfinite(a)):
        raise ValueError(f"a must be a finite vector of shape (d,), got shape {a.shape}")
    c = check_real("c", c)
    if c < 0:
        raise ValueError(f"c must be a finite number >= 0, got {c!r}")
    x = np.zeros(a.size)
    _ftrl_step(a, c, a.size, x)
    return x


def ellipsoid_point(x, c, u, scale=1.0):
    r"""The ellipsoidal sampling of the barrier learners: with :math:`A = \nabla^2 R(x) + cI`
    (R = :func:`ball_barrier`), returns :math:`y = x + \text{scale}\cdot A^{-1/2}u` and
    :math:`w = A^{1/2}u` for each row u of ``u`` (shape (n, d), unit vectors), as arrays (n, d).

    Hazan and Levy (2014): c = ημt, scale = 1; Saha and Tewari (2011): c = 0, scale = δ_t <= 1. Since
    :math:`A \succeq \nabla^2 R(x)`, :math:`\lVert y - x\rVert_{\nabla^2 R(x)} \le \text{scale} \le 1`: y lies in
    the Dikin ellipsoid of R at x, inside the open unit ball. Computed in closed form from the two
    eigenvalues of A (see :func:`ball_barrier`)."""
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x must be a vector of shape (d,), got shape {x.shape}")
    if not float(x @ x) < 1.0:
        raise ValueError(f"x must lie strictly inside the unit ball, got ||x|| = {np.linalg.norm(x):.6g}")
    c = check_real("c", c)
    if c < 0:
        raise ValueError(f"c must be a finite number >= 0, got {c!r}")
    scale = check_real("scale", scale)
    if not 0 < scale <= 1:
        raise ValueError(f"scale must be in (0, 1], got {scale!r}")
    u = np.asarray(u, dtype=float)
    if u.ndim != 2 or u.shape[1] != x.size:
        raise ValueError(f"u must have shape (n, d={x.size}), got {u.shape}")
    y = np.empty_like(u)
    w = np.empty_like(u)
    _ellipsoid_rows(x, c, scale, u, y, w)
    return y, w


def ellipsoid_gradient_estimate(values, x, c, u, scale=1.0):
    r"""The ellipsoidal-sampling estimator of Saha and Tewari (2011) and Hazan and Levy (2014):
    :math:`g = \frac{d}{\text{scale}} f(y)\, A^{1/2} u`, y and :math:`A^{1/2}u` from :func:`ellipsoid_point`.
    It is unbiased for the gradient of the smoothed loss :math:`\hat f(x) = E_{v\sim\text{ball}}
    f(x + \text{scale}\,A^{-1/2}v)`; for a linear :math:`f(y) = \theta^\top y`, :math:`E[g] = \theta`
    exactly (:math:`E[uu^\top] = I/d`). In Algorithm 1 the value is the released :math:`f_t(y_t) + Z_t`.
    ``values`` (n,) (f at the points y of ``u``'s rows), ``u`` (n, d); returns (n, d)."""
    _, w = ellipsoid_point(x, c, u, scale)
    v = np.asarray(values, dtype=float)
    if v.shape != (w.shape[0],):
        raise ValueError(f"values must have shape ({w.shape[0]},) to match u, got {v.shape}")
    return (w.shape[1] / float(scale)) * v[:, None] * w


# ----------------------------------------------------------------------------------------------------
# numba kernels: one run each
# ----------------------------------------------------------------------------------------------------


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


@njit(cache=True)
def _draw_direction(u, d, rng_u):
    """u uniform on the unit sphere of R^d (a normalised standard Gaussian vector), written in place."""
    nu = 0.0
    for i in range(d):
        u[i] = rng_u.standard_normal()
        nu += u[i] * u[i]
    nu = math.sqrt(nu)
    for i in range(d):
        u[i] /= nu


@njit(cache=True)
def _step_and_project(x, c, u, d, rad):
    """The gradient step x <- x - c u of both learners (c = η_t times the scalar in front of u_t in g_t),
    then the Euclidean projection on the ball of radius ``rad`` = 1 - ρ (the shrunk set (1 - ρ)X)."""
    nx = 0.0
    for i in range(d):
        x[i] -= c * u[i]
        nx += x[i] * x[i]
    nx = math.sqrt(nx)
    if nx > rad:
        for i in range(d):
            x[i] *= rad / nx


@njit(cache=True)
def _one_point_chunk(
    env, d, t0, t1, sigma, strongly, eta0, rho0, rho_max, mu, checkpoints, rng_u, rng_z, out, x, S, Q, acc
):
    """Rounds t0 + 1 .. t1 of one run of the sphere learner. The run's state lives in the arrays ``x``
    (centre), ``S``, ``Q`` (comparator sums) and ``acc`` = [cumulative loss, next checkpoint index], so
    that a run is a sequence of chunks (a Ctrl-C is seen between them) with the arithmetic of one loop."""
    y = np.zeros(d)
    u = np.zeros(d)
    cvec = np.zeros(d)
    cum = acc[0]
    k = int(acc[1])
    for t in range(t0 + 1, t1 + 1):
        if strongly:
            rho = min(rho_max, rho0 * t ** (-1.0 / 3.0))
            eta = 1.0 / (mu * t)
            rho_next = min(rho_max, rho0 * (t + 1) ** (-1.0 / 3.0))
        else:
            rho = min(rho_max, rho0 * t ** (-0.25))
            eta = eta0 * t ** (-0.75)
            rho_next = min(rho_max, rho0 * (t + 1) ** (-0.25))
        _draw_direction(u, d, rng_u)
        for i in range(d):
            y[i] = x[i] + rho * u[i]
        f = _loss(env, y, t, d, cvec)
        cum += f
        _accumulate(env, t, d, S, Q)
        obs = f
        if env == 2:
            obs += STOCH_NOISE_SD * rng_u.standard_normal()
        if sigma > 0:
            obs += sigma * rng_z.standard_normal()  # the user's release: f_t(y_t) + Z_t
        _step_and_project(x, eta * d / rho * obs, u, d, 1.0 - rho_next)  # the learner sees only obs
        if k < checkpoints.shape[0] and t == checkpoints[k]:
            out[k] = cum - _comparator(env, t, d, S, Q)
            k += 1
    acc[0] = cum
    acc[1] = k


@njit(cache=True)
def _two_point_chunk(env, d, t0, t1, sigma, strongly, eta0, rho, mu, checkpoints, rng_u, rng_z, out, x, S, Q, acc):
    """Rounds t0 + 1 .. t1 of one run of the two-point learner; state as in :func:`_one_point_chunk`."""
    x1 = np.zeros(d)
    x2 = np.zeros(d)
    u = np.zeros(d)
    cvec = np.zeros(d)
    cum = acc[0]
    k = int(acc[1])
    for t in range(t0 + 1, t1 + 1):
        eta = 1.0 / (mu * t) if strongly else eta0 / math.sqrt(t)
        _draw_direction(u, d, rng_u)
        for i in range(d):
            x1[i] = x[i] + rho * u[i]
            x2[i] = x[i] - rho * u[i]
        f1 = _loss(env, x1, t, d, cvec)
        f2 = _loss(env, x2, t, d, cvec)
        cum += 0.5 * (f1 + f2)
        _accumulate(env, t, d, S, Q)
        obs = f1 - f2
        if env == 2:
            obs += STOCH_NOISE_SD * (rng_u.standard_normal() - rng_u.standard_normal())
        if sigma > 0:
            nd = 0.0  # n_t . (x_{t,1} - x_{t,2}), n_t ~ N(0, σ² I_d)
            for i in range(d):
                nd += sigma * rng_z.standard_normal() * (x1[i] - x2[i])
            obs += nd
        _step_and_project(x, eta * d / (2.0 * rho) * obs, u, d, 1.0 - rho)
        if k < checkpoints.shape[0] and t == checkpoints[k]:
            out[k] = cum - _comparator(env, t, d, S, Q)
            k += 1
    acc[0] = cum
    acc[1] = k


@njit(cache=True)
def _ftrl_step(a, c, d, x):
    """x <- argmin a.x + c/2 ||x||^2 - ln(1 - ||x||^2) (see :func:`ftrl_barrier_step`); returns s = ||x||."""
    na = 0.0
    for i in range(d):
        na += a[i] * a[i]
    na = math.sqrt(na)
    if na == 0.0:
        for i in range(d):
            x[i] = 0.0
        return 0.0
    s = na / (math.sqrt(1.0 + na * na) + 1.0)  # (sqrt(1 + na^2) - 1)/na: the root for c = 0, phi >= 0
    if c > 0.0:
        for _ in range(100):
            q = 1.0 - s * s
            phi = c * s + 2.0 * s / q - na
            dphi = c + 2.0 * (1.0 + s * s) / (q * q)
            step = phi / dphi
            s -= step
            if step <= 1e-15:
                break
    for i in range(d):
        x[i] = -s * a[i] / na
    return s


@njit(cache=True)
def _ellipsoid(x, c, scale, u, d, y, w):
    """y = x + scale A^{-1/2} u and w = A^{1/2} u, A = Hess R(x) + c I (closed form, see ball_barrier)."""
    r2 = 0.0
    xu = 0.0
    for i in range(d):
        r2 += x[i] * x[i]
        xu += x[i] * u[i]
    p = 1.0 - r2
    lam_perp = 2.0 / p + c
    lam_par = 2.0 * (1.0 + r2) / (p * p) + c
    sp = math.sqrt(lam_perp)
    if r2 > 0.0:
        k_inv = (1.0 / math.sqrt(lam_par) - 1.0 / sp) * xu / r2  # component along x, over ||x||^2
        k_sqrt = (math.sqrt(lam_par) - sp) * xu / r2
    else:
        k_inv = 0.0
        k_sqrt = 0.0
    for i in range(d):
        y[i] = x[i] + scale * (u[i] / sp + k_inv * x[i])
        w[i] = sp * u[i] + k_sqrt * x[i]


@njit(cache=True)
def _ellipsoid_rows(x, c, scale, U, Y, W):
    for i in range(U.shape[0]):
        _ellipsoid(x, c, scale, U[i], U.shape[1], Y[i], W[i])


@njit(cache=True)
def _barrier_chunk(
    env,
    d,
    t0,
    t1,
    sigma,
    strongly,
    eta0,
    delta0,
    mu,
    checkpoints,
    rng_u,
    rng_z,
    out,
    max_norm,
    x,
    gsum,
    xsum,
    S,
    Q,
    acc,
):
    """Rounds t0 + 1 .. t1 of one run of a barrier learner; state as in :func:`_one_point_chunk`, plus
    ``gsum`` (sum of the estimates g_s), ``xsum`` (sum of the centres x_s, Hazan-Levy's strong-convexity
    terms) and ``max_norm`` = [max ||y_t|| so far]."""
    y = np.zeros(d)
    u = np.zeros(d)
    w = np.zeros(d)
    a = np.zeros(d)
    cvec = np.zeros(d)
    cum = acc[0]
    k = int(acc[1])
    ymax = max_norm[0]
    for t in range(t0 + 1, t1 + 1):
        if strongly:  # Hazan and Levy (2014): A_t = Hess R(x_t) + eta_t mu t I, full Dikin scale
            eta = eta0 / math.sqrt(t)
            c = eta * mu * t
            scale = 1.0
        else:  # Saha and Tewari (2011): A_t = Hess R(x_t), scale delta_t
            eta = eta0 * t ** (-2.0 / 3.0)
            c = 0.0
            scale = min(1.0, delta0 * t ** (-1.0 / 6.0))
        _draw_direction(u, d, rng_u)
        _ellipsoid(x, c, scale, u, d, y, w)
        ny = 0.0
        for i in range(d):
            ny += y[i] * y[i]
        ymax = max(ymax, math.sqrt(ny))
        f = _loss(env, y, t, d, cvec)
        cum += f
        _accumulate(env, t, d, S, Q)
        obs = f
        if env == 2:
            obs += STOCH_NOISE_SD * rng_u.standard_normal()
        if sigma > 0:
            obs += sigma * rng_z.standard_normal()  # the user's release: f_t(y_t) + Z_t
        coef = d / scale * obs  # the learner sees only obs
        for i in range(d):
            gsum[i] += coef * w[i]  # g_t = (d/scale) obs A_t^{1/2} u_t
            xsum[i] += x[i]
        if strongly:
            for i in range(d):
                a[i] = eta * (gsum[i] - mu * xsum[i])
            _ftrl_step(a, eta * mu * t, d, x)
        else:
            for i in range(d):
                a[i] = eta * gsum[i]
            _ftrl_step(a, 0.0, d, x)
        if k < checkpoints.shape[0] and t == checkpoints[k]:
            out[k] = cum - _comparator(env, t, d, S, Q)
            k += 1
    max_norm[0] = ymax
    acc[0] = cum
    acc[1] = k


# ----------------------------------------------------------------------------------------------------
# public drivers
# ----------------------------------------------------------------------------------------------------


@dataclass
class BCOResult:
    """``regret`` (runs, C) at ``checkpoints`` (C,); the tuning actually used (``sigma``, ``eta0``,
    ``rho0``/``rho`` or ``delta0``/``beta``/``nu``, ``B_tilde``/``G_tilde``) and ``steps`` = runs * horizon
    (for steps/s). ``algorithm``: "one-point" (sphere), "one-point-hazan-levy", "one-point-saha-tewari",
    "two-point"."""

    algorithm: str
    environment: str
    d: int
    horizon: int
    runs: int
    seed: int
    epsilon: float
    delta: float
    sigma: float
    tuning: dict
    checkpoints: np.ndarray
    regret: np.ndarray
    max_norm: np.ndarray | None = None  # barrier learners: max_t ||y_t|| of each run (< 1: inside X)

    @property
    def steps(self) -> int:
        return self.runs * self.horizon


BCO_CHUNK = 1 << 16  # rounds per compiled call (a few ms to tens of ms): Ctrl-C is seen between calls


def bco_cost(algorithm: str, d: int, horizon: int, runs: int, n_checkpoints: int) -> tuple[float, float, str]:
    """Estimated (core-seconds, bytes, description) of one BCO simulation call: ``algorithm`` "one-point"
    (sphere), "two-point" or "barrier", at the per-core costs of :mod:`ldpcode.simulate` (150 + 10d,
    150 + 17d and 250 + 12d ns a round); memory: the regrets (runs, C) and 1 KiB a run."""
    ns = {"one-point": 150 + 10 * d, "two-point": 150 + 17 * d, "barrier": 250 + 12 * d}[algorithm]
    seconds = runs * horizon * ns * 1e-9
    nbytes = runs * (n_checkpoints * 8 + 8 + 1024) + 64 * d * 8
    work = (
        f"runs={runs} x horizon={horizon} = {runs * horizon:.3g} rounds of the {algorithm} learner (d={d}) "
        f"at {ns} ns a round"
    )
    return seconds, nbytes, work


def _chunks(T: int):
    """(t0, t1) of the consecutive chunks of rounds t0 + 1 .. t1 that make up a run of T rounds."""
    for t0 in range(0, T, BCO_CHUNK):
        yield t0, min(T, t0 + BCO_CHUNK)


DEFAULT_DELTA = 1e-5
"""The δ of a private BCO run when none is given (Zheng et al.'s experiments-free default of the book)."""


def _common(environment, d, horizon, runs, seed, epsilon, delta):
    """Checked (environment, T, runs, seed, delta). ``delta`` belongs to a private run: None there means
    :data:`DEFAULT_DELTA`; a non-private run (``epsilon=None``) given a delta is refused, as a privacy
    argument it would silently ignore. The non-private run's δ is nan (it has none)."""
    env = make_environment(environment, d)
    T = check_int("horizon", horizon, minimum=2, maximum=MAX_HORIZON)
    runs = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
    seed = check_int("seed", seed, minimum=0)
    if epsilon is None:
        if delta is not None:
            raise ValueError(
                f"delta is a privacy argument: a non-private run (epsilon=None) takes none, got "
                f"delta={delta!r}; pass epsilon for a private run, or leave delta out"
            )
        return env, T, runs, seed, math.nan
    delta = DEFAULT_DELTA if delta is None else delta
    GaussianMechanism(epsilon, delta, 1.0)  # validates epsilon and delta
    return env, T, runs, seed, delta


def one_point_tuning(env: Environment, horizon: int, sigma: float, delta: float, rho_max: float = 0.5) -> dict:
    r"""Schedules of the one-point sphere-sampling gradient descent (anytime versions of Flaxman et al.
    2005 and Agarwal et al. 2010), tuned for losses of range :math:`\tilde B` = :func:`noisy_range`
    (Theorem 3 of Zheng et al.: the black box is run on the virtual losses f_t + Z_t, whose Lipschitz
    constant in x is still G), R = 1:

    * convex: from :math:`R^2/\eta + \eta T (d\tilde B/\rho)^2 + 3G\rho T`,
      :math:`\rho_t = \min(\rho_{max}, \rho_0 t^{-1/4})`, :math:`\rho_0 = \sqrt{2Rd\tilde B/(3G)}`,
      :math:`\eta_t = \eta_0 t^{-3/4}`, :math:`\eta_0 = R\rho_0/(d\tilde B)`: regret
      :math:`O(\sqrt{d\tilde B G R}\,T^{3/4})`;
    * μ-strongly convex: :math:`\eta_t = 1/(\mu t)`, from :math:`(d\tilde B/\rho)^2 \log T/\mu + 3G\rho T`,
      :math:`\rho_t = \min(\rho_{max}, \rho_0 t^{-1/3})`, :math:`\rho_0 = (d^2\tilde B^2/(3\mu G))^{1/3}`:
      regret :math:`O((d\tilde B)^{2/3}(G/\mu)^{1/3} T^{2/3})` up to log factors.

    ρ is capped at ``rho_max`` < r = 1 so that (1 - ρ)X is not empty.
    """
    Bt = noisy_range(env.B, sigma, horizon, delta)
    if env.mu > 0:
        rho0 = (env.d**2 * Bt**2 / (3 * env.mu * env.G)) ** (1 / 3)
        eta0 = 1.0 / env.mu
    else:
        rho0 = math.sqrt(2 * env.d * Bt / (3 * env.G))
        eta0 = rho0 / (env.d * Bt)
    return dict(B_tilde=Bt, rho0=rho0, eta0=eta0, rho_max=rho_max)


def barrier_tuning(
    env: Environment, horizon: int, sigma: float, delta: float, strongly_convex: bool, beta: float | None = None
) -> dict:
    r"""Schedules of the barrier learners (anytime: they depend on t, and on T only through
    :math:`\tilde B` = :func:`noisy_range`, computed, as for the sphere learner, with the run's largest
    horizon), tuned for losses of range :math:`\tilde B` (Theorem 3 of Zheng et al.), ν = :data:`BARRIER_NU`
    = 1, β the smoothness constant (``beta``, default the environment's; for the linear and constant
    losses, which are β-smooth for every β >= 0, the default is β = 1: the learner is tuned for the class
    of 1-smooth convex losses, not for the instance; at β = 0 Saha and Tewari's δ would be 1 for ever,
    which is SCRiBLe, a √T algorithm for linear losses).

    * **Hazan and Levy (2014), Algorithm 1** (μ-strongly convex and β-smooth; ``strongly_convex=True``):
      :math:`A_t = \nabla^2R(x_t) + \eta_t\mu t I`, :math:`y_t = x_t + A_t^{-1/2}u_t`,
      :math:`g_t = d\,\tilde f_t(y_t)\,A_t^{1/2}u_t`,
      :math:`x_{t+1} = \arg\min_x \eta_t\sum_{s\le t}[g_s^\top x + \frac\mu2\lVert x - x_s\rVert^2] + R(x)`.
      Their bound has three terms: the regulariser :math:`\nu\ln T/\eta`, the stability
      :math:`2\eta\lVert g_t\rVert^2_{t,*} \le 2\eta d^2\tilde B^2` per round (the local norm of the
      estimate is exactly :math:`d|\tilde f_t|`), and the exploration :math:`\beta/(\eta\mu t)` per round
      (:math:`\frac\beta2 E\lVert A_t^{-1/2}u\rVert^2 \le \beta/(2\eta\mu t)`, paid at the played point and
      in the smoothed comparator). Their η is fixed for a known T; we use the anytime
      :math:`\eta_t = \eta_0/\sqrt t`, which makes the sum
      :math:`\sqrt T[\nu\ln T/\eta_0 + 4\eta_0 d^2\tilde B^2 + 2\beta/(\mu\eta_0)]`, and, dropping the ln T,
      :math:`\eta_0 = \sqrt{\nu + 2\beta/\mu}\,/\,(2d\tilde B)`: regret :math:`\tilde O(d\tilde B\sqrt{(\nu + \beta/\mu)T})`.
    * **Saha and Tewari (2011), Algorithm 1** (convex and β-smooth; ``strongly_convex=False``):
      :math:`A_t = \nabla^2R(x_t)`, :math:`y_t = x_t + \delta_t A_t^{-1/2}u_t`,
      :math:`g_t = \frac d{\delta_t}\tilde f_t(y_t)\,A_t^{1/2}u_t`,
      :math:`x_{t+1} = \arg\min_x \eta_t\sum_{s\le t}g_s^\top x + R(x)`. Terms: regulariser
      :math:`\nu\ln T/\eta`, stability :math:`\eta d^2\tilde B^2/\delta^2` per round, smoothing bias
      :math:`\beta\delta^2/2` per round (:math:`\nabla^2R \succeq 2I` on the ball, so
      :math:`\frac\beta2 E\lVert\delta A_t^{-1/2}u\rVert^2 \le \beta\delta^2/4`, twice). Their η and δ are fixed
      for a known T (:math:`\eta \propto T^{-2/3}`, :math:`\delta \propto T^{-1/6}`); we use the anytime
      :math:`\eta_t = \eta_0 t^{-2/3}`, :math:`\delta_t = \min(1, \delta_0 t^{-1/6})`, whose sum is
      :math:`T^{2/3}[\nu\ln T/\eta_0 + \frac32\eta_0 d^2\tilde B^2/\delta_0^2 + \frac34\beta\delta_0^2]`;
      minimising (ln T dropped): :math:`\delta_0^2 = d\tilde B\sqrt{2\eta_0/\beta}`,
      :math:`\eta_0 = (2\sqrt2\,\nu/(3d\tilde B\sqrt\beta))^{2/3}`: regret
      :math:`\tilde O((d\tilde B)^{2/3}\beta^{1/3}\nu^{1/3}T^{2/3})`. δ_t <= 1 keeps y_t in the Dikin
      ellipsoid, hence in X.

    Returns dict(B_tilde, nu, beta, eta0, delta0) (delta0 = 1 for Hazan and Levy)."""
    Bt = noisy_range(env.B, sigma, horizon, delta)
    if beta is None:
        beta = env.beta if env.beta > 0 else 1.0
    beta = check_real("beta", beta)
    if beta < 0 or (beta == 0 and not strongly_convex):
        raise ValueError(f"beta must be a finite number > 0 (>= 0 for the strongly convex learner), got {beta!r}")
    nu, d = BARRIER_NU, env.d
    if strongly_convex:
        if env.mu <= 0:
            raise ValueError(f"strongly_convex=True needs a strongly convex environment, got {env.name!r}")
        eta0 = math.sqrt(nu + 2 * beta / env.mu) / (2 * d * Bt)
        delta0 = 1.0
    else:
        eta0 = (2 * math.sqrt(2) * nu / (3 * d * Bt * math.sqrt(beta))) ** (2 / 3)
        delta0 = math.sqrt(d * Bt * math.sqrt(2 * eta0 / beta))
    return dict(B_tilde=Bt, nu=nu, beta=beta, eta0=eta0, delta0=delta0)


def hazan_levy_exploration_cost(checkpoints, eta0, mu, beta, *, limits: Limits | None = None):
    r"""The exploration cost of the Hazan-Levy learner at the centre of the ball, summed:
    :math:`E_t = \sum_{s\le t} \frac\beta2\,\frac{1}{2 + \eta_0\mu\sqrt s}` at each t of ``checkpoints``.

    For a quadratic loss with Hessian βI (our quadratics: β = 8/9),
    :math:`E[f(x + A^{-1/2}u)] - f(x) = \frac\beta2 E\lVert A^{-1/2}u\rVert^2 = \frac\beta2\,\mathrm{tr}(A^{-1})/d`
    exactly, and at x = 0, :math:`A_s = \nabla^2R(0) + \eta_s\mu s I = (2 + \eta_0\mu\sqrt s)I` with the anytime
    :math:`\eta_s = \eta_0/\sqrt s` of :func:`barrier_tuning`. Away from the centre the barrier's curvature
    is larger and the cost smaller, so this is the exploration part of the regret for x_s near 0. It grows
    like :math:`\sqrt t` only once :math:`\eta_0\mu\sqrt t \gg 2`: before that its log-log slope is above 1/2.
    Returns an array of the checkpoints' shape. The sum is taken over every s up to the last checkpoint (three
    arrays of that length): ``limits`` (:class:`ldpcode.simulate.Limits`) caps their memory."""
    cp = np.asarray(checkpoints)
    if cp.ndim != 1 or cp.size == 0 or not np.issubdtype(cp.dtype, np.integer) or cp[0] < 1 or (np.diff(cp) <= 0).any():
        raise ValueError(f"checkpoints must be a strictly increasing sequence of integers >= 1, got {checkpoints!r}")
    eta0 = _check_positive("eta0", eta0)
    mu = _check_positive("mu", mu)
    beta = check_real("beta", beta)
    if beta < 0:
        raise ValueError(f"beta must be a finite number >= 0, got {beta!r}")
    n = check_int("checkpoints[-1]", cp[-1], maximum=MAX_HORIZON)
    check_limits(
        "hazan_levy_exploration_cost",
        f"a sum over s = 1..checkpoints[-1]={n} (three arrays of doubles)",
        n * 20e-9,
        24.0 * n,
        limits,
        scale_out="Lower the last checkpoint.",
    )
    s = np.arange(1, n + 1, dtype=float)
    return np.cumsum(0.5 * beta / (2.0 + eta0 * mu * np.sqrt(s)))[cp - 1]


def simulate_one_point(
    environment: str = "quadratic",
    horizon: int = 10_000,
    runs: int = 16,
    seed: int = 0,
    *,
    epsilon: float | None = 1.0,
    delta: float | None = None,
    d: int = 5,
    strongly_convex=None,
    rho_max: float = 0.5,
    checkpoints=None,
    learner: str = "sphere",
    beta: float | None = None,
    limits: Limits | None = None,
) -> BCOResult:
    r"""Regret of Algorithm 1 (Zheng et al. 2020) with a one-point learner as black box
    (``epsilon=None``: the non-private learner, σ = 0).

    ``learner="sphere"`` (default): the sphere-sampling gradient descent (Flaxman et al. 2005);
    ``strongly_convex`` (default: whether the environment is) picks the η_t = 1/(μt), ρ ∝ t^{-1/3}
    schedule; see :func:`one_point_tuning`. ``rho_max`` caps its ρ_t.

    ``learner="barrier"``: the self-concordant-barrier learners of the smooth rows of Table 1:
    Hazan and Levy (2014) if ``strongly_convex`` (default: whether the environment is), else Saha and
    Tewari (2011); see :func:`barrier_tuning` (``beta``: the smoothness constant they are tuned for;
    ``rho_max`` is not used). The result's ``max_norm`` holds each run's largest ||y_t||.

    Regret at t: Σ_{s≤t} f_s(y_s) (the points actually played) - min_{x∈X} Σ_{s≤t} f_s(x); for
    "stochastic" the pseudo-regret with f. ``checkpoints`` (default 41 log-spaced) must end at ``horizon``;
    ``limits`` caps the estimated time and memory (:func:`bco_cost`, :class:`ldpcode.simulate.Limits`)."""
    env, T, runs, seed, delta = _common(environment, d, horizon, runs, seed, epsilon, delta)
    if not isinstance(learner, str):
        raise TypeError(f"learner must be a string, one of {LEARNERS}, got {learner!r}")
    if learner not in LEARNERS:
        raise ValueError(f"learner must be one of {LEARNERS}, got {learner!r}")
    if learner == "sphere" and beta is not None:
        raise ValueError(f"beta is only used by learner='barrier', got beta={beta!r} with learner='sphere'")
    rho_max = check_real("rho_max", rho_max)
    if not 0 < rho_max < 1:
        raise ValueError(f"rho_max must be in (0, 1), got {rho_max!r}")
    sigma = 0.0 if epsilon is None else one_point_sigma(epsilon, delta, env.B)
    strongly = env.mu > 0 if strongly_convex is None else bool(strongly_convex)
    if strongly and env.mu <= 0:
        raise ValueError(f"strongly_convex=True needs a strongly convex environment, got {environment!r}")
    cp = resolve_checkpoints(T, checkpoints, 41)
    seconds, nbytes, work = bco_cost("barrier" if learner == "barrier" else "one-point", env.d, T, runs, cp.size)
    check_limits("bco.simulate_one_point", work, seconds, nbytes, limits)
    if learner == "barrier":
        return _simulate_barrier(env, T, runs, seed, epsilon, delta, sigma, strongly, beta, cp)
    tun = one_point_tuning(
        env if strongly else Environment(env.name, env.d, env.B, env.G, 0.0), T, sigma, delta, rho_max
    )
    out = np.zeros((runs, cp.size))
    for r, ss in enumerate(np.random.SeedSequence(seed).spawn(runs)):
        g_u, g_z = run_streams(ss, 2)
        x, S, Q, acc = np.zeros(env.d), np.zeros(env.d), np.zeros(1), np.zeros(2)
        for t0, t1 in _chunks(T):
            _one_point_chunk(
                _ENV_CODE[env.name],
                env.d,
                t0,
                t1,
                sigma,
                strongly,
                tun["eta0"],
                tun["rho0"],
                rho_max,
                env.mu,
                cp,
                g_u,
                g_z,
                out[r],
                x,
                S,
                Q,
                acc,
            )
    return BCOResult(
        "one-point",
        env.name,
        env.d,
        T,
        runs,
        seed,
        np.inf if epsilon is None else float(epsilon),
        float(delta),
        sigma,
        tun,
        cp,
        out,
    )


def _simulate_barrier(env, T, runs, seed, epsilon, delta, sigma, strongly, beta, cp) -> BCOResult:
    tun = barrier_tuning(env, T, sigma, delta, strongly, beta)
    out = np.zeros((runs, cp.size))
    max_norm = np.zeros(runs)
    for r, ss in enumerate(np.random.SeedSequence(seed).spawn(runs)):
        g_u, g_z = run_streams(ss, 2)
        x, gsum, xsum, S, Q, acc = (
            np.zeros(env.d),
            np.zeros(env.d),
            np.zeros(env.d),
            np.zeros(env.d),
            np.zeros(1),
            np.zeros(2),
        )
        for t0, t1 in _chunks(T):
            _barrier_chunk(
                _ENV_CODE[env.name],
                env.d,
                t0,
                t1,
                sigma,
                strongly,
                tun["eta0"],
                tun["delta0"],
                env.mu,
                cp,
                g_u,
                g_z,
                out[r],
                max_norm[r : r + 1],
                x,
                gsum,
                xsum,
                S,
                Q,
                acc,
            )
    name = "one-point-hazan-levy" if strongly else "one-point-saha-tewari"
    return BCOResult(
        name,
        env.name,
        env.d,
        T,
        runs,
        seed,
        np.inf if epsilon is None else float(epsilon),
        float(delta),
        sigma,
        tun,
        cp,
        out,
        max_norm,
    )


def two_point_tuning(env: Environment, horizon: int, sigma: float) -> dict:
    r"""Schedules of Algorithm 4 (Agarwal, Dekel and Xiao 2010, two-point feedback) inside Algorithm 2:
    ρ = ln T / T (Algorithm 2, line 2, ξ = ρ/r with r = 1); convex: :math:`\eta_t = R/(d\tilde G\sqrt t)`,
    :math:`\tilde G = \sqrt{G^2 + \sigma^2}` (the estimate g_t = (d/2ρ)(f_1 - f_2)u + d (n·u) u has
    E||g_t||² <= d²(G² + σ²)), regret O(d R G̃ √T); μ-strongly convex: η_t = 1/(μt), regret
    O(d² G̃²/μ · log T) (the virtual loss f_t + n_t·x is still μ-strongly convex)."""
    Gt = math.sqrt(env.G**2 + sigma**2)
    return dict(G_tilde=Gt, rho=math.log(horizon) / horizon, eta0=1.0 / (env.d * Gt))


def simulate_two_point(
    environment: str = "quadratic",
    horizon: int = 10_000,
    runs: int = 16,
    seed: int = 0,
    *,
    epsilon: float | None = 1.0,
    delta: float | None = None,
    d: int = 5,
    strongly_convex=None,
    checkpoints=None,
    limits: Limits | None = None,
) -> BCOResult:
    r"""Regret of Algorithm 2 (Zheng et al. 2020) with Algorithm 4 (two-point BCO of Agarwal et al. 2010)
    as black box (``epsilon=None``: non-private). Regret as in Theorem 6: Σ_t (f_t(x_{t,1}) + f_t(x_{t,2}))/2
    - min_{x∈X} Σ_t f_t(x). Tuning: :func:`two_point_tuning`; σ: :func:`two_point_sigma`. ``checkpoints``
    and ``limits`` as in :func:`simulate_one_point`."""
    env, T, runs, seed, delta = _common(environment, d, horizon, runs, seed, epsilon, delta)
    sigma = 0.0 if epsilon is None else two_point_sigma(epsilon, delta, env.G)
    strongly = env.mu > 0 if strongly_convex is None else bool(strongly_convex)
    if strongly and env.mu <= 0:
        raise ValueError(f"strongly_convex=True needs a strongly convex environment, got {environment!r}")
    tun = two_point_tuning(env, T, sigma)
    cp = resolve_checkpoints(T, checkpoints, 41)
    seconds, nbytes, work = bco_cost("two-point", env.d, T, runs, cp.size)
    check_limits("bco.simulate_two_point", work, seconds, nbytes, limits)
    out = np.zeros((runs, cp.size))
    for r, ss in enumerate(np.random.SeedSequence(seed).spawn(runs)):
        g_u, g_z = run_streams(ss, 2)
        x, S, Q, acc = np.zeros(env.d), np.zeros(env.d), np.zeros(1), np.zeros(2)
        for t0, t1 in _chunks(T):
            _two_point_chunk(
                _ENV_CODE[env.name],
                env.d,
                t0,
                t1,
                sigma,
                strongly,
                tun["eta0"],
                tun["rho"],
                env.mu,
                cp,
                g_u,
                g_z,
                out[r],
                x,
                S,
                Q,
                acc,
            )
    return BCOResult(
        "two-point",
        env.name,
        env.d,
        T,
        runs,
        seed,
        np.inf if epsilon is None else float(epsilon),
        float(delta),
        sigma,
        tun,
        cp,
        out,
    )


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
