r"""The heterogeneous-privacy policies of Ren et al. (2020, extended version): HeLDP-UCB-L, -B, -LS and -BS, one
class and one compiled step kernel. Each user brings its own level eps_t; responses below ``epsilon_min`` are
discarded (:class:`HeterogeneousPolicy` states the indexes)."""

from __future__ import annotations

import math
import warnings
from collections import namedtuple
from dataclasses import dataclass

import numpy as np
from numba import njit

from .. import mechanisms as mech
from .._validate import check_epsilon
from ..engine import ArmedPolicy, check_bounded, pulls_cost, run_in_chunks
from ..instances import PrivacyLevels, reward_from_draw
from ..rng import run_streams
from .index import USE_SIGMOID, CountsRecorder, no_options
from ..kit import leader_index, leader_scan, sqrt_log, window_end


# The argument groups of heterogeneous_chunk (as index_policy_chunk's; its recorder is a CountsRecorder):
#: The pre-drawn random inputs of one chunk: the reward draws, the curator's noise and the users' levels eps_t.
HeterogeneousDraws = namedtuple("HeterogeneousDraws", ["rewards", "noise", "levels"])
#: The constants of a run: the curator's code, Sigmoid or not, the threshold epsilon_min, forced pulls or not, and the
#: number of the users' distinct levels whose constants the kernel keeps (a discrete law's; 0 for a continuous one).
HeterogeneousTuning = namedtuple(
    "HeterogeneousTuning", ["mech_code", "use_sigmoid", "eps_min", "forced", "level_cache"], defaults=(0,)
)
#: the most distinct levels whose constants :func:`heterogeneous_chunk` keeps (a discrete law with more keeps none)
LEVEL_CACHE = 16
#: The learner's state, updated in place: pulls, kept responses N_a, their sum, A_a or B_a, means, widths.
HeterogeneousState = namedtuple("HeterogeneousState", ["counts", "kept", "sums", "acc", "means", "widths"])


class UniformPlayWarning(UserWarning):
    """HeLDP-UCB-L / -LS would spend the whole horizon in forced pulls, playing the arms in turn: the users' levels
    are far above epsilon_min, or most users are discarded (:class:`HeterogeneousPolicy`, "Uniform play")."""


@dataclass(frozen=True)
class HeterogeneousPolicy(ArmedPolicy):
    r"""HeLDP-UCB-L / -B (and -LS / -BS): UCB on responses :math:`(\epsilon_t, x_t)` kept only when
    :math:`\epsilon_t \ge \epsilon_{\min}`.

    Per arm: :math:`N_a` kept responses, :math:`s_a` their sum (of :math:`x_t` for CTL, of :math:`g(x_t;\epsilon_t)`
    for CTB) and, over the same kept responses, :math:`A_a = \sum \epsilon_t^{-2}` (CTL) or
    :math:`B_a = \sum \big((e^{\epsilon_t}+1)/(e^{\epsilon_t}-1)\big)^2` (CTB). Indexes, with
    :math:`\log t^4 = 4\log t`:

    * HeLDP-UCB-L (Agent 2, Line 14): :math:`s_a/N_a + \sqrt{\log t^4/(2N_a)} + \sqrt{8A_a\log t^4/N_a^2}`,
      with forced pulls while some :math:`A_a \le \epsilon_{\min}^{-2}\log t^4`. Line 4 does not say which
      such arm; the book forces the one with the smallest :math:`A_a` (ties: the lowest-numbered), the most
      under-explored. Forcing the lowest-numbered one instead made the result depend on the order of the
      arms: with every user at :math:`\epsilon_t \gg \epsilon_{\min}`, A_a grows by only
      :math:`\epsilon_t^{-2}` a pull, the forced phase lasts :math:`(\epsilon_t/\epsilon_{\min})^2 4\log t`
      pulls an arm, and whichever arm came first absorbed it. (LDP-UCB-L's forced phase, 4 log t pulls an arm
      whatever eps, is short; it keeps the paper's "an arm" read as the lowest-numbered.)
    * HeLDP-UCB-B (Agent 4, Line 11): :math:`s_a/N_a + \sqrt{B_a\log t^4/(2N_a^2)}`;

    **Uniform play.** A pull adds :math:`\epsilon_t^{-2}` to :math:`A_a` only if :math:`\epsilon_t \ge
    \epsilon_{\min}`: :math:`m = E[\epsilon_t^{-2} 1\{\epsilon_t \ge \epsilon_{\min}\}] = p_0\alpha_0` a pull on
    average, :math:`\rho = \epsilon_{\min}^{-2}/m \ge 1` times less than if every user were at
    :math:`\epsilon_{\min}` (:math:`\rho = 1/(p_0\,\epsilon_{\min}^2\alpha_0)`: the discarded users times the kept
    levels above :math:`\epsilon_{\min}`; :math:`(\epsilon/\epsilon_{\min})^2` for a constant level). Forcing the
    smallest :math:`A_a` keeps the arms level, :math:`A_a \approx tm/n` after t forced rounds, so round T is still
    forced when :math:`(T-1)m/n \le 4\epsilon_{\min}^{-2}\log T`; as :math:`t/\log(t+1)` increases, every round
    is then forced: the arms are played in turn, with linear regret. HeLDP-UCB-L and -LS warn
    (:class:`UniformPlayWarning`; once a call, in run 0 before its first pull) when

    .. math:: 4n\log T \;<\; T - 1 \;\le\; 4n\rho\log T,

    the whole horizon forced (:meth:`forced_rounds`: :math:`4n\rho\log T`), which it would not be with every user
    at :math:`\epsilon_{\min}` (left: a horizon too short even for LDP-UCB-L's forced phase is not the levels'
    doing). At T = 10⁶ and 20 arms it takes :math:`\rho \gtrsim 900`, levels some 30 times :math:`\epsilon_{\min}`;
    the book's settings have :math:`\rho \le 14`.

    :math:`u_a = \infty` while :math:`N_a = 0`, and ties go to the lowest-numbered arm: until every arm has a kept
    response, HeLDP-UCB-B pulls the first unobserved arm again and again (each pull is kept with probability
    :math:`p_0`), so it spends about :math:`1/p_0` rounds on each arm in turn. The book's instances list their best
    arm first, so when kept responses are rare this phase is cheap for the wrong reason: at T = 1000 and
    :math:`p_0 = 0.0013` (:math:`\epsilon_{\min} = 4` on the Gaussian levels) two runs in four never left arm 0 and
    had regret 0. The notebooks ask at least 10 kept responses an arm in expectation where they compare thresholds
    (``chapters/heldp/choosing_epsilon_min``); at the book's thresholds (:math:`p_0 \ge 0.13`) the phase lasts about
    :math:`n/p_0 \le 150` rounds, of horizons from 2·10⁵ on. As for the homogeneous policies the index is evaluated
    as :math:`\hat\mu_a + \sqrt{\log t}\,w_a`, with t the number of pulls so far, and the forced-pull test uses
    log(t + 1), the round being played, exactly as Agent 2 of the first paper. With
    :math:`\epsilon_t = \epsilon = \epsilon_{\min}` for every user both reduce to LDP-UCB-L and LDP-UCB-B (the
    tests check it).
    """

    name: str
    curator: type
    use_sigmoid: bool
    forced_exploration: bool
    epsilon_min: float

    @property
    def mechanism_code(self) -> int:
        return self.curator.code

    @property
    def needs_bounded_rewards(self) -> bool:
        return not self.use_sigmoid

    @property
    def epsilon(self) -> float:
        return math.nan  # heterogeneous: no single level

    def draw_noise(self, rng: np.random.Generator, size) -> np.ndarray:
        return mech.draw_noise(self.mechanism_code, rng, size)

    def kernel_tuning(self, privacy_levels=None) -> HeterogeneousTuning:
        """The :data:`HeterogeneousTuning` of :func:`heterogeneous_chunk`, the code a plain int (as
        :meth:`ldpcode.policies.index.IndexPolicy.kernel_tuning`); with ``privacy_levels`` a discrete law of at most
        :data:`LEVEL_CACHE` levels, the kernel keeps each level's constants once computed."""
        values = getattr(privacy_levels, "values", None)
        cache = 0 if values is None or len(values) > LEVEL_CACHE else len(values)
        return HeterogeneousTuning(
            int(self.mechanism_code), self.use_sigmoid, self.epsilon_min, self.forced_exploration, cache
        )

    # --- the engine protocol (ldpcode.engine) ---------------------------------------------------------------
    @property
    def label(self) -> float:
        return self.epsilon_min

    def check_environment(self, instance, privacy_levels) -> None:
        if not isinstance(privacy_levels, PrivacyLevels):
            raise ValueError(
                f"policy {self.name!r} needs privacy_levels=make_privacy_levels(...), the users' "
                f"distribution of eps_t; got {privacy_levels!r}"
            )
        if privacy_levels.p_at_least(self.epsilon_min) <= 0:
            raise ValueError(
                f"no user of {privacy_levels.name!r} ever reaches epsilon_min={self.epsilon_min:g}: every "
                f"response would be discarded and the agent could never learn; lower epsilon_min"
            )
        top = _top_level(privacy_levels) if self.forced_exploration else 0.0
        if top > HELDP_L_MAX_EPSILON_MIN:
            raise ValueError(
                f"the users' levels must be <= {HELDP_L_MAX_EPSILON_MIN:g} for {self.name!r}, but "
                f"{privacy_levels.name!r} reaches {top:g}: its forced-pull test adds eps_t^-2 to A_a, and eps_t^-2 "
                f"underflows to 0 beyond (with every user at 1e155 the agent pulled its first arm forever: regret 0); such a "
                f"level is no privacy at all"
            )
        check_bounded(
            self, instance, f" but instance {instance.name!r} is unbounded" + USE_SIGMOID.format(name=self.name)
        )

    def cost(self, instance, horizon: int, runs: int, n_checkpoints: int, workers: int):
        K = instance.n_arms
        return pulls_cost("pulls of a heterogeneous policy", 100 + 3 * K, K, horizon, runs, n_checkpoints, workers)

    def forced_rounds(self, n_arms: int, privacy_levels, horizon: int) -> float:
        """The expected number of forced pulls a run of ``horizon`` rounds needs, :math:`4n\\rho\\log T` (class
        docstring, "Uniform play"); 0 for the agents without forced pulls (HeLDP-UCB-B, -BS)."""
        if not self.forced_exploration:
            return 0.0
        m = privacy_levels.expect(lambda e: np.asarray(e, dtype=float) ** -2.0, self.epsilon_min)
        return 4.0 * n_arms * math.log(horizon) * (self.epsilon_min**-2.0 / m if m > 0 else math.inf)

    def _warn_if_uniform(self, n_arms: int, privacy_levels, horizon: int) -> None:
        forced, base = self.forced_rounds(n_arms, privacy_levels, horizon), 4.0 * n_arms * math.log(max(horizon, 2))
        if base < horizon - 1 <= forced:
            p0 = privacy_levels.p_at_least(self.epsilon_min)
            warnings.warn(
                f"{self.name} with epsilon_min={self.epsilon_min:g} on levels {privacy_levels.name!r} plays the "
                f"{n_arms} arms in turn for the whole horizon T={horizon:,}: its forced pulls (Agent 2, Line 4: while "
                f"some A_a <= eps_min^-2 log t^4) last about {forced:.3g} rounds, as A_a grows {forced / base:.3g} "
                f"times slower than if every user were at epsilon_min (a factor {1 / p0:.3g} from the users discarded "
                f"below it, times {forced / base * p0:.3g} from the kept users' levels above it). Raise epsilon_min "
                "towards the users' levels, or use HeLDP-UCB-B (no forced pulls)",
                UniformPlayWarning,
                stacklevel=3,
            )

    def run_one(self, instance, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        """One run; the users' levels come from a third stream. Returns (counts (C, arms), None). Run 0 of a call
        (spawn key ending in 0, as :func:`ldpcode.engine.run` and :mod:`ldpcode.sweep` number the runs) first
        warns if the forced pulls would make the whole run uniform (class docstring)."""
        if self.forced_exploration and tuple(seed_seq.spawn_key[-1:]) in ((), (0,)):
            self._warn_if_uniform(instance.n_arms, privacy_levels, horizon)
        reward_rng, noise_rng, level_rng = run_streams(seed_seq, 3)
        n = instance.n_arms
        state = HeterogeneousState(
            np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), *(np.zeros(n) for _ in range(4))
        )
        counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
        recorder = CountsRecorder(checkpoints, counts_out)
        tuning = self.kernel_tuning(privacy_levels)
        only = privacy_levels.only_level  # one level: the levels' own stream need not be drawn

        def step(t, ci, m):
            rd = instance.draw_stream(reward_rng, m)
            nd = self.draw_noise(noise_rng, m)
            ed = privacy_levels.sample(level_rng, m) if only is None else np.full(m, only)
            draws = HeterogeneousDraws(rd, nd, ed)
            return heterogeneous_chunk(
                t, horizon, instance.families, instance.params, draws, tuning, state, recorder, ci
            )

        run_in_chunks(horizon, cancel, step)
        return counts_out, None

    def __repr__(self) -> str:
        return f"Policy({self.name!r}, epsilon_min={self.epsilon_min:g})"


HELDP_L_MAX_EPSILON_MIN = 1e150
"""The largest epsilon_min of HeLDP-UCB-L / -LS, and the largest users' level they accept: ε⁻² = 1e-300 is still a
normal double (it underflows from about 1.3e154: then the forced-pull limit is 0, met by A_a = 0 forever, and a
kept user adds 0 to A_a, so the agent forces the same arm forever)."""


def _top_level(levels) -> float:
    """The largest level a user of ``levels`` may bring: the largest value of positive probability of a discrete
    law, else ``levels.sup`` (a clipped Gaussian's upper bound; a user sampler's largest of its fixed sample)."""
    if levels.values is not None and levels.probs is not None:
        return float(levels.values[levels.probs > 0].max())
    return float(levels.sup)


HE_SPECS = {
    "HeLDP-UCB-L": (mech.CTL, False, True),
    "HeLDP-UCB-B": (mech.CTB, False, False),
    "HeLDP-UCB-LS": (mech.CTLS, True, True),
    "HeLDP-UCB-BS": (mech.CTBS, True, False),
}


def build_heterogeneous(name, epsilon, epsilon_min, options):
    """The :class:`HeterogeneousPolicy` ``name`` (HeLDP-UCB-L, -B, -LS or -BS: a key of ``HE_SPECS``) for
    :func:`ldpcode.policies.make_policy`, discarding the users below ``epsilon_min``. Raises ValueError when an
    option is given (:func:`~ldpcode.policies.index.no_options`), when ``epsilon`` is given (the users bring their
    own levels), when ``epsilon_min`` is missing or not a finite number ≥ :data:`ldpcode.EPSILON_FLOOR` (TypeError
    when it is not a real number), or, for HeLDP-UCB-L and -LS, when it exceeds :data:`HELDP_L_MAX_EPSILON_MIN`."""
    no_options(name, options)
    if epsilon is not None:
        raise ValueError(f"policy {name!r} takes epsilon_min, not epsilon: the users bring their own levels")
    if epsilon_min is None:
        raise ValueError(f"policy {name!r} needs epsilon_min, a finite number > 0")
    curator_cls, sigmoid, forced = HE_SPECS[name]
    eps_min = check_epsilon(epsilon_min, "epsilon_min")
    if forced and eps_min > HELDP_L_MAX_EPSILON_MIN:
        raise ValueError(
            f"epsilon_min must be <= {HELDP_L_MAX_EPSILON_MIN:g} for {name!r}, got {eps_min!r}: its "
            f"forced-pull test compares A_a with eps_min^-2 log t^4, and eps_min^-2 underflows to 0 "
            f"beyond (at 1e160 the agent pulled arm 1 forever); such a level is no privacy at all"
        )
    return HeterogeneousPolicy(name, curator_cls, sigmoid, forced, eps_min)


@njit(cache=True, nogil=True)
def heterogeneous_chunk(t, horizon, families, params, draws, tuning, state, recorder, ci):
    """Advance one run of a HeLDP policy; like :func:`index_policy_chunk` with the users' levels
    ``draws.levels`` (``draws`` a :data:`HeterogeneousDraws`, ``tuning`` a :data:`HeterogeneousTuning`,
    ``recorder`` a :data:`~ldpcode.policies.index.CountsRecorder`). In ``state`` (a
    :data:`HeterogeneousState`, updated in place) ``counts`` are pulls (for the regret), ``kept`` the
    responses kept (N_a), ``acc`` A_a or B_a. Returns the new (t, ci)."""
    reward_draws, noise_draws, eps_draws = draws.rewards, draws.noise, draws.levels
    mech_code, use_sigmoid, eps_min, forced = tuning.mech_code, tuning.use_sigmoid, tuning.eps_min, tuning.forced
    counts, kept, sums, acc = state.counts, state.kept, state.sums, state.acc
    means, widths = state.means, state.widths
    checkpoints, counts_out = recorder.checkpoints, recorder.counts_out
    n = counts.shape[0]
    steps = min(reward_draws.shape[0], horizon - t)
    force_factor = 4.0 / (eps_min * eps_min)
    # Exact shortcuts, as in index_policy_chunk: the certified argmax (ldpcode.kit), the forced-pull
    # test skipped while the smallest A_a is above the window's last limit and otherwise scanned only when
    # it can be at the limit, and the per-level constants (1/eps_t, e^eps_t, k(eps_t)) recomputed only when
    # eps_t differs from the previous user's and, for a discrete law (tuning.level_cache levels), computed once a
    # level and kept (the same floats, fewer exp/tanh calls).
    amin = np.inf
    for a in range(n):
        amin = min(amin, acc[a])
    last_e = -1.0
    e_scale = e_exp = e_k = e_inc = 0.0
    n_cache = tuning.level_cache
    kept_e, kept_x, kept_k, kept_inc = np.empty(n_cache), np.empty(n_cache), np.empty(n_cache), np.empty(n_cache)
    filled = 0
    leader = -1  # the certified leader (-1: none); certified while its index at g_lo exceeds rival
    rival = np.inf
    g_lo = 0.0
    t_end = -1  # the window's last round, its g(t_end) and forced-pull limit
    g_end = limit_end = 0.0
    for s in range(steps):
        if t > t_end:
            t_end = window_end(t)
            g_end = sqrt_log(t_end)
            limit_end = force_factor * math.log(t_end + 1.0)
            leader = -1
        arm = -1
        # Agent 2, Line 4: A_a <= eps_min^-2 log t^4 in round t = (pulls so far) + 1; the most under-explored
        # arm, the smallest A_a (ties: the lowest-numbered); see the class docstring
        if forced and amin <= limit_end:
            if amin <= force_factor * math.log(t + 1.0):
                for a in range(n):
                    if acc[a] == amin:
                        arm = a
                        break
        if arm < 0:
            # ldpcode.kit.certified_argmax, written out (as in index_policy_chunk): as a call, inlined or not,
            # it ran 1.5-2 times slower here (the kit's docstring)
            if leader >= 0 and leader_index(means, widths, kept, leader, g_lo) > rival:
                arm = leader
            else:
                g = sqrt_log(t)
                if leader >= 0 and leader_index(means, widths, kept, leader, g) > rival:
                    arm = leader
                else:
                    leader, rival = leader_scan(means, widths, kept, g, g_end)
                    arm = leader
                g_lo = g
        if arm != leader:
            leader = -1  # another arm's index moves: the certificate is void
        counts[arm] += 1
        e = eps_draws[s]
        if e >= eps_min:  # otherwise the response is discarded (Agent 2 Line 17, Agent 4 Line 13)
            if e != last_e:
                last_e = e
                j = -1
                for i in range(filled):
                    if kept_e[i] == e:
                        j = i
                        break
                if j >= 0:
                    e_scale = e_exp = kept_x[j]
                    e_k, e_inc = kept_k[j], kept_inc[j]
                else:
                    if mech_code == mech.Mechanism.LAPLACE:
                        e_scale = 1.0 / e
                        e_inc = 1.0 / (e * e)
                        e_x = e_scale
                    else:
                        e_exp = math.exp(e)
                        e_k = mech.bernoulli_scale(e)
                        e_inc = e_k * e_k
                        e_x = e_exp
                    if filled < n_cache:
                        kept_e[filled], kept_x[filled], kept_k[filled], kept_inc[filled] = e, e_x, e_k, e_inc
                        filled += 1
            r = reward_from_draw(families[arm], params[arm, 0], params[arm, 1], reward_draws[s])
            if mech_code == mech.Mechanism.LAPLACE:
                x = mech.respond(mech_code, use_sigmoid, r, noise_draws[s], e_scale, 0.0)
            else:
                x = mech.unbias_scaled(mech.respond(mech_code, use_sigmoid, r, noise_draws[s], 0.0, e_exp), e_k)
            old = acc[arm]
            acc[arm] += e_inc
            if old == amin:
                amin = np.inf
                for a in range(n):
                    amin = min(amin, acc[a])
            kept[arm] += 1
            sums[arm] += x
            means[arm] = sums[arm] / kept[arm]
            if mech_code == mech.Mechanism.LAPLACE:
                widths[arm] = math.sqrt(2.0 / kept[arm]) + math.sqrt(32.0 * acc[arm]) / kept[arm]
            else:
                widths[arm] = math.sqrt(2.0 * acc[arm]) / kept[arm]
        t += 1
        while ci < checkpoints.shape[0] and checkpoints[ci] == t:
            counts_out[ci, :] = counts
            ci += 1
    return t, ci
