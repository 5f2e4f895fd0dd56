r"""The compiled engine of :func:`ldpcode.contextual.simulate_contextual` (numba, one run at a time).

* :data:`ROUNDS_PER_DRAW`: the rounds drawn at once from a run's generators (both engines).
* ``_CODES``: the policy codes of the compiled loop (LinUCB, LDP LinUCB, GLOC, LDP GLOC).
* ``_gloc_a_nb``, ``_width_nb``: a(B) and the widths β_t, shifts c_t of Theorems 8 and 10 (the formulas of
  :func:`ldpcode.contextual.gloc_a` and of ``width`` inside ``simulate_contextual``), compiled.
* ``ChunkDraws``, ``Environment``, ``LearnerState``, ``Tuning``, ``Recorder``: the grouped arguments of
  ``_run_chunk`` (namedtuples, which numba takes as arguments).
* ``_run_chunk``: one run's rounds of LDP LinUCB (Section 4.1) or LDP GLOC (Algorithm 3), and their
  non-private versions: the NumPy engine's loop body, compiled and tested to make the same choices.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

ChunkDraws = namedtuple("ChunkDraws", "X U NV Nu Ng")
"""A chunk's pre-drawn random inputs: contexts X (m, K, d), reward uniforms U (m,), privacy noises NV (m, d, d),
Nu (m, d), Ng (m, d) (zeros when not private)."""
Environment = namedtuple("Environment", "theta noise")
"""The instance: the true parameter ``theta`` (d,) and the half-width ``noise`` of the linear link's uniform reward noise (also R)."""
LearnerState = namedtuple("LearnerState", "V u theta_ol A_ons theta_bar Vinv state")
"""A run's mutable state, updated in place: the server's sums V (d, d), u (d,), GLOC's online θ and ONS matrix
A_ons, the estimate θ̄, the inverse Vinv of the regularised V, and ``state`` = [beta, cumulative regret]."""
Tuning = namedtuple("Tuning", "lam alpha kappa sig_V sig_u sig_g zeta horizon")
"""The algorithm's constants: ridge λ, confidence α, κ, the noise sds (matrix, vector, gradient), OGD step ζ, T."""
Recorder = namedtuple("Recorder", "checkpoints out choices record")
"""What a run records: checkpoint rounds, regret ``out`` at each, the chosen arms ``choices`` (if ``record``)."""

# The rounds whose contexts, uniforms and noises are drawn at once from a run's generators, and so the rounds
# of one call of the compiled loop. Both engines lay their draws out by it (a chunk's contexts, then its
# uniforms, from one generator), so it is part of what a seed gives: another value gives other numbers.
# 512 keeps a chunk's draws small (contextual_cost counts 3 x 512 x (dK + d^2 + 2d + 1) doubles: 3.9 MB at
# d = 10, K = 20) while a call's rounds (microseconds each) dwarf its overhead.
ROUNDS_PER_DRAW = 512
_CODES = {"linucb": 0, "ldp-linucb": 1, "gloc": 2, "ldp-gloc": 3}


@njit(cache=True)
def _gloc_a_nb(B, kappa, R, alpha):
    return (
        1
        + 4 * B / kappa
        + 8 * R**2 / kappa**2 * math.log(2 / alpha * math.sqrt(1 + 2 * B / kappa + 4 * R**4 / (kappa**4 * alpha**2)))
    )


@njit(cache=True)
def _width_nb(code, t, d, lam, R_lin, alpha, kappa, sig_V, sig_u, sig_g, zeta, horizon):
    """β_t and c_t, the same formulas as ``width`` inside :func:`simulate_contextual` (S = 1)."""
    S = 1.0
    if code == 0:
        return R_lin * math.sqrt(2 * math.log(2 / alpha) + d * math.log(1 + t / (d * lam))) + math.sqrt(lam) * S, 0.0
    if code == 2:
        B = 2 * kappa * S**2 + d * math.log(1 + t / (d * lam)) / (2 * kappa)
        return math.sqrt(lam * S**2 + _gloc_a_nb(B, kappa, 0.5, alpha)), 0.0
    log2Ta = math.log(2.0 * horizon / alpha)
    ups = sig_V * math.sqrt(t) * (4.0 * math.sqrt(d) + 2.0 * log2Ta)
    rmin = lam + ups
    rmax = lam + 3 * ups
    gam = sig_u * math.sqrt(t) * (math.sqrt(d) + math.sqrt(2 * log2Ta)) / math.sqrt(rmin)
    if code == 1:
        b = (
            R_lin * math.sqrt(2 * math.log(2 / alpha) + d * math.log(rmax / rmin + t / (d * rmin)))
            + S * math.sqrt(rmax)
            + gam
        )
    else:
        B = 2 * S**2 / zeta + zeta / 2 * t * (1 + d * sig_g**2)
        b = math.sqrt(_gloc_a_nb(B, kappa, 0.5, alpha) + rmax * S**2) + gam
    return b, 2 * ups


@njit(cache=True)
def _run_chunk(code, t0, draws, env, learner, tuning, recorder, ci):
    """One run, ``draws.X.shape[0]`` rounds from round t0 + 1: the loop body of :func:`simulate_contextual`
    (NumPy engine) compiled. ``learner.state`` = [beta, cumulative regret]. Returns the next checkpoint index."""
    X, U, NV, Nu, Ng = draws.X, draws.U, draws.NV, draws.Nu, draws.Ng
    theta, noise = env.theta, env.noise
    V, u, theta_ol, A_ons = learner.V, learner.u, learner.theta_ol, learner.A_ons
    theta_bar, Vinv, state = learner.theta_bar, learner.Vinv, learner.state
    lam, alpha, kappa, zeta, horizon = tuning.lam, tuning.alpha, tuning.kappa, tuning.zeta, tuning.horizon
    sig_V, sig_u, sig_g = tuning.sig_V, tuning.sig_u, tuning.sig_g
    cps, out, choices, record = recorder.checkpoints, recorder.out, recorder.choices, recorder.record
    m, K, d = X.shape
    glm = code >= 2
    private = code == 1 or code == 3
    mean_all = np.empty(K)
    for j in range(m):
        t = t0 + j + 1
        beta = state[0]
        best = -np.inf
        a = 0
        for k in range(K):
            q = 0.0
            mu_k = 0.0
            for i in range(d):
                s = 0.0
                for l in range(d):
                    s += Vinv[i, l] * X[j, k, l]
                q += X[j, k, i] * s
                mu_k += X[j, k, i] * theta_bar[i]
            ucb = mu_k + beta * math.sqrt(max(q, 0.0))
            if ucb > best:
                best = ucb
                a = k
            zt = 0.0
            for i in range(d):
                zt += X[j, k, i] * theta[i]
            mean_all[k] = 0.5 * (1.0 + math.tanh(0.5 * zt)) if glm else zt
        if record:
            choices[t - 1] = a
        state[1] += mean_all.max() - mean_all[a]
        xa = X[j, a]
        if glm:
            y = 1.0 if U[j] < mean_all[a] else 0.0
            stat = 0.0
            for i in range(d):
                stat += xa[i] * theta_ol[i]
        else:
            zt = 0.0
            for i in range(d):
                zt += xa[i] * theta[i]
            y = zt + noise * (2 * U[j] - 1)
            stat = y
        # the user's release, accumulated by the server
        for i in range(d):
            for l in range(d):
                V[i, l] += xa[i] * xa[l] + NV[j, i, l]
            u[i] += stat * xa[i] + Nu[j, i]
        if glm:
            lprime = 0.5 * (1.0 + math.tanh(0.5 * stat)) - y
            if private:
                for i in range(d):
                    theta_ol[i] -= zeta * (lprime * xa[i] + Ng[j, i])
            else:
                for i in range(d):
                    for l in range(d):
                        A_ons[i, l] += xa[i] * xa[l]
                step = np.linalg.solve(A_ons, xa.copy())
                for i in range(d):
                    theta_ol[i] -= lprime / kappa * step[i]
            nrm = math.sqrt(np.sum(theta_ol**2))
            if nrm > 1.0:
                for i in range(d):
                    theta_ol[i] /= nrm
        beta, c = _width_nb(code, t, d, lam, noise, alpha, kappa, sig_V, sig_u, sig_g, zeta, horizon)
        state[0] = beta
        Vbar = V.copy()
        for i in range(d):
            Vbar[i, i] += lam + c
        Vinv[:, :] = np.linalg.inv(Vbar)
        for i in range(d):
            s = 0.0
            for l in range(d):
                s += Vinv[i, l] * u[l]
            theta_bar[i] = s
        while ci < cps.shape[0] and cps[ci] == t:
            out[ci] = state[1]
            ci += 1
    return ci
