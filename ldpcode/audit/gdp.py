r"""ε-global DP of Algorithm 1 (Azize and Basu 2022): Lemma 1's private means and Theorem 6's action sequences.

Definition 2 of Azize and Basu: a policy is ε-global DP when
:math:`\pi(a^T \mid r^T) \le e^\epsilon\,\pi(a^T \mid r'^T)` for every action sequence :math:`a^T` and every two reward
sequences :math:`r^T, r'^T` that differ at one step. The tools below (i) release the private means of Lemma 1 and give
their exact privacy loss (:func:`lemma1_release`, :func:`lemma1_privacy_loss`, :func:`lemma1_log_density_ratio`,
:func:`lemma1_audit`), (ii) run a policy on a FIXED reward sequence many times (only its Laplace noise random,
:class:`FixedRewardSampler`) and estimate the law of the whole action sequence under two neighbouring sequences
(:func:`action_sequence_audit`, over the output space :func:`algorithm1_action_sequences` of Theorem 6), with the exact
log-ratio of the first decision (:func:`first_decision_log_ratio`, where AdaP-KLUCB attains Theorem 6's bound ε), and
(iii) build deliberately broken versions of Algorithm 1 (:func:`broken_policy`: noise halved, forgetting removed) for
which such an audit must fail. Reading one run's episodes (Figure 1, Example 2) is in :mod:`ldpcode.audit.tracing`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import global_policies as _gp
from .. import mechanisms as _mech
from .._validate import as_float_array, check_array, check_epsilon, check_int, check_probability, one_line
from ..limits import Limits
from .ratios import _UNLIMITED, BinnedLogRatio, _binned_cost, _check_cost, _check_rng, _seed_sequence, binned_log_ratio


REWARD_MODELS = ("step", "table")


BROKEN_FLAWS = ("noise-halved", "no-forgetting")


# ---- Lemma 1: the private means of the episodes and their exact privacy loss


def _check_rewards(name, rewards, ndim) -> np.ndarray:
    """Rewards for Lemma 1, which needs them bounded: a non-empty ``ndim``-d array in [0, 1]."""
    return check_array(name, rewards, ndim=ndim, min_size=1, low=0.0, high=1.0)


def _episode_bounds(n_steps: int, starts) -> np.ndarray:
    """Validated 0-based [begin, end) of each sub-sequence cut at the 1-based ``starts``."""
    s = as_float_array("starts", starts, bools=False)
    if s.ndim != 1 or not np.all(s == np.round(s)):
        raise ValueError(f"starts must be a 1-d sequence of integer steps, got {one_line(starts)}")
    s = s.astype(np.int64)
    if s.size and (s[0] <= 1 or s[-1] > n_steps or (np.diff(s) <= 0).any()):
        raise ValueError(f"starts must satisfy 1 < t_1 < ... < t_l <= T = {n_steps} (Lemma 1), got {one_line(starts)}")
    cuts = np.concatenate([[0], s - 1, [n_steps]])
    return np.column_stack([cuts[:-1], cuts[1:]])


def _episode_means(rewards, starts):
    bounds = _episode_bounds(rewards.size, starts)
    lengths = (bounds[:, 1] - bounds[:, 0]).astype(float)
    sums = np.array([rewards[b:e].sum() for b, e in bounds])
    return sums, lengths


def lemma1_release(rewards, starts, epsilon, size: int, rng, *, limits: Limits | None = None) -> np.ndarray:
    r"""``size`` independent outputs of the mechanism :math:`g^\epsilon` of Lemma 1 (Azize and Basu 2022).

    The rewards :math:`r_1, \dots, r_T \in [0, 1]` are cut at the 1-based steps
    :math:`1 < t_1 < \dots < t_\ell \le T` (``starts``) into the sub-sequences
    :math:`[1, t_1 - 1], [t_1, t_2 - 1], \dots, [t_\ell, T]`, and each releases its private mean
    :math:`\frac1m\sum r_t + \mathrm{Lap}(\frac{1}{\epsilon m})`, m its length
    (the kernel ``ldpcode.mechanisms.laplace_mean``; the paper's display divides by j - i for the j - i + 1
    rewards r_i..r_j, we divide by their number m). Returns shape ``(size, l + 1)``, whose cost ``limits`` caps.
    """
    r = _check_rewards("rewards", rewards, 1)
    eps = check_epsilon(epsilon)
    size = check_int("size", size, minimum=1)
    rng = _check_rng(rng)
    sums, lengths = _episode_means(r, starts)
    values = size * lengths.size
    work = f"size={size} releases of {lengths.size} private means"
    _check_cost("lemma1_release", work, 50e-9 * values, 32.0 * values, limits, "size")
    return _mech.laplace_mean(sums[None, :], lengths[None, :], eps, rng.laplace(size=(size, lengths.size)))


def lemma1_privacy_loss(rewards, neighbour, starts, epsilon) -> np.ndarray:
    r"""Exact privacy loss of each coordinate of Lemma 1's release between two reward sequences.

    Coordinate i is :math:`\bar r_i + \mathrm{Lap}(b_i)` with :math:`b_i = 1/(\epsilon m_i)`; a shift of
    its location by :math:`\delta_i = \bar r_i - \bar r'_i` gives
    :math:`\sup_x |\log f(x)/f'(x)| = |\delta_i|/b_i = \epsilon m_i |\delta_i|`. The coordinates are
    independent, so the loss of the whole vector is the sum. For neighbours (one step j changed, inside
    sub-sequence i), only :math:`\delta_i = (r_j - r'_j)/m_i` is non-zero and the loss is
    :math:`\epsilon |r_j - r'_j| \le \epsilon`, whatever the length m_i: Lemma 1. Returns the array of
    per-coordinate losses (shape ``(l + 1,)``).
    """
    eps, s, sp, m = _neighbour_sums(rewards, neighbour, starts, epsilon)
    # The Laplace mechanism's loss |shift| / b (ldpcode.mechanisms.LaplaceMechanism.privacy_loss) with
    # b = 1/(eps m), written eps m |shift| as it always was: the stored numbers keep their bits.
    return eps * m * np.abs(s / m - sp / m)


def _neighbour_sums(rewards, neighbour, starts, epsilon):
    """Validated (epsilon, sums under r, sums under r', lengths) of Lemma 1's sub-sequences."""
    r = _check_rewards("rewards", rewards, 1)
    rp = _check_rewards("neighbour", neighbour, 1)
    if rp.shape != r.shape:
        raise ValueError(f"neighbour must have the shape of rewards, {r.shape}, got {rp.shape}")
    eps = check_epsilon(epsilon)
    s, m = _episode_means(r, starts)
    sp, _ = _episode_means(rp, starts)
    return eps, s, sp, m


def lemma1_log_density_ratio(x, rewards, neighbour, starts, epsilon) -> np.ndarray:
    r"""Pointwise :math:`\log f(x \mid r) - \log f(x \mid r')` of Lemma 1's release (Laplace densities):
    :math:`\sum_i \epsilon m_i (|x_i - \bar r'_i| - |x_i - \bar r_i|)`. ``x`` has shape ``(..., l + 1)``;
    the result drops the last axis. Its supremum over x is the sum of :func:`lemma1_privacy_loss`."""
    eps, s, sp, m = _neighbour_sums(rewards, neighbour, starts, epsilon)
    x = check_array("x", x)
    if x.ndim == 0 or x.shape[-1] != m.size:
        raise ValueError(f"x must have last axis of length {m.size} (one value per sub-sequence), got {x.shape}")
    return (eps * m * (np.abs(x - sp / m) - np.abs(x - s / m))).sum(axis=-1)


@dataclass(frozen=True)
class Lemma1Audit:
    """What :func:`lemma1_audit` returns. ``binned`` is the :class:`BinnedLogRatio` of the affected
    coordinate (its first and last bins are the half-lines below and above both locations, where the
    exact log-ratio is :math:`\\pm\\epsilon|r_j - r'_j|`); ``exact_bin_log_ratio`` the exact
    :math:`\\log P_r(\\text{bin})/P_{r'}(\\text{bin})` from the Laplace distribution function;
    ``others_max_lower`` the largest ``max_lower`` over the unaffected coordinates (their laws are equal)."""

    coordinate: int
    locations: tuple
    scale: float
    exact_loss: np.ndarray
    binned: BinnedLogRatio
    exact_bin_log_ratio: np.ndarray
    others_max_lower: float


def lemma1_audit(
    rewards,
    neighbour,
    starts,
    epsilon,
    samples: int,
    rng,
    *,
    bins_per_scale: int = 4,
    alpha: float = 0.05,
    limits: Limits | None = None,
) -> Lemma1Audit:
    r"""Sample Lemma 1's release :math:`g^\epsilon` (:func:`lemma1_release`) under two neighbouring reward
    sequences and compare the affected coordinate's law with the exact one.

    The affected coordinate i is :math:`\bar r_i + \mathrm{Lap}(b)`, :math:`b = 1/(\epsilon m_i)`, under
    r and :math:`\bar r'_i + \mathrm{Lap}(b)` under r'. Bins: the half-line below the smaller location, a
    grid of width :math:`b/`\ ``bins_per_scale`` from 3b below it to 3b above the larger one (the two
    locations are edges), and the half-line above. On the two half-lines the density ratio is constant,
    :math:`e^{\pm\epsilon m_i|\bar r_i - \bar r'_i|}`, so there the bin probability ratio equals the
    privacy loss exactly. The other coordinates are binned in ``bins_per_scale`` x 12 equal bins each.
    ``limits`` caps the estimated cost of the samples and the bins, checked before any release is drawn.
    """
    from scipy.stats import laplace

    r = _check_rewards("rewards", rewards, 1)
    rp = _check_rewards("neighbour", neighbour, 1)
    loss = lemma1_privacy_loss(r, rp, starts, epsilon)
    changed = int((r != rp).sum())
    if changed != 1:
        raise ValueError(f"rewards and neighbour must differ at exactly one step, they differ at {changed}")
    k = check_int("bins_per_scale", bins_per_scale, minimum=1)
    eps = check_epsilon(epsilon)
    samples = check_int("samples", samples, minimum=1)
    rng = _check_rng(rng)
    alpha = check_probability("alpha", alpha)
    s, m = _episode_means(r, starts)
    sp, _ = _episode_means(rp, starts)
    i = int(np.flatnonzero(s != sp)[0])
    b = 1.0 / (eps * m[i])
    mu, mup = s[i] / m[i], sp[i] / m[i]
    lo, hi = min(mu, mup), max(mu, mup)
    bins = 2 * (3 * k + 2) + max(2, int(math.ceil((hi - lo) / b * k)) + 1) + (m.size - 1) * 12 * k
    work = f"samples={samples} releases of {m.size} private means under each input, binned in {bins} bins"
    seconds = 250e-9 * samples * m.size + 2e-6 * bins
    _check_cost(
        "lemma1_audit", work, seconds, 48.0 * samples * m.size + 64.0 * samples + 200.0 * bins, limits, "samples"
    )
    x = lemma1_release(r, starts, eps, samples, rng, limits=_UNLIMITED)
    xp = lemma1_release(rp, starts, eps, samples, rng, limits=_UNLIMITED)
    inner = np.unique(
        np.round(
            np.concatenate(
                [
                    lo - 3 * b + np.arange(3 * k + 1) * b / k,
                    np.linspace(lo, hi, max(2, int(math.ceil((hi - lo) / b * k)) + 1)),
                    hi + np.arange(3 * k + 1) * b / k,
                ]
            ),
            12,
        )
    )
    edges = np.concatenate([[-np.inf], inner, [np.inf]])
    binned = binned_log_ratio(x[:, i], xp[:, i], edges, alpha=alpha, limits=_UNLIMITED)
    cdf = laplace.cdf(edges, loc=mu, scale=b), laplace.cdf(edges, loc=mup, scale=b)
    exact = np.log(np.diff(cdf[0])) - np.log(np.diff(cdf[1]))
    others = [
        binned_log_ratio(x[:, c], xp[:, c], 12 * k, alpha=alpha, limits=_UNLIMITED).max_lower
        for c in range(m.size)
        if c != i
    ]
    return Lemma1Audit(
        i, (float(mu), float(mup)), float(b), loss, binned, exact, float(max(others)) if others else -math.inf
    )


# ---- Theorem 6: the law of the action sequence on fixed rewards


class FixedRewardSampler:
    r"""A fixed reward input for :meth:`ldpcode.global_policies.AdaptiveEpisodes.run` (``sampler=``).

    ``model="step"`` (Definition 2 of Azize and Basu): ``rewards`` is :math:`r^T = (r_1, \dots, r_T)`, the
    reward observed at step t whatever arm is pulled. ``model="table"``: ``rewards[a, n]`` is the reward
    of the (n+1)-th pull of arm a. Called as ``sampler(arm, length)`` it returns the sum of the next
    ``length`` rewards, keeping the clock (steps, or pulls of each arm). Algorithm 1 asks for the sums in
    the order its episodes are played, once per released episode (the last episode, cut by the horizon,
    is never released), so the clock is exact. Use a fresh sampler (or :meth:`reset`) for every run.
    """

    def __init__(self, rewards, model: str = "step"):
        if model not in REWARD_MODELS:
            raise ValueError(f"model must be one of {REWARD_MODELS}, got {model!r}")
        self.model = model
        self.rewards = _check_rewards("rewards", rewards, 1 if model == "step" else 2)
        rows = self.rewards[None, :] if model == "step" else self.rewards
        # prefix sums as Python floats: a run asks for a handful of sums, each is two look-ups
        self._prefix = [np.concatenate([[0.0], np.cumsum(row)]).tolist() for row in rows]
        self.reset()

    def reset(self) -> None:
        """Back to step 1 (and to the first pull of every arm), for the next run."""
        self.t = 0
        self.pulls = [0] * len(self._prefix)

    def __call__(self, arm: int, length: int) -> float:
        if self.model == "step":
            b, prefix = self.t, self._prefix[0]
        else:
            b, prefix = self.pulls[arm], self._prefix[arm]
        if b + length >= len(prefix):
            raise ValueError(
                f"the fixed rewards ran out: asked for pulls {b}..{b + length - 1} of a row of "
                f"{len(prefix) - 1} (give at least horizon rewards per row)"
            )
        self.t += length
        if self.model == "table":
            self.pulls[arm] += length
        return prefix[b + length] - prefix[b]


def action_sequence(blocks, *, limits: Limits | None = None) -> str:
    """The action sequence :math:`a^T` of a run (:class:`ldpcode.global_policies.Blocks`) as a string of arm
    numbers (0-based; arms >= 10 are written in brackets); blocks of several arms are round-robin. The string
    (T characters or more) is checked against ``limits`` before it is built."""
    steps = sum(_gp.check_blocks(blocks).length)
    mixed = sum(n for arms, n in zip(blocks.arms, blocks.length) if len(arms) > 1)
    work = f"a string of the {steps} actions of a run ({mixed} of them in round-robin blocks)"
    seconds, nbytes = 1e-5 + 4e-9 * steps + 200e-9 * mixed, 4.0 * steps + 16.0 * mixed
    _check_cost("action_sequence", work, seconds, nbytes, limits, "the horizon of the run")
    return _action_sequence(blocks)


def _action_sequence(blocks) -> str:
    out = []
    for arms, n in zip(blocks.arms, blocks.length):
        k = len(arms)
        if k == 1:
            out.append((str(arms[0]) if arms[0] < 10 else f"[{arms[0]}]") * n)
        else:
            out.extend(str(arms[i % k]) if arms[i % k] < 10 else f"[{arms[i % k]}]" for i in range(n))
    return "".join(out)


def algorithm1_action_sequences(
    n_arms: int, horizon: int, limit: int = 100_000, *, limits: Limits | None = None
) -> list:
    """Every action sequence Algorithm 1 of Azize and Basu can output (the output space of Theorem 6).

    Each arm is pulled once (round-robin), then every episode plays one arm until its count doubles
    (cut at the horizon). With Laplace noise of full support every choice of arms has positive
    probability, so all of these sequences occur. Sorted; raises ``ValueError`` beyond ``limit`` of them.
    ``limits`` caps the estimated cost (the sequences are counted first, :func:`_count_action_sequences`:
    strings of ``horizon`` characters), checked before any is built.
    """
    K = check_int("n_arms", n_arms, minimum=1)
    T = check_int("horizon", horizon, minimum=K)
    limit = check_int("limit", limit, minimum=0)
    count = _count_action_sequences(K, T, limit + 1)
    depth = K * T.bit_length() + 1  # episodes of a run: the levels of the recursion below
    work = f"{count if count <= limit else f'more than limit={limit}'} sequence(s) of horizon={T} actions"
    seconds = 1e-3 + count * (depth * 1e-6 + T * 2e-9)
    nbytes = count * (T + 64.0) + (2 if K == 1 else depth) * float(T)
    _check_cost("algorithm1_action_sequences", work, seconds, nbytes, limits, "horizon")
    out = []
    head = _action_sequence(_gp.Blocks(K, [0], [tuple(range(K))], [K]))

    def grow(t, counts, prefix):
        if len(out) > limit:
            raise ValueError(f"more than limit = {limit} action sequences for n_arms = {K}, horizon = {T}")
        if t >= T:
            out.append(prefix)
            return
        for a in range(K):
            n = min(counts[a], T - t)
            c = list(counts)
            c[a] += n
            grow(t + n, c, prefix + (str(a) if a < 10 else f"[{a}]") * n)

    grow(K, [1] * K, head)
    return sorted(out)


def _count_action_sequences(n_arms: int, horizon: int, cap: int) -> int:
    """How many sequences :func:`algorithm1_action_sequences` makes, or ``cap`` if at least that many: the
    same recursion on the arms' counts alone, memoised on their multiset, a tuple of (count, arms with that count)
    (the completions do not depend on which arm holds which count; the counts are powers of two but for the last
    episode's, so the tuple is short whatever K). Deeper than 400 episodes it answers ``cap`` (an upper bound)."""
    memo = {}

    def count(state, t, depth):
        if depth > 400:
            return cap
        if state in memo:
            return memo[state]
        total = 0
        for c, arms in reversed(state):  # the largest count first: the shallowest branch
            n = min(c, horizon - t)
            if t + n >= horizon:
                sub = 1
            else:
                child = dict(state)
                child[c] -= 1
                child[c + n] = child.get(c + n, 0) + 1
                sub = count(tuple(sorted((k, v) for k, v in child.items() if v)), t + n, depth + 1)
            total = min(cap, total + arms * sub)
            if total == cap:
                break
        memo[state] = total
        return total

    return 1 if n_arms >= horizon else count(((1, n_arms),), n_arms, 0)


@dataclass(frozen=True)
class ActionSequenceAudit:
    """What :func:`action_sequence_audit` returns: one entry per action sequence in ``sequences``.

    ``log_ratio``, ``se``, ``lower``, ``upper``, ``max_lower`` and ``argmax`` are those of
    :func:`binned_log_ratio` with the action sequences as bins; ``violation`` is True when the
    (1 - alpha) lower confidence bound ``max_lower`` on :math:`\\max_{a^T} |\\log \\pi(a^T|r^T)/\\pi(a^T|r'^T)|`
    exceeds ``epsilon``: then the policy is not ε-global DP, with confidence 1 - alpha.
    """

    sequences: list
    counts_a: np.ndarray
    counts_b: np.ndarray
    runs: int
    epsilon: float
    log_ratio: np.ndarray
    se: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    alpha: float
    max_lower: float
    argmax: int

    @property
    def violation(self) -> bool:
        return bool(self.max_lower > self.epsilon)

    def event_log_ratio(self, prefix: str) -> tuple[float, float]:
        r"""Estimated :math:`\log P_r(E)/P_{r'}(E)` of the event E = ":math:`a^T` starts with ``prefix``" (the union
        of those sequences), with its delta-method standard error."""
        if not isinstance(prefix, str):
            raise TypeError(f"prefix must be a string of arm numbers such as '011', got {prefix!r}")
        sel = np.array([q.startswith(prefix) for q in self.sequences])
        na, nb = int(self.counts_a[sel].sum()), int(self.counts_b[sel].sum())
        if na == 0 or nb == 0:
            raise ValueError(f"the event a^T = {prefix}... was seen {na} and {nb} times; both must be > 0")
        n = self.runs
        return math.log(na / nb), math.sqrt(1 / na - 1 / n + 1 / nb - 1 / n)


def action_sequence_audit(
    policy,
    instance,
    rewards,
    neighbour,
    horizon: int,
    runs: int,
    seed,
    *,
    model: str = "step",
    alpha: float = 0.05,
    outputs=None,
    epsilon=None,
    limits: Limits | None = None,
) -> ActionSequenceAudit:
    r"""Estimate :math:`\pi(a^T \mid r^T)` and :math:`\pi(a^T \mid r'^T)` for every action sequence and
    bound their log-ratios (Definition 2 and Theorem 6 of Azize and Basu 2022).

    The policy (any object with ``run(instance, horizon, reward_rng, noise_rng, sampler=)`` returning
    :class:`ldpcode.global_policies.Blocks`, e.g. AdaP-UCB) runs ``runs`` times on the fixed input
    ``rewards`` and ``runs`` times on ``neighbour`` (a :class:`FixedRewardSampler` of ``model``; the two
    must differ in exactly one entry, as in Definition 2); only the policy's own noise is random, drawn
    from two independent streams of ``numpy.random.SeedSequence(seed)``. The counts of each :math:`a^T` go to
    :func:`binned_log_ratio` (Clopper-Pearson intervals, Bonferroni over all 2 x len(outputs) of them).

    ``outputs``: the action sequences to test, fixed before sampling (e.g.
    :func:`algorithm1_action_sequences`); None takes those observed. A run outside ``outputs`` raises
    ``ValueError``. ``epsilon`` is the level to test (default ``policy.epsilon``). ``limits`` caps the estimated
    cost: 2 x ``runs`` runs of at most K(floor(log2 T) + 1) + 1 episodes at (20 + 4K) µs each (the episodic
    policies' cost, :mod:`ldpcode.limits`) and their action strings of T characters, checked before any run.
    """
    if model not in REWARD_MODELS:
        raise ValueError(f"model must be one of {REWARD_MODELS}, got {model!r}")
    ndim = 1 if model == "step" else 2
    r = _check_rewards("rewards", rewards, ndim)
    rp = _check_rewards("neighbour", neighbour, ndim)
    if rp.shape != r.shape:
        raise ValueError(f"neighbour must have the shape of rewards, {r.shape}, got {rp.shape}")
    changed = int((r != rp).sum())
    if changed != 1:
        raise ValueError(
            f"rewards and neighbour must differ in exactly one entry (Definition 2), they differ in {changed}"
        )
    T = check_int("horizon", horizon, minimum=instance.n_arms)
    if r.shape[-1] < T:
        raise ValueError(f"rewards must hold at least horizon = {T} rewards per row, got shape {r.shape}")
    if model == "table" and r.shape[0] != instance.n_arms:
        raise ValueError(
            f"with model='table' rewards must have one row per arm ({instance.n_arms}), got shape {r.shape}"
        )
    runs = check_int("runs", runs, minimum=1)
    eps = check_epsilon(policy.epsilon if epsilon is None else epsilon)
    check_probability("alpha", alpha)
    if outputs is not None:
        outputs = list(outputs)
    bins = 2 * runs if outputs is None else len(outputs)  # at most 2 x runs sequences are seen
    K = instance.n_arms
    episodes = K * T.bit_length() + 1
    work = (
        f"2 x runs={runs} runs of horizon={T} on {K} arms (at most {episodes} episodes at {20 + 4 * K} µs each), "
        f"counted on {'at most ' if outputs is None else ''}{bins} action sequences"
    )
    seconds, nbytes = _binned_cost(runs, runs, bins)
    seconds += 2 * runs * (episodes * (20 + 4 * K) * 1e-6 + 4e-9 * T + 10e-6)
    nbytes += 2 * runs * (T + 100.0) + 80.0 * r.size + 400.0 * episodes
    _check_cost("action_sequence_audit", work, seconds, nbytes, limits, "runs or horizon")
    seqs = []
    for ss, table in zip(_seed_sequence(seed).spawn(2), (r, rp)):
        noise = np.random.default_rng(ss)
        sampler = FixedRewardSampler(table, model)
        side = []
        for _ in range(runs):
            sampler.reset()
            side.append(_action_sequence(policy.run(instance, T, None, noise, sampler=sampler)))
        seqs.append(side)
    if outputs is None:
        outputs = sorted(set(seqs[0]) | set(seqs[1]))
    code = {s: i for i, s in enumerate(outputs)}
    if len(code) != len(outputs):
        raise ValueError("outputs must not repeat an action sequence")
    try:
        codes = [np.array([code[s] for s in side], dtype=float) for side in seqs]
    except KeyError as exc:
        raise ValueError(f"the policy output the action sequence {exc.args[0]!r}, which is not in outputs") from None
    res = binned_log_ratio(codes[0], codes[1], np.arange(len(outputs) + 1) - 0.5, alpha=alpha, limits=_UNLIMITED)
    return ActionSequenceAudit(
        outputs,
        res.counts_a,
        res.counts_b,
        runs,
        eps,
        res.log_ratio,
        res.se,
        res.lower,
        res.upper,
        res.alpha,
        res.max_lower,
        res.argmax,
    )


def first_decision_log_ratio(name: str, epsilon, alpha: float = _gp.DEFAULT_ALPHA) -> float:
    r"""Exact :math:`\log P_r\{A_1 = 2\}/P_{r'}\{A_1 = 2\}` for Algorithm 1 with K = 2 arms, where
    :math:`A_1` is the arm chosen at :math:`t_1 = 3`, :math:`r = (0, 0, \dots)` and :math:`r' = (1, 0, \dots)`
    (the first reward, arm 1's initial pull, changed; the event depends on nothing after step 2).

    Both arms have m = 1, so their private means are :math:`x = r_1 + L_1/\epsilon` and
    :math:`y = L_2/\epsilon`, L standard Laplace, and ties go to arm 1 (``argmax``).

    * ``"AdaP-UCB"``: the bonuses are equal, so :math:`A_1 = 2 \iff x < y`. With :math:`D = L_1 - L_2`
      (density :math:`(1 + |u|)e^{-|u|}/4`, :math:`P\{D > u\} = (2 + u)e^{-u}/4` for u >= 0),
      :math:`P_r = 1/2` and :math:`P_{r'} = P\{D > \epsilon\} = (2 + \epsilon)e^{-\epsilon}/4`: the log-ratio
      is :math:`\epsilon - \log(1 + \epsilon/2) < \epsilon`.
    * ``"AdaP-KLUCB"``: the clipped mean :math:`\mathrm{Clip}_{0,1}(x + \alpha\log 3/\epsilon)` must be
      below 1 (else arm 1's index is 1, the largest possible, and arm 1 wins or ties), so the event lies in
      :math:`\{x < 1 - \alpha\log 3/\epsilon\}`. When :math:`\alpha\log 3 > \epsilon` that half-line lies
      below both locations 0 and 1, where the ratio of the two Laplace densities is exactly
      :math:`e^{\epsilon}`: the log-ratio is exactly ε, the bound of Theorem 6 attained. (Otherwise
      ``ValueError``.)
    """
    eps = check_epsilon(epsilon)
    a = _gp._check_alpha(alpha, warn=False)  # the event's law needs no regret theorem
    if name == "AdaP-UCB":
        return eps - math.log1p(eps / 2)
    if name == "AdaP-KLUCB":
        if a * math.log(3) <= eps:
            raise ValueError(
                f"first_decision_log_ratio for AdaP-KLUCB needs epsilon < alpha log 3 = "
                f"{a * math.log(3):.4g}, got epsilon={epsilon!r}"
            )
        return eps
    raise ValueError(f"name must be 'AdaP-UCB' or 'AdaP-KLUCB', got {name!r}")


# ---- deliberately broken versions of Algorithm 1 (for audits that must fail)


class _ScaledLaplace:
    """A noise stream whose standard Laplace draws are multiplied by ``factor``."""

    def __init__(self, rng, factor):
        self.rng, self.factor = rng, factor

    def laplace(self):
        return self.factor * self.rng.laplace()


class _RunningMeanSampler:
    """Feeds Algorithm 1 ``length`` x (mean of ALL the arm's rewards so far) instead of the episode's sum,
    so that the released private mean is the running mean (no forgetting) with the episode's noise."""

    def __init__(self, instance, rng, sampler):
        self.instance, self.rng, self.sampler = instance, rng, sampler
        self.total = np.zeros(instance.n_arms)
        self.n = np.zeros(instance.n_arms)

    def __call__(self, arm, length):
        self.total[arm] += _gp.episode_sum(self.instance, arm, length, self.rng, self.sampler)
        self.n[arm] += length
        return length * self.total[arm] / self.n[arm]


@dataclass(frozen=True)
class ScaledNoiseEpisodes(_gp.AdaptiveEpisodes):
    """A deliberately BROKEN Algorithm 1, for audits: the Laplace noise of every private mean is
    ``noise_factor`` times the one Lemma 1 needs (scale ``noise_factor``/(ε m)); the index is unchanged.
    With factor 1/2 it is 2ε-global DP, not ε."""

    noise_factor: float = 0.5

    def run(self, instance, horizon, reward_rng, noise_rng, *, sampler="exact", trace=False):
        return super().run(
            instance, horizon, reward_rng, _ScaledLaplace(noise_rng, self.noise_factor), sampler=sampler, trace=trace
        )


@dataclass(frozen=True)
class NonForgettingEpisodes(_gp.AdaptiveEpisodes):
    """A deliberately BROKEN Algorithm 1, for audits: each release is the mean of ALL the arm's rewards so
    far plus the episode's noise Lap(1/(ε m)) (the third ingredient, forgetting, removed). One reward then
    enters every later release of its arm, and the losses add up beyond ε."""

    forgetful = False

    def run(self, instance, horizon, reward_rng, noise_rng, *, sampler="exact", trace=False):
        return super().run(
            instance,
            horizon,
            reward_rng,
            noise_rng,
            sampler=_RunningMeanSampler(instance, reward_rng, sampler),
            trace=trace,
        )


def broken_policy(name: str, epsilon, flaw: str, alpha=None):
    """AdaP-UCB or AdaP-KLUCB (``name``) with one ``flaw`` of :data:`BROKEN_FLAWS`: ``"noise-halved"``
    (:class:`ScaledNoiseEpisodes`, factor 1/2) or ``"no-forgetting"`` (:class:`NonForgettingEpisodes`).
    The name gets the flaw appended; ``epsilon`` is the level the policy claims."""
    if name not in ("AdaP-UCB", "AdaP-KLUCB"):
        raise ValueError(f"name must be 'AdaP-UCB' or 'AdaP-KLUCB', got {name!r}")
    if flaw not in BROKEN_FLAWS:
        raise ValueError(f"flaw must be one of {BROKEN_FLAWS}, got {flaw!r}")
    base = _gp.make_global_policy(name, epsilon, {"alpha": alpha})
    cls = ScaledNoiseEpisodes if flaw == "noise-halved" else NonForgettingEpisodes
    return cls(f"{name} ({flaw})", base.index, base.epsilon, base.alpha)
