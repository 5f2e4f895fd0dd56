r"""The index policies of Ren et al. (2020), one class and one compiled step kernel.

All five are UCB index policies on private responses (Agents 2 and 4 and their Sigmoid versions):

===============  =========  ========  =================================================================
name             curator    Sigmoid   index :math:`u_a^t` (log natural; t = pulls so far)
===============  =========  ========  =================================================================
``UCB1``         none       no        :math:`\hat\mu_a + \sqrt{2\log t / N_a}` (Auer et al. 2002)
``UCB1-S``       none       yes       the same on :math:`s(r)`: the baseline of supplement Fig. 2
``LDP-UCB-L``    CTL        no        :math:`\hat\mu_a + \sqrt{2\log t/N_a} + \sqrt{32\log t/(\epsilon^2 N_a)}`, forced pulls
``LDP-UCB-B``    CTB        no        :math:`\hat\mu_a + \sqrt{2\log t / N_a}` on CTB responses (Agent 4)
``LDP-UCB-LS``   CTL-S      yes       as LDP-UCB-L (Corollary 10)
``LDP-UCB-BS``   CTB-S      yes       as LDP-UCB-B (Corollary 11)
===============  =========  ========  =================================================================

Every index is :math:`u_a^t = \hat\mu_a + g(t)\, b_a` with :math:`g(t) = \sqrt{\log t}` and
:math:`b_a = c/\sqrt{N_a}`, where :math:`c = \sqrt 2` (UCB1, LDP-UCB-B) or
:math:`c = \sqrt 2 + \sqrt{32}/\epsilon` (LDP-UCB-L). Only the pulled arm's :math:`\hat\mu_a, b_a`
change, and :math:`g(t)` is computed once per step, so a step costs one multiply-add per arm: the
paper's formula, with the arithmetic moved, not changed.

Agent 2's forced pulls (Lines 5-6): while some arm has :math:`N_a^t \le 4\log(t+1)`, the lowest-numbered
such arm is pulled (the box says "an arm"; we take the first). Ties of the index go to the
lowest-numbered arm, like ``numpy.argmax``. The first n steps pull arms 1..n once each (Line 1).
"""

from __future__ import annotations

import math
from collections import namedtuple
from dataclasses import dataclass

import numpy as np
from numba import njit

from .. import mechanisms as mech
from .._validate import check_epsilon, one_line
from ..engine import ArmedPolicy, check_bounded, pulls_cost, refuse_privacy_levels, run_in_chunks
from ..instances import reward_from_draw
from ..rng import run_streams
from ..kit import leader_scan, sqrt_log, window_end

USE_SIGMOID = "; use its Sigmoid version {name}S"

# The argument groups of index_policy_chunk (numba takes namedtuples of arrays and scalars; a field is a local):
#: The pre-drawn random inputs of one chunk: the arms' reward draws and the curator's noise, one a round.
IndexDraws = namedtuple("IndexDraws", ["rewards", "noise"])
#: The constants of a run: the curator (:meth:`IndexPolicy.kernel_args`), the index constant c, forced pulls.
IndexTuning = namedtuple("IndexTuning", ["mech_code", "use_sigmoid", "laplace_scale", "exp_eps", "c", "forced"])
#: The learner's state, updated in place: N_a, the sums of responses, the means and the widths b_a.
IndexState = namedtuple("IndexState", ["counts", "sums", "means", "widths"])
#: The checkpoint recorder: the pull counts at which ``counts`` is copied into ``counts_out[ci]``.
CountsRecorder = namedtuple("CountsRecorder", ["checkpoints", "counts_out"])


@dataclass(frozen=True)
class IndexPolicy(ArmedPolicy):
    r"""A UCB policy on the responses of a curator (or on raw rewards when ``curator`` is None): the index
    policies of Ren et al. (2020) in the table above. LDP-UCB-L is Agent 2 (CTL responses, with the forced pulls
    of Lines 5-6; regret bound Theorem 4) and LDP-UCB-B is Agent 4 (CTB responses; Theorem 6); LDP-UCB-LS and
    LDP-UCB-BS are their Sigmoid versions (curators CTL-S and CTB-S; Corollaries 10 and 11); UCB1 (Auer et al.
    2002) and UCB1-S are the non-private baselines. The index is :math:`\hat\mu_a + c\sqrt{\log t/N_a}`
    (:attr:`index_constant`). Built by :func:`ldpcode.policies.make_policy` (:func:`build_index`)."""

    name: str
    curator: mech.Curator | None
    use_sigmoid: bool
    forced_exploration: bool

    @property
    def epsilon(self) -> float:
        return math.inf if self.curator is None else self.curator.epsilon

    @property
    def mechanism_code(self) -> int:
        return mech.Mechanism.NONE if self.curator is None else self.curator.code

    @property
    def index_constant(self) -> float:
        r""":math:`c` in :math:`u = \hat\mu + c\sqrt{\log t / N}`."""
        c = math.sqrt(2.0)
        if self.mechanism_code == mech.Mechanism.LAPLACE:
            c += math.sqrt(32.0) / self.epsilon
        return c

    @property
    def needs_bounded_rewards(self) -> bool:
        return self.curator is not None and not self.use_sigmoid

    def draw_noise(self, rng: np.random.Generator, size) -> np.ndarray:
        return mech.draw_noise(self.mechanism_code, rng, size)

    def kernel_args(self):
        if self.curator is None:
            return mech.Mechanism.NONE, self.use_sigmoid, 0.0, 1.0
        return self.curator.code, self.use_sigmoid, self.curator.laplace_scale, self.curator.exp_eps

    def kernel_tuning(self) -> IndexTuning:
        """The :data:`IndexTuning` of :func:`index_policy_chunk`, its curator's code a plain int: a namedtuple
        holding an IntEnum member has no numba type fingerprint: each call typed it in Python, 25 µs, not 3.6."""
        code, sig, scale, exp_eps = self.kernel_args()
        return IndexTuning(int(code), sig, scale, exp_eps, self.index_constant, self.forced_exploration)

    # --- the engine protocol (ldpcode.engine) ---------------------------------------------------------------
    @property
    def label(self) -> float:
        return self.epsilon

    def check_environment(self, instance, privacy_levels) -> None:
        refuse_privacy_levels(self, privacy_levels)
        check_bounded(
            self, instance, f" but instance {instance.name!r} is unbounded" + USE_SIGMOID.format(name=self.name)
        )

    def cost(self, instance, horizon: int, runs: int, n_checkpoints: int, workers: int):
        K = instance.n_arms
        return pulls_cost("pulls of an index policy", 60 + 3 * K, K, horizon, runs, n_checkpoints, workers)

    def run_one(self, instance, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        """One run with the compiled kernel; returns (the counts at the checkpoints, shape (C, arms), None).
        ``cancel`` is checked before each chunk of ``PULLS_PER_CALL`` pulls."""
        reward_rng, noise_rng = run_streams(seed_seq)
        n = instance.n_arms
        state = IndexState(np.zeros(n, dtype=np.int64), np.zeros(n), np.zeros(n), np.zeros(n))
        counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
        recorder = CountsRecorder(checkpoints, counts_out)
        tuning = self.kernel_tuning()

        def step(t, ci, m):
            draws = IndexDraws(instance.draw_stream(reward_rng, m), self.draw_noise(noise_rng, m))
            return index_policy_chunk(
                t, horizon, instance.families, instance.params, draws, tuning, state, recorder, ci
            )

        run_in_chunks(horizon, cancel, step)
        return counts_out, None

    def __repr__(self) -> str:
        eps = "" if self.curator is None else f", epsilon={self.epsilon:g}"
        return f"Policy({self.name!r}{eps})"


SPECS = {
    # name: (curator class or None, sigmoid, forced exploration)
    "UCB1": (None, False, False),
    "UCB1-S": (None, True, False),
    "LDP-UCB-L": (mech.CTL, False, True),
    "LDP-UCB-B": (mech.CTB, False, False),
    "LDP-UCB-LS": (mech.CTLS, True, True),
    "LDP-UCB-BS": (mech.CTBS, True, False),
}


def no_options(name: str, options: dict) -> None:
    """Refuse the options of a policy that takes none: raises ValueError naming the first entry of ``options``
    (the dict of ``alpha``, ``beta``, ``gamma`` that :func:`ldpcode.policies.make_policy` passes) that is not
    None. Only the global-DP policies have options."""
    for opt, val in options.items():
        if val is not None:
            from ..global_policies import GLOBAL_POLICIES  # the message names them: an import on the error path only

            raise ValueError(
                f"policy {name!r} takes no {opt} (only the global-DP policies {', '.join(GLOBAL_POLICIES)} have options)"
            )


def build_index(name, epsilon, epsilon_min, options):
    """The :class:`IndexPolicy` ``name`` (UCB1, UCB1-S, LDP-UCB-L, -B, -LS or -BS: a key of ``SPECS``) for
    :func:`ldpcode.policies.make_policy`, its curator at level ``epsilon``. Raises ValueError when an option is
    given (:func:`no_options`), when ``epsilon_min`` is given, when ``epsilon`` is given to UCB1 or UCB1-S or
    missing for a private policy, or when it is not a finite number ≥ :data:`ldpcode.EPSILON_FLOOR` (TypeError
    when it is not a real number)."""
    no_options(name, options)
    if epsilon_min is not None:
        raise ValueError(f"policy {name!r} is homogeneous and takes no epsilon_min")
    curator_cls, sigmoid, forced = SPECS[name]
    if curator_cls is None:
        if epsilon is not None:
            raise ValueError(
                f"policy {name!r} is not private and takes no epsilon, got epsilon={one_line(epsilon, 40)}"
            )
        return IndexPolicy(name, None, sigmoid, forced)
    if epsilon is None:
        raise ValueError(f"policy {name!r} needs epsilon, a finite number > 0")
    return IndexPolicy(name, curator_cls(check_epsilon(epsilon)), sigmoid, forced)


@njit(cache=True, nogil=True)
def index_policy_chunk(t, horizon, families, params, draws, tuning, state, recorder, ci):
    """Advance one run of an index policy by ``len(draws.rewards)`` steps (or to ``horizon``).

    ``draws`` an :data:`IndexDraws`, ``tuning`` an :data:`IndexTuning`, ``state`` an :data:`IndexState`
    (updated in place): ``counts`` N_a, ``sums`` of responses, ``means`` = sums/counts and ``widths``
    b_a = c/sqrt(N_a). ``recorder`` a :data:`CountsRecorder`: ``checkpoints`` are pull counts at which
    ``counts`` is copied into ``counts_out[ci]``. Returns the new (t, ci).
    """
    reward_draws, noise_draws = draws.rewards, draws.noise
    mech_code, use_sigmoid, c, forced = tuning.mech_code, tuning.use_sigmoid, tuning.c, tuning.forced
    laplace_scale, exp_eps = tuning.laplace_scale, tuning.exp_eps
    counts, sums, means, widths = state.counts, state.sums, state.means, state.widths
    checkpoints, counts_out = recorder.checkpoints, recorder.counts_out
    n = counts.shape[0]
    steps = min(reward_draws.shape[0], horizon - t)
    # Exact shortcuts (the pulls are bit-for-bit those of the plain loop; tests/policies/test_engine.py):
    # the argmax is certified for the next rounds and skipped while the leader stays strictly above every
    # other arm's index at the window's end (ldpcode.kit); the forced-pull test is skipped while the
    # smallest count is above the window's last limit 4 log(t_end + 1), and otherwise reads the counts only
    # when that smallest count can be at the limit (counts only grow, so the minimum is re-read only when
    # the arm that held it is pulled).
    cmin = counts.min()
    leader = -1  # the certified leader (-1: none); certified while its index at g_lo exceeds rival
    rival = np.inf
    g_lo = 0.0
    t_end = -1  # the window's last round, its g(t_end) and forced-pull limit
    g_end = limit_end = 0.0
    for s in range(steps):
        if t > t_end:
            t_end = window_end(t)
            g_end = sqrt_log(t_end)
            limit_end = 4.0 * math.log(t_end + 1.0)
            leader = -1
        if t < n:
            arm = t  # Line 1: pull each arm once
        else:
            arm = -1
            if forced and cmin <= limit_end:  # Agent 2, Lines 5-6: N_a <= log t^4 in round t + 1
                limit = 4.0 * math.log(t + 1.0)
                if cmin <= limit:
                    for a in range(n):
                        if counts[a] <= limit:
                            arm = a
                            break
            if arm < 0:
                # ldpcode.kit.certified_argmax, written out (as in heterogeneous_chunk): as a call, inlined or not,
                # it ran 1.5-2 times slower here (the kit's docstring)
                if leader >= 0 and means[leader] + g_lo * widths[leader] > rival:
                    arm = leader
                else:
                    g = sqrt_log(t)
                    if leader >= 0 and means[leader] + g * widths[leader] > rival:
                        arm = leader
                    else:
                        leader, rival = leader_scan(means, widths, counts, g, g_end)
                        arm = leader
                    g_lo = g
        if arm != leader:
            leader = -1  # another arm's index moves: the certificate is void
        r = reward_from_draw(families[arm], params[arm, 0], params[arm, 1], reward_draws[s])
        x = mech.respond(mech_code, use_sigmoid, r, noise_draws[s], laplace_scale, exp_eps)
        old = counts[arm]
        counts[arm] += 1
        if old == cmin:
            cmin = counts.min()
        sums[arm] += x
        means[arm] = sums[arm] / counts[arm]
        widths[arm] = c / math.sqrt(counts[arm])
        t += 1
        while ci < checkpoints.shape[0] and checkpoints[ci] == t:
            counts_out[ci, :] = counts
            ci += 1
    return t, ci
