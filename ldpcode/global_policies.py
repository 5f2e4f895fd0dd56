r"""Bandit algorithms under ε-global DP (Azize and Basu 2022): the curator is trusted and sees raw rewards;
what must be private is the sequence of actions it publishes.

==============  ==========================================================================================
name            algorithm
==============  ==========================================================================================
``AdaP-UCB``    Algorithm 1 with the index of eq. (7)
``AdaP-KLUCB``  Algorithm 1 with the index of eq. (8) (KL-UCB on the clipped private mean)
``DP-SE``       private successive elimination (Sajed and Sheffet 2019), β = 1/T by default
``DP-UCB``      UCB on private sums from the tree mechanism (Mishra and Thakurta 2015; Tossou and
                Dimitrakakis 2016), γ = 0.1 by default
``KL-UCB``      non-private KL-UCB (Garivier and Cappé 2011), for reference (``UCB1`` lives in
                :mod:`ldpcode.policies`)
==============  ==========================================================================================

**Algorithm 1, written once.** :class:`AdaptiveEpisodes` holds the three ingredients: (i) the Laplace
mechanism on the mean of an arm's *last active episode* (:func:`ldpcode.mechanisms.laplace_mean`, Lemma 1),
(ii) per-arm doubling episodes (the chosen arm is played until its count doubles, Line 7), (iii) forgetting
everything before that episode. The index is a separate object (:class:`PrivateIndex`); AdaP-UCB and
AdaP-KLUCB are two of them and a third is a few lines: subclass :class:`PrivateIndex` and give
``__call__(mu_tilde, m, t_l, epsilon, alpha)``.

**Episode length m.** The paper writes the last episode's length as :math:`\frac12 N_a(t_\ell - 1)`; that is
exact after an arm's first episode, but after the initial pull (Line 3) the last "episode" is that single
pull, of length 1 = :math:`N_a`. We use the true length m of the last episode everywhere (noise scale
:math:`1/(\epsilon m)` and index), which is what Lemma 1 and Example 2 ("Arm 2 uses
:math:`r_6 + \mathrm{Lap}(1/\epsilon)`") describe.

**Exact episodic simulation.** Within an episode the arm is fixed and its rewards enter only through their
sum, so the engine draws that sum from its exact law (one Binomial for a Bernoulli arm, one Normal for a
Gaussian arm; other bounded families sum their draws) instead of stepping. Pseudo-regret at any checkpoint
inside an episode follows exactly from the counts, which grow linearly there. ``sampler="stepwise"``
consumes one reward draw per pull instead, exactly as the plain step-by-step version in
:mod:`ldpcode.reference` does, so that both pull the same arms with the same seed (tests check it, and check
the exact sampler against it in distribution).
"""

from __future__ import annotations

import functools
import inspect
import math
import warnings
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from . import instances as ins
from . import mechanisms as mech
from ._validate import check_epsilon, check_int, check_probability, check_probability_vector, check_real
from .divergences import _kl_ber, klucb_bernoulli_scalar
from .engine import check_bounded, pulls_cost, refuse_privacy_levels
from .instances import reward_from_draw
from .limits import CHUNK
from .rng import run_streams

DEFAULT_ALPHA = 3.1  # Section 5: "We set alpha = 3.1 to comply with the regret upper bounds"
DEFAULT_GAMMA = 0.1  # Section 5, DP-UCB
SAMPLERS = ("exact", "stepwise")


# ---------------------------------------------------------------------------------------------------
# Indexes computed from one private mean (eqs. 7 and 8)
# ---------------------------------------------------------------------------------------------------


class PrivateIndex:
    """An optimistic index computed only from an arm's private mean ``mu_tilde`` of its last episode of
    length ``m``, at the start ``t_l`` of episode l. Arrays over arms in, array out."""

    name = "index"

    def __call__(self, mu_tilde, m, t_l, epsilon, alpha):  # pragma: no cover - interface
        raise NotImplementedError


class UCBIndex(PrivateIndex):
    r"""AdaP-UCB, eq. (7): :math:`\tilde\mu + \sqrt{\frac{\alpha\log t_\ell}{2m}} + \frac{\alpha\log t_\ell}{\epsilon m}`.

    The extraction of eq. (7) prints both terms under one square root. We read the privacy term outside
    it: it is the Laplace tail :math:`P\{\mathrm{Lap}(1/(\epsilon m)) > \alpha\log t/(\epsilon m)\} =
    \frac12 t^{-\alpha}`, the same term eq. (8) adds to the clipped mean, and only with it outside does
    Theorem 7's :math:`1/\min(\Delta_a, \epsilon)` scaling follow (under the root it would give
    :math:`1/(\epsilon\Delta_a)`).
    """

    name = "UCB"

    def __call__(self, mu_tilde, m, t_l, epsilon, alpha):
        a = alpha * math.log(t_l)
        return mu_tilde + np.sqrt(a / (2.0 * m)) + a / (epsilon * m)


class KLUCBIndex(PrivateIndex):
    r"""AdaP-KLUCB, eq. (8): :math:`\max\{q\in[0,1] : d(\tilde\mu^{\alpha}, q) \le \alpha\log t_\ell / m\}`
    with the clipped private mean :math:`\tilde\mu^{\alpha} = \mathrm{Clip}_{0,1}(\tilde\mu + \alpha\log t_\ell/(\epsilon m))`
    and d the Bernoulli KL divergence."""

    name = "KLUCB"

    def __call__(self, mu_tilde, m, t_l, epsilon, alpha):
        a = alpha * math.log(t_l)
        clipped = np.clip(mu_tilde + a / (epsilon * m), 0.0, 1.0)
        level = a / m
        return np.array([klucb_bernoulli_scalar(float(p), float(c)) for p, c in zip(clipped, level)])


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


def episode_sum(
    instance, arm: int, length: int, rng: np.random.Generator, sampler: str = "exact", cancel=None
) -> float:
    """Sum of ``length`` fresh rewards of ``arm``: from its exact law (``"exact"``: Binomial for a Bernoulli
    arm, Normal for a Gaussian arm) or by consuming one stream draw per reward (``"stepwise"``, and every
    other family). A callable ``sampler(arm, length)`` supplies the sum itself (a fixed reward sequence)."""
    if callable(sampler):  # e.g. a fixed table of rewards, for privacy audits on given reward sequences
        return float(sampler(arm, length))
    a = instance.arms[arm]
    if sampler == "exact":
        if a.family == ins.BERNOULLI:
            return float(rng.binomial(length, a.p0))
        if a.family == ins.GAUSSIAN:
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
    ``"stepwise"`` sampler draws the rewards in the order they are pulled, like the reference."""
    if sampler == "exact" or callable(sampler):
        return [episode_sum(instance, a, r, rng, sampler, cancel) for a in active]
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
    if alpha <= 0:
        raise ValueError(f"alpha must be a finite number > 0 (the paper uses 3.1), got {alpha!r}")
    if warn and alpha <= 3:
        warnings.warn(
            f"alpha={alpha:g} <= 3: Theorems 7 and 8 need alpha > 3, so their regret bounds no "
            "longer apply (the privacy guarantee, Theorem 6, still holds)",
            UserWarning,
            stacklevel=3,
        )
    return alpha


class _GlobalPolicy:
    """The engine protocol (:mod:`ldpcode.engine`) of the ε-global DP policies and KL-UCB."""

    @property
    def label(self) -> float:
        return self.epsilon

    def check_environment(self, instance, privacy_levels) -> None:
        refuse_privacy_levels(self, privacy_levels)
        check_bounded(
            self, instance, f" (its privacy or its index rests on it) but instance {instance.name!r} is unbounded"
        )


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
        exact = all(a.family in (ins.BERNOULLI, ins.GAUSSIAN) for a in instance.arms)
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
            s = episode_sum(instance, a, 1, reward_rng, sampler)
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
                s = episode_sum(instance, arm, length, reward_rng, sampler, cancel)
                mu[arm] = mech.laplace_mean(s, length, self.epsilon, noise_rng.laplace())
                m[arm] = length
                out.releases += 1
        return out

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
    alpha = check_real("alpha", alpha)
    if alpha <= 0:
        raise ValueError(f"alpha must be a finite number > 0 (the paper uses 3.1), got {alpha!r}")
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


def dp_se_epoch_length(n_active: int, epoch: int, epsilon: float, beta: float) -> int:
    r"""Pulls per active arm in epoch e of DP-SE: with :math:`\Delta_e = 2^{-e}`,

    .. math:: R_e = \Big\lceil \max\Big(\frac{32\log(8|S|e^2/\beta)}{\Delta_e^2},
              \frac{8\log(4|S|e^2/\beta)}{\epsilon\Delta_e}\Big)\Big\rceil .

    Our reading of Sajed and Sheffet (2019), whose text the book does not have: the first term makes the
    Hoeffding deviation of each epoch mean at most :math:`\Delta_e/8` with probability
    :math:`1 - \beta/(4|S|e^2)`, the second the Laplace noise :math:`\mathrm{Lap}(1/(\epsilon R_e))` at most
    :math:`\Delta_e/8` with the same probability, so every private mean is within :math:`\Delta_e/4` of its
    arm's mean on an event of probability at least 1 - β.
    """
    n_active = check_int("n_active", n_active, minimum=1)
    epoch = check_int("epoch", epoch, minimum=1)
    epsilon = check_epsilon(epsilon)
    beta = check_probability("beta", beta)
    d = 2.0 ** (-epoch)
    r = max(
        32.0 * math.log(8.0 * n_active * epoch**2 / beta) / d**2,
        8.0 * math.log(4.0 * n_active * epoch**2 / beta) / (epsilon * d),
    )
    return int(math.ceil(r))


@dataclass(frozen=True)
class DPSE(_Episodic):
    r"""DP-SE (Sajed and Sheffet 2019): successive elimination in epochs e = 1, 2, ... Each epoch pulls every
    active arm :func:`dp_se_epoch_length` times (round-robin), releases each arm's private epoch mean
    :math:`\bar\mu_a + \mathrm{Lap}(1/(\epsilon R_e))` from that epoch's rewards only, and eliminates every
    arm whose private mean is more than :math:`\Delta_e = 2^{-e}` below the largest. The last arm is then
    played to the horizon. β defaults to 1/T (Azize and Basu, Section 5), so the policy needs T."""

    epsilon: float
    beta: float | None = None
    name: str = "DP-SE"
    episodic = True
    needs_bounded_rewards = True
    anytime = False
    forgetful = True
    alpha = math.nan

    def run(
        self, instance, horizon: int, reward_rng, noise_rng, *, sampler: str = "exact", trace: bool = False, cancel=None
    ) -> Blocks:
        K = instance.n_arms
        beta = 1.0 / horizon if self.beta is None else self.beta
        out = Blocks(K)
        active = list(range(K))
        t, e = 0, 1
        while t < horizon:
            if cancel is not None:
                cancel.check()
            if len(active) == 1:
                out.add(t, active, horizon - t)
                break
            r = dp_se_epoch_length(len(active), e, self.epsilon, beta)
            n = min(r * len(active), horizon - t)
            out.add(t, active, n)
            t += n
            if t >= horizon:
                break
            sums = epoch_sums(instance, active, r, reward_rng, sampler, cancel)
            mu = np.array([mech.laplace_mean(x, r, self.epsilon, noise_rng.laplace()) for x in sums])
            out.releases += len(active)
            if trace:
                full = np.full(K, np.nan)
                full[active] = mu
                out.private_means.append(full)
            best = mu.max()
            active = [a for a, v in zip(active, mu) if best - v <= 2.0 ** (-e)]
            e += 1
        return out

    def __repr__(self) -> str:
        b = "1/T" if self.beta is None else f"{self.beta:g}"
        return f"Policy('DP-SE', epsilon={self.epsilon:g}, beta={b})"


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
    lg = math.log(2.0 / delta)
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
        counts = np.zeros(n, dtype=np.int64)
        sums = np.zeros(n)
        counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
        t = ci = 0
        depth, scale, bound = dp_ucb_noise_bound(horizon, n, self.epsilon, self.gamma)
        nodes = np.zeros((n, depth))
        means, widths = np.zeros(n), np.zeros(n)
        while t < horizon:
            if cancel is not None:
                cancel.check()
            m = min(CHUNK, horizon - t)
            rd = instance.draw_stream(reward_rng, m)
            nd = mech.draw_noise(mech.LAPLACE, noise_rng, m)
            t, ci = dp_ucb_chunk(
                t,
                horizon,
                instance.families,
                instance.params,
                rd,
                nd,
                scale,
                bound,
                counts,
                sums,
                nodes,
                means,
                widths,
                checkpoints,
                ci,
                counts_out,
            )
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
        t = ci = 0
        while t < horizon:
            if cancel is not None:
                cancel.check()
            rd = instance.draw_stream(reward_rng, min(CHUNK, horizon - t))
            t, ci = klucb_chunk(
                t, horizon, instance.families, instance.params, rd, counts, sums, checkpoints, ci, counts_out
            )
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
def dp_ucb_chunk(
    t,
    horizon,
    families,
    params,
    reward_draws,
    noise_draws,
    scale,
    bound,
    counts,
    sums,
    nodes,
    means,
    widths,
    checkpoints,
    ci,
    counts_out,
):
    """Advance one DP-UCB run by ``len(reward_draws)`` steps (or to ``horizon``); one Laplace draw per step
    feeds the new node of the pulled arm's tree. ``means`` holds (private sum + B)/N, ``widths`` sqrt(2/N).
    Returns the new (t, ci)."""
    n = counts.shape[0]
    steps = min(reward_draws.shape[0], horizon - t)
    for s in range(steps):
        if t < n:
            arm = t
        else:
            g = math.sqrt(math.log(t))
            best = -np.inf
            arm = 0
            for a in range(n):
                u = means[a] + g * widths[a]
                if u > best:
                    best = u
                    arm = a
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
            lt = math.log(t)
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
        r = reward_from_draw(families[arm], params[arm, 0], params[arm, 1], reward_draws[s])
        counts[arm] += 1
        sums[arm] += r
        t += 1
        ci = _record(t, counts, checkpoints, ci, counts_out)
    return t, ci


# ---------------------------------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------------------------------

GLOBAL_POLICIES = ("AdaP-UCB", "AdaP-KLUCB", "DP-SE", "DP-UCB", "KL-UCB")
_OPTIONS = {"AdaP-UCB": {"alpha"}, "AdaP-KLUCB": {"alpha"}, "DP-SE": {"beta"}, "DP-UCB": {"gamma"}, "KL-UCB": set()}


def make_global_policy(name: str, epsilon, options: dict):
    """Build one of :data:`GLOBAL_POLICIES`; ``options`` holds alpha / beta / gamma (None = default)."""
    given = {k for k, v in options.items() if v is not None}
    extra = given - _OPTIONS[name]
    if extra:
        allowed = ", ".join(sorted(_OPTIONS[name])) or "none"
        raise ValueError(f"policy {name!r} takes no {', '.join(sorted(extra))} (its options: {allowed})")
    if name == "KL-UCB":
        if epsilon is not None:
            raise ValueError(f"policy 'KL-UCB' is not private and takes no epsilon, got epsilon={epsilon!r}")
        return KLUCB()
    if epsilon is None:
        raise ValueError(f"policy {name!r} needs epsilon, a finite number > 0")
    epsilon = check_epsilon(epsilon)
    if name in ("AdaP-UCB", "AdaP-KLUCB"):
        alpha = DEFAULT_ALPHA if options.get("alpha") is None else _check_alpha(options["alpha"])
        return AdaptiveEpisodes(name, UCBIndex() if name == "AdaP-UCB" else KLUCBIndex(), epsilon, alpha)
    if name == "DP-SE":
        beta = options.get("beta")
        if beta is not None:
            beta = check_probability("beta", beta)  # a failure probability; default 1/T
        return DPSE(epsilon, beta)
    gamma = DEFAULT_GAMMA if options.get("gamma") is None else check_probability("gamma", options["gamma"])
    return DPUCB(epsilon, gamma)  # gamma: a failure probability; the paper uses 0.1
