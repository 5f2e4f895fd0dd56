r"""The per-step policies among the ε-global DP algorithms of Azize and Basu (2022), each run by a compiled
kernel one pull at a time.

* DP-UCB, a baseline of Table 1: UCB1 on private sums from the tree mechanism (Mishra and Thakurta 2015;
  Tossou and Dimitrakakis 2016). :func:`dp_ucb_noise_bound` gives the tree's depth, node scale and noise
  bound (our reading, with γ = :data:`DEFAULT_GAMMA` = 0.1 as in Section 5); :class:`DPUCB` the policy;
  :func:`dp_ucb_chunk` its kernel, whose grouped arguments are the namedtuples ``ArmLaws``, ``PullDraws``,
  ``DPUCBTuning``, ``DPUCBState`` and ``CountsRecorder``.
* KL-UCB (Garivier and Cappé 2011), non-private, for reference: :class:`KLUCB` and :func:`klucb_chunk`.

:func:`_record` copies the counts at each checkpoint, for both kernels.
"""

from __future__ import annotations

import math
import sys
from collections import namedtuple
from dataclasses import dataclass

import numpy as np
from numba import njit

from .. import mechanisms as mech
from .._validate import check_epsilon, check_int, check_probability
from ..divergences import _kl_ber, klucb_bernoulli_scalar
from ..engine import pulls_cost, run_in_chunks
from ..instances import reward_from_draw
from ..kit import certified_argmax
from ..rng import run_streams
from .protocol import _GlobalPolicy

DEFAULT_GAMMA = 0.1  # Section 5, DP-UCB

# The grouped arguments of dp_ucb_chunk (namedtuples, which numba takes as arguments).
ArmLaws = namedtuple("ArmLaws", "families params")
"""The instance's reward laws: each arm's family code and its two parameters (K, 2)."""
PullDraws = namedtuple("PullDraws", "rewards noise")
"""A chunk's pre-drawn random inputs, one per pull: reward draws and standard Laplace noises of the tree."""
DPUCBTuning = namedtuple("DPUCBTuning", "scale bound")
"""DP-UCB's constants: the tree's node scale b = L/ε and the noise bound B (:func:`dp_ucb_noise_bound`)."""
DPUCBState = namedtuple("DPUCBState", "counts sums nodes means widths")
"""A run's mutable arrays, updated in place: pulls, raw sums, tree nodes (K, L), (private sum + B)/N, sqrt(2/N)."""
CountsRecorder = namedtuple("CountsRecorder", "checkpoints counts_out")
"""What a run records: the checkpoint rounds and the counts ``counts_out`` (C, K) at each."""


# ---------------------------------------------------------------------------------------------------
# Per-step policies: DP-UCB (tree mechanism) and non-private KL-UCB
# ---------------------------------------------------------------------------------------------------


def dp_ucb_noise_bound(horizon: int, n_arms: int, epsilon: float, gamma: float) -> tuple[int, float, float]:
    r"""Depth L, node scale b = L/ε and the bound B on the tree noise of any private prefix sum of DP-UCB.

    The private sum of n rewards adds at most L independent Lap(b) node noises. By Chan, Shi and Song
    (2011, Corollary 2.10), with :math:`\nu = b\max(\sqrt L, \sqrt{\log(2/\delta)})`, their sum exceeds
    :math:`B = \nu\sqrt{8\log(2/\delta)}` with probability at most δ; we take
    :math:`\delta = \gamma/(KT)`, a union over the K arms and T steps, so the bound holds throughout
    with probability 1 - γ, as in Mishra and Thakurta's Private UCB. (Our reading; the book does not
    have the text of either baseline paper.)
    """
    horizon = check_int("horizon", horizon, minimum=1)
    n_arms = check_int("n_arms", n_arms, minimum=1)
    epsilon = check_epsilon(epsilon)
    gamma = check_probability("gamma", gamma)
    L = mech.tree_depth(horizon)
    b = L / epsilon
    delta = gamma / (n_arms * horizon)
    if delta >= sys.float_info.min:  # every γ of the book: bit for bit as it always was
        lg = math.log(2.0 / delta)
    else:  # δ underflows (γ = 5e-324 divided by 0 before): log(2KT/γ) = log 2KT - log γ, finite
        lg = math.log(2.0 * n_arms * horizon) - math.log(gamma)
    nu = b * max(math.sqrt(L), math.sqrt(lg))
    return L, b, nu * math.sqrt(8.0 * lg)


@dataclass(frozen=True)
class DPUCB(_GlobalPolicy):
    r"""DP-UCB: UCB1 on private sums. Each arm's reward stream feeds its own tree mechanism
    (:func:`ldpcode.mechanisms.tree_push`, node noise Lap(L/ε), L = floor(log2 T) + 1); the index is

    .. math:: \frac{\tilde S_a}{N_a} + \sqrt{\frac{2\log t}{N_a}} + \frac{B}{N_a},

    with B from :func:`dp_ucb_noise_bound` (γ = 0.1). A changed reward moves one arm's private sums only,
    by post-processing the actions are ε-global DP. The tree's depth needs T: this version is not anytime
    (Tossou and Dimitrakakis's hybrid mechanism would make it so)."""

    epsilon: float
    gamma: float = DEFAULT_GAMMA
    name: str = "DP-UCB"
    episodic = False
    needs_bounded_rewards = True
    anytime = False
    forgetful = False
    alpha = math.nan

    def cost(self, instance, horizon: int, runs: int, n_checkpoints: int, workers: int):
        K = instance.n_arms
        return pulls_cost("pulls of DP-UCB", 250 + 3 * K, K, horizon, runs, n_checkpoints, workers)

    def run_one(self, instance, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        """One run with the compiled kernel; returns (counts at the checkpoints, releases = one new private
        sum per pull)."""
        reward_rng, noise_rng = run_streams(seed_seq)
        n = instance.n_arms
        counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
        depth, scale, bound = dp_ucb_noise_bound(horizon, n, self.epsilon, self.gamma)
        arms = ArmLaws(instance.families, instance.params)
        tuning = DPUCBTuning(scale, bound)
        state = DPUCBState(np.zeros(n, dtype=np.int64), np.zeros(n), np.zeros((n, depth)), np.zeros(n), np.zeros(n))
        recorder = CountsRecorder(checkpoints, counts_out)

        def step(t, ci, m):
            rd = instance.draw_stream(reward_rng, m)
            nd = mech.draw_noise(mech.Mechanism.LAPLACE, noise_rng, m)
            return dp_ucb_chunk(t, horizon, arms, PullDraws(rd, nd), tuning, state, recorder, ci)

        run_in_chunks(horizon, cancel, step)
        return counts_out, horizon  # one new private sum per pull

    def __repr__(self) -> str:
        return f"Policy('DP-UCB', epsilon={self.epsilon:g}, gamma={self.gamma:g})"


@dataclass(frozen=True)
class KLUCB(_GlobalPolicy):
    r"""KL-UCB (Garivier and Cappé 2011) on raw rewards: :math:`\max\{q : N_a\, d(\hat\mu_a, q) \le \log t\}`,
    t the pulls so far (the c = 0 version used in practice), after one pull of each arm."""

    name: str = "KL-UCB"
    episodic = False
    needs_bounded_rewards = True
    anytime = True
    forgetful = False
    epsilon = math.inf
    alpha = math.nan

    def cost(self, instance, horizon: int, runs: int, n_checkpoints: int, workers: int):
        K = instance.n_arms
        return pulls_cost("pulls of KL-UCB", 4000 + 45 * K, K, horizon, runs, n_checkpoints, workers)

    def run_one(self, instance, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        """One run with the compiled kernel; returns (counts at the checkpoints, 0 releases: not private)."""
        reward_rng, _ = run_streams(seed_seq)
        n = instance.n_arms
        counts = np.zeros(n, dtype=np.int64)
        sums = np.zeros(n)
        counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)

        def step(t, ci, m):
            rd = instance.draw_stream(reward_rng, m)
            return klucb_chunk(
                t, horizon, instance.families, instance.params, rd, counts, sums, checkpoints, ci, counts_out
            )

        run_in_chunks(horizon, cancel, step)
        return counts_out, 0

    def __repr__(self) -> str:
        return "Policy('KL-UCB')"


@njit(cache=True, nogil=True)
def _record(t, counts, checkpoints, ci, counts_out):
    """Copy the counts into ``counts_out`` at every checkpoint equal to t; returns the next checkpoint index."""
    while ci < checkpoints.shape[0] and checkpoints[ci] == t:
        counts_out[ci, :] = counts
        ci += 1
    return ci


@njit(cache=True, nogil=True)
def dp_ucb_chunk(t, horizon, arms, draws, tuning, state, recorder, ci):
    """Advance one DP-UCB run by ``len(draws.rewards)`` steps (or to ``horizon``); one Laplace draw per step
    feeds the new node of the pulled arm's tree. ``arms`` an ``ArmLaws``, ``draws`` the chunk's ``PullDraws``,
    ``tuning`` a ``DPUCBTuning``, ``state`` the run's ``DPUCBState`` (``means`` holds (private sum + B)/N,
    ``widths`` sqrt(2/N)), ``recorder`` a ``CountsRecorder``. Returns the new (t, ci)."""
    families, params = arms.families, arms.params
    reward_draws, noise_draws = draws.rewards, draws.noise
    scale, bound = tuning.scale, tuning.bound
    counts, sums, nodes, means, widths = state.counts, state.sums, state.nodes, state.means, state.widths
    checkpoints, counts_out = recorder.checkpoints, recorder.counts_out
    n = counts.shape[0]
    steps = min(reward_draws.shape[0], horizon - t)
    # The argmax of means + g(t) widths (ties: the lowest-numbered arm) is certified for the next rounds and skipped
    # while the leader stays strictly above every other arm's index at the window's end (ldpcode.kit): the pulls are
    # bit for bit those of the scan at every round (tests/policies/test_global_policies.py, against the reference).
    leader, rival, g_lo, t_end, g_end = -1, np.inf, 0.0, -1, 0.0  # the certificate (ldpcode.kit.certified_argmax)
    for s in range(steps):
        if t < n:
            arm = t
        else:
            leader, rival, g_lo, t_end, g_end = certified_argmax(
                means, widths, counts, t, leader, rival, g_lo, t_end, g_end
            )
            arm = leader
        r = reward_from_draw(families[arm], params[arm, 0], params[arm, 1], reward_draws[s])
        counts[arm] += 1
        sums[arm] += r
        noise = mech.tree_push(nodes[arm], counts[arm], noise_draws[s], scale)
        means[arm] = (sums[arm] + noise + bound) / counts[arm]
        widths[arm] = math.sqrt(2.0 / counts[arm])
        t += 1
        ci = _record(t, counts, checkpoints, ci, counts_out)
    return t, ci


@njit(cache=True, nogil=True)
def klucb_argmax(lt, counts, sums):
    """The arm KL-UCB pulls at log t = ``lt`` and its computed index: the argmax of :func:`klucb_chunk` (and of the
    event engine's ordinary steps, :mod:`ldpcode.global_policies.klucb_event`). Arm a beats the best index u*
    exactly when its mean exceeds u* or N_a d(mean_a, u*) < log t (d is increasing in q above the mean); only then
    is its own index computed (one bisection); ties go to the lowest arm."""
    n = counts.shape[0]
    best = -1.0
    arm = 0
    for a in range(n):
        p = sums[a] / counts[a]
        level = lt / counts[a]
        if best < 0.0 or p > best or (best < 1.0 and _kl_ber(p, best) < level):
            u = klucb_bernoulli_scalar(p, level)
            if u > best:
                best = u
                arm = a
    return arm, best


@njit(cache=True, nogil=True)
def klucb_chunk(t, horizon, families, params, reward_draws, counts, sums, checkpoints, ci, counts_out):
    """Advance one KL-UCB run. The argmax needs one bisection for the running best and one KL evaluation
    per other arm: arm a beats the best index u* exactly when its mean exceeds u* or N_a d(mean_a, u*) <
    log t (d is increasing in q above the mean); only then is its own index computed."""
    n = counts.shape[0]
    steps = min(reward_draws.shape[0], horizon - t)
    for s in range(steps):
        if t < n:
            arm = t
        else:
            arm = klucb_argmax(math.log(t), counts, sums)[0]
        r = reward_from_draw(families[arm], params[arm, 0], params[arm, 1], reward_draws[s])
        counts[arm] += 1
        sums[arm] += r
        t += 1
        ci = _record(t, counts, checkpoints, ci, counts_out)
    return t, ci
