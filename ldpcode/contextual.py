r"""Contextual linear and generalized linear bandits under (ε, δ)-LDP (Zheng et al. 2020, Section 4).

Model (Section 4): at round t the user holds K context vectors :math:`x_{t,a}` in the unit ball of
:math:`\mathbb R^d`, plays :math:`A_t`, and observes :math:`y_t = g(x_{t,A_t}^\top\theta^*) + \eta_t`,
:math:`\lVert\theta^*\rVert_2 \le S = 1`. Two links: ``"linear"`` (g = identity, η uniform on
[-b, b], b = ``noise``, so |y| <= 1 + b) and ``"logistic"`` (g = μ(z) = 1/(1+e^{-z}), y Bernoulli).
Pseudo-regret: :math:`\sum_t \max_a g(x_{t,a}^\top\theta^*) - g(x_{t,A_t}^\top\theta^*)`.

Policies (``simulate_contextual(policy=...)``):

* ``"linucb"``: OFUL / LinUCB of Abbasi-Yadkori et al. (2011), ridge λ = ``lam`` = 1,
  :math:`\beta_t = R\sqrt{2\ln(2/\alpha) + d\ln(1 + t/(d\lambda))} + \sqrt\lambda S` (their Theorem 2 with
  failure probability α/2), R = b the sub-Gaussian constant of η (b-bounded noise is b-sub-Gaussian).
* ``"ldp-linucb"``: the LDP LinUCB of Section 4.1 (Algorithm 5, in the missing Appendix D; read from
  Algorithm 3, which uses the same device). Each user releases :math:`x x^\top + B` (B symmetric,
  :math:`B_{ij} = B_{ji} \sim N(0, \sigma_V^2)` for i <= j) and :math:`y x + \xi`,
  :math:`\xi\sim N(0,\sigma_u^2 I)`; the budget is split in two, each release (ε/2, δ/2) with replace-one
  L2 sensitivities 2 (‖xxᵀ − x'x'ᵀ‖_F ≤ 2) and 2(1+b) (‖yx − y'x'‖ ≤ 2 max|y|):
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
  :math:`B_t = 2\kappa S^2 + \frac{1}{2\kappa} d\ln(1 + t/(d\lambda))` (|ℓ'| <= 1).
* ``"ldp-gloc"``: Algorithm 3. The online learner is noisy projected OGD with step ζ = 1/√T on the
  logistic loss :math:`\ell_t(\theta) = -y x^\top\theta + \ln(1 + e^{x^\top\theta})`; the user releases
  :math:`x x^\top + B`, :math:`z x + \xi` and :math:`\nabla\ell_t(\hat\theta_t) + r`, B, ξ with sd σ and r with sd Cσ,
  :math:`\sigma = 6\sqrt{2\ln(3.75/\delta)}/\epsilon` = GaussianMechanism(ε/3, δ/3, 2).sigma (three
  releases at (ε/3, δ/3), replace-one sensitivity 2 each, 2C for the gradient; C = 1 for the logistic).
  Same shift c_t = 2Υ_t as above. Width: :math:`\beta_t = \sqrt{a(B_t) + \rho_{\max}S^2} + \gamma_t`, with the
  noisy-OGD regret bound :math:`B_t = 2S^2/\zeta + \tfrac\zeta2 t (1 + dC^2\sigma^2)` (Zinkevich, diameter 2S,
  E‖∇ℓ + r‖² <= 1 + dC²σ²). The paper's β_t ("β²_t = O(Cσ ...") is garbled: this is our reading.

Simulation: R runs from ``SeedSequence(seed).spawn(R)``; each run's contexts/rewards and privacy noise come
from its own generators (``run_streams``), drawn in chunks of ``CHUNK`` rounds; the rounds are then
vectorised across runs with batched (R, d, d) linear algebra (the noisy update is rank d, so V̄ is
inverted by ``np.linalg.inv`` each round, not by Sherman–Morrison). The default engine compiles the
same loop with numba, one run at a time (tested to make the same choices). Deterministic for a seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ._validate import as_float_array, check_array, check_int, check_real, check_rng
from .mechanisms import GaussianMechanism
from .simulate import (
    MAX_HORIZON,
    MAX_RUNS,
    Limits,
    SlopeFit,
    check_limits,
    loglog_slope,
    resolve_checkpoints,
    run_streams,
)

CHUNK = 512
LINKS = ("linear", "logistic")
CONTEXTS = ("ball", "identical")
POLICIES = ("linucb", "ldp-linucb", "gloc", "ldp-gloc")


# ---------------------------------------------------------------- the link -------------------------
def logistic(z):
    r"""The logistic link μ(z) = 1/(1 + e^{-z}) of Section 4.2 (Bernoulli rewards)."""
    z = np.asarray(z, dtype=float)
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def logistic_derivative(z):
    r"""μ'(z) = μ(z)(1 − μ(z)); κ = inf_{|z|<=1} μ'(z) = μ'(1) is the μ of Section 4.2."""
    m = logistic(z)
    return m * (1.0 - m)


def logistic_loss_gradient(theta, x, y):
    r"""Gradient in θ of the negative log-likelihood ℓ(a, b) = −ab + m(a), m(a) = ln(1 + e^a), at
    a = xᵀθ (Section 4.2): ∇ℓ = (μ(xᵀθ) − y) x. Broadcasts over leading axes."""
    theta = np.asarray(theta, dtype=float)
    x = np.asarray(x, dtype=float)
    if theta.shape[-1] != x.shape[-1]:
        raise ValueError(f"theta and x must have the same last dimension, got {theta.shape} and {x.shape}")
    a = np.sum(theta * x, axis=-1)
    return (logistic(a) - np.asarray(y, dtype=float))[..., None] * x


def sample_unit_ball(rng: np.random.Generator, shape, dim: int) -> np.ndarray:
    """Uniform points in the unit ball of R^dim: Gaussian direction, radius U^{1/dim}."""
    rng = check_rng("rng", rng)
    dim = check_int("dim", dim, minimum=1)
    g = rng.standard_normal((*shape, dim))
    g /= np.linalg.norm(g, axis=-1, keepdims=True)
    return g * rng.random((*shape, 1)) ** (1.0 / dim)


# ---------------------------------------------------------------- the instance ---------------------
@dataclass(frozen=True)
class ContextualInstance:
    """θ* (norm <= 1), K arms, the link ("linear"/"logistic"), the half-width b of the uniform reward
    noise (linear link only) and the context law ("ball": i.i.d. uniform in the unit ball; "identical":
    one uniform point repeated for all K arms, an instance with zero regret)."""

    theta: np.ndarray
    n_arms: int
    link: str = "linear"
    noise: float = 0.5
    contexts: str = "ball"

    @property
    def dim(self) -> int:
        return int(self.theta.shape[0])

    @property
    def y_max(self) -> float:
        """Bound on |y|: 1 + b (linear), 1 (Bernoulli)."""
        return 1.0 + self.noise if self.link == "linear" else 1.0

    def mean(self, z):
        return np.asarray(z, dtype=float) if self.link == "linear" else logistic(z)

    def draw_contexts(self, rng: np.random.Generator, m: int) -> np.ndarray:
        if self.contexts == "identical":
            x = sample_unit_ball(rng, (m, 1), self.dim)
            return np.repeat(x, self.n_arms, axis=1)
        return sample_unit_ball(rng, (m, self.n_arms), self.dim)


def make_contextual_instance(
    dim: int = 5,
    n_arms: int = 10,
    *,
    link: str = "linear",
    noise: float = 0.5,
    theta=None,
    seed: int = 0,
    contexts: str = "ball",
) -> ContextualInstance:
    """A contextual instance. θ* is ``theta`` if given (norm <= 1, length ``dim``), else a uniform point
    on the unit sphere drawn from ``seed`` (‖θ*‖ = S = 1). Raises ValueError naming the parameter."""
    dim = check_int("dim", dim, minimum=1)
    n_arms = check_int("n_arms", n_arms, minimum=2)
    if link not in LINKS:
        raise ValueError(f"link must be one of {LINKS}, got {link!r}")
    if contexts not in CONTEXTS:
        raise ValueError(f"contexts must be one of {CONTEXTS}, got {contexts!r}")
    noise = check_real("noise", noise)
    if noise < 0:
        raise ValueError(f"noise must be >= 0 (half-width of the uniform reward noise), got {noise!r}")
    seed = check_int("seed", seed, minimum=0)
    if theta is None:
        g = np.random.default_rng(seed).standard_normal(dim)
        th = g / np.linalg.norm(g)
    else:
        th = as_float_array("theta", theta)
        if th.ndim != 1 or th.shape[0] != dim:
            raise ValueError(f"theta must have dimension dim = {dim}, got shape {th.shape}")
        if not np.isfinite(th).all() or np.linalg.norm(th) > 1 + 1e-12:
            raise ValueError(f"theta must be finite with norm <= 1, got norm {np.linalg.norm(th)!r}")
    return ContextualInstance(theta=th, n_arms=n_arms, link=link, noise=noise, contexts=contexts)


# ---------------------------------------------------------------- privacy calibration --------------
def linucb_mechanisms(epsilon, delta, y_max):
    """The two Gaussian mechanisms of LDP LinUCB (Section 4.1): (xxᵀ at (ε/2, δ/2), sensitivity 2) and
    (y x at (ε/2, δ/2), sensitivity 2 y_max)."""
    base = GaussianMechanism(epsilon, delta, 2.0)  # validates epsilon and delta
    eps, d = base.epsilon, base.delta
    y_max = check_real("y_max", y_max)
    if y_max <= 0:
        raise ValueError(f"y_max must be > 0, got {y_max!r}")
    return GaussianMechanism(eps / 2, d / 2, 2.0), GaussianMechanism(eps / 2, d / 2, 2.0 * y_max)


def gloc_mechanisms(epsilon, delta, grad_bound=1.0):
    """The three Gaussian mechanisms of Algorithm 3: xxᵀ and z x with σ = 6√(2 ln(3.75/δ))/ε
    (= (ε/3, δ/3), sensitivity 2) and the gradient with sd Cσ (sensitivity 2C), C = ``grad_bound``."""
    base = GaussianMechanism(epsilon, delta, 2.0)  # validates epsilon and delta
    eps, d = base.epsilon, base.delta
    c = check_real("grad_bound", grad_bound)
    if c <= 0:
        raise ValueError(f"grad_bound must be > 0, got {grad_bound!r}")
    m = GaussianMechanism(eps / 3, d / 3, 2.0)
    return m, m, GaussianMechanism(eps / 3, d / 3, 2.0 * c)


def upsilon(sigma, t, dim, horizon, alpha):
    r"""Υ_t = σ√t (4√d + 2 ln(2T/α)) (Algorithm 3, line 3, our reading): w.h.p. bound on the operator
    norm of the sum of t symmetric Gaussian noise matrices with entry sd σ."""
    sigma = check_real("sigma", sigma)
    if sigma < 0:
        raise ValueError(f"sigma must be >= 0, got {sigma!r}")
    t = check_array("t", t, low=0)
    dim = check_int("dim", dim, minimum=1)
    horizon = check_int("horizon", horizon, minimum=1)
    alpha = check_real("alpha", alpha)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    return sigma * np.sqrt(t) * (4.0 * math.sqrt(dim) + 2.0 * math.log(2.0 * horizon / alpha))


def gloc_a(B, kappa, R, alpha):
    r"""a(B) = 1 + 4B/κ + 8R²/κ² ln((2/α)√(1 + 2B/κ + 4R⁴/(κ⁴α²))) of Jun et al. (2017), Theorem 1."""
    B = np.asarray(B, dtype=float)
    return (
        1
        + 4 * B / kappa
        + 8 * R**2 / kappa**2 * np.log(2 / alpha * np.sqrt(1 + 2 * B / kappa + 4 * R**4 / (kappa**4 * alpha**2)))
    )


def symmetric_from_upper(upper: np.ndarray, dim: int) -> np.ndarray:
    """A symmetric (..., d, d) matrix from its upper triangle (..., d(d+1)/2) in np.triu_indices order."""
    out = np.zeros((*upper.shape[:-1], dim, dim))
    iu = np.triu_indices(dim)
    out[..., iu[0], iu[1]] = upper
    out[..., iu[1], iu[0]] = upper
    return out


# ---------------------------------------------------------------- the local user -------------------
def user_release(x, stat, noise_matrix, noise_vector, grad=None, noise_grad=None):
    """What user t sends (Algorithm 3, line 9): xxᵀ + B, stat·x + ξ [, ∇ℓ + r]. ``x`` (R, d), ``stat``
    (R,) the reward y (LinUCB) or the relabel z (GLOC), noises already scaled. Nothing else leaves the
    user: the server is updated only from this tuple."""
    M = x[:, :, None] * x[:, None, :] + noise_matrix
    v = stat[:, None] * x + noise_vector
    if grad is None:
        return M, v
    return M, v, grad + noise_grad


def _server_update(state: dict, released: tuple) -> None:
    """The server's only access to user data: accumulate the released statistics."""
    state["V"] += released[0]
    state["u"] += released[1]
    if len(released) > 2:
        state["g"] = released[2]


# ---------------------------------------------------------------- simulation -----------------------
@dataclass
class ContextualResult:
    """``regret`` (runs, C) pseudo-regret at ``checkpoints``; ``choices`` (runs, T) if recorded;
    ``sigmas`` the noise sds used."""

    policy: str
    horizon: int
    runs: int
    seed: int
    epsilon: float | None
    checkpoints: np.ndarray
    regret: np.ndarray
    sigmas: dict = field(default_factory=dict)
    choices: np.ndarray | None = None


def contextual_cost(
    engine: str, dim: int, n_arms: int, horizon: int, runs: int, n_checkpoints: int, record_choices: bool = False
) -> tuple[float, float, str]:
    """Estimated (core-seconds, bytes, description) of one :func:`simulate_contextual` call, at the per-core
    costs of :mod:`ldpcode.simulate`: a round costs 2 µs + 6 ns K d² + 1.5 ns d³ (numba engine, one run at a
    time) or 100 µs + runs (5 µs + 10 ns K d² + 2 ns d³) (numpy engine, all runs at once). Memory: the
    regrets (runs, C), the choices (runs, T) int16 if recorded, 12 KiB a run (its two generators) and the
    draws of a chunk of ``CHUNK`` rounds (for every run at once with the numpy engine)."""
    d, K = dim, n_arms
    per_round = d * K + d * d + 2 * d + 1  # doubles drawn per round: contexts, noises, uniform
    if engine == "numba":
        us = 2.0 + 6e-3 * K * d * d + 1.5e-3 * d**3
        seconds = runs * horizon * us * 1e-6
        chunk = 3 * CHUNK * per_round * 8
        unit = f"{us:.3g} µs a round"
    else:
        us = 100.0 + runs * (5.0 + 1e-2 * K * d * d + 2e-3 * d**3)
        seconds = horizon * us * 1e-6
        chunk = runs * (3 * CHUNK * per_round * 8 + 16 * d * d * 8)
        unit = f"{us:.3g} µs a round for all runs"
    nbytes = runs * (n_checkpoints * 8 + 12 * 1024) + chunk + (runs * horizon * 2 if record_choices else 0)
    work = (
        f"runs={runs} x horizon={horizon} = {runs * horizon:.3g} rounds (d={d}, K={K}, engine={engine!r}) "
        f"at {unit}" + (", choices recorded" if record_choices else "")
    )
    return seconds, nbytes, work


def simulate_contextual(
    policy: str,
    instance: ContextualInstance,
    horizon: int,
    runs: int,
    seed: int,
    *,
    epsilon=None,
    delta=None,
    alpha: float = 0.05,
    lam: float = 1.0,
    checkpoints=None,
    record_choices: bool = False,
    sigma_scale: float = 1.0,
    engine: str = "numba",
    limits: Limits | None = None,
) -> ContextualResult:
    """Simulate ``runs`` independent runs of ``policy`` (see the module docstring) on ``instance``.

    ``engine``: "numba" (compiled, one run at a time, ~10x faster) or "numpy" (vectorised across runs,
    with the user/server split made explicit through :func:`user_release` and ``_server_update``, which
    the tests instrument). Both draw the same random numbers and are tested to make the same choices.

    ``epsilon``, ``delta`` are required for the LDP policies and refused for the non-private ones (a
    privacy level given to "linucb" or "gloc" would be ignored, and the run would not be private).
    ``sigma_scale`` multiplies every privacy noise sd (1 = the calibrated mechanism; tests use it; LDP
    policies only). ``checkpoints`` (default 30 log-spaced) must end at ``horizon``; ``limits`` caps the
    estimated time and memory (:func:`contextual_cost`, :class:`ldpcode.simulate.Limits`). Returns a
    :class:`ContextualResult`."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}, got {policy!r}")
    if engine not in ("numba", "numpy"):
        raise ValueError(f"engine must be 'numba' or 'numpy', got {engine!r}")
    horizon = check_int("horizon", horizon, minimum=1, maximum=MAX_HORIZON)
    runs = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
    seed = check_int("seed", seed, minimum=0)
    if not isinstance(instance, ContextualInstance):
        raise TypeError(f"instance must be a ContextualInstance (make_contextual_instance), got {instance!r}")
    if check_real("sigma_scale", sigma_scale) < 0:
        raise ValueError(f"sigma_scale must be >= 0, got {sigma_scale!r}")
    alpha = check_real("alpha", alpha)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    lam = check_real("lam", lam)
    if lam <= 0:
        raise ValueError(f"lam must be > 0, got {lam!r}")
    private = policy.startswith("ldp")
    if not private and (epsilon is not None or delta is not None):
        raise ValueError(
            f"policy {policy!r} is not private and takes no epsilon or delta (they would be ignored), "
            f"got epsilon={epsilon!r}, delta={delta!r}; the (ε, δ)-LDP version is 'ldp-{policy}'"
        )
    if not private and float(sigma_scale) != 1.0:
        raise ValueError(
            f"sigma_scale scales privacy noise, which policy {policy!r} does not add; got "
            f"sigma_scale={sigma_scale!r} (use an 'ldp-' policy)"
        )
    glm = policy.endswith("gloc")
    if glm != (instance.link == "logistic"):
        raise ValueError(f"policy {policy!r} needs link {'logistic' if glm else 'linear'}, got {instance.link!r}")
    d, K = instance.dim, instance.n_arms
    S, R_lin = 1.0, instance.noise
    sig_V = sig_u = sig_g = 0.0
    if private:
        if epsilon is None or delta is None:
            raise ValueError(
                f"policy {policy!r} needs epsilon and delta (its (ε, δ)-LDP level), got "
                f"epsilon={epsilon!r}, delta={delta!r}"
            )
        if glm:
            mV, mu_, mg = gloc_mechanisms(epsilon, delta, 1.0)
        else:
            mV, mu_ = linucb_mechanisms(epsilon, delta, instance.y_max)
            mg = None
        scale = check_real("sigma_scale", sigma_scale)
        if scale < 0:
            raise ValueError(f"sigma_scale must be >= 0, got {sigma_scale!r}")
        sig_V, sig_u = mV.sigma * scale, mu_.sigma * scale
        sig_g = mg.sigma * scale if mg is not None else 0.0
    cps = resolve_checkpoints(horizon, checkpoints, 30)
    seconds, nbytes, work = contextual_cost(engine, d, K, horizon, runs, cps.size, bool(record_choices))
    check_limits("simulate_contextual", work, seconds, nbytes, limits)
    kappa = float(logistic_derivative(S))
    zeta = 1.0 / math.sqrt(horizon)
    n_up = d * (d + 1) // 2
    streams = [run_streams(ss, k=2) for ss in np.random.SeedSequence(seed).spawn(runs)]
    eye = np.eye(d)
    state = {"V": np.zeros((runs, d, d)), "u": np.zeros((runs, d)), "g": None}
    theta_ol = np.zeros((runs, d))  # online learner θ̃ / θ̂ (GLOC)
    A_ons = np.broadcast_to(lam * eye, (runs, d, d)).copy()
    theta_bar = np.zeros((runs, d))
    Vinv = np.broadcast_to(eye / lam, (runs, d, d)).copy()
    beta = 0.0
    cum = np.zeros(runs)
    out = np.zeros((runs, cps.size))
    choices = np.zeros((runs, horizon), dtype=np.int16) if record_choices else None
    ci = 0
    t0 = 0
    rr = np.arange(runs)
    log2Ta = math.log(2.0 * horizon / alpha)

    def width(t):
        """β_t and the shift c_t after t updates."""
        if policy == "linucb":
            return R_lin * math.sqrt(2 * math.log(2 / alpha) + d * math.log(1 + t / (d * lam))) + math.sqrt(
                lam
            ) * S, 0.0
        if policy == "gloc":
            B = 2 * kappa * S**2 + d * math.log(1 + t / (d * lam)) / (2 * kappa)
            return math.sqrt(lam * S**2 + float(gloc_a(B, kappa, 0.5, alpha))), 0.0
        ups = float(upsilon(sig_V, t, d, horizon, alpha))
        rmin, rmax = lam + ups, lam + 3 * ups
        gam = sig_u * math.sqrt(t) * (math.sqrt(d) + math.sqrt(2 * log2Ta)) / math.sqrt(rmin)
        if policy == "ldp-linucb":
            b = (
                R_lin * math.sqrt(2 * math.log(2 / alpha) + d * math.log(rmax / rmin + t / (d * rmin)))
                + S * math.sqrt(rmax)
                + gam
            )
        else:
            B = 2 * S**2 / zeta + zeta / 2 * t * (1 + d * sig_g**2)
            b = math.sqrt(float(gloc_a(B, kappa, 0.5, alpha)) + rmax * S**2) + gam
        return b, 2 * ups

    beta, _ = width(0)
    if engine == "numba":
        code = _CODES[policy]
        for r, (env_rng, noise_rng) in enumerate(streams):
            V = np.zeros((d, d))
            u = np.zeros(d)
            th_ol = np.zeros(d)
            A = lam * np.eye(d)
            th_bar = np.zeros(d)
            Vi = np.eye(d) / lam
            st = np.array([beta, 0.0])
            ci = 0
            ch = choices[r] if record_choices else np.zeros(1, dtype=np.int16)
            t0 = 0
            while t0 < horizon:
                m = min(CHUNK, horizon - t0)
                Xr = instance.draw_contexts(env_rng, m)
                Ur = env_rng.random(m)
                NVr = np.zeros((m, d, d))
                Nur = np.zeros((m, d))
                Ngr = np.zeros((m, d))
                if private:
                    NVr = symmetric_from_upper(noise_rng.standard_normal((m, n_up)) * sig_V, d)
                    Nur = noise_rng.standard_normal((m, d)) * sig_u
                    if glm:
                        Ngr = noise_rng.standard_normal((m, d)) * sig_g
                ci = _run_chunk(
                    code,
                    t0,
                    Xr,
                    Ur,
                    NVr,
                    Nur,
                    Ngr,
                    instance.theta,
                    float(instance.noise),
                    V,
                    u,
                    th_ol,
                    A,
                    th_bar,
                    Vi,
                    st,
                    lam,
                    alpha,
                    kappa,
                    sig_V,
                    sig_u,
                    sig_g,
                    zeta,
                    float(horizon),
                    cps,
                    ci,
                    out[r],
                    ch,
                    record_choices,
                )
                t0 += m
        return ContextualResult(
            policy=policy,
            horizon=horizon,
            runs=runs,
            seed=seed,
            epsilon=None if not private else float(epsilon),
            checkpoints=cps,
            regret=out,
            sigmas={"matrix": sig_V, "vector": sig_u, "gradient": sig_g},
            choices=choices,
        )
    while t0 < horizon:
        m = min(CHUNK, horizon - t0)
        X = np.empty((runs, m, K, d))
        U = np.empty((runs, m))
        NV = np.zeros((runs, m, d, d))
        Nu = np.zeros((runs, m, d))
        Ng = np.zeros((runs, m, d))
        for r, (env_rng, noise_rng) in enumerate(streams):
            X[r] = instance.draw_contexts(env_rng, m)
            U[r] = env_rng.random(m)
            if private:
                NV[r] = symmetric_from_upper(noise_rng.standard_normal((m, n_up)) * sig_V, d)
                Nu[r] = noise_rng.standard_normal((m, d)) * sig_u
                if glm:
                    Ng[r] = noise_rng.standard_normal((m, d)) * sig_g
        for j in range(m):
            t = t0 + j + 1
            x = X[:, j]  # (R, K, d)
            quad = np.einsum("rkd,rde,rke->rk", x, Vinv, x)
            ucb = np.einsum("rkd,rd->rk", x, theta_bar) + beta * np.sqrt(np.maximum(quad, 0.0))
            a = np.argmax(ucb, axis=1)
            if record_choices:
                choices[:, t - 1] = a
            z_true = x @ instance.theta  # (R, K)
            mean_all = instance.mean(z_true)
            xa = x[rr, a]
            cum += mean_all.max(axis=1) - mean_all[rr, a]
            if glm:
                y = (U[:, j] < mean_all[rr, a]).astype(float)
            else:
                y = z_true[rr, a] + instance.noise * (2 * U[:, j] - 1)
            if glm:
                z = np.einsum("rd,rd->r", xa, theta_ol)
                grad = logistic_loss_gradient(theta_ol, xa, y)
                rel = user_release(xa, z, NV[:, j], Nu[:, j], grad, Ng[:, j])
            else:
                rel = user_release(xa, y, NV[:, j], Nu[:, j])
            _server_update(state, rel)
            if glm:
                if private:  # noisy projected OGD (Alg. 3, line 11)
                    theta_ol = theta_ol - zeta * state["g"]
                else:  # ONS-GLM (Jun et al. 2017)
                    A_ons += xa[:, :, None] * xa[:, None, :]
                    step = np.linalg.solve(A_ons, xa[:, :, None])[:, :, 0]
                    lprime = logistic(z) - y  # ℓ'(xᵀθ̃, y)
                    theta_ol = theta_ol - lprime[:, None] / kappa * step
                nrm = np.linalg.norm(theta_ol, axis=1, keepdims=True)
                theta_ol = theta_ol / np.maximum(1.0, nrm / S)
            beta, c = width(t)
            Vbar = state["V"] + (lam + c) * eye
            Vinv = np.linalg.inv(Vbar)
            theta_bar = np.einsum("rde,re->rd", Vinv, state["u"])
            while ci < cps.size and cps[ci] == t:
                out[:, ci] = cum
                ci += 1
        t0 += m
    return ContextualResult(
        policy=policy,
        horizon=horizon,
        runs=runs,
        seed=seed,
        epsilon=None if not private else float(epsilon),
        checkpoints=cps,
        regret=out,
        sigmas={"matrix": sig_V, "vector": sig_u, "gradient": sig_g},
        choices=choices,
    )


def uniform_play_regret(instance: ContextualInstance, n_rounds: int = 100_000, seed: int = 0) -> float:
    r"""Per-round pseudo-regret of playing an arm uniformly at random, :math:`E[\max_a g(x_a^\top\theta^*) -
    \frac1K\sum_a g(x_a^\top\theta^*)]`, by Monte Carlo over ``n_rounds`` context draws: the linear-regret
    level against which a pre-asymptotic LDP learner is read."""
    n_rounds = check_int("n_rounds", n_rounds, minimum=1)
    m = instance.mean(instance.draw_contexts(np.random.default_rng(seed), n_rounds) @ instance.theta)
    return float((m.max(axis=1) - m.mean(axis=1)).mean())


@dataclass
class HorizonSweep:
    """Runs of one policy at several horizons: ``final`` (runs, H) regret at each horizon, ``fit`` the
    measured exponent (:func:`ldpcode.simulate.loglog_slope` of ``final`` on the horizons: slope, its
    bootstrap ``se`` and interval), ``curve`` the result at the largest horizon (with log-spaced
    checkpoints; its ``sigmas`` are the privacy noise sds)."""

    policy: str
    epsilon: float | None
    horizons: np.ndarray
    final: np.ndarray
    fit: SlopeFit
    curve: ContextualResult

    @property
    def mean(self):
        return self.final.mean(axis=0)

    @property
    def se(self):
        return self.final.std(axis=0, ddof=1) / math.sqrt(self.final.shape[0])


def horizon_sweep(
    policy: str,
    instance: ContextualInstance,
    horizons,
    runs: int,
    seed: int,
    *,
    epsilon=None,
    delta=None,
    alpha: float = 0.05,
    n_boot: int = 2000,
    limits: Limits | None = None,
) -> HorizonSweep:
    r"""``runs`` runs of ``policy`` at each horizon (the algorithms depend on T through ln(2T/α) and
    ζ = 1/√T, so each horizon is its own simulation, same seed), then the exponent of Table 1 of Zheng et al.
    (2020), :math:`\tilde O(T^{3/4}/\epsilon)` under LDP, :math:`\tilde O(T^{1/2})` without: the slope of log mean
    regret on log T, :func:`ldpcode.simulate.loglog_slope` with ``n_boot`` resamples of the runs (the same run
    indices at every horizon, as the runs of one seed share their streams). ``limits`` caps the estimated
    cost of all the horizons together (checked before the first)."""
    if isinstance(horizons, (str, bytes)) or np.ndim(horizons) != 1 or len(horizons) < 3:
        raise ValueError(f"horizons must be at least 3 increasing integers >= 2, got {horizons!r}")
    hs = np.array(
        [check_int(f"horizons[{i}]", T, minimum=2, maximum=MAX_HORIZON) for i, T in enumerate(horizons)], dtype=np.int64
    )
    if np.any(np.diff(hs) <= 0):
        raise ValueError(f"horizons must be at least 3 increasing integers >= 2, got {horizons!r}")
    if isinstance(instance, ContextualInstance):
        runs_ = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
        costs = [contextual_cost("numba", instance.dim, instance.n_arms, int(T), runs_, 30) for T in hs]
        check_limits(
            "horizon_sweep",
            f"{len(hs)} horizons up to {int(hs[-1])}, " + costs[-1][2],
            sum(c[0] for c in costs),
            max(c[1] for c in costs),
            limits,
        )
    results = [
        simulate_contextual(
            policy, instance, int(T), runs, seed, epsilon=epsilon, delta=delta, alpha=alpha, limits=limits
        )
        for T in hs
    ]
    final = np.stack([r.regret[:, -1] for r in results], axis=1)
    fit = loglog_slope(hs, final, n_boot=n_boot, seed=seed)
    return HorizonSweep(
        policy=policy,
        epsilon=None if epsilon is None else float(epsilon),
        horizons=hs,
        final=final,
        fit=fit,
        curve=results[-1],
    )


# ---------------------------------------------------------------- compiled engine ------------------
_CODES = {"linucb": 0, "ldp-linucb": 1, "gloc": 2, "ldp-gloc": 3}


@njit(cache=True)
def _gloc_a_nb(B, kappa, R, alpha):
    return (
        1
        + 4 * B / kappa
        + 8 * R**2 / kappa**2 * math.log(2 / alpha * math.sqrt(1 + 2 * B / kappa + 4 * R**4 / (kappa**4 * alpha**2)))
    )


@njit(cache=True)
def _width_nb(code, t, d, lam, R_lin, alpha, kappa, sig_V, sig_u, sig_g, zeta, horizon):
    """β_t and c_t, the same formulas as ``width`` inside :func:`simulate_contextual` (S = 1)."""
    S = 1.0
    if code == 0:
        return R_lin * math.sqrt(2 * math.log(2 / alpha) + d * math.log(1 + t / (d * lam))) + math.sqrt(lam) * S, 0.0
    if code == 2:
        B = 2 * kappa * S**2 + d * math.log(1 + t / (d * lam)) / (2 * kappa)
        return math.sqrt(lam * S**2 + _gloc_a_nb(B, kappa, 0.5, alpha)), 0.0
    log2Ta = math.log(2.0 * horizon / alpha)
    ups = sig_V * math.sqrt(t) * (4.0 * math.sqrt(d) + 2.0 * log2Ta)
    rmin = lam + ups
    rmax = lam + 3 * ups
    gam = sig_u * math.sqrt(t) * (math.sqrt(d) + math.sqrt(2 * log2Ta)) / math.sqrt(rmin)
    if code == 1:
        b = (
            R_lin * math.sqrt(2 * math.log(2 / alpha) + d * math.log(rmax / rmin + t / (d * rmin)))
            + S * math.sqrt(rmax)
            + gam
        )
    else:
        B = 2 * S**2 / zeta + zeta / 2 * t * (1 + d * sig_g**2)
        b = math.sqrt(_gloc_a_nb(B, kappa, 0.5, alpha) + rmax * S**2) + gam
    return b, 2 * ups


@njit(cache=True)
def _run_chunk(
    code,
    t0,
    X,
    U,
    NV,
    Nu,
    Ng,
    theta,
    noise,
    V,
    u,
    theta_ol,
    A_ons,
    theta_bar,
    Vinv,
    state,
    lam,
    alpha,
    kappa,
    sig_V,
    sig_u,
    sig_g,
    zeta,
    horizon,
    cps,
    ci,
    out,
    choices,
    record,
):
    """One run, ``X.shape[0]`` rounds from round t0 + 1: the loop body of :func:`simulate_contextual`
    (NumPy engine) compiled. ``state`` = [beta, cumulative regret]. Returns the next checkpoint index."""
    m, K, d = X.shape
    glm = code >= 2
    private = code == 1 or code == 3
    mean_all = np.empty(K)
    for j in range(m):
        t = t0 + j + 1
        beta = state[0]
        best = -np.inf
        a = 0
        for k in range(K):
            q = 0.0
            mu_k = 0.0
            for i in range(d):
                s = 0.0
                for l in range(d):
                    s += Vinv[i, l] * X[j, k, l]
                q += X[j, k, i] * s
                mu_k += X[j, k, i] * theta_bar[i]
            ucb = mu_k + beta * math.sqrt(max(q, 0.0))
            if ucb > best:
                best = ucb
                a = k
            zt = 0.0
            for i in range(d):
                zt += X[j, k, i] * theta[i]
            mean_all[k] = 0.5 * (1.0 + math.tanh(0.5 * zt)) if glm else zt
        if record:
            choices[t - 1] = a
        state[1] += mean_all.max() - mean_all[a]
        xa = X[j, a]
        if glm:
            y = 1.0 if U[j] < mean_all[a] else 0.0
            stat = 0.0
            for i in range(d):
                stat += xa[i] * theta_ol[i]
        else:
            zt = 0.0
            for i in range(d):
                zt += xa[i] * theta[i]
            y = zt + noise * (2 * U[j] - 1)
            stat = y
        # the user's release, accumulated by the server
        for i in range(d):
            for l in range(d):
                V[i, l] += xa[i] * xa[l] + NV[j, i, l]
            u[i] += stat * xa[i] + Nu[j, i]
        if glm:
            lprime = 0.5 * (1.0 + math.tanh(0.5 * stat)) - y
            if private:
                for i in range(d):
                    theta_ol[i] -= zeta * (lprime * xa[i] + Ng[j, i])
            else:
                for i in range(d):
                    for l in range(d):
                        A_ons[i, l] += xa[i] * xa[l]
                step = np.linalg.solve(A_ons, xa.copy())
                for i in range(d):
                    theta_ol[i] -= lprime / kappa * step[i]
            nrm = math.sqrt(np.sum(theta_ol**2))
            if nrm > 1.0:
                for i in range(d):
                    theta_ol[i] /= nrm
        beta, c = _width_nb(code, t, d, lam, noise, alpha, kappa, sig_V, sig_u, sig_g, zeta, horizon)
        state[0] = beta
        Vbar = V.copy()
        for i in range(d):
            Vbar[i, i] += lam + c
        Vinv[:, :] = np.linalg.inv(Vbar)
        for i in range(d):
            s = 0.0
            for l in range(d):
                s += Vinv[i, l] * u[l]
            theta_bar[i] = s
        while ci < cps.shape[0] and cps[ci] == t:
            out[ci] = state[1]
            ci += 1
    return ci
