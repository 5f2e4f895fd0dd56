r"""The numba-compiled steps of Algorithm 1's MAB instance (Zheng et al. 2020, Section 3, Appendix B).

:func:`_ucb_select` (UCB1's index on losses), :func:`tsallis_weights` (Tsallis-INF's weights, Newton's method
of Zimmert and Seldin 2021, Algorithm 2) and :func:`_sample` are shared by the Python learners
(:mod:`ldpcode.reductions.learners`) and by :func:`_chunk`, the kernel that plays ``m`` rounds of one run of a
built-in learner fed privatized losses (:func:`ldpcode.reductions.runs.simulate_mab`; its grouped arguments are
the namedtuples ``LearnerTuning``, ``LossTable``, ``ChunkDraws``, ``LearnerState`` and ``RegretRecorder``), and by
:func:`one_point_ucb_chunk`, Algorithm 1 around UCB1 on a stochastic instance of rewards, the kernel of the
main engine's policy :class:`ldpcode.reductions.OnePointUCB`.

``ROUNDS_PER_CALL`` is the number of rounds between two returns to the interpreter (where Ctrl-C is seen). Its
readers import it: :mod:`ldpcode.reductions.runs` (the simulation loop and
:func:`~ldpcode.reductions.runs.mab_cost`) and :mod:`ldpcode.reductions.losses` (the UCB1-adversary table) each
look it up in their own namespace, which is where a test must patch it.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

from ..instances import reward_from_draw
from ..kit import lcb_scan, lcb_value, window_end

# The rounds of one run per call of a compiled kernel (the simulation kernel, the UCB1 adversary's table) or
# per pass of the Python loop. 2^14: a call's draw buffers (three of 2^14 doubles, 128 KiB each) stay in
# cache, and at 75-2500 ns a step in the kernels (ldpcode.limits) a call lasts at most tens of ms, the most
# a Ctrl-C waits to be seen.
ROUNDS_PER_CALL = 1 << 14

# The grouped arguments of _chunk (namedtuples, which numba takes as arguments).
LearnerTuning = namedtuple("LearnerTuning", "code param")
"""The built-in learner: ``code`` (0 UCB, 1 Tsallis-INF) and its constant ``param`` (width constant or η scale)."""
LossTable = namedtuple("LossTable", "levels bounds bernoulli")
"""The loss schedule: mean losses ``levels`` (phases, K), the phases' first rounds ``bounds``, Bernoulli draws or not."""
ChunkDraws = namedtuple("ChunkDraws", "env_u noise learn_u")
"""A chunk's pre-drawn random inputs (m each): loss uniforms, privacy noises, learner uniforms (zeros if unused)."""
LearnerState = namedtuple("LearnerState", "counts sums w cum_mean")
"""A run's mutable arrays, updated in place: pulls, sums of the fed losses, Tsallis-INF's weights, cumulative means."""
RegretRecorder = namedtuple("RegretRecorder", "checkpoints out_regret")
"""What a run records: the checkpoint rounds and the pseudo-regret ``out_regret`` at each."""


# ----------------------------------------------------------------------------------------------
# Compiled steps shared by the Python learners and the kernel
# ----------------------------------------------------------------------------------------------


@njit(cache=True)
def _ucb_select(counts, sums, t, width_c):
    """Arm minimising mean - width_c sqrt(ln t / N); unpulled arms first (lowest index)."""
    k = counts.shape[0]
    for a in range(k):
        if counts[a] == 0:
            return a
    lt = math.log(t)
    best, best_v = 0, np.inf
    for a in range(k):
        v = sums[a] / counts[a] - width_c * math.sqrt(lt / counts[a])
        if v < best_v:
            best, best_v = a, v
    return best


@njit(cache=True)
def tsallis_weights(cum_loss, eta, w):
    r"""Tsallis-INF (α = 1/2) weights :math:`w_i = 4(\eta(\hat L_i - x))^{-2}` with :math:`\sum_i w_i = 1`.

    Newton's method on x (Zimmert and Seldin 2021, Algorithm 2) started at
    :math:`x_0 = \min_i\hat L_i - 2/\eta`, where the smallest-loss arm alone has weight 1, so
    :math:`\sum w \ge 1` and the iterates decrease monotonically to the root (the sum is convex and
    increasing in x). Writes w in place (renormalised to sum exactly 1) and returns x.
    """
    k = cum_loss.shape[0]
    m = cum_loss[0]
    for i in range(1, k):
        if cum_loss[i] < m:
            m = cum_loss[i]
    x = m - 2.0 / eta
    for _ in range(100):
        s = 0.0
        s32 = 0.0
        for i in range(k):
            d = eta * (cum_loss[i] - x)
            wi = 4.0 / (d * d)
            w[i] = wi
            s += wi
            s32 += wi * math.sqrt(wi)
        if abs(s - 1.0) < 1e-12:
            break
        x = x - (s - 1.0) / (eta * s32)
    s = 0.0
    for i in range(k):
        d = eta * (cum_loss[i] - x)
        w[i] = 4.0 / (d * d)
        s += w[i]
    for i in range(k):
        w[i] /= s
    return x


@njit(cache=True)
def _sample(w, u):
    c = 0.0
    k = w.shape[0]
    for i in range(k - 1):
        c += w[i]
        if u < c:
            return i
    return k - 1


@njit(cache=True, nogil=True)
def _chunk(t0, m, learner, losses, draws, state, phase, played, recorder, ci):
    """Steps t0+1 .. t0+m of one run (t counts pulls from 1). Returns (phase, played, ci).

    ``learner`` a ``LearnerTuning``, ``losses`` a ``LossTable``, ``draws`` the chunk's
    ``ChunkDraws`` (m each), ``state`` the run's ``LearnerState``, ``recorder`` a
    ``RegretRecorder``; ``phase``, ``played`` and ``ci`` are carried from the previous chunk."""
    code, param = learner.code, learner.param
    levels, bounds, bernoulli = losses.levels, losses.bounds, losses.bernoulli
    env_u, noise, learn_u = draws.env_u, draws.noise, draws.learn_u
    counts, sums, w, cum_mean = state.counts, state.sums, state.w, state.cum_mean
    checkpoints, out_regret = recorder.checkpoints, recorder.out_regret
    k = counts.shape[0]
    nlev = levels.shape[0]
    for j in range(m):
        t = t0 + j + 1
        while phase + 1 < bounds.shape[0] and t >= bounds[phase + 1]:
            phase += 1
        mu = levels[phase % nlev]
        if code == 0:
            a = _ucb_select(counts, sums, t - 1 if t > 1 else 1, param)
        else:
            tsallis_weights(sums, param / math.sqrt(t), w)
            a = _sample(w, learn_u[j])
        if bernoulli:
            loss = 1.0 if env_u[j] < mu[a] else 0.0
        else:
            loss = mu[a]
        y = loss + noise[j]
        counts[a] += 1
        if code == 0:
            sums[a] += y
        else:
            sums[a] += y / w[a]
        played += mu[a]
        for i in range(k):
            cum_mean[i] += mu[i]
        while ci < checkpoints.shape[0] and checkpoints[ci] == t:
            best = cum_mean[0]
            for i in range(1, k):
                if cum_mean[i] < best:
                    best = cum_mean[i]
            out_regret[ci] = played - best
            ci += 1
    return phase, played, ci


@njit(cache=True, nogil=True)
def one_point_ucb_chunk(
    t, horizon, families, params, reward_draws, noise_draws, width_c, counts, sums, checkpoints, ci, counts_out
):
    """Advance one run of Algorithm 1 around UCB1 on a stochastic instance of rewards in [0, 1] by
    ``len(reward_draws)`` pulls (or to ``horizon``): the policy :class:`ldpcode.reductions.OnePointUCB`.

    Round t + 1 plays the arm of :func:`_ucb_select` (the index of :class:`SubGaussianUCB`, width constant
    ``width_c``, on the sums of the privatized losses), the user's reward r comes from
    :func:`ldpcode.instances.reward_from_draw`, and the learner is fed only the release
    (1 - r) + ``noise_draws[s]`` (Algorithm 1, line 4). ``counts`` and ``sums`` are the run's state;
    ``counts`` is copied into ``counts_out[ci]`` at each checkpoint. Returns the new (t, ci)."""
    steps = min(reward_draws.shape[0], horizon - t)
    # The arm of _ucb_select, certified as in ldpcode.kit (bit-for-bit the same pulls): the leader is played
    # without a scan while its value at an earlier log t stays strictly below every other arm's at the
    # window's end (values fall as log t grows).
    leader = -1
    rival = -np.inf
    lt_lo = 0.0
    t_end = -1
    lt_end = 0.0
    for s in range(steps):
        tt = t if t > 0 else 1
        if tt > t_end:
            t_end = window_end(tt)
            lt_end = math.log(t_end)
            leader = -1
        a = -1
        if leader >= 0:
            if lcb_value(counts, sums, leader, lt_lo, width_c) < rival:
                a = leader
            else:
                lt = math.log(tt)
                if lcb_value(counts, sums, leader, lt, width_c) < rival:
                    a = leader
                    lt_lo = lt
        if a < 0:
            lt_lo = math.log(tt)
            leader, rival = lcb_scan(counts, sums, lt_lo, lt_end, width_c)
            a = leader
        r = reward_from_draw(families[a], params[a, 0], params[a, 1], reward_draws[s])
        counts[a] += 1
        sums[a] += (1.0 - r) + noise_draws[s]
        t += 1
        while ci < checkpoints.shape[0] and checkpoints[ci] == t:
            counts_out[ci, :] = counts
            ci += 1
    return t, ci
