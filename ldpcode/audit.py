r"""Empirical privacy checks: generators of ε-DP output distributions and checks of the privacy ratio.

A randomized mapping M is ε-DP on the reward set (Definition 1 of Ren et al. 2020) when every pair of
inputs r, r' gives output distributions f = law(M(r)), g = law(M(r')) with
:math:`\sup_x |\log(f(x)/g(x))| \le \epsilon`. On a finite output set such a pair is just two probability
vectors whose ratio stays in :math:`[e^{-\epsilon}, e^\epsilon]`; :func:`random_dp_pair` draws them, so that
statements quantified over *every* ε-DP mechanism (Lemma 12, Theorem 1) can be probed on many of them.

For a given mechanism, :func:`privacy_loss_matrix` computes the privacy level exactly from its output
probabilities (or densities on a grid), and :func:`binned_log_ratio` estimates it from samples of the
private outputs alone, with confidence bounds (Lemmas 2 and 5 of Ren et al. 2020).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._validate import as_float_array, check_array, check_epsilon, check_int, check_probability, check_real, check_rng

PAIR_MODES = ("interior", "extreme")


def _check_rng(rng, name: str = "rng") -> np.random.Generator:
    return check_rng(name, rng)


RANDOM_DP_PAIR_MAX_EPSILON = 700.0
r"""The largest ε :func:`random_dp_pair` accepts: a pair with ratio :math:`e^{\pm\epsilon}` needs probabilities
of order :math:`e^{-\epsilon}`, which leave the normal doubles (below 2.2e-308) beyond ε = 708."""


def random_dp_pair(epsilon, k, rng, *, mode: str = "interior", concentration: float = 1.0):
    r"""A random pair (f, g) of probability vectors on k points with :math:`|\log f_i/g_i| \le \epsilon`.

    The output laws of any ε-DP mechanism on two inputs, restricted to a finite output set, form such a
    pair (the setting of Lemma 12, Appendix A.8 of Ren et al. 2020); conversely every such pair is the
    output of an ε-DP mechanism on {0, 1}.

    Construction: g ~ Dirichlet(concentration, ..., concentration) and f = g * w with a weight vector
    w in the box :math:`[e^{-\epsilon}, e^\epsilon]^k` satisfying :math:`\sum_i g_i w_i = 1`, so the ratio
    :math:`f_i/g_i = w_i` is inside the box exactly, with no renormalization.

    * ``mode="interior"``: draw :math:`\log u_i` uniform on :math:`[-\epsilon, \epsilon]`; if
      :math:`g\cdot u > 1` mix u with the constant vector :math:`e^{-\epsilon}` (else with :math:`e^\epsilon`)
      in the one proportion that makes :math:`g\cdot w = 1`. A convex combination of points of the box stays
      in the box.
    * ``mode="extreme"``: every ratio is :math:`e^{\pm\epsilon}` exactly (randomized response spread over k
      points): a random non-empty proper subset A of the points gets :math:`w = e^\epsilon`, the rest
      :math:`e^{-\epsilon}`, and g puts mass :math:`1/(1+e^\epsilon)` on A (the only mass making
      :math:`g\cdot w = 1`), split at random inside A and inside its complement.

    Returns ``(f, g)``, two float arrays of shape ``(k,)`` with positive entries summing to 1 (up to
    rounding, about 1e-15). ε at most :data:`RANDOM_DP_PAIR_MAX_EPSILON` (700).
    """
    eps = check_epsilon(epsilon)
    k = check_int("k", k, minimum=2)
    rng = _check_rng(rng)
    if mode not in PAIR_MODES:
        raise ValueError(f"mode must be one of {PAIR_MODES}, got {mode!r}")
    conc = check_real("concentration", concentration)
    if conc <= 0:
        raise ValueError(f"concentration must be > 0, got {concentration!r}")
    if eps > RANDOM_DP_PAIR_MAX_EPSILON:
        raise ValueError(
            f"epsilon must be <= {RANDOM_DP_PAIR_MAX_EPSILON:g} for random_dp_pair, got {eps!r}: a pair "
            f"whose ratio reaches e^epsilon needs probabilities near e^-epsilon, below the smallest "
            f"normal double"
        )
    lo, hi = math.exp(-eps), math.exp(eps)
    if mode == "extreme":
        high = np.zeros(k, dtype=bool)
        high[rng.choice(k, size=int(rng.integers(1, k)), replace=False)] = True
        g = np.empty(k)
        mass_high = 1.0 / (1.0 + hi)
        for part, mass in ((high, mass_high), (~high, 1.0 - mass_high)):
            g[part] = mass * _positive_dirichlet(rng, conc, int(part.sum()))
        w = np.where(high, hi, lo)
        return g * w, g
    g = _positive_dirichlet(rng, conc, k)
    u = np.exp(rng.uniform(-eps, eps, size=k))
    s = float(g @ u)
    if s > 1.0:
        theta = (1.0 - lo) / (s - lo)
        w = theta * u + (1.0 - theta) * lo
    elif s < 1.0:
        theta = (hi - 1.0) / (hi - s)
        w = theta * u + (1.0 - theta) * hi
    else:
        w = u
    return g * np.clip(w, lo, hi), g


def _positive_dirichlet(rng, conc, k) -> np.ndarray:
    """Dirichlet(conc) on k points with every entry > 0 (redrawn in the rare case of an underflow)."""
    if k == 1:
        return np.ones(1)
    while True:
        x = rng.dirichlet(np.full(k, conc))
        if (x > 0).all():
            return x


def max_log_ratio(f, g) -> float:
    r""":math:`\max_i |\log(f_i/g_i)|`, the privacy level a pair of output distributions certifies.

    ``inf`` when the supports differ (one is zero where the other is not); points where both are zero are
    ignored. ``f`` and ``g`` must be probability vectors of the same length.
    """
    from .divergences import _probability_pair

    f, g = _probability_pair(f, g)
    if f.ndim != 1:
        raise ValueError(f"f and g must be 1-d probability vectors, got shape {f.shape}")
    both = (f > 0) | (g > 0)
    if ((f[both] == 0) | (g[both] == 0)).any():
        return math.inf
    return float(np.max(np.abs(np.log(f[both] / g[both])))) if both.any() else 0.0


def privacy_loss_matrix(table) -> np.ndarray:
    r"""Pairwise privacy losses of a mechanism given as a table of output laws.

    ``table[i, k]`` is the probability (or density) of output ``k`` given input ``i``: for CTB,
    rows :math:`(1 - p(r_i), p(r_i))` with :math:`p(r) = (re^\epsilon + 1 - r)/(1 + e^\epsilon)`
    (Curator 3); for CTL, the Laplace density :math:`f(x_k \mid r_i)` on a grid of outputs (Curator 1).
    Returns the (m, m) matrix

    .. math:: M_{ij} = \max_k \log\frac{\mathrm{table}[i, k]}{\mathrm{table}[j, k]},

    so the mechanism restricted to these inputs and outputs is ε-DP (Definition 1) exactly when
    :math:`\max_{ij} M_{ij} \le \epsilon`. Columns where both entries are 0 are ignored; an output with
    positive mass under input i and none under j gives ``inf``.
    """
    t = as_float_array("table", table, bools=False)
    if t.ndim != 2 or t.shape[0] < 1 or t.shape[1] < 1:
        raise ValueError(f"table must be a non-empty 2-d array (inputs x outputs), got shape {t.shape}")
    if not np.isfinite(t).all() or (t < 0).any():
        raise ValueError("table must hold finite non-negative probabilities or densities")
    if (t.sum(axis=1) == 0).any():
        raise ValueError("every row of table must have some positive entry (an output law)")
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(t)
        out = np.empty((t.shape[0], t.shape[0]))
        for i in range(t.shape[0]):
            d = logs[i][None, :] - logs  # nan where both entries are 0
            out[i] = np.max(np.where(np.isnan(d), -np.inf, d), axis=1)
    return out


@dataclass(frozen=True)
class BinnedLogRatio:
    """What :func:`binned_log_ratio` returns; arrays have one entry per bin (``edges`` one more)."""

    edges: np.ndarray
    counts_a: np.ndarray
    counts_b: np.ndarray
    log_ratio: np.ndarray  # log(p_a / p_b) from the counts; +-inf or nan where a count is 0
    se: np.ndarray  # delta-method standard error of log_ratio (nan where a count is 0)
    lower: np.ndarray  # simultaneous (1 - alpha) confidence bounds on log(p_a / p_b)
    upper: np.ndarray
    alpha: float
    max_lower: float  # (1 - alpha) lower confidence bound on max_k |log(p_a,k / p_b,k)|
    argmax: int  # the bin where max_lower is attained


def binned_log_ratio(samples_a, samples_b, bins, alpha: float = 0.05) -> BinnedLogRatio:
    r"""Estimate the privacy loss between two inputs from samples of a mechanism's outputs.

    ``samples_a`` are outputs :math:`M(r)`, ``samples_b`` outputs :math:`M(r')` (e.g. CTL responses to
    rewards 0 and 1). With :math:`p_{a,k}, p_{b,k}` the probabilities of bin k, an ε-DP mechanism
    (Definition 1; Lemmas 2 and 5 of Ren et al. 2020) has :math:`|\log(p_{a,k}/p_{b,k})| \le \epsilon`
    for every bin, since the ratio of probabilities of any event is within :math:`e^{\pm\epsilon}`.

    ``bins`` is a number of equal bins spanning the pooled samples, or an increasing array of edges
    (the outer edges may be ``-inf`` / ``inf`` to catch the tails; samples outside the edges are not
    counted, but still count in the totals, so :math:`p_{\cdot,k}` stays the probability of bin k). Bins
    are [e_k, e_{k+1}), the last one closed.

    Per bin: the point estimate :math:`\log(\hat p_{a,k}/\hat p_{b,k})`, its delta-method standard error
    :math:`\sqrt{1/n_{a,k} - 1/N_a + 1/n_{b,k} - 1/N_b}`, and confidence bounds from Clopper-Pearson
    intervals :math:`[\ell, h]` for each of the 2K bin probabilities at level ``alpha / (2K)`` each
    (Bonferroni): lower :math:`\log(\ell_{a,k}/h_{b,k})`, upper :math:`\log(h_{a,k}/\ell_{b,k})`. All
    2K intervals hold together with probability at least 1 - ``alpha``, hence so do all the bounds, and
    ``max_lower`` :math:`= \max(0, \max_k \max(\text{lower}_k, -\text{upper}_k))` is a (1 - ``alpha``) lower
    confidence bound on :math:`\max_k |\log(p_{a,k}/p_{b,k})|`, which ε-DP keeps below ε. The 0 matters: a
    maximum of absolute values is never negative, but each bin's one-sided bounds are, whenever its
    interval for the signed log-ratio contains 0; with many bins and few samples (``bins`` >> samples)
    every bin is so wide, at level alpha/(2K), that all are, and the bare maximum was a negative "lower
    bound on a privacy loss". ``argmax`` is the bin of the bare maximum.
    """

    a = _check_samples("samples_a", samples_a)
    b = _check_samples("samples_b", samples_b)
    alpha = check_probability("alpha", alpha)
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        k = check_int("bins", bins, minimum=1)
        both = np.concatenate([a, b])
        lo, hi = both.min(), both.max()
        edges = np.linspace(lo, hi, k + 1) if hi > lo else lo + np.linspace(-0.5, 0.5, k + 1)
    else:
        edges = as_float_array("bins", bins)
        if edges.ndim != 1 or edges.size < 2 or np.isnan(edges).any() or (np.diff(edges) <= 0).any():
            raise ValueError(
                f"bins must be an integer >= 1 or a strictly increasing 1-d array of at least 2 "
                f"edges (outer edges may be infinite), got {bins!r}"
            )
    k = edges.size - 1
    counts_a, counts_b = (_bin_counts(x, edges) for x in (a, b))
    n_a, n_b = a.size, b.size
    level = alpha / (2 * k)

    (lo_a, hi_a), (lo_b, hi_b) = _clopper_pearson(counts_a, n_a, level), _clopper_pearson(counts_b, n_b, level)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_ratio = np.log(counts_a / n_a) - np.log(counts_b / n_b)
        se = np.sqrt(1.0 / counts_a - 1.0 / n_a + 1.0 / counts_b - 1.0 / n_b)
        lower = np.log(lo_a) - np.log(hi_b)
        upper = np.log(hi_a) - np.log(lo_b)
    se = np.where((counts_a > 0) & (counts_b > 0), se, np.nan)
    both_sides = np.maximum(lower, -upper)
    j = int(np.argmax(both_sides))
    return BinnedLogRatio(
        edges, counts_a, counts_b, log_ratio, se, lower, upper, alpha, max(0.0, float(both_sides[j])), j
    )


def _check_samples(name, x) -> np.ndarray:
    arr = as_float_array(name, x)  # outputs may be bools (a binary mechanism), not strings
    if arr.ndim != 1 or arr.size == 0 or not np.isfinite(arr).all():
        raise ValueError(f"{name} must be a non-empty 1-d array of finite numbers, got shape {arr.shape}")
    return arr


def _bin_counts(x, edges) -> np.ndarray:
    """Counts of x in [e_k, e_{k+1}) (the last bin closed); values outside the edges are dropped."""
    idx = np.searchsorted(edges, x, side="right") - 1
    idx[x == edges[-1]] = edges.size - 2
    keep = (idx >= 0) & (idx < edges.size - 1)
    return np.bincount(idx[keep], minlength=edges.size - 1).astype(np.int64)


# ---------------------------------------------------------------------------------------------------
# ε-global DP of Algorithm 1 (Azize and Basu 2022): Lemma 1, Theorem 6 and the episodes of Figure 1
# ---------------------------------------------------------------------------------------------------
#
# Definition 2 of Azize and Basu: a policy is ε-global DP when pi(a^T | r^T) <= e^ε pi(a^T | r'^T) for every
# action sequence a^T and every two reward sequences r^T, r'^T that differ at one step. The tools below
# (i) release the private means of Lemma 1 and give their exact privacy loss, (ii) run a policy on a
# FIXED reward sequence many times (only its Laplace noise random) and estimate the law of the whole
# action sequence under two neighbouring sequences (:func:`action_sequence_audit`), (iii) build
# deliberately broken versions of Algorithm 1 for which such an audit must fail, and (iv) read a run's
# episodes (Figure 1, Example 2): which rewards and which noise each private mean used.

from . import global_policies as _gp  # noqa: E402
from . import mechanisms as _mech  # noqa: E402

REWARD_MODELS = ("step", "table")
BROKEN_FLAWS = ("noise-halved", "no-forgetting")


def _check_rewards(name, rewards, ndim) -> np.ndarray:
    """Rewards for Lemma 1, which needs them bounded: a non-empty ``ndim``-d array in [0, 1]."""
    return check_array(name, rewards, ndim=ndim, min_size=1, low=0.0, high=1.0)


def _episode_bounds(n_steps: int, starts) -> np.ndarray:
    """Validated 0-based [begin, end) of each sub-sequence cut at the 1-based ``starts``."""
    s = as_float_array("starts", starts, bools=False)
    if s.ndim != 1 or not np.all(s == np.round(s)):
        raise ValueError(f"starts must be a 1-d sequence of integer steps, got {starts!r}")
    s = s.astype(np.int64)
    if s.size and (s[0] <= 1 or s[-1] > n_steps or (np.diff(s) <= 0).any()):
        raise ValueError(f"starts must satisfy 1 < t_1 < ... < t_l <= T = {n_steps} (Lemma 1), got {starts!r}")
    cuts = np.concatenate([[0], s - 1, [n_steps]])
    return np.column_stack([cuts[:-1], cuts[1:]])


def _episode_means(rewards, starts):
    bounds = _episode_bounds(rewards.size, starts)
    lengths = (bounds[:, 1] - bounds[:, 0]).astype(float)
    sums = np.array([rewards[b:e].sum() for b, e in bounds])
    return sums, lengths


def lemma1_release(rewards, starts, epsilon, size: int, rng) -> np.ndarray:
    r"""``size`` independent outputs of the mechanism :math:`g^\epsilon` of Lemma 1 (Azize and Basu 2022).

    The rewards :math:`r_1, \dots, r_T \in [0, 1]` are cut at the 1-based steps
    :math:`1 < t_1 < \dots < t_\ell \le T` (``starts``) into the sub-sequences
    :math:`[1, t_1 - 1], [t_1, t_2 - 1], \dots, [t_\ell, T]`, and each releases its private mean
    :math:`\frac1m\sum r_t + \mathrm{Lap}(\frac{1}{\epsilon m})`, m its length
    (:func:`ldpcode.mechanisms.laplace_mean`; the paper's display divides by j - i for the j - i + 1
    rewards r_i..r_j, we divide by their number m). Returns shape ``(size, l + 1)``.
    """
    r = _check_rewards("rewards", rewards, 1)
    eps = check_epsilon(epsilon)
    size = check_int("size", size, minimum=1)
    rng = _check_rng(rng)
    sums, lengths = _episode_means(r, starts)
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


def action_sequence(blocks) -> str:
    """The action sequence a^T of a run (:class:`ldpcode.global_policies.Blocks`) as a string of arm
    numbers (0-based; arms >= 10 are written in brackets); blocks of several arms are round-robin."""
    out = []
    for arms, n in zip(blocks.arms, blocks.length):
        k = len(arms)
        if k == 1:
            out.append((str(arms[0]) if arms[0] < 10 else f"[{arms[0]}]") * n)
        else:
            out.extend(str(arms[i % k]) if arms[i % k] < 10 else f"[{arms[i % k]}]" for i in range(n))
    return "".join(out)


def algorithm1_action_sequences(n_arms: int, horizon: int, limit: int = 100_000) -> list:
    """Every action sequence Algorithm 1 of Azize and Basu can output (the output space of Theorem 6).

    Each arm is pulled once (round-robin), then every episode plays one arm until its count doubles
    (cut at the horizon). With Laplace noise of full support every choice of arms has positive
    probability, so all of these sequences occur. Sorted; raises ``ValueError`` beyond ``limit`` of them.
    """
    K = check_int("n_arms", n_arms, minimum=1)
    T = check_int("horizon", horizon, minimum=K)
    out = []
    head = action_sequence(_gp.Blocks(K, [0], [tuple(range(K))], [K]))

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
        r"""Estimated :math:`\log P_r(E)/P_{r'}(E)` of the event E = "a^T starts with ``prefix``" (the union
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
) -> ActionSequenceAudit:
    r"""Estimate :math:`\pi(a^T \mid r^T)` and :math:`\pi(a^T \mid r'^T)` for every action sequence and
    bound their log-ratios (Definition 2 and Theorem 6 of Azize and Basu 2022).

    The policy (any object with ``run(instance, horizon, reward_rng, noise_rng, sampler=)`` returning
    :class:`ldpcode.global_policies.Blocks`, e.g. AdaP-UCB) runs ``runs`` times on the fixed input
    ``rewards`` and ``runs`` times on ``neighbour`` (a :class:`FixedRewardSampler` of ``model``; the two
    must differ in exactly one entry, as in Definition 2); only the policy's own noise is random, drawn
    from two independent streams of ``numpy.random.SeedSequence(seed)``. The counts of each a^T go to
    :func:`binned_log_ratio` (Clopper-Pearson intervals, Bonferroni over all 2 x len(outputs) of them).

    ``outputs``: the action sequences to test, fixed before sampling (e.g.
    :func:`algorithm1_action_sequences`); None takes those observed. A run outside ``outputs`` raises
    ``ValueError``. ``epsilon`` is the level to test (default ``policy.epsilon``).
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
    seqs = []
    for ss, table in zip(_seed_sequence(seed).spawn(2), (r, rp)):
        noise = np.random.default_rng(ss)
        sampler = FixedRewardSampler(table, model)
        side = []
        for _ in range(runs):
            sampler.reset()
            side.append(action_sequence(policy.run(instance, T, None, noise, sampler=sampler)))
        seqs.append(side)
    if outputs is None:
        outputs = sorted(set(seqs[0]) | set(seqs[1]))
    else:
        outputs = list(outputs)
    code = {s: i for i, s in enumerate(outputs)}
    if len(code) != len(outputs):
        raise ValueError("outputs must not repeat an action sequence")
    try:
        codes = [np.array([code[s] for s in side], dtype=float) for side in seqs]
    except KeyError as exc:
        raise ValueError(f"the policy output the action sequence {exc.args[0]!r}, which is not in outputs") from None
    res = binned_log_ratio(codes[0], codes[1], np.arange(len(outputs) + 1) - 0.5, alpha=alpha)
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


# ---- one run's episodes, releases and decisions (Figure 1, Example 2)


class _RecordingLaplace:
    def __init__(self, rng):
        self.rng, self.draws = rng, []

    def laplace(self):
        d = self.rng.laplace()
        self.draws.append(d)
        return d


class _RecordingSampler:
    def __init__(self, instance, rng, sampler):
        self.instance, self.rng, self.sampler, self.calls = instance, rng, sampler, []

    def __call__(self, arm, length):
        s = _gp.episode_sum(self.instance, arm, length, self.rng, self.sampler)
        self.calls.append((int(arm), int(length), float(s)))
        return s


@dataclass(frozen=True)
class TracedRun:
    """One run of Algorithm 1 with what each private mean was made of. ``blocks`` is the run (with the
    trace of indexes and private means at each decision); ``releases`` one dict per private mean, in
    the order computed: arm, first and last step (1-based) of its episode, length m, reward sum,
    standard Laplace draw and the released value."""

    policy: object
    blocks: object
    releases: list


def traced_run(policy, instance, horizon: int, reward_rng, noise_rng, sampler="exact") -> TracedRun:
    """Run an Algorithm 1 policy once with ``trace=True``, recording every episode sum and noise draw."""
    T = check_int("horizon", horizon, minimum=instance.n_arms)
    _check_rng(noise_rng, "noise_rng")
    if not callable(sampler):  # a fixed-reward sampler needs no reward stream
        _check_rng(reward_rng, "reward_rng")
    rec_s = _RecordingSampler(instance, reward_rng, sampler)
    rec_n = _RecordingLaplace(noise_rng)
    blocks = policy.run(instance, T, reward_rng, rec_n, sampler=rec_s, trace=True)
    K = instance.n_arms
    spans = [(a + 1, a + 1) for a in range(K)] + [(s + 1, s + n) for s, n in zip(blocks.start[1:], blocks.length[1:])]
    releases = []
    for (arm, m, total), d, (first, last) in zip(rec_s.calls, rec_n.draws, spans):
        releases.append(
            dict(
                arm=arm,
                first=first,
                last=last,
                m=m,
                total=total,
                draw=float(d),
                value=float(_mech.laplace_mean(total, m, policy.epsilon, d)),
            )
        )
    return TracedRun(policy, blocks, releases)


def decision_table(traced: TracedRun) -> list:
    r"""One row per decision l >= 1 and arm: what the index of that arm at :math:`t_\ell` was built from.

    Keys: ``l``, ``t_l``, ``arm``, ``first``/``last`` (1-based steps of the arm's last released episode),
    ``m``, ``episode_mean`` (its rewards only), ``draw`` (standard Laplace), ``noise_scale``
    :math:`1/(\epsilon m)`, ``recomputed`` (= episode_mean + draw x noise_scale), ``private_mean`` (what the
    policy used, from the trace), ``all_mean`` (the mean of all the arm's rewards so far, which a
    non-forgetting policy would use), ``index`` and ``chosen``.
    """
    b = traced.blocks
    eps = traced.policy.epsilon
    rows = []
    for l in range(1, len(b.start)):
        t_l = b.start[l] + 1
        for arm in range(b.n_arms):
            past = [r for r in traced.releases if r["arm"] == arm and r["last"] < t_l]
            last = past[-1]
            rows.append(
                dict(
                    l=l,
                    t_l=t_l,
                    arm=arm,
                    first=last["first"],
                    last=last["last"],
                    m=last["m"],
                    episode_mean=last["total"] / last["m"],
                    draw=last["draw"],
                    noise_scale=1.0 / (eps * last["m"]),
                    recomputed=last["value"],
                    private_mean=float(b.private_means[l - 1][arm]),
                    all_mean=sum(r["total"] for r in past) / sum(r["m"] for r in past),
                    index=float(b.indexes[l - 1][arm]),
                    chosen=b.arms[l] == (arm,),
                )
            )
    return rows


def arm_episode_lengths(blocks) -> list:
    """Per arm, the lengths of its episodes in a run of Algorithm 1: its initial pull (1), then one entry
    per episode it was chosen for, in order."""
    out = [[1] for _ in range(blocks.n_arms)]
    for arms, n in zip(blocks.arms[1:], blocks.length[1:]):
        if len(arms) != 1:
            raise ValueError(f"blocks after the first must play one arm (Algorithm 1), got arms {arms}")
        out[arms[0]].append(int(n))
    return out


def doubling_violations(blocks, horizon: int) -> int:
    r"""How many arms break the per-arm doubling of Algorithm 1 (Line 7) in a run: an arm's episode
    lengths must be 1 (initial pull), 1, 2, 4, ..., i.e. each episode as long as all the arm's earlier
    pulls together, except the run's last episode, which may be cut short by the horizon (but not made
    longer). Also counts 1 if the lengths do not add up to ``horizon``."""
    T = check_int("horizon", horizon, minimum=1)
    lengths = arm_episode_lengths(blocks)
    last_arm = blocks.arms[-1][0] if len(blocks.arms) > 1 else -1
    bad = 0
    for a, ls in enumerate(lengths):
        ok = ls[0] == 1
        for i in range(1, len(ls)):
            want = 2 ** (i - 1)
            final = a == last_arm and i == len(ls) - 1
            ok &= (1 <= ls[i] <= want) if final else ls[i] == want
        bad += not ok
    return bad + (sum(blocks.length) != T)


def algorithm1_episode_bound(n_arms: int, horizon: int) -> float:
    r"""An upper bound on the number of episodes of Algorithm 1 in T steps, counting each arm's initial
    pull as an episode: :func:`ldpcode.bounds.adap_releases_bound` + 1 = :math:`K\log_2(T/K) + K + 1`.

    Every episode but the last releases one private mean; the last may be cut by the horizon and release
    none. (At most :math:`K(\log_2(T/K) + 2)`, the O(log T) "# Private Means" of Table 1.)
    """
    from .bounds import adap_releases_bound

    return adap_releases_bound(horizon, n_arms) + 1


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
    rewards, neighbour, starts, epsilon, samples: int, rng, *, bins_per_scale: int = 4, alpha: float = 0.05
) -> Lemma1Audit:
    r"""Sample Lemma 1's release :math:`g^\epsilon` (:func:`lemma1_release`) under two neighbouring reward
    sequences and compare the affected coordinate's law with the exact one.

    The affected coordinate i is :math:`\bar r_i + \mathrm{Lap}(b)`, :math:`b = 1/(\epsilon m_i)`, under
    r and :math:`\bar r'_i + \mathrm{Lap}(b)` under r'. Bins: the half-line below the smaller location, a
    grid of width :math:`b/`\ ``bins_per_scale`` from 3b below it to 3b above the larger one (the two
    locations are edges), and the half-line above. On the two half-lines the density ratio is constant,
    :math:`e^{\pm\epsilon m_i|\bar r_i - \bar r'_i|}`, so there the bin probability ratio equals the
    privacy loss exactly. The other coordinates are binned in ``bins_per_scale`` x 12 equal bins each.
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
    x = lemma1_release(r, starts, eps, samples, rng)
    xp = lemma1_release(rp, starts, eps, samples, rng)
    b = 1.0 / (eps * m[i])
    mu, mup = s[i] / m[i], sp[i] / m[i]
    lo, hi = min(mu, mup), max(mu, mup)
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
    binned = binned_log_ratio(x[:, i], xp[:, i], edges, alpha=alpha)
    cdf = laplace.cdf(edges, loc=mu, scale=b), laplace.cdf(edges, loc=mup, scale=b)
    exact = np.log(np.diff(cdf[0])) - np.log(np.diff(cdf[1]))
    others = [binned_log_ratio(x[:, c], xp[:, c], 12 * k, alpha=alpha).max_lower for c in range(m.size) if c != i]
    return Lemma1Audit(
        i, (float(mu), float(mup)), float(b), loss, binned, exact, float(max(others)) if others else -math.inf
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


# ---------------------------------------------------------------------------------------------------
# A black-box privacy audit of any curator (issue 6): claimed against realised privacy loss
# ---------------------------------------------------------------------------------------------------
#
# A curator is any object with ``privatize(values, rng)`` and a claimed ``epsilon`` (and ``delta`` for an
# (ε, δ) mechanism). :func:`curator_audit` feeds it a grid of inputs that includes the extremes of its domain
# and inputs outside it, samples its outputs, and returns a (1 - alpha) lower confidence bound on the privacy
# loss it realises. An audit can only refute a claim (lower bound > claimed ε); it can never prove one: a
# finite sample sees a finite set of events, and a mechanism may leak on events it never samples (see
# :func:`laplace_float_reachable` for one such leak, invisible to any binned audit). The deliberately broken
# curators below are there to show that the audit does refute what it should.

AUDIT_INPUTS = (0.0, 0.25, 0.5, 0.75, 1.0)  # the domain [0, 1] of Ren et al.'s rewards, extremes included
AUDIT_PROBES = (-1.0, 2.0, -1.0e6, 1.0e6)  # outside [0, 1]; inside the domain of CTL-S / CTB-S
_FLOAT_UNIFORM_STEP = 2.0**-53  # numpy's Generator.random() returns k 2^-53, k < 2^53


def _clopper_pearson(n, total, level):
    """Two-sided Clopper-Pearson interval at level ``level`` for n successes out of ``total`` (arrays)."""
    from scipy.stats import beta

    n = np.asarray(n, dtype=float)
    lo = np.where(n > 0, beta.ppf(level / 2, np.maximum(n, 1), total - n + 1), 0.0)
    hi = np.where(n < total, beta.ppf(1 - level / 2, n + 1, np.maximum(total - n, 1)), 1.0)
    return lo, hi


@dataclass(frozen=True)
class DeltaLogRatio:
    """What :func:`delta_log_ratio` returns. ``threshold`` and ``direction`` (``">="`` or ``"<"``) name the
    event :math:`S = \\{x \\ge c\\}` or :math:`\\{x < c\\}` where ``max_lower`` is attained, ``order`` is
    ``"ab"`` when the bound is on :math:`\\log((P_a(S) - \\delta)/P_b(S))`, ``"ba"`` for the other order."""

    thresholds: np.ndarray
    counts_a: np.ndarray  # samples of a at or above each threshold
    counts_b: np.ndarray
    delta: float
    alpha: float
    max_lower: float  # (1 - alpha) lower confidence bound on the epsilon the two laws need at delta
    estimate: float  # the same maximum with the empirical frequencies (-inf when no event qualifies)
    se: float  # delta-method standard error of the empirical log-ratio on the event of max_lower
    threshold: float
    direction: str
    order: str


def delta_log_ratio(samples_a, samples_b, thresholds, delta=0.0, alpha: float = 0.05) -> DeltaLogRatio:
    r"""Lower confidence bound on the ε that two output laws need at a given δ, from threshold events.

    A mechanism is (ε, δ)-DP when :math:`P_a(S) \le e^\epsilon P_b(S) + \delta` for every event S and every
    ordered pair of inputs (Dwork and Roth 2014, Definition 2.4). Hence for every S with
    :math:`P_a(S) > \delta`,

    .. math:: \epsilon \ge \log\frac{P_a(S) - \delta}{P_b(S)},

    and replacing :math:`P_a(S)` by a lower and :math:`P_b(S)` by an upper confidence bound gives a lower
    confidence bound on ε: the estimator of the auditing literature (Jagielski et al. 2020, Nasr et al. 2021,
    with Clopper-Pearson intervals). The events are :math:`S_j = \{x \ge c_j\}` and their complements
    :math:`\{x < c_j\}` for the J ``thresholds`` (fixed before sampling), in both orders (a, b) and (b, a).
    One two-sided Clopper-Pearson interval per threshold and sample, at level ``alpha``/(2J) each, covers an
    event and its complement; with Bonferroni over these 2J intervals, all bounds hold together with
    probability at least 1 - ``alpha``, hence so does their maximum ``max_lower``, floored at 0 (ε >= 0 in
    every definition, so 0 is always a valid lower bound; the bare maximum is negative or -inf when no event
    has :math:`P_a(S) > \delta` by a clear margin). With ``delta`` = 0 this is
    a pure-ε audit on threshold events. For Gaussian outputs the likelihood ratio is monotone, so threshold
    events are the optimal ones and the supremum over c of the exact quantity is the exact ε(δ).
    """
    a = _check_samples("samples_a", samples_a)
    b = _check_samples("samples_b", samples_b)
    c = as_float_array("thresholds", thresholds, bools=False)
    if c.ndim != 1 or c.size == 0 or not np.isfinite(c).all() or (np.diff(c) <= 0).any():
        raise ValueError(
            f"thresholds must be a non-empty strictly increasing 1-d array of finite numbers, got {thresholds!r}"
        )
    d = check_probability("delta", delta, low_closed=True)
    alpha = check_probability("alpha", alpha)
    level = alpha / (2 * c.size)
    na, nb = a.size, b.size
    ka = (a[None, :] >= c[:, None]).sum(axis=1)
    kb = (b[None, :] >= c[:, None]).sum(axis=1)
    lo_a, hi_a = _clopper_pearson(ka, na, level)
    lo_b, hi_b = _clopper_pearson(kb, nb, level)
    # events: (S_j, complement) x orders; each entry: (lower of numerator prob, upper of denominator prob, p_num, p_den)
    cands = {
        (">=", "ab"): (lo_a, hi_b, ka / na, kb / nb),
        (">=", "ba"): (lo_b, hi_a, kb / nb, ka / na),
        ("<", "ab"): (1 - hi_a, 1 - lo_b, 1 - ka / na, 1 - kb / nb),
        ("<", "ba"): (1 - hi_b, 1 - lo_a, 1 - kb / nb, 1 - ka / na),
    }
    best, best_key, best_j, est, se = -math.inf, (">=", "ab"), 0, -math.inf, math.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        for key, (num_lo, den_hi, p_num, p_den) in cands.items():
            bound = np.where(num_lo > d, np.log(np.maximum(num_lo - d, 1e-300)) - np.log(den_hi), -np.inf)
            j = int(np.argmax(bound))
            if bound[j] > best:
                best, best_key, best_j = float(bound[j]), key, j
                pn, pd = float(p_num[j]), float(p_den[j])  # var of log(p - d) ~ p(1-p)/(n (p-d)^2)
                n_num, n_den = (na, nb) if key[1] == "ab" else (nb, na)
                se = (
                    math.sqrt(pn * (1 - pn) / (n_num * (pn - d) ** 2) + (1 - pd) / (n_den * pd))
                    if pn > d and pd > 0
                    else math.nan
                )
            point = np.where(p_num > d, np.log(p_num - d) - np.log(p_den), -np.inf)
            est = max(est, float(np.max(point)))
    return DeltaLogRatio(
        c,
        ka.astype(np.int64),
        kb.astype(np.int64),
        d,
        alpha,
        max(0.0, best),
        est,
        se,
        float(c[best_j]),
        best_key[0],
        best_key[1],
    )


@dataclass(frozen=True)
class CuratorAudit:
    """What :func:`curator_audit` returns.

    ``inputs`` are the inputs the curator accepted (audited pairwise), ``rejected`` those it refused with
    ``ValueError`` (a curator passes for an input it refuses). ``lower`` is the (1 - ``alpha``) lower confidence
    bound on the privacy loss realised over all pairs of accepted inputs (on the ε scale, at the claimed
    ``delta``), ``estimate`` the plug-in value (``inf`` when an event is seen under one input and never under
    the other), ``worst_pair`` the two inputs where ``lower`` is attained, ``pair_lower`` the matrix of
    pairwise lower bounds, ``exact`` the exact loss over the accepted inputs where the output law is known in
    closed form (:func:`exact_curator_loss`; nan otherwise), ``se`` the delta-method standard error of the
    empirical log-ratio on the event where ``lower`` is attained (nan if an estimate there is infinite;
    for tolerances). ``refuted`` is True when ``lower`` exceeds the
    claimed ``epsilon``: the claim is then false with confidence at least 1 - ``alpha``.
    """

    name: str
    epsilon: float
    delta: float
    inputs: tuple
    rejected: tuple
    samples: int
    alpha: float
    method: str  # "binned" (pure ε) or "threshold" (δ > 0)
    discrete: bool  # every output seen in the pilot repeated: categories, counted exactly
    events: int  # bins (binned) or thresholds (threshold) per input
    lower: float
    estimate: float
    worst_pair: tuple
    pair_lower: np.ndarray
    exact: float
    se: float

    @property
    def refuted(self) -> bool:
        return bool(self.lower > self.epsilon)


def _curator_name(curator) -> str:
    name = getattr(curator, "name", None)
    return name if isinstance(name, str) else type(curator).__name__


def _audit_edges(pooled, bins, tail_levels: bool):
    """Bin edges from the pooled pilot outputs: each value seen at least twice (an atom) gets a bin of its
    own; the other values are cut at their quantiles. All values atoms: cuts at the midpoints."""
    vals, counts = np.unique(pooled, return_counts=True)
    atoms = vals[counts >= 2]
    rest = np.repeat(vals[counts < 2], counts[counts < 2])
    if rest.size == 0:
        return np.concatenate([[-np.inf], (atoms[1:] + atoms[:-1]) / 2, [np.inf]]), True
    if tail_levels:
        levels = np.unique(
            np.concatenate(
                [
                    [1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2],
                    np.arange(1, bins) / bins,
                    1 - np.array([1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2]),
                ]
            )
        )
    else:
        levels = np.arange(1, bins) / bins
    cuts = np.quantile(rest, levels) if levels.size else np.empty(0)
    singles = np.concatenate([atoms, np.nextafter(atoms, np.inf)])
    inner = np.unique(np.concatenate([cuts, singles]))
    inner = inner[np.isfinite(inner)]
    return np.concatenate([[-np.inf], inner, [np.inf]]), False


def curator_audit(
    curator,
    samples: int = 100_000,
    seed=0,
    *,
    inputs=AUDIT_INPUTS,
    probes=AUDIT_PROBES,
    epsilon=None,
    delta=None,
    bins: int = 10,
    pilot=None,
    alpha: float = 0.05,
) -> CuratorAudit:
    r"""Black-box privacy audit of a curator: a lower confidence bound on the privacy loss it realises.

    Definition 1 of Ren et al. (2020) (ε-LDP): for every two inputs r, r' and every event S,
    :math:`P\{M(r)\in S\} \le e^\epsilon P\{M(r')\in S\}`; (ε, δ)-LDP adds δ on the right (Zheng et al.
    2020, Definition 2; Dwork and Roth 2014). The audit:

    1. feeds ``curator.privatize(np.full(n, r), rng)`` every r in ``inputs`` (default: the grid
       :data:`AUDIT_INPUTS` of [0, 1], extremes 0 and 1 included) and in ``probes`` (default
       :data:`AUDIT_PROBES`: -1, 2, ±10^6). An input the curator refuses with ``ValueError`` is recorded in
       ``rejected`` and passes; every accepted input must honour the claim, in or out of range (a value
       given twice is audited once). (Give
       ``probes=()`` for mechanisms whose domain is a promise of the caller, such as
       :class:`~ldpcode.mechanisms.GaussianMechanism` and :class:`~ldpcode.mechanisms.LaplaceMechanism`,
       which add noise calibrated to a sensitivity and accept any real input.)
    2. draws a pilot of ``pilot`` outputs per input (default ``max(1000, samples // 10)``) to fix the events
       before the main sample is drawn (so the events do not depend on it): every output value seen at least
       twice is an atom and gets a category of its own (for discrete outputs, e.g. CTB, the categories are
       the outputs themselves, counted exactly); the other outputs are cut at ``bins`` quantiles of the
       pooled pilot, the outer bins being half-lines (where a Laplace curator's density ratio is constant
       and equal to its loss).
    3. draws ``samples`` outputs per input. Pure ε (``delta`` = 0): for every pair of accepted inputs,
       :func:`binned_log_ratio` bounds :math:`\max_k|\log(p_{r,k}/p_{r',k})|`; (ε, δ): :func:`delta_log_ratio`
       bounds :math:`\max_S \log((P_r(S) - \delta)/P_{r'}(S))` over threshold events (the finite edges, with
       extra quantiles in the tails). Bonferroni: each pairwise call runs at level 2 ``alpha``/m (m accepted
       inputs), which puts each of an input's K Clopper-Pearson intervals at level ``alpha``/(mK); the same
       intervals serve every pair an input belongs to, so all m K intervals, hence all pairwise bounds and
       their maximum ``lower``, hold together with probability at least 1 - ``alpha``. The correction is over
       inputs x events, not pairs x events.

    ``epsilon`` and ``delta`` are the claim (default ``curator.epsilon`` and ``getattr(curator, "delta", 0)``;
    ε = 0 is allowed, e.g. a heterogeneous user at ε_t = 0). ``seed`` (an int, a list of ints or a
    SeedSequence) gives every input its own stream, ``numpy.random.SeedSequence(seed).spawn``. The
    result's ``refuted`` is True when ``lower`` exceeds the claimed ε. An audit that does not refute
    proves nothing: it is a lower bound.
    """
    eps = getattr(curator, "epsilon", None) if epsilon is None else epsilon
    if eps is None:
        raise ValueError("epsilon must be given when the curator has no .epsilon (the claimed privacy level)")
    eps = check_real("epsilon", eps)
    if eps < 0:
        raise ValueError(f"epsilon must be a finite number >= 0 (the claimed level), got {eps!r}")
    d = getattr(curator, "delta", 0.0) if delta is None else delta
    d = check_probability("delta", d, low_closed=True)
    if not callable(getattr(curator, "privatize", None)):
        raise TypeError(f"curator must have a privatize(values, rng) method, got {curator!r}")
    n = check_int("samples", samples, minimum=100)
    k = check_int("bins", bins, minimum=1)
    n_pilot = max(1000, n // 10) if pilot is None else check_int("pilot", pilot, minimum=10)
    alpha = check_probability("alpha", alpha)
    grid = []
    for label, seq in (("inputs", inputs), ("probes", probes)):
        for x in check_array(label, seq, ndim=1).tolist():
            if x not in grid:  # a repeated value is audited once
                grid.append(x)
    if len(grid) < 2:
        raise ValueError(f"inputs and probes must hold at least two values together, got {grid}")
    streams = [np.random.default_rng(s) for s in _seed_sequence(seed).spawn(len(grid))]
    accepted, rejected, pilots, rngs = [], [], [], []
    for r, g in zip(grid, streams):
        try:
            out = curator.privatize(np.full(n_pilot, r), g)
        except ValueError:
            rejected.append(r)
            continue
        accepted.append(r)
        pilots.append(_check_outputs(curator, r, out, n_pilot))
        rngs.append(g)
    m = len(accepted)
    if m < 2:
        raise ValueError(
            f"the curator accepted fewer than two of the inputs {grid} (rejected {rejected}); "
            "an audit compares at least two"
        )
    tail = d > 0
    edges, discrete = _audit_edges(np.concatenate(pilots), k, tail)
    outs = [_check_outputs(curator, r, curator.privatize(np.full(n, r), g), n) for r, g in zip(accepted, rngs)]
    pair_alpha = 2 * alpha / m
    pair = np.full((m, m), -np.inf)
    pair_se = np.full((m, m), np.nan)
    est = -math.inf
    thresholds = edges[1:-1]
    for i in range(m):
        for j in range(i + 1, m):
            if tail:
                if thresholds.size == 0:
                    continue
                res = delta_log_ratio(outs[i], outs[j], thresholds, d, pair_alpha)
                lo, pe, sd = res.max_lower, res.estimate, res.se
            else:
                res = binned_log_ratio(outs[i], outs[j], edges, alpha=pair_alpha)
                lo, sd = res.max_lower, float(res.se[res.argmax])
                seen = (res.counts_a > 0) | (res.counts_b > 0)
                pe = float(np.max(np.abs(res.log_ratio[seen]))) if seen.any() else 0.0
            pair[i, j] = pair[j, i] = lo
            pair_se[i, j] = pair_se[j, i] = sd
            est = max(est, pe)
    i, j = np.unravel_index(int(np.argmax(pair)), pair.shape)
    exact = exact_curator_loss(curator, accepted, d)  # at the audited delta: 0 for a pure-epsilon claim
    return CuratorAudit(
        _curator_name(curator),
        eps,
        d,
        tuple(accepted),
        tuple(rejected),
        n,
        alpha,
        "threshold" if tail else "binned",
        discrete,
        int(thresholds.size if tail else edges.size - 1),
        max(0.0, float(pair[i, j])),
        float(est),
        tuple(sorted((accepted[i], accepted[j]))),
        pair,
        exact,
        float(pair_se[i, j]),
    )


def _seed_sequence(seed, name: str = "seed") -> np.random.SeedSequence:
    """``seed`` as a SeedSequence: a SeedSequence as is, else its entropy, an integer >= 0 or a non-empty list
    of them (checked here, so that a bad seed is named instead of getting NumPy's message)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, (list, tuple)):
        if not seed:
            raise ValueError(
                f"{name} must be an integer >= 0, a non-empty list of them or a numpy.random.SeedSequence, got {seed!r}"
            )
        return np.random.SeedSequence([check_int(f"{name}[{i}]", v, minimum=0) for i, v in enumerate(seed)])
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(
            f"{name} must be an integer >= 0, a list of them or a numpy.random.SeedSequence, got "
            f"{seed!r} of type {type(seed).__name__}"
        )
    return np.random.SeedSequence(check_int(name, seed, minimum=0))


def _check_outputs(curator, r, out, n) -> np.ndarray:
    arr = np.asarray(out, dtype=float)
    if arr.shape != (n,) or not np.isfinite(arr).all():
        raise ValueError(
            f"{_curator_name(curator)}.privatize must return {n} finite numbers for {n} inputs "
            f"(input {r!r}), got shape {arr.shape}"
        )
    return arr


def _ctb_rows(p1, p0):
    return np.column_stack([p0, p1])


def exact_curator_loss(curator, inputs, delta=None) -> float:
    r"""The exact privacy loss of a curator over ``inputs``, where its output law is known in closed form.

    * CTB and CTB-S (Curators 3 and 6 of Ren et al. 2020): :func:`privacy_loss_matrix` of the rows
      :math:`(P\{0\}, P\{1\})`, :math:`P\{1\} = (ue^\epsilon + 1 - u)/(1 + e^\epsilon)`, u = r or s(r) (both
      probabilities computed directly, so that :math:`1/(1+e^\epsilon)` is not lost to rounding for large ε);
    * CTL and CTL-S (Curators 1 and 5), :class:`~ldpcode.mechanisms.LaplaceMechanism`: Laplace laws of one
      scale b, whose loss is :math:`\max|u - u'|/b` (Lemmas 2 and 8);
    * :class:`~ldpcode.mechanisms.GaussianMechanism` at ``delta`` (default: its own δ): the smallest ε with
      :math:`\delta(\epsilon) \le \delta` for the exact :math:`\delta(\epsilon)` of Balle and Wang (2018,
      Theorem 8) (:func:`ldpcode.reductions.gaussian_exact_delta`), Δ = the spread of ``inputs``; ``inf`` at
      ``delta=0`` (a pure-ε claim, which no Gaussian mechanism meets);
    * any object with an ``exact_loss(inputs)`` method (the broken curators and :class:`HeterogeneousCurator`);
    * otherwise nan.

    These are the laws of the papers, in real arithmetic; :func:`ctb_float_probability_one` gives the law
    the floating-point implementation actually has.
    """
    x = check_array("inputs", inputs, ndim=1, min_size=1)
    if hasattr(curator, "exact_loss"):
        return float(curator.exact_loss(x))
    if isinstance(curator, _mech.CTB):
        u = _mech.sigmoid(x) if curator.use_sigmoid else x
        return _ctb_exact(u, curator.epsilon)
    if isinstance(curator, _mech.CTL):
        u = _mech.sigmoid(x) if curator.use_sigmoid else x
        return float((u.max() - u.min()) / curator.laplace_scale)
    if isinstance(curator, _mech.LaplaceMechanism):
        return float((x.max() - x.min()) / curator.scale)
    if isinstance(curator, _mech.GaussianMechanism):
        dl = curator.delta if delta is None else delta
        return gaussian_epsilon_at_delta(curator.sigma, float(x.max() - x.min()), dl)
    return math.nan


def _ctb_exact(u, epsilon) -> float:
    """CTB's exact loss over inputs u in [0, 1]. For ε > 700 (e^ε near overflow, and P{1 | u = 0} = 1/(1+e^ε)
    below the smallest double from ε = 745) in log space: log P{1 | u} = log(u s(ε) + (1-u) s(-ε)), s the
    Sigmoid, by log-sum-exp; P{1 | u} is monotone in u, so the loss is the spread of the log-probabilities.
    (It was capped at ε = 700: the exact loss of CTB at ε = 1e4 came out as 700.)"""
    eps = float(epsilon)
    if eps <= 700.0:
        e = math.exp(eps)
        p1 = (u * e + 1.0 - u) / (1.0 + e)
        p0 = ((1.0 - u) * e + u) / (1.0 + e)
        return float(privacy_loss_matrix(_ctb_rows(p1, p0)).max())
    u = np.asarray(u, dtype=float)
    with np.errstate(divide="ignore"):
        lu, l1u = np.log(u), np.log1p(-u)
    ls_hi = -math.log1p(math.exp(-eps))  # log s(eps)
    ls_lo = ls_hi - eps  # log s(-eps)
    lp1 = np.logaddexp(lu + ls_hi, l1u + ls_lo)
    lp0 = np.logaddexp(l1u + ls_hi, lu + ls_lo)
    return float(max(lp1.max() - lp1.min(), lp0.max() - lp0.min()))


def gaussian_epsilon_at_delta(sigma, sensitivity, delta) -> float:
    r"""The exact ε of the Gaussian mechanism :math:`x + N(0, \sigma^2)` with sensitivity Δ at a given δ:
    the smallest ε >= 0 with :math:`\delta(\epsilon) \le \delta`, for the exact
    :math:`\delta(\epsilon) = \Phi(\tfrac{\Delta}{2\sigma} - \tfrac{\epsilon\sigma}{\Delta}) - e^\epsilon
    \Phi(-\tfrac{\Delta}{2\sigma} - \tfrac{\epsilon\sigma}{\Delta})` of Balle and Wang (2018, Theorem 8),
    which decreases in ε (root by Brent's method). 0 when Δ = 0 or δ(0) <= δ; ``inf`` at δ = 0 (Δ > 0): the
    Gaussian mechanism satisfies no pure ε-DP, its privacy loss random variable being unbounded."""
    from scipy.optimize import brentq

    from .reductions import gaussian_exact_delta

    s = check_real("sigma", sigma)
    if s <= 0:
        raise ValueError(f"sigma must be > 0, got {sigma!r}")
    dd = check_real("sensitivity", sensitivity)
    if dd < 0:
        raise ValueError(f"sensitivity must be >= 0, got {sensitivity!r}")
    dl = check_probability("delta", delta, low_closed=True)
    if dd == 0:
        return 0.0
    if dl == 0.0:
        return math.inf  # Gaussian noise has no pure-epsilon guarantee: delta(eps) > 0 for every finite eps
    if float(gaussian_exact_delta(0.0, s, dd)) <= dl:
        return 0.0
    f = lambda e: float(gaussian_exact_delta(e, s, dd)) - dl  # noqa: E731
    hi = 1.0
    while f(hi) > 0:
        hi *= 2.0
        if hi > 1e300:  # the root is beyond the doubles (Delta/sigma above 1e150): the loss is infinite
            return math.inf
    return float(brentq(f, 0.0, hi, xtol=1e-12, rtol=1e-12))


# ---- the curators of the heterogeneous setting, at one level eps_t


@dataclass(frozen=True)
class HeterogeneousCurator:
    """The curator of a HeLDP policy (Ren et al., extended version, Agents 2 and 4) applied to a user at level
    ``epsilon`` = ε_t >= 0: :meth:`ldpcode.mechanisms.Curator.respond_to_users` with every ε_t equal, the code
    path of the heterogeneous setting (at ε_t = 0, and below EPSILON_FLOOR = 1e-9, CTL answers the constant 1/2
    and CTB a fair coin: 0-DP).
    ``curator`` is the curator's name, ``"CTL"``, ``"CTB"``, ``"CTL-S"`` or ``"CTB-S"``."""

    curator: str
    epsilon: float

    def __post_init__(self):
        from ._validate import check_choice

        check_choice("curator", self.curator, _mech.CURATORS)
        e = check_real("epsilon", self.epsilon)
        if e < 0:
            raise ValueError(f"epsilon must be a finite number >= 0 (a user's level eps_t), got {self.epsilon!r}")
        object.__setattr__(self, "epsilon", e)

    @property
    def name(self) -> str:
        return f"{self.curator} at eps_t = {self.epsilon:g}"

    def privatize(self, values, rng: np.random.Generator) -> np.ndarray:
        v = as_float_array("values", values)
        return _mech.CURATORS[self.curator].respond_to_users(v, np.full(v.shape, self.epsilon), rng)[1]

    def exact_loss(self, inputs) -> float:
        from ._validate import EPSILON_FLOOR

        if self.epsilon < EPSILON_FLOOR:  # answered as at eps_t = 0 (respond_to_users): 0-DP
            return 0.0
        return exact_curator_loss(_mech.CURATORS[self.curator](self.epsilon), inputs)


# ---- deliberately broken curators (for audits that must fail)


class HalfScaleCTL(_mech.CTL):
    """A deliberately BROKEN CTL: Laplace noise of scale 1/(2ε) instead of 1/ε. It claims ε and is 2ε-LDP
    on [0, 1] (exact loss 2ε between 0 and 1)."""

    name = "CTL (half scale)"

    @property
    def laplace_scale(self) -> float:
        return 0.5 / self.epsilon


class SwappedCTB(_mech.CTB):
    """CTB with its two probabilities swapped: answers 1 with probability :math:`1 - p(r)`. The output is
    CTB's with 0 and 1 exchanged, a relabelling, so it is still exactly ε-LDP: a privacy audit cannot and
    should not refute it. What is broken is its utility: its mean is :math:`1 - \\mu_{a,\\epsilon}`, not
    Lemma 5's :math:`\\mu_{a,\\epsilon}` (which it inherits as ``output_mean``), and an agent that unbiases
    its responses learns the wrong arm. :func:`output_mean_audit` catches it."""

    name = "CTB (swapped)"

    def privatize(self, rewards, rng: np.random.Generator) -> np.ndarray:
        return 1.0 - super().privatize(rewards, rng)

    def probability_one(self, r):
        return 1.0 - super().probability_one(r)

    def exact_loss(self, inputs) -> float:
        return _ctb_exact(np.asarray(inputs, dtype=float), self.epsilon)  # a relabelling: the same loss as CTB


class UnclippedCTB(_mech.CTB):
    """A deliberately BROKEN CTB: it accepts any real reward and applies Curator 3's formula
    :math:`p(r) = (re^\\epsilon + 1 - r)/(1 + e^\\epsilon)` without checking or clipping r to [0, 1]. Outside
    [0, 1], p(r) leaves :math:`[1/(1+e^\\epsilon), e^\\epsilon/(1+e^\\epsilon)]`: the log-ratio of its answers
    exceeds ε, and it is infinite once p(r) reaches 0 or 1 (the answer is then certain; ``random() < p``
    compares with the unclipped p, so p > 1 means always 1 and p < 0 never)."""

    name = "CTB (unclipped)"
    bounded = False

    def probability_one(self, r):
        r = _finite("r", r)
        return np.clip(_mech.ctb_probability(r, self.exp_eps), 0.0, 1.0)

    def privatize(self, rewards, rng: np.random.Generator) -> np.ndarray:
        r = _finite("rewards", rewards)
        return (rng.random(r.shape) < _mech.ctb_probability(r, self.exp_eps)).astype(float)

    def exact_loss(self, inputs) -> float:
        x = np.asarray(inputs, dtype=float)
        if self.epsilon > 700.0:  # e^eps near overflow: CTB's loss inside [0, 1]; outside, p(r) leaves [0, 1]
            inside = (x >= 0) & (x <= 1)
            return _ctb_exact(x, self.epsilon) if inside.all() else math.inf
        e = self.exp_eps
        p1 = np.clip((x * e + 1.0 - x) / (1.0 + e), 0.0, 1.0)
        p0 = np.clip(((1.0 - x) * e + x) / (1.0 + e), 0.0, 1.0)
        return float(privacy_loss_matrix(_ctb_rows(p1, p0)).max())


class LeakyCTL(_mech.CTL):
    """A deliberately BROKEN CTL: inside [0, 1] it is Curator 1, outside it returns the raw value (the bug of
    a curator that "passes through" what it was not designed for, instead of refusing it). An out-of-range
    input is then identified exactly by its output: infinite privacy loss."""

    name = "CTL (leaky)"
    bounded = False

    def privatize(self, rewards, rng: np.random.Generator) -> np.ndarray:
        r = _finite("rewards", rewards)
        inside = (r >= 0) & (r <= 1)
        out = r.copy()
        noisy = r + rng.laplace(0.0, 1.0, r.shape) * self.laplace_scale
        out[inside] = noisy[inside]
        return out

    def exact_loss(self, inputs) -> float:
        x = np.asarray(inputs, dtype=float)
        if ((x < 0) | (x > 1)).any():
            return math.inf
        return float((x.max() - x.min()) / self.laplace_scale)


def _finite(name, values) -> np.ndarray:
    from ._validate import check_finite_array

    return check_finite_array(name, values)


BROKEN_CURATOR_FLAWS = {"half-scale": HalfScaleCTL, "swapped": SwappedCTB, "unclipped": UnclippedCTB, "leaky": LeakyCTL}


def broken_curator(flaw: str, epsilon):
    """A deliberately broken curator claiming ``epsilon``: ``"half-scale"`` (:class:`HalfScaleCTL`, 2ε-LDP),
    ``"swapped"`` (:class:`SwappedCTB`, still ε-LDP but with a wrong mean), ``"unclipped"``
    (:class:`UnclippedCTB`) or ``"leaky"`` (:class:`LeakyCTL`), the last two leaking on out-of-range input."""
    from ._validate import check_choice

    return BROKEN_CURATOR_FLAWS[check_choice("flaw", flaw, BROKEN_CURATOR_FLAWS)](epsilon)


@dataclass(frozen=True)
class OutputMeanAudit:
    """What :func:`output_mean_audit` returns, one entry per reward: the claimed mean, the sample mean, its
    standard error and z-score; ``refuted`` is True when some ``|z|`` exceeds ``critical``."""

    rewards: np.ndarray
    claimed: np.ndarray
    mean: np.ndarray
    se: np.ndarray
    z: np.ndarray
    critical: float
    alpha: float

    @property
    def refuted(self) -> bool:
        return bool(np.max(np.abs(self.z)) > self.critical)


def output_mean_audit(
    curator, rewards=(0.0, 0.25, 0.5, 0.75, 1.0), samples: int = 100_000, seed=0, alpha: float = 0.05
) -> OutputMeanAudit:
    r"""Does the curator's response have the mean it claims (``curator.output_mean(r)``, e.g. Lemma 5 for
    CTB: :math:`\tfrac12 + (2r - 1)\frac{e^\epsilon - 1}{2(e^\epsilon + 1)}`)? A check of correctness, not
    of privacy: it catches a curator whose privacy is intact but whose responses the agent would
    misread (:class:`SwappedCTB`). For each reward, ``samples`` responses, the z-score of their mean
    against the claim with the sample standard error; Bonferroni over the rewards: refuted when some
    :math:`|z| > \Phi^{-1}(1 - \alpha/(2m))` (asymptotic: the central limit theorem, accurate at this n for
    responses with finite variance)."""
    from scipy.stats import norm

    if not callable(getattr(curator, "output_mean", None)) or not callable(getattr(curator, "privatize", None)):
        raise TypeError(f"curator must have privatize(values, rng) and output_mean(mu), got {curator!r}")
    r = check_array("rewards", rewards, ndim=1, min_size=1)
    n = check_int("samples", samples, minimum=2)
    alpha = check_probability("alpha", alpha)
    rngs = [np.random.default_rng(s) for s in _seed_sequence(seed).spawn(r.size)]
    claimed = np.array([float(curator.output_mean(x)) for x in r])
    outs = [np.asarray(curator.privatize(np.full(n, x), g), dtype=float) for x, g in zip(r, rngs)]
    mean = np.array([o.mean() for o in outs])
    se = np.array([o.std(ddof=1) / math.sqrt(n) for o in outs])
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, (mean - claimed) / se, np.where(mean == claimed, 0.0, np.inf))
    return OutputMeanAudit(r, claimed, mean, se, z, float(norm.ppf(1 - alpha / (2 * r.size))), alpha)


# ---- floating-point Laplace sampling (Mironov 2012)


def laplace_float_output(k, r, scale):
    r"""The output of ldpcode's Laplace curators, in floating point, for the uniform draw :math:`U = k\,2^{-53}`.

    numpy's ``Generator.laplace`` (which CTL, CTL-S and :class:`~ldpcode.mechanisms.LaplaceMechanism` call)
    is the textbook inverse-CDF sampler: it draws :math:`U = k 2^{-53}` (``Generator.random``), returns
    :math:`\log(U + U)` for U < 1/2 and :math:`-\log(2 - U - U)` for U >= 1/2 (U = 0 redrawn), and the curator
    outputs :math:`r + b\cdot\text{that}`, every operation rounded to a double. This is that map, exactly;
    ``k`` integers in [1, 2^53) (arrays broadcast). The tests check it against ``Generator.laplace``.
    """
    k = np.asarray(k)
    if not np.issubdtype(k.dtype, np.integer) or (k < 1).any() or (k >= 2**53).any():
        raise ValueError("k must hold integers in [1, 2^53)")
    b = check_real("scale", scale)
    if b <= 0:
        raise ValueError(f"scale must be > 0, got {scale!r}")
    u = k.astype(np.float64) * _FLOAT_UNIFORM_STEP
    noise = _mech._laplace_from_uniform(u.ravel()).reshape(u.shape)  # the engine's own copy of numpy's formula
    return check_array("r", r) + noise * b


def laplace_float_reachable(x, r, scale, window: int = 3) -> np.ndarray:
    r"""Which outputs ``x`` the floating-point Laplace curator (:func:`laplace_float_output`) can produce from
    input ``r``: True where some :math:`k \in [1, 2^{53})` gives exactly x.

    The map k -> output is non-decreasing (log, the product by b > 0 and the sum with r are monotone under
    rounding), so a binary search over k (53 steps, vectorised over x) finds the smallest k whose output is
    >= x; x is reachable when that k, or one of its ``window`` neighbours on either side (a guard against a
    non-monotone last bit of ``log``), gives x exactly. Mironov (2012) showed that for the textbook sampler
    the outputs reachable from two inputs r and r' differ: an output reachable from r only identifies r,
    whatever ε the real-number analysis promises. The audit of :func:`curator_audit`, which bins outputs,
    cannot see this; this function can because it knows the sampler.
    """
    xs = as_float_array("x", x, bools=False)
    if not np.isfinite(xs).all():
        raise ValueError("x must contain only finite numbers")
    rr = check_real("r", r)
    b = check_real("scale", scale)
    if b <= 0:
        raise ValueError(f"scale must be > 0, got {scale!r}")
    w = check_int("window", window, minimum=0)
    lo = np.ones(xs.shape, np.int64)
    hi = np.full(xs.shape, 2**53 - 1, np.int64)
    while (lo < hi).any():
        mid = lo + (hi - lo) // 2
        ge = laplace_float_output(mid, rr, b) >= xs
        hi = np.where(ge, mid, hi)
        lo = np.where(ge, lo, mid + 1)
    out = np.zeros(xs.shape, dtype=bool)
    for dk in range(-w, w + 1):
        kk = np.clip(lo + dk, 1, 2**53 - 1)
        out |= laplace_float_output(kk, rr, b) == xs
    return out


def ctb_float_probability_one(r, epsilon):
    r"""The probability that CTB answers 1 *as implemented*: the response is 1 when a uniform draw
    :math:`U = k 2^{-53}` (``Generator.random``) is below the double :math:`\hat p = \mathrm{fl}(p(r))`, so
    :math:`P\{1\} = \lceil \hat p\, 2^{53}\rceil / 2^{53}` exactly. It differs from Lemma 5's p(r) by less than
    :math:`2^{-53}` plus the rounding of p, which matters only when :math:`1/(1+e^\epsilon)` approaches
    :math:`2^{-53}` (from ε around 30); beyond ε = 53 ln 2 ≈ 36.7, 1 + e^ε rounds to e^ε and p(1) to 1, the
    answer 0 becomes impossible under r = 1 and the implemented loss is infinite, whatever ε is claimed."""
    rr = _finite("r", r)
    e = check_real("epsilon", epsilon)
    if e < 0:
        raise ValueError(f"epsilon must be >= 0, got {epsilon!r}")
    p = np.asarray(_mech.ctb_probability(np.atleast_1d(rr), _mech.exp_or_inf(e))).reshape(rr.shape)
    return np.ceil(np.clip(p, 0.0, 1.0) * 2.0**53) * _FLOAT_UNIFORM_STEP


def consecutive_doubles(x0, count: int) -> np.ndarray:
    """The ``count`` consecutive doubles starting at the positive double ``x0`` (x0, nextafter(x0), ...):
    positive doubles are ordered like their bit patterns, so they are x0's pattern plus 0, 1, 2, ..."""
    x = check_real("x0", x0)
    if x <= 0:
        raise ValueError(f"x0 must be a positive finite double, got {x0!r}")
    n = check_int("count", count, minimum=1)
    return (np.array(x, dtype=np.float64).view(np.int64) + np.arange(n, dtype=np.int64)).view(np.float64)
