r"""DP-SE, a baseline of Table 1 of Azize and Basu (2022): private successive elimination (Sajed and
Sheffet 2019), episodic like Algorithm 1 (its epochs are :class:`~ldpcode.global_policies.episodes.Blocks`
of the active arms). :func:`dp_se_epoch_length` is the epoch length R_e (our reading of the baseline paper,
whose text the book does not have); :class:`DPSE` the policy, with β = 1/T by default (Section 5).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import mechanisms as mech
from .._validate import check_epsilon, check_int, check_probability
from ..mechanisms.gaussian import _log_ratio
from .episodes import Blocks, _Episodic, _epoch_sums_kernel


def dp_se_epoch_length(n_active: int, epoch: int, epsilon: float, beta: float) -> int:
    r"""Pulls per active arm in epoch e of DP-SE: with :math:`\Delta_e = 2^{-e}`,

    .. math:: R_e = \Big\lceil \max\Big(\frac{32\log(8|S|e^2/\beta)}{\Delta_e^2},
              \frac{8\log(4|S|e^2/\beta)}{\epsilon\Delta_e}\Big)\Big\rceil .

    Our reading of Sajed and Sheffet (2019), whose text the book does not have: the first term makes the
    Hoeffding deviation of each epoch mean at most :math:`\Delta_e/8` with probability
    :math:`1 - \beta/(4|S|e^2)`, the second the Laplace noise :math:`\mathrm{Lap}(1/(\epsilon R_e))` at most
    :math:`\Delta_e/8` with the same probability, so every private mean is within :math:`\Delta_e/4` of its
    arm's mean on an event of probability at least 1 - β.
    """
    n_active = check_int("n_active", n_active, minimum=1)
    epoch = check_int("epoch", epoch, minimum=1)
    epsilon = check_epsilon(epsilon)
    beta = check_probability("beta", beta)
    d = 2.0 ** (-epoch)
    r = max(
        # log(a/β), finite for every β > 0 (a/β overflows below β ~ 1e-305; there it is log a - log β)
        32.0 * _log_ratio(8.0 * n_active * epoch**2, beta) / d**2,
        8.0 * _log_ratio(4.0 * n_active * epoch**2, beta) / (epsilon * d),
    )
    return int(math.ceil(r))


@dataclass(frozen=True)
class DPSE(_Episodic):
    r"""DP-SE (Sajed and Sheffet 2019): successive elimination in epochs e = 1, 2, ... Each epoch pulls every
    active arm :func:`dp_se_epoch_length` times (round-robin), releases each arm's private epoch mean
    :math:`\bar\mu_a + \mathrm{Lap}(1/(\epsilon R_e))` from that epoch's rewards only, and eliminates every
    arm whose private mean is more than :math:`\Delta_e = 2^{-e}` below the largest. The last arm is then
    played to the horizon. β defaults to 1/T (Azize and Basu, Section 5), so the policy needs T."""

    epsilon: float
    beta: float | None = None
    name: str = "DP-SE"
    episodic = True
    needs_bounded_rewards = True
    anytime = False
    forgetful = True
    alpha = math.nan

    def __post_init__(self):
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))
        if self.beta is not None:  # a failure probability; None: 1/T
            object.__setattr__(self, "beta", check_probability("beta", self.beta))
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a string, got {self.name!r} of type {type(self.name).__name__}")

    def run(
        self, instance, horizon: int, reward_rng, noise_rng, *, sampler: str = "exact", trace: bool = False, cancel=None
    ) -> Blocks:
        K = instance.n_arms
        beta = 1.0 / horizon if self.beta is None else self.beta
        out = Blocks(K)
        active = list(range(K))
        t, e = 0, 1
        while t < horizon:
            if cancel is not None:
                cancel.check()
            if len(active) == 1:
                out.add(t, active, horizon - t)
                break
            r = dp_se_epoch_length(len(active), e, self.epsilon, beta)
            n = min(r * len(active), horizon - t)
            out.add(t, active, n)
            t += n
            if t >= horizon:
                break
            sums = _epoch_sums_kernel(instance, active, r, reward_rng, sampler, cancel)
            mu = np.array([mech.laplace_mean(x, r, self.epsilon, noise_rng.laplace()) for x in sums])
            out.releases += len(active)
            if trace:
                full = np.full(K, np.nan)
                full[active] = mu
                out.private_means.append(full)
            best = mu.max()
            active = [a for a, v in zip(active, mu) if best - v <= 2.0 ** (-e)]
            e += 1
        return out

    def __repr__(self) -> str:
        b = "1/T" if self.beta is None else f"{self.beta:g}"
        return f"Policy('DP-SE', epsilon={self.epsilon:g}, beta={b})"
