r"""Contextual linear and generalized linear bandits under (ε, δ)-LDP (Zheng et al. 2020, Section 4).

Model (Section 4): at round t the user holds K context vectors :math:`x_{t,a}` in the unit ball of
:math:`\mathbb R^d`, plays :math:`A_t`, and observes :math:`y_t = g(x_{t,A_t}^\top\theta^*) + \eta_t`,
:math:`\lVert\theta^*\rVert_2 \le S = 1`. Two links: ``"linear"`` (g = identity, η uniform on
[-b, b], b = ``noise``, so :math:`|y| \le 1 + b`) and ``"logistic"`` (:math:`g = \mu(z) = 1/(1+e^{-z})`,
y Bernoulli).
Pseudo-regret: :math:`\sum_t \max_a g(x_{t,a}^\top\theta^*) - g(x_{t,A_t}^\top\theta^*)`.

Policies (``simulate_contextual(policy=...)``, or ``ldpcode.simulate(make_learner(policy, ...), instance, ...)``:
each is a :class:`ContextualLearner`, an engine policy of :mod:`ldpcode.engine`):

* ``"linucb"``: OFUL / LinUCB of Abbasi-Yadkori et al. (2011), ridge λ = ``lam`` = 1,
  :math:`\beta_t = R\sqrt{2\ln(2/\alpha) + d\ln(1 + t/(d\lambda))} + \sqrt\lambda S` (their Theorem 2 with
  failure probability α/2), R = b the sub-Gaussian constant of η (b-bounded noise is b-sub-Gaussian).
* ``"ldp-linucb"``: the LDP LinUCB of Section 4.1 (Algorithm 5, in the missing Appendix D; read from
  Algorithm 3, which uses the same device). Each user releases :math:`x x^\top + B` (B symmetric,
  :math:`B_{ij} = B_{ji} \sim N(0, \sigma_V^2)` for i <= j) and :math:`y x + \xi`,
  :math:`\xi\sim N(0,\sigma_u^2 I)`; the budget is split in two, each release (ε/2, δ/2) with replace-one
  L2 sensitivities 2 (‖xxᵀ − x'x'ᵀ‖_F ≤ 2) and 2(1+b) (‖yx − y'x'‖ ≤ 2 max ``|y|``):
  σ_V = GaussianMechanism(ε/2, δ/2, 2).sigma, σ_u = GaussianMechanism(ε/2, δ/2, 2(1+b)).sigma.
  Server: :math:`\bar V_t = \lambda I + c_t I + \sum_{s\le t}(x_s x_s^\top + B_s)`,
  :math:`u_t = \sum (y_s x_s + \xi_s)`, :math:`\hat\theta_t = \bar V_t^{-1}u_t`, with the shift of
  Algorithm 3, :math:`c_t = 2\Upsilon_t`, :math:`\Upsilon_t = \sigma_V\sqrt t\,(4\sqrt d + 2\ln(2T/\alpha))`
  (our reading of the garbled "Υt = σ d + 2 ln(2T/α))": the operator-norm bound of a sum of t symmetric
  Gaussian matrices used by Shariff and Sheffet 2018), so that w.h.p.
  :math:`\rho_{\min} = \lambda+\Upsilon_t \preceq \bar V_t - \sum x x^\top \preceq \rho_{\max} = \lambda+3\Upsilon_t`.
  Width (Theorem 8; the exact expression (5) is in the missing appendix, we use the Shariff–Sheffet form)
  :math:`\beta_t = R\sqrt{2\ln(2/\alpha) + d\ln(\rho_{\max}/\rho_{\min} + t/(d\rho_{\min}))} + S\sqrt{\rho_{\max}} + \gamma_t`,
  :math:`\gamma_t = \sigma_u\sqrt t(\sqrt d + \sqrt{2\ln(2T/\alpha)})/\sqrt{\rho_{\min}}`. With σ → 0 this
  is exactly ``"linucb"`` (λ = 1 is our addition to keep V̄ invertible when σ = 0).
* ``"gloc"``: non-private GLOC of Jun et al. (2017) with Online Newton Step for GLMs:
  :math:`A_t = \lambda I + \sum x x^\top`, :math:`\tilde\theta_{t+1} = \tilde\theta_t - \ell'_t/\kappa\,A_t^{-1}x_t`,
  then projection on the unit ball by rescaling (Euclidean, not in the :math:`A_t` norm: our
  simplification). Relabel :math:`z_t = x_t^\top\tilde\theta_t`, ridge :math:`\bar\theta_t = \bar V_t^{-1}\sum z x`,
  :math:`\bar V_t = \lambda I + \sum x x^\top`, width :math:`\beta_t = \sqrt{\lambda S^2 + a(B_t)}` with
  :math:`a(B) = 1 + 4B/\kappa + 8R^2/\kappa^2\ln\big(\tfrac2\alpha\sqrt{1 + 2B/\kappa + 4R^4/(\kappa^4\alpha^2)}\big)`
  (Jun et al. Theorem 1, the data-dependent negative term dropped, which only widens the set),
  R = 1/2 (Bernoulli), κ = μ'(S) = μ(1)(1−μ(1)), and the ONS regret bound
  :math:`B_t = 2\kappa S^2 + \frac{1}{2\kappa} d\ln(1 + t/(d\lambda))` (``|ℓ'| <= 1``).
* ``"ldp-gloc"``: Algorithm 3. The online learner is noisy projected OGD with step ζ = 1/√T on the
  logistic loss :math:`\ell_t(\theta) = -y x^\top\theta + \ln(1 + e^{x^\top\theta})`; the user releases
  :math:`x x^\top + B`, :math:`z x + \xi` and :math:`\nabla\ell_t(\hat\theta_t) + r`, B, ξ with sd σ and r with sd Cσ,
  :math:`\sigma = 6\sqrt{2\ln(3.75/\delta)}/\epsilon` = GaussianMechanism(ε/3, δ/3, 2).sigma (three
  releases at (ε/3, δ/3), replace-one sensitivity 2 each, 2C for the gradient; C = 1 for the logistic).
  Same shift c_t = 2Υ_t as above. Width: :math:`\beta_t = \sqrt{a(B_t) + \rho_{\max}S^2} + \gamma_t`, with the
  noisy-OGD regret bound :math:`B_t = 2S^2/\zeta + \tfrac\zeta2 t (1 + dC^2\sigma^2)` (Zinkevich, diameter 2S,
  E‖∇ℓ + r‖² <= 1 + dC²σ²). The paper's β_t ("β²_t = O(Cσ ...") is garbled: this is our reading.

Simulation: R runs from ``SeedSequence(seed).spawn(R)``; each run's contexts/rewards and privacy noise come
from its own generators (``run_streams``), drawn in chunks of ``ROUNDS_PER_DRAW`` rounds; the rounds are then
vectorised across runs with batched (R, d, d) linear algebra (the noisy update is rank d, so V̄ is
inverted by ``np.linalg.inv`` each round, not by Sherman–Morrison). The default engine compiles the
same loop with numba, one run at a time (tested to make the same choices). Deterministic for a seed.

The rooms (every public name below is re-exported here, so ``ldpcode.contextual.X`` and
``from ldpcode.contextual import X`` work as before the split; import the private ones, ``_x``, from their room):

=====================================  ===============================================================
:mod:`ldpcode.contextual.link`         the logistic link μ, μ' and the loss gradient (Section 4.2),
                                       :func:`sample_unit_ball`
:mod:`ldpcode.contextual.instance`     :class:`ContextualInstance`, :func:`make_contextual_instance`,
                                       ``LINKS``, ``CONTEXTS``
:mod:`ldpcode.contextual.privacy`      the Gaussian mechanisms (:func:`linucb_mechanisms`, Theorem 7;
                                       :func:`gloc_mechanisms`, Algorithm 3 and Theorem 9),
                                       :func:`upsilon`, :func:`gloc_a`, :func:`symmetric_from_upper`,
                                       the user/server split (:func:`user_release`, ``_server_update``)
:mod:`ldpcode.contextual.kernels`      the compiled engine (``_run_chunk``, ``_width_nb``,
                                       ``_gloc_a_nb``, ``_CODES``) and ``ROUNDS_PER_DRAW``
:mod:`ldpcode.contextual.runs`         :func:`make_learner` and :class:`ContextualLearner` (the
                                       policies for the engine), :func:`simulate_contextual`
                                       (Theorems 8 and 10), :class:`ContextualResult`, :func:`contextual_cost`,
                                       :func:`uniform_play_regret`, :func:`horizon_sweep`,
                                       :class:`HorizonSweep`, ``POLICIES``
:mod:`ldpcode.contextual.table1`       Table 1's contextual rows as claims of a horizon sweep
                                       (:func:`table1_claims`, :func:`sweep_table`) and the caps they are read against
                                       (:func:`worst_arm_regret`, :func:`epsilon_exponent_room`)
=====================================  ===============================================================

``simulate_contextual`` looks up ``run_streams``, ``run_in_chunks``, ``user_release`` and ``_server_update`` in
:mod:`ldpcode.contextual.runs`: patch them there (the pool is the engine's, ``ldpcode.engine.run_pool``).
"""

from .instance import CONTEXTS, LINKS, ContextualInstance, make_contextual_instance
from .kernels import ROUNDS_PER_DRAW
from .link import logistic, logistic_derivative, logistic_loss_gradient, sample_unit_ball
from .privacy import gloc_a, gloc_mechanisms, linucb_mechanisms, symmetric_from_upper, upsilon, user_release
from .runs import (
    POLICIES,
    ContextualLearner,
    ContextualResult,
    HorizonSweep,
    contextual_cost,
    horizon_sweep,
    make_learner,
    simulate_contextual,
    uniform_play_regret,
)
from .table1 import epsilon_exponent_room, sweep_table, table1_claims, worst_arm_regret

__all__ = [
    # link
    "logistic",
    "logistic_derivative",
    "logistic_loss_gradient",
    "sample_unit_ball",
    # instance
    "CONTEXTS",
    "LINKS",
    "ContextualInstance",
    "make_contextual_instance",
    # privacy
    "gloc_a",
    "gloc_mechanisms",
    "linucb_mechanisms",
    "symmetric_from_upper",
    "upsilon",
    "user_release",
    # kernels
    "ROUNDS_PER_DRAW",
    # runs
    "POLICIES",
    "ContextualLearner",
    "ContextualResult",
    "HorizonSweep",
    "contextual_cost",
    "horizon_sweep",
    "make_learner",
    "simulate_contextual",
    "uniform_play_regret",
    # table1
    "epsilon_exponent_room",
    "sweep_table",
    "table1_claims",
    "worst_arm_regret",
]
