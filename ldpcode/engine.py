"""The policy protocol of :func:`ldpcode.simulate.simulate`: what a bandit policy tells the engine.

The engine does not know the kinds of policies. It asks the policy four things, and every policy that
:func:`ldpcode.make_policy` builds answers them (the index policies of Ren et al., the heterogeneous ``HeLDP-UCB-*``,
the ε-global DP policies of Azize and Basu and KL-UCB):

* ``label``: the privacy level a result is labelled with (ε; ε_min for ``HeLDP-UCB-*``; ∞ when not private);
* ``check_environment(instance, privacy_levels)``: refuse, with a ValueError naming the reason, an instance or
  a distribution of the users' levels the policy cannot run on;
* ``cost(instance, horizon, runs, n_checkpoints, workers)``: the estimated (core-seconds, bytes, description)
  of a call, from the per-core throughputs of :mod:`ldpcode.limits`, checked before any work;
* ``run_one(instance, horizon, seed_seq, checkpoints, *, privacy_levels=None, cancel=None)``: one run, from
  the run's seed sequence (:func:`ldpcode.rng.run_streams`), returning (pull counts at the checkpoints, shape
  (C, K); the number of private releases, or None for a policy that does not count them). ``cancel`` (a
  :class:`ldpcode.limits.CancelFlag`) is checked between chunks of :data:`ldpcode.limits.CHUNK` pulls.

A new policy is one class with these four and one line in the registry of :func:`ldpcode.make_policy`. The
helpers below are the pieces the policies share.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from .limits import CHUNK


@runtime_checkable
class BanditPolicy(Protocol):
    """What :func:`ldpcode.simulate.simulate` needs of a policy (module docstring)."""

    name: str

    @property
    def label(self) -> float: ...

    def check_environment(self, instance, privacy_levels) -> None: ...

    def cost(self, instance, horizon: int, runs: int, n_checkpoints: int, workers: int) -> tuple[float, float, str]: ...

    def run_one(
        self, instance, horizon: int, seed_seq: np.random.SeedSequence, checkpoints, *, privacy_levels=None, cancel=None
    ) -> tuple[np.ndarray, int | None]: ...


def run_in_chunks(horizon: int, cancel, step, chunk: int | None = None) -> None:
    """The chunk loop of every per-round engine (the policies of :func:`ldpcode.simulate.simulate` and the
    drivers of ``bco``, ``contextual`` and ``reductions``): from t = 0 to ``horizon`` in chunks of at most
    ``chunk`` rounds (default :data:`CHUNK`; an engine whose draws are laid out by chunk, like the contextual
    one, passes its own), checking ``cancel`` (a :class:`ldpcode.limits.CancelFlag`, or None) before each.
    ``step(t, ci, m)`` draws the chunk's randomness, runs the compiled kernel on rounds t + 1 .. t + m and
    returns the new (t, ci), ci being the index of the next checkpoint to record (a kernel that keeps it in
    its own state returns the ci it was given)."""
    size = CHUNK if chunk is None else chunk
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
    ``CHUNK`` doubles) and the per-arm state."""
    K = n_arms
    threads = max(1, min(workers, runs))
    pulls = runs * horizon
    seconds = pulls * ns * 1e-9
    nbytes = runs * (2 * n_checkpoints * K * 8 + 4096) + threads * (3 * CHUNK * 8 + 64 * K * 8)
    work = f"runs={runs} x horizon={horizon} = {pulls:.3g} {what} on {K} arms at {ns} ns a pull"
    return seconds, nbytes, work
