r"""The compiled chunk kernels: rounds t0 + 1 .. t1 of one run of a learner, its state kept in arrays
between calls so that a run is a sequence of chunks (a Ctrl-C is seen between them) with the arithmetic of
one loop. ``_one_point_chunk``: the sphere learner inside Algorithm 1 of Zheng et al. (2020);
``_two_point_chunk``: Algorithm 4 (Agarwal, Dekel and Xiao 2010) inside Algorithm 2; ``_barrier_chunk``:
the barrier learners (Saha and Tewari 2011, Hazan and Levy 2014) inside Algorithm 1. The drivers of
:mod:`ldpcode.bco.runs` call them chunk by chunk.

A kernel takes the environment's code, the dimension, the rounds, its learner's tuning (:class:`SphereTuning`,
:class:`TwoPointTuning` or :class:`BarrierTuning`), the run's two random streams, its learner's state (the
centre ``x``, or a :class:`BarrierState`), the :class:`ComparatorSums` and the :class:`RegretRecorder`.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

from .environments import STOCH_NOISE_SD, _accumulate, _comparator, _loss
from .geometry import _draw_direction, _ellipsoid, _ftrl_step, _step_and_project

SphereTuning = namedtuple("SphereTuning", ["sigma", "strongly", "eta0", "rho0", "rho_max", "mu"])
"""The constants of the sphere learner's run: the curator's noise σ, whether it runs the strongly convex
schedule, η_0, ρ_0, the cap of ρ_t and μ (:func:`ldpcode.bco.runs.one_point_tuning`)."""

TwoPointTuning = namedtuple("TwoPointTuning", ["sigma", "strongly", "eta0", "rho", "mu"])
"""The constants of the two-point learner's run: σ of n_t, whether it runs the strongly convex schedule, η_0,
the fixed radius ρ and μ (:func:`ldpcode.bco.runs.two_point_tuning`)."""

BarrierTuning = namedtuple("BarrierTuning", ["sigma", "strongly", "eta0", "delta0", "mu"])
"""The constants of a barrier learner's run: the curator's noise σ, Hazan-Levy (True) or Saha-Tewari (False),
η_0, δ_0 and μ (:func:`ldpcode.bco.runs.barrier_tuning`)."""

BarrierState = namedtuple("BarrierState", ["x", "gsum", "xsum", "max_norm"])
"""The mutable state of a barrier learner's run, arrays: the centre x_t (d,), the sum of the estimates g_s (d,),
the sum of the centres x_s (d,) (Hazan-Levy's strong-convexity terms) and [max ||y_t|| so far] (1,)."""

ComparatorSums = namedtuple("ComparatorSums", ["S", "Q"])
"""The environment's running sums of a run, from which its comparator is computed (``_accumulate``,
``_comparator``): S (d,), the sum of the θ_s or c_s, and Q (1,)."""

RegretRecorder = namedtuple("RegretRecorder", ["checkpoints", "out", "acc"])
"""Where a run records its regret: the checkpoint times (C,), the regrets at them (C,), filled in, and
``acc`` = [cumulative loss, next checkpoint index] (2,), carried from chunk to chunk."""


@njit(cache=True)
def _one_point_chunk(env, d, t0, t1, tuning, rng_u, rng_z, x, sums, record):
    """Rounds t0 + 1 .. t1 of one run of the sphere learner (``tuning`` a :class:`SphereTuning`). The run's
    state lives in the arrays ``x`` (centre), ``sums`` (:class:`ComparatorSums`) and ``record``
    (:class:`RegretRecorder`), so that a run is a sequence of chunks (a Ctrl-C is seen between them) with the
    arithmetic of one loop."""
    sigma, strongly, eta0, rho0, rho_max, mu = (
        tuning.sigma,
        tuning.strongly,
        tuning.eta0,
        tuning.rho0,
        tuning.rho_max,
        tuning.mu,
    )
    S, Q = sums.S, sums.Q
    checkpoints, out, acc = record.checkpoints, record.out, record.acc
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
def _two_point_chunk(env, d, t0, t1, tuning, rng_u, rng_z, x, sums, record):
    """Rounds t0 + 1 .. t1 of one run of the two-point learner (``tuning`` a :class:`TwoPointTuning`); state
    as in :func:`_one_point_chunk`."""
    sigma, strongly, eta0, rho, mu = tuning.sigma, tuning.strongly, tuning.eta0, tuning.rho, tuning.mu
    S, Q = sums.S, sums.Q
    checkpoints, out, acc = record.checkpoints, record.out, record.acc
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
def _barrier_chunk(env, d, t0, t1, tuning, rng_u, rng_z, state, sums, record):
    """Rounds t0 + 1 .. t1 of one run of a barrier learner (``tuning`` a :class:`BarrierTuning`); state as in
    :func:`_one_point_chunk`, the learner's in ``state`` (:class:`BarrierState`: the centre, ``gsum`` the sum
    of the estimates g_s, ``xsum`` the sum of the centres x_s, Hazan-Levy's strong-convexity terms, and
    ``max_norm`` = [max ||y_t|| so far])."""
    sigma, strongly, eta0, delta0, mu = tuning.sigma, tuning.strongly, tuning.eta0, tuning.delta0, tuning.mu
    x, gsum, xsum, max_norm = state.x, state.gsum, state.xsum, state.max_norm
    S, Q = sums.S, sums.Q
    checkpoints, out, acc = record.checkpoints, record.out, record.acc
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
