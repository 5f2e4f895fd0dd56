"""Plain step-by-step NumPy versions of the policies, written straight from the agent boxes.

They exist to check the compiled engine and to measure it: :func:`run_reference` consumes the same two
random streams as :func:`ldpcode.simulate.run_one` (rewards, curator noise) but recomputes every index
with the paper's literal formula, e.g. for LDP-UCB-L (Agent 2, Line 3)

    u_a = mean_a + sqrt(2 log t / N_a) + sqrt(32 log t / (eps^2 N_a)),

and re-implements rewards and curators without the compiled helpers. With the same seed both must pull
the same arms. They are about 100 times slower; use them only on small horizons.
"""
from __future__ import annotations

import math

import numpy as np

from . import instances as ins
from . import mechanisms as mech
from .simulate import run_streams


def _reward(arm: ins.Arm, draw: float) -> float:
    if arm.family == ins.BERNOULLI:
        return float(draw < arm.p0)
    if arm.family == ins.BETA_A1:
        return draw ** (1.0 / arm.p0)
    if arm.family == ins.TWO_POINT:
        return arm.p0 if draw < 0.5 else arm.p1
    if arm.family == ins.UNIFORM:
        return arm.p0 + (arm.p1 - arm.p0) * draw
    return arm.p0 + arm.p1 * draw


def _respond(policy, r: float, noise: float) -> float:
    if policy.use_sigmoid:
        r = 1.0 / (1.0 + math.exp(-r))
    if policy.curator is None:
        return r
    eps = policy.curator.epsilon
    if policy.curator.code == mech.LAPLACE:  # Curator 1: r + Laplace(1/eps)
        return r + noise / eps
    return float(noise < (r * math.exp(eps) + 1.0 - r) / (1.0 + math.exp(eps)))  # Curator 3


def run_reference(policy, instance, horizon: int, seed_seq: np.random.SeedSequence,
                  checkpoints: np.ndarray) -> np.ndarray:
    """One run, step by step; returns the pull counts at ``checkpoints``, shape (C, arms)."""
    reward_rng, noise_rng = run_streams(seed_seq)
    reward_draws = instance.draw_stream(reward_rng, horizon)
    noise_draws = policy.draw_noise(noise_rng, horizon)
    n = instance.n_arms
    N = np.zeros(n, dtype=np.int64)
    S = np.zeros(n)
    out = np.zeros((len(checkpoints), n), dtype=np.int64)
    cps = {int(c): i for i, c in enumerate(checkpoints)}
    eps = policy.epsilon
    for t in range(horizon):  # t = number of pulls so far
        if t < n:
            arm = t
        else:
            low = np.flatnonzero(N <= 4 * math.log(t + 1)) if policy.forced_exploration else []
            if len(low):
                arm = int(low[0])
            else:
                u = S / N + np.sqrt(2 * math.log(t) / N)
                if policy.mechanism_code == mech.LAPLACE:
                    u = u + np.sqrt(32 * math.log(t) / (eps ** 2 * N))
                arm = int(np.argmax(u))
        x = _respond(policy, _reward(instance.arms[arm], reward_draws[t]), noise_draws[t])
        N[arm] += 1
        S[arm] += x
        if t + 1 in cps:
            out[cps[t + 1]] = N
    return out
