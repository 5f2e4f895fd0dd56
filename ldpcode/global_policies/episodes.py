r"""Algorithm 1 of Azize and Basu (2022), written once, and what every episodic policy shares.

* :class:`Blocks`: a run as consecutive blocks of pulls (an episode of Algorithm 1, an epoch of DP-SE), from
  which the counts at any checkpoint follow exactly, and the number of private releases (Table 1,
  "# Private Means").
* :func:`episode_sum`, :func:`epoch_sums`: the reward sum of an episode or epoch, drawn from its exact law
  (``sampler="exact"``) or one draw per pull (``"stepwise"``, as :mod:`ldpcode.reference`); :data:`SAMPLERS`. Both
  check their arguments; the policies call their unchecked twins :func:`_episode_sum_kernel`, :func:`_epoch_sums_kernel`.
* :class:`_Episodic`: the engine protocol of a policy that advances an episode at a time (its cost, with
  :func:`_episodes_bound`, and ``run_one``; :func:`_run_takes_cancel`).
* :class:`AdaptiveEpisodes`: Algorithm 1 (Lines 3, 5-7): the Laplace mechanism on the mean of an arm's last
  episode (Lemma 1, ε-global DP by Theorem 6), doubling episodes, forgetting; the index is a
  :class:`~ldpcode.global_policies.indexes.PrivateIndex` (eq. (7): AdaP-UCB, eq. (8): AdaP-KLUCB).
  :data:`DEFAULT_ALPHA` = 3.1 (Section 5); :func:`_check_alpha` warns when α <= 3, where Theorems 7 and 8
  no longer apply.
* :func:`noise_free_pulls` (refusing too short a horizon with :class:`HorizonTooShort`): the pulls of
  AdaP-UCB and AdaP-KLUCB with every private mean replaced by the true mean, a model of the index that
  shows the staircase in ε and the shape :math:`\min\{d_{\inf}, C_2\epsilon\Delta_a\}` of Theorem 8.
"""

from __future__ import annotations

import functools
import inspect
import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from .. import instances as ins
from .. import mechanisms as mech
from .._validate import (
    MAX_ALPHA,
    check_bool,
    check_choice,
    check_epsilon,
    check_int,
    check_probability_vector,
    check_real,
    check_rng,
)
from ..limits import MAX_HORIZON
from ..rng import run_streams
from .indexes import KLUCBIndex, PrivateIndex, UCBIndex
from .protocol import _GlobalPolicy

DEFAULT_ALPHA = 3.1  # Section 5: "We set alpha = 3.1 to comply with the regret upper bounds"
SAMPLERS = ("exact", "stepwise")


class TieBreakWarning(UserWarning):
    """AdaP-KLUCB at or below the saturation level of its index: every index is 1 at every decision, so the run
    plays arm 0 throughout and its regret is set by the order of the arms (:meth:`AdaptiveEpisodes.run_one`)."""


# ---------------------------------------------------------------------------------------------------
# What one run produces: blocks of pulls, from which counts at any checkpoint follow exactly
# ---------------------------------------------------------------------------------------------------


@dataclass
class Blocks:
    """A run as consecutive blocks; block b starts after ``start[b]`` pulls and plays ``arms[b]`` round-robin,
    ``length[b]`` pulls in all (truncated at the horizon). Episodes of Algorithm 1 are blocks of one arm;
    DP-SE epochs are blocks of the active arms."""

    n_arms: int
    start: list = field(default_factory=list)
    arms: list = field(default_factory=list)
    length: list = field(default_factory=list)
    releases: int = 0  # private statistics computed (Table 1, "# Private Means")
    # For traces (Figure 1): the private means and indexes seen at each decision.
    indexes: list = field(default_factory=list)
    private_means: list = field(default_factory=list)

    def add(self, start: int, arms, length: int) -> None:
        self.start.append(int(start))
        self.arms.append(tuple(int(a) for a in arms))
        self.length.append(int(length))

    def counts_at(self, checkpoints: np.ndarray) -> np.ndarray:
        """N_a(c) for each checkpoint c, exactly: shape (C, arms)."""
        out = np.zeros((len(checkpoints), self.n_arms), dtype=np.int64)
        base = np.zeros(self.n_arms, dtype=np.int64)
        ci = 0
        for s, arms, n in zip(self.start, self.arms, self.length):
            k = len(arms)
            while ci < len(checkpoints) and checkpoints[ci] <= s + n:
                tau = int(checkpoints[ci]) - s
                out[ci] = base
                for i, a in enumerate(arms):
                    out[ci, a] += tau // k + (1 if i < tau % k else 0)
                ci += 1
            for i, a in enumerate(arms):
                base[a] += n // k + (1 if i < n % k else 0)
        return out


def check_blocks(blocks, name: str = "blocks") -> Blocks:
    """``blocks`` if it is a run's :class:`Blocks`, else a one-line TypeError (a list of lengths was an
    AttributeError, "'list' object has no attribute 'n_arms'", in the audits that read a run)."""
    if not isinstance(blocks, Blocks):
        raise TypeError(
            f"{name} must be a run's ldpcode.global_policies.Blocks (policy.run(...)), got {type(blocks).__name__}"
        )
    return blocks


def _check_sums(instance, arms: dict, length_name: str, length, rng, sampler, cancel) -> tuple[list, int]:
    """The checks of :func:`episode_sum` and :func:`epoch_sums` (``arms``: name -> arm); returns (the arms as ints,
    the length as an int)."""
    ins.check_instance(instance)
    arms = [check_int(name, a, minimum=0, maximum=instance.n_arms - 1) for name, a in arms.items()]
    length = check_int(length_name, length, minimum=0, maximum=MAX_HORIZON)
    if not callable(sampler):
        check_choice("sampler", sampler, SAMPLERS)
    if rng is not None or not callable(sampler):  # a callable sampler draws nothing: rng may be None
        check_rng("rng", rng)
    if cancel is not None and not callable(getattr(cancel, "check", None)):
        raise TypeError(f"cancel must be None or a CancelFlag (ldpcode.limits.CancelFlag), got {cancel!r}")
    return arms, length


def episode_sum(
    instance, arm: int, length: int, rng: np.random.Generator, sampler: str = "exact", cancel=None
) -> float:
    """Sum of ``length`` fresh rewards of ``arm``: from its exact law (``"exact"``: Binomial for a Bernoulli
    arm, Normal for a Gaussian arm) or by consuming one stream draw per reward (``"stepwise"``, and every
    other family). A callable ``sampler(arm, length)`` supplies the sum itself (a fixed reward sequence).

    Every argument is checked: ``instance`` an :class:`~ldpcode.instances.Instance`, ``arm`` an integer in
    [0, K) (arm=-1 summed the last arm's rewards), ``length`` an integer >= 0 (-5 gave 0.0 stepwise), ``sampler``
    one of :data:`SAMPLERS` or a callable, ``rng`` a NumPy Generator (None with a callable sampler). The policies
    call its unchecked twin :func:`_episode_sum_kernel`, once an episode."""
    (arm,), length = _check_sums(instance, {"arm": arm}, "length", length, rng, sampler, cancel)
    return _episode_sum_kernel(instance, arm, length, rng, sampler, cancel)


def _episode_sum_kernel(instance, arm, length, rng, sampler, cancel=None) -> float:
    """:func:`episode_sum` without its checks, for Algorithm 1's loop (arguments valid by construction)."""
    if callable(sampler):  # e.g. a fixed table of rewards, for privacy audits on given reward sequences
        return float(sampler(arm, length))
    a = instance.arms[arm]
    if sampler == "exact":
        if a.family == ins.Family.BERNOULLI:
            return float(rng.binomial(length, a.p0))
        if a.family == ins.Family.GAUSSIAN:
            return float(rng.normal(length * a.p0, a.p1 * math.sqrt(length)))
    total = 0.0
    left = length
    while left > 0:  # bounded memory for long episodes
        if cancel is not None:  # an interrupted simulation (ldpcode.simulate.CancelFlag)
            cancel.check()
        m = min(left, 1 << 20)
        total += float(ins._rewards_array(a.family, a.p0, a.p1, np.ravel(instance.draw_stream(rng, m))).sum())
        left -= m
    return total


def epoch_sums(instance, active, r: int, rng: np.random.Generator, sampler: str = "exact", cancel=None) -> list:
    """Reward sums of ``r`` pulls of each arm in ``active``, played round-robin (one DP-SE epoch). The
    ``"stepwise"`` sampler draws the rewards in the order they are pulled, like the reference. The arguments are
    checked as :func:`episode_sum`'s (``active`` a non-empty sequence of arms); DP-SE calls the unchecked
    :func:`_epoch_sums_kernel`."""
    if isinstance(active, (str, bytes)) or not hasattr(active, "__len__") or len(active) == 0:
        raise TypeError(f"active must be a non-empty sequence of arms, got {active!r}")
    active, r = _check_sums(instance, {f"active[{i}]": a for i, a in enumerate(active)}, "r", r, rng, sampler, cancel)
    return _epoch_sums_kernel(instance, active, r, rng, sampler, cancel)


def _epoch_sums_kernel(instance, active, r, rng, sampler, cancel=None) -> list:
    """:func:`epoch_sums` without its checks, for DP-SE's loop (arguments valid by construction)."""
    if sampler == "exact" or callable(sampler):
        return [_episode_sum_kernel(instance, a, r, rng, sampler, cancel) for a in active]
    draws = np.asarray(instance.draw_stream(rng, r * len(active))).reshape(r, len(active))
    return [
        float(
            ins._rewards_array(
                instance.arms[a].family, instance.arms[a].p0, instance.arms[a].p1, np.ascontiguousarray(draws[:, i])
            ).sum()
        )
        for i, a in enumerate(active)
    ]


# ---------------------------------------------------------------------------------------------------
# Algorithm 1 (AdaP-UCB, AdaP-KLUCB) and DP-SE: episodic policies
# ---------------------------------------------------------------------------------------------------


def _check_alpha(alpha, *, warn: bool = True) -> float:
    """AdaP's exploration parameter: a finite number > 0; ``warn`` when Theorems 7-8 do not apply (<= 3)."""
    alpha = check_real("alpha", alpha)
    if not 0 < alpha <= MAX_ALPHA:
        raise ValueError(
            f"alpha must be a number in (0, {MAX_ALPHA:g}] (the paper uses 3.1; at 1e308 every index was inf, and "
            f"the order of the arms decided), got {alpha!r}"
        )
    if warn and alpha <= 3:
        warnings.warn(
            f"alpha={alpha:g} <= 3: Theorems 7 and 8 need alpha > 3, so their regret bounds no "
            "longer apply (the privacy guarantee, Theorem 6, still holds)",
            UserWarning,
            stacklevel=3,
        )
    return alpha


@functools.lru_cache(maxsize=None)
def _run_takes_cancel(cls) -> bool:
    """Whether ``cls.run`` takes ``cancel`` (a subclass written before it, such as the audits' deliberately
    broken policies, may not: it then runs to its end, as before)."""
    return "cancel" in inspect.signature(cls.run).parameters


def _episodes_bound(n_arms: int, horizon: int) -> int:
    """At most K(floor(log2 T) + 1) + 1 episodes a run: the first block, then each arm's count doubles with
    each of its episodes (Algorithm 1, Line 7); DP-SE has far fewer epochs."""
    return n_arms * (int(horizon).bit_length()) + 1


class _Episodic(_GlobalPolicy):
    """The engine protocol of the episodic policies (AdaP-*, DP-SE): a run advances a whole episode at a time
    (``run``, which returns its :class:`Blocks`); ``cancel`` is checked between episodes."""

    def cost(self, instance, horizon: int, runs: int, n_checkpoints: int, workers: int):
        K = instance.n_arms
        threads = max(1, min(workers, runs))
        episodes = _episodes_bound(K, horizon)
        exact = all(a.family in (ins.Family.BERNOULLI, ins.Family.GAUSSIAN) for a in instance.arms)
        per_run = episodes * (20 + 4 * K) * 1e-6 + (0.0 if exact else 20e-9 * horizon)
        seconds = runs * per_run
        nbytes = (
            runs * (2 * n_checkpoints * K * 8 + 4096)
            + threads * episodes * 400
            + (0 if exact else threads * 3 * 2**20 * 8)
        )
        work = (
            f"runs={runs} x horizon={horizon}: at most {episodes} episodes a run of {self.name} on {K} arms "
            f"at {20 + 4 * K} µs an episode"
            + ("" if exact else ", and every pull's reward drawn at 20 ns (arms neither Bernoulli nor Gaussian)")
        )
        return seconds, nbytes, work

    def run_one(
        self, instance, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None, sampler="exact"
    ):
        """One run; returns (counts at the checkpoints, private releases). ``sampler`` as in :meth:`run`."""
        reward_rng, noise_rng = run_streams(seed_seq)
        kw = {"cancel": cancel} if cancel is not None and _run_takes_cancel(type(self)) else {}
        blocks = self.run(instance, horizon, reward_rng, noise_rng, sampler=sampler, **kw)
        return blocks.counts_at(checkpoints), blocks.releases


@dataclass(frozen=True)
class AdaptiveEpisodes(_Episodic):
    """Algorithm 1 of Azize and Basu (2022): an ε-global DP policy from an index on private means."""

    name: str
    index: PrivateIndex
    epsilon: float
    alpha: float = DEFAULT_ALPHA
    episodic = True
    needs_bounded_rewards = True
    anytime = True
    forgetful = True

    def __post_init__(self):
        # every argument checked when the policy is built: AdaptiveEpisodes("AdaP-UCB", UCBIndex(), -1.0) ran
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a string, got {self.name!r} of type {type(self.name).__name__}")
        if not isinstance(self.index, PrivateIndex):
            raise TypeError(
                f"index must be a PrivateIndex (UCBIndex(), KLUCBIndex()), got {self.index!r} "
                f"of type {type(self.index).__name__}"
            )
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))
        object.__setattr__(self, "alpha", _check_alpha(self.alpha, warn=False))  # make_policy warns when <= 3

    def run(
        self, instance, horizon: int, reward_rng, noise_rng, *, sampler: str = "exact", trace: bool = False, cancel=None
    ) -> Blocks:
        """One run of ``horizon`` pulls; returns its :class:`Blocks` (one per episode). ``cancel`` (an
        :class:`ldpcode.simulate.CancelFlag`) is checked between episodes."""
        K = instance.n_arms
        out = Blocks(K)
        mu = np.zeros(K)  # private mean of each arm's last episode
        m = np.zeros(K)  # length of that episode
        N = np.zeros(K, dtype=np.int64)
        # Line 3: choose each arm once, t = K; each single pull is the arm's first episode.
        out.add(0, range(K), K)
        for a in range(K):
            s = _episode_sum_kernel(instance, a, 1, reward_rng, sampler)
            mu[a] = mech.laplace_mean(s, 1, self.epsilon, noise_rng.laplace())
            m[a] = 1
            N[a] = 1
        out.releases = K
        t = K
        while t < horizon:
            if cancel is not None:
                cancel.check()
            t_l = t + 1  # Line 5
            u = self.index(mu, m, t_l, self.epsilon, self.alpha)  # Line 6
            arm = int(np.argmax(u))
            length = min(int(N[arm]), horizon - t)  # Line 7: until N_arm doubles (or the horizon)
            if trace:
                out.indexes.append(u.copy())
                out.private_means.append(mu.copy())
            out.add(t, (arm,), length)
            t += length
            N[arm] += length
            if t < horizon:  # the private mean of the episode just ended (forgetting the older ones)
                s = _episode_sum_kernel(instance, arm, length, reward_rng, sampler, cancel)
                mu[arm] = mech.laplace_mean(s, length, self.epsilon, noise_rng.laplace())
                m[arm] = length
                out.releases += 1
        return out

    def run_one(self, instance, horizon: int, seed_seq, checkpoints, **kwargs):
        """One run, as :meth:`_Episodic.run_one`. Run 0 of a call (spawn key ending in 0, as :func:`ldpcode.engine.run`
        and :mod:`ldpcode.sweep` number the runs) first warns (:class:`TieBreakWarning`) if ε is at or below the
        index's saturation level (:meth:`PrivateIndex.saturation_epsilon`, given arm 0's mean; AdaP-KLUCB's,
        :class:`~ldpcode.global_policies.indexes.KLUCBIndex`), where every index is 1 at every decision."""
        if tuple(seed_seq.spawn_key[-1:]) in ((), (0,)):
            sat = self.index.saturation_epsilon(instance.n_arms, horizon, self.alpha, float(instance.means[0]))
            if self.epsilon <= sat:
                warnings.warn(  # no instance-dependent number in the text: one line per (epsilon, K, T) of a grid
                    f"{self.name} at epsilon={self.epsilon:g} (alpha={self.alpha:g}, {instance.n_arms} arms, "
                    f"T={horizon:,}) is at or below the saturation level of its index (saturation_epsilon): up to "
                    "the Laplace noise of the private means, every index is 1 at every decision, the run plays arm 0 "
                    "throughout, and its regret reflects the tie-break (the order of the arms), not the index",
                    TieBreakWarning,
                    stacklevel=2,
                )
        return super().run_one(instance, horizon, seed_seq, checkpoints, **kwargs)

    def __repr__(self) -> str:
        return f"Policy({self.name!r}, epsilon={self.epsilon:g}, alpha={self.alpha:g})"


class HorizonTooShort(ValueError):
    """:func:`noise_free_pulls` at a horizon shorter than the exploration its model predicts (a ValueError
    like every refusal of a bad argument; its own class so that a caller can tell it from the others)."""


def noise_free_pulls(
    name: str, means, horizon: int, epsilon: float, alpha: float = DEFAULT_ALPHA, *, staircase: bool = True
) -> np.ndarray:
    r"""Pulls :math:`N_a(T)` of AdaP-UCB or AdaP-KLUCB predicted with each private mean replaced by the true
    mean (no reward noise, no Laplace noise); a model of the index, not a bound of the paper.

    A suboptimal arm a is chosen again only while its index (eq. 7 or 8) exceeds the best arm's index, about
    :math:`\mu^*`. Its index decreases in the length m of its last episode and increases in :math:`t_\ell`, so
    the arm stops for good once :math:`m \ge m^*_a`, the root of :math:`I(\mu_a, m, T) = \mu^*` (bisection
    on log m). By the doubling (Line 7) its episode lengths are 1, 1, 2, 4, ..., with :math:`N_a = 2m` after
    each, so with ``staircase=True`` :math:`N_a(T) = 2\cdot 2^{\lceil\log_2 m^*_a\rceil}` (1 if
    :math:`m^*_a \le 1`): the regret moves in factors of 2 as ε varies. ``staircase=False`` returns the
    continuous :math:`2m^*_a`. Best arms get :math:`T - \sum_{a\ne a^*} N_a`. For AdaP-KLUCB,
    :math:`m^*` interpolates between :math:`\alpha\log T/d(\mu_a,\mu^*)` (large ε) and
    :math:`\alpha\log T/(\epsilon\Delta_a)` (small ε), which cross at :math:`\epsilon = d(\mu_a,\mu^*)/\Delta_a`:
    the shape :math:`\min\{d_{\inf}, C_2\epsilon\Delta_a\}` of Theorem 8 with :math:`C_2 = 1`.

    ``name`` is "AdaP-UCB" or "AdaP-KLUCB"; means in [0, 1] (at least two arms, one suboptimal), horizon an
    integer >= 2, epsilon > 0, alpha > 0. Returns an array of pulls per arm (floats when ``staircase=False``).
    A horizon shorter than the predicted pulls of the suboptimal arms is refused: the model does not apply
    before the exploration ends (it returned negative pulls for the best arm).
    """
    if name not in ("AdaP-UCB", "AdaP-KLUCB"):
        raise ValueError(f"name must be 'AdaP-UCB' or 'AdaP-KLUCB', got {name!r}")
    mu = check_probability_vector("means", means)
    if mu.size < 2:
        raise ValueError(f"means must be a 1-d sequence of at least 2 numbers in [0, 1], got {means!r}")
    best = float(mu.max())
    if not (mu < best).any():
        raise ValueError(f"means must contain a suboptimal arm, got all equal to {best!r}")
    T = check_int("horizon", horizon, minimum=2)
    eps = check_epsilon(epsilon)
    alpha = _check_alpha(alpha, warn=False)
    staircase = check_bool("staircase", staircase)  # "no" is truthy: it gave the staircase
    index = UCBIndex() if name == "AdaP-UCB" else KLUCBIndex()

    def excess(log_m, mu_a):
        m = math.exp(log_m)
        return float(index(np.array([mu_a]), np.array([m]), T, eps, alpha)[0]) - best

    pulls = np.zeros(mu.size)
    for a in np.flatnonzero(mu < best):
        if excess(0.0, mu[a]) <= 0:
            m_star = 1.0
        else:
            lo, hi = 0.0, 1.0
            while excess(hi, mu[a]) > 0:  # the index tends to mu_a < mu* as m grows
                lo, hi = hi, 2 * hi
            for _ in range(200):
                mid = 0.5 * (lo + hi)
                lo, hi = (mid, hi) if excess(mid, mu[a]) > 0 else (lo, mid)
            m_star = math.exp(hi)
        if staircase:
            pulls[a] = 1.0 if m_star <= 1.0 else 2.0 * 2.0 ** math.ceil(math.log2(m_star) - 1e-12)
        else:
            pulls[a] = 2.0 * m_star
    if pulls.sum() > T:
        # the suboptimal arms would still be played at T: the model (which assumes each stops at its m*) does
        # not apply, and the best arms' share T - sum would be negative
        raise HorizonTooShort(
            f"horizon={T} is too short for the noise-free model at epsilon={eps:g}: it predicts "
            f"{pulls.sum():.0f} pulls of the suboptimal arms, more than the horizon; use a horizon "
            f"beyond the exploration phase (at least {int(pulls.sum()) + 1})"
        )
    top = np.flatnonzero(mu == best)
    pulls[top] = (T - pulls.sum()) / top.size
    return pulls
