r"""The bandit algorithms of Ren et al. (2020), each a small object with a compiled step kernel.

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
import warnings
from dataclasses import dataclass

import numpy as np
from numba import njit

from . import mechanisms as mech
from ._validate import check_choice, check_epsilon
from .engine import ArmedPolicy, check_bounded, pulls_cost, refuse_privacy_levels, run_in_chunks
from .global_policies import GLOBAL_POLICIES, make_global_policy
from .instances import PrivacyLevels, reward_from_draw
from .reductions.policy import ONE_POINT_POLICIES, build_one_point
from .rng import run_streams

_USE_SIGMOID = "; use its Sigmoid version {name}S"


@dataclass(frozen=True)
class IndexPolicy(ArmedPolicy):
    """A UCB policy on the responses of a curator (or on raw rewards when ``curator`` is None)."""

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

    # --- the engine protocol (ldpcode.engine) ---------------------------------------------------------------
    @property
    def label(self) -> float:
        return self.epsilon

    def check_environment(self, instance, privacy_levels) -> None:
        refuse_privacy_levels(self, privacy_levels)
        check_bounded(
            self, instance, f" but instance {instance.name!r} is unbounded" + _USE_SIGMOID.format(name=self.name)
        )

    def cost(self, instance, horizon: int, runs: int, n_checkpoints: int, workers: int):
        K = instance.n_arms
        return pulls_cost("pulls of an index policy", 60 + 3 * K, K, horizon, runs, n_checkpoints, workers)

    def run_one(self, instance, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        """One run with the compiled kernel; returns (the counts at the checkpoints, shape (C, arms), None).
        ``cancel`` is checked before each chunk of ``CHUNK`` pulls."""
        reward_rng, noise_rng = run_streams(seed_seq)
        n = instance.n_arms
        counts = np.zeros(n, dtype=np.int64)
        sums = np.zeros(n)
        means = np.zeros(n)
        widths = np.zeros(n)
        counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
        code, sig, scale, exp_eps = self.kernel_args()

        def step(t, ci, m):
            rd = instance.draw_stream(reward_rng, m)
            nd = self.draw_noise(noise_rng, m)
            return index_policy_chunk(
                t,
                horizon,
                instance.families,
                instance.params,
                rd,
                nd,
                code,
                sig,
                scale,
                exp_eps,
                self.index_constant,
                self.forced_exploration,
                counts,
                sums,
                means,
                widths,
                checkpoints,
                ci,
                counts_out,
            )

        run_in_chunks(horizon, cancel, step)
        return counts_out, None

    def __repr__(self) -> str:
        eps = "" if self.curator is None else f", epsilon={self.epsilon:g}"
        return f"Policy({self.name!r}{eps})"


_SPECS = {
    # name: (curator class or None, sigmoid, forced exploration)
    "UCB1": (None, False, False),
    "UCB1-S": (None, True, False),
    "LDP-UCB-L": (mech.CTL, False, True),
    "LDP-UCB-B": (mech.CTB, False, False),
    "LDP-UCB-LS": (mech.CTLS, True, True),
    "LDP-UCB-BS": (mech.CTBS, True, False),
}


def list_policies() -> list[str]:
    """The names :func:`make_policy` accepts."""
    return sorted(_SPECS) + sorted(_HE_SPECS) + sorted(GLOBAL_POLICIES) + sorted(ONE_POINT_POLICIES)


def _no_options(name: str, options: dict) -> None:
    for opt, val in options.items():
        if val is not None:
            raise ValueError(
                f"policy {name!r} takes no {opt} (only the global-DP policies {', '.join(GLOBAL_POLICIES)} have options)"
            )


def _build_global(name, epsilon, epsilon_min, options):
    if epsilon_min is not None:
        raise ValueError(f"policy {name!r} takes no epsilon_min (one epsilon for the whole action sequence)")
    return make_global_policy(name, epsilon, options)


def _build_heterogeneous(name, epsilon, epsilon_min, options):
    _no_options(name, options)
    if epsilon is not None:
        raise ValueError(f"policy {name!r} takes epsilon_min, not epsilon: the users bring their own levels")
    if epsilon_min is None:
        raise ValueError(f"policy {name!r} needs epsilon_min, a finite number > 0")
    curator_cls, sigmoid, forced = _HE_SPECS[name]
    eps_min = check_epsilon(epsilon_min, "epsilon_min")
    if forced and eps_min > HELDP_L_MAX_EPSILON_MIN:
        raise ValueError(
            f"epsilon_min must be <= {HELDP_L_MAX_EPSILON_MIN:g} for {name!r}, got {eps_min!r}: its "
            f"forced-pull test compares A_a with eps_min^-2 log t^4, and eps_min^-2 underflows to 0 "
            f"beyond (at 1e160 the agent pulled arm 1 forever); such a level is no privacy at all"
        )
    return HeterogeneousPolicy(name, curator_cls, sigmoid, forced, eps_min)


def _build_index(name, epsilon, epsilon_min, options):
    _no_options(name, options)
    if epsilon_min is not None:
        raise ValueError(f"policy {name!r} is homogeneous and takes no epsilon_min")
    curator_cls, sigmoid, forced = _SPECS[name]
    if curator_cls is None:
        if epsilon is not None:
            raise ValueError(f"policy {name!r} is not private and takes no epsilon, got epsilon={epsilon!r}")
        return IndexPolicy(name, None, sigmoid, forced)
    if epsilon is None:
        raise ValueError(f"policy {name!r} needs epsilon, a finite number > 0")
    return IndexPolicy(name, curator_cls(check_epsilon(epsilon)), sigmoid, forced)


def make_policy(
    name: str,
    epsilon: float | None = None,
    *,
    epsilon_min: float | None = None,
    alpha: float | None = None,
    beta: float | None = None,
    gamma: float | None = None,
    delta: float | None = None,
):
    """A policy by the paper's name.

    The homogeneous private policies need ``epsilon`` > 0 and UCB1 takes none; the heterogeneous
    HeLDP-UCB-* take ``epsilon_min`` > 0, the threshold below which responses are discarded (the users'
    levels are part of the environment: ``simulate(..., privacy_levels=...)``). Privacy levels are at least
    :data:`~ldpcode._validate.EPSILON_FLOOR` (1e-9: below it indexes stop being finite numbers) and may be
    as large as any finite double (the curators' probabilities take their limits, with no overflow:
    as epsilon grows each agent becomes its non-private baseline UCB1 or UCB1-S); HeLDP-UCB-L's and -LS's
    ``epsilon_min`` is at most :data:`HELDP_L_MAX_EPSILON_MIN` (1e150).

    The ε-global DP policies of Azize and Basu (2022), :mod:`ldpcode.global_policies`: ``AdaP-UCB`` and
    ``AdaP-KLUCB`` (``alpha``, default 3.1; alpha <= 3 warns that Theorems 7-8 no longer apply), ``DP-SE``
    (``beta``, default 1/T), ``DP-UCB`` (``gamma``, default 0.1), and the non-private ``KL-UCB``.

    The (ε, δ)-LDP one-point reduction of Zheng et al. (2020), Algorithm 1, around UCB1: ``OnePoint-UCB``
    (:class:`ldpcode.reductions.OnePointUCB`) needs ``epsilon`` and ``delta``, a probability in (0, 1); no
    other policy takes ``delta``.

    The names are the keys of :data:`REGISTRY`, each with the builder of its family. Adding a policy is one
    class (implementing the engine protocol, :mod:`ldpcode.engine`) and one registry line: in ``_SPECS``
    (an index policy on a curator), ``_HE_SPECS`` (heterogeneous), ``ldpcode.global_policies.REGISTRY`` or
    ``ldpcode.reductions.policy.ONE_POINT_POLICIES``.
    """
    check_choice("policy", name, REGISTRY)
    options = {"alpha": alpha, "beta": beta, "gamma": gamma}
    if name in ONE_POINT_POLICIES:
        options["delta"] = delta
    elif delta is not None:
        raise ValueError(
            f"policy {name!r} takes no delta (only the (ε, δ)-LDP {', '.join(ONE_POINT_POLICIES)} does), "
            f"got delta={delta!r}"
        )
    return REGISTRY[name](name, epsilon, epsilon_min, options)


@njit(cache=True, nogil=True)
def index_policy_chunk(
    t,
    horizon,
    families,
    params,
    reward_draws,
    noise_draws,
    mech_code,
    use_sigmoid,
    laplace_scale,
    exp_eps,
    c,
    forced,
    counts,
    sums,
    means,
    widths,
    checkpoints,
    ci,
    counts_out,
):
    """Advance one run of an index policy by ``len(reward_draws)`` steps (or to ``horizon``).

    State (updated in place): ``counts`` N_a, ``sums`` of responses, ``means`` = sums/counts and
    ``widths`` b_a = c/sqrt(N_a). ``checkpoints`` are pull counts at which ``counts`` is copied into
    ``counts_out[ci]``. Returns the new (t, ci).
    """
    n = counts.shape[0]
    steps = min(reward_draws.shape[0], horizon - t)
    # Two exact shortcuts (the pulls are bit-for-bit those of the plain loop; tests/policies/test_engine.py):
    # log(t + 1) of this round is log t of the next, so one log per pull; and the forced-pull scan
    # runs only when the smallest count can be at the limit (counts only grow, so the minimum is
    # re-read only when the arm that held it is pulled).
    cmin = counts.min()
    log_t = math.log(t) if t > 0 else 0.0
    for s in range(steps):
        log_next = math.log(t + 1.0)
        if t < n:
            arm = t  # Line 1: pull each arm once
        else:
            arm = -1
            if forced:  # Agent 2, Lines 5-6: N_a <= log t^4 in round t + 1
                limit = 4.0 * log_next
                if cmin <= limit:
                    for a in range(n):
                        if counts[a] <= limit:
                            arm = a
                            break
            if arm < 0:
                g = math.sqrt(log_t)
                best = -np.inf
                for a in range(n):
                    u = means[a] + g * widths[a]
                    if u > best:
                        best = u
                        arm = a
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
        log_t = log_next
        while ci < checkpoints.shape[0] and checkpoints[ci] == t:
            counts_out[ci, :] = counts
            ci += 1
    return t, ci


# ---------------------------------------------------------------------------------------------------
# Heterogeneous privacy levels (Ren et al., extended version, Agents 2 and 4)
# ---------------------------------------------------------------------------------------------------


class UniformPlayWarning(UserWarning):
    """HeLDP-UCB-L / -LS would spend the whole horizon in forced pulls, playing the arms in turn: the users' levels
    are far above epsilon_min, or most users are discarded (:class:`HeterogeneousPolicy`, "Uniform play")."""


@dataclass(frozen=True)
class HeterogeneousPolicy(ArmedPolicy):
    r"""HeLDP-UCB-L / -B (and -LS / -BS): UCB on responses (eps_t, x_t) kept only when eps_t >= eps_min.

    Per arm: N_a kept responses, s_a their sum (of x_t for CTL, of g(x_t; eps_t) for CTB) and
    A_a = sum eps_t^{-2} (CTL) or B_a = sum ((e^eps_t+1)/(e^eps_t-1))^2 (CTB). Indexes, with log t^4 = 4 log t:

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
    doing). At T = 10^6 and 20 arms it takes :math:`\rho \gtrsim 900`, levels some 30 times :math:`\epsilon_{\min}`;
    the book's settings have :math:`\rho \le 14`.

    :math:`u_a = \infty` while :math:`N_a = 0`. As for the homogeneous policies the index is evaluated
    as :math:`\hat\mu_a + \sqrt{\log t}\,w_a`, with t the number of pulls so far, and the forced-pull test
    uses log(t + 1), the round being played, exactly as Agent 2 of the first paper. With eps_t = eps =
    eps_min for every user both reduce to LDP-UCB-L and LDP-UCB-B (the tests check it).
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
        check_bounded(
            self, instance, f" but instance {instance.name!r} is unbounded" + _USE_SIGMOID.format(name=self.name)
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
        counts = np.zeros(n, dtype=np.int64)
        kept = np.zeros(n, dtype=np.int64)
        sums, acc, means, widths = (np.zeros(n) for _ in range(4))
        counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)

        def step(t, ci, m):
            rd = instance.draw_stream(reward_rng, m)
            nd = self.draw_noise(noise_rng, m)
            ed = privacy_levels.sample(level_rng, m)
            return heterogeneous_chunk(
                t,
                horizon,
                instance.families,
                instance.params,
                rd,
                nd,
                ed,
                self.mechanism_code,
                self.use_sigmoid,
                self.epsilon_min,
                self.forced_exploration,
                counts,
                kept,
                sums,
                acc,
                means,
                widths,
                checkpoints,
                ci,
                counts_out,
            )

        run_in_chunks(horizon, cancel, step)
        return counts_out, None

    def __repr__(self) -> str:
        return f"Policy({self.name!r}, epsilon_min={self.epsilon_min:g})"


HELDP_L_MAX_EPSILON_MIN = 1e150
"""The largest epsilon_min of HeLDP-UCB-L / -LS: eps_min^-2 = 1e-300 is still a normal double (it underflows
from about 1.3e154, and then the forced-pull limit is 0, met by A_a = 0 forever)."""

_HE_SPECS = {
    "HeLDP-UCB-L": (mech.CTL, False, True),
    "HeLDP-UCB-B": (mech.CTB, False, False),
    "HeLDP-UCB-LS": (mech.CTLS, True, True),
    "HeLDP-UCB-BS": (mech.CTBS, True, False),
}

REGISTRY = {
    **dict.fromkeys(_SPECS, _build_index),
    **dict.fromkeys(_HE_SPECS, _build_heterogeneous),
    **dict.fromkeys(GLOBAL_POLICIES, _build_global),
    **dict.fromkeys(ONE_POINT_POLICIES, build_one_point),
}
"""Every policy :func:`make_policy` builds, by name, with the builder of its family."""


@njit(cache=True, nogil=True)
def heterogeneous_chunk(
    t,
    horizon,
    families,
    params,
    reward_draws,
    noise_draws,
    eps_draws,
    mech_code,
    use_sigmoid,
    eps_min,
    forced,
    counts,
    kept,
    sums,
    acc,
    means,
    widths,
    checkpoints,
    ci,
    counts_out,
):
    """Advance one run of a HeLDP policy; like :func:`index_policy_chunk` with the users' levels
    ``eps_draws``. ``counts`` are pulls (for the regret), ``kept`` the responses kept (N_a), ``acc`` A_a
    or B_a. Returns the new (t, ci)."""
    n = counts.shape[0]
    steps = min(reward_draws.shape[0], horizon - t)
    force_factor = 4.0 / (eps_min * eps_min)
    # Exact shortcuts, as in index_policy_chunk: one log per pull, the forced-pull scan only when the
    # smallest A_a can be at the limit, and the per-level constants (1/eps_t, e^eps_t, k(eps_t))
    # recomputed only when eps_t differs from the previous user's (same floats, fewer exp/tanh calls).
    amin = np.inf
    for a in range(n):
        amin = min(amin, acc[a])
    log_t = math.log(t) if t > 0 else 0.0
    last_e = -1.0
    e_scale = e_exp = e_k = e_inc = 0.0
    for s in range(steps):
        arm = -1
        log_next = math.log(t + 1.0)
        if forced:  # Agent 2, Line 4: A_a <= eps_min^-2 log t^4 in round t = (pulls so far) + 1
            # the most under-explored arm, the smallest A_a (ties: the lowest-numbered); see the class docstring
            if amin <= force_factor * log_next:
                for a in range(n):
                    if acc[a] == amin:
                        arm = a
                        break
        if arm < 0:
            g = math.sqrt(log_t) if t > 1 else 0.0
            best = -np.inf
            for a in range(n):
                u = np.inf if kept[a] == 0 else means[a] + g * widths[a]
                if u > best:
                    best = u
                    arm = a
        counts[arm] += 1
        e = eps_draws[s]
        if e >= eps_min:  # otherwise the response is discarded (Agent 2 Line 17, Agent 4 Line 13)
            if e != last_e:
                last_e = e
                if mech_code == mech.Mechanism.LAPLACE:
                    e_scale = 1.0 / e
                    e_inc = 1.0 / (e * e)
                else:
                    e_exp = math.exp(e)
                    e_k = mech.bernoulli_scale(e)
                    e_inc = e_k * e_k
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
        log_t = log_next
        while ci < checkpoints.shape[0] and checkpoints[ci] == t:
            counts_out[ci, :] = counts
            ci += 1
    return t, ci
