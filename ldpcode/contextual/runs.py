r"""Simulation of the contextual bandits of Zheng et al. (2020), Sections 4-5: LinUCB and LDP LinUCB
(Theorems 7-8), GLOC and LDP GLOC (Algorithm 3, Theorems 9-10), and the horizon sweeps that measure the
regret exponents of their Table 1.

* :data:`POLICIES`, :class:`ContextualResult`, :func:`simulate_contextual`: R runs of a policy, by the
  numba engine (:mod:`ldpcode.contextual.kernels`) or by the NumPy engine, which makes the user/server
  split explicit (:func:`ldpcode.contextual.user_release`, ``_server_update``, looked up here). Both go
  through the engine every simulator shares: :func:`ldpcode.engine.run_in_chunks` (chunks of
  :data:`~ldpcode.contextual.kernels.CHUNK` rounds, the size the draws are laid out by) and, for the
  numba engine, :func:`ldpcode.limits.run_pool` (one thread; both names looked up here).
* :func:`contextual_cost`: the estimated time and memory of a call, checked against its limits.
* :func:`uniform_play_regret`: the per-round regret of uniform play, the linear-regret level.
* :class:`HorizonSweep`, :func:`horizon_sweep`: runs at several horizons and the log-log slope of the
  final regret, against :math:`\tilde O(T^{3/4}/\epsilon)` (LDP) and :math:`\tilde O(T^{1/2})` (non-private).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._validate import check_int, check_real
from ..engine import run_in_chunks
from ..limits import MAX_HORIZON, MAX_RUNS, Limits, check_limits, run_pool
from ..results import RegretCurves
from ..rng import run_streams
from ..simulate import resolve_checkpoints
from ..stats import SlopeFit, loglog_slope
from .instance import ContextualInstance
from .kernels import _CODES, CHUNK, _run_chunk
from .link import logistic, logistic_derivative, logistic_loss_gradient
from .privacy import (
    _server_update,
    gloc_a,
    gloc_mechanisms,
    linucb_mechanisms,
    symmetric_from_upper,
    upsilon,
    user_release,
)

POLICIES = ("linucb", "ldp-linucb", "gloc", "ldp-gloc")


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
    estimated time and memory (:func:`contextual_cost`, :class:`ldpcode.limits.Limits`). Returns a
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
    children = np.random.SeedSequence(seed).spawn(runs)
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

    def draw_noise(noise_rng, m):
        """The chunk's privacy noises (zero for a non-private policy): matrix, vector, gradient."""
        NV, Nu, Ng = np.zeros((m, d, d)), np.zeros((m, d)), np.zeros((m, d))
        if private:
            NV = symmetric_from_upper(noise_rng.standard_normal((m, n_up)) * sig_V, d)
            Nu = noise_rng.standard_normal((m, d)) * sig_u
            if glm:
                Ng = noise_rng.standard_normal((m, d)) * sig_g
        return NV, Nu, Ng

    out = np.zeros((runs, cps.size))
    choices = np.zeros((runs, horizon), dtype=np.int16) if record_choices else None
    beta0, _ = width(0)
    if engine == "numba":
        code = _CODES[policy]

        def one(r, cancel):
            """Run r on the compiled loop, chunk by chunk; it fills ``out[r]`` (and ``choices[r]``)."""
            env_rng, noise_rng = run_streams(children[r], k=2)
            V, u, th_ol, th_bar = np.zeros((d, d)), np.zeros(d), np.zeros(d), np.zeros(d)
            A, Vi = lam * np.eye(d), np.eye(d) / lam
            st = np.array([beta0, 0.0])
            ch = choices[r] if record_choices else np.zeros(1, dtype=np.int16)

            def step(t0, ci, m):
                Xr = instance.draw_contexts(env_rng, m)
                Ur = env_rng.random(m)
                NVr, Nur, Ngr = draw_noise(noise_rng, m)
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
                return t0 + m, ci

            run_in_chunks(horizon, cancel, step, CHUNK)

        run_pool(one, runs, 1)
    else:
        streams = [run_streams(ss, k=2) for ss in children]
        eye = np.eye(d)
        state = {"V": np.zeros((runs, d, d)), "u": np.zeros((runs, d)), "g": None}
        theta_ol = np.zeros((runs, d))  # online learner θ̃ / θ̂ (GLOC)
        A_ons = np.broadcast_to(lam * eye, (runs, d, d)).copy()
        theta_bar = np.zeros((runs, d))
        Vinv = np.broadcast_to(eye / lam, (runs, d, d)).copy()
        beta = beta0
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

        run_in_chunks(horizon, None, step, CHUNK)  # in the calling thread: Ctrl-C is raised between rounds
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
    measured exponent (:func:`ldpcode.stats.loglog_slope` of ``final`` on the horizons: slope, its
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
    regret on log T, :func:`ldpcode.stats.loglog_slope` with ``n_boot`` resamples of the runs (the same run
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
