r"""The per-step policies among the ε-global DP algorithms of Azize and Basu (2022), each run by a compiled
kernel one pull at a time.

* DP-UCB, a baseline of Table 1: UCB1 on private sums from the tree mechanism (Mishra and Thakurta 2015;
  Tossou and Dimitrakakis 2016). :func:`dp_ucb_noise_bound` gives the tree's depth, node scale and noise
  bound (our reading, with γ = :data:`DEFAULT_GAMMA` = 0.1 as in Section 5); :class:`DPUCB` the policy;
  :func:`dp_ucb_chunk` its kernel, whose grouped arguments are the namedtuples ``ArmLaws``, ``PullDraws``,
  ``DPUCBTuning``, ``DPUCBState`` and ``CountsRecorder``.
* KL-UCB (Garivier and Cappé 2011), non-private, for reference: :class:`KLUCB` and :func:`klucb_chunk`, whose
  argmax (:func:`klucb_argmax`) is skipped while a certificate holds (:func:`klucb_certifies`).

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
from ..kit import certified_argmax, window_end
from ..mechanisms.global_dp import _tree_push_kernel
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

    def __post_init__(self):
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))
        object.__setattr__(self, "gamma", check_probability("gamma", self.gamma))  # a failure probability
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a string, got {self.name!r} of type {type(self.name).__name__}")

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

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a string, got {self.name!r} of type {type(self.name).__name__}")

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
        noise = _tree_push_kernel(nodes[arm], counts[arm], noise_draws[s], scale)
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


#: the margin of :func:`klucb_certifies`, relative and absolute: far above the rounding of ``_kl_ber`` (its two
#: terms are at most about 35 in absolute value, so its rounding is below 1e-13), far below the gaps it decides
KL_MARGIN_REL, KL_MARGIN_ABS = 1e-9, 1e-12
#: a window of rounds of :func:`klucb_chunk` shares one log t_end: ``t >> KL_WINDOW_SHIFT`` rounds, at least
#: ``ldpcode.kit.MIN_WINDOW`` (:func:`ldpcode.kit.window_end`)
KL_WINDOW_SHIFT = 10
#: the halvings of a cap's bisection: fewer than the index's 50, so a cap is an upper bound of the index
KL_CAP_HALVINGS = 24


@njit(cache=True, nogil=True)
def klucb_certifies(p, cap, level):
    r"""True when :func:`klucb_argmax` is certain to pull the arm of empirical mean ``p``, given that every other
    arm's computed index is at most ``cap`` and that ``level`` is at most the arm's own level log t / N.

    *Proof.* If p > cap, the arm is examined (its mean exceeds the running best, which is another arm's index, at
    most cap), and its index is at least p > cap. Otherwise, with cap < 1, let d = ``_kl_ber(p, cap)``: the exact
    divergence increases in q on [p, 1], and the computed one is within 1e-13 of it for every q in [p, cap] (its
    terms are smaller there than at cap), so ``d (1 + KL_MARGIN_REL) + KL_MARGIN_ABS < level`` gives
    ``_kl_ber(p, q) < log t / N`` for every such q. Then the arm is examined (the running best lies below p or in
    [p, cap]), and the bisection of :func:`~ldpcode.divergences.klucb_bernoulli_scalar` never moves its upper end
    to a point at most cap, so the index it returns is above cap: strictly above every other arm's, so no arm
    examined later replaces it, whatever the ties."""
    if p > cap:
        return True
    if cap >= 1.0:
        return False
    d = _kl_ber(p, cap)
    return d + KL_MARGIN_REL * d + KL_MARGIN_ABS < level


@njit(cache=True, nogil=True)
def klucb_certified_rounds(s, n, cap, lt, room):
    r"""How many more rounds, at most ``room``, the leader with reward sum ``s`` over ``n`` pulls stays certified if it
    keeps being pulled: the largest k <= room with ``klucb_certifies(s / (n + k), cap, lt / (n + k))``, 0 if none.

    A reward is at least 0, so after k more pulls the leader's sum is at least s (a sum of non-negative floats does
    not decrease) and its mean at least s / (n + k); the divergence to cap decreases in the mean below cap, so the
    all-zero path is the worst, up to a rounding far inside the margins of :func:`klucb_certifies`. On that path
    the certificate fails from some k on: with p = s / (n + k) <= cap, (n + k) d(p, cap) grows with k (its
    derivative in n + k is log((1 - p) / (1 - cap)) >= 0) while the level lt / (n + k) falls, so k is found by
    doubling, then bisection.

    The event engine's :func:`~ldpcode.global_policies.klucb_event.leader_reach` solves the same question for its
    condition (L), whose margin τ sits on the index, not on the divergence: a rounding argument there, where this
    kernel needs a bound on the rounding of every computed divergence, since its pulls must be
    :func:`klucb_argmax`'s bit for bit. Sharing one would move the event engine's blocks, and with them its random
    stream and the stored numbers of the notebooks that use it."""
    if room <= 0 or not klucb_certifies(s / (n + 1), cap, lt / (n + 1)):
        return 0
    lo, hi = 1, 2
    while hi <= room and klucb_certifies(s / (n + hi), cap, lt / (n + hi)):
        lo, hi = hi, 2 * hi
    hi = min(hi, room + 1)  # lo is certified, hi is not (or is past room)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if klucb_certifies(s / (n + mid), cap, lt / (n + mid)):
            lo = mid
        else:
            hi = mid
    return lo


@njit(cache=True, nogil=True)
def klucb_chunk(t, horizon, families, params, reward_draws, counts, sums, checkpoints, ci, counts_out):
    r"""Advance one KL-UCB run; every pull is :func:`klucb_argmax`'s at that round, found without it while a
    certificate holds.

    A window of rounds up to t_end (``t >> KL_WINDOW_SHIFT`` rounds) computes ``caps[a]``, each arm's index at
    t_end with its current counts, by ``KL_CAP_HALVINGS`` halvings (an upper bound of the 50-halving index). While
    a is not pulled, its index at any t <= t_end is at most ``caps[a]``: the bisection's result does not decrease
    with the level log t / N_a (each of its comparisons is with a fixed point). With cap the largest ``caps[a]``
    over the arms a other than the leader, the leader is pulled without a bisection or a scan while
    :func:`klucb_certifies` holds (one KL evaluation, at the last log t computed, which is at most today's), and
    then for the run of rounds :func:`klucb_certified_rounds` certifies on its worst path (no evaluation at all).
    Otherwise :func:`klucb_argmax` decides; if it names another leader, the old leader's cap is computed at its new
    counts. Rewards are in [0, 1] (KL-UCB refuses other arms). The pulls are :func:`klucb_argmax`'s at every round
    (``tests/policies/test_klucb_certificate.py``; ``benchmarks/README.md`` gives the speed-up, 12-22× at
    T = 10^6-10^8)."""
    n = counts.shape[0]
    steps = min(reward_draws.shape[0], horizon - t)
    caps = np.zeros(n)
    leader, cap, t_end, lt_known, lt_end, run_end = -1, 0.0, -1, 0.0, 0.0, -1
    for s in range(steps):
        if t < n:
            arm = t
        elif t <= run_end:  # certified on the leader's worst path when its run began
            arm = leader
        elif t <= t_end and klucb_certifies(sums[leader] / counts[leader], cap, lt_known / counts[leader]):
            arm = leader
            run_end = t + klucb_certified_rounds(sums[leader], counts[leader], cap, lt_known, t_end - t)
        else:
            lt_known = math.log(t)
            arm = klucb_argmax(lt_known, counts, sums)[0]
            if t > t_end:  # a new window: every arm's index at its end
                t_end = window_end(t, KL_WINDOW_SHIFT)
                lt_end = math.log(t_end)
                for a in range(n):
                    caps[a] = klucb_bernoulli_scalar(sums[a] / counts[a], lt_end / counts[a], KL_CAP_HALVINGS)
            elif arm != leader:  # the old leader's counts changed while it led
                caps[leader] = klucb_bernoulli_scalar(
                    sums[leader] / counts[leader], lt_end / counts[leader], KL_CAP_HALVINGS
                )
            leader = arm
            cap = -np.inf
            for a in range(n):
                if a != leader and caps[a] > cap:
                    cap = caps[a]
        r = reward_from_draw(families[arm], params[arm, 0], params[arm, 1], reward_draws[s])
        counts[arm] += 1
        sums[arm] += r
        t += 1
        ci = _record(t, counts, checkpoints, ci, counts_out)
    return t, ci
