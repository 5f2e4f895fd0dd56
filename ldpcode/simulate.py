"""The simulation engine: R independent runs of a policy on an instance for T steps.

Run ``r`` of ``simulate(..., seed=s)`` draws from ``SeedSequence(s).spawn(runs)[r]``, split into two
streams: one for the users' rewards and one for the curator's noise. So run ``r`` is the same whatever
the number of runs or of worker threads, and two policies simulated with the same seed see the same
reward draws (common random numbers, which make their regret ratio less noisy).

What is kept is independent of the horizon: the pull counts N_a(t) at log-spaced checkpoints t,
from which the pseudo-regret sum_a N_a(t) Delta_a follows exactly.
"""
from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ._validate import check_int
from .instances import Instance
from .policies import IndexPolicy, index_policy_chunk

CHUNK = 1 << 15  # steps per compiled call: two draw buffers of 256 KiB stay in cache


def log_checkpoints(horizon: int, points: int = 121) -> np.ndarray:
    """About ``points`` log-spaced pull counts from 1 to ``horizon`` (both included), unique and sorted."""
    horizon = check_int("horizon", horizon, minimum=1)
    points = check_int("points", points, minimum=2)
    cp = np.unique(np.rint(np.geomspace(1, horizon, points)).astype(np.int64))
    cp[-1] = horizon
    return cp


@dataclass
class SimulationResult:
    """What :func:`simulate` returns.

    ``checkpoints`` (C,), ``counts`` (runs, C, arms): N_a at each checkpoint, ``gaps`` (arms,).
    ``regret`` (runs, C) is the pseudo-regret sum_a N_a(t) Delta_a; ``pulls`` (runs, arms) the counts at
    the horizon.
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
        from scipy.stats import norm

        reg = self.regret
        half = norm.ppf(0.5 + level / 2) * reg.std(axis=0, ddof=1) / np.sqrt(self.runs) if self.runs > 1 else 0.0
        m = reg.mean(axis=0)
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

    @property
    def label(self) -> str:
        return self.policy if not np.isfinite(self.epsilon) else f"{self.policy} (ε = {self.epsilon:g})"


def _check_compatible(policy: IndexPolicy, instance: Instance) -> None:
    if not isinstance(policy, IndexPolicy):
        raise TypeError(f"policy must come from make_policy(), got {policy!r}")
    if not isinstance(instance, Instance):
        raise TypeError(f"instance must come from make_instance(), got {instance!r}")
    if policy.needs_bounded_rewards and not instance.bounded:
        raise ValueError(
            f"policy {policy.name!r} needs rewards in [0, 1] but instance {instance.name!r} is unbounded; "
            f"use its Sigmoid version {policy.name}S")


def run_one(policy: IndexPolicy, instance: Instance, horizon: int, seed_seq: np.random.SeedSequence,
            checkpoints: np.ndarray) -> np.ndarray:
    """One run with the compiled kernel; returns the counts at the checkpoints, shape (C, arms)."""
    reward_rng, noise_rng = (np.random.Generator(np.random.PCG64(s)) for s in seed_seq.spawn(2))
    n = instance.n_arms
    counts = np.zeros(n, dtype=np.int64)
    sums = np.zeros(n)
    means = np.zeros(n)
    widths = np.zeros(n)
    counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
    code, sig, scale, exp_eps = policy.kernel_args()
    t = ci = 0
    while t < horizon:
        m = min(CHUNK, horizon - t)
        rd = instance.draw_stream(reward_rng, m)
        nd = policy.draw_noise(noise_rng, m)
        t, ci = index_policy_chunk(t, horizon, instance.families, instance.params, rd, nd, code, sig,
                                   scale, exp_eps, policy.index_constant, policy.forced_exploration,
                                   counts, sums, means, widths, checkpoints, ci, counts_out)
    return counts_out


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, int(os.environ.get("LDPCODE_WORKERS", os.cpu_count() or 1))))


def simulate(policy: IndexPolicy, instance: Instance, horizon: int, runs: int = 50, seed: int = 0, *,
             checkpoints=None, workers: int | None = None, progress: bool | None = None) -> SimulationResult:
    """Simulate ``runs`` independent runs of ``policy`` on ``instance`` for ``horizon`` pulls.

    ``checkpoints`` defaults to :func:`log_checkpoints`; ``workers`` threads share the runs (the
    result does not depend on it); ``progress`` shows a bar over runs (default: only on a terminal).
    """
    _check_compatible(policy, instance)
    horizon = check_int("horizon", horizon, minimum=instance.n_arms)
    runs = check_int("runs", runs, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    if checkpoints is None:
        checkpoints = log_checkpoints(horizon)
    else:
        checkpoints = np.asarray(checkpoints, dtype=np.int64)
        if checkpoints.ndim != 1 or checkpoints.size == 0 or (np.diff(checkpoints) <= 0).any() \
                or checkpoints[0] < 1 or checkpoints[-1] > horizon:
            raise ValueError("checkpoints must be a strictly increasing sequence of pull counts in [1, horizon]")
    workers = default_workers() if workers is None else check_int("workers", workers, minimum=1)
    children = np.random.SeedSequence(seed).spawn(runs)
    if progress is None:
        progress = sys.stderr.isatty() and horizon * runs >= 10**8

    def task(r):
        return run_one(policy, instance, horizon, children[r], checkpoints)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        it = pool.map(task, range(runs))
        if progress:
            from tqdm.auto import tqdm

            it = tqdm(it, total=runs, desc=f"{policy!r} T={horizon:,}", leave=False)
        counts = np.stack(list(it))
    return SimulationResult(policy.name, policy.epsilon, instance.name, horizon, runs, seed, checkpoints,
                            counts, instance.gaps)
