r"""Best-arm identification through Algorithm 1 (Zheng et al. 2020, Section 3.1 and Appendix B).

Zheng et al. name best-arm identification (BAI) as the third application of their one-point reduction and
defer it to Appendix B, which is not in the text the book works from. The book's reading, from the standard
literature: the non-private learner A is **successive elimination** (Even-Dar, Mannor and Mansour 2006,
Algorithm "Successive Elimination" with known horizon-free confidence radius), fixed confidence
:math:`\delta_c`, run on the released losses :math:`y = f_t(a) + Z_t` of Algorithm 1.

A loss in [0, 1] is 1/4-sub-Gaussian (Hoeffding), the Gaussian noise :math:`N(0, \sigma^2)` is
:math:`\sigma^2`-sub-Gaussian, so a release is sub-Gaussian with variance proxy
:math:`s^2 = 1/4 + \sigma^2`. In round t every active arm has t releases and the radius is

.. math:: \alpha_t = \sqrt{\frac{2 s^2 \ln(4 K t^2/\delta_c)}{t}}

(:func:`elimination_radius`): by the sub-Gaussian tail and a union bound over the K arms and the rounds,
:math:`\sum_t K\cdot 2e^{-t\alpha_t^2/(2s^2)} = \sum_t \delta_c/(2t^2) = \pi^2\delta_c/12 < \delta_c`, so with
probability at least :math:`1 - \delta_c` every empirical mean stays within its radius for ever. After each
round, an arm whose empirical mean loss exceeds the smallest one by more than :math:`2\alpha_t` is
eliminated; on the good event the best arm never is, and the algorithm stops when one arm is left: it
returns the best arm with probability at least :math:`1 - \delta_c`. (At :math:`s^2 = 1/4` this is the radius
of Even-Dar et al. for [0, 1] rewards up to their constant: theirs is :math:`\sqrt{\ln(4Kt^2/\delta)/t}`,
Hoeffding's is :math:`\sqrt{\ln(4Kt^2/\delta)/(2t)}`.)

Arm a (gap :math:`\Delta_a` to the best loss) is eliminated once :math:`2\alpha_t \le \Delta_a`, i.e. near the
root of :math:`t = 8 s^2 \ln(4Kt^2/\delta_c)/\Delta_a^2`, so the number of samples grows like
:math:`(1/4 + \sigma^2)\sum_a \Delta_a^{-2}\log(\cdot)`: :func:`elimination_samples_prediction` solves those
roots (the book's reading of the standard analysis, not a formula of the paper).

================================================  ==========================================================
:func:`elimination_radius`                        :math:`\alpha_t` above
:func:`successive_elimination`                    R runs on Bernoulli losses, each user's loss released
                                                  through a mechanism (None: the non-private algorithm); the
                                                  compiled kernel :func:`elimination_chunk`
:func:`successive_elimination_reference`          one run, plain Python, one release at a time (the kernel's
                                                  test: same seed, same stopping time and arm)
:func:`elimination_samples_prediction`            the roots above: predicted samples to stop
:class:`BAIResult`                                returned arms, samples used, pulls per arm; success rate and
                                                  its one-sided Clopper-Pearson lower bound
================================================  ==========================================================

Run r of a call with ``seed`` uses ``SeedSequence(seed).spawn(runs)[r]`` and two streams of
:func:`ldpcode.rng.run_streams`: the users' losses (one uniform a release, loss 1 when it is below the
arm's mean loss) and the privacy noise (one standard normal a release, times σ). Arms are sampled in
increasing index order within a round.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from .._validate import check_int, check_probability, check_probability_vector, check_real, check_seed
from ..engine import run_in_chunks
from ..limits import MAX_RUNS, MAX_WORKERS, Limits, check_limits, default_workers, run_pool
from ..mechanisms import GaussianMechanism
from ..rng import run_streams

#: releases drawn per call of the compiled elimination (one uniform and one normal each). 2^13: a run that
#: stops inside a chunk throws away at most 2^13 of each, and a call lasts well under a millisecond (15 ns a
#: release), so Ctrl-C is seen at once
RELEASES_PER_CALL = 1 << 13
#: Hoeffding's variance proxy of a loss in [0, 1]
LOSS_PROXY = 0.25


def elimination_radius(t, n_arms, conf_delta, variance_proxy):
    r"""The confidence radius of successive elimination after t releases of each active arm:
    :math:`\alpha_t = \sqrt{2 s^2 \ln(4 K t^2/\delta_c)/t}`, s² = ``variance_proxy`` (module docstring).
    ``t`` may be an array of integers >= 1."""
    tt = np.asarray(t, dtype=float)
    if not np.all(np.isfinite(tt)) or np.any(tt < 1):
        raise ValueError(f"t must be >= 1, got {t!r}")
    k = check_int("n_arms", n_arms, minimum=2)
    d = check_probability("conf_delta", conf_delta)
    s2 = _check_proxy(variance_proxy)
    return np.sqrt(2.0 * s2 * np.log(4.0 * k * tt * tt / d) / tt)


def _check_proxy(variance_proxy) -> float:
    s2 = check_real("variance_proxy", variance_proxy)
    if s2 <= 0:
        raise ValueError(f"variance_proxy must be a finite number > 0 (s^2 of the releases), got {variance_proxy!r}")
    return s2


def _check_losses(loss_means) -> np.ndarray:
    mu = check_probability_vector("loss_means", loss_means)
    if mu.size < 2:
        raise ValueError(f"loss_means must have at least 2 arms, got {mu.size}")
    s = np.sort(mu)
    if s[0] == s[1]:
        raise ValueError(
            f"loss_means must have a unique best (smallest) arm: with two best arms successive elimination never "
            f"stops, got {mu.tolist()}"
        )
    return mu


def _sigma(mechanism) -> float:
    if mechanism is None:
        return 0.0
    if not isinstance(mechanism, GaussianMechanism):
        raise TypeError(
            f"mechanism must be a GaussianMechanism (ldpcode.reductions.algorithm1_mechanism) or None, got {mechanism!r}"
        )
    return float(mechanism.sigma)


@njit(cache=True, nogil=True)
def elimination_chunk(means, log_c, s2, sigma, env_u, noise, active, sums, counts, state):
    """Successive elimination on the releases of one run, one release per entry of ``env_u`` / ``noise``.

    ``state`` (int64) holds [t, pos, n_active, samples, done]: t the rounds completed, pos the next arm to
    sample in the current round (arms in increasing index order, only ``active`` ones), samples the releases
    used. A release of arm a is (1 if env_u[j] < means[a] else 0) + sigma * noise[j]. At the end of round t
    the radius is sqrt(2 s2 (log_c + 2 ln t) / t), log_c = ln(4K/δ_c), and every active arm whose mean
    exceeds the smallest by more than twice the radius is eliminated; done = 1 when one arm is left.
    Returns the number of draws consumed."""
    k = means.shape[0]
    m = env_u.shape[0]
    j = 0
    while j < m and state[4] == 0:
        a = state[1]
        while active[a] == 0:
            a += 1
        loss = 1.0 if env_u[j] < means[a] else 0.0
        sums[a] += loss + sigma * noise[j]
        counts[a] += 1
        j += 1
        state[3] += 1
        nxt = a + 1
        while nxt < k and active[nxt] == 0:
            nxt += 1
        if nxt < k:
            state[1] = nxt
            continue
        # round complete
        state[0] += 1
        t = float(state[0])
        rad = math.sqrt(2.0 * s2 * (log_c + 2.0 * math.log(t)) / t)
        best = np.inf
        for i in range(k):
            if active[i] == 1 and sums[i] / t < best:
                best = sums[i] / t
        for i in range(k):
            if active[i] == 1 and sums[i] / t - best > 2.0 * rad:
                active[i] = 0
                state[2] -= 1
        if state[2] == 1:
            state[4] = 1
        first = 0
        while active[first] == 0:
            first += 1
        state[1] = first
    return j


@dataclass
class BAIResult:
    """R runs of successive elimination: ``arms`` (runs,) the arm returned (-1: no decision within
    ``max_samples``), ``samples`` (runs,) the releases used, ``counts`` (runs, K) releases per arm;
    ``best_arm`` the true best (smallest mean loss), ``sigma`` the noise sd (0: non-private),
    ``variance_proxy`` the s² of the radius, ``conf_delta`` δ_c."""

    loss_means: np.ndarray
    best_arm: int
    conf_delta: float
    sigma: float
    variance_proxy: float
    epsilon: float
    runs: int
    seed: int
    max_samples: int
    arms: np.ndarray
    samples: np.ndarray
    counts: np.ndarray

    @property
    def correct(self) -> int:
        """Runs that returned the best arm."""
        return int(np.sum(self.arms == self.best_arm))

    @property
    def undecided(self) -> int:
        """Runs stopped by ``max_samples`` before one arm was left (counted as failures)."""
        return int(np.sum(self.arms < 0))

    @property
    def success_rate(self) -> float:
        return self.correct / self.runs

    def success_se(self) -> float:
        """Binomial standard error sqrt(p(1-p)/R) of :attr:`success_rate` (0 when every run agreed)."""
        p = self.success_rate
        return math.sqrt(p * (1.0 - p) / self.runs)

    def success_lower_bound(self, alpha: float = 0.05) -> float:
        """One-sided Clopper-Pearson lower confidence bound, level 1 - ``alpha``, on P[return the best arm]."""
        from ..audit.ratios import _clopper_pearson

        a = check_probability("alpha", alpha)
        return float(_clopper_pearson(self.correct, self.runs, 2.0 * a)[0])


def _run_one(mu, log_c, s2, sigma, seed_seq, max_samples, cancel=None):
    env_rng, noise_rng = run_streams(seed_seq, 2)
    k = mu.shape[0]
    active = np.ones(k, dtype=np.int64)
    sums = np.zeros(k)
    counts = np.zeros(k, dtype=np.int64)
    state = np.array([0, 0, k, 0, 0], dtype=np.int64)

    def step(t, ci, m):
        env_u = env_rng.random(m)
        noise = noise_rng.standard_normal(m) if sigma > 0 else np.zeros(m)
        used = elimination_chunk(mu, log_c, s2, sigma, env_u, noise, active, sums, counts, state)
        return (max_samples if state[4] else t + used), ci

    run_in_chunks(max_samples, cancel, step, RELEASES_PER_CALL)
    arm = int(np.flatnonzero(active)[0]) if state[4] else -1
    return arm, int(state[3]), counts


def successive_elimination(
    loss_means,
    conf_delta: float,
    runs: int,
    seed: int = 0,
    *,
    mechanism=None,
    variance_proxy: float | None = None,
    max_samples: int = 10**9,
    workers: int | None = None,
    limits: Limits | None = None,
) -> BAIResult:
    r"""R = ``runs`` runs of successive elimination at confidence ``conf_delta`` on Bernoulli losses of means
    ``loss_means`` (lower is better), each release privatized by ``mechanism`` (a
    :class:`~ldpcode.mechanisms.GaussianMechanism`, e.g. :func:`ldpcode.reductions.algorithm1_mechanism`:
    Algorithm 1 of Zheng et al. around successive elimination; None: the non-private algorithm).

    ``variance_proxy`` is the s² of the radius (:func:`elimination_radius`); default the correct
    :math:`1/4 + \sigma^2`. Give another only to show what goes wrong (e.g. 1/4 on private releases: the
    non-private radius, which no longer covers the noise). A run that has not stopped after
    ``max_samples`` releases returns arm -1 (:attr:`BAIResult.undecided`), never a guess. ``limits`` caps the
    estimated work (twice :func:`elimination_samples_prediction` releases a run, at
    most ``max_samples``, at 15 ns a release) before any."""
    mu = _check_losses(loss_means)
    d = check_probability("conf_delta", conf_delta)
    runs = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
    seed = check_seed("seed", seed)
    max_samples = check_int("max_samples", max_samples, minimum=mu.size, maximum=2**53)
    if workers is not None:
        workers = check_int("workers", workers, minimum=1, maximum=MAX_WORKERS)
    sigma = _sigma(mechanism)
    s2 = LOSS_PROXY + sigma**2 if variance_proxy is None else _check_proxy(variance_proxy)
    expected = min(float(max_samples), 2.0 * elimination_samples_prediction(mu, d, s2))
    work = (
        f"runs={runs} x about {expected:.3g} releases (twice elimination_samples_prediction, at most "
        f"max_samples={max_samples}) of successive elimination on {mu.size} arms at 15 ns a release"
    )
    check_limits(
        "successive_elimination",
        work,
        runs * expected * 15e-9,
        runs * (64 + 16 * mu.size) + 2 * RELEASES_PER_CALL * 8,
        limits,
    )
    log_c = math.log(4.0 * mu.size / d)
    children = np.random.SeedSequence(seed).spawn(runs)
    out = run_pool(
        lambda r, cancel: _run_one(mu, log_c, s2, sigma, children[r], max_samples, cancel),
        runs,
        workers or default_workers(),
    )
    return BAIResult(
        loss_means=mu,
        best_arm=int(np.argmin(mu)),
        conf_delta=d,
        sigma=sigma,
        variance_proxy=s2,
        epsilon=math.inf if mechanism is None else float(mechanism.epsilon),
        runs=runs,
        seed=seed,
        max_samples=max_samples,
        arms=np.array([o[0] for o in out], dtype=np.int64),
        samples=np.array([o[1] for o in out], dtype=np.int64),
        counts=np.stack([o[2] for o in out]),
    )


def successive_elimination_reference(
    loss_means,
    conf_delta: float,
    seed_seq: np.random.SeedSequence,
    *,
    mechanism=None,
    variance_proxy=None,
    max_samples: int = 10**9,
):
    """One run of :func:`successive_elimination`, step by step in plain Python: user by user, the loss is
    drawn, released through ``mechanism.privatize`` (Algorithm 1, line 4) and only the release is added to
    the arm's sum; the radius is :func:`elimination_radius`. Consumes the run's two streams as the kernel
    does, so on the same ``seed_seq`` it returns the same (arm, samples, counts): the kernel's test."""
    mu = _check_losses(loss_means)
    d = check_probability("conf_delta", conf_delta)
    sigma = _sigma(mechanism)
    s2 = LOSS_PROXY + sigma**2 if variance_proxy is None else _check_proxy(variance_proxy)
    env_rng, noise_rng = run_streams(seed_seq, 2)
    k = mu.size
    active = list(range(k))
    sums = [0.0] * k
    counts = [0] * k
    samples, t = 0, 0
    while len(active) > 1:
        for a in active:
            if samples == max_samples:
                return -1, samples, np.array(counts, dtype=np.int64)
            loss = 1.0 if env_rng.random() < mu[a] else 0.0
            release = loss if mechanism is None else float(mechanism.privatize(np.array([loss]), noise_rng)[0])
            sums[a] += release
            counts[a] += 1
            samples += 1
        t += 1
        rad = float(elimination_radius(t, k, d, s2))
        best = min(sums[a] / t for a in active)
        active = [a for a in active if not sums[a] / t - best > 2.0 * rad]
    return active[0], samples, np.array(counts, dtype=np.int64)


def elimination_samples_prediction(loss_means, conf_delta: float, variance_proxy: float) -> float:
    r"""Predicted releases to stop: arm a ≠ a* leaves at the root :math:`t_a` of
    :math:`t = 8 s^2\ln(4Kt^2/\delta_c)/\Delta_a^2` (where :math:`2\alpha_t = \Delta_a`, empirical means at
    their expectations), the best arm stays until the last one leaves, so
    :math:`\sum_{a\ne a^*} t_a + \max_a t_a`. The book's reading of the standard analysis of successive
    elimination (Even-Dar et al. 2006), a deterministic first-order count, not a bound; it grows like
    :math:`s^2\sum_a\Delta_a^{-2}\log(\cdot)`, with the log itself growing with s²."""
    mu = _check_losses(loss_means)
    d = check_probability("conf_delta", conf_delta)
    s2 = _check_proxy(variance_proxy)
    gaps = np.sort(mu)[1:] - mu.min()
    c = 8.0 * s2 / gaps**2
    t = np.maximum(c, 1.0)
    for _ in range(200):  # fixed point of t = c ln(4 K t^2 / d): a contraction for t > 2c (slope 2c/t < 1)
        t = c * np.log(4.0 * mu.size * t * t / d)
    return float(t.sum() + t.max())
