r"""The drivers: :func:`simulate_one_point` (Algorithm 1 of Zheng et al. 2020 around the sphere learner,
or the barrier learners with ``learner="barrier"``) and :func:`simulate_two_point` (Algorithm 2), their
schedules (:func:`one_point_tuning`, :func:`barrier_tuning`, :func:`two_point_tuning`), their result
(:class:`BCOResult`), cost estimate (:func:`bco_cost`) and shared checks (``_common``, :data:`DEFAULT_DELTA`),
and :func:`hazan_levy_exploration_cost`.

The runs go through the engine every simulator shares: :func:`ldpcode.limits.run_pool` (one worker thread:
the compiled BCO kernels hold the GIL; run r draws from its own streams, so the result is that of the
sequential loop) and, inside a run, :func:`ldpcode.engine.run_in_chunks` with chunks of :data:`BCO_CHUNK`
rounds (Ctrl-C is seen between them). Both names are looked up in this module at call time: patch them
here, in ``ldpcode.bco.runs`` (the copy of :data:`BCO_CHUNK` that :mod:`ldpcode.bco` re-exports is not read).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import check_int, check_real
from ..engine import run_in_chunks
from ..limits import MAX_HORIZON, MAX_RUNS, Limits, check_limits, run_pool
from ..mechanisms import GaussianMechanism
from ..results import RegretCurves
from ..rng import run_streams
from ..simulate import resolve_checkpoints
from .environments import _ENV_CODE, Environment, _check_positive, make_environment
from .geometry import BARRIER_NU
from .kernels import _barrier_chunk, _one_point_chunk, _two_point_chunk
from .privacy import noisy_range, one_point_sigma, two_point_sigma


LEARNERS = ("sphere", "barrier")


@dataclass
class BCOResult(RegretCurves):
    """A :class:`ldpcode.results.RegretCurves`: ``regret`` (runs, C) at ``checkpoints`` (C,); the tuning actually
    used (``sigma``, ``eta0``, ``rho0``/``rho`` or ``delta0``/``beta``/``nu``, ``B_tilde``/``G_tilde``) and
    ``steps`` = runs * horizon (for steps/s). ``algorithm`` (also ``name``): "one-point" (sphere),
    "one-point-hazan-levy", "one-point-saha-tewari", "two-point"; ``epsilon`` is inf for a non-private run."""

    algorithm: str
    environment: str
    d: int
    horizon: int
    runs: int
    seed: int
    epsilon: float
    delta: float
    sigma: float
    tuning: dict
    checkpoints: np.ndarray
    regret: np.ndarray
    max_norm: np.ndarray | None = None  # barrier learners: max_t ||y_t|| of each run (< 1: inside X)

    @property
    def name(self) -> str:
        return self.algorithm

    @property
    def steps(self) -> int:
        return self.runs * self.horizon


BCO_CHUNK = 1 << 16  # rounds per compiled call (a few ms to tens of ms): Ctrl-C is seen between calls


def bco_cost(algorithm: str, d: int, horizon: int, runs: int, n_checkpoints: int) -> tuple[float, float, str]:
    """Estimated (core-seconds, bytes, description) of one BCO simulation call: ``algorithm`` "one-point"
    (sphere), "two-point" or "barrier", at the per-core costs of :mod:`ldpcode.limits` (150 + 10d,
    150 + 17d and 250 + 12d ns a round); memory: the regrets (runs, C) and 1 KiB a run."""
    ns = {"one-point": 150 + 10 * d, "two-point": 150 + 17 * d, "barrier": 250 + 12 * d}[algorithm]
    seconds = runs * horizon * ns * 1e-9
    nbytes = runs * (n_checkpoints * 8 + 8 + 1024) + 64 * d * 8
    work = (
        f"runs={runs} x horizon={horizon} = {runs * horizon:.3g} rounds of the {algorithm} learner (d={d}) "
        f"at {ns} ns a round"
    )
    return seconds, nbytes, work


def _run_all(T: int, runs: int, seed: int, new_run) -> list:
    """Every run of a BCO driver through the shared engine, as a list of each run's outputs.

    Run r's generators are ``run_streams(SeedSequence(seed).spawn(runs)[r], 2)`` (sphere directions and
    stochastic noise; curator noise). ``new_run()`` makes one run's state and returns ``(advance, outputs)``:
    ``advance(t0, t1, g_u, g_z)`` plays rounds t0 + 1 .. t1 by one call of a compiled kernel that keeps the
    run's state in its arrays, ``outputs`` what that run returns (the arrays the kernel fills). The rounds go
    by chunks of :data:`BCO_CHUNK` (:func:`ldpcode.engine.run_in_chunks`), the runs through
    :func:`ldpcode.limits.run_pool` on one thread."""
    children = np.random.SeedSequence(seed).spawn(runs)

    def one(r, cancel):
        g_u, g_z = run_streams(children[r], 2)
        advance, outputs = new_run()

        def step(t, ci, m):
            advance(t, t + m, g_u, g_z)
            return t + m, ci

        run_in_chunks(T, cancel, step, BCO_CHUNK)
        return outputs

    return run_pool(one, runs, 1)


DEFAULT_DELTA = 1e-5
"""The δ of a private BCO run when none is given (Zheng et al.'s experiments-free default of the book)."""


def _common(environment, d, horizon, runs, seed, epsilon, delta):
    """Checked (environment, T, runs, seed, delta). ``delta`` belongs to a private run: None there means
    :data:`DEFAULT_DELTA`; a non-private run (``epsilon=None``) given a delta is refused, as a privacy
    argument it would silently ignore. The non-private run's δ is nan (it has none)."""
    env = make_environment(environment, d)
    T = check_int("horizon", horizon, minimum=2, maximum=MAX_HORIZON)
    runs = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
    seed = check_int("seed", seed, minimum=0)
    if epsilon is None:
        if delta is not None:
            raise ValueError(
                f"delta is a privacy argument: a non-private run (epsilon=None) takes none, got "
                f"delta={delta!r}; pass epsilon for a private run, or leave delta out"
            )
        return env, T, runs, seed, math.nan
    delta = DEFAULT_DELTA if delta is None else delta
    GaussianMechanism(epsilon, delta, 1.0)  # validates epsilon and delta
    return env, T, runs, seed, delta


def one_point_tuning(env: Environment, horizon: int, sigma: float, delta: float, rho_max: float = 0.5) -> dict:
    r"""Schedules of the one-point sphere-sampling gradient descent (anytime versions of Flaxman et al.
    2005 and Agarwal et al. 2010), tuned for losses of range :math:`\tilde B` = :func:`noisy_range`
    (Theorem 3 of Zheng et al.: the black box is run on the virtual losses f_t + Z_t, whose Lipschitz
    constant in x is still G), R = 1:

    * convex: from :math:`R^2/\eta + \eta T (d\tilde B/\rho)^2 + 3G\rho T`,
      :math:`\rho_t = \min(\rho_{max}, \rho_0 t^{-1/4})`, :math:`\rho_0 = \sqrt{2Rd\tilde B/(3G)}`,
      :math:`\eta_t = \eta_0 t^{-3/4}`, :math:`\eta_0 = R\rho_0/(d\tilde B)`: regret
      :math:`O(\sqrt{d\tilde B G R}\,T^{3/4})`;
    * μ-strongly convex: :math:`\eta_t = 1/(\mu t)`, from :math:`(d\tilde B/\rho)^2 \log T/\mu + 3G\rho T`,
      :math:`\rho_t = \min(\rho_{max}, \rho_0 t^{-1/3})`, :math:`\rho_0 = (d^2\tilde B^2/(3\mu G))^{1/3}`:
      regret :math:`O((d\tilde B)^{2/3}(G/\mu)^{1/3} T^{2/3})` up to log factors.

    ρ is capped at ``rho_max`` < r = 1 so that (1 - ρ)X is not empty.
    """
    Bt = noisy_range(env.B, sigma, horizon, delta)
    if env.mu > 0:
        rho0 = (env.d**2 * Bt**2 / (3 * env.mu * env.G)) ** (1 / 3)
        eta0 = 1.0 / env.mu
    else:
        rho0 = math.sqrt(2 * env.d * Bt / (3 * env.G))
        eta0 = rho0 / (env.d * Bt)
    return dict(B_tilde=Bt, rho0=rho0, eta0=eta0, rho_max=rho_max)


def barrier_tuning(
    env: Environment, horizon: int, sigma: float, delta: float, strongly_convex: bool, beta: float | None = None
) -> dict:
    r"""Schedules of the barrier learners (anytime: they depend on t, and on T only through
    :math:`\tilde B` = :func:`noisy_range`, computed, as for the sphere learner, with the run's largest
    horizon), tuned for losses of range :math:`\tilde B` (Theorem 3 of Zheng et al.), ν = :data:`BARRIER_NU`
    = 1, β the smoothness constant (``beta``, default the environment's; for the linear and constant
    losses, which are β-smooth for every β >= 0, the default is β = 1: the learner is tuned for the class
    of 1-smooth convex losses, not for the instance; at β = 0 Saha and Tewari's δ would be 1 for ever,
    which is SCRiBLe, a √T algorithm for linear losses).

    * **Hazan and Levy (2014), Algorithm 1** (μ-strongly convex and β-smooth; ``strongly_convex=True``):
      :math:`A_t = \nabla^2R(x_t) + \eta_t\mu t I`, :math:`y_t = x_t + A_t^{-1/2}u_t`,
      :math:`g_t = d\,\tilde f_t(y_t)\,A_t^{1/2}u_t`,
      :math:`x_{t+1} = \arg\min_x \eta_t\sum_{s\le t}[g_s^\top x + \frac\mu2\lVert x - x_s\rVert^2] + R(x)`.
      Their bound has three terms: the regulariser :math:`\nu\ln T/\eta`, the stability
      :math:`2\eta\lVert g_t\rVert^2_{t,*} \le 2\eta d^2\tilde B^2` per round (the local norm of the
      estimate is exactly :math:`d|\tilde f_t|`), and the exploration :math:`\beta/(\eta\mu t)` per round
      (:math:`\frac\beta2 E\lVert A_t^{-1/2}u\rVert^2 \le \beta/(2\eta\mu t)`, paid at the played point and
      in the smoothed comparator). Their η is fixed for a known T; we use the anytime
      :math:`\eta_t = \eta_0/\sqrt t`, which makes the sum
      :math:`\sqrt T[\nu\ln T/\eta_0 + 4\eta_0 d^2\tilde B^2 + 2\beta/(\mu\eta_0)]`, and, dropping the ln T,
      :math:`\eta_0 = \sqrt{\nu + 2\beta/\mu}\,/\,(2d\tilde B)`: regret :math:`\tilde O(d\tilde B\sqrt{(\nu + \beta/\mu)T})`.
    * **Saha and Tewari (2011), Algorithm 1** (convex and β-smooth; ``strongly_convex=False``):
      :math:`A_t = \nabla^2R(x_t)`, :math:`y_t = x_t + \delta_t A_t^{-1/2}u_t`,
      :math:`g_t = \frac d{\delta_t}\tilde f_t(y_t)\,A_t^{1/2}u_t`,
      :math:`x_{t+1} = \arg\min_x \eta_t\sum_{s\le t}g_s^\top x + R(x)`. Terms: regulariser
      :math:`\nu\ln T/\eta`, stability :math:`\eta d^2\tilde B^2/\delta^2` per round, smoothing bias
      :math:`\beta\delta^2/2` per round (:math:`\nabla^2R \succeq 2I` on the ball, so
      :math:`\frac\beta2 E\lVert\delta A_t^{-1/2}u\rVert^2 \le \beta\delta^2/4`, twice). Their η and δ are fixed
      for a known T (:math:`\eta \propto T^{-2/3}`, :math:`\delta \propto T^{-1/6}`); we use the anytime
      :math:`\eta_t = \eta_0 t^{-2/3}`, :math:`\delta_t = \min(1, \delta_0 t^{-1/6})`, whose sum is
      :math:`T^{2/3}[\nu\ln T/\eta_0 + \frac32\eta_0 d^2\tilde B^2/\delta_0^2 + \frac34\beta\delta_0^2]`;
      minimising (ln T dropped): :math:`\delta_0^2 = d\tilde B\sqrt{2\eta_0/\beta}`,
      :math:`\eta_0 = (2\sqrt2\,\nu/(3d\tilde B\sqrt\beta))^{2/3}`: regret
      :math:`\tilde O((d\tilde B)^{2/3}\beta^{1/3}\nu^{1/3}T^{2/3})`. δ_t <= 1 keeps y_t in the Dikin
      ellipsoid, hence in X.

    Returns dict(B_tilde, nu, beta, eta0, delta0) (delta0 = 1 for Hazan and Levy)."""
    Bt = noisy_range(env.B, sigma, horizon, delta)
    if beta is None:
        beta = env.beta if env.beta > 0 else 1.0
    beta = check_real("beta", beta)
    if beta < 0 or (beta == 0 and not strongly_convex):
        raise ValueError(f"beta must be a finite number > 0 (>= 0 for the strongly convex learner), got {beta!r}")
    nu, d = BARRIER_NU, env.d
    if strongly_convex:
        if env.mu <= 0:
            raise ValueError(f"strongly_convex=True needs a strongly convex environment, got {env.name!r}")
        eta0 = math.sqrt(nu + 2 * beta / env.mu) / (2 * d * Bt)
        delta0 = 1.0
    else:
        eta0 = (2 * math.sqrt(2) * nu / (3 * d * Bt * math.sqrt(beta))) ** (2 / 3)
        delta0 = math.sqrt(d * Bt * math.sqrt(2 * eta0 / beta))
    return dict(B_tilde=Bt, nu=nu, beta=beta, eta0=eta0, delta0=delta0)


def hazan_levy_exploration_cost(checkpoints, eta0, mu, beta, *, limits: Limits | None = None):
    r"""The exploration cost of the Hazan-Levy learner at the centre of the ball, summed:
    :math:`E_t = \sum_{s\le t} \frac\beta2\,\frac{1}{2 + \eta_0\mu\sqrt s}` at each t of ``checkpoints``.

    For a quadratic loss with Hessian βI (our quadratics: β = 8/9),
    :math:`E[f(x + A^{-1/2}u)] - f(x) = \frac\beta2 E\lVert A^{-1/2}u\rVert^2 = \frac\beta2\,\mathrm{tr}(A^{-1})/d`
    exactly, and at x = 0, :math:`A_s = \nabla^2R(0) + \eta_s\mu s I = (2 + \eta_0\mu\sqrt s)I` with the anytime
    :math:`\eta_s = \eta_0/\sqrt s` of :func:`barrier_tuning`. Away from the centre the barrier's curvature
    is larger and the cost smaller, so this is the exploration part of the regret for x_s near 0. It grows
    like :math:`\sqrt t` only once :math:`\eta_0\mu\sqrt t \gg 2`: before that its log-log slope is above 1/2.
    Returns an array of the checkpoints' shape. The sum is taken over every s up to the last checkpoint (three
    arrays of that length): ``limits`` (:class:`ldpcode.limits.Limits`) caps their memory."""
    cp = np.asarray(checkpoints)
    if cp.ndim != 1 or cp.size == 0 or not np.issubdtype(cp.dtype, np.integer) or cp[0] < 1 or (np.diff(cp) <= 0).any():
        raise ValueError(f"checkpoints must be a strictly increasing sequence of integers >= 1, got {checkpoints!r}")
    eta0 = _check_positive("eta0", eta0)
    mu = _check_positive("mu", mu)
    beta = check_real("beta", beta)
    if beta < 0:
        raise ValueError(f"beta must be a finite number >= 0, got {beta!r}")
    n = check_int("checkpoints[-1]", cp[-1], maximum=MAX_HORIZON)
    check_limits(
        "hazan_levy_exploration_cost",
        f"a sum over s = 1..checkpoints[-1]={n} (three arrays of doubles)",
        n * 20e-9,
        24.0 * n,
        limits,
        scale_out="Lower the last checkpoint.",
    )
    s = np.arange(1, n + 1, dtype=float)
    return np.cumsum(0.5 * beta / (2.0 + eta0 * mu * np.sqrt(s)))[cp - 1]


def simulate_one_point(
    environment: str = "quadratic",
    horizon: int = 10_000,
    runs: int = 16,
    seed: int = 0,
    *,
    epsilon: float | None = 1.0,
    delta: float | None = None,
    d: int = 5,
    strongly_convex=None,
    rho_max: float = 0.5,
    checkpoints=None,
    learner: str = "sphere",
    beta: float | None = None,
    limits: Limits | None = None,
) -> BCOResult:
    r"""Regret of Algorithm 1 (Zheng et al. 2020) with a one-point learner as black box
    (``epsilon=None``: the non-private learner, σ = 0).

    ``learner="sphere"`` (default): the sphere-sampling gradient descent (Flaxman et al. 2005);
    ``strongly_convex`` (default: whether the environment is) picks the η_t = 1/(μt), ρ ∝ t^{-1/3}
    schedule; see :func:`one_point_tuning`. ``rho_max`` caps its ρ_t.

    ``learner="barrier"``: the self-concordant-barrier learners of the smooth rows of Table 1:
    Hazan and Levy (2014) if ``strongly_convex`` (default: whether the environment is), else Saha and
    Tewari (2011); see :func:`barrier_tuning` (``beta``: the smoothness constant they are tuned for;
    ``rho_max`` is not used). The result's ``max_norm`` holds each run's largest ||y_t||.

    Regret at t: Σ_{s≤t} f_s(y_s) (the points actually played) - min_{x∈X} Σ_{s≤t} f_s(x); for
    "stochastic" the pseudo-regret with f. ``checkpoints`` (default 41 log-spaced) must end at ``horizon``;
    ``limits`` caps the estimated time and memory (:func:`bco_cost`, :class:`ldpcode.limits.Limits`)."""
    env, T, runs, seed, delta = _common(environment, d, horizon, runs, seed, epsilon, delta)
    if not isinstance(learner, str):
        raise TypeError(f"learner must be a string, one of {LEARNERS}, got {learner!r}")
    if learner not in LEARNERS:
        raise ValueError(f"learner must be one of {LEARNERS}, got {learner!r}")
    if learner == "sphere" and beta is not None:
        raise ValueError(f"beta is only used by learner='barrier', got beta={beta!r} with learner='sphere'")
    rho_max = check_real("rho_max", rho_max)
    if not 0 < rho_max < 1:
        raise ValueError(f"rho_max must be in (0, 1), got {rho_max!r}")
    sigma = 0.0 if epsilon is None else one_point_sigma(epsilon, delta, env.B)
    strongly = env.mu > 0 if strongly_convex is None else bool(strongly_convex)
    if strongly and env.mu <= 0:
        raise ValueError(f"strongly_convex=True needs a strongly convex environment, got {environment!r}")
    cp = resolve_checkpoints(T, checkpoints, 41)
    seconds, nbytes, work = bco_cost("barrier" if learner == "barrier" else "one-point", env.d, T, runs, cp.size)
    check_limits("bco.simulate_one_point", work, seconds, nbytes, limits)
    if learner == "barrier":
        return _simulate_barrier(env, T, runs, seed, epsilon, delta, sigma, strongly, beta, cp)
    tun = one_point_tuning(
        env if strongly else Environment(env.name, env.d, env.B, env.G, 0.0), T, sigma, delta, rho_max
    )
    code, eta0, rho0 = _ENV_CODE[env.name], tun["eta0"], tun["rho0"]

    def new_run():
        x, S, Q, acc, out = np.zeros(env.d), np.zeros(env.d), np.zeros(1), np.zeros(2), np.zeros(cp.size)

        def advance(t0, t1, g_u, g_z):
            _one_point_chunk(
                code, env.d, t0, t1, sigma, strongly, eta0, rho0, rho_max, env.mu, cp, g_u, g_z, out, x, S, Q, acc
            )

        return advance, out

    out = np.stack(_run_all(T, runs, seed, new_run))
    return BCOResult(
        "one-point",
        env.name,
        env.d,
        T,
        runs,
        seed,
        np.inf if epsilon is None else float(epsilon),
        float(delta),
        sigma,
        tun,
        cp,
        out,
    )


def _simulate_barrier(env, T, runs, seed, epsilon, delta, sigma, strongly, beta, cp) -> BCOResult:
    tun = barrier_tuning(env, T, sigma, delta, strongly, beta)
    code, eta0, delta0 = _ENV_CODE[env.name], tun["eta0"], tun["delta0"]

    def new_run():
        x, gsum, xsum, S = (np.zeros(env.d) for _ in range(4))
        Q, acc, out, norm = np.zeros(1), np.zeros(2), np.zeros(cp.size), np.zeros(1)

        def advance(t0, t1, g_u, g_z):
            _barrier_chunk(
                code,
                env.d,
                t0,
                t1,
                sigma,
                strongly,
                eta0,
                delta0,
                env.mu,
                cp,
                g_u,
                g_z,
                out,
                norm,
                x,
                gsum,
                xsum,
                S,
                Q,
                acc,
            )

        return advance, (out, norm)

    done = _run_all(T, runs, seed, new_run)
    out = np.stack([o[0] for o in done])
    max_norm = np.concatenate([o[1] for o in done])
    name = "one-point-hazan-levy" if strongly else "one-point-saha-tewari"
    return BCOResult(
        name,
        env.name,
        env.d,
        T,
        runs,
        seed,
        np.inf if epsilon is None else float(epsilon),
        float(delta),
        sigma,
        tun,
        cp,
        out,
        max_norm,
    )


def two_point_tuning(env: Environment, horizon: int, sigma: float) -> dict:
    r"""Schedules of Algorithm 4 (Agarwal, Dekel and Xiao 2010, two-point feedback) inside Algorithm 2:
    ρ = ln T / T (Algorithm 2, line 2, ξ = ρ/r with r = 1); convex: :math:`\eta_t = R/(d\tilde G\sqrt t)`,
    :math:`\tilde G = \sqrt{G^2 + \sigma^2}` (the estimate g_t = (d/2ρ)(f_1 - f_2)u + d (n·u) u has
    E||g_t||² <= d²(G² + σ²)), regret O(d R G̃ √T); μ-strongly convex: η_t = 1/(μt), regret
    O(d² G̃²/μ · log T) (the virtual loss f_t + n_t·x is still μ-strongly convex)."""
    Gt = math.sqrt(env.G**2 + sigma**2)
    return dict(G_tilde=Gt, rho=math.log(horizon) / horizon, eta0=1.0 / (env.d * Gt))


def simulate_two_point(
    environment: str = "quadratic",
    horizon: int = 10_000,
    runs: int = 16,
    seed: int = 0,
    *,
    epsilon: float | None = 1.0,
    delta: float | None = None,
    d: int = 5,
    strongly_convex=None,
    checkpoints=None,
    limits: Limits | None = None,
) -> BCOResult:
    r"""Regret of Algorithm 2 (Zheng et al. 2020) with Algorithm 4 (two-point BCO of Agarwal et al. 2010)
    as black box (``epsilon=None``: non-private). Regret as in Theorem 6: Σ_t (f_t(x_{t,1}) + f_t(x_{t,2}))/2
    - min_{x∈X} Σ_t f_t(x). Tuning: :func:`two_point_tuning`; σ: :func:`two_point_sigma`. ``checkpoints``
    and ``limits`` as in :func:`simulate_one_point`."""
    env, T, runs, seed, delta = _common(environment, d, horizon, runs, seed, epsilon, delta)
    sigma = 0.0 if epsilon is None else two_point_sigma(epsilon, delta, env.G)
    strongly = env.mu > 0 if strongly_convex is None else bool(strongly_convex)
    if strongly and env.mu <= 0:
        raise ValueError(f"strongly_convex=True needs a strongly convex environment, got {environment!r}")
    tun = two_point_tuning(env, T, sigma)
    cp = resolve_checkpoints(T, checkpoints, 41)
    seconds, nbytes, work = bco_cost("two-point", env.d, T, runs, cp.size)
    check_limits("bco.simulate_two_point", work, seconds, nbytes, limits)
    code, eta0, rho = _ENV_CODE[env.name], tun["eta0"], tun["rho"]

    def new_run():
        x, S, Q, acc, out = np.zeros(env.d), np.zeros(env.d), np.zeros(1), np.zeros(2), np.zeros(cp.size)

        def advance(t0, t1, g_u, g_z):
            _two_point_chunk(code, env.d, t0, t1, sigma, strongly, eta0, rho, env.mu, cp, g_u, g_z, out, x, S, Q, acc)

        return advance, out

    out = np.stack(_run_all(T, runs, seed, new_run))
    return BCOResult(
        "two-point",
        env.name,
        env.d,
        T,
        runs,
        seed,
        np.inf if epsilon is None else float(epsilon),
        float(delta),
        sigma,
        tun,
        cp,
        out,
    )
