"""The simulation engine: R independent runs of a policy on an instance for T steps.

Run ``r`` of ``simulate(..., seed=s)`` draws from ``SeedSequence(s).spawn(runs)[r]``, split into two
streams: one for the users' rewards and one for the curator's noise. So run ``r`` is the same whatever
the number of runs or of worker threads, and two policies simulated with the same seed see the same
reward draws (common random numbers, which make their regret ratio less noisy).

What is kept is independent of the horizon: the pull counts N_a(t) at log-spaced checkpoints t,
from which the pseudo-regret sum_a N_a(t) Delta_a follows exactly. Checkpoints must end at the horizon
(:func:`resolve_checkpoints`, shared by every engine): the last one is where ``pulls`` and
``final_regret`` are read.

**One engine, any policy.** :func:`simulate` knows no kind of policy: it validates its arguments, asks the
policy to check the instance (``check_environment``) and to estimate the call's cost (``cost``), then runs
``policy.run_one`` for each run on a pool of threads and stacks the counts into one
:class:`SimulationResult`. The protocol is :class:`ldpcode.engine.BanditPolicy`; the index policies,
``HeLDP-UCB-*``, the ε-global DP policies and KL-UCB each implement it next to their kernels.

The machinery every engine shares lives in sibling modules, and is re-exported here so that
``ldpcode.simulate.X`` keeps working: :mod:`ldpcode.limits` (:class:`Limits`, :func:`check_limits`, the
``MAX_*`` ceilings, :func:`run_pool`, :class:`CancelFlag`, :func:`default_workers`; its docstring holds the
"Limits" and "Interrupts" design and the per-core throughputs behind :func:`simulate_cost`),
:mod:`ldpcode.rng` (:func:`run_streams`) and :mod:`ldpcode.stats` (confidence intervals, fits and bootstraps
over runs: :func:`mean_and_half_width`, :func:`ratio_of_means_se`, :func:`linear_fit`, :func:`loglog_slope`, ...).
Ctrl-C stops a simulation within a fraction of a second (:mod:`ldpcode.limits`, "Interrupts").
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from ._validate import as_float_array, check_int
from .instances import Instance, PrivacyLevels
from .engine import BanditPolicy
from .results import RegretCurves

# Re-exported: the public names that moved out of this module stay importable from it (and simulate() looks up
# run_pool here, where tests/test_limits.py patches it).
from .limits import (  # noqa: F401
    CHUNK,
    MAX_HORIZON,
    MAX_POINTS,
    MAX_RUNS,
    MAX_WORKERS,
    CancelFlag,
    Cancelled,
    Limits,
    check_limits,
    default_workers,
    run_pool,
)
from .rng import run_streams  # noqa: F401
from .stats import (  # noqa: F401
    HingeBootstrap,
    HingeFit,
    LinearFit,
    SlopeFit,
    bootstrap_indices,
    bootstrap_se,
    hinge_bootstrap,
    hinge_fit,
    linear_fit,
    log_growth,
    loglog_slope,
    mean_and_half_width,
    mean_se,
    ratio_exponent,
    ratio_of_means_se,
)


def log_checkpoints(horizon: int, points: int = 121) -> np.ndarray:
    """About ``points`` log-spaced pull counts from 1 to ``horizon`` (both included), unique and sorted."""
    horizon = check_int("horizon", horizon, minimum=1, maximum=MAX_HORIZON)
    points = check_int("points", points, minimum=2, maximum=MAX_POINTS)
    cp = np.unique(np.rint(np.geomspace(1, horizon, points)).astype(np.int64))
    cp[-1] = horizon
    return cp


@dataclass
class SimulationResult(RegretCurves):
    """What :func:`simulate` returns: a :class:`ldpcode.results.RegretCurves` whose regret is computed.

    ``checkpoints`` (C,), ``counts`` (runs, C, arms): N_a at each checkpoint, ``gaps`` (arms,).
    ``regret`` (runs, C) is the pseudo-regret sum_a N_a(t) Delta_a; ``pulls`` (runs, arms) the counts at
    the horizon. ``releases`` (runs,), for the global-DP policies, counts the private statistics each run
    computed (Azize and Basu, Table 1, "# Private Means"); None otherwise. ``name`` is ``policy``.
    """

    policy: str
    epsilon: float
    instance: str
    horizon: int
    runs: int
    seed: int
    checkpoints: np.ndarray
    counts: np.ndarray
    gaps: np.ndarray
    releases: np.ndarray | None = None

    @property
    def name(self) -> str:
        return self.policy

    @property
    def regret(self) -> np.ndarray:
        return self.counts @ self.gaps

    @property
    def pulls(self) -> np.ndarray:
        return self.counts[:, -1, :]

    def until(self, t: int) -> "SimulationResult":
        """The same runs cut at pull ``t`` (a checkpoint): a result of horizon ``t``.

        Run r's reward and noise streams do not depend on the horizon, so a run of horizon T cut at t
        is exactly the run of horizon t with the same seed (tests/test_figures.py checks it): one long
        simulation serves both a T = 10^6 panel and a T = 10^7 ratio curve.
        """
        t = check_int("t", t, minimum=1)
        k = self.checkpoint_index(t) + 1
        return SimulationResult(
            self.policy,
            self.epsilon,
            self.instance,
            t,
            self.runs,
            self.seed,
            self.checkpoints[:k].copy(),
            self.counts[:, :k].copy(),
            self.gaps,
        )


def _show_checkpoints(checkpoints) -> str:
    text = repr(checkpoints)
    return text if len(text) <= 120 else text[:117] + "..."


def resolve_checkpoints(horizon: int, checkpoints=None, points: int = 121) -> np.ndarray:
    """The checkpoints of a simulation, shared by every engine: :func:`log_checkpoints` (``points``) if
    ``checkpoints`` is None, else ``checkpoints`` as int64, which must be a strictly increasing sequence of
    whole rounds in [1, ``horizon``] whose last element is ``horizon`` (the result's pulls and final regret
    are read there; a result that stopped at t = 50 while saying horizon 100 would be wrong)."""
    horizon = check_int("horizon", horizon, minimum=1, maximum=MAX_HORIZON)
    if checkpoints is None:
        return log_checkpoints(horizon, points)
    try:
        cpf = as_float_array("checkpoints", checkpoints)
    except TypeError:
        raw = np.asarray(checkpoints, dtype=object) if not isinstance(checkpoints, (str, bytes)) else None
        if (
            raw is not None
            and raw.ndim == 1
            and raw.size
            and all(isinstance(c, int) and not isinstance(c, bool) for c in raw)
        ):
            raise ValueError(
                f"checkpoints must be whole rounds in [1, horizon={horizon}], got {_show_checkpoints(checkpoints)}"
            ) from None  # integers beyond int64
        raise
    if cpf.ndim != 1 or not np.isfinite(cpf).all() or (cpf != np.round(cpf)).any():
        raise ValueError(
            f"checkpoints must be a 1-d sequence of whole rounds in [1, horizon={horizon}], "
            f"got {_show_checkpoints(checkpoints)}"
        )
    if cpf.size == 0 or cpf.min() < 1 or cpf.max() > horizon:
        raise ValueError(
            f"checkpoints must be a strictly increasing sequence of rounds in [1, horizon={horizon}], "
            f"got {_show_checkpoints(checkpoints)}"
        )
    raw = np.asarray(checkpoints)
    cp = raw.astype(np.int64) if raw.dtype.kind in "iu" else cpf.astype(np.int64)  # ints compared exactly
    if (np.diff(cp) <= 0).any() or cp[0] < 1 or cp[-1] > horizon:
        raise ValueError(
            f"checkpoints must be a strictly increasing sequence of rounds in [1, horizon={horizon}], "
            f"got {_show_checkpoints(checkpoints)}"
        )
    if cp[-1] != horizon:
        raise ValueError(
            f"checkpoints must end at the horizon, {horizon} (the result's pulls and final regret are "
            f"read at the last checkpoint), got a last checkpoint of {int(cp[-1])}; append {horizon} "
            f"to checkpoints, or simulate with horizon={int(cp[-1])}"
        )
    return cp


def _check_policy(policy, instance, privacy_levels) -> None:
    if not isinstance(policy, BanditPolicy):
        raise TypeError(f"policy must come from make_policy(), got {policy!r}")
    if not isinstance(instance, Instance):
        raise TypeError(f"instance must come from make_instance(), got {instance!r}")
    policy.check_environment(instance, privacy_levels)


def simulate_cost(
    policy, instance: Instance, horizon: int, runs: int, n_checkpoints: int, workers: int = 1
) -> tuple[float, float, str]:
    """Estimated (core-seconds, bytes, description) of ``simulate(policy, instance, horizon, runs)`` with
    ``n_checkpoints`` checkpoints on ``workers`` threads: the policy's own estimate (``policy.cost``, from the
    per-core throughputs of :mod:`ldpcode.limits`; the memory model is :func:`ldpcode.engine.pulls_cost`)."""
    return policy.cost(instance, horizon, runs, n_checkpoints, workers)


def simulate(
    policy: BanditPolicy,
    instance: Instance,
    horizon: int,
    runs: int = 50,
    seed: int = 0,
    *,
    checkpoints=None,
    workers: int | None = None,
    progress: bool | None = None,
    privacy_levels: PrivacyLevels | None = None,
    limits: Limits | None = None,
) -> SimulationResult:
    """Simulate ``runs`` independent runs of ``policy`` on ``instance`` for ``horizon`` pulls.

    ``checkpoints`` defaults to :func:`log_checkpoints` (given, they must end at ``horizon``); ``workers``
    threads share the runs (the result does not depend on it; default :func:`default_workers`);
    ``progress`` shows a bar over runs (default: only on a terminal). ``privacy_levels`` (heterogeneous
    policies only) is the users' distribution of eps_t. ``limits`` (a :class:`Limits`, default
    ``Limits()``) caps the estimated time and memory (:func:`simulate_cost`), checked before any work.
    Ctrl-C stops the call within a fraction of a second (:mod:`ldpcode.limits`, "Interrupts").
    """
    _check_policy(policy, instance, privacy_levels)
    horizon = check_int("horizon", horizon, minimum=instance.n_arms, maximum=MAX_HORIZON)
    runs = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
    seed = check_int("seed", seed, minimum=0)
    checkpoints = resolve_checkpoints(horizon, checkpoints)
    workers = default_workers() if workers is None else check_int("workers", workers, minimum=1, maximum=MAX_WORKERS)
    seconds, nbytes, work = simulate_cost(policy, instance, horizon, runs, checkpoints.size, workers)
    check_limits("simulate", work, seconds, nbytes, limits)
    children = np.random.SeedSequence(seed).spawn(runs)
    if progress is None:
        progress = sys.stderr.isatty() and horizon * runs >= 10**8

    def task(r, cancel):
        return policy.run_one(instance, horizon, children[r], checkpoints, privacy_levels=privacy_levels, cancel=cancel)

    out = run_pool(task, runs, workers, progress=f"{policy!r} T={horizon:,}" if progress else None)
    releases = None if out[0][1] is None else np.array([o[1] for o in out], dtype=np.int64)
    counts = np.stack([o[0] for o in out])
    return SimulationResult(
        policy.name,
        policy.label,
        instance.name,
        horizon,
        runs,
        seed,
        checkpoints,
        counts,
        instance.gaps,
        releases,
    )
