r"""Algorithm 1 of Zheng et al. (2020) around UCB1 as a policy of the main engine, :func:`ldpcode.simulate`.

:class:`OnePointUCB` (``make_policy("OnePoint-UCB", epsilon=..., delta=...)``) runs the one-point reduction
(Zheng et al. 2020, Section 3.1, Algorithm 1, *One-Point Bandits Learning-LDP*) with the learner
:class:`~ldpcode.reductions.SubGaussianUCB` on an ordinary stochastic bandit instance
(:func:`ldpcode.make_instance`) whose rewards lie in [0, 1]. Each user t suffers the loss
:math:`f_t(x_t) = 1 - r_t` of the arm it is given and releases :math:`f_t(x_t) + Z_t`,
:math:`Z_t\sim N(0,\sigma^2)`, :math:`\sigma = 2B\sqrt{2\ln(1.25/\delta)}/\epsilon` with B = 1 (line 2; the
mechanism of :func:`~ldpcode.reductions.algorithm1_mechanism`); the learner sees only the releases. By
Theorem 2 every user's release is (ε, δ)-LDP (for ε < 1 by Dwork and Roth's Theorem A.1; for ε >= 1 the
paper uses the same σ, see :class:`ldpcode.mechanisms.GaussianMechanism`), and by Theorem 3 the regret is
that of UCB1 on losses of sub-Gaussian scale :math:`\sqrt{1/4 + \sigma^2}`. It is the same agent as
``reductions.make_agent("UCB", "gaussian", epsilon=ε, delta=δ)`` (loss bound 1) run by
:func:`~ldpcode.reductions.simulate_mab`, but through the engine every stochastic-bandit policy shares: its
result is a :class:`ldpcode.simulate.SimulationResult` (pull counts at the checkpoints, pseudo-regret from the
instance's gaps), so it can be swept with the other privacy models.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import check_epsilon, check_probability
from ..engine import ArmedPolicy, pulls_cost, refuse_privacy_levels, run_in_chunks
from ..instances import Family
from ..mechanisms import GaussianMechanism
from ..rng import run_streams
from .kernels import one_point_ucb_chunk
from .learners import SubGaussianUCB
from .privacy import algorithm1_mechanism, noise_variance

ONE_POINT_NS = 45
ONE_POINT_NS_PER_ARM = 14
"""A pull of :class:`OnePointUCB` costs ``ONE_POINT_NS + ONE_POINT_NS_PER_ARM * K`` ns (measured: see its
docstring): the UCB index takes a log and a square root per arm and pull."""


@dataclass(frozen=True)
class OnePointUCB(ArmedPolicy):
    r"""Algorithm 1 of Zheng et al. (2020) around UCB1, for the main engine (module docstring).

    ``mechanism`` is the :class:`~ldpcode.mechanisms.GaussianMechanism` of Algorithm 1, line 2 (sensitivity
    2B = 2: losses in [0, 1], B = 1), so each user's release is (ε, δ)-LDP (Theorem 2). The learner is
    :class:`~ldpcode.reductions.SubGaussianUCB` tuned to the noise: it plays the arm of smallest
    :math:`\hat\ell_a - \sqrt{8(1/4 + \sigma^2)\ln t/N_a}` (each arm once first, ties to the lowest-numbered),
    :math:`\hat\ell_a` the mean of the arm's releases. Build it with
    ``make_policy("OnePoint-UCB", epsilon=..., delta=...)``.

    ``cost``: 45 + 14K ns a pull (measured on the 2-core machine of :mod:`ldpcode.limits`, ``workers=1``,
    best of three calls of 2 runs of 2·10^6 pulls on Bernoulli arms while other jobs ran: 69 ns at K = 2,
    156 ns at K = 10, 709 ns at K = 50; UCB1 of :func:`ldpcode.make_policy` measured 66, 55, 157 ns in the
    same session: the index here recomputes a log and a square root per arm), with the memory model of
    :func:`ldpcode.engine.pulls_cost`.
    """

    name: str
    mechanism: GaussianMechanism

    needs_bounded_rewards = True

    @property
    def epsilon(self) -> float:
        return self.mechanism.epsilon

    @property
    def delta(self) -> float:
        return self.mechanism.delta

    @property
    def width_constant(self) -> float:
        r"""UCB1's width constant on the releases, :math:`\sqrt{8(1/4 + \sigma^2)}`."""
        return SubGaussianUCB().kernel_param(noise_variance(self.mechanism))

    # --- the engine protocol (ldpcode.engine) ---------------------------------------------------------------
    @property
    def label(self) -> float:
        return self.epsilon

    def check_environment(self, instance, privacy_levels) -> None:
        """Refuse an instance whose rewards are not in [0, 1]: a loss 1 - r outside [0, 1] would break the
        sensitivity 2B = 2 of the mechanism, and with it the privacy guarantee."""
        refuse_privacy_levels(self, privacy_levels)
        if not instance.bounded:
            raise ValueError(
                f"policy {self.name!r} needs rewards in [0, 1] (its loss 1 - r has sensitivity 2B = 2) but "
                f"instance {instance.name!r} is unbounded"
            )
        for a, arm in enumerate(instance.arms):
            if arm.family in (Family.TWO_POINT, Family.UNIFORM):
                params = (arm.p0, arm.p1)
            else:  # Bernoulli(p0); Beta(p0, 1) has its rewards in [0, 1] whatever p0 > 0
                params = (arm.p0,) if arm.family == Family.BERNOULLI else ()
            if not all(0.0 <= p <= 1.0 for p in params):
                raise ValueError(
                    f"policy {self.name!r} needs rewards in [0, 1] (its loss 1 - r has sensitivity 2B = 2) but "
                    f"arm {a} of instance {instance.name!r}, {arm.describe()}, has rewards outside it"
                )

    def cost(self, instance, horizon: int, runs: int, n_checkpoints: int, workers: int):
        K = instance.n_arms
        ns = ONE_POINT_NS + ONE_POINT_NS_PER_ARM * K
        return pulls_cost("pulls of Algorithm 1 around UCB1", ns, K, horizon, runs, n_checkpoints, workers)

    def run_one(self, instance, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        """One run: the users' rewards from the run's first stream, the Gaussian noise of their releases from
        the second (the first two streams of :func:`ldpcode.reductions.simulate_mab`'s run). Returns (the counts
        at the checkpoints, shape (C, arms), None)."""
        reward_rng, noise_rng = run_streams(seed_seq)
        n = instance.n_arms
        counts = np.zeros(n, dtype=np.int64)
        sums = np.zeros(n)
        counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
        width_c = self.width_constant
        arms = (instance.families, instance.params)

        def step(t, ci, m):
            rd = instance.draw_stream(reward_rng, m)
            nd = self.mechanism.privatize(np.zeros(m), noise_rng)
            return one_point_ucb_chunk(t, horizon, *arms, rd, nd, width_c, counts, sums, checkpoints, ci, counts_out)

        run_in_chunks(horizon, cancel, step)
        return counts_out, None

    def __repr__(self) -> str:
        return f"Policy({self.name!r}, epsilon={self.epsilon:g}, delta={self.delta:g})"


ONE_POINT_POLICIES = ("OnePoint-UCB",)
"""The names :func:`ldpcode.make_policy` builds with :func:`build_one_point`."""


def build_one_point(name: str, epsilon, epsilon_min, options: dict) -> OnePointUCB:
    """The registry's builder of :class:`OnePointUCB`: ``epsilon`` (a finite number > 0) and ``delta`` (in
    ``options``, a probability in (0, 1)) are required; ``epsilon_min``, ``alpha``, ``beta`` and ``gamma`` are
    refused (they belong to other policies and would be ignored)."""
    if epsilon_min is not None:
        raise ValueError(f"policy {name!r} is homogeneous and takes no epsilon_min, got epsilon_min={epsilon_min!r}")
    for opt in ("alpha", "beta", "gamma"):
        if options.get(opt) is not None:
            raise ValueError(f"policy {name!r} takes no {opt} (its options: delta), got {opt}={options[opt]!r}")
    if epsilon is None:
        raise ValueError(f"policy {name!r} needs epsilon, a finite number > 0 (its (ε, δ)-LDP level)")
    eps = check_epsilon(epsilon)  # a bad epsilon is named first, not the missing delta (the input review)
    delta = options.get("delta")
    if delta is None:
        raise ValueError(f"policy {name!r} needs delta, a probability in (0, 1) (its (ε, δ)-LDP level)")
    delta = check_probability("delta", delta)
    return OnePointUCB(name, algorithm1_mechanism(eps, delta, 1.0))
