r"""Bandit convex optimisation (BCO) under (ε, δ)-LDP: Section 3 of Zheng et al. (2020).

Everything lives on the closed unit ball of :math:`\mathbb R^d` (``d = 5`` by default): the decision set is
X = B (so r = R = 1 in the notation of Agarwal, Dekel and Xiao 2010, r B ⊆ X ⊆ R B), and a learner
that perturbs its point by ρ u (u uniform on the unit sphere) keeps its centre in the shrunk set
(1 - ρ) X, so every queried point lies in X.

Environments (all losses bounded by B = 1 on X; oblivious: the sequence is a fixed function of t, the
same for every run; runs differ only by the learner's and the curator's randomness):

``"linear"`` (adversarial, convex, not strongly convex)
    f_t(x) = θ_t·x, θ_t = (0.6, 0.4 cos(2π t/P), 0.4 sin(2π t/P), 0, ..., 0), P = 7:
    ||θ_t|| = √0.52 ≈ 0.721, so ``|f_t| ≤ 0.721 ≤ B`` and f_t is G-Lipschitz with G = 0.721 (we use
    G = 1 in the tuning). Comparator: min over the ball of Σ θ_s·x = -||Σ θ_s||.
``"quadratic"`` (adversarial, μ-strongly convex, moving centres)
    f_t(x) = (4/9) ||x - c_t||², c_t = 0.5 (cos(2π t/P), sin(2π t/P), 0, ..., 0): 0 ≤ f_t ≤ (4/9)(1.5)² = 1
    on X, μ = 8/9, Lipschitz G = (8/9)(1.5) = 4/3. Comparator (exact): with S = Σ c_s, Q = Σ ||c_s||²,
    the minimiser is S/t (inside X) and the minimum is (4/9)(Q - ||S||²/t).
``"stochastic"`` (stochastic BCO of Agarwal et al. 2011)
    feedback f(x) + q_t with f(x) = (4/9)||x - c||², c = (0.5, 0, ..., 0), q_t ~ N(0, 0.1²) i.i.d.
    (sub-Gaussian, mean 0); pseudo-regret Σ f(x_t) - t f(c) = Σ f(x_t).
``"constant"`` (a check)
    f_t(x) = 1/2 for every x: the regret is 0 exactly, whatever the learner does.

Learners (engine policies built by :func:`make_learner`, which :func:`ldpcode.simulate` runs on an
:class:`Environment`; a numba loop per run; run r draws everything from its own generators
``run_streams(SeedSequence(seed).spawn(runs)[r], 2)``: the first for the sphere directions u_t (and q_t), the
second for the curator's Gaussian noise, so results do not depend on threads):

* :func:`simulate_one_point`: Algorithm 1 of Zheng et al. (the one-point reduction) around the
  sphere-sampling gradient descent of Flaxman, Kalai and McMahan (2005): the server plays
  :math:`y_t = x_t + \rho_t u_t`, the user releases :math:`f_t(y_t) + Z_t` with :math:`Z_t \sim N(0, \sigma^2)`,
  σ = ``GaussianMechanism(ε, δ, sensitivity=2B).sigma`` (Theorem 2: :math:`|f_t| \le B`, so the released
  value has sensitivity 2B), and the learner uses only that value:
  :math:`g_t = (d/\rho_t)(f_t(y_t) + Z_t)\,u_t`, :math:`x_{t+1} = \Pi_{(1-\rho_{t+1})X}(x_t - \eta_t g_t)`.
* :func:`simulate_two_point`: Algorithm 2 of Zheng et al. around Algorithm 4 (= the two-point
  algorithm of Agarwal, Dekel and Xiao 2010): :math:`x_{t,1}, x_{t,2} = x_t \pm \rho u_t`, the user releases
  :math:`f_t(x_{t,1}) - f_t(x_{t,2}) + n_t\cdot(x_{t,1} - x_{t,2})`, :math:`n_t \sim N(0, \sigma^2 I_d)`,
  :math:`\sigma = 2G\sqrt{2\ln(1.25/\delta)}/\epsilon` (= ``GaussianMechanism(ε, δ, sensitivity=2G).sigma``),
  and :math:`g_t = \frac{d}{2\rho}\,(\text{released value})\,u_t`.
* :func:`simulate_one_point` with ``learner="barrier"``: Algorithm 1 around the self-concordant-barrier
  learners of the smooth rows of Table 1 / Corollary 4 (ellipsoidal sampling, FTRL with the barrier
  :math:`R(x) = -\ln(1 - \lVert x\rVert^2)` of the unit ball): Hazan and Levy (2014) for strongly convex and
  smooth losses, Saha and Tewari (2011) for convex and smooth ones; see :func:`barrier_tuning`,
  :func:`ball_barrier`, :func:`ftrl_barrier_step`, :func:`ellipsoid_point`. Same streams per run as the
  sphere learner (first: u_t and q_t, second: Z_t).

The rooms (every public name below is re-exported here, so ``ldpcode.bco.X`` and
``from ldpcode.bco import X`` work as before the split; import the private ones, ``_x``, from their room):

===================================  =================================================================
:mod:`ldpcode.bco.environments`      the losses and their constants (:class:`Environment`,
                                     :func:`make_environment`, :data:`PERIOD`, :data:`QUAD_SCALE`,
                                     :data:`STOCH_NOISE_SD`), their compiled forms (``_loss``,
                                     ``_accumulate``, ``_comparator``), the shared ``_check_positive``
:mod:`ldpcode.bco.privacy`           the users' releases and their noise: :func:`one_point_sigma`,
                                     :func:`two_point_sigma`, :func:`noisy_range`,
                                     :func:`two_point_release`
:mod:`ldpcode.bco.geometry`          projection and sphere sampling (:func:`project_ball`,
                                     :func:`sphere_gradient_estimate`), the ball's barrier and its FTRL
                                     step (:func:`ball_barrier`, :data:`BARRIER_NU`,
                                     :func:`ftrl_barrier_step`), ellipsoidal sampling
                                     (:func:`ellipsoid_point`, :func:`ellipsoid_gradient_estimate`), and
                                     their compiled twins
:mod:`ldpcode.bco.kernels`           the compiled chunk kernels of the three learners
                                     (``_one_point_chunk``, ``_two_point_chunk``, ``_barrier_chunk``)
:mod:`ldpcode.bco.runs`              the learners as engine policies (:func:`make_learner`,
                                     :class:`OnePointSphere`, :class:`OnePointBarrier`, :class:`TwoPoint`),
                                     the drivers (:func:`simulate_one_point`, :func:`simulate_two_point`),
                                     their tunings, :class:`BCOResult`, :func:`bco_cost`, the chunking
                                     (:data:`BCO_ROUNDS_PER_CALL`), :data:`DEFAULT_DELTA`,
                                     :func:`hazan_levy_exploration_cost`
:mod:`ldpcode.bco.table1`            Table 1's BCO rows as claims of the runs (:data:`ONE_POINT_ROWS`,
                                     :func:`one_point_exponent_claims`, :func:`one_point_eps_claim`) and the
                                     O(log T) test of the strongly convex two-point row
                                     (:func:`log_increment_ratio`)
===================================  =================================================================
"""

# BCO_ROUNDS_PER_CALL and run_in_chunks are read in ldpcode.bco.runs: to change or patch them, do it there (setting
# ldpcode.bco.BCO_ROUNDS_PER_CALL changes nothing); the pool is the engine's (ldpcode.engine).
from .environments import ENVIRONMENTS, LOSS_RANGE, PERIOD, QUAD_SCALE, STOCH_NOISE_SD, Environment, make_environment
from .geometry import (
    BARRIER_NU,
    ball_barrier,
    ellipsoid_gradient_estimate,
    ellipsoid_point,
    ftrl_barrier_step,
    project_ball,
    sphere_gradient_estimate,
)
from .privacy import noisy_range, one_point_sigma, two_point_release, two_point_sigma
from .runs import (
    ALGORITHMS,
    BCO_ROUNDS_PER_CALL,
    DEFAULT_DELTA,
    LEARNERS,
    BCOResult,
    OnePointBarrier,
    OnePointSphere,
    TwoPoint,
    barrier_tuning,
    bco_cost,
    hazan_levy_exploration_cost,
    make_learner,
    one_point_tuning,
    simulate_one_point,
    simulate_two_point,
    two_point_tuning,
)
from .table1 import ONE_POINT_ROWS, log_increment_ratio, one_point_eps_claim, one_point_exponent_claims

__all__ = [
    "ALGORITHMS",
    "BARRIER_NU",
    "BCO_ROUNDS_PER_CALL",
    "BCOResult",
    "DEFAULT_DELTA",
    "ENVIRONMENTS",
    "Environment",
    "LEARNERS",
    "OnePointBarrier",
    "OnePointSphere",
    "ONE_POINT_ROWS",
    "LOSS_RANGE",
    "PERIOD",
    "QUAD_SCALE",
    "STOCH_NOISE_SD",
    "ball_barrier",
    "barrier_tuning",
    "bco_cost",
    "ellipsoid_gradient_estimate",
    "ellipsoid_point",
    "ftrl_barrier_step",
    "hazan_levy_exploration_cost",
    "log_increment_ratio",
    "make_environment",
    "make_learner",
    "noisy_range",
    "one_point_eps_claim",
    "one_point_exponent_claims",
    "one_point_sigma",
    "one_point_tuning",
    "project_ball",
    "simulate_one_point",
    "simulate_two_point",
    "sphere_gradient_estimate",
    "two_point_release",
    "TwoPoint",
    "two_point_sigma",
    "two_point_tuning",
]
