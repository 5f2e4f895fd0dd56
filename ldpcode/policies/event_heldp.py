r"""An exact event-driven ("forward skip") simulation of HeLDP-UCB-B on Bernoulli arms with discrete users' levels.

**The policy** (:class:`~ldpcode.policies.heterogeneous.HeterogeneousPolicy`, Agent 4, Line 11): the user of a
pull brings :math:`\epsilon_t`, drawn from a discrete distribution (levels :math:`e_l` with probabilities
:math:`\pi_l`); if :math:`\epsilon_t < \epsilon_{\min}` the response is discarded (t grows, nothing else);
otherwise CTB's response :math:`y \in \{0, 1\}` is unbiased to :math:`g_l(y) = \tfrac12 + (y - \tfrac12)k_l`,
:math:`k_l = \coth(e_l/2) \ge 1`, and :math:`N_a \mathrel{+}= 1`, :math:`s_a \mathrel{+}= g_l(y)`,
:math:`B_a \mathrel{+}= b_l = k_l^2`. With t the pulls so far the kernel pulls the lowest-numbered maximiser of
:math:`u_a(t) = s_a/N_a + G(t) w_a`, :math:`G(t) = \sqrt{\log t}`, :math:`w_a = \sqrt{2B_a}/N_a`
(:math:`\sqrt{B_a\log t^4/(2N_a^2)}`), with :math:`u_a = \infty` while :math:`N_a = 0`. On a Bernoulli(μ) arm a
kept response at level l is 1 with probability :math:`q_{al} = \mu p_1(e_l) + (1 - \mu)p_0(e_l)` (CTB's
``ctb_probability``): the counts of a run are a function of i.i.d. (level, response) pairs of each arm.

**The certificate.** Let a be the kernel's argmax at a state with t >= 2 and every :math:`N_b >= 1` (otherwise,
and when it fails, one ordinary step); :math:`M_0 = \max_{b \ne a} u_b(t)`, :math:`W = \max_{b \ne a} w_b`;
over the kept levels :math:`g_- = \min_l g_l(0) = \tfrac12(1 - \max_l k_l) \le 0` and :math:`b_- = \min_l b_l
\ge 1`. A block of m pulls of a (rounds t + 1 .. t + m) is accepted without drawing them when, with
n = N_a + m - 1 and j = m - 1,

.. math:: F(n) = \frac{s_a + j g_-}{n} + G(t)\frac{\sqrt{2(B_a + j b_-)}}{n} - M_0 - j\frac{W}{2tG(t)} > \tau
          = 10^{-10}.

*Proof.* Before the (k+1)-th pull of the block (k = 0..m-1, round t + k + 1) any path of the block has
discarded k - j' of the first k users and kept j' <= k, with sum X and B-increment Y, so
:math:`X >= j'g_-` and :math:`Y >= j'b_-` whatever their levels and responses. (i) The leader's index
:math:`(s_a + X)/(N_a + j') + G(t + k)\sqrt{2(B_a + Y)}/(N_a + j')` increases in X, in Y and in G, so it is at
least :math:`L(N_a + j')`, :math:`L(x) = (s_a + (x - N_a)g_-)/x + G(t)\sqrt{2(B_a + (x - N_a)b_-)}/x`.
L does not increase on :math:`x \ge N_a`: the mean term's derivative is :math:`(N_a g_- - s_a)/x^2 \le 0` as
:math:`s_a`, a sum of :math:`N_a` values each :math:`\ge g_-`, is :math:`\ge N_a g_-`; the width term's
derivative has the sign of :math:`b_-N_a - 2B_a - (x - N_a)b_- < 0` as :math:`B_a \ge N_a b_-` (so no minimum
over j' in the interior is needed). Hence, as :math:`j' \le k \le m - 1`, the leader's index is at least
L(n), the first two terms of F. (ii) The others do not change; :math:`G = \sqrt{\log x}` is concave for
x > 1, so :math:`G(t + k) \le G(t) + k/(2tG(t))` and :math:`u_b(t + k) \le M_0 + (m - 1)W/(2tG(t))`, the last
two terms of F. So at each of the m rounds the leader beats every other index by more than τ, whatever
the levels and responses; τ is far above the rounding of the indices (< 1e-12 here; the invariants
:math:`s_a \ge N_a g_-`, :math:`B_a \ge N_a b_-` hold for the stored sums up to a rounding that τ also
covers), so the kernel's argmax, tie rule included, is a at each of them. F is convex in n (the width term
:math:`\sqrt{c_0 + c_1 n}/n`, :math:`c_0 = 2(B_a - N_a b_-) \ge 0`, has :math:`f'' \propto 2c_0^2 + 3c_0c_1n
+ \tfrac34c_1^2n^2 > 0`) and decreasing, so the accepted m are an interval and the root of F's tangent at
n = N_a gives the block (:func:`certified_length`, as :func:`ldpcode.policies.event.certified_length`).

**The law.** A block's users fall into the cells (discarded; kept at level l) by one multinomial draw, and the
kept ones at level l answer 1 with probability :math:`q_{al}` (:func:`_block`): for m <= :data:`JOINT_MAX`, one
uniform a user for its cell and response together; for m <= :data:`LANE_MAX`, by lanes of 52 users, each
user's uniform compared bit by bit with the cells' boundaries, then with its level's :math:`q_{al}`
(:func:`_below`, ``bernoulli_sum``'s method on several thresholds at once); above, as sequential binomials
(numba 0.68 has no ``Generator.multinomial``) and per level ``bernoulli_sum`` or ``Generator.binomial``. The
arm pulled in a block does not depend on its draws, so given the state the block's (ΔN, Δs, ΔB) has the law of
m per-pull steps; m is a function of the state, so by induction over blocks the counts at every checkpoint
have the per-pull engine's law (up to the rounding of the float sums, added in another order, and of the
probabilities, to about 2^-53 a draw), from another random stream (one generator,
:func:`ldpcode.rng.run_streams`' first stream of the run).

**Cost.** The certificate is nearly tight (the tangent root is within 10^-4 of F's root; its worst path, every
user at the lowest kept level answering 0, is possible but for :math:`b_-` in the width term), so blocks are about
(margin) :math:`N_a/(\bar x - g_-)` pulls: on ``ren2020-bernoulli`` 21 pulls on average at T = 10^7 and 71 at 10^8 with
ε_min = 1 (:math:`g_- = -0.58`), 16 and 41 with ε_min = 0.2 (:math:`g_- = -4.52`). A step costs 250-400 ns
(``benchmarks/bench_event_heldp.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from .. import mechanisms as mech
from ..engine import resolve_checkpoints
from ..instances import Family, Instance, PrivacyLevels
from ..rng import run_streams
from .event import LANES, STEPS_PER_CALL, TOL, bernoulli_sum, worst_case_cost
from .heterogeneous import HeterogeneousPolicy

JOINT_MAX = 40  # blocks of at most this many pulls: one uniform a user, for its cell and response together
LANE_MAX = 2 * LANES  # then by lanes of 52 users, and above as sequential binomials (:func:`_block`)

# Test-only breaks and audits (tests/policies/test_event_heldp.py), never set by the public functions.
NO_BREAK = np.array([1.0, 0.0, 0.0])  # (factor, extra pulls, flags): the exact certificate
BREAK_MEAN_G0 = 1  # flag: the mean bound with g = 0 instead of g_-
AUDIT = 2  # flag: play a block's pulls one by one on per-pull draws, counting the rounds the leader is not the argmax


@dataclass(frozen=True, repr=False)
class HeLDPEventPolicy(HeterogeneousPolicy):
    """HeLDP-UCB-B whose runs are :func:`run_one_heldp_event`'s (:func:`heldp_event_driven`); its name, repr
    and result are the policy's. It refuses, before any work, users' levels the engine cannot run."""

    def check_environment(self, instance, privacy_levels) -> None:
        super().check_environment(instance, privacy_levels)
        _check(self, instance, privacy_levels)

    def cost(self, instance, horizon: int, runs: int, n_checkpoints: int, workers: int):
        return worst_case_cost(super().cost(instance, horizon, runs, n_checkpoints, workers))

    def run_one(self, instance, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        return run_one_heldp_event(
            self, instance, horizon, seed_seq, checkpoints, privacy_levels=privacy_levels, cancel=cancel
        )


def heldp_event_applies(policy, instance, privacy_levels) -> bool:
    """Whether :func:`run_one_heldp_event` can simulate ``policy`` on ``instance``: HeLDP-UCB-B (from
    ``make_policy``: CTB, no Sigmoid, no forced pulls) on Bernoulli arms only, with discrete users' levels
    (``make_privacy_levels("ren-heldp-discrete")``, ``"discrete"`` or ``"constant"``) some of which are kept."""
    if not isinstance(policy, HeterogeneousPolicy) or not isinstance(instance, Instance):
        return False
    if policy.name != "HeLDP-UCB-B" or policy.curator is not mech.CTB or policy.use_sigmoid:
        return False
    if policy.forced_exploration or not isinstance(privacy_levels, PrivacyLevels) or privacy_levels.values is None:
        return False
    kept = bool((privacy_levels.values >= policy.epsilon_min).any())
    return kept and all(arm.family == Family.BERNOULLI for arm in instance.arms)


def _check(policy, instance, privacy_levels) -> None:
    if not heldp_event_applies(policy, instance, privacy_levels):
        raise ValueError(
            "the event-driven HeLDP engine runs only HeLDP-UCB-B (from make_policy) on Bernoulli arms with discrete "
            f"users' levels some of them >= epsilon_min, got {policy!r} on {getattr(instance, 'name', instance)!r} "
            f"with {privacy_levels!r}; use the per-pull engine"
        )


def heldp_event_driven(policy, instance, privacy_levels) -> HeLDPEventPolicy:
    """``policy`` on the event-driven engine, once :func:`heldp_event_applies` (a one-line ValueError
    otherwise); pass it to ``ldp.simulate`` with the same ``privacy_levels``."""
    _check(policy, instance, privacy_levels)
    return HeLDPEventPolicy(policy.name, policy.curator, False, False, policy.epsilon_min)


def level_tables(policy, instance, privacy_levels):
    """The run's constants (q, joint, gv, bv, cum, cond): ``q`` (K, L) P{response 1} of arm a at kept level l;
    ``gv`` (L, 2) the unbiased values g_l(0), g_l(1) and ``bv`` (L,) the increments k_l^2 (the kernel's own
    functions, so the same floats); over the cells (0: discarded, 1 + l: kept level l) the cumulative ``cum``
    and conditional ``cond`` = π_c / Σ_{c' >= c} π_c' probabilities; ``joint`` (K, 2L + 1) the cumulative
    probabilities of a user's outcome (discarded; level l answering 0; answering 1)."""
    vals, probs = privacy_levels.values, privacy_levels.probs / privacy_levels.probs.sum()
    keep = vals >= policy.epsilon_min
    levels = vals[keep]
    cell = np.r_[probs[~keep].sum(), probs[keep]]
    mu = instance.means
    q = np.empty((mu.size, levels.size))
    gv, bv = np.empty((levels.size, 2)), np.empty(levels.size)
    for i, e in enumerate(levels):
        k = mech.bernoulli_scale(e)
        gv[i] = mech.unbias_scaled(0.0, k), mech.unbias_scaled(1.0, k)
        bv[i] = k * k
        x = mech.exp_or_inf(e)
        q[:, i] = mu * mech.ctb_probability(1.0, x) + (1.0 - mu) * mech.ctb_probability(0.0, x)
    cum = np.cumsum(cell)
    cum[-1] = np.inf  # the last cell catches every uniform
    tail = np.cumsum(cell[::-1])[::-1]
    cond = np.where(tail > 0, np.minimum(1.0, cell / np.where(tail > 0, tail, 1.0)), 0.0)
    cond[-1] = 1.0
    pj = np.empty((mu.size, 1 + 2 * levels.size))
    pj[:, 0] = cell[0]
    pj[:, 1::2], pj[:, 2::2] = cell[1:] * (1.0 - q), cell[1:] * q
    joint = np.cumsum(pj, axis=1)
    joint[:, -1] = np.inf
    return q, joint, gv, bv, cum, cond


def run_one_heldp_event(policy, instance, horizon: int, seed_seq, checkpoints, *, privacy_levels, cancel=None):
    """One run of HeLDP-UCB-B on Bernoulli arms with discrete levels by the exact event-driven engine (module
    docstring). Returns ``(counts, None)`` like :meth:`HeterogeneousPolicy.run_one`: the pull counts (not the
    kept responses) at ``checkpoints``, shape (C, K), int64, with the per-pull engine's law. ``cancel`` is
    checked every :data:`~ldpcode.policies.event.STEPS_PER_CALL` kernel steps."""
    return _run(policy, instance, horizon, seed_seq, checkpoints, privacy_levels, cancel)[0], None


def _run(policy, instance, horizon, seed_seq, checkpoints, privacy_levels, cancel=None, brk=NO_BREAK):
    """:func:`run_one_heldp_event` with its statistics: (counts, int64 [kernel steps, blocks, pulls in blocks,
    audited rounds the leader lost]). ``brk`` (tests only): (factor, extra pulls, flags)."""
    _check(policy, instance, privacy_levels)
    checkpoints = resolve_checkpoints(horizon, checkpoints)
    horizon = int(checkpoints[-1])
    rng = run_streams(seed_seq, 1)[0]
    tab = level_tables(policy, instance, privacy_levels)
    n = instance.n_arms
    counts = np.zeros(n, dtype=np.int64)
    state = (np.zeros(n, dtype=np.int64), *(np.zeros(n) for _ in range(4)))  # N_a, s_a, B_a, means, widths
    counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
    stats = np.zeros(4, dtype=np.int64)
    brk = np.asarray(brk, dtype=np.float64)
    t = ci = 0
    while t < horizon:
        if cancel is not None:
            cancel.check()
        t, ci = heldp_event_chunk(
            t, horizon, counts, state, tab, scratch(tab), checkpoints, ci, counts_out, rng, STEPS_PER_CALL, stats, brk
        )
    return counts_out, stats


@njit(cache=True, nogil=True)
def _margin(n, na, sa, ba, gm, bm, gt, m0, slope):
    """F(n) - τ of the module docstring (n = N_a + m - 1)."""
    j = n - na
    return (sa + j * gm) / n + gt * math.sqrt(2.0 * (ba + j * bm)) / n - m0 - j * slope - TOL


@njit(cache=True, nogil=True)
def certified_length(na, sa, ba, gm, bm, gt, m0, slope, room):
    """The length m in [1, room] of a certified block, F(N_a + m - 1) > τ (1: take an ordinary step): the root of
    F's tangent at n = N_a (at most F's root, F being convex), checked by one evaluation of F, and on the rare
    failure a bisection stopped within 1/16 of its lower end."""
    d = _margin(na, na, sa, ba, gm, bm, gt, m0, slope)
    if room < 2 or d <= 0.0:
        return 1
    rate = (sa / na - gm) / na + gt * (2.0 * ba - na * bm) / (math.sqrt(2.0 * ba) * na * na) + slope  # -F'(N_a)
    x = d / rate if rate > 0.0 else np.inf  # m - 1 <= x certified (reals)
    hi = room if x >= room - 1.0 else int(x) + 1
    if hi < 2:
        return 1
    if _margin(na + hi - 1.0, na, sa, ba, gm, bm, gt, m0, slope) > 0.0:
        return hi
    lo = 1
    while hi - lo > 1 and 16 * (hi - lo) > lo:
        mid = (lo + hi) // 2
        if _margin(na + mid - 1.0, na, sa, ba, gm, bm, gt, m0, slope) > 0.0:
            lo = mid
        else:
            hi = mid
    return lo


@njit(cache=True, nogil=True)
def _below(rng, jobs, lanes, thr, below, und, r):
    """For each of the first ``jobs`` tracks i, ``below[i]``: the lanes of the bit mask ``lanes[i]`` whose
    uniform U < ``thr[i]``. Lane k's U is bit k of successive 52-bit words (as ``bernoulli_sum``), compared
    with each threshold's binary expansion from the top until every lane differs from it; the tracks share the
    words (the same users against the cells' boundaries, or disjoint lanes against their levels' q)."""
    active = 0
    for i in range(jobs):
        below[i] = 0
        r[i] = thr[i]
        und[i] = lanes[i] if thr[i] > 0.0 else 0
        active |= und[i]
    while active:  # branch-free: the lanes' bits are random, so any branch on them would be mispredicted
        w = int(rng.random() * 4503599627370496.0)  # 2^52 uniform bits, bit k for lane k
        active = 0
        for i in range(jobs):
            u = und[i]
            x = r[i] * 2.0
            one = -int(x >= 1.0)  # the threshold's next bit, as a mask of 0s or 1s
            x += one  # minus 1 when that bit is 1
            below[i] |= u & ~w & one  # lane bit 0 < threshold bit 1: U < thr
            u &= ~(w ^ one)  # still equal to the threshold's expansion
            u &= -int(x != 0.0)  # the expansion has ended: the undecided lanes have U >= thr
            r[i] = x
            und[i] = u
            active |= u


@njit(cache=True, nogil=True)
def _popcount(x):
    total = 0  # the bits set in x
    while x:
        x &= x - 1
        total += 1
    return total


@njit(cache=True, nogil=True, inline="always")
def _block(rng, m, arm, tab, scr, state):
    """m pulls of ``arm`` at once (m = 1: an ordinary pull): the users' cells (one multinomial draw), then per
    kept level the 1-responses (binomial), added to ``state`` = (N, s, B, means, widths). ``tab`` is
    :func:`level_tables`, ``scr`` scratch arrays (:func:`heldp_event_chunk`). Module docstring, "The law"."""
    q, joint, gv, bv, cum, cond = tab
    cells, ones, lanes, und, below, thr, r = scr
    kept, sums, acc, means, widths = state
    nc = cells.shape[0]
    for c in range(nc):
        cells[c] = 0
        ones[max(c - 1, 0)] = 0
    if m <= JOINT_MAX:  # one uniform a user, for its outcome among 2 L + 1 (discarded; level l and response y)
        for o in range(2 * nc - 1):
            lanes[o] = 0
        for _ in range(m):
            u = rng.random()
            o = 0
            for i in range(2 * nc - 2):
                o += u >= joint[arm, i]  # branch-free: the outcome is random
            lanes[o] += 1
        cells[0] = lanes[0]
        for lv in range(nc - 1):
            cells[lv + 1] = lanes[1 + 2 * lv] + lanes[2 + 2 * lv]
            ones[lv] = lanes[2 + 2 * lv]
    elif m <= LANE_MAX:  # lanes of at most 52 users: their cells, then their responses
        left = m
        while left > 0:
            size = min(left, LANES)
            left -= size
            full = (1 << size) - 1
            for i in range(nc - 1):
                lanes[i] = full
                thr[i] = cum[i]
            _below(rng, nc - 1, lanes, thr, below, und, r)
            prev = 0
            for c in range(nc):
                mask = (below[c] if c < nc - 1 else full) & ~prev  # cell c: cum[c - 1] <= U < cum[c]
                prev |= mask
                cells[c] += _popcount(mask)
                if c > 0:
                    lanes[c - 1] = mask
                    thr[c - 1] = q[arm, c - 1]
            _below(rng, nc - 1, lanes, thr, below, und, r)
            for lv in range(nc - 1):
                ones[lv] += _popcount(below[lv])
    else:  # sequential binomials
        left = m
        for c in range(nc):
            cells[c] = left if cond[c] >= 1.0 else (rng.binomial(left, cond[c]) if left > 0 else 0)
            left -= cells[c]
        for lv in range(nc - 1):
            nl = cells[lv + 1]
            if nl > 0:
                ones[lv] = bernoulli_sum(rng, nl, q[arm, lv]) if nl <= LANES else rng.binomial(nl, q[arm, lv])
    for lv in range(nc - 1):
        nl = cells[lv + 1]
        if nl > 0:
            kept[arm] += nl
            sums[arm] += ones[lv] * gv[lv, 1] + (nl - ones[lv]) * gv[lv, 0]
            acc[arm] += nl * bv[lv]
    if kept[arm] > 0:
        means[arm] = sums[arm] / kept[arm]
        widths[arm] = math.sqrt(2.0 * acc[arm]) / kept[arm]


def scratch(tab):
    """The scratch arrays of :func:`_block`: cells, ones, lanes (also the outcome counts), undecided, below (int64);
    thresholds, expansions (float)."""
    nc, z = tab[4].shape[0], np.zeros
    return z(nc, np.int64), z(nc - 1, np.int64), z(2 * nc - 1, np.int64), z(nc, np.int64), z(nc, np.int64), z(nc), z(nc)


@njit(cache=True, nogil=True)
def heldp_event_chunk(t, horizon, counts, state, tab, scr, checkpoints, ci, counts_out, rng, steps, stats, brk):
    """Advance one run by at most ``steps`` kernel steps (a certified block or one ordinary pull); returns
    (t, ci). ``state`` = (N, s, B, means, widths) as ``heterogeneous_chunk``'s (``kept``, ``sums``, ``acc``,
    ...), so the argmax has the same arithmetic and tie rule; ``counts`` the pulls; ``stats`` counts the steps,
    the blocks, the pulls in blocks and (audit) the block rounds the leader would have lost."""
    kept, sums, acc, means, widths = state
    n = counts.shape[0]
    factor, extra, flags = brk[0], int(brk[1]), int(brk[2])
    gm = 0.0 if flags & BREAK_MEAN_G0 else min(0.0, tab[2][:, 0].min())
    bm = tab[3].min()
    for _ in range(steps):
        if t >= horizon:
            break
        end = checkpoints[ci] if ci < checkpoints.shape[0] else horizon  # a block never passes a checkpoint
        room = min(end, horizon) - t
        g = math.sqrt(math.log(t)) if t > 1 else 0.0
        arm = -1
        # the scan of event.event_chunk, with +inf for an arm with no kept response (not shared: measured slower)
        best = m0 = -np.inf  # the kernel's argmax (ties to the lowest arm) and the runner-up index
        w1 = w2 = 0.0  # the two largest widths, w1 that of arm i1
        i1 = -1
        for a in range(n):
            u = np.inf if kept[a] == 0 else means[a] + g * widths[a]
            if u > best:
                m0 = best
                best = u
                arm = a
            elif u > m0:
                m0 = u
            if widths[a] > w1:
                w2 = w1
                w1 = widths[a]
                i1 = a
            elif widths[a] > w2:
                w2 = widths[a]
        m = 1
        if n == 1:
            m = room
        elif room >= 2 and best < np.inf:  # every N_b >= 1, so t >= n >= 2
            slope = (w2 if i1 == arm else w1) / (2.0 * t * g)
            m = certified_length(float(kept[arm]), sums[arm], acc[arm], gm, bm, g, m0, slope, room)
            if m >= 2:
                m = min(room, int(m * factor) + extra)
        if m >= 2:
            stats[1] += 1
            stats[2] += m
        if m >= 2 and flags & AUDIT:
            for k in range(m):  # is the leader the per-pull kernel's argmax at round t + k + 1?
                gk = math.sqrt(math.log(t + k))
                ua = means[arm] + gk * widths[arm]
                for b in range(n):
                    ub = means[b] + gk * widths[b]
                    if b != arm and (ub > ua or (ub == ua and b < arm)):
                        stats[3] += 1
                        break
                _block(rng, 1, arm, tab, scr, state)  # the round's own draws
        else:
            _block(rng, m, arm, tab, scr, state)
        counts[arm] += m
        t += m
        stats[0] += 1
        while ci < checkpoints.shape[0] and checkpoints[ci] == t:
            counts_out[ci, :] = counts
            ci += 1
    return t, ci
