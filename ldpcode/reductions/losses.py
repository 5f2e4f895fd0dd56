r"""The environments of Algorithm 1's MAB instance (Zheng et al. 2020, Appendix B).

:class:`LossSchedule`: oblivious mean-loss vectors, piecewise constant in time, with Bernoulli losses on
them or the means themselves. :func:`bernoulli_losses` is the stochastic MAB; :func:`ucb_adversary` an
oblivious adversarial 0/1 sequence fixed in advance by simulating the deterministic non-private UCB1
(:class:`~ldpcode.reductions.learners.SubGaussianUCB`) and giving loss 1 to the arm it would play, built in
chunks of ``ROUNDS_PER_CALL`` rounds by :func:`_ucb_adversary_table` (looked up here: patch
``ldpcode.reductions.losses.ROUNDS_PER_CALL`` / ``._ucb_adversary_table``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .._validate import check_int, check_probability_vector
from ..limits import MAX_HORIZON, Limits, check_limits
from .kernels import ROUNDS_PER_CALL, _ucb_select
from .learners import SubGaussianUCB


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
    """The (horizon, k) 0/1 table, built in chunks of ``ROUNDS_PER_CALL`` rounds (a Ctrl-C is seen between them)."""
    table = np.zeros((horizon, k))
    counts = np.zeros(k, dtype=np.int64)
    sums = np.zeros(k)
    for t0 in range(0, horizon, ROUNDS_PER_CALL):
        _ucb_adversary_rows(t0, min(horizon, t0 + ROUNDS_PER_CALL), width_c, table, counts, sums)
    return table


def ucb_adversary(n_arms: int, horizon: int, *, limits: Limits | None = None) -> LossSchedule:
    r"""An oblivious adversarial sequence that defeats non-private UCB1: losses are 0/1 and fixed in
    advance by simulating :class:`SubGaussianUCB` (v = 0, deterministic) and giving loss 1 to the arm
    it would play and 0 to all others, round by round. UCB1 then suffers loss 1 every round while
    the best fixed arm suffers at most T/K, so its regret is at least (1 - 1/K) T: linear. The table
    is legitimate for an oblivious adversary because UCB1 is deterministic; a randomised learner
    (Tsallis-INF, or UCB fed noisy losses) does not follow the simulated path. Losses are used as they
    are (``bernoulli=False``). The table takes (K + 1) 8 T bytes: ``limits`` (:class:`ldpcode.limits.Limits`)
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
