r"""The kernel kit of the per-pull index policies: the argmax of :math:`u_a = \hat\mu_a + g(t)\,b_a` with a
certificate that lets the next pulls skip it, exactly.

A per-pull kernel evaluates every arm's index at every pull: :math:`K` multiply-adds and a log. Between two
changes of the played arm only the leader's :math:`\hat\mu_L, b_L` change, and the other arms' indexes move
only through :math:`g(t) = \sqrt{\log t}`, which grows. With :math:`b_a \ge 0` and rounding monotone, the
computed :math:`\mathrm{fl}(\hat\mu_a + \mathrm{fl}(g\,b_a))` is non-decreasing in g, so for every round whose
:math:`g(t) \le g_{\rm end}`

.. math::
   u_a(t) &\;\le\; C = \max_{a \ne L}\, \mathrm{fl}(\hat\mu_a + \mathrm{fl}(g_{\rm end}\, b_a)), \\
   u_L(t) &\;\ge\; \mathrm{fl}(\hat\mu_L + \mathrm{fl}(g_0\, b_L)) \qquad (g_0 \le g(t)).

If the leader's lower value is *strictly* above C, the per-pull argmax (ties to the lowest-numbered arm) is the
leader, whatever the ties among the others: the kernel pulls it without a log or a scan. Otherwise it computes g(t)
and the leader's exact index, and only if that is not above C either does it scan all arms (:func:`leader_scan`),
which also gives the new C. A window of rounds shares one :math:`g_{\rm end}` (:func:`window_end`); the next window
recomputes it and C. :func:`certified_argmax` is the whole certificate as one function (DP-UCB calls it). The two
fastest kernels, ``index_policy_chunk`` and ``heterogeneous_chunk``, write it out instead: as a call, inlined or
not, UCB1 took 18.3 ns a pull instead of 9.6 and LDP-UCB-B 19.8 instead of 13.2 (the pulls were the same), while for
DP-UCB, whose pull costs 80 ns, the call costs about 5 %. Every pull is the per-pull kernel's own
(``tests/policies/test_engine.py`` compares the counts with the plain reference at every checkpoint, and
``tests/policies/test_kit.py`` with the scan at every round, ties included).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

WINDOW_SHIFT = 12
"""A window of rounds for one :math:`g_{\\rm end}` spans ``t >> WINDOW_SHIFT`` rounds (t/4096, at least
``MIN_WINDOW``). In UCB's steady state every arm's index hovers just below the leader's, so the slack
:math:`(g_{\\rm end} - g(t))\\,b_a` must stay tiny: with t/64 the certificate failed at 2 rounds in 3 (UCB1 on
ren2020's 20 Bernoulli arms, T = 10^7), with t/4096 at under 1 % of the rounds; t/1024 and t/16384 were slower,
by fewer certified rounds and by more windows (measured for UCB1 and Laplace responses at eps = 1 and 0.2)."""
MIN_WINDOW = 8


@njit(cache=True, nogil=True)
def window_end(t, shift=WINDOW_SHIFT):
    """The last round t (pulls so far) of the window that starts at round ``t``: ``t >> shift`` rounds on, at least
    ``MIN_WINDOW`` (KL-UCB's kernel, whose window costs a bisection per arm, takes a longer one,
    :data:`ldpcode.global_policies.per_step.KL_WINDOW_SHIFT`)."""
    return t + max(MIN_WINDOW, t >> shift)


@njit(cache=True, nogil=True)
def leader_scan(means, widths, kept, g, g_end):
    """The per-pull argmax of ``means + g * widths`` (ties: the lowest-numbered arm; an arm with ``kept[a] == 0``
    has index +inf), and C, the largest index any other arm reaches at ``g_end`` (an upper bound of their
    indexes at every g <= g_end while only the argmax is pulled). Returns (arm, C)."""
    best = -np.inf
    arm = -1
    v1 = -np.inf
    i1 = -1
    v2 = -np.inf
    for a in range(means.shape[0]):
        if kept[a] == 0:
            u = np.inf
            v = np.inf
        else:
            u = means[a] + g * widths[a]
            v = means[a] + g_end * widths[a]
        if u > best:
            best = u
            arm = a
        if v > v1:
            v2 = v1
            v1 = v
            i1 = a
        elif v > v2:
            v2 = v
    return arm, (v2 if i1 == arm else v1)


@njit(cache=True, nogil=True)
def leader_index(means, widths, kept, arm, g):
    """The per-pull kernel's index of ``arm`` at ``g`` (+inf while it has no kept response)."""
    return np.inf if kept[arm] == 0 else means[arm] + g * widths[arm]


@njit(cache=True, nogil=True)
def sqrt_log(t):
    """g(t) = sqrt(log t) as the per-pull kernels compute it (0 at t <= 1)."""
    return math.sqrt(math.log(t)) if t > 1 else 0.0


@njit(cache=True, nogil=True)
def lcb_value(counts, sums, arm, log_t, width_c):
    """The lower confidence value :math:`s_a/N_a - c\\sqrt{\\log t/N_a}` of ``arm``, as
    :func:`ldpcode.reductions.kernels._ucb_select` computes it (non-increasing in ``log_t``)."""
    return sums[arm] / counts[arm] - width_c * math.sqrt(log_t / counts[arm])


@njit(cache=True, nogil=True)
def lcb_scan(counts, sums, log_t, log_end, width_c):
    """The arm of :func:`ldpcode.reductions.kernels._ucb_select` (an unpulled arm first, else the smallest
    :func:`lcb_value` at ``log_t``, ties to the lowest-numbered), and C, the smallest value any other arm takes at
    ``log_end`` (a lower bound of theirs at every log t <= log_end while only that arm is pulled; -inf while an arm
    is unpulled: nothing is certified). Returns (arm, C)."""
    for a in range(counts.shape[0]):
        if counts[a] == 0:
            return a, -np.inf
    best = np.inf
    arm = 0
    v1 = np.inf
    i1 = -1
    v2 = np.inf
    for a in range(counts.shape[0]):
        u = lcb_value(counts, sums, a, log_t, width_c)
        v = lcb_value(counts, sums, a, log_end, width_c)
        if u < best:
            best = u
            arm = a
        if v < v1:
            v2 = v1
            v1 = v
            i1 = a
        elif v < v2:
            v2 = v
    return arm, (v2 if i1 == arm else v1)


@njit(cache=True, nogil=True, inline="always")
def certified_argmax(means, widths, kept, t, leader, rival, g_lo, t_end, g_end):
    """The per-pull argmax of ``means + g(t) * widths`` at round ``t`` (ties: the lowest-numbered arm), through a
    certificate the kernel carries: returns the certificate (leader, rival, g_lo, t_end, g_end), whose leader is the
    arm to pull, to be passed back at the next round (start a chunk with leader = t_end = -1, rival = inf, g_lo =
    g_end = 0). The leader is pulled without a log or a scan while its index at g_lo stays strictly above rival, every
    other arm's largest index at the window's end; else g(t) and the leader's exact index decide; else
    :func:`leader_scan`. A kernel that pulls another arm (a forced pull) must set leader = -1: that arm's index moves."""
    if t > t_end:
        t_end = window_end(t)
        g_end = sqrt_log(t_end)
        leader = -1
    if leader >= 0 and means[leader] + g_lo * widths[leader] > rival:
        return leader, rival, g_lo, t_end, g_end
    g = sqrt_log(t)
    if leader >= 0 and means[leader] + g * widths[leader] > rival:
        return leader, rival, g, t_end, g_end
    leader, rival = leader_scan(means, widths, kept, g, g_end)
    return leader, rival, g, t_end, g_end
