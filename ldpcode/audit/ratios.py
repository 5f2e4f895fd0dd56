r"""Privacy ratios: ε-DP pairs of output laws, the exact privacy loss of a table of laws, and lower confidence
bounds on it from samples (pure ε by bins, (ε, δ) by threshold events). Also the checks the other rooms share
(random generators, seeds, samples).

On a finite output set the output laws f, g of an ε-DP mechanism (Definition 1 of Ren et al. 2020) on two
inputs are just two probability vectors whose ratio stays in :math:`[e^{-\epsilon}, e^\epsilon]`;
:func:`random_dp_pair` draws them, so that statements quantified over *every* ε-DP mechanism (Lemma 12,
Theorem 1 of Ren et al. 2020) can be probed on many of them, and :func:`max_log_ratio` gives the level a pair
certifies.

For a given mechanism, :func:`privacy_loss_matrix` computes the privacy level exactly from its output
probabilities (or densities on a grid), and :func:`binned_log_ratio` estimates it from samples of the
private outputs alone, with confidence bounds (Lemmas 2 and 5 of Ren et al. 2020), from two-sided
Clopper-Pearson intervals (:func:`_clopper_pearson`, also used by :mod:`ldpcode.vetted`).
:func:`delta_log_ratio` does the same at a given δ over threshold events (Dwork and Roth 2014,
Definition 2.4; the estimator of Jagielski et al. 2020 and Nasr et al. 2021).

:func:`_check_cost` is the check of every audit's ``limits`` (the costs: :mod:`ldpcode.audit`, "Limits").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import (
    as_float_array,
    check_epsilon,
    check_int,
    check_probability,
    check_real,
    check_rng,
    check_seed,
    one_line,
)
from ..limits import Limits, check_limits

CURATOR_OUTPUT_SECONDS = 20e-6
"""The time an audit counts for one output of a curator it knows nothing of: the slowest of ldpcode's, the vetted
exact samplers (:mod:`ldpcode.vetted`), take 3-7 µs an output with the audit's binning (the others 0.04-0.8 µs)."""
CURATOR_OUTPUT_BYTES = 320.0
"""The memory an audit counts for the temporaries of one output while a curator makes it (``privatize``): the
vetted CTL-S makes 276 bytes of them an output, the other curators of ldpcode 24-136."""

_UNLIMITED = Limits(cpu_seconds=math.inf, memory_bytes=math.inf)  # inner calls: the outer call was checked


def _check_cost(call: str, work: str, seconds: float, nbytes: float, limits, lower: str) -> None:
    """:func:`ldpcode.limits.check_limits` of an audit (1 ms and 64 KiB of overhead added), advising to lower
    ``lower``."""
    advice = f"Or lower {lower}. The per-unit costs are listed in the docstring of ldpcode/audit/__init__.py."
    check_limits(call, work, seconds + 1e-3, nbytes + 65536.0, limits, scale_out=advice)


PAIR_MODES = ("interior", "extreme")


def _check_rng(rng, name: str = "rng") -> np.random.Generator:
    return check_rng(name, rng)


RANDOM_DP_PAIR_MAX_EPSILON = 700.0
r"""The largest ε :func:`random_dp_pair` accepts: a pair with ratio :math:`e^{\pm\epsilon}` needs probabilities
of order :math:`e^{-\epsilon}`, which leave the normal doubles (below 2.2e-308) beyond ε = 708."""


def random_dp_pair(
    epsilon, k, rng, *, mode: str = "interior", concentration: float = 1.0, limits: Limits | None = None
):
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
    rounding, about 1e-15). ε at most :data:`RANDOM_DP_PAIR_MAX_EPSILON` (700). ``limits`` caps k.
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
    _check_cost("random_dp_pair", f"a pair on k={k} points", 50e-6 + 60e-9 * k, 64.0 * k, limits, "k")
    # The ratio box [e^-eps, e^eps] of Definition 1, for an arbitrary eps-DP pair (no mechanism of the family):
    # a construction of its own, on purpose, so that statements about every eps-DP mechanism are probed
    # beyond the family's members.
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
    from ..divergences import _probability_pair

    f, g = _probability_pair(f, g)
    if f.ndim != 1:
        raise ValueError(f"f and g must be 1-d probability vectors, got shape {f.shape}")
    both = (f > 0) | (g > 0)
    if ((f[both] == 0) | (g[both] == 0)).any():
        return math.inf
    return float(np.max(np.abs(np.log(f[both] / g[both])))) if both.any() else 0.0


def privacy_loss_matrix(table, *, limits: Limits | None = None) -> np.ndarray:
    r"""Pairwise privacy losses of a mechanism given as a table of output laws.

    ``table[i, k]`` is the probability (or density) of output ``k`` given input ``i``: for CTB,
    rows :math:`(1 - p(r_i), p(r_i))` with :math:`p(r) = (re^\epsilon + 1 - r)/(1 + e^\epsilon)`
    (Curator 3); for CTL, the Laplace density :math:`f(x_k \mid r_i)` on a grid of outputs (Curator 1).
    Returns the (m, m) matrix

    .. math:: M_{ij} = \max_k \log\frac{\mathrm{table}[i, k]}{\mathrm{table}[j, k]},

    so the mechanism restricted to these inputs and outputs is ε-DP (Definition 1) exactly when
    :math:`\max_{ij} M_{ij} \le \epsilon`. Columns where both entries are 0 are ignored; an output with
    positive mass under input i and none under j gives ``inf``. The work, :math:`m^2` times the number of outputs
    for m inputs, is checked against ``limits`` first.
    """
    t = as_float_array("table", table, bools=False)
    if t.ndim != 2 or t.shape[0] < 1 or t.shape[1] < 1:
        raise ValueError(f"table must be a non-empty 2-d array (inputs x outputs), got shape {t.shape}")
    if not np.isfinite(t).all() or (t < 0).any():
        raise ValueError("table must hold finite non-negative probabilities or densities")
    if (t.sum(axis=1) == 0).any():
        raise ValueError("every row of table must have some positive entry (an output law)")
    m, k = t.shape
    work = f"{m} x {m} pairs of inputs on {k} outputs"
    _check_cost("privacy_loss_matrix", work, 1e-3 + 5e-9 * m * m * k, 8.0 * m * m + 48.0 * m * k, limits, "the inputs")
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


def binned_log_ratio(
    samples_a, samples_b, bins, alpha: float = 0.05, *, limits: Limits | None = None
) -> BinnedLogRatio:
    r"""Estimate the privacy loss between two inputs from samples of a mechanism's outputs.

    ``samples_a`` are outputs :math:`M(r)`, ``samples_b`` outputs :math:`M(r')` (e.g. CTL responses to
    rewards 0 and 1). With :math:`p_{a,k}, p_{b,k}` the probabilities of bin k, an ε-DP mechanism
    (Definition 1; Lemmas 2 and 5 of Ren et al. 2020) has :math:`|\log(p_{a,k}/p_{b,k})| \le \epsilon`
    for every bin, since the ratio of probabilities of any event is within :math:`e^{\pm\epsilon}`.

    ``bins`` is a number of equal bins spanning the pooled samples, or an increasing array of edges
    (the outer edges may be ``-inf`` / ``inf`` to catch the tails; samples outside the edges are not
    counted, but still count in the totals, so :math:`p_{\cdot,k}` stays the probability of bin k). Bins
    are :math:`[e_k, e_{k+1})`, the last one closed.

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
    bound on a privacy loss". ``argmax`` is the bin of the bare maximum. ``limits`` caps the work (the bins, two
    Clopper-Pearson intervals each, and the samples), checked before any bin is made.
    """

    a = _check_samples("samples_a", samples_a)
    b = _check_samples("samples_b", samples_b)
    alpha = check_probability("alpha", alpha)
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        k = check_int("bins", bins, minimum=1)
        _check_binned_cost(a.size, b.size, k, limits)
        both = np.concatenate([a, b])
        lo, hi = both.min(), both.max()
        edges = np.linspace(lo, hi, k + 1) if hi > lo else lo + np.linspace(-0.5, 0.5, k + 1)
    else:
        edges = as_float_array("bins", bins)
        if edges.ndim != 1 or edges.size < 2 or np.isnan(edges).any() or (np.diff(edges) <= 0).any():
            raise ValueError(
                f"bins must be an integer >= 1 or a strictly increasing 1-d array of at least 2 "
                f"edges (outer edges may be infinite), got {one_line(bins)}"
            )
        _check_binned_cost(a.size, b.size, edges.size - 1, limits)
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


def _binned_cost(n_a: int, n_b: int, bins: int) -> tuple[float, float]:
    """(core-seconds, bytes) of :func:`binned_log_ratio`: 60 ns and 40 bytes a sample, 1 µs and 160 bytes a bin."""
    return 1e-3 + 60e-9 * (n_a + n_b) + 1e-6 * bins, 40.0 * (n_a + n_b) + 160.0 * bins


def _check_binned_cost(n_a: int, n_b: int, bins: int, limits) -> None:
    work = f"{n_a} and {n_b} samples in bins={bins}"
    _check_cost("binned_log_ratio", work, *_binned_cost(n_a, n_b, bins), limits, "bins or the samples")


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


def delta_log_ratio(
    samples_a, samples_b, thresholds, delta=0.0, alpha: float = 0.05, *, limits: Limits | None = None
) -> DeltaLogRatio:
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
    events are the optimal ones and the supremum over c of the exact quantity is the exact ε(δ). ``limits``
    caps the work (a sample compared with every threshold: J bytes a sample), checked before any comparison.
    """
    a = _check_samples("samples_a", samples_a)
    b = _check_samples("samples_b", samples_b)
    c = as_float_array("thresholds", thresholds, bools=False)
    if c.ndim != 1 or c.size == 0 or not np.isfinite(c).all() or (np.diff(c) <= 0).any():
        raise ValueError(
            f"thresholds must be a non-empty strictly increasing 1-d array of finite numbers, got {one_line(thresholds)}"
        )
    d = check_probability("delta", delta, low_closed=True)
    alpha = check_probability("alpha", alpha)
    level = alpha / (2 * c.size)
    na, nb = a.size, b.size
    _check_cost("delta_log_ratio", *_delta_cost(na, nb, c.size), limits, "the thresholds or the samples")
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


def _delta_cost(n_a: int, n_b: int, thresholds: int) -> tuple[str, float, float]:
    """(what, core-seconds, bytes) of :func:`delta_log_ratio`: 60 ns and 24 bytes a sample, 2 ns and 2 bytes a
    sample x threshold (the comparisons), 160 bytes a threshold."""
    n, j = n_a + n_b, thresholds
    what = f"{n_a} and {n_b} samples against {j} thresholds"
    return what, 1e-3 + (60e-9 + 2e-9 * j) * n, 2.0 * j * max(n_a, n_b) + 24.0 * n + 160.0 * j


# ---- checks shared by the audits of the other rooms


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
        return np.random.SeedSequence([check_seed(f"{name}[{i}]", v) for i, v in enumerate(seed)])
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(
            f"{name} must be an integer >= 0, a list of them or a numpy.random.SeedSequence, got "
            f"{seed!r} of type {type(seed).__name__}"
        )
    return np.random.SeedSequence(check_seed(name, seed))


def _finite(name, values) -> np.ndarray:
    from .._validate import check_finite_array

    return check_finite_array(name, values)
