"""The simulation engine: R independent runs of a policy on an instance for T steps.

Run ``r`` of ``simulate(..., seed=s)`` draws from ``SeedSequence(s).spawn(runs)[r]``, split into two
streams: one for the users' rewards and one for the curator's noise. So run ``r`` is the same whatever
the number of runs or of worker threads, and two policies simulated with the same seed see the same
reward draws (common random numbers, which make their regret ratio less noisy).

What is kept is independent of the horizon: the pull counts N_a(t) at log-spaced checkpoints t,
from which the pseudo-regret sum_a N_a(t) Delta_a follows exactly. Checkpoints must end at the horizon
(:func:`resolve_checkpoints`, shared by every engine): the last one is where ``pulls`` and
``final_regret`` are read.

The machinery every engine shares lives in sibling modules, and is re-exported here so that
``ldpcode.simulate.X`` keeps working: :mod:`ldpcode.limits` (:class:`Limits`, :func:`check_limits`, the
``MAX_*`` ceilings, :func:`run_pool`, :class:`CancelFlag`, :func:`default_workers`; its docstring holds the
"Limits" and "Interrupts" design and the per-core throughputs behind :func:`simulate_cost`),
:mod:`ldpcode.rng` (:func:`run_streams`) and :mod:`ldpcode.stats` (confidence intervals, fits and bootstraps
over runs: :func:`mean_and_half_width`, :func:`ratio_of_means_se`, :func:`linear_fit`, :func:`loglog_slope`, ...).
Ctrl-C stops a simulation within a fraction of a second (:mod:`ldpcode.limits`, "Interrupts").
"""

from __future__ import annotations

import functools
import inspect
import sys
from dataclasses import dataclass

import numpy as np

from ._validate import as_float_array, check_int
from .instances import Instance, PrivacyLevels
from . import global_policies as gp
from . import instances as ins
from . import mechanisms as mech
from .policies import HeterogeneousPolicy, IndexPolicy, heterogeneous_chunk, index_policy_chunk

# Re-exported: the names that moved out of this module stay importable from it (and simulate() looks up
# run_pool here, where tests/test_limits.py patches it).
from .limits import (  # noqa: F401
    MAX_HORIZON,
    MAX_POINTS,
    MAX_RUNS,
    MAX_WORKERS,
    POOL_WINDOW,
    SCALE_OUT,
    CancelFlag,
    Cancelled,
    Limits,
    _default_memory_bytes,
    _fmt_bytes,
    _fmt_seconds,
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
    _check_abscissa,
    _check_boot,
    _check_runs_matrix,
    _fit_range,
    _row_slopes,
    _slope_fit,
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

_GLOBAL = (gp.AdaptiveEpisodes, gp.DPSE, gp.DPUCB, gp.KLUCB)

CHUNK = 1 << 15  # steps per compiled call: two draw buffers of 256 KiB stay in cache


def log_checkpoints(horizon: int, points: int = 121) -> np.ndarray:
    """About ``points`` log-spaced pull counts from 1 to ``horizon`` (both included), unique and sorted."""
    horizon = check_int("horizon", horizon, minimum=1, maximum=MAX_HORIZON)
    points = check_int("points", points, minimum=2, maximum=MAX_POINTS)
    cp = np.unique(np.rint(np.geomspace(1, horizon, points)).astype(np.int64))
    cp[-1] = horizon
    return cp


@dataclass
class SimulationResult:
    """What :func:`simulate` returns.

    ``checkpoints`` (C,), ``counts`` (runs, C, arms): N_a at each checkpoint, ``gaps`` (arms,).
    ``regret`` (runs, C) is the pseudo-regret sum_a N_a(t) Delta_a; ``pulls`` (runs, arms) the counts at
    the horizon. ``releases`` (runs,), for the global-DP policies, counts the private statistics each run
    computed (Azize and Basu, Table 1, "# Private Means"); None otherwise.
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
    def regret(self) -> np.ndarray:
        return self.counts @ self.gaps

    @property
    def pulls(self) -> np.ndarray:
        return self.counts[:, -1, :]

    def mean_regret(self) -> np.ndarray:
        """Mean pseudo-regret over runs at each checkpoint."""
        return self.regret.mean(axis=0)

    def regret_band(self, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Normal-approximation confidence band for the mean regret at each checkpoint."""
        m, half = mean_and_half_width(self.regret, level)
        return m - half, m + half

    def final_regret(self) -> np.ndarray:
        """Pseudo-regret of each run at the horizon."""
        return self.regret[:, -1]

    def at(self, t: int) -> np.ndarray:
        """Regret of each run at checkpoint ``t`` (which must be one of ``checkpoints``)."""
        idx = np.flatnonzero(self.checkpoints == t)
        if idx.size == 0:
            raise ValueError(f"t={t} is not a checkpoint of this result")
        return self.regret[:, idx[0]]

    def until(self, t: int) -> "SimulationResult":
        """The same runs cut at pull ``t`` (a checkpoint): a result of horizon ``t``.

        Run r's reward and noise streams do not depend on the horizon, so a run of horizon T cut at t
        is exactly the run of horizon t with the same seed (tests/test_figures.py checks it): one long
        simulation serves both a T = 10^6 panel and a T = 10^7 ratio curve.
        """
        t = check_int("t", t, minimum=1)
        idx = np.flatnonzero(self.checkpoints == t)
        if idx.size == 0:
            raise ValueError(f"t must be one of this result's checkpoints (1..{self.horizon}), got {t}")
        k = idx[0] + 1
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

    @property
    def label(self) -> str:
        return self.policy if not np.isfinite(self.epsilon) else f"{self.policy} (ε = {self.epsilon:g})"


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


def _check_compatible(policy, instance: Instance, levels) -> None:
    if isinstance(policy, HeterogeneousPolicy):
        if not isinstance(levels, PrivacyLevels):
            raise ValueError(
                f"policy {policy.name!r} needs privacy_levels=make_privacy_levels(...), the users' "
                f"distribution of eps_t; got {levels!r}"
            )
        if levels.p_at_least(policy.epsilon_min) <= 0:
            raise ValueError(
                f"no user of {levels.name!r} ever reaches epsilon_min={policy.epsilon_min:g}: every "
                f"response would be discarded and the agent could never learn; lower epsilon_min"
            )
    elif levels is not None:
        raise ValueError(f"privacy_levels is only for the heterogeneous HeLDP-UCB-* policies, not {policy.name!r}")
    elif not isinstance(policy, (IndexPolicy, *_GLOBAL)):
        raise TypeError(f"policy must come from make_policy(), got {policy!r}")
    if not isinstance(instance, Instance):
        raise TypeError(f"instance must come from make_instance(), got {instance!r}")
    if policy.needs_bounded_rewards and not instance.bounded:
        if isinstance(policy, _GLOBAL):
            raise ValueError(
                f"policy {policy.name!r} needs rewards in [0, 1] (its privacy or its index rests on "
                f"it) but instance {instance.name!r} is unbounded"
            )
        raise ValueError(
            f"policy {policy.name!r} needs rewards in [0, 1] but instance {instance.name!r} is unbounded; "
            f"use its Sigmoid version {policy.name}S"
        )


def _label_of(policy) -> float:
    return policy.epsilon_min if isinstance(policy, HeterogeneousPolicy) else policy.epsilon


def run_one(
    policy: IndexPolicy,
    instance: Instance,
    horizon: int,
    seed_seq: np.random.SeedSequence,
    checkpoints: np.ndarray,
    cancel: CancelFlag | None = None,
) -> np.ndarray:
    """One run with the compiled kernel; returns the counts at the checkpoints, shape (C, arms). ``cancel``
    is checked before each chunk of ``CHUNK`` pulls."""
    reward_rng, noise_rng = run_streams(seed_seq)
    n = instance.n_arms
    counts = np.zeros(n, dtype=np.int64)
    sums = np.zeros(n)
    means = np.zeros(n)
    widths = np.zeros(n)
    counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
    code, sig, scale, exp_eps = policy.kernel_args()
    t = ci = 0
    while t < horizon:
        if cancel is not None:
            cancel.check()
        m = min(CHUNK, horizon - t)
        rd = instance.draw_stream(reward_rng, m)
        nd = policy.draw_noise(noise_rng, m)
        t, ci = index_policy_chunk(
            t,
            horizon,
            instance.families,
            instance.params,
            rd,
            nd,
            code,
            sig,
            scale,
            exp_eps,
            policy.index_constant,
            policy.forced_exploration,
            counts,
            sums,
            means,
            widths,
            checkpoints,
            ci,
            counts_out,
        )
    return counts_out


def run_one_heterogeneous(
    policy: HeterogeneousPolicy,
    instance: Instance,
    levels: PrivacyLevels,
    horizon: int,
    seed_seq: np.random.SeedSequence,
    checkpoints: np.ndarray,
    cancel: CancelFlag | None = None,
) -> np.ndarray:
    """One run of a HeLDP policy; users' levels come from a third stream. Returns counts (C, arms)."""
    reward_rng, noise_rng, level_rng = run_streams(seed_seq, 3)
    n = instance.n_arms
    counts = np.zeros(n, dtype=np.int64)
    kept = np.zeros(n, dtype=np.int64)
    sums, acc, means, widths = (np.zeros(n) for _ in range(4))
    counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
    t = ci = 0
    while t < horizon:
        if cancel is not None:
            cancel.check()
        m = min(CHUNK, horizon - t)
        rd = instance.draw_stream(reward_rng, m)
        nd = policy.draw_noise(noise_rng, m)
        ed = levels.sample(level_rng, m)
        t, ci = heterogeneous_chunk(
            t,
            horizon,
            instance.families,
            instance.params,
            rd,
            nd,
            ed,
            policy.mechanism_code,
            policy.use_sigmoid,
            policy.epsilon_min,
            policy.forced_exploration,
            counts,
            kept,
            sums,
            acc,
            means,
            widths,
            checkpoints,
            ci,
            counts_out,
        )
    return counts_out


@functools.lru_cache(maxsize=None)
def _run_takes_cancel(cls) -> bool:
    """Whether ``cls.run`` takes ``cancel`` (a subclass written before it, such as the audits' deliberately
    broken policies, may not: it then runs to its end, as before)."""
    return "cancel" in inspect.signature(cls.run).parameters


def run_one_global(
    policy,
    instance: Instance,
    horizon: int,
    seed_seq: np.random.SeedSequence,
    checkpoints: np.ndarray,
    *,
    sampler: str = "exact",
    cancel: CancelFlag | None = None,
) -> tuple[np.ndarray, int]:
    """One run of an ε-global DP policy (or KL-UCB); returns (counts at the checkpoints, private releases).

    Episodic policies (AdaP-*, DP-SE) advance a whole episode at a time (see
    :mod:`ldpcode.global_policies`; ``cancel`` is checked between episodes); DP-UCB and KL-UCB step with
    compiled kernels (``cancel`` checked between chunks).
    """
    reward_rng, noise_rng = run_streams(seed_seq)
    if policy.episodic:
        kw = {"cancel": cancel} if cancel is not None and _run_takes_cancel(type(policy)) else {}
        blocks = policy.run(instance, horizon, reward_rng, noise_rng, sampler=sampler, **kw)
        return blocks.counts_at(checkpoints), blocks.releases
    n = instance.n_arms
    counts = np.zeros(n, dtype=np.int64)
    sums = np.zeros(n)
    counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
    t = ci = 0
    if isinstance(policy, gp.DPUCB):
        depth, scale, bound = gp.dp_ucb_noise_bound(horizon, n, policy.epsilon, policy.gamma)
        nodes = np.zeros((n, depth))
        means, widths = np.zeros(n), np.zeros(n)
        while t < horizon:
            if cancel is not None:
                cancel.check()
            m = min(CHUNK, horizon - t)
            rd = instance.draw_stream(reward_rng, m)
            nd = mech.draw_noise(mech.LAPLACE, noise_rng, m)
            t, ci = gp.dp_ucb_chunk(
                t,
                horizon,
                instance.families,
                instance.params,
                rd,
                nd,
                scale,
                bound,
                counts,
                sums,
                nodes,
                means,
                widths,
                checkpoints,
                ci,
                counts_out,
            )
        return counts_out, horizon  # one new private sum per pull
    while t < horizon:
        if cancel is not None:
            cancel.check()
        rd = instance.draw_stream(reward_rng, min(CHUNK, horizon - t))
        t, ci = gp.klucb_chunk(
            t, horizon, instance.families, instance.params, rd, counts, sums, checkpoints, ci, counts_out
        )
    return counts_out, 0


def _episodes_bound(n_arms: int, horizon: int) -> int:
    """At most K(floor(log2 T) + 1) + 1 episodes a run: the first block, then each arm's count doubles with
    each of its episodes (Algorithm 1, Line 7); DP-SE has far fewer epochs."""
    return n_arms * (int(horizon).bit_length()) + 1


def simulate_cost(
    policy, instance: Instance, horizon: int, runs: int, n_checkpoints: int, workers: int = 1
) -> tuple[float, float, str]:
    """Estimated (core-seconds, bytes, description) of ``simulate(policy, instance, horizon, runs)`` with
    ``n_checkpoints`` checkpoints on ``workers`` threads, from the throughputs of the module docstring.

    Memory: the counts (runs, C, K) int64, twice (each run's array and the stacked result), 4 KiB a run of
    bookkeeping (its seed sequence, future and array headers), and per thread the draw buffers (three of
    ``CHUNK`` doubles) and, for the episodic engine, its list of episodes (~400 bytes each)."""
    K = instance.n_arms
    threads = max(1, min(workers, runs))
    if isinstance(policy, HeterogeneousPolicy):
        name, ns = "pulls of a heterogeneous policy", 100 + 3 * K
    elif isinstance(policy, gp.DPUCB):
        name, ns = "pulls of DP-UCB", 250 + 3 * K
    elif isinstance(policy, gp.KLUCB):
        name, ns = "pulls of KL-UCB", 4000 + 45 * K
    elif isinstance(policy, _GLOBAL) and policy.episodic:
        episodes = _episodes_bound(K, horizon)
        exact = all(a.family in (ins.BERNOULLI, ins.GAUSSIAN) for a in instance.arms)
        per_run = episodes * (20 + 4 * K) * 1e-6 + (0.0 if exact else 20e-9 * horizon)
        seconds = runs * per_run
        nbytes = (
            runs * (2 * n_checkpoints * K * 8 + 4096)
            + threads * episodes * 400
            + (0 if exact else threads * 3 * 2**20 * 8)
        )
        work = (
            f"runs={runs} x horizon={horizon}: at most {episodes} episodes a run of {policy.name} on {K} arms "
            f"at {20 + 4 * K} µs an episode"
            + ("" if exact else ", and every pull's reward drawn at 20 ns (arms neither Bernoulli nor Gaussian)")
        )
        return seconds, nbytes, work
    else:
        name, ns = "pulls of an index policy", 60 + 3 * K
    pulls = runs * horizon
    seconds = pulls * ns * 1e-9
    nbytes = runs * (2 * n_checkpoints * K * 8 + 4096) + threads * (3 * CHUNK * 8 + 64 * K * 8)
    work = f"runs={runs} x horizon={horizon} = {pulls:.3g} {name} on {K} arms at {ns} ns a pull"
    return seconds, nbytes, work


def simulate(
    policy: IndexPolicy,
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
    Ctrl-C stops the call within a fraction of a second (module docstring).
    """
    _check_compatible(policy, instance, privacy_levels)
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

    is_global = isinstance(policy, _GLOBAL)

    def task(r, cancel):
        if privacy_levels is not None:
            return run_one_heterogeneous(policy, instance, privacy_levels, horizon, children[r], checkpoints, cancel)
        if is_global:
            return run_one_global(policy, instance, horizon, children[r], checkpoints, cancel=cancel)
        return run_one(policy, instance, horizon, children[r], checkpoints, cancel)

    out = run_pool(task, runs, workers, progress=f"{policy!r} T={horizon:,}" if progress else None)
    releases = None
    if is_global:
        releases = np.array([o[1] for o in out], dtype=np.int64)
        out = [o[0] for o in out]
    return SimulationResult(
        policy.name,
        _label_of(policy),
        instance.name,
        horizon,
        runs,
        seed,
        checkpoints,
        np.stack(out),
        instance.gaps,
        releases,
    )
