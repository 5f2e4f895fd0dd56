"""The engine: one protocol that every learner of the book implements, and :func:`run`, which runs any of them.

The engine does not know the kinds of learners. A learner (a *policy*: the index policies of Ren et al., the
heterogeneous ``HeLDP-UCB-*``, the ε-global DP policies of Azize and Basu, KL-UCB and ``OnePoint-UCB``, built by
:func:`ldpcode.make_policy`; the convex learners of :func:`ldpcode.bco.make_learner`; the contextual learners
of :func:`ldpcode.contextual.make_learner`; the agents of Zheng et al.'s Algorithm 1 on a loss schedule,
:class:`ldpcode.reductions.AgentPolicy`) tells the engine what it needs through :class:`BanditPolicy`:

* ``name``, and ``label``: the privacy level a result is labelled with (ε; ε_min for ``HeLDP-UCB-*``; ∞ when
  not private);
* ``environment_type`` and ``environment_source``: what it plays against (an :class:`ldpcode.Instance` of K
  arms, a convex :class:`ldpcode.bco.Environment`, a :class:`ldpcode.contextual.ContextualInstance`) and how
  a reader makes one (for the TypeError that refuses anything else);
* ``threads``: the most worker threads its runs can share (None: any number; 1 for compiled kernels that hold
  the GIL), and ``checkpoint_count``, the number of log-spaced checkpoints it keeps by default;
* ``min_horizon(environment)``: the shortest horizon it can run (K for a K-armed policy, which pulls each arm
  once first);
* ``check_environment(environment, privacy_levels)``: refuse, with a ValueError naming the reason, an
  environment or a distribution of the users' levels it cannot run on;
* ``cost(environment, horizon, runs, n_checkpoints, workers)``: the estimated (core-seconds, bytes,
  description) of a call, from the per-core throughputs of :mod:`ldpcode.limits`, checked before any work;
* ``run_one(environment, horizon, seed_seq, checkpoints, *, privacy_levels=None, cancel=None)``: one run, from
  the run's seed sequence (split by :func:`ldpcode.rng.run_streams`), returning what ``result`` needs (a
  K-armed policy: the pull counts at the checkpoints, shape (C, K), and its number of private releases or
  None). ``cancel`` (a :class:`ldpcode.limits.CancelFlag`) is checked between chunks (:func:`run_in_chunks`);
* ``result(environment, horizon, runs, seed, checkpoints, outputs)``: the :class:`ldpcode.results.RegretCurves`
  of the call from the runs' outputs, in run order.

:func:`run` validates the call, checks the estimated cost against the limits, gives run r the seed sequence
``SeedSequence(seed).spawn(runs)[r]`` (so run r is the same whatever the number of runs or of threads, and two
learners run with the same seed see the same environment draws), runs ``run_one`` on a pool of threads
(:func:`ldpcode.limits.run_pool`, which is looked up here: tests patch ``ldpcode.engine.run_pool``) and hands
the outputs to ``result``. :func:`ldpcode.simulate.simulate`, :func:`ldpcode.bco.simulate_one_point`,
:func:`ldpcode.bco.simulate_two_point`, :func:`ldpcode.contextual.simulate_contextual` and
:func:`ldpcode.reductions.simulate_mab` are :func:`run` with their own argument checks in front. Two
simulators stay outside, on purpose: the vectorised NumPy reference of ``simulate_contextual`` (every run at
once: the plain version the compiled loop is tested against; it shares :func:`prepare`'s checks) and the
best-arm identification of :mod:`ldpcode.reductions.best_arm` (runs that stop at a random time and return a
decision, not regret curves).

A new learner is one class with these members (:class:`ArmedPolicy` gives a K-armed policy all but ``label``,
``check_environment``, ``cost`` and ``run_one``) and one line in its registry. The helpers below are the
pieces the learners share.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from ._validate import check_bool, check_int, check_rounds, check_seed, one_line
from .instances import Instance
from .limits import (
    PULLS_PER_CALL,
    MAX_HORIZON,
    MAX_POINTS,
    MIN_POINTS,
    MAX_RUNS,
    MAX_WORKERS,
    Limits,
    check_limits,
    default_workers,
    run_pool,
)
from .results import SimulationResult


@runtime_checkable
class BanditPolicy(Protocol):
    """What :func:`run` needs of a learner (module docstring)."""

    name: str
    environment_type: type
    environment_source: str
    threads: int | None
    checkpoint_count: int

    @property
    def label(self) -> float: ...

    def min_horizon(self, environment) -> int: ...

    def check_environment(self, environment, privacy_levels) -> None: ...

    def cost(
        self, environment, horizon: int, runs: int, n_checkpoints: int, workers: int
    ) -> tuple[float, float, str]: ...

    def run_one(
        self,
        environment,
        horizon: int,
        seed_seq: np.random.SeedSequence,
        checkpoints,
        *,
        privacy_levels=None,
        cancel=None,
    ): ...

    def result(self, environment, horizon: int, runs: int, seed: int, checkpoints: np.ndarray, outputs: list): ...


class ArmedPolicy:
    """The members of :class:`BanditPolicy` shared by every policy on a K-armed :class:`ldpcode.Instance` (the
    policies of :func:`ldpcode.make_policy`): any number of threads, 121 log-spaced checkpoints, a horizon of
    at least K, and a :class:`ldpcode.results.SimulationResult` from the runs' (pull counts, releases)."""

    environment_type = Instance
    environment_source = "make_instance()"
    threads = None
    checkpoint_count = 121
    #: whether a run of horizon T, cut at t, is the run of horizon t (no index, schedule or noise depends on T);
    #: :meth:`ldpcode.results.SimulationResult.until` refuses a result of a policy that is not
    anytime = True

    def min_horizon(self, instance) -> int:
        return instance.n_arms

    def result(self, instance, horizon, runs, seed, checkpoints, outputs) -> SimulationResult:
        releases = None if outputs[0][1] is None else np.array([o[1] for o in outputs], dtype=np.int64)
        counts = np.stack([o[0] for o in outputs])
        return SimulationResult(
            self.name,
            self.label,
            instance.name,
            horizon,
            runs,
            seed,
            checkpoints,
            counts,
            instance.gaps,
            releases,
            self.anytime,
        )


def decade_checkpoints(horizon: int) -> np.ndarray:
    """The powers of ten 10, 100, ... up to ``horizon`` (int64, empty below 10): where tables are read at round
    horizons."""
    horizon = check_int("horizon", horizon, minimum=1)
    return 10 ** np.arange(1, len(str(horizon)), dtype=np.int64)


def log_checkpoints(horizon: int, points: int = 121) -> np.ndarray:
    """About ``points`` log-spaced pull counts from 1 to ``horizon`` (both included), unique and sorted."""
    horizon = check_int("horizon", horizon, minimum=1, maximum=MAX_HORIZON)
    points = check_int("points", points, minimum=MIN_POINTS, maximum=MAX_POINTS)
    cp = np.unique(np.rint(np.geomspace(1, horizon, points)).astype(np.int64))
    cp[-1] = horizon
    return cp


def resolve_checkpoints(horizon: int, checkpoints=None, points: int = 121) -> np.ndarray:
    """The checkpoints of a simulation, shared by every engine: :func:`log_checkpoints` (``points``) if
    ``checkpoints`` is None, else ``checkpoints`` as int64, which must be a strictly increasing sequence of
    whole rounds in [1, ``horizon``] whose last element is ``horizon`` (the result's pulls and final regret
    are read there; a result that stopped at t = 50 while saying horizon 100 would be wrong)."""
    horizon = check_int("horizon", horizon, minimum=1, maximum=MAX_HORIZON)
    if checkpoints is None:
        return log_checkpoints(horizon, points)
    cp = check_rounds("checkpoints", checkpoints, horizon=horizon)
    if cp[-1] != horizon:
        raise ValueError(
            f"checkpoints must end at the horizon, {horizon} (the result's pulls and final regret are "
            f"read at the last checkpoint), got a last checkpoint of {int(cp[-1])}; append {horizon} "
            f"to checkpoints, or simulate with horizon={int(cp[-1])}"
        )
    return cp


@dataclass(frozen=True)
class Call:
    """A call of the engine, checked (:func:`prepare`): the validated ``horizon``, ``runs``, ``seed``,
    ``checkpoints`` and ``workers`` (at most ``policy.threads``)."""

    horizon: int
    runs: int
    seed: int
    checkpoints: np.ndarray
    workers: int

    def seed_sequences(self) -> list:
        """Run r's seed sequence, ``SeedSequence(seed).spawn(runs)[r]``, for every r."""
        return np.random.SeedSequence(self.seed).spawn(self.runs)


def _short(x) -> str:
    """``x`` for a one-line error: its repr when short (a name such as 'UCB1'), else its type (an Instance's repr
    lists every arm)."""
    text = one_line(x, 61)
    return text if len(text) <= 60 else type(x).__name__


def check_policy_types(policy, environment, call: str = "simulate") -> None:
    """``policy`` implements :class:`BanditPolicy` and ``environment`` is its ``environment_type``, or a TypeError
    naming what was given (and, for the two swapped, the order ``call(policy, instance, ...)``)."""
    if not isinstance(policy, BanditPolicy):
        swapped = isinstance(environment, BanditPolicy)
        raise TypeError(
            f"policy must come from make_policy() (or ldpcode.bco.make_learner(), ldpcode.contextual.make_learner()): "
            f"an ldpcode.engine.BanditPolicy, got {_short(policy)}"
            + (f"; the order is {call}(policy, instance, horizon, ...)" if swapped else "")
        )
    if not isinstance(environment, policy.environment_type):
        raise TypeError(f"instance must come from {policy.environment_source}, got {_short(environment)}")


def prepare(
    policy: BanditPolicy,
    environment,
    horizon: int,
    runs: int,
    seed: int,
    *,
    checkpoints=None,
    workers: int | None = None,
    privacy_levels=None,
    limits: Limits | None = None,
    call: str = "simulate",
) -> Call:
    """Every check of :func:`run`, in its order, before any work; returns the checked :class:`Call`.

    ``policy`` must implement :class:`BanditPolicy` and ``environment`` be its ``environment_type``
    (TypeError otherwise); then ``policy.check_environment``; ``horizon`` in
    [``policy.min_horizon(environment)``, :data:`~ldpcode.limits.MAX_HORIZON`], ``runs``, ``seed``;
    ``checkpoints`` (:func:`resolve_checkpoints`, ``policy.checkpoint_count`` log-spaced by default); ``workers``
    (default :func:`~ldpcode.limits.default_workers`, at most ``policy.threads``); and the estimated cost
    (``policy.cost``) against ``limits``, whose ValueError names ``call``."""
    check_policy_types(policy, environment, call)
    policy.check_environment(environment, privacy_levels)
    horizon = check_int("horizon", horizon, minimum=policy.min_horizon(environment), maximum=MAX_HORIZON)
    runs = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
    seed = check_seed("seed", seed)
    checkpoints = resolve_checkpoints(horizon, checkpoints, policy.checkpoint_count)
    workers = default_workers() if workers is None else check_int("workers", workers, minimum=1, maximum=MAX_WORKERS)
    if policy.threads is not None:
        workers = min(workers, policy.threads)
    seconds, nbytes, work = policy.cost(environment, horizon, runs, checkpoints.size, workers)
    check_limits(call, work, seconds, nbytes, limits)
    return Call(horizon, runs, seed, checkpoints, workers)


def run(
    policy: BanditPolicy,
    environment,
    horizon: int,
    runs: int,
    seed: int,
    *,
    checkpoints=None,
    workers: int | None = None,
    progress: bool | None = None,
    privacy_levels=None,
    limits: Limits | None = None,
    call: str = "simulate",
):
    """``runs`` independent runs of ``policy`` on ``environment`` for ``horizon`` rounds: the one engine.

    The checks of :func:`prepare` first (the arguments are those of :func:`prepare`); then run r plays from
    ``SeedSequence(seed).spawn(runs)[r]`` (``policy.run_one``) on :func:`~ldpcode.limits.run_pool`, with a
    progress bar over runs if ``progress`` (default: on a terminal, for 10^8 rounds or more), and
    ``policy.result`` builds the result from the runs' outputs. Ctrl-C stops the call within a fraction of a
    second (:mod:`ldpcode.limits`, "Interrupts")."""
    if progress is not None:  # a flag: progress="no" is truthy and showed the bar
        progress = check_bool("progress", progress)
    c = prepare(
        policy,
        environment,
        horizon,
        runs,
        seed,
        checkpoints=checkpoints,
        workers=workers,
        privacy_levels=privacy_levels,
        limits=limits,
        call=call,
    )
    children = c.seed_sequences()
    if progress is None:
        progress = sys.stderr.isatty() and c.horizon * c.runs >= 10**8

    def task(r, cancel):
        return policy.run_one(
            environment, c.horizon, children[r], c.checkpoints, privacy_levels=privacy_levels, cancel=cancel
        )

    label = f"{policy!r} T={c.horizon:,}"
    out = run_pool(task, c.runs, c.workers, progress=label if progress else None, label=label)
    return policy.result(environment, c.horizon, c.runs, c.seed, c.checkpoints, out)


def run_in_chunks(horizon: int, cancel, step, chunk: int | None = None) -> None:
    """The chunk loop of every per-round engine (the policies of :func:`ldpcode.simulate.simulate` and the
    drivers of ``bco``, ``contextual`` and ``reductions``): from t = 0 to ``horizon`` in chunks of at most
    ``chunk`` rounds (default :data:`~ldpcode.limits.PULLS_PER_CALL`; an engine whose draws are laid out by
    chunk, like the contextual one, passes its own), checking ``cancel`` (a :class:`ldpcode.limits.CancelFlag`,
    or None) before each.
    ``step(t, ci, m)`` draws the chunk's randomness, runs the compiled kernel on rounds t + 1 .. t + m and
    returns the new (t, ci), ci being the index of the next checkpoint to record (a kernel that keeps it in
    its own state returns the ci it was given)."""
    size = PULLS_PER_CALL if chunk is None else chunk
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
        raise ValueError(f"chunk must be a whole number of rounds >= 1, got {chunk!r}")
    t = ci = 0
    while t < horizon:
        if cancel is not None:
            cancel.check()
        t, ci = step(t, ci, min(size, horizon - t))


def refuse_privacy_levels(policy, privacy_levels) -> None:
    """Only the heterogeneous policies take a distribution of the users' levels."""
    if privacy_levels is not None:
        raise ValueError(f"privacy_levels is only for the heterogeneous HeLDP-UCB-* policies, not {policy.name!r}")


def check_bounded(policy, instance, why: str) -> None:
    """A policy that needs rewards in [0, 1] refuses an unbounded instance; ``why`` ends the message."""
    if policy.needs_bounded_rewards and not instance.bounded:
        raise ValueError(f"policy {policy.name!r} needs rewards in [0, 1]{why}")


def pulls_cost(
    what: str, ns: float, n_arms: int, horizon: int, runs: int, n_checkpoints: int, workers: int
) -> tuple[float, float, str]:
    """(core-seconds, bytes, description) of ``runs`` runs of ``horizon`` pulls at ``ns`` nanoseconds a pull.

    Memory: the counts (runs, C, K) int64, twice (each run's array and the stacked result), 4 KiB a run of
    bookkeeping (its seed sequence, future and array headers), and per thread the draw buffers (three of
    ``PULLS_PER_CALL`` doubles) and the per-arm state."""
    K = n_arms
    threads = max(1, min(workers, runs))
    pulls = runs * horizon
    seconds = pulls * ns * 1e-9
    nbytes = runs * (2 * n_checkpoints * K * 8 + 4096) + threads * (3 * PULLS_PER_CALL * 8 + 64 * K * 8)
    work = f"runs={runs} x horizon={horizon} = {pulls:.3g} {what} on {K} arms at {ns} ns a pull"
    return seconds, nbytes, work
