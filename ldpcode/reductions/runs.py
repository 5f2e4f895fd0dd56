r"""Simulation of Algorithm 1's MAB instance (Zheng et al. 2020, Section 3 and Appendix B): R runs of an agent.

:func:`simulate_mab` runs R independent runs of an agent as an engine policy (:class:`AgentPolicy`, run by
:func:`ldpcode.engine.run`, from ``SeedSequence(seed).spawn(R)``); run r uses three streams from
:func:`ldpcode.rng.run_streams`: loss draws, privacy noise, learner randomness. The built-in learners run in the
numba kernel (:func:`ldpcode.reductions.kernels._chunk`); any other learner runs through the Python loop, which
consumes the streams identically (on one thread: its agent is one object, reset for each run). Both go by
:func:`ldpcode.engine.run_in_chunks` (``ROUNDS_PER_CALL`` rounds at a time). :func:`mab_cost` estimates a call's
time and memory before any work; :class:`MABResult` holds the pseudo-regret against the best fixed arm at the
checkpoints. ``run_in_chunks`` and ``ROUNDS_PER_CALL`` are looked up here (patch ``ldpcode.reductions.runs``);
the pool is the engine's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..mechanisms import GaussianMechanism, LaplaceMechanism
from ..engine import refuse_privacy_levels, run_in_chunks
from ..engine import run as run_policy
from ..limits import Limits
from ..results import RegretCurves
from ..rng import run_streams
from .kernels import ROUNDS_PER_CALL, ChunkDraws, LearnerState, LearnerTuning, LossTable, RegretRecorder, _chunk
from .learners import TSALLIS, UCB, OnePointReduction, SubGaussianUCB, TsallisINF
from .losses import LossSchedule


# ----------------------------------------------------------------------------------------------
# Simulation
# ----------------------------------------------------------------------------------------------


@dataclass
class MABResult(RegretCurves):
    """A :class:`ldpcode.results.RegretCurves`: ``regret`` (runs, C) against the best fixed arm at
    ``checkpoints``; ``counts`` (runs, K) pulls at the horizon; ``epsilon`` the agent's mechanism's ε
    (inf for a non-private learner)."""

    name: str
    environment: str
    horizon: int
    runs: int
    seed: int
    checkpoints: np.ndarray
    regret: np.ndarray
    counts: np.ndarray
    epsilon: float = math.inf


def _unwrap(agent):
    if isinstance(agent, OnePointReduction):
        return agent.learner, agent.mechanism, agent.variance
    return agent, None, 0.0


def _run_kernel(agent, env, horizon, seed_seq, checkpoints, cancel=None):
    learner, mech, v = _unwrap(agent)
    env_rng, noise_rng, learn_rng = run_streams(seed_seq, 3)
    k = env.n_arms
    counts = np.zeros(k, dtype=np.int64)
    out = np.zeros(checkpoints.shape[0])
    tuning = LearnerTuning(learner.code, learner.kernel_param(v))
    losses = LossTable(env.levels, env.bounds, env.bernoulli)
    state = LearnerState(counts, np.zeros(k), np.full(k, 1.0 / k), np.zeros(k))
    recorder = RegretRecorder(checkpoints, out)
    carry = [0, 0.0]  # the kernel's phase and played mean loss, between chunks

    def step(t, ci, m):
        env_u = env_rng.random(m) if env.bernoulli else np.zeros(m)
        noise = mech.privatize(np.zeros(m), noise_rng) if mech is not None else np.zeros(m)
        learn_u = learn_rng.random(m) if learner.code == TSALLIS else np.zeros(m)
        draws = ChunkDraws(env_u, noise, learn_u)
        carry[0], carry[1], ci = _chunk(t, m, tuning, losses, draws, state, carry[0], carry[1], recorder, ci)
        return t + m, ci

    run_in_chunks(horizon, cancel, step, ROUNDS_PER_CALL)
    return out, counts


def _run_python(agent, env, horizon, seed_seq, checkpoints, cancel=None):
    env_rng, noise_rng, learn_rng = run_streams(seed_seq, 3)
    k = env.n_arms
    if isinstance(agent, OnePointReduction):
        agent.reset(k, horizon, learn_rng, noise_rng)
    else:
        agent.reset(k, horizon, learn_rng)
    counts = np.zeros(k, dtype=np.int64)
    cum_mean = np.zeros(k)
    played = [0.0]
    out = np.zeros(checkpoints.shape[0])

    def step(t0, ci, m):
        for t in range(t0 + 1, t0 + m + 1):
            mu = env.means_at(t)
            a = int(agent.select())
            loss = (1.0 if env_rng.random() < mu[a] else 0.0) if env.bernoulli else float(mu[a])
            agent.update(a, loss)
            counts[a] += 1
            played[0] += mu[a]
            cum_mean[:] += mu
            while ci < checkpoints.shape[0] and checkpoints[ci] == t:
                out[ci] = played[0] - cum_mean.min()
                ci += 1
        return t0 + m, ci

    run_in_chunks(horizon, cancel, step, ROUNDS_PER_CALL)
    return out, counts


def mab_cost(
    learner_code: int | None, n_arms: int, horizon: int, runs: int, n_checkpoints: int, workers: int = 1
) -> tuple[float, float, str]:
    """Estimated (core-seconds, bytes, description) of one :func:`simulate_mab` call, at the per-core costs
    of :mod:`ldpcode.limits`: 50 + 9K ns a step (UCB kernel), 100 + 50K ns (Tsallis-INF kernel), or
    20 µs + 50K ns (the Python loop, ``learner_code=None``). Memory: the regrets and counts, 4 KiB a run, and
    per thread three draw buffers of ``ROUNDS_PER_CALL`` doubles."""
    K = n_arms
    if learner_code is None:
        ns, what = 20_000 + 50 * K, "steps of the Python loop"
    elif learner_code == UCB:
        ns, what = 50 + 9 * K, "steps of the UCB kernel"
    else:
        ns, what = 100 + 50 * K, "steps of the Tsallis-INF kernel"
    seconds = runs * horizon * ns * 1e-9
    nbytes = runs * (n_checkpoints * 8 + K * 8 + 4096) + max(1, min(workers, runs)) * 3 * ROUNDS_PER_CALL * 8
    work = f"runs={runs} x horizon={horizon} = {runs * horizon:.3g} {what} on {K} arms at {ns} ns a step"
    return seconds, nbytes, work


@dataclass(frozen=True)
class AgentPolicy:
    """An agent of :func:`simulate_mab` (a learner, or :class:`OnePointReduction` of one) as an engine policy
    (:class:`ldpcode.engine.BanditPolicy`) on a :class:`LossSchedule`: ``fast`` runs the numba kernel
    (``_run_kernel``, any number of threads), else the Python loop (``_run_python``, one thread: the agent is one
    object, reset for each run). 61 checkpoints by default; the result is a :class:`MABResult`."""

    agent: object
    fast: bool

    environment_type = LossSchedule
    environment_source = "a LossSchedule (ldpcode.reductions.bernoulli_losses, ucb_adversary)"
    checkpoint_count = 61

    @property
    def name(self) -> str:
        return self.agent.name if hasattr(self.agent, "name") else type(self.agent).__name__

    @property
    def threads(self) -> int | None:
        return None if self.fast else 1

    @property
    def label(self) -> float:
        mech = _unwrap(self.agent)[1]
        return math.inf if mech is None else float(getattr(mech, "epsilon", math.nan))

    def min_horizon(self, env) -> int:
        return 1

    def check_environment(self, env, privacy_levels) -> None:
        refuse_privacy_levels(self, privacy_levels)

    def cost(self, env, horizon: int, runs: int, n_checkpoints: int, workers: int):
        code = _unwrap(self.agent)[0].code if self.fast else None
        return mab_cost(code, env.n_arms, horizon, runs, n_checkpoints, workers)

    def run_one(self, env, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        run = _run_kernel if self.fast else _run_python
        return run(self.agent, env, horizon, seed_seq, checkpoints, cancel)

    def result(self, env, horizon, runs, seed, checkpoints, outputs) -> MABResult:
        regret, counts = np.stack([o[0] for o in outputs]), np.stack([o[1] for o in outputs])
        return MABResult(self.name, env.name, horizon, runs, seed, checkpoints, regret, counts, self.label)


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
    """R = ``runs`` independent runs of ``agent`` (a learner, or :class:`OnePointReduction` of one) on ``env``:
    the engine (:func:`ldpcode.engine.run`) running :class:`AgentPolicy`.

    Run r draws from ``SeedSequence(seed).spawn(runs)[r]`` (three streams: losses, privacy noise,
    learner). ``engine="auto"`` uses the numba kernel for the built-in learners (exact types, with a Gaussian or
    Laplace mechanism) and the Python loop otherwise; ``"python"`` forces the loop (same pulls, slower).
    Returns regret against the best fixed arm at ``checkpoints`` (default: 61 log-spaced rounds,
    :func:`ldpcode.engine.resolve_checkpoints`; given, they must end at ``horizon``). ``limits`` caps the
    estimated time and memory (:func:`mab_cost`, :class:`ldpcode.limits.Limits`), checked before any work;
    Ctrl-C stops the call within a fraction of a second.
    """
    if not isinstance(env, LossSchedule):
        raise ValueError(f"env must be a LossSchedule, got {env!r}")
    if engine not in ("auto", "python"):
        raise ValueError(f"engine must be 'auto' or 'python', got {engine!r}")
    if not all(callable(getattr(agent, m, None)) for m in ("reset", "select", "update")):
        raise TypeError(
            f"agent must be a learner or a OnePointReduction (make_agent), with reset, select and "
            f"update methods, got {agent!r}"
        )
    learner, mech, _ = _unwrap(agent)
    fast = (
        engine == "auto"
        and type(learner) in (SubGaussianUCB, TsallisINF)
        and (mech is None or isinstance(mech, (GaussianMechanism, LaplaceMechanism)))
    )
    return run_policy(
        AgentPolicy(agent, fast),
        env,
        horizon,
        runs,
        seed,
        checkpoints=checkpoints,
        workers=workers,
        limits=limits,
        call="simulate_mab",
    )
