r"""The learners of Section 3 of Zheng et al. (2020) as engine policies, and their drivers.

:func:`make_learner` builds :class:`OnePointSphere` (Algorithm 1 around the sphere learner),
:class:`OnePointBarrier` (Algorithm 1 around the barrier learners) or :class:`TwoPoint` (Algorithm 2); each
implements :class:`ldpcode.engine.BanditPolicy`, so :func:`ldpcode.simulate` (that is,
:func:`ldpcode.engine.run`) runs it on a convex :class:`~ldpcode.bco.Environment`. :func:`simulate_one_point`
and :func:`simulate_two_point` are that call with the environment made from its name. Here too: the schedules
(:func:`one_point_tuning`, :func:`barrier_tuning`, :func:`two_point_tuning`), the result (:class:`BCOResult`),
the cost estimate (:func:`bco_cost`), :data:`DEFAULT_DELTA` and :func:`hazan_levy_exploration_cost`.

Inside a run the rounds go by chunks of :data:`BCO_ROUNDS_PER_CALL` through
:func:`ldpcode.engine.run_in_chunks` (Ctrl-C is seen between them); both names are looked up in this module at
call time: patch them here, in ``ldpcode.bco.runs`` (the copy of :data:`BCO_ROUNDS_PER_CALL` that
:mod:`ldpcode.bco` re-exports is not read). The runs go through the engine's pool (:func:`ldpcode.engine.run`,
one thread).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import check_real, check_rounds
from .. import engine
from ..engine import refuse_privacy_levels, run_in_chunks
from ..limits import Limits, check_limits
from ..mechanisms import GaussianMechanism
from ..results import RegretCurves
from ..rng import run_streams
from .environments import _ENV_CODE, Environment, _check_positive, make_environment
from .geometry import BARRIER_NU
from .kernels import (
    BarrierState,
    BarrierTuning,
    ComparatorSums,
    RegretRecorder,
    SphereTuning,
    TwoPointTuning,
    _barrier_chunk,
    _one_point_chunk,
    _two_point_chunk,
)
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


# The rounds of one run per call of a learner's compiled kernel. 2^16: at 150 ns to 1 µs a round (bco_cost) a
# call takes a few ms to tens of ms, long beside the interpreter's overhead per call and short enough that
# Ctrl-C, seen between calls, stops a run at once.
BCO_ROUNDS_PER_CALL = 1 << 16


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


DEFAULT_DELTA = 1e-5
"""The δ of a private BCO run when none is given (Zheng et al.'s experiments-free default of the book)."""


def _privacy(epsilon, delta) -> tuple[float | None, float]:
    """Checked (epsilon, delta) of a learner. ``delta`` belongs to a private run: None there means
    :data:`DEFAULT_DELTA`; a non-private run (``epsilon=None``) given a delta is refused, as a privacy
    argument it would silently ignore. The non-private run's δ is nan (it has none)."""
    if epsilon is None:
        if delta is not None:
            raise ValueError(
                f"delta is a privacy argument: a non-private run (epsilon=None) takes none, got "
                f"delta={delta!r}; pass epsilon for a private run, or leave delta out"
            )
        return None, math.nan
    delta = DEFAULT_DELTA if delta is None else delta
    GaussianMechanism(epsilon, delta, 1.0)  # validates epsilon and delta
    return epsilon, delta


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


def _check_beta(beta, strongly_convex: bool | None) -> float:
    """The smoothness constant β as a float: finite and >= 0, and > 0 unless the learner runs the strongly convex
    schedule (``strongly_convex`` False; None: not known yet, so only the sign is checked). At β = 0 Saha and
    Tewari's δ would be 1 for ever (:func:`barrier_tuning`)."""
    beta = check_real("beta", beta)
    if beta < 0 or (beta == 0 and strongly_convex is False) or beta > 1e12:  # 1e300: a regret of nan
        raise ValueError(
            f"beta must be a number in (0, 1e12] ([0, 1e12] for the strongly convex learner), got {beta!r}"
        )
    return beta


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
    beta = _check_beta(beta, bool(strongly_convex))
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
    cp = check_rounds("checkpoints", checkpoints)
    eta0 = _check_positive("eta0", eta0)
    mu = _check_positive("mu", mu)
    beta = _check_beta(beta, True)
    n = int(cp[-1])
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


class _Learner:
    """The engine protocol (:class:`ldpcode.engine.BanditPolicy`) shared by the three learners: a convex
    :class:`Environment` (:func:`make_environment`), one thread (the compiled kernels hold the GIL; run r draws from
    its own streams, so the result is that of the sequential loop), 41 checkpoints by default, a horizon of at
    least 2. Run r draws from ``run_streams(seed_seq, 2)``: the sphere directions u_t (and the stochastic noise
    q_t), then the curator's noise; its rounds go by chunks of :data:`BCO_ROUNDS_PER_CALL`
    (:func:`run_in_chunks`, both looked up in this module). The subclasses give ``name``, ``cost_kind``, ``sigma(env)``, ``tuning(env, T)``,
    ``_new_run`` and ``result``. ``epsilon`` None is the non-private learner (σ = 0, δ nan)."""

    environment_type = Environment
    environment_source = "ldpcode.bco.make_environment()"
    threads = 1
    checkpoint_count = 41

    @property
    def label(self) -> float:
        return math.inf if self.epsilon is None else float(self.epsilon)

    def min_horizon(self, env) -> int:
        return 2

    def strongly(self, env) -> bool:
        """Whether the learner runs its strongly convex schedule (default: whether the environment is)."""
        return env.mu > 0 if self.strongly_convex is None else bool(self.strongly_convex)

    def check_environment(self, env, privacy_levels) -> None:
        refuse_privacy_levels(self, privacy_levels)
        if self.strongly(env) and env.mu <= 0:
            raise ValueError(f"strongly_convex=True needs a strongly convex environment, got {env.name!r}")

    def cost(self, env, horizon: int, runs: int, n_checkpoints: int, workers: int):
        return bco_cost(self.cost_kind, env.d, horizon, runs, n_checkpoints)

    def run_one(self, env, horizon: int, seed_seq, checkpoints, *, privacy_levels=None, cancel=None):
        """One run; returns the arrays its kernel filled (the regret at the checkpoints, and for the barrier
        learners the largest ||y_t||)."""
        g_u, g_z = run_streams(seed_seq, 2)
        advance, outputs = self._new_run(env, horizon, checkpoints)

        def step(t, ci, m):
            advance(t, t + m, g_u, g_z)
            return t + m, ci

        run_in_chunks(horizon, cancel, step, BCO_ROUNDS_PER_CALL)
        return outputs

    def _result(self, name, env, horizon, runs, seed, checkpoints, regret, max_norm=None) -> BCOResult:
        sigma = self.sigma(env)
        tuning = self.tuning(env, horizon)
        return BCOResult(
            name,
            env.name,
            env.d,
            horizon,
            runs,
            seed,
            self.label,
            float(self.delta),
            sigma,
            tuning,
            checkpoints,
            regret,
            max_norm,
        )


@dataclass(frozen=True)
class OnePointSphere(_Learner):
    r"""Algorithm 1 (Zheng et al. 2020) around the sphere-sampling gradient descent of Flaxman et al. (2005):
    :math:`y_t = x_t + \rho_t u_t`, the user releases :math:`f_t(y_t) + Z_t`, :math:`Z_t \sim N(0, \sigma^2)` with
    σ = :func:`one_point_sigma`, :math:`g_t = (d/\rho_t)(f_t(y_t) + Z_t)\,u_t`,
    :math:`x_{t+1} = \Pi_{(1-\rho_{t+1})X}(x_t - \eta_t g_t)`; schedules
    :func:`one_point_tuning` (the convex one on an environment that is not strongly convex, or with
    ``strongly_convex=False``), ρ_t capped at ``rho_max``."""

    epsilon: float | None
    delta: float
    strongly_convex: bool | None = None
    rho_max: float = 0.5

    name = "one-point"
    cost_kind = "one-point"

    def sigma(self, env) -> float:
        return 0.0 if self.epsilon is None else one_point_sigma(self.epsilon, self.delta, env.B)

    def tuning(self, env, horizon) -> dict:
        tuned_for = env if self.strongly(env) else Environment(env.name, env.d, env.B, env.G, 0.0)
        return one_point_tuning(tuned_for, horizon, self.sigma(env), self.delta, self.rho_max)

    def _new_run(self, env, horizon, cp):
        sigma, strongly, tun = self.sigma(env), self.strongly(env), self.tuning(env, horizon)
        code, eta0, rho0, rho_max = _ENV_CODE[env.name], tun["eta0"], tun["rho0"], self.rho_max
        x, S, Q, acc, out = np.zeros(env.d), np.zeros(env.d), np.zeros(1), np.zeros(2), np.zeros(cp.size)
        tuning = SphereTuning(sigma, strongly, eta0, rho0, rho_max, env.mu)
        sums, record = ComparatorSums(S, Q), RegretRecorder(cp, out, acc)

        def advance(t0, t1, g_u, g_z):
            _one_point_chunk(code, env.d, t0, t1, tuning, g_u, g_z, x, sums, record)

        return advance, out

    def result(self, env, horizon, runs, seed, checkpoints, outputs) -> BCOResult:
        return self._result(self.name, env, horizon, runs, seed, checkpoints, np.stack(outputs))


@dataclass(frozen=True)
class OnePointBarrier(_Learner):
    r"""Algorithm 1 (Zheng et al. 2020) around the self-concordant-barrier learners of the smooth rows of their
    Table 1: Hazan and Levy (2014) when it runs the strongly convex schedule, else Saha and Tewari (2011)
    (:func:`barrier_tuning`, ``beta`` the smoothness constant they are tuned for). The result's ``max_norm``
    holds each run's largest :math:`\lVert y_t\rVert`."""

    epsilon: float | None
    delta: float
    strongly_convex: bool | None = None
    beta: float | None = None

    name = "one-point-barrier"
    cost_kind = "barrier"

    def check_environment(self, env, privacy_levels) -> None:
        super().check_environment(env, privacy_levels)
        if self.beta is not None:  # barrier_tuning's refusal, before any work
            _check_beta(self.beta, self.strongly(env))

    def sigma(self, env) -> float:
        return 0.0 if self.epsilon is None else one_point_sigma(self.epsilon, self.delta, env.B)

    def tuning(self, env, horizon) -> dict:
        return barrier_tuning(env, horizon, self.sigma(env), self.delta, self.strongly(env), self.beta)

    def _new_run(self, env, horizon, cp):
        sigma, strongly, tun = self.sigma(env), self.strongly(env), self.tuning(env, horizon)
        code, eta0, delta0 = _ENV_CODE[env.name], tun["eta0"], tun["delta0"]
        x, gsum, xsum, S = (np.zeros(env.d) for _ in range(4))
        Q, acc, out, norm = np.zeros(1), np.zeros(2), np.zeros(cp.size), np.zeros(1)
        tuning = BarrierTuning(sigma, strongly, eta0, delta0, env.mu)
        state, sums, record = BarrierState(x, gsum, xsum, norm), ComparatorSums(S, Q), RegretRecorder(cp, out, acc)

        def advance(t0, t1, g_u, g_z):
            _barrier_chunk(code, env.d, t0, t1, tuning, g_u, g_z, state, sums, record)

        return advance, (out, norm)

    def result(self, env, horizon, runs, seed, checkpoints, outputs) -> BCOResult:
        name = "one-point-hazan-levy" if self.strongly(env) else "one-point-saha-tewari"
        regret = np.stack([o[0] for o in outputs])
        max_norm = np.concatenate([o[1] for o in outputs])
        return self._result(name, env, horizon, runs, seed, checkpoints, regret, max_norm)


@dataclass(frozen=True)
class TwoPoint(_Learner):
    r"""Algorithm 2 (Zheng et al. 2020) around Algorithm 4 (the two-point learner of Agarwal, Dekel and Xiao
    2010): :math:`x_{t,1}, x_{t,2} = x_t \pm \rho u_t`, the user releases
    :math:`f_t(x_{t,1}) - f_t(x_{t,2}) + n_t\cdot(x_{t,1} - x_{t,2})`, :math:`n_t \sim N(0, \sigma^2 I_d)` with
    σ = :func:`two_point_sigma`; schedules :func:`two_point_tuning`."""

    epsilon: float | None
    delta: float
    strongly_convex: bool | None = None

    name = "two-point"
    cost_kind = "two-point"

    def sigma(self, env) -> float:
        return 0.0 if self.epsilon is None else two_point_sigma(self.epsilon, self.delta, env.G)

    def tuning(self, env, horizon) -> dict:
        return two_point_tuning(env, horizon, self.sigma(env))

    def _new_run(self, env, horizon, cp):
        sigma, strongly, tun = self.sigma(env), self.strongly(env), self.tuning(env, horizon)
        code, eta0, rho = _ENV_CODE[env.name], tun["eta0"], tun["rho"]
        x, S, Q, acc, out = np.zeros(env.d), np.zeros(env.d), np.zeros(1), np.zeros(2), np.zeros(cp.size)
        tuning = TwoPointTuning(sigma, strongly, eta0, rho, env.mu)
        sums, record = ComparatorSums(S, Q), RegretRecorder(cp, out, acc)

        def advance(t0, t1, g_u, g_z):
            _two_point_chunk(code, env.d, t0, t1, tuning, g_u, g_z, x, sums, record)

        return advance, out

    def result(self, env, horizon, runs, seed, checkpoints, outputs) -> BCOResult:
        return self._result(self.name, env, horizon, runs, seed, checkpoints, np.stack(outputs))


ALGORITHMS = ("one-point", "two-point")


def make_learner(
    algorithm: str = "one-point",
    *,
    epsilon: float | None = 1.0,
    delta: float | None = None,
    strongly_convex=None,
    learner: str = "sphere",
    rho_max: float = 0.5,
    beta: float | None = None,
):
    r"""A BCO learner for the engine (:func:`ldpcode.simulate` runs it on a :func:`make_environment`):
    ``algorithm`` "one-point" (Algorithm 1 of Zheng et al. 2020, with ``learner`` "sphere",
    :class:`OnePointSphere`, or "barrier", :class:`OnePointBarrier`) or "two-point" (Algorithm 2,
    :class:`TwoPoint`). ``epsilon=None`` is the non-private learner and takes no ``delta``; a private one's
    ``delta`` defaults to :data:`DEFAULT_DELTA`. ``strongly_convex`` (default: whether the environment is)
    picks the strongly convex schedule; ``rho_max`` (sphere learner) caps ρ_t in (0, 1); ``beta`` (barrier
    learners) is the smoothness constant they are tuned for."""
    if not isinstance(algorithm, str) or algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {ALGORITHMS}, got {algorithm!r}")
    if not isinstance(learner, str):
        raise TypeError(f"learner must be a string, one of {LEARNERS}, got {learner!r}")
    if learner not in LEARNERS:
        raise ValueError(f"learner must be one of {LEARNERS}, got {learner!r}")
    if algorithm == "two-point" and (learner != "sphere" or beta is not None or rho_max != 0.5):
        raise ValueError(
            f"learner, rho_max and beta are options of algorithm='one-point', got learner={learner!r}, "
            f"rho_max={rho_max!r}, beta={beta!r} with algorithm='two-point'"
        )
    if learner == "sphere" and beta is not None:
        raise ValueError(f"beta is only used by learner='barrier', got beta={beta!r} with learner='sphere'")
    rho_max = check_real("rho_max", rho_max)
    if not 1e-6 <= rho_max < 1:  # at 1e-200, |step|² overflowed, the projection sent x to 0: a regret of 1e-4
        raise ValueError(f"rho_max must be in [1e-6, 1) (the gradient estimate grows as 1/ρ), got {rho_max!r}")
    epsilon, delta = _privacy(epsilon, delta)
    strongly_convex = None if strongly_convex is None else bool(strongly_convex)
    if algorithm == "two-point":
        return TwoPoint(epsilon, delta, strongly_convex)
    if learner == "barrier":
        if beta is not None:
            beta = _check_beta(beta, None)  # β = 0 is refused once the environment says the schedule is convex
        return OnePointBarrier(epsilon, delta, strongly_convex, beta)
    return OnePointSphere(epsilon, delta, strongly_convex, rho_max)


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
    (``epsilon=None``: the non-private learner, σ = 0): the engine (:func:`ldpcode.engine.run`) running
    ``make_learner("one-point", ...)`` on ``make_environment(environment, d)``.

    ``learner="sphere"`` (default): the sphere-sampling gradient descent (Flaxman et al. 2005);
    ``strongly_convex`` (default: whether the environment is) picks the :math:`\eta_t = 1/(\mu t)`,
    :math:`\rho_t \propto t^{-1/3}` schedule; see :func:`one_point_tuning`. ``rho_max`` caps its ρ_t.

    ``learner="barrier"``: the self-concordant-barrier learners of the smooth rows of Table 1:
    Hazan and Levy (2014) if ``strongly_convex`` (default: whether the environment is), else Saha and
    Tewari (2011); see :func:`barrier_tuning` (``beta``: the smoothness constant they are tuned for;
    ``rho_max`` is not used). The result's ``max_norm`` holds each run's largest :math:`\lVert y_t\rVert`.

    Regret at t: :math:`\sum_{s\le t} f_s(y_s) - \min_{x\in X}\sum_{s\le t} f_s(x)` (the points actually
    played against the best fixed point); for "stochastic" the pseudo-regret with f. ``checkpoints`` (default
    41 log-spaced) must end at ``horizon``; ``limits`` caps the estimated time and memory (:func:`bco_cost`,
    :class:`ldpcode.limits.Limits`)."""
    env = make_environment(environment, d)
    learn = make_learner(
        "one-point",
        epsilon=epsilon,
        delta=delta,
        strongly_convex=strongly_convex,
        learner=learner,
        rho_max=rho_max,
        beta=beta,
    )
    return engine.run(
        learn, env, horizon, runs, seed, checkpoints=checkpoints, limits=limits, call="bco.simulate_one_point"
    )


def two_point_tuning(env: Environment, horizon: int, sigma: float) -> dict:
    r"""Schedules of Algorithm 4 (Agarwal, Dekel and Xiao 2010, two-point feedback) inside Algorithm 2:
    ρ = ln T / T (Algorithm 2, line 2, ξ = ρ/r with r = 1); convex: :math:`\eta_t = R/(d\tilde G\sqrt t)`,
    :math:`\tilde G = \sqrt{G^2 + \sigma^2}` (the estimate :math:`g_t = \frac{d}{2\rho}(f_1 - f_2)u + d(n\cdot u)u`
    has :math:`E\lVert g_t\rVert^2 \le d^2(G^2 + \sigma^2)`), regret :math:`O(dR\tilde G\sqrt T)`; μ-strongly
    convex: :math:`\eta_t = 1/(\mu t)`, regret :math:`O(d^2\tilde G^2\log T/\mu)` (the virtual loss
    :math:`f_t + n_t\cdot x` is still μ-strongly convex)."""
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
    as black box (``epsilon=None``: non-private): the engine running ``make_learner("two-point", ...)``.
    Regret as in Theorem 6: :math:`\sum_t \tfrac12(f_t(x_{t,1}) + f_t(x_{t,2})) - \min_{x\in X}\sum_t f_t(x)`.
    Tuning: :func:`two_point_tuning`; σ: :func:`two_point_sigma`. ``checkpoints`` and ``limits`` as in
    :func:`simulate_one_point`."""
    env = make_environment(environment, d)
    learn = make_learner("two-point", epsilon=epsilon, delta=delta, strongly_convex=strongly_convex)
    return engine.run(
        learn, env, horizon, runs, seed, checkpoints=checkpoints, limits=limits, call="bco.simulate_two_point"
    )
