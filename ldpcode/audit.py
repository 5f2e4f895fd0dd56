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

from ._validate import check_epsilon, check_int, check_real

PAIR_MODES = ("interior", "extreme")


def _check_rng(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), got {rng!r}")
    return rng


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
    rounding, about 1e-15).
    """
    eps = check_epsilon(epsilon)
    k = check_int("k", k, minimum=2)
    rng = _check_rng(rng)
    if mode not in PAIR_MODES:
        raise ValueError(f"mode must be one of {PAIR_MODES}, got {mode!r}")
    conc = check_real("concentration", concentration)
    if conc <= 0:
        raise ValueError(f"concentration must be > 0, got {concentration!r}")
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
    ignored.
    """
    f = np.asarray(f, dtype=float)
    g = np.asarray(g, dtype=float)
    if f.shape != g.shape:
        raise ValueError(f"f and g must have the same shape, got {f.shape} and {g.shape}")
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
    try:
        t = np.asarray(table, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"table must be a 2-d array of numbers, got {table!r}") from exc
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
    se: np.ndarray         # delta-method standard error of log_ratio (nan where a count is 0)
    lower: np.ndarray      # simultaneous (1 - alpha) confidence bounds on log(p_a / p_b)
    upper: np.ndarray
    alpha: float
    max_lower: float       # (1 - alpha) lower confidence bound on max_k |log(p_a,k / p_b,k)|
    argmax: int            # the bin where max_lower is attained


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
    ``max_lower`` :math:`= \max_k \max(\text{lower}_k, -\text{upper}_k)` is a (1 - ``alpha``) lower
    confidence bound on :math:`\max_k |\log(p_{a,k}/p_{b,k})|`, which ε-DP keeps below ε.
    """
    from scipy.stats import beta

    a = _check_samples("samples_a", samples_a)
    b = _check_samples("samples_b", samples_b)
    alpha = check_real("alpha", alpha)
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        k = check_int("bins", bins, minimum=1)
        both = np.concatenate([a, b])
        lo, hi = both.min(), both.max()
        edges = np.linspace(lo, hi, k + 1) if hi > lo else lo + np.linspace(-0.5, 0.5, k + 1)
    else:
        edges = np.asarray(bins, dtype=float)
        if edges.ndim != 1 or edges.size < 2 or np.isnan(edges).any() or (np.diff(edges) <= 0).any():
            raise ValueError(f"bins must be an integer >= 1 or a strictly increasing 1-d array of at least 2 "
                             f"edges (outer edges may be infinite), got {bins!r}")
    k = edges.size - 1
    counts_a, counts_b = (_bin_counts(x, edges) for x in (a, b))
    n_a, n_b = a.size, b.size
    level = alpha / (2 * k)

    def interval(n, total):
        lo = np.where(n > 0, beta.ppf(level / 2, np.maximum(n, 1), total - n + 1), 0.0)
        hi = np.where(n < total, beta.ppf(1 - level / 2, n + 1, np.maximum(total - n, 1)), 1.0)
        return lo, hi

    (lo_a, hi_a), (lo_b, hi_b) = interval(counts_a, n_a), interval(counts_b, n_b)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_ratio = np.log(counts_a / n_a) - np.log(counts_b / n_b)
        se = np.sqrt(1.0 / counts_a - 1.0 / n_a + 1.0 / counts_b - 1.0 / n_b)
        lower = np.log(lo_a) - np.log(hi_b)
        upper = np.log(hi_a) - np.log(lo_b)
    se = np.where((counts_a > 0) & (counts_b > 0), se, np.nan)
    both_sides = np.maximum(lower, -upper)
    j = int(np.argmax(both_sides))
    return BinnedLogRatio(edges, counts_a, counts_b, log_ratio, se, lower, upper, alpha,
                          float(both_sides[j]), j)


def _check_samples(name, x) -> np.ndarray:
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a 1-d array of numbers, got {x!r}") from exc
    if arr.ndim != 1 or arr.size == 0 or not np.isfinite(arr).all():
        raise ValueError(f"{name} must be a non-empty 1-d array of finite numbers, got shape {arr.shape}")
    return arr


def _bin_counts(x, edges) -> np.ndarray:
    """Counts of x in [e_k, e_{k+1}) (the last bin closed); values outside the edges are dropped."""
    idx = np.searchsorted(edges, x, side="right") - 1
    idx[x == edges[-1]] = edges.size - 2
    keep = (idx >= 0) & (idx < edges.size - 1)
    return np.bincount(idx[keep], minlength=edges.size - 1).astype(np.int64)
