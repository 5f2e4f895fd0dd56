r"""An exact event-driven ("forward skip") simulation of KL-UCB on Bernoulli arms: the engine of
:mod:`ldpcode.policies.event` for the index of :class:`~ldpcode.global_policies.per_step.KLUCB`.

**The index.** At round t + 1, t >= K the pulls so far, ``klucb_chunk`` pulls the argmax (:func:`~ldpcode.global_policies.per_step.klucb_argmax`)
of :math:`u(p_b, \log t/N_b)`, :math:`p_b = S_b/N_b`, :math:`u(p, \ell) = \max\{q \in [p, 1] : d(p, q) \le \ell\}`,
d the Bernoulli KL, computed by bisection (``klucb_bernoulli_scalar``, whose upper end is returned).

**Monotonicity.** (M1) u(p, ℓ) is nondecreasing in ℓ: its feasible set grows. (M2) u is nondecreasing in p:
for p <= p' <= q, :math:`\partial_p d(p, q) = \log\frac{p(1-q)}{q(1-p)} \le 0`, so d(p', q) <= d(p, q) and
q = u(p, ℓ) is feasible for p' if q >= p' (else u(p', ℓ) >= p' > q). So the index u((S + X)/n, log(s)/n) is
nondecreasing in the responses X and the time s and, at fixed S and s, nonincreasing in the count n (both
arguments decrease). (M3) For p < x < 1, u(p, ℓ) < x iff d(p, x) > ℓ (d(p, ·) increases strictly on [p, 1));
u(p, ℓ) >= y iff p >= y or d(p, y) <= ℓ.

**The certificate** (:func:`certifies`). At a state (t, N, S), a block of m pulls of a (rounds t + 1 .. t + m)
is accepted with a threshold x when, with n = N_a + m - 1 and τ = :data:`TOL`, (L) S_a/n >= x + τ or
d(S_a/n, x + τ) <= log(t)/n, and (C) p_b < x and d(p_b, x) > log(t + m - 1)/N_b for every b ≠ a. Before the
(k+1)-th pull of the block, k = 0..m-1, a's state is (N_a + k, S_a + X_k), X_k >= 0, at time t + k: by (M2),
(M1) and the count, its index is at least u(S_a/n, log(t)/n), >= x + τ by (L) and (M3): the worst case is all
zeros, the block's LAST count N_a + m - 1 (N_a + m decides no round of the block) and its FIRST time t. A
challenger's state does not move and its index grows in time (M1): at most its value at t + m - 1, < x by (C).
So the true indices are more than τ apart at every round, whatever the responses. This is the brief's
certificate with L = u(S_a/n, log(t)/n) replaced by x + τ <= L ((C) at x implies (C) at L - τ >= x); the search
puts x within 1e-13 of the smallest x meeting (C), so it finds the same m (tested against
:func:`certifies_bisection`, the literal form with the bisection's L).

**Why the kernel's argmax is a at those rounds** (a rounding argument, not a machine proof; the ``AUDIT_*``
flags replay every round of every block with the kernel's own argmax). Its bisection keeps computed
d(p, hi) > ℓ >= computed d(p, lo), hi - lo <= 2^-50, so its root is within ρ + 2^-50 of the true root r:
ρ = δ/∂_q d(p, r), δ ~ 1e-15 the error of d, and ∂_q d(p, r) = (r - p)/(r(1 - r)) >= 2√ℓ (as
d(p, q) <= (q - p)²/(q(1 - q))), so ρ < 4e-12 while ℓ >= 2e-8 (t <= 10^9). So a's computed root exceeds
x + τ - 2ρ, a challenger's is below x + 2ρ + 2^-50 (a ρ each for the computed (L) and (C)), and τ = 1e-9 >>
ρ' = 4ρ + 2^-50. The scan keeps the largest computed root of the arms it considers, replacing it only when
strictly larger: arms before a leave ``best`` below r_a - τ + ρ'; a is considered (``best < 0``, or
``p_a > best``, or, d(p_a, ·) being convex from 0 at p_a, d(p_a, best) <= ℓ_a (1 - (τ - ρ')/(r_a - p_a)), below
ℓ_a by >= 2(r_a - p_a)(τ - ρ') by Pinsker, ~1e-13 for r_a - p_a >= 1e-4, far above δ), so a becomes ``best`` and
no later arm is strictly above it.

**The search** (:func:`block_length`, :func:`search`). The root of any tangent of the convex
f(x) = d(p_b, x) - ℓ is >= f's, so a tangent of d(p_b, ·) at x_b bounds b's index at time t' by
:math:`c_b + w_b \log t'`. One pass at x_0 = u_a - τ (one KL a challenger; a failure fails the brief's check at
m = 1: an ordinary step), then Newton steps from above on the top bound until its arm converges (2-4 KL):
X(m) = max_b c_b + w_b log(t + m - 1) + :data:`SLACK` bounds every challenger's index over a block of m. The
leader's reach, the largest m with (L) at y, solves h(n) = n d(S_a/n, y) = log t, h convex and increasing
(h' = log((1 - S_a/n)/(1 - y)), h'' = S_a/(n(n - S_a))), by Newton from the root of h's tangent at N_a, an
upper bound (:func:`leader_reach`). m0 = reach(X(1) + τ) >= m* and m1 = reach(X(m0) + τ) <= m* (X increases in m,
reach decreases in y); a bisection on [m1, m0] (a log and a KL a try) gives m*, capped at the horizon and the
next checkpoint; :func:`certifies` checks it (K + 1 KL; a failure, by rounding, is counted). The tangents stay
valid while only the leader is pulled, so the next step first tries :func:`search` for the same leader, with
no argmax and no bisection (~20 + K KL evaluations, 0.5-1 µs); if it certifies no block: the argmax, then
:func:`block_length` or an ordinary step.

**The law.** As :mod:`ldpcode.policies.event`: the leader and m are functions of the history before the
block (the state and the kept tangents), the arm pulled at each round of the block is a whatever the
responses, and the block's sum is one Binomial(m, μ_a) draw (``bernoulli_sum`` for m <= ``LANES``, else
``Generator.binomial``); otherwise one ordinary step, the kernel's argmax and one Bernoulli(μ_a) response. So
the counts at every checkpoint have the per-pull engine's law (from another random stream).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..divergences import _kl_ber, klucb_bernoulli_scalar
from ..engine import resolve_checkpoints
from ..instances import Family, Instance
from ..policies.event import LANES, bernoulli_sum, worst_case_cost
from ..rng import run_streams
from .per_step import KLUCB, klucb_argmax

TOL = 1e-9  # τ, the margin between the leader's index and every challenger's over a block
SLACK = 1e-13  # added to the tangents' bound of the challengers' indices, so that (C) holds in floating point
STEPS_PER_CALL = 1 << 12  # kernel steps (about 1-4 µs each) per call: ``cancel`` is checked between calls

NO_BREAK = (0, 0)  # brk = (extra pulls a block, flags): test-only breaks and audits, through _run only
BREAK_CHALLENGERS_AT_T = 1  # the challengers at log t instead of log(t + m - 1)
AUDIT_PATH = 2  # draw a block's responses one by one; count the rounds where the kernel's argmax is not a
AUDIT_ZEROS = 4  # count those rounds on the block's all-zero path, then draw the block


@dataclass(frozen=True, repr=False)
class EventDrivenKLUCB(KLUCB):
    """:class:`KLUCB` whose runs are :func:`run_one_klucb_event`'s (:func:`klucb_event_driven`); its repr,
    name and result are KL-UCB's."""

    def cost(self, instance, horizon: int, runs: int, n_checkpoints: int, workers: int):
        return worst_case_cost(super().cost(instance, horizon, runs, n_checkpoints, workers))

    def run_one(self, instance, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        return run_one_klucb_event(self, instance, horizon, seed_seq, checkpoints, cancel=cancel)


def klucb_event_applies(policy, instance) -> bool:
    """Whether the engine simulates ``policy`` on ``instance``: KL-UCB (``make_policy("KL-UCB")``) on an
    :class:`~ldpcode.Instance` whose arms are all Bernoulli."""
    if type(policy) not in (KLUCB, EventDrivenKLUCB) or policy.name != "KL-UCB" or not isinstance(instance, Instance):
        return False
    return all(arm.family == Family.BERNOULLI for arm in instance.arms)


def _refuse(policy, instance) -> None:
    if not klucb_event_applies(policy, instance):
        raise ValueError(
            f"the event-driven KL-UCB engine runs only KL-UCB (from make_policy) on instances whose arms are all "
            f"Bernoulli, got {policy!r} on {getattr(instance, 'name', instance)!r}"
        )


def klucb_event_driven(policy, instance) -> EventDrivenKLUCB:
    """KL-UCB on the event-driven engine, for ``ldp.simulate`` (a one-line ValueError if it does not apply)."""
    _refuse(policy, instance)
    return EventDrivenKLUCB()


def run_one_klucb_event(policy, instance, horizon: int, seed_seq, checkpoints, *, cancel=None):
    """One run of KL-UCB on Bernoulli arms by the event-driven engine: ``(counts, 0)`` like ``KLUCB.run_one``,
    counts (C, K) int64 at ``checkpoints`` with the per-pull law; ``cancel`` checked every 4096 steps."""
    return _run(policy, instance, horizon, seed_seq, checkpoints, cancel)[0], 0


def _run(policy, instance, horizon, seed_seq, checkpoints, cancel=None, brk=NO_BREAK):
    """:func:`run_one_klucb_event` and int64 [steps, blocks, pulls in blocks, audited rounds lost by the leader,
    refused certificates, blocks from kept tangents]. ``brk`` (tests only): (extra pulls, flags)."""
    _refuse(policy, instance)
    checkpoints = resolve_checkpoints(horizon, checkpoints)
    horizon = int(checkpoints[-1])
    rng = run_streams(seed_seq, 1)[0]
    n = instance.n_arms
    counts, sums = np.zeros(n, dtype=np.int64), np.zeros(n)
    work = np.zeros((3, n))  # the challengers' tangents: c_b, w_b, converged
    counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
    stats = np.zeros(6, dtype=np.int64)
    t = ci = 0
    lead = -1
    while t < horizon:
        if cancel is not None:
            cancel.check()
        t, ci, lead = klucb_event_chunk(
            t, horizon, instance.means, counts, sums, work, lead, checkpoints, ci, counts_out, rng, STEPS_PER_CALL,
            stats, int(brk[0]), int(brk[1]),
        )  # fmt: skip
    return counts_out, stats


@njit(cache=True, nogil=True)
def leader_holds(na, sa, m, y, lt):
    """(L): the leader's index with m - 1 more zero responses (count n = N_a + m - 1) at log t is >= y."""
    if y >= 1.0:
        return False
    n = na + m - 1.0
    p = sa / n
    return p >= y or _kl_ber(p, y) <= lt / n


@njit(cache=True, nogil=True)
def leader_reach(na, sa, y, lt, room):
    """The largest m in [1, room] with (L) at y (0 if none): Newton on h(n) = n d(S_a/n, y) - log t, then (L)."""
    if not leader_holds(na, sa, 1, y, lt):
        return 0
    if leader_holds(na, sa, room, y, lt):
        return room
    x, p = na + room - 1.0, sa / na  # h(x) > 0
    slope = math.log((1.0 - p) / (1.0 - y)) if p < y else 0.0
    if slope > 0.0:  # the root of h's tangent at N_a is above h's root (h convex)
        x = min(x, na - (na * _kl_ber(p, y) - lt) / slope)
    for _ in range(60):  # Newton from above: the iterates decrease to the root
        p = sa / x
        slope = math.log((1.0 - p) / (1.0 - y))
        if slope <= 0.0:
            break
        step = (x * _kl_ber(p, y) - lt) / slope
        x = max(x - step, float(na))
        if step < 0.25 or x <= na:
            break
    m = min(max(int(x - na) + 1, 1), room)
    while m > 1 and not leader_holds(na, sa, m, y, lt):
        m -= 1
    while m < room and leader_holds(na, sa, m + 1, y, lt):
        m += 1
    return m


@njit(cache=True, nogil=True)
def _bound(lt, a, work):
    """X: the tangents' upper bound of the challengers' indices at log t' = ``lt``, plus :data:`SLACK`."""
    x = -np.inf
    for b in range(work.shape[1]):
        if b != a:
            x = max(x, work[0, b] + work[1, b] * lt)
    return x + SLACK


@njit(cache=True, nogil=True)
def certifies(t, m, a, x, counts, sums, at_t):
    """The certificate of a block of m pulls of a at threshold x: (L) at x + τ and (C) at log(t + m - 1)
    (``at_t``, a test-only break: at log t)."""
    if not leader_holds(counts[a], sums[a], m, x + TOL, math.log(t)):
        return False
    lt_m = math.log(t) if at_t else math.log(t + m - 1)
    for b in range(counts.shape[0]):
        p = sums[b] / counts[b]
        if b != a and not (p < x and _kl_ber(p, x) > lt_m / counts[b]):
            return False
    return True


@njit(cache=True, nogil=True)
def certifies_bisection(t, m, a, counts, sums):
    """The brief's certificate, literally: L = u(S_a/n, log t/n) by the kernel's bisection, n = N_a + m - 1, and
    p_b <= L - τ, N_b d(p_b, L - τ) > log(t + m - 1) for every b ≠ a (for tests of :func:`block_length`)."""
    n = counts[a] + m - 1.0
    low = klucb_bernoulli_scalar(sums[a] / n, math.log(t) / n) - TOL
    for b in range(counts.shape[0]):
        p = sums[b] / counts[b]
        if b != a and not (p <= low and counts[b] * _kl_ber(p, low) > math.log(t + m - 1)):
            return False
    return True


@njit(cache=True, nogil=True)
def block_length(t, a, ua, counts, sums, work, room, at_t):
    """:func:`search` from tangents at x0 = ua - τ (``ua`` a's computed index) written to ``work`` (c_b, w_b,
    converged); 0 if (C) fails at m = 1 (``work`` is then no valid bound)."""
    lt, x0 = math.log(t), ua - TOL
    for b in range(counts.shape[0]):  # tangents at x0; (C) at m = 1, L = ua (the brief's check at m = 1)
        if b != a:
            p = sums[b] / counts[b]
            if p >= x0:
                return 0
            d = _kl_ber(p, x0)
            if d <= lt / counts[b]:
                return 0
            g = (x0 - p) / (x0 * (1.0 - x0))
            work[0, b], work[1, b] = x0 - d / g, 1.0 / (counts[b] * g)
    return search(t, a, counts, sums, work, room, at_t) if room >= 2 else 1


@njit(cache=True, nogil=True)
def search(t, a, counts, sums, work, room, at_t):
    """The largest m <= room certified with X(m) (1 if m < 2; -1 if :func:`certifies` refuses it), from the
    tangents in ``work``, valid upper bounds as long as the challengers have not been pulled since."""
    n, lt = counts.shape[0], math.log(t)
    work[2, :] = 0.0
    for _ in range(8 * n):  # Newton from above on the top bound until its arm has converged
        top, b = -np.inf, -1
        for i in range(n):
            if i != a and work[0, i] + work[1, i] * lt > top:
                top, b = work[0, i] + work[1, i] * lt, i
        if work[2, b] != 0.0:
            break
        p = sums[b] / counts[b]
        work[2, b] = 1.0
        if p < top < 1.0:
            g = (top - p) / (top * (1.0 - top))
            c = top - _kl_ber(p, top) / g
            work[0, b], work[1, b] = c, 1.0 / (counts[b] * g)
            work[2, b] = 1.0 if top - (c + work[1, b] * lt) < 1e-15 else 0.0
    na, sa = float(counts[a]), sums[a]
    m0 = leader_reach(na, sa, _bound(lt, a, work) + TOL, lt, room)
    if m0 < 2:
        return 1
    lo = max(1, leader_reach(na, sa, _bound(lt if at_t else math.log(t + m0 - 1), a, work) + TOL, lt, m0))
    hi = m0 + 1
    while hi - lo > 1:  # the largest m in [lo, m0] with (L) at X(m) + τ
        mid = (lo + hi) // 2
        if leader_holds(na, sa, mid, _bound(lt if at_t else math.log(t + mid - 1), a, work) + TOL, lt):
            lo = mid
        else:
            hi = mid
    x = _bound(lt if at_t else math.log(t + lo - 1), a, work)
    return 1 if lo < 2 else (lo if certifies(t, lo, a, x, counts, sums, at_t) else -1)


@njit(cache=True, nogil=True)
def klucb_event_chunk(
    t, horizon, mu, counts, sums, work, lead, checkpoints, ci, counts_out, rng, steps, stats, extra, flags
):
    """Advance one run by at most ``steps`` steps (a block or an ordinary pull each); returns (t, ci, lead),
    ``lead`` the arm whose challengers' tangents ``work`` holds (-1: none). ``stats``: steps, blocks, pulls in
    blocks, audited rounds lost by the leader, refused certificates, blocks from the kept tangents."""
    n = counts.shape[0]
    at_t = (flags & BREAK_CHALLENGERS_AT_T) != 0
    for _ in range(steps):
        if t >= horizon:
            break
        end = checkpoints[ci] if ci < checkpoints.shape[0] else horizon  # a block never passes a checkpoint
        room = min(end, horizon) - t
        m = 1
        if t < n:
            arm = t  # the first K pulls: each arm once
        elif n == 1:
            arm, m = 0, room
        else:
            arm = lead
            if lead >= 0 and room >= 2:  # the last leader, its challengers unchanged: no argmax needed
                m = search(t, lead, counts, sums, work, room, at_t)
                stats[4] += m < 0
                stats[5] += m >= 2
            if m < 2:
                arm, ua = klucb_argmax(math.log(t), counts, sums)
                m = block_length(t, arm, ua, counts, sums, work, room, at_t)
                lead = arm if m != 0 else -1
                stats[4] += m < 0
                m = max(m, 1)
            if m >= 2 and extra:
                m = min(room, m + extra)
        if m >= 2:
            stats[1] += 1
            stats[2] += m
            if flags & (AUDIT_PATH | AUDIT_ZEROS):
                na, sa, x = counts[arm], sums[arm], 0.0
                for k in range(m):  # is a the kernel's argmax at round t + k + 1?
                    counts[arm], sums[arm] = na + k, sa + x
                    if klucb_argmax(math.log(t + k), counts, sums)[0] != arm:
                        stats[3] += 1
                    if flags & AUDIT_PATH:
                        x += 1.0 if rng.random() < mu[arm] else 0.0
                counts[arm], sums[arm] = na, sa
            if not flags & AUDIT_PATH:
                x = float(bernoulli_sum(rng, m, mu[arm]) if m <= LANES else rng.binomial(m, mu[arm]))
        else:
            x = 1.0 if rng.random() < mu[arm] else 0.0
            lead = lead if arm == lead else -1  # a pulled challenger's tangent is void
        counts[arm] += m
        sums[arm] += x
        t += m
        stats[0] += 1
        while ci < checkpoints.shape[0] and checkpoints[ci] == t:
            counts_out[ci, :] = counts
            ci += 1
    return t, ci, lead
