r"""Algorithm 1 of Zheng et al. (2020), *One-Point Bandits Learning-LDP*, as a wrapper around any learner.

Algorithm 1 (Section 3.1) takes a non-private bandit algorithm A that consumes one scalar loss per round
and runs it on privatized feedback: user t suffers :math:`f_t(x_t)` and sends
:math:`f_t(x_t) + Z_t`, :math:`Z_t\sim N(0,\sigma^2)`, with (line 2)

.. math:: \sigma = \frac{2B\sqrt{2\ln(1.25/\delta)}}{\epsilon},

B the bound :math:`|f_t(x)|\le B`, so 2B is the sensitivity of the one number a user releases
(Theorem 2: (ε, δ)-LDP). The ε-LDP variant the paper mentions ("using Laplacian noise instead of
Gaussian noise") adds :math:`\mathrm{Lap}(2B/\epsilon)`. The noise comes from
:class:`ldpcode.mechanisms.GaussianMechanism` / :class:`~ldpcode.mechanisms.LaplaceMechanism`; build them
with :func:`algorithm1_mechanism` and :func:`laplace_mechanism`.

The learner interface (any object with these methods can be wrapped; ``ldpcode.bco`` follows it too)::

    # start a run; rng = the learner's own randomness
    learner.reset(n_arms, horizon, rng, feedback_noise_variance=0.0)
    # the action x_t of round t
    arm = learner.select()
    # the scalar it is allowed to see
    learner.update(arm, feedback)

``feedback_noise_variance`` is the variance of the noise the wrapper adds, so that a learner can be
tuned to the scale of its feedback, as Theorem 3 assumes of A (its regret is stated for loss range B;
run on noisy losses its range grows). :class:`OnePointReduction` never passes a raw loss to the learner.

MAB learners (losses in [0, 1], lower is better; arms numbered from 0):

* :class:`SubGaussianUCB`: UCB1 on losses (Auer et al. 2002), index
  :math:`\hat\ell_a - \sqrt{8 s^2 \ln t / N_a}` (smallest played, ties to the lowest arm), t = pulls so
  far, after one pull of each arm. :math:`s^2 = 1/4 + v` is the sub-Gaussian variance proxy of the
  feedback: 1/4 for a loss in [0, 1] (Hoeffding) plus the noise variance v. At v = 0 the width is
  exactly UCB1's :math:`\sqrt{2\ln t/N_a}`; under Gaussian noise it is UCB1's width times
  :math:`\sqrt{1+4\sigma^2}`. For Laplace noise v = 2 b² (its variance; Laplace noise is sub-exponential,
  not sub-Gaussian, so this width is a heuristic there).
* :class:`TsallisINF`: Tsallis-INF with α = 1/2 (Zimmert and Seldin 2021, Algorithm 1 with
  importance-weighted estimates :math:`\hat\ell_{t,i} = y_t 1[I_t=i]/w_{t,i}`),
  :math:`w_{t,i} = 4\big(\eta_t(\hat L_{t-1,i} - x_t)\big)^{-2}` with the normaliser
  :math:`x_t < \min_i \hat L_{t-1,i}` solving :math:`\sum_i w_{t,i} = 1` (Newton's method from the right,
  their Algorithm 2), and :math:`\eta_t = 2/(c\sqrt t)`: their rate :math:`2/\sqrt t` for
  importance-weighted estimates, divided by :math:`c = \sqrt{1+4v}`, the ratio of the feedback's
  sub-Gaussian scale to that of a [0, 1] loss (our choice; c = 1 without noise).

Environments (:class:`LossSchedule`): mean-loss vectors that are piecewise constant in time, losses
Bernoulli on them (or equal to them, ``bernoulli=False``). :func:`bernoulli_losses` is the stochastic
MAB; :func:`ucb_adversary` an oblivious adversarial 0/1 sequence, fixed before the game by simulating
the deterministic non-private UCB1 and giving loss 1 to the arm it would play. Regret: :math:`\sum_{s\le t}\mu_s(I_s) - \min_a\sum_{s\le t}\mu_s(a)`, the pseudo-regret
against the best fixed arm (for the stochastic MAB it is :math:`\sum_a N_a(t)\Delta_a`).

:func:`simulate_mab` runs R independent runs from ``SeedSequence(seed).spawn(R)``; run r uses three
streams from :func:`ldpcode.rng.run_streams`: loss draws, privacy noise, learner randomness. The
built-in learners run in a numba kernel; any other learner runs through the same Python loop as the
tests, which consumes the streams identically (so both engines give the same pulls).

The rooms (every name below is re-exported here, so ``ldpcode.reductions.X`` and
``from ldpcode.reductions import X`` work as before the split):

====================================  ================================================================
:mod:`ldpcode.reductions.privacy`     Algorithm 1's noise (line 2, Theorem 2): :func:`algorithm1_mechanism`,
                                      :func:`laplace_mechanism`, :func:`noise_variance`; the Gaussian
                                      mechanism's privacy loss: :func:`gaussian_exact_delta`,
                                      :func:`gaussian_loss_tail`, :func:`gaussian_privacy_loss`
:mod:`ldpcode.reductions.kernels`     the numba-compiled steps: :func:`tsallis_weights`, UCB1's index,
                                      the sampler, the simulation kernel and its ``ROUNDS_PER_CALL``
:mod:`ldpcode.reductions.learners`    the learner codes ``UCB``, ``TSALLIS``, :class:`SubGaussianUCB`,
                                      :class:`TsallisINF`, :func:`make_learner`, Algorithm 1 itself
                                      (:class:`OnePointReduction`, Theorem 3) and :func:`make_agent`
:mod:`ldpcode.reductions.losses`      environments (Appendix B): :class:`LossSchedule`,
                                      :func:`bernoulli_losses`, :func:`ucb_adversary`
:mod:`ldpcode.reductions.runs`        :func:`simulate_mab`, :func:`mab_cost`, :class:`MABResult`
:mod:`ldpcode.reductions.policy`      :class:`OnePointUCB`, Algorithm 1 around UCB1 as a policy of the
                                      main engine (``make_policy("OnePoint-UCB", epsilon=, delta=)``)
:mod:`ldpcode.reductions.best_arm`    best-arm identification (Appendix B): successive elimination on
                                      the releases, :func:`successive_elimination` and its reference,
                                      :func:`elimination_radius`, :func:`elimination_samples_prediction`
====================================  ================================================================

``ROUNDS_PER_CALL`` is looked up in the room whose code uses it (:mod:`~ldpcode.reductions.runs` for the
simulation loop, :mod:`~ldpcode.reductions.losses` for the adversary's table): patch it there, not here.
:func:`simulate_mab` runs through the one engine (:func:`ldpcode.engine.run`, its pool
``ldpcode.engine.run_pool``): its agents are :class:`AgentPolicy`.
"""

from .kernels import ROUNDS_PER_CALL, tsallis_weights
from .learners import (
    LEARNERS,
    TSALLIS,
    TSALLIS_ETA0,
    UCB,
    OnePointReduction,
    SubGaussianUCB,
    TsallisINF,
    make_agent,
    make_learner,
)
from .losses import LossSchedule, bernoulli_losses, ucb_adversary
from .privacy import (
    algorithm1_mechanism,
    gaussian_exact_delta,
    gaussian_loss_tail,
    gaussian_privacy_loss,
    laplace_mechanism,
    noise_variance,
)
from .policy import ONE_POINT_POLICIES, OnePointUCB
from .best_arm import (
    BAIResult,
    elimination_radius,
    elimination_samples_prediction,
    successive_elimination,
    successive_elimination_reference,
)
from .runs import AgentPolicy, MABResult, mab_cost, simulate_mab

__all__ = [
    # privacy
    "algorithm1_mechanism",
    "gaussian_exact_delta",
    "gaussian_loss_tail",
    "gaussian_privacy_loss",
    "laplace_mechanism",
    "noise_variance",
    # kernels
    "ROUNDS_PER_CALL",
    "tsallis_weights",
    # learners
    "LEARNERS",
    "TSALLIS",
    "TSALLIS_ETA0",
    "UCB",
    "OnePointReduction",
    "SubGaussianUCB",
    "TsallisINF",
    "make_agent",
    "make_learner",
    # losses
    "LossSchedule",
    "bernoulli_losses",
    "ucb_adversary",
    # policy (the main engine's)
    "ONE_POINT_POLICIES",
    "OnePointUCB",
    # runs
    "AgentPolicy",
    "MABResult",
    "mab_cost",
    "simulate_mab",
    # best-arm identification
    "BAIResult",
    "elimination_radius",
    "elimination_samples_prediction",
    "successive_elimination",
    "successive_elimination_reference",
]
