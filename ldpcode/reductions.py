r"""Algorithm 1 of Zheng et al. (2020), *One-Point Bandits Learning-LDP*, as a wrapper around any learner.

Algorithm 1 (Section 3.1) takes a non-private bandit algorithm A that consumes one scalar loss per round
and runs it on privatized feedback: user t suffers :math:`f_t(x_t)` and sends
:math:`f_t(x_t) + Z_t`, :math:`Z_t\sim N(0,\sigma^2)`, with (line 2)

.. math:: \sigma = \frac{2B\sqrt{2\ln(1.25/\delta)}}{\epsilon},

B the bound :math:`|f_t(x)|\le B`, so 2B is the sensitivity of the one number a user releases
(Theorem 2: (ε, δ)-LDP). The ε-LDP variant the paper mentions ("using Laplacian noise instead of
Gaussian noise") adds :math:`\mathrm{Lap}(2B/\epsilon)`. The noise comes from
:class:`ldpcode.mechanisms.GaussianMechanism` / :class:`~ldpcode.mechanisms.LaplaceMechanism`; build them
with :func:`algorithm1_mechanism` and :func:`laplace_mechanism`.

The learner interface (any object with these methods can be wrapped; ``ldpcode.bco`` follows it too)::

    learner.reset(n_arms, horizon, rng, feedback_noise_variance=0.0)  # start a run; rng = learner's own randomness
    arm = learner.select()                                            # the action x_t of round t
    learner.update(arm, feedback)                                     # the scalar it is allowed to see

``feedback_noise_variance`` is the variance of the noise the wrapper adds, so that a learner can be
tuned to the scale of its feedback, as Theorem 3 assumes of A (its regret is stated for loss range B;
run on noisy losses its range grows). :class:`OnePointReduction` never passes a raw loss to the learner.

MAB learners (losses in [0, 1], lower is better; arms numbered from 0):

* :class:`SubGaussianUCB`: UCB1 on losses (Auer et al. 2002), index
  :math:`\hat\ell_a - \sqrt{8 s^2 \ln t / N_a}` (smallest played, ties to the lowest arm), t = pulls so
  far, after one pull of each arm. :math:`s^2 = 1/4 + v` is the sub-Gaussian variance proxy of the
  feedback: 1/4 for a loss in [0, 1] (Hoeffding) plus the noise variance v. At v = 0 the width is
  exactly UCB1's :math:`\sqrt{2\ln t/N_a}`; under Gaussian noise it is UCB1's width times
  :math:`\sqrt{1+4\sigma^2}`. For Laplace noise v = 2 b² (its variance; Laplace noise is sub-exponential,
  not sub-Gaussian, so this width is a heuristic there).
* :class:`TsallisINF`: Tsallis-INF with α = 1/2 (Zimmert and Seldin 2021, Algorithm 1 with
  importance-weighted estimates :math:`\hat\ell_{t,i} = y_t 1[I_t=i]/w_{t,i}`),
  :math:`w_{t,i} = 4\big(\eta_t(\hat L_{t-1,i} - x_t)\big)^{-2}` with the normaliser
  :math:`x_t < \min_i \hat L_{t-1,i}` solving :math:`\sum_i w_{t,i} = 1` (Newton's method from the right,
  their Algorithm 2), and :math:`\eta_t = 2/(c\sqrt t)`: their rate :math:`2/\sqrt t` for
  importance-weighted estimates, divided by :math:`c = \sqrt{1+4v}`, the ratio of the feedback's
  sub-Gaussian scale to that of a [0, 1] loss (our choice; c = 1 without noise).

Environments (:class:`LossSchedule`): mean-loss vectors that are piecewise constant in time, losses
Bernoulli on them (or equal to them, ``bernoulli=False``). :func:`bernoulli_losses` is the stochastic
MAB; :func:`ucb_adversary` an oblivious adversarial 0/1 sequence, fixed before the game by simulating
the deterministic non-private UCB1 and giving loss 1 to the arm it would play. Regret: :math:`\sum_{s\le t}\mu_s(I_s) - \min_a\sum_{s\le t}\mu_s(a)`, the pseudo-regret
against the best fixed arm (for the stochastic MAB it is :math:`\sum_a N_a(t)\Delta_a`).

:func:`simulate_mab` runs R independent runs from ``SeedSequence(seed).spawn(R)``; run r uses three
streams from :func:`ldpcode.simulate.run_streams`: loss draws, privacy noise, learner randomness. The
built-in learners run in a numba kernel; any other learner runs through the same Python loop as the
tests, which consumes the streams identically (so both engines give the same pulls).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ._validate import check_int, check_probability_vector, check_real
from .mechanisms import GaussianMechanism, LaplaceMechanism
from .simulate import (
    MAX_HORIZON,
    MAX_RUNS,
    MAX_WORKERS,
    Limits,
    check_limits,
    default_workers,
    resolve_checkpoints,
    run_pool,
    run_streams,
)

CHUNK = 1 << 14
UCB, TSALLIS = 0, 1
TSALLIS_ETA0 = 2.0  # eta_t = TSALLIS_ETA0 / (c sqrt t): Zimmert and Seldin (2021), IW estimates


# ----------------------------------------------------------------------------------------------
# Mechanisms of Algorithm 1
# ----------------------------------------------------------------------------------------------


def _check_loss_bound(loss_bound) -> float:
    b = check_real("loss_bound", loss_bound)
    if b <= 0:
        raise ValueError(f"loss_bound must be a finite number > 0 (B with |f_t(x)| <= B), got {loss_bound!r}")
    return b


def algorithm1_mechanism(epsilon, delta, loss_bound=1.0) -> GaussianMechanism:
    r"""The noise of Algorithm 1, line 2: Gaussian with sensitivity 2B, so
    :math:`\sigma = 2B\sqrt{2\ln(1.25/\delta)}/\epsilon` ((ε, δ)-LDP, Theorem 2)."""
    b = _check_loss_bound(loss_bound)
    return GaussianMechanism(epsilon, delta, sensitivity=2.0 * b)


def laplace_mechanism(epsilon, loss_bound=1.0) -> LaplaceMechanism:
    r"""The ε-LDP variant of Algorithm 1: :math:`\mathrm{Lap}(2B/\epsilon)` noise on the loss."""
    b = _check_loss_bound(loss_bound)
    return LaplaceMechanism(epsilon, sensitivity=2.0 * b)


def noise_variance(mechanism) -> float:
    """Variance of the noise a mechanism adds: σ² (Gaussian), 2 b² (Laplace of scale b), or ``.variance``."""
    if isinstance(mechanism, GaussianMechanism):
        return mechanism.sigma**2
    if isinstance(mechanism, LaplaceMechanism):
        return 2.0 * mechanism.scale**2
    v = getattr(mechanism, "variance", None)
    if v is None:
        raise ValueError(
            f"mechanism must be a GaussianMechanism, a LaplaceMechanism or have a .variance, got {mechanism!r}"
        )
    return float(v)


# ----------------------------------------------------------------------------------------------
# Compiled steps shared by the Python learners and the kernel
# ----------------------------------------------------------------------------------------------


@njit(cache=True)
def _ucb_select(counts, sums, t, width_c):
    """Arm minimising mean - width_c sqrt(ln t / N); unpulled arms first (lowest index)."""
    k = counts.shape[0]
    for a in range(k):
        if counts[a] == 0:
            return a
    lt = math.log(t)
    best, best_v = 0, np.inf
    for a in range(k):
        v = sums[a] / counts[a] - width_c * math.sqrt(lt / counts[a])
        if v < best_v:
            best, best_v = a, v
    return best


@njit(cache=True)
def tsallis_weights(cum_loss, eta, w):
    r"""Tsallis-INF (α = 1/2) weights :math:`w_i = 4(\eta(\hat L_i - x))^{-2}` with :math:`\sum_i w_i = 1`.

    Newton's method on x (Zimmert and Seldin 2021, Algorithm 2) started at
    :math:`x_0 = \min_i\hat L_i - 2/\eta`, where the smallest-loss arm alone has weight 1, so
    :math:`\sum w \ge 1` and the iterates decrease monotonically to the root (the sum is convex and
    increasing in x). Writes w in place (renormalised to sum exactly 1) and returns x.
    """
    k = cum_loss.shape[0]
    m = cum_loss[0]
    for i in range(1, k):
        if cum_loss[i] < m:
            m = cum_loss[i]
    x = m - 2.0 / eta
    for _ in range(100):
        s = 0.0
        s32 = 0.0
        for i in range(k):
            d = eta * (cum_loss[i] - x)
            wi = 4.0 / (d * d)
            w[i] = wi
            s += wi
            s32 += wi * math.sqrt(wi)
        if abs(s - 1.0) < 1e-12:
            break
        x = x - (s - 1.0) / (eta * s32)
    s = 0.0
    for i in range(k):
        d = eta * (cum_loss[i] - x)
        w[i] = 4.0 / (d * d)
        s += w[i]
    for i in range(k):
        w[i] /= s
    return x


@njit(cache=True)
def _sample(w, u):
    c = 0.0
    k = w.shape[0]
    for i in range(k - 1):
        c += w[i]
        if u < c:
            return i
    return k - 1


@njit(cache=True, nogil=True)
def _chunk(
    code,
    t0,
    m,
    horizon,
    levels,
    bounds,
    bernoulli,
    env_u,
    noise,
    learn_u,
    param,
    counts,
    sums,
    w,
    phase,
    cum_mean,
    played,
    checkpoints,
    ci,
    out_regret,
):
    """Steps t0+1 .. t0+m of one run (t counts pulls from 1). Returns (phase, played, ci)."""
    k = counts.shape[0]
    nlev = levels.shape[0]
    for j in range(m):
        t = t0 + j + 1
        while phase + 1 < bounds.shape[0] and t >= bounds[phase + 1]:
            phase += 1
        mu = levels[phase % nlev]
        if code == 0:
            a = _ucb_select(counts, sums, t - 1 if t > 1 else 1, param)
        else:
            tsallis_weights(sums, param / math.sqrt(t), w)
            a = _sample(w, learn_u[j])
        if bernoulli:
            loss = 1.0 if env_u[j] < mu[a] else 0.0
        else:
            loss = mu[a]
        y = loss + noise[j]
        counts[a] += 1
        if code == 0:
            sums[a] += y
        else:
            sums[a] += y / w[a]
        played += mu[a]
        for i in range(k):
            cum_mean[i] += mu[i]
        while ci < checkpoints.shape[0] and checkpoints[ci] == t:
            best = cum_mean[0]
            for i in range(1, k):
                if cum_mean[i] < best:
                    best = cum_mean[i]
            out_regret[ci] = played - best
            ci += 1
    return phase, played, ci


# ----------------------------------------------------------------------------------------------
# Learners (the generic interface)
# ----------------------------------------------------------------------------------------------


def _check_variance(v) -> float:
    v = check_real("feedback_noise_variance", v)
    if v < 0:
        raise ValueError(f"feedback_noise_variance must be >= 0, got {v!r}")
    return v


def _reset_common(learner, n_arms, horizon, feedback_noise_variance) -> None:
    """What every built-in learner's ``reset`` validates and stores: ``n_arms`` (>= 2), ``horizon``, ``variance``."""
    learner.n_arms = check_int("n_arms", n_arms, minimum=2)
    learner.horizon = check_int("horizon", horizon, minimum=1)
    learner.variance = _check_variance(feedback_noise_variance)


class SubGaussianUCB:
    r"""UCB1 on losses with width :math:`\sqrt{8 s^2\ln t/N_a}`, :math:`s^2 = 1/4 + v` (module docstring).

    ``reset(n_arms, horizon, rng, feedback_noise_variance=v)``; ``select()``; ``update(arm, feedback)``.
    """

    code = UCB
    name = "UCB"

    def reset(self, n_arms, horizon, rng=None, feedback_noise_variance=0.0):
        _reset_common(self, n_arms, horizon, feedback_noise_variance)
        self.counts = np.zeros(self.n_arms, dtype=np.int64)
        self.sums = np.zeros(self.n_arms)
        self.t = 0
        return self

    def kernel_param(self, v) -> float:
        """The width constant :math:`\\sqrt{8(1/4 + v)}` (= √2, UCB1's, at v = 0)."""
        return math.sqrt(8.0 * (0.25 + v))

    def select(self) -> int:
        return int(_ucb_select(self.counts, self.sums, max(self.t, 1), self.kernel_param(self.variance)))

    def update(self, arm, feedback) -> None:
        self.counts[arm] += 1
        self.sums[arm] += feedback
        self.t += 1


class TsallisINF:
    r"""Tsallis-INF, α = 1/2, importance-weighted losses, :math:`\eta_t = 2/(\sqrt{1+4v}\sqrt t)`.

    ``probabilities()`` returns the current weights :math:`w_t` (they sum to 1); ``normaliser`` the x_t
    that solved the normalisation equation.
    """

    code = TSALLIS
    name = "Tsallis-INF"

    def reset(self, n_arms, horizon, rng=None, feedback_noise_variance=0.0):
        _reset_common(self, n_arms, horizon, feedback_noise_variance)
        if rng is None:
            raise ValueError("rng must be a numpy Generator (Tsallis-INF samples its arm), got None")
        self.rng = rng
        self.cum_loss = np.zeros(self.n_arms)
        self.counts = np.zeros(self.n_arms, dtype=np.int64)
        self.w = np.full(self.n_arms, 1.0 / self.n_arms)
        self.t = 0
        self.normaliser = 0.0
        return self

    def kernel_param(self, v) -> float:
        """η_t √t = 2 / √(1 + 4v)."""
        return TSALLIS_ETA0 / math.sqrt(1.0 + 4.0 * v)

    def eta(self, t) -> float:
        return self.kernel_param(self.variance) / math.sqrt(t)

    def probabilities(self) -> np.ndarray:
        self.normaliser = float(tsallis_weights(self.cum_loss, self.eta(self.t + 1), self.w))
        return self.w.copy()

    def select(self) -> int:
        self.probabilities()
        return int(_sample(self.w, self.rng.random()))

    def update(self, arm, feedback) -> None:
        self.counts[arm] += 1
        self.cum_loss[arm] += feedback / self.w[arm]
        self.t += 1


LEARNERS = {"UCB": SubGaussianUCB, "Tsallis-INF": TsallisINF}


def make_learner(name: str):
    """A fresh built-in learner: ``"UCB"`` or ``"Tsallis-INF"``."""
    if not isinstance(name, str) or name not in LEARNERS:
        raise ValueError(f"name must be one of {sorted(LEARNERS)}, got {name!r}")
    return LEARNERS[name]()


class OnePointReduction:
    r"""Algorithm 1: ``learner`` only ever receives :math:`f_t(x_t) + Z_t`, Z_t from ``mechanism``.

    ``mechanism`` is a :class:`~ldpcode.mechanisms.GaussianMechanism` (from :func:`algorithm1_mechanism`)
    or a :class:`~ldpcode.mechanisms.LaplaceMechanism` (:func:`laplace_mechanism`); its sensitivity is 2B,
    so the loss bound is B = sensitivity / 2, and a loss with |f| > B raises ValueError (the privacy
    guarantee would not hold). ``reset(n_arms, horizon, rng, noise_rng)`` resets the learner with
    ``feedback_noise_variance`` = the mechanism's noise variance; ``update(arm, loss)`` returns the
    privatized value it passed on.
    """

    def __init__(self, learner, mechanism):
        for attr in ("reset", "select", "update"):
            if not callable(getattr(learner, attr, None)):
                raise ValueError(f"learner must have a {attr}() method (reset/select/update), got {learner!r}")
        if not callable(getattr(mechanism, "privatize", None)):
            raise ValueError(f"mechanism must have a privatize(values, rng) method, got {mechanism!r}")
        self.learner = learner
        self.mechanism = mechanism
        self.loss_bound = float(mechanism.sensitivity) / 2.0
        self.variance = noise_variance(mechanism)

    @property
    def name(self) -> str:
        kind = "Gaussian" if isinstance(self.mechanism, GaussianMechanism) else "Laplace"
        return f"{getattr(self.learner, 'name', type(self.learner).__name__)} + {kind} (Alg. 1)"

    def reset(self, n_arms, horizon, rng, noise_rng):
        if noise_rng is None:
            raise ValueError("noise_rng must be a numpy Generator, got None")
        self.noise_rng = noise_rng
        self.learner.reset(n_arms, horizon, rng, feedback_noise_variance=self.variance)
        return self

    def select(self) -> int:
        return self.learner.select()

    def update(self, arm, loss) -> float:
        loss = check_real("loss", loss)
        if abs(loss) > self.loss_bound:
            raise ValueError(f"loss must satisfy |loss| <= B = {self.loss_bound:g}, got {loss!r}")
        y = float(self.mechanism.privatize(loss, self.noise_rng))
        self.learner.update(arm, y)
        return y


# ----------------------------------------------------------------------------------------------
# Environments
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LossSchedule:
    """Oblivious mean losses: ``levels[j % L]`` (shape (L, K), entries in [0, 1]) on rounds
    ``bounds[j] <= t < bounds[j+1]`` (t from 1; ``bounds[0] = 1``); Bernoulli losses if ``bernoulli``."""

    name: str
    levels: np.ndarray
    bounds: np.ndarray
    bernoulli: bool = True

    @property
    def n_arms(self) -> int:
        return self.levels.shape[1]

    def means_at(self, t: int) -> np.ndarray:
        j = int(np.searchsorted(self.bounds, t, side="right")) - 1
        return self.levels[j % self.levels.shape[0]]


def bernoulli_losses(means, *, bernoulli: bool = True, name: str | None = None) -> LossSchedule:
    """Stochastic MAB: Bernoulli(means[a]) losses (or the means themselves with ``bernoulli=False``)."""
    mu = check_probability_vector("means", means)
    if mu.size < 2:
        raise ValueError(f"means must have at least 2 arms, got {mu.size}")
    return LossSchedule(
        name or f"Bernoulli losses {np.round(mu, 3).tolist()}",
        mu[None, :].copy(),
        np.array([1], dtype=np.int64),
        bool(bernoulli),
    )


@njit(cache=True)
def _ucb_adversary_rows(t0, t1, width_c, table, counts, sums):
    """Rows t0 .. t1 - 1 of the table (rounds t0 + 1 .. t1); ``counts`` and ``sums`` carry UCB1's state."""
    for t in range(t0 + 1, t1 + 1):
        a = _ucb_select(counts, sums, t - 1 if t > 1 else 1, width_c)
        table[t - 1, a] = 1.0
        counts[a] += 1
        sums[a] += 1.0


def _ucb_adversary_table(k, horizon, width_c):
    """The (horizon, k) 0/1 table, built in chunks of ``CHUNK`` rounds (a Ctrl-C is seen between them)."""
    table = np.zeros((horizon, k))
    counts = np.zeros(k, dtype=np.int64)
    sums = np.zeros(k)
    for t0 in range(0, horizon, CHUNK):
        _ucb_adversary_rows(t0, min(horizon, t0 + CHUNK), width_c, table, counts, sums)
    return table


def ucb_adversary(n_arms: int, horizon: int, *, limits: Limits | None = None) -> LossSchedule:
    r"""An oblivious adversarial sequence that defeats non-private UCB1: losses are 0/1 and fixed in
    advance by simulating :class:`SubGaussianUCB` (v = 0, deterministic) and giving loss 1 to the arm
    it would play and 0 to all others, round by round. UCB1 then suffers loss 1 every round while
    the best fixed arm suffers at most T/K, so its regret is at least (1 - 1/K) T: linear. The table
    is legitimate for an oblivious adversary because UCB1 is deterministic; a randomised learner
    (Tsallis-INF, or UCB fed noisy losses) does not follow the simulated path. Losses are used as they
    are (``bernoulli=False``). The table takes (K + 1) 8 T bytes: ``limits`` (:class:`ldpcode.simulate.Limits`)
    caps it and the time to build it, before any work."""
    k = check_int("n_arms", n_arms, minimum=2)
    horizon = check_int("horizon", horizon, minimum=1, maximum=MAX_HORIZON)
    check_limits(
        "ucb_adversary",
        f"a table of horizon={horizon} x n_arms={k} losses (8 bytes each) and "
        f"{horizon:.3g} steps of UCB1 at {20 + 20 * k} ns a step",
        horizon * (20 + 20 * k) * 1e-9,
        horizon * (k + 1) * 8.0,
        limits,
        scale_out="The table cannot be split across calls: lower horizon (UCB1's regret on it is linear, "
        "so a short horizon shows it as well).",
    )
    table = _ucb_adversary_table(k, horizon, SubGaussianUCB().kernel_param(0.0))
    return LossSchedule(
        f"UCB1-adversary (K = {k}, T = {horizon:,})", table, np.arange(1, horizon + 1, dtype=np.int64), False
    )


# ----------------------------------------------------------------------------------------------
# Simulation
# ----------------------------------------------------------------------------------------------


@dataclass
class MABResult:
    """``regret`` (runs, C) at ``checkpoints``; ``counts`` (runs, K) pulls at the horizon."""

    name: str
    environment: str
    horizon: int
    runs: int
    seed: int
    checkpoints: np.ndarray
    regret: np.ndarray
    counts: np.ndarray

    def final_regret(self) -> np.ndarray:
        return self.regret[:, -1]

    def at(self, t: int) -> np.ndarray:
        idx = np.flatnonzero(self.checkpoints == t)
        if idx.size == 0:
            raise ValueError(f"t must be one of the checkpoints, got {t}")
        return self.regret[:, idx[0]]


def _unwrap(agent):
    if isinstance(agent, OnePointReduction):
        return agent.learner, agent.mechanism, agent.variance
    return agent, None, 0.0


def _run_kernel(agent, env, horizon, seed_seq, checkpoints, cancel=None):
    learner, mech, v = _unwrap(agent)
    env_rng, noise_rng, learn_rng = run_streams(seed_seq, 3)
    k = env.n_arms
    counts = np.zeros(k, dtype=np.int64)
    sums = np.zeros(k)
    w = np.full(k, 1.0 / k)
    cum_mean = np.zeros(k)
    out = np.zeros(checkpoints.shape[0])
    param = learner.kernel_param(v)
    phase, played, ci, t = 0, 0.0, 0, 0
    while t < horizon:
        if cancel is not None:  # an interrupted call (ldpcode.simulate.run_pool)
            cancel.check()
        m = min(CHUNK, horizon - t)
        env_u = env_rng.random(m) if env.bernoulli else np.zeros(m)
        noise = mech.privatize(np.zeros(m), noise_rng) if mech is not None else np.zeros(m)
        learn_u = learn_rng.random(m) if learner.code == TSALLIS else np.zeros(m)
        phase, played, ci = _chunk(
            learner.code,
            t,
            m,
            horizon,
            env.levels,
            env.bounds,
            env.bernoulli,
            env_u,
            noise,
            learn_u,
            param,
            counts,
            sums,
            w,
            phase,
            cum_mean,
            played,
            checkpoints,
            ci,
            out,
        )
        t += m
    return out, counts


def _run_python(agent, env, horizon, seed_seq, checkpoints):
    env_rng, noise_rng, learn_rng = run_streams(seed_seq, 3)
    k = env.n_arms
    if isinstance(agent, OnePointReduction):
        agent.reset(k, horizon, learn_rng, noise_rng)
    else:
        agent.reset(k, horizon, learn_rng)
    counts = np.zeros(k, dtype=np.int64)
    cum_mean = np.zeros(k)
    played = 0.0
    out = np.zeros(checkpoints.shape[0])
    ci = 0
    for t in range(1, horizon + 1):
        mu = env.means_at(t)
        a = int(agent.select())
        loss = (1.0 if env_rng.random() < mu[a] else 0.0) if env.bernoulli else float(mu[a])
        agent.update(a, loss)
        counts[a] += 1
        played += mu[a]
        cum_mean += mu
        while ci < checkpoints.shape[0] and checkpoints[ci] == t:
            out[ci] = played - cum_mean.min()
            ci += 1
    return out, counts


def mab_cost(
    learner_code: int | None, n_arms: int, horizon: int, runs: int, n_checkpoints: int, workers: int = 1
) -> tuple[float, float, str]:
    """Estimated (core-seconds, bytes, description) of one :func:`simulate_mab` call, at the per-core costs
    of :mod:`ldpcode.simulate`: 50 + 9K ns a step (UCB kernel), 100 + 50K ns (Tsallis-INF kernel), or
    20 µs + 50K ns (the Python loop, ``learner_code=None``). Memory: the regrets and counts, 4 KiB a run, and
    per thread three draw buffers of ``CHUNK`` doubles."""
    K = n_arms
    if learner_code is None:
        ns, what = 20_000 + 50 * K, "steps of the Python loop"
    elif learner_code == UCB:
        ns, what = 50 + 9 * K, "steps of the UCB kernel"
    else:
        ns, what = 100 + 50 * K, "steps of the Tsallis-INF kernel"
    seconds = runs * horizon * ns * 1e-9
    nbytes = runs * (n_checkpoints * 8 + K * 8 + 4096) + max(1, min(workers, runs)) * 3 * CHUNK * 8
    work = f"runs={runs} x horizon={horizon} = {runs * horizon:.3g} {what} on {K} arms at {ns} ns a step"
    return seconds, nbytes, work


def simulate_mab(
    agent,
    env: LossSchedule,
    horizon: int,
    runs: int = 20,
    seed: int = 0,
    *,
    checkpoints=None,
    engine: str = "auto",
    workers: int | None = None,
    limits: Limits | None = None,
) -> MABResult:
    """R = ``runs`` independent runs of ``agent`` (a learner, or :class:`OnePointReduction` of one) on ``env``.

    Run r draws from ``SeedSequence(seed).spawn(runs)[r]`` (three streams: losses, privacy noise,
    learner). ``engine="auto"`` uses the numba kernel for the built-in learners (exact types, with a Gaussian or
    Laplace mechanism) and the Python loop otherwise; ``"python"`` forces the loop (same pulls, slower).
    Returns regret against the best fixed arm at ``checkpoints`` (default: 61 log-spaced rounds,
    :func:`ldpcode.simulate.resolve_checkpoints`; given, they must end at ``horizon``). ``limits`` caps the
    estimated time and memory (:func:`mab_cost`, :class:`ldpcode.simulate.Limits`), checked before any work;
    Ctrl-C stops the call within a fraction of a second.
    """
    if not isinstance(env, LossSchedule):
        raise ValueError(f"env must be a LossSchedule, got {env!r}")
    horizon = check_int("horizon", horizon, minimum=1, maximum=MAX_HORIZON)
    runs = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
    seed = check_int("seed", seed, minimum=0)
    if engine not in ("auto", "python"):
        raise ValueError(f"engine must be 'auto' or 'python', got {engine!r}")
    if workers is not None:
        workers = check_int("workers", workers, minimum=1, maximum=MAX_WORKERS)
    if not all(callable(getattr(agent, m, None)) for m in ("reset", "select", "update")):
        raise TypeError(
            f"agent must be a learner or a OnePointReduction (make_agent), with reset, select and "
            f"update methods, got {agent!r}"
        )
    cp = resolve_checkpoints(horizon, checkpoints, 61)
    learner, mech, _ = _unwrap(agent)
    fast = (
        engine == "auto"
        and type(learner) in (SubGaussianUCB, TsallisINF)
        and (mech is None or isinstance(mech, (GaussianMechanism, LaplaceMechanism)))
    )
    workers = (workers or default_workers()) if fast else 1
    seconds, nbytes, work = mab_cost(learner.code if fast else None, env.n_arms, horizon, runs, cp.size, workers)
    check_limits("simulate_mab", work, seconds, nbytes, limits)
    children = np.random.SeedSequence(seed).spawn(runs)
    if fast:
        out = run_pool(lambda r, cancel: _run_kernel(agent, env, horizon, children[r], cp, cancel), runs, workers)
    else:
        out = [_run_python(agent, env, horizon, children[r], cp) for r in range(runs)]
    name = agent.name if hasattr(agent, "name") else type(agent).__name__
    return MABResult(
        name, env.name, horizon, runs, seed, cp, np.stack([o[0] for o in out]), np.stack([o[1] for o in out])
    )


def make_agent(learner: str, mechanism: str | None = None, *, epsilon=None, delta=None, loss_bound=1.0):
    """A built-in learner, wrapped by Algorithm 1 when ``mechanism`` is ``"gaussian"`` ((ε, δ)-LDP: needs
    epsilon and delta) or ``"laplace"`` (ε-LDP: needs epsilon, refuses delta); ``mechanism=None`` gives the
    non-private learner, and refuses epsilon and delta (they would be ignored and the agent not private)."""
    lrn = make_learner(learner)
    if mechanism is None:
        if epsilon is not None or delta is not None:
            raise ValueError(
                f"mechanism=None gives the non-private learner, which takes no epsilon or delta (they "
                f"would be ignored), got epsilon={epsilon!r}, delta={delta!r}; pass "
                f"mechanism='gaussian' or 'laplace' for a private agent"
            )
        return lrn
    if mechanism == "gaussian":
        return OnePointReduction(lrn, algorithm1_mechanism(epsilon, delta, loss_bound))
    if mechanism == "laplace":
        if delta is not None:
            raise ValueError(
                f"mechanism='laplace' is ε-LDP and takes no delta (it would be ignored), got "
                f"delta={delta!r}; use mechanism='gaussian' for (ε, δ)-LDP"
            )
        return OnePointReduction(lrn, laplace_mechanism(epsilon, loss_bound))
    raise ValueError(f"mechanism must be None, 'gaussian' or 'laplace', got {mechanism!r}")


# ----------------------------------------------------------------------------------------------
# Privacy loss of the Gaussian mechanism (notebook algorithm1_theorems2_3)
# ----------------------------------------------------------------------------------------------


def gaussian_exact_delta(epsilon, sigma, sensitivity):
    r"""The exact δ(ε) of the Gaussian mechanism (Balle and Wang 2018, Theorem 8):

    .. math:: \delta(\epsilon) = \Phi\Big(\frac{\Delta}{2\sigma} - \frac{\epsilon\sigma}{\Delta}\Big)
              - e^{\epsilon}\,\Phi\Big(-\frac{\Delta}{2\sigma} - \frac{\epsilon\sigma}{\Delta}\Big),

    the smallest δ for which :math:`x\mapsto x + N(0,\sigma^2)` with sensitivity Δ is (ε, δ)-DP.
    Equivalently, with the privacy loss :math:`L\sim N(\mu, 2\mu)`, :math:`\mu = \Delta^2/(2\sigma^2)`:
    :math:`\delta = P[L>\epsilon] - e^\epsilon P[L' < -\epsilon]`. ``epsilon`` may be an array.
    """
    from scipy.stats import norm

    eps = np.asarray(epsilon, dtype=float)
    if not np.all(np.isfinite(eps)) or np.any(eps < 0):
        raise ValueError(f"epsilon must be finite and >= 0, got {epsilon!r}")
    s = check_real("sigma", sigma)
    if s <= 0:
        raise ValueError(f"sigma must be > 0, got {sigma!r}")
    d = check_real("sensitivity", sensitivity)
    if d <= 0:
        raise ValueError(f"sensitivity must be > 0, got {sensitivity!r}")
    a, b = d / (2 * s), eps * s / d
    # e^eps Phi(-a-b) computed in logs to avoid overflow at large eps
    return norm.cdf(a - b) - np.exp(eps + norm.logcdf(-a - b))


def gaussian_loss_tail(epsilon, sigma, sensitivity):
    r""":math:`P[L > \epsilon]` for the privacy loss :math:`L\sim N(\mu, 2\mu)`, :math:`\mu=\Delta^2/(2\sigma^2)`
    (Dwork and Roth 2014, proof of Theorem A.1 bounds it by δ for ε < 1)."""
    from scipy.stats import norm

    eps = np.asarray(epsilon, dtype=float)
    s = check_real("sigma", sigma)
    d = check_real("sensitivity", sensitivity)
    if s <= 0 or d <= 0:
        raise ValueError(f"sigma and sensitivity must be > 0, got sigma={sigma!r}, sensitivity={sensitivity!r}")
    mu = d * d / (2 * s * s)
    return norm.sf((eps - mu) / math.sqrt(2 * mu))


def gaussian_privacy_loss(outputs, f, f_prime, sigma):
    r"""Privacy loss :math:`\ln\frac{p(y\mid f)}{p(y\mid f')} = \frac{(y-f')^2 - (y-f)^2}{2\sigma^2}` of the
    Gaussian mechanism at outputs y (Dwork and Roth 2014, Appendix A)."""
    y = np.asarray(outputs, dtype=float)
    s = check_real("sigma", sigma)
    if s <= 0:
        raise ValueError(f"sigma must be > 0, got {sigma!r}")
    return ((y - f_prime) ** 2 - (y - f) ** 2) / (2 * s * s)
