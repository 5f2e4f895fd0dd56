r"""An exact event-driven ("forward skip") simulation of UCB1 and LDP-UCB-B on Bernoulli arms.

**The index** (:mod:`ldpcode.policies.index`): at round t + 1, with t the pulls so far, :math:`N_a` the pulls
and :math:`S_a` the sum of the responses of arm a, the policy pulls the lowest-numbered maximiser of

.. math:: u_a(t) = \frac{S_a}{N_a} + \sqrt{\frac{2\log t}{N_a}} = \frac{S_a}{N_a} + g(t)\,\frac{c}{\sqrt{N_a}},
          \qquad g(t) = \sqrt{\log t},\ c = \sqrt 2,

after pulling arms 0..K-1 once each: UCB1 of Auer et al. (2002) on the rewards, and LDP-UCB-B (Ren et al.
2020, Agent 4) on the responses of Curator 3 (CTB). On a Bernoulli(μ) arm the response is Bernoulli(q):
q = μ for UCB1; for CTB a reward r in {0, 1} is answered 1 with probability
:math:`p_r = (re^\epsilon + 1 - r)/(1 + e^\epsilon)` (``ctb_probability``), so
:math:`q = \mu p_1 + (1-\mu) p_0 = (\mu e^\epsilon + 1 - \mu)/(1 + e^\epsilon)`, Lemma 5's
:func:`~ldpcode.mechanisms.ctb_output_mean` (:func:`response_probabilities`). A run is therefore a function
of i.i.d. Bernoulli(:math:`q_a`) responses of each arm, and the counts of the run are all that is kept.

**The certificate.** At a state (t, N, S) with t >= K >= 2 let a be the arm the per-pull kernel pulls (the
lowest maximiser of :math:`u(t)`) and, over the other arms b, :math:`M_0 = \max_b u_b(t)`, :math:`W = \max_b
c/\sqrt{N_b}`. A block of m pulls of a (rounds t + 1 .. t + m) is accepted without drawing them when

.. math:: F(n) = \frac{S_a}{n} + \frac{g(t)\,c}{\sqrt n} - M_0 - (m - 1)\frac{W}{2t\,g(t)} > \tau,
          \qquad n = N_a + m - 1,

with :math:`\tau = 10^{-10}` a margin for rounding. *Proof sketch.* Before the (k+1)-th pull of the block,
k = 0..m-1, the state is :math:`(t + k, N_a + k, S_a + X_k)` with :math:`X_k \ge 0` the block's first k
responses, the other arms unchanged. (i) The leader's index :math:`(S_a + X_k)/(N_a+k) + g(t+k)\,c/\sqrt{N_a+k}`
is at least its value with :math:`X_k = 0` (zeros are the worst case), and that value is at least the first
two terms of F: :math:`S_a/n' + c/\sqrt{n'}` decreases in :math:`n' = N_a + k \le n` and g increases.
(ii) :math:`g = \sqrt{\log x}` is concave for x > 1 (:math:`g'' = -(1 + 1/(2\log x))/(2x^2 g) < 0`), so
:math:`g(t+k) \le g(t) + k/(2t\,g(t))`, and for every b :math:`u_b(t+k) = u_b(t) + (g(t+k) - g(t))\,c/\sqrt{N_b}
\le M_0 + k W/(2t\,g(t))`, at most the last two terms of F. So the leader's index beats every other index by
more than τ at each of the m rounds, whatever the responses; τ is far above the rounding of the indices
(below 1e-13 for indices under 10), so the per-pull kernel's floating-point argmax is a at each of them,
tie rule included. F is convex and decreasing in n (each term is), so the accepted m are an interval
[1, m*], and the root of F's tangent at n = N_a, which lies below F, is at most m*: that root (one division),
checked by one evaluation of F, gives the block (:func:`certified_length`), capped so that a block never
passes the horizon or the next checkpoint. This is the worst-case-zeros certificate with g(t + m - 1) for the
challengers, sharpened by n = N_a + m - 1 (the leader's count at the block's last round) for N_a + m.

**The law.** If m >= 2 the block is one Binomial(m, q_a) draw added to :math:`S_a` (:func:`bernoulli_sum` for
m <= 52, numba's ``Generator.binomial`` above); otherwise one ordinary step: the per-pull kernel's argmax and
one Bernoulli(:math:`q_a`) response. The arms pulled in a block do not depend on its responses, so, given the
state, the block's pulls and response sum have exactly the law of m per-pull steps; m is a function of the
state, so by induction over blocks the law of the counts and sums at every checkpoint is the per-pull
engine's (:meth:`IndexPolicy.run_one`). The random stream is a different one (one generator,
:func:`ldpcode.rng.run_streams`' first stream of the run), so results are equal in distribution, not bit for
bit (the per-pull engine's P{1} = P{U < μ} P{V < p_1} + ... equals q to about 2^-53).

**Cost.** A step costs one pass over the arms, a logarithm, three square roots and the draw of the block's sum
(30-70 ns, about half of a step: 120-140 ns on ``ren2020-bernoulli``). The certificate assumes zeros, and it is
tight (one pull more fails on the all-zero path in 83-99% of the blocks), while the leader's mean in fact
moves like a random walk of steps ~1/N_a: a block is about (margin)·N_a/q_a pulls long and tens of blocks are
needed between two changes of leader. At T = 10^8: about 7.5·10^5 steps (UCB1) and 10^6 (LDP-UCB-B,
ε = 1), for 2.5·10^4 and 1.1·10^5 pulls of arms other than the best (benchmarks/bench_event.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from .. import mechanisms as mech
from ..engine import resolve_checkpoints
from ..instances import Family, Instance
from ..rng import run_streams
from .index import IndexPolicy

EVENT_POLICIES = ("UCB1", "LDP-UCB-B")
"""The policies :func:`run_one_event` simulates (on an instance whose arms are all Bernoulli)."""

TOL = 1e-10
"""τ, the margin by which the certificate must hold (module docstring)."""

LANES = 52
"""Blocks of at most this many pulls draw their sum with :func:`bernoulli_sum`, longer ones with numba's
``Generator.binomial``."""

STEPS_PER_CALL = 1 << 14
"""Kernel steps (blocks or ordinary pulls) per call of the kernel: ``cancel`` is checked between calls."""

_MECHANISM = {"UCB1": mech.Mechanism.NONE, "LDP-UCB-B": mech.Mechanism.BERNOULLI}

# Test-only breaks of the certificate (tests/policies/test_event.py): never set by the public functions.
NO_BREAK = np.array([1.0, 0.0, 0.0])  # (factor, extra pulls, flags): the exact certificate
BREAK_CHALLENGERS_AT_T = 1  # flag: the challengers' indices at g(t), not g(t + m - 1)
BREAK_UNDILUTED = 2  # flag: the leader's mean S_a/N_a, as if the block's responses kept it
BREAK_SHORT_DRAW = 4  # flag: a block of m pulls draws Binomial(m - 1, q): one response lost (counted as a zero)
AUDIT_PATH = 8  # flag: draw a block's responses one by one, counting the rounds where the leader is not the argmax
AUDIT_ZEROS = 16  # flag: count those rounds on the block's all-zero path (the worst case), then draw the block


WORST_CASE = (
    " on the event-driven engine, estimated at its worst case, the per-pull engine's time (no block certified, as "
    "on nearly equal means); it usually takes 10 to 1,000 times less (benchmarks/bench_event*.py)"
)
"""What the cost of an event-driven run says it estimates: the limits check shows it after the work."""


def worst_case_cost(estimate: tuple) -> tuple:
    """The per-pull engine's (core-seconds, bytes, work) ``estimate`` as the event engine's: the same numbers, a
    bound that can be far above the real time, and a work that says so (:data:`WORST_CASE`)."""
    seconds, nbytes, work = estimate
    return seconds, nbytes, work + WORST_CASE


@dataclass(frozen=True, repr=False)
class EventDrivenPolicy(IndexPolicy):
    """An :class:`IndexPolicy` (UCB1 or LDP-UCB-B) whose runs are :func:`run_one_event`'s: what
    ``ldp.simulate(..., engine="event")`` runs (:func:`event_driven`). Its name, repr and result are the policy's."""

    def cost(self, instance, horizon: int, runs: int, n_checkpoints: int, workers: int):
        return worst_case_cost(super().cost(instance, horizon, runs, n_checkpoints, workers))

    def run_one(self, instance, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        return run_one_event(self, instance, horizon, seed_seq, checkpoints, cancel=cancel)


def event_driven(policy, instance) -> EventDrivenPolicy:
    """``policy`` on the event-driven engine, after checking that the engine applies to it on ``instance``
    (:func:`event_driven_applies`; a one-line ValueError otherwise)."""
    if not event_driven_applies(policy, instance):
        raise ValueError(
            f"engine 'event' runs only {' and '.join(EVENT_POLICIES)} (from make_policy) on instances whose arms "
            f"are all Bernoulli, got {policy!r} on {getattr(instance, 'name', instance)!r}; use engine='per-pull'"
        )
    return EventDrivenPolicy(policy.name, policy.curator, policy.use_sigmoid, policy.forced_exploration)


def event_driven_applies(policy, instance) -> bool:
    """Whether :func:`run_one_event` can simulate ``policy`` on ``instance``: an :class:`IndexPolicy` UCB1 or
    LDP-UCB-B (index constant √2, no Sigmoid, no forced pulls) on an :class:`~ldpcode.Instance` of Bernoulli
    arms only."""
    if not isinstance(policy, IndexPolicy) or not isinstance(instance, Instance):
        return False
    if policy.name not in EVENT_POLICIES or policy.use_sigmoid or policy.forced_exploration:
        return False
    if policy.mechanism_code != _MECHANISM[policy.name] or policy.index_constant != math.sqrt(2.0):
        return False
    return all(arm.family == Family.BERNOULLI for arm in instance.arms)


def response_probabilities(policy: IndexPolicy, instance: Instance) -> np.ndarray:
    r"""P{response = 1} of each arm: :math:`q_a = \mu_a` (UCB1) or :math:`\mu_a p_1 + (1 - \mu_a) p_0`, with
    :math:`p_r` CTB's ``ctb_probability(r, e^ε)`` (LDP-UCB-B; Lemma 5)."""
    mu = instance.means
    if policy.curator is None:
        return mu.copy()
    e = policy.curator.exp_eps
    p1, p0 = mech.ctb_probability(1.0, e), mech.ctb_probability(0.0, e)
    return mu * p1 + (1.0 - mu) * p0


def run_one_event(policy, instance, horizon: int, seed_seq, checkpoints, *, cancel=None):
    """One run of UCB1 or LDP-UCB-B on Bernoulli arms by the exact event-driven engine (module docstring).

    Returns ``(counts, None)`` like :meth:`IndexPolicy.run_one`: the pull counts at ``checkpoints``, shape
    (C, K), int64, with the per-pull engine's law (not its random stream). ``seed_seq`` is the run's
    :class:`numpy.random.SeedSequence`; ``cancel`` (a :class:`ldpcode.limits.CancelFlag` or None) is checked
    every :data:`STEPS_PER_CALL` kernel steps."""
    return _run(policy, instance, horizon, seed_seq, checkpoints, cancel)[0], None


def _run(policy, instance, horizon, seed_seq, checkpoints, cancel=None, brk=NO_BREAK):
    """:func:`run_one_event` with its statistics: (counts, int64 [steps, blocks, pulls in blocks, audited
    rounds the leader lost]). ``brk`` (tests only) breaks or audits the certificate: (factor, extra, flags)."""
    if not event_driven_applies(policy, instance):
        raise ValueError(
            f"the event-driven engine runs only {' and '.join(EVENT_POLICIES)} (from make_policy) on Bernoulli "
            f"arms, got {policy!r} on {getattr(instance, 'name', instance)!r}"
        )
    checkpoints = resolve_checkpoints(horizon, checkpoints)
    horizon = int(checkpoints[-1])
    rng = run_streams(seed_seq, 1)[0]
    q = response_probabilities(policy, instance)
    n = instance.n_arms
    counts = np.zeros(n, dtype=np.int64)
    sums, means, widths = np.zeros(n), np.zeros(n), np.zeros(n)
    counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
    stats = np.zeros(4, dtype=np.int64)  # kernel steps, blocks, pulls in blocks, audited rounds lost by the leader
    brk = np.asarray(brk, dtype=np.float64)
    t = ci = 0
    while t < horizon:
        if cancel is not None:
            cancel.check()
        t, ci = event_chunk(
            t, horizon, q, math.sqrt(2.0), counts, sums, means, widths, checkpoints, ci, counts_out, rng,
            STEPS_PER_CALL, stats, brk,
        )  # fmt: skip
    return counts_out, stats


@njit(cache=True, nogil=True)
def _margin(n, na, sa, gc, m0, slope, keep_mean):
    """F(n) - τ of the module docstring, n = N_a + m - 1: > 0 certifies the block of m pulls (``keep_mean``:
    a test-only break, the leader's mean S_a/N_a instead of S_a/n)."""
    mean = sa / na if keep_mean else sa / n
    return mean + gc / math.sqrt(n) - m0 - (n - na) * slope - TOL


@njit(cache=True, nogil=True)
def certified_length(na, sa, gc, m0, slope, room, keep_mean):
    """The length m in [1, room] of a certified block, F(N_a + m - 1) > τ (1: take an ordinary step).

    F is convex and decreasing in n, so its tangent at n = N_a stays below it and the tangent's root,
    N_a + F(N_a) / abs(F'(N_a)), is at most F's root: one division gives the candidate, one evaluation of F checks it
    (rounding could spoil it by an ulp), and a bisection stopped within 1/16 of its lower end, on the rare
    failure, falls back to a certified m."""
    d = _margin(na, na, sa, gc, m0, slope, keep_mean)
    if room < 2 or d <= 0.0:
        return 1
    mean_rate = 0.0 if keep_mean else sa / (na * na)
    x = d / (mean_rate + 0.5 * gc / (na * math.sqrt(na)) + slope)  # m - 1 <= x certified (reals)
    hi = room if x >= room - 1.0 else int(x) + 1
    if hi < 2:
        return 1
    if _margin(na + hi - 1.0, na, sa, gc, m0, slope, keep_mean) > 0.0:
        return hi
    lo = 1
    while hi - lo > 1 and 16 * (hi - lo) > lo:
        mid = (lo + hi) // 2
        if _margin(na + mid - 1.0, na, sa, gc, m0, slope, keep_mean) > 0.0:
            lo = mid
        else:
            hi = mid
    return lo


@njit(cache=True, nogil=True)
def bernoulli_sum(rng, m, q):
    """The sum of m <= :data:`LANES` independent Bernoulli(q) responses, exactly: response i is 1{U_i < q}, U_i
    uniform on [0, 1), decided by comparing U_i's bits, 52 lanes per ``rng.random()``, with q's binary expansion
    (finite for a double) from the top until every lane differs from it. About log2(m) + 2 uniforms, 30-50 ns;
    numba's ``Generator.binomial`` takes 35-160 ns here, longest at q near 1/2 (LDP-UCB-B)."""
    undecided = (1 << m) - 1
    ones = 0
    r = q
    while undecided:
        r *= 2.0
        bit = r >= 1.0
        if bit:
            r -= 1.0
        w = int(rng.random() * 4503599627370496.0)  # 2^52 uniform bits
        if bit:
            ones |= undecided & ~w  # lane bit 0 < q's bit 1: U < q
            undecided &= w
        else:
            undecided &= ~w  # lane bit 1 > q's bit 0: U > q
        if r == 0.0:
            break  # q's expansion has ended: the undecided lanes have U >= q
    total = 0
    while ones:
        ones &= ones - 1
        total += 1
    return total


@njit(cache=True, nogil=True)
def event_chunk(t, horizon, q, c, counts, sums, means, widths, checkpoints, ci, counts_out, rng, steps, stats, brk):
    """Advance one run by at most ``steps`` steps (a block or an ordinary pull each); returns (t, ci).

    State (in place): ``counts`` N_a, ``sums`` S_a, ``means`` S_a/N_a, ``widths`` c/sqrt(N_a), as in
    ``index_policy_chunk`` (so the argmax is computed with the same arithmetic, ties to the lowest arm);
    ``rng`` a ``numpy.random.Generator``; ``stats`` counts the steps, the blocks and the pulls in blocks. Each
    step makes one pass over the arms for the argmax a, the runner-up index M_0 and the largest other width W.
    """
    n = counts.shape[0]
    factor, extra, flags = brk[0], int(brk[1]), int(brk[2])
    keep_mean = (flags & BREAK_UNDILUTED) != 0
    for _ in range(steps):
        if t >= horizon:
            break
        end = checkpoints[ci] if ci < checkpoints.shape[0] else horizon  # a block never passes a checkpoint
        room = min(end, horizon) - t
        m = 1
        if t < n:
            arm = t  # the first K pulls: each arm once
        elif n == 1:
            arm = 0
            m = room
        else:
            g = math.sqrt(math.log(t))
            arm = -1
            # the scan of event_heldp.heldp_event_chunk too: one shared njit function measured 4 % slower here
            # (benchmarks/bench_event.py, T = 10^7, 0.034 -> 0.036 s; inline="always" did not help)
            best = m0 = -np.inf  # the per-pull kernel's argmax (ties to the lowest arm) and the runner-up index
            w1 = w2 = 0.0  # the two largest widths, w1 that of arm i1: W is the largest but the leader's
            i1 = -1
            for a in range(n):
                u = means[a] + g * widths[a]
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
            if room >= 2:
                w = w2 if i1 == arm else w1
                slope = 0.0 if flags & BREAK_CHALLENGERS_AT_T else w / (2.0 * t * g)
                m = certified_length(float(counts[arm]), sums[arm], g * c, m0, slope, room, keep_mean)
                if m >= 2:
                    m = min(room, int(m * factor) + extra)
        if m >= 2:
            stats[1] += 1
            stats[2] += m
            if flags & (AUDIT_PATH | AUDIT_ZEROS):
                x = 0.0
                for k in range(m):  # is the leader the per-pull kernel's argmax at round t + k + 1?
                    gk = math.sqrt(math.log(t + k))
                    ua = (sums[arm] + x) / (counts[arm] + k) + gk * (c / math.sqrt(counts[arm] + k))
                    for b in range(n):
                        ub = means[b] + gk * widths[b]
                        if b != arm and (ub > ua or (ub == ua and b < arm)):
                            stats[3] += 1
                            break
                    if flags & AUDIT_PATH:
                        x += 1.0 if rng.random() < q[arm] else 0.0
            if not flags & AUDIT_PATH:
                size = m - 1 if flags & BREAK_SHORT_DRAW else m
                x = float(bernoulli_sum(rng, size, q[arm]) if size <= LANES else rng.binomial(size, q[arm]))
        else:
            x = 1.0 if rng.random() < q[arm] else 0.0
        counts[arm] += m
        sums[arm] += x
        means[arm] = sums[arm] / counts[arm]
        widths[arm] = c / math.sqrt(counts[arm])
        t += m
        stats[0] += 1
        while ci < checkpoints.shape[0] and checkpoints[ci] == t:
            counts_out[ci, :] = counts
            ci += 1
    return t, ci
