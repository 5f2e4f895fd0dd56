r"""Simulation of the contextual bandits of Zheng et al. (2020), Sections 4-5: LinUCB and LDP LinUCB
(Theorems 7-8), GLOC and LDP GLOC (Algorithm 3, Theorems 9-10), and the horizon sweeps that measure the
regret exponents of their Table 1.

* :data:`POLICIES`, :func:`make_learner`, :class:`ContextualLearner`: each policy as an engine policy
  (:class:`ldpcode.engine.BanditPolicy`), which :func:`ldpcode.simulate` runs on a contextual instance, one
  run at a time on the compiled loop (:mod:`ldpcode.contextual.kernels`).
* :func:`simulate_contextual`, :class:`ContextualResult`: R runs of a policy, by that engine
  (:func:`ldpcode.engine.run`) or by the NumPy reference engine, which runs every run at once and makes the
  user/server split explicit (:func:`ldpcode.contextual.user_release`, ``_server_update``, looked up here),
  after the same checks (:func:`ldpcode.engine.prepare`). Both go by chunks of
  :data:`~ldpcode.contextual.kernels.ROUNDS_PER_DRAW` rounds, the size the draws are laid out by
  (:func:`ldpcode.engine.run_in_chunks`, looked up here).
* :func:`contextual_cost`: the estimated time and memory of a call, checked against its limits.
* :func:`uniform_play_regret`: the per-round regret of uniform play, the linear-regret level.
* :class:`HorizonSweep`, :func:`horizon_sweep`: runs at several horizons and the log-log slope of the
  final regret, against :math:`\tilde O(T^{3/4}/\epsilon)` (LDP) and :math:`\tilde O(T^{1/2})` (non-private).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from .._validate import check_int, check_real
from ..engine import prepare, refuse_privacy_levels, run_in_chunks
from ..engine import run as run_policy
from ..limits import MAX_HORIZON, MAX_RUNS, Limits, check_limits
from ..results import RegretCurves
from ..rng import run_streams
from ..exponents import SlopeFit, loglog_slope
from .instance import ContextualInstance
from .kernels import (
    _CODES,
    ROUNDS_PER_DRAW,
    ChunkDraws,
    Environment,
    LearnerState,
    Recorder,
    Tuning,
    _run_chunk,
    _width_nb,
)
from .link import logistic, logistic_derivative, logistic_loss_gradient
from .privacy import (
    _server_update,
    gloc_mechanisms,
    linucb_mechanisms,
    symmetric_from_upper,
    user_release,
)

POLICIES = ("linucb", "ldp-linucb", "gloc", "ldp-gloc")
S = 1.0
"""The bound S on ||θ*|| (Section 4) that the widths and GLOC's projection use."""
KAPPA = float(logistic_derivative(S))
"""κ = μ'(S), the logistic link's smallest slope on the ball of radius S (GLOC's ONS step and widths)."""


def _ogd_step(horizon: int) -> float:
    """ζ = 1/√T, the step of LDP GLOC's noisy projected OGD (Algorithm 3); also in its width's B_t."""
    return 1.0 / math.sqrt(horizon)


@dataclass
class ContextualResult(RegretCurves):
    """A :class:`ldpcode.results.RegretCurves`: ``regret`` (runs, C) pseudo-regret at ``checkpoints``;
    ``choices`` (runs, T) if recorded; ``sigmas`` the noise sds used; ``epsilon`` None for a non-private
    policy; ``name`` is ``policy``."""

    policy: str
    horizon: int
    runs: int
    seed: int
    epsilon: float | None
    checkpoints: np.ndarray
    regret: np.ndarray
    sigmas: dict = field(default_factory=dict)
    choices: np.ndarray | None = None

    @property
    def name(self) -> str:
        return self.policy


def contextual_cost(
    engine: str, dim: int, n_arms: int, horizon: int, runs: int, n_checkpoints: int, record_choices: bool = False
) -> tuple[float, float, str]:
    """Estimated (core-seconds, bytes, description) of one :func:`simulate_contextual` call, at the per-core
    costs of :mod:`ldpcode.limits`: a round costs 2 µs + 6 ns K d² + 1.5 ns d³ (numba engine, one run at a
    time) or 100 µs + runs (5 µs + 10 ns K d² + 2 ns d³) (numpy engine, all runs at once). Memory: the
    regrets (runs, C), the choices (runs, T) int16 if recorded, 12 KiB a run (its two generators) and the
    draws of a chunk of ``ROUNDS_PER_DRAW`` rounds (for every run at once with the numpy engine)."""
    d, K = dim, n_arms
    per_round = d * K + d * d + 2 * d + 1  # doubles drawn per round: contexts, noises, uniform
    if engine == "numba":
        us = 2.0 + 6e-3 * K * d * d + 1.5e-3 * d**3
        seconds = runs * horizon * us * 1e-6
        chunk = 3 * ROUNDS_PER_DRAW * per_round * 8
        unit = f"{us:.3g} µs a round"
    else:
        us = 100.0 + runs * (5.0 + 1e-2 * K * d * d + 2e-3 * d**3)
        seconds = horizon * us * 1e-6
        chunk = runs * (3 * ROUNDS_PER_DRAW * per_round * 8 + 16 * d * d * 8)
        unit = f"{us:.3g} µs a round for all runs"
    nbytes = runs * (n_checkpoints * 8 + 12 * 1024) + chunk + (runs * horizon * 2 if record_choices else 0)
    work = (
        f"runs={runs} x horizon={horizon} = {runs * horizon:.3g} rounds (d={d}, K={K}, engine={engine!r}) "
        f"at {unit}" + (", choices recorded" if record_choices else "")
    )
    return seconds, nbytes, work


@dataclass(frozen=True)
class ContextualLearner:
    r"""A policy of :data:`POLICIES` as an engine policy (:class:`ldpcode.engine.BanditPolicy`): LinUCB and
    LDP LinUCB (Theorems 7-8 of Zheng et al. 2020), GLOC and LDP GLOC (Algorithm 3, Theorems 9-10) on a
    :class:`~ldpcode.contextual.ContextualInstance` (linear link for the LinUCB pair, logistic for GLOC), one run
    at a time on the compiled loop (:mod:`ldpcode.contextual.kernels`, one thread: it holds the GIL), 30
    checkpoints by default. Run r draws the contexts and the rewards' uniforms from the first of
    ``run_streams(seed_seq, 2)`` and the privacy noises from the second, chunk by chunk (:data:`ROUNDS_PER_DRAW` rounds,
    :func:`ldpcode.engine.run_in_chunks`, looked up here). Build it with :func:`make_learner`.

    ``engine`` "numpy" is the vectorised reference engine of :func:`simulate_contextual`, which runs every run at
    once and so is not a per-run policy: only its cost estimate is used."""

    policy: str
    epsilon: float | None = None
    delta: float | None = None
    alpha: float = 0.05
    lam: float = 1.0
    sigma_scale: float = 1.0
    record_choices: bool = False
    engine: str = "numba"

    environment_type = ContextualInstance
    environment_source = "ldpcode.contextual.make_contextual_instance()"
    threads = 1
    checkpoint_count = 30

    @property
    def name(self) -> str:
        return self.policy

    @property
    def private(self) -> bool:
        return self.policy.startswith("ldp")

    @property
    def glm(self) -> bool:
        return self.policy.endswith("gloc")

    @property
    def label(self) -> float:
        return math.inf if self.epsilon is None else float(self.epsilon)

    def min_horizon(self, instance) -> int:
        return 1

    def check_environment(self, instance, privacy_levels) -> None:
        refuse_privacy_levels(self, privacy_levels)
        if self.glm != (instance.link == "logistic"):
            link = "logistic" if self.glm else "linear"
            raise ValueError(f"policy {self.policy!r} needs link {link}, got {instance.link!r}")

    def cost(self, instance, horizon: int, runs: int, n_checkpoints: int, workers: int):
        d, K = instance.dim, instance.n_arms
        return contextual_cost(self.engine, d, K, horizon, runs, n_checkpoints, self.record_choices)

    def sigmas(self, instance) -> tuple[float, float, float]:
        """The privacy noise sds (matrix, vector, gradient), times ``sigma_scale``; zeros when not private."""
        if not self.private:
            return 0.0, 0.0, 0.0
        if self.glm:
            mV, mu_, mg = gloc_mechanisms(self.epsilon, self.delta, 1.0)
        else:
            mV, mu_ = linucb_mechanisms(self.epsilon, self.delta, instance.y_max)
            mg = None
        scale = self.sigma_scale
        return mV.sigma * scale, mu_.sigma * scale, (mg.sigma * scale if mg is not None else 0.0)

    def width_function(self, instance, horizon: int):
        """``width(t)``: β_t and the shift c_t after t updates (the confidence widths of Theorems 7-10), by the
        one copy of their formulas, :func:`ldpcode.contextual.kernels._width_nb` (both engines call it)."""
        args = (instance.dim, self.lam, instance.noise, self.alpha, KAPPA, *self.sigmas(instance))
        code, zeta = _CODES[self.policy], _ogd_step(horizon)
        return lambda t: _width_nb(code, t, *args, zeta, horizon)

    def noise_function(self, instance):
        """``draw_noise(noise_rng, m)``: a chunk's privacy noises, matrix, vector, gradient (zeros when not
        private)."""
        d = instance.dim
        sig_V, sig_u, sig_g = self.sigmas(instance)
        n_up = d * (d + 1) // 2
        private, glm = self.private, self.glm

        def draw_noise(noise_rng, m):
            NV, Nu, Ng = np.zeros((m, d, d)), np.zeros((m, d)), np.zeros((m, d))
            if private:
                NV = symmetric_from_upper(noise_rng.standard_normal((m, n_up)) * sig_V, d)
                Nu = noise_rng.standard_normal((m, d)) * sig_u
                if glm:
                    Ng = noise_rng.standard_normal((m, d)) * sig_g
            return NV, Nu, Ng

        return draw_noise

    def run_one(self, instance, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        """One run on the compiled loop, chunk by chunk; returns (its regret at the checkpoints, its choices or
        None)."""
        if self.engine != "numba":
            raise ValueError(
                "the numpy engine runs every run at once: call simulate_contextual(..., engine='numpy'), not a "
                "per-run engine"
            )
        d, lam = instance.dim, self.lam
        sig_V, sig_u, sig_g = self.sigmas(instance)
        width, draw_noise = self.width_function(instance, horizon), self.noise_function(instance)
        code, record = _CODES[self.policy], self.record_choices
        env_rng, noise_rng = run_streams(seed_seq, k=2)
        V, u, th_ol, th_bar = np.zeros((d, d)), np.zeros(d), np.zeros(d), np.zeros(d)
        A, Vi = lam * np.eye(d), np.eye(d) / lam
        st = np.array([width(0)[0], 0.0])
        out = np.zeros(checkpoints.size)
        ch = np.zeros(horizon if record else 1, dtype=np.int16)
        env = Environment(instance.theta, float(instance.noise))
        learner = LearnerState(V, u, th_ol, A, th_bar, Vi, st)
        tuning = Tuning(lam, self.alpha, KAPPA, sig_V, sig_u, sig_g, _ogd_step(horizon), float(horizon))
        recorder = Recorder(checkpoints, out, ch, record)

        def step(t0, ci, m):
            Xr = instance.draw_contexts(env_rng, m)
            Ur = env_rng.random(m)
            NVr, Nur, Ngr = draw_noise(noise_rng, m)
            draws = ChunkDraws(Xr, Ur, NVr, Nur, Ngr)
            ci = _run_chunk(code, t0, draws, env, learner, tuning, recorder, ci)
            return t0 + m, ci

        run_in_chunks(horizon, cancel, step, ROUNDS_PER_DRAW)
        return out, (ch if record else None)

    def result(self, instance, horizon, runs, seed, checkpoints, outputs) -> ContextualResult:
        regret = np.stack([o[0] for o in outputs])
        choices = np.stack([o[1] for o in outputs]) if self.record_choices else None
        return self._result(horizon, runs, seed, checkpoints, regret, instance, choices)

    def _result(self, horizon, runs, seed, checkpoints, regret, instance, choices) -> ContextualResult:
        sig_V, sig_u, sig_g = self.sigmas(instance)
        return ContextualResult(
            policy=self.policy,
            horizon=horizon,
            runs=runs,
            seed=seed,
            epsilon=float(self.epsilon) if self.private else None,
            checkpoints=checkpoints,
            regret=regret,
            sigmas={"matrix": sig_V, "vector": sig_u, "gradient": sig_g},
            choices=choices,
        )


def make_learner(
    policy: str,
    *,
    epsilon=None,
    delta=None,
    alpha: float = 0.05,
    lam: float = 1.0,
    sigma_scale: float = 1.0,
    record_choices: bool = False,
) -> ContextualLearner:
    """A contextual policy of :data:`POLICIES` for the engine (:func:`ldpcode.simulate` runs it on a
    :func:`~ldpcode.contextual.make_contextual_instance`).

    ``epsilon``, ``delta`` are required for the LDP policies and refused for the non-private ones (a privacy
    level given to "linucb" or "gloc" would be ignored, and the run would not be private). ``alpha`` in (0, 1)
    is the confidence level of the widths, ``lam`` > 0 the ridge regulariser. ``sigma_scale`` >= 0 multiplies
    every privacy noise sd (1 = the calibrated mechanism; tests use it; LDP policies only). ``record_choices``
    keeps every round's arm (the result's ``choices``, runs x T int16)."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}, got {policy!r}")
    sigma_scale = check_real("sigma_scale", sigma_scale)
    if sigma_scale < 0:
        raise ValueError(f"sigma_scale must be >= 0, got {sigma_scale!r}")
    alpha = check_real("alpha", alpha)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    lam = check_real("lam", lam)
    if lam < 1e-8:  # at 1e-300, V = lam I + sum x x^T was singular mid-run (a LinAlgError naming nothing)
        raise ValueError(f"lam must be >= 1e-8 (the ridge keeps the design matrix invertible), got {lam!r}")
    private = policy.startswith("ldp")
    if not private and (epsilon is not None or delta is not None):
        raise ValueError(
            f"policy {policy!r} is not private and takes no epsilon or delta (they would be ignored), "
            f"got epsilon={epsilon!r}, delta={delta!r}; the (ε, δ)-LDP version is 'ldp-{policy}'"
        )
    if not private and sigma_scale != 1.0:
        raise ValueError(
            f"sigma_scale scales privacy noise, which policy {policy!r} does not add; got "
            f"sigma_scale={sigma_scale!r} (use an 'ldp-' policy)"
        )
    if private and (epsilon is None or delta is None):
        raise ValueError(
            f"policy {policy!r} needs epsilon and delta (its (ε, δ)-LDP level), got epsilon={epsilon!r}, delta={delta!r}"
        )
    if private:  # validates epsilon and delta now, before any work (the sensitivity does not matter here)
        (gloc_mechanisms if policy.endswith("gloc") else linucb_mechanisms)(epsilon, delta, 1.0)
    return ContextualLearner(policy, epsilon, delta, alpha, lam, sigma_scale, bool(record_choices))


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
    """Simulate ``runs`` independent runs of ``policy`` (see the module docstring) on ``instance``: the
    engine (:func:`ldpcode.engine.run`) running ``make_learner(policy, ...)`` (its arguments are
    :func:`make_learner`'s).

    ``engine``: "numba" (compiled, one run at a time, ~10x faster) or "numpy" (vectorised across runs,
    with the user/server split made explicit through :func:`user_release` and ``_server_update``, which
    the tests instrument: the plain reference the compiled loop is tested against; same checks, through
    :func:`ldpcode.engine.prepare`). Both draw the same random numbers and are tested to make the same choices.
    ``checkpoints`` (default 30 log-spaced) must end at ``horizon``; ``limits`` caps the estimated time and
    memory (:func:`contextual_cost`, :class:`ldpcode.limits.Limits`). Returns a :class:`ContextualResult`."""
    if engine not in ("numba", "numpy"):
        raise ValueError(f"engine must be 'numba' or 'numpy', got {engine!r}")
    learner = make_learner(
        policy,
        epsilon=epsilon,
        delta=delta,
        alpha=alpha,
        lam=lam,
        sigma_scale=sigma_scale,
        record_choices=record_choices,
    )
    where = dict(checkpoints=checkpoints, limits=limits, call="simulate_contextual")
    if engine == "numba":
        return run_policy(learner, instance, horizon, runs, seed, **where)
    learner = replace(learner, engine="numpy")
    return _simulate_numpy(learner, instance, prepare(learner, instance, horizon, runs, seed, **where))


def _simulate_numpy(learner: ContextualLearner, instance: ContextualInstance, call) -> ContextualResult:
    """The vectorised reference engine: rounds t0 + 1 .. t0 + m of every run at once, with the user's release
    (:func:`user_release`) and the server's update (``_server_update``) as separate steps."""
    horizon, runs, cps = call.horizon, call.runs, call.checkpoints
    d, K, lam = instance.dim, instance.n_arms, learner.lam
    private, glm, record_choices = learner.private, learner.glm, learner.record_choices
    kappa, zeta = KAPPA, _ogd_step(horizon)
    width, draw_noise = learner.width_function(instance, horizon), learner.noise_function(instance)
    rr = np.arange(runs)
    out = np.zeros((runs, cps.size))
    choices = np.zeros((runs, horizon), dtype=np.int16) if record_choices else None
    streams = [run_streams(ss, k=2) for ss in call.seed_sequences()]
    eye = np.eye(d)
    state = {"V": np.zeros((runs, d, d)), "u": np.zeros((runs, d)), "g": None}
    theta_ol = np.zeros((runs, d))  # online learner θ̃ / θ̂ (GLOC)
    A_ons = np.broadcast_to(lam * eye, (runs, d, d)).copy()
    theta_bar = np.zeros((runs, d))
    Vinv = np.broadcast_to(eye / lam, (runs, d, d)).copy()
    beta, _ = width(0)
    cum = np.zeros(runs)

    def step(t0, ci, m):
        """Rounds t0 + 1 .. t0 + m of every run at once."""
        nonlocal theta_ol, A_ons, theta_bar, Vinv, beta, cum
        X = np.empty((runs, m, K, d))
        U = np.empty((runs, m))
        NV = np.zeros((runs, m, d, d))
        Nu = np.zeros((runs, m, d))
        Ng = np.zeros((runs, m, d))
        for r, (env_rng, noise_rng) in enumerate(streams):
            X[r] = instance.draw_contexts(env_rng, m)
            U[r] = env_rng.random(m)
            NV[r], Nu[r], Ng[r] = draw_noise(noise_rng, m)
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
                    ons_step = np.linalg.solve(A_ons, xa[:, :, None])[:, :, 0]
                    lprime = logistic(z) - y  # ℓ'(xᵀθ̃, y)
                    theta_ol = theta_ol - lprime[:, None] / kappa * ons_step
                nrm = np.linalg.norm(theta_ol, axis=1, keepdims=True)
                theta_ol = theta_ol / np.maximum(1.0, nrm / S)
            beta, c = width(t)
            Vbar = state["V"] + (lam + c) * eye
            Vinv = np.linalg.inv(Vbar)
            theta_bar = np.einsum("rde,re->rd", Vinv, state["u"])
            while ci < cps.size and cps[ci] == t:
                out[:, ci] = cum
                ci += 1
        return t0 + m, ci

    run_in_chunks(horizon, None, step, ROUNDS_PER_DRAW)  # in the calling thread: Ctrl-C is raised between rounds
    return learner._result(horizon, runs, call.seed, cps, out, instance, choices)


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
    measured exponent (:func:`ldpcode.exponents.loglog_slope` of ``final`` on the horizons: slope, its
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
    regret on log T, :func:`ldpcode.exponents.loglog_slope` with ``n_boot`` resamples of the runs (the same run
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
