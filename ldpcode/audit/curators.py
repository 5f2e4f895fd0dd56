r"""A black-box privacy audit of any curator (issue 6): claimed against realised privacy loss.

A curator is any object with ``privatize(values, rng)`` and a claimed ``epsilon`` (and ``delta`` for an
(ε, δ) mechanism). :func:`curator_audit` feeds it a grid of inputs that includes the extremes of its domain
and inputs outside it, samples its outputs, and returns a (1 - alpha) lower confidence bound on the privacy
loss it realises (Definition 1 of Ren et al. 2020; (ε, δ)-LDP of Zheng et al. 2020, Definition 2). An audit
can only refute a claim (lower bound > claimed ε); it can never prove one: a finite sample sees a finite set
of events, and a mechanism may leak on events it never samples (see
:func:`~ldpcode.audit.floating.laplace_float_reachable` for one such leak, invisible to any binned audit). The
deliberately broken curators of :mod:`ldpcode.audit.broken` are there to show that the audit does refute what
it should.

Also here: the exact loss where the output law is known in closed form (:func:`exact_curator_loss`: CTL, CTB,
CTL-S, CTB-S, Curators 1, 3, 5, 6 and Lemmas 2, 5, 8; the Gaussian mechanism by
:func:`gaussian_epsilon_at_delta`, Balle and Wang 2018, Theorem 8), the curators of the heterogeneous setting
at one level ε_t (:class:`HeterogeneousCurator`, Agents 2 and 4 of Ren et al., extended version), and a check
of the curator's mean rather than its privacy (:func:`output_mean_audit`, Lemma 5).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import mechanisms as _mech
from .._validate import as_float_array, check_array, check_int, check_probability, check_real
from ..limits import Limits
from .ratios import (
    _UNLIMITED,
    CURATOR_OUTPUT_BYTES,
    CURATOR_OUTPUT_SECONDS,
    _binned_cost,
    _check_cost,
    _delta_cost,
    _seed_sequence,
    binned_log_ratio,
    delta_log_ratio,
)


AUDIT_INPUTS = (0.0, 0.25, 0.5, 0.75, 1.0)  # the domain [0, 1] of Ren et al.'s rewards, extremes included


AUDIT_PROBES = (-1.0, 2.0, -1.0e6, 1.0e6)  # outside [0, 1]; inside the domain of CTL-S / CTB-S


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
    limits: Limits | None = None,
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

    ``limits`` (:class:`ldpcode.limits.Limits`) caps the estimated cost: every output at
    :data:`~ldpcode.audit.ratios.CURATOR_OUTPUT_SECONDS` (the slowest curators'), and the pairwise comparisons.
    It is checked before any output is drawn, with ``bins`` + 13 events, and again after the pilot, once the
    events are known (a discrete curator may have many).
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
    tail = d > 0
    _check_audit_cost(len(grid), n, n_pilot, k + 13, tail, limits)
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
    edges, discrete = _audit_edges(np.concatenate(pilots), k, tail)
    _check_audit_cost(m, n, 0, edges.size - (2 if tail else 1), tail, limits)
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
                res = delta_log_ratio(outs[i], outs[j], thresholds, d, pair_alpha, limits=_UNLIMITED)
                lo, pe, sd = res.max_lower, res.estimate, res.se
            else:
                res = binned_log_ratio(outs[i], outs[j], edges, alpha=pair_alpha, limits=_UNLIMITED)
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


def _check_audit_cost(m: int, n: int, n_pilot: int, events: int, tail: bool, limits) -> None:
    """The cost of :func:`curator_audit`: ``n + n_pilot`` outputs of each of m inputs (8 bytes each kept, the
    pilot 3 times, and the curator's temporaries), then each of the m(m - 1)/2 pairs compared on ``events`` bins
    or thresholds."""
    pairs = m * (m - 1) // 2
    if tail:
        _, seconds, nbytes = _delta_cost(n, n, events)
    else:
        seconds, nbytes = _binned_cost(n, n, events)
    work = f"samples={n} outputs (and a pilot of {n_pilot}) from each of {m} inputs, {pairs} pairs on {events} events"
    seconds = m * (n + n_pilot) * CURATOR_OUTPUT_SECONDS + pairs * seconds
    nbytes += 8.0 * m * n + 24.0 * m * n_pilot + CURATOR_OUTPUT_BYTES * max(n, n_pilot)
    _check_cost("curator_audit", work, seconds, nbytes, limits, "samples")


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

    The members of the mechanism family (:class:`ldpcode.mechanisms.LocalMechanism`) answer it themselves,
    with their ``privacy_loss`` method:

    * CTB and CTB-S (Curators 3 and 6 of Ren et al. 2020): :func:`ldpcode.mechanisms.ctb_privacy_loss`, the
      largest log-ratio of the laws :math:`(P\{0\}, P\{1\})`, :math:`P\{1\} = (ue^\epsilon + 1 - u)/(1 + e^\epsilon)`,
      u = r or s(r) (bit for bit the maximum of :func:`privacy_loss_matrix` of the table of laws);
    * CTL and CTL-S (Curators 1 and 5), :class:`~ldpcode.mechanisms.LaplaceMechanism`: Laplace laws of one
      scale b, whose loss is :math:`\max|u - u'|/b` (Lemmas 2 and 8);
    * :class:`~ldpcode.mechanisms.GaussianMechanism` at ``delta`` (default: its own δ): the smallest ε with
      :math:`\delta(\epsilon) \le \delta` for the exact :math:`\delta(\epsilon)` of Balle and Wang (2018,
      Theorem 8) (:func:`gaussian_epsilon_at_delta`), Δ = the spread of ``inputs``; ``inf`` at ``delta=0`` (a
      pure-ε claim, which no Gaussian mechanism meets);
    * any object with an ``exact_loss(inputs)`` method (the broken curators and :class:`HeterogeneousCurator`);
    * otherwise nan.

    These are the laws of the papers, in real arithmetic; :func:`ctb_float_probability_one` gives the law
    the floating-point implementation actually has. The audit's independent check of these laws is its
    sample: :func:`curator_audit` bounds the loss from ``privatize``'s outputs alone and reports this value
    beside it.
    """
    if curator is None or isinstance(curator, (str, bytes, int, float, complex)):  # "CTB" gave nan, as an unknown law
        raise TypeError(f"curator must be a curator object (make_curator(name, epsilon)), not a name, got {curator!r}")
    x = check_array("inputs", inputs, ndim=1, min_size=1)
    if hasattr(curator, "exact_loss"):
        return float(curator.exact_loss(x))
    if isinstance(curator, _mech.GaussianMechanism):
        return curator.privacy_loss(x, delta)
    if isinstance(curator, (_mech.CTB, _mech.CTL, _mech.LaplaceMechanism)):
        return curator.privacy_loss(x)
    return math.nan


# CTB's exact loss and the Gaussian mechanism's exact epsilon live with the mechanisms (one family); the
# names stay importable from here.
_ctb_exact = _mech.ctb_privacy_loss
gaussian_epsilon_at_delta = _mech.gaussian_epsilon_at_delta


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
        from .._validate import check_choice

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
        from .._validate import EPSILON_FLOOR

        if self.epsilon < EPSILON_FLOOR:  # answered as at eps_t = 0 (respond_to_users): 0-DP
            return 0.0
        return exact_curator_loss(_mech.CURATORS[self.curator](self.epsilon), inputs)


# ---- the mean a curator claims (correctness, not privacy)


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
    curator,
    rewards=(0.0, 0.25, 0.5, 0.75, 1.0),
    samples: int = 100_000,
    seed=0,
    alpha: float = 0.05,
    *,
    limits: Limits | None = None,
) -> OutputMeanAudit:
    r"""Does the curator's response have the mean it claims (``curator.output_mean(r)``, e.g. Lemma 5 for
    CTB: :math:`\tfrac12 + (2r - 1)\frac{e^\epsilon - 1}{2(e^\epsilon + 1)}`)? A check of correctness, not
    of privacy: it catches a curator whose privacy is intact but whose responses the agent would
    misread (:class:`SwappedCTB`). For each reward, ``samples`` responses, the z-score of their mean
    against the claim with the sample standard error; Bonferroni over the rewards: refuted when some
    :math:`|z| > \Phi^{-1}(1 - \alpha/(2m))` (asymptotic: the central limit theorem, accurate at this n for
    responses with finite variance). ``limits`` caps the estimated cost (every output at
    :data:`~ldpcode.audit.ratios.CURATOR_OUTPUT_SECONDS`, 8 bytes kept), checked before any output is drawn."""
    from scipy.stats import norm

    if not callable(getattr(curator, "output_mean", None)) or not callable(getattr(curator, "privatize", None)):
        raise TypeError(f"curator must have privatize(values, rng) and output_mean(mu), got {curator!r}")
    r = check_array("rewards", rewards, ndim=1, min_size=1)
    n = check_int("samples", samples, minimum=2)
    alpha = check_probability("alpha", alpha)
    work = f"samples={n} outputs for each of {r.size} rewards"
    nbytes = 8.0 * n * (r.size + 4) + CURATOR_OUTPUT_BYTES * n
    _check_cost("output_mean_audit", work, r.size * n * CURATOR_OUTPUT_SECONDS, nbytes, limits, "samples")
    rngs = [np.random.default_rng(s) for s in _seed_sequence(seed).spawn(r.size)]
    claimed = np.array([float(curator.output_mean(x)) for x in r])
    outs = [np.asarray(curator.privatize(np.full(n, x), g), dtype=float) for x, g in zip(r, rngs)]
    mean = np.array([o.mean() for o in outs])
    se = np.array([o.std(ddof=1) / math.sqrt(n) for o in outs])
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, (mean - claimed) / se, np.where(mean == claimed, 0.0, np.inf))
    return OutputMeanAudit(r, claimed, mean, se, z, float(norm.ppf(1 - alpha / (2 * r.size))), alpha)
