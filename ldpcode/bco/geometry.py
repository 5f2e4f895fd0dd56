r"""The learners' geometry on the unit ball: Euclidean projection (:func:`project_ball`) and the
sphere-sampling gradient estimate of Flaxman, Kalai and McMahan (2005) (:func:`sphere_gradient_estimate`)
for the sphere learner; the self-concordant barrier :math:`R(x) = -\ln(1 - \lVert x\rVert^2)`
(:func:`ball_barrier`, :data:`BARRIER_NU`), its FTRL step (:func:`ftrl_barrier_step`) and the ellipsoidal
sampling with its gradient estimate (:func:`ellipsoid_point`, :func:`ellipsoid_gradient_estimate`) for the
barrier learners of Saha and Tewari (2011) and Hazan and Levy (2014).

Their compiled twins, called by the kernels of :mod:`ldpcode.bco.kernels` (and by the checked Python
functions above): ``_draw_direction`` (u uniform on the sphere), ``_step_and_project`` (the sphere
learner's step), ``_ftrl_step``, ``_ellipsoid`` and ``_ellipsoid_rows``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._validate import check_real
from .environments import _check_positive


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
