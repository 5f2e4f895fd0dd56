"""The simulation engine: R independent runs of a policy on an instance for T steps.

Run ``r`` of ``simulate(..., seed=s)`` draws from ``SeedSequence(s).spawn(runs)[r]``, split into two
streams: one for the users' rewards and one for the curator's noise. So run ``r`` is the same whatever
the number of runs or of worker threads, and two policies simulated with the same seed see the same
reward draws (common random numbers, which make their regret ratio less noisy).

What is kept is independent of the horizon: the pull counts N_a(t) at log-spaced checkpoints t,
from which the pseudo-regret sum_a N_a(t) Delta_a follows exactly. Checkpoints must end at the horizon
(:func:`resolve_checkpoints`, shared by every engine): the last one is where ``pulls`` and
``final_regret`` are read.

**One engine, any policy.** :func:`simulate` is :func:`ldpcode.engine.run`: it knows no kind of policy. It
validates its arguments, asks the policy to check the environment (``check_environment``) and to estimate the
call's cost (``cost``), runs ``policy.run_one`` for each run on a pool of threads and lets the policy build its
result (``result``). The protocol is :class:`ldpcode.engine.BanditPolicy`; the index policies, ``HeLDP-UCB-*``,
the ε-global DP policies, KL-UCB and ``OnePoint-UCB`` implement it next to their kernels and return a
:class:`SimulationResult` (:class:`ldpcode.engine.ArmedPolicy`); the convex learners of
:func:`ldpcode.bco.make_learner` and the contextual ones of :func:`ldpcode.contextual.make_learner` implement it
too, on their own environments, and return their own :class:`ldpcode.results.RegretCurves`.

The machinery lives in sibling modules, and is re-exported here so that ``ldpcode.simulate.X`` keeps
working: :mod:`ldpcode.engine` (:func:`log_checkpoints`, :func:`resolve_checkpoints`), :mod:`ldpcode.results`
(:class:`SimulationResult`), :mod:`ldpcode.limits` (:class:`Limits`, :func:`check_limits`, the
``MAX_*`` ceilings, :func:`run_pool`, :class:`CancelFlag`, :func:`default_workers`; its docstring holds the
"Limits" and "Interrupts" design and the per-core throughputs behind :func:`simulate_cost`),
:mod:`ldpcode.rng` (:func:`run_streams`) and :mod:`ldpcode.stats` (confidence intervals, fits and bootstraps
over runs: :func:`mean_and_half_width`, :func:`ratio_of_means_se`, :func:`linear_fit`, :func:`loglog_slope`, ...).
Ctrl-C stops a simulation within a fraction of a second (:mod:`ldpcode.limits`, "Interrupts").
"""

from __future__ import annotations

from . import engine as engine_module
from ._validate import check_int
from .policies.engines import on_engine
from .instances import Instance, PrivacyLevels
from .engine import BanditPolicy, check_policy_types, log_checkpoints, resolve_checkpoints  # noqa: F401
from .results import SimulationResult  # noqa: F401

# Re-exported: the public names that moved out of this module stay importable from it (the engine, which
# runs the pool, looks up run_pool in ldpcode.engine: patch it there).
from .limits import (  # noqa: F401
    PULLS_PER_CALL,
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
from .exponents import (  # noqa: F401
    SlopeFit,
    log_growth,
    loglog_slope,
    ratio_exponent,
)
from .stats import (  # noqa: F401
    HingeBootstrap,
    HingeFit,
    LinearFit,
    bootstrap_indices,
    bootstrap_se,
    hinge_bootstrap,
    hinge_fit,
    linear_fit,
    mean_and_half_width,
    mean_se,
    ratio_of_means_se,
)


def simulate_cost(
    policy, instance: Instance, horizon: int, runs: int, n_checkpoints: int, workers: int = 1
) -> tuple[float, float, str]:
    """Estimated (core-seconds, bytes, description) of ``simulate(policy, instance, horizon, runs)`` with
    ``n_checkpoints`` checkpoints on ``workers`` threads: the policy's own estimate (``policy.cost``, from the
    per-core throughputs of :mod:`ldpcode.limits`; the memory model is :func:`ldpcode.engine.pulls_cost`).

    The arguments are checked first, with :func:`ldpcode.engine.prepare`'s checks of their types and ranges:
    ``policy`` a :class:`~ldpcode.engine.BanditPolicy` and ``instance`` its environment (TypeError), ``horizon`` an integer in
    [``policy.min_horizon(instance)``, :data:`MAX_HORIZON`], ``runs`` in [1, :data:`MAX_RUNS`], ``n_checkpoints`` in
    [1, :data:`MAX_HORIZON`] and ``workers`` in [1, :data:`MAX_WORKERS`] (a negative horizon and runs gave a positive
    cost, and a NaN horizon a NaN cost that passed the limits check). Not ``policy.check_environment`` (whether the
    policy can run on the instance, which for a heterogeneous policy needs the users' levels): :func:`simulate` checks
    that before any work."""
    check_policy_types(policy, instance, "simulate_cost")
    horizon = check_int("horizon", horizon, minimum=policy.min_horizon(instance), maximum=MAX_HORIZON)
    runs = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
    n_checkpoints = check_int("n_checkpoints", n_checkpoints, minimum=1, maximum=MAX_HORIZON)
    workers = check_int("workers", workers, minimum=1, maximum=MAX_WORKERS)
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
    engine: str = "per-pull",
) -> SimulationResult:
    """Simulate ``runs`` independent runs of ``policy`` on ``instance`` for ``horizon`` pulls.

    ``checkpoints`` defaults to :func:`log_checkpoints` (given, they must end at ``horizon``); ``workers``
    threads share the runs (the result does not depend on it; default :func:`default_workers`);
    ``progress`` shows a bar over runs (default: only on a terminal). ``privacy_levels`` (heterogeneous
    policies only) is the users' distribution of eps_t. ``limits`` (a :class:`Limits`, default
    ``Limits()``) caps the estimated time and memory (:func:`simulate_cost`), checked before any work.
    Ctrl-C stops the call within a fraction of a second (:mod:`ldpcode.limits`, "Interrupts").

    ``engine`` is one of :data:`~ldpcode.policies.engines.ENGINES` (:mod:`ldpcode.policies.engines`):
    ``"per-pull"`` (the default, and the reference) steps one pull at a time, with the two streams above;
    ``"event"`` is the exact event-driven engine (UCB1, LDP-UCB-B, KL-UCB and HeLDP-UCB-B with discrete levels,
    on Bernoulli arms; a ValueError elsewhere, before any work), which skips a block of pulls of the leader
    whenever its lead is certified whatever their responses and draws the block's response sum at once: the
    same law of the counts at every checkpoint, from another random stream. Against the per-pull kernels of
    28 November 2026 it is 2.2 (HeLDP-UCB-B), 2.9 (UCB1), 3.2 (LDP-UCB-B) and 165 (KL-UCB) times as fast at
    T = 10^7, 5.6-11 times at 10^8 (KL-UCB 1,000), and no faster at 10^6 (``benchmarks/README.md``);
    ``"auto"`` takes the event engine where it applies.

    Why the default stays per-pull: the book compares policies over paired runs, and a comparison run on the
    per-pull engine with one seed shares its reward draws (common random numbers). A run of the event engine
    shares nothing with any other, so a ratio or difference against it loses the pairing: slightly (the
    correlation of UCB1's and LDP-UCB-B's regrets at T = 10^6 on ``ren2020-bernoulli``, 50 runs, is 0.13 at
    ε = 2 and 0.26 at ε = 0.2) or entirely (two agents that make the same choices up to tie-breaking, whose ratio
    is 1 within a tiny paired standard error). Use ``"event"`` or ``"auto"`` for runs that are compared with
    nothing, or only unpaired.
    """
    policy = on_engine(policy, instance, engine, privacy_levels)
    return engine_module.run(
        policy,
        instance,
        horizon,
        runs,
        seed,
        checkpoints=checkpoints,
        workers=workers,
        progress=progress,
        privacy_levels=privacy_levels,
        limits=limits,
    )
