"""The simulation engine: R independent runs of a policy on an instance for T steps.

Run ``r`` of ``simulate(..., seed=s)`` draws from ``SeedSequence(s).spawn(runs)[r]``, split into two
streams: one for the users' rewards and one for the curator's noise. So run ``r`` is the same whatever
the number of runs or of worker threads, and two policies simulated with the same seed see the same
reward draws (common random numbers, which make their regret ratio less noisy).

What is kept is independent of the horizon: the pull counts N_a(t) at log-spaced checkpoints t,
from which the pseudo-regret sum_a N_a(t) Delta_a follows exactly. Checkpoints must end at the horizon
(:func:`resolve_checkpoints`, shared by every engine): the last one is where ``pulls`` and
``final_regret`` are read.

**Limits: estimated before any work, one design for every engine.** Each simulator (:func:`simulate`,
``bco.simulate_one_point``/``simulate_two_point``, ``contextual.simulate_contextual``,
``reductions.simulate_mab`` and ``reductions.ucb_adversary``) estimates, before it draws anything, the
CPU time (in core-seconds: the same on any number of cores) and the memory its call needs, and refuses a
call beyond either ceiling of its ``limits`` argument, a :class:`Limits`, with a ValueError that gives the
estimate, the ceiling, how to override it and how to scale out. The default ``Limits()`` allows
3600 core-seconds (an hour of one core) and 4 GiB of memory (or half the machine's physical memory if that
is less); ``limits=Limits(cpu_seconds=math.inf, memory_bytes=math.inf)`` switches the check off. The
largest calls of the book at their paper-scale defaults are estimated far below: KL-UCB at 20 runs of 10^6
pulls (Azize and Basu, Theorems 7-8) 85 core-seconds, HeLDP-UCB-B at 50 runs of 10^7 pulls on 20 arms 80,
DP-UCB at 20 runs of 10^7 53, AdaP-KLUCB at 20 runs of 10^7 (Figure 3, per ε) 0.1; the most memory any
of them needs is 5.4 MiB (the estimates are :func:`simulate_cost`, ``bco.bco_cost``,
``contextual.contextual_cost`` and ``reductions.mab_cost``; tests/test_limits.py checks every notebook's
largest calls against the default ceilings). To scale out instead, split the runs into several calls with
different seeds (seed=0, 1, ...), on one machine or several, and concatenate their results along the runs
axis. Whatever the limits, a horizon (and a checkpoint) is at most :data:`MAX_HORIZON` = 2^53, runs at
most :data:`MAX_RUNS` = 2^32 and workers at most :data:`MAX_WORKERS` = 1024.

The time of a call is its work at the per-core costs below (K arms, dimension d, T the horizon), measured on
the 2-core AMD EPYC machine of the README (numba 0.68.1) with ``workers=1``, the best of three short runs
(2 runs of 10^6 pulls at K = 2, 20 and 100; 2 runs of 2·10^5 BCO rounds at d = 5 and 50; contextual runs of
4000 rounds at (d, K) = (5, 10), (5, 100), (20, 10)) while other jobs were running, so they are on the slow
side (the README's quieter benchmark gives 1.1-2·10^7 pulls/s for the index policies at K = 20):

* index policies (UCB1, LDP-UCB-*): 60 + 3K ns a pull (UCB1 measured 81, 121, 354 ns);
* heterogeneous policies (HeLDP-UCB-*): 100 + 3K ns a pull (158-210 ns at K <= 20, 350-390 ns at K = 100);
* DP-UCB: 250 + 3K ns a pull (288, 332, 500 ns); KL-UCB: 4000 + 45K ns a pull (3.9, 4.7, 8.2 µs);
* episodic policies (AdaP-*, DP-SE): 20 + 4K µs an episode (10-110 µs at K <= 20, 370 µs at K = 100), at
  most K(floor(log2 T) + 1) + 1 episodes a run, plus 20 ns a pull when an arm is neither Bernoulli nor
  Gaussian (its episodes sum their draws): the cost is per episode, not per pull;
* BCO: 150 + 10d (one-point, sphere), 150 + 17d (two-point), 250 + 12d (barrier) ns a round
  (measured 192, 225, 343 ns at d = 5; 577, 964, 845 ns at d = 50);
* contextual: 2 µs + 6 ns K d^2 + 1.5 ns d^3 a round and run (numba engine; 2.9-4.1 µs at d = 5, K = 10),
  100 µs + runs (5 µs + 10 ns K d^2 + 2 ns d^3) a round (numpy engine, all runs at once);
* Algorithm 1 (reductions): 50 + 9K ns a step around UCB, 100 + 50K around Tsallis-INF (kernels;
  measured 75-485 and 167-2470 ns at K = 2-50), 20 µs + 50K ns in the Python loop; ``ucb_adversary``:
  20 + 20K ns a step.

**Interrupts.** Ctrl-C (KeyboardInterrupt) stops a simulation within a fraction of a second: the runs on
worker threads (:func:`run_pool`) check a :class:`CancelFlag` between chunks of ``CHUNK`` pulls (between
episodes for the episodic engine), queued runs are cancelled, the executor is shut down without waiting,
and the KeyboardInterrupt is re-raised. The engines that run in the calling thread (BCO, contextual,
reductions' Python loop) return to the interpreter between chunks, where Python raises it.
"""

from __future__ import annotations

import functools
import inspect
import math
import os
import sys
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ._validate import as_float_array, check_int, check_real
from .instances import Instance, PrivacyLevels
from . import global_policies as gp
from . import instances as ins
from . import mechanisms as mech
from .policies import HeterogeneousPolicy, IndexPolicy, heterogeneous_chunk, index_policy_chunk

_GLOBAL = (gp.AdaptiveEpisodes, gp.DPSE, gp.DPUCB, gp.KLUCB)

CHUNK = 1 << 15  # steps per compiled call: two draw buffers of 256 KiB stay in cache

MAX_HORIZON = 2**53
"""The largest horizon (and checkpoint) of any engine: rounds up to 2^53 are exact in float64, in which
checkpoints are validated and log-spaced. (At 10^8 pulls a second, 2^53 pulls take three years.)"""
MAX_RUNS = 2**32
"""The most runs of one call, whatever its limits: beyond it even the runs' seed sequences would not fit in
memory (a call of more runs is refused by the default limits long before)."""
MAX_WORKERS = 1024
"""The most worker threads a call may ask for (more threads than cores only add overhead)."""
MAX_POINTS = 10**7
"""The most log-spaced checkpoints :func:`log_checkpoints` makes."""


def _default_memory_bytes() -> float:
    """4 GiB, or half the machine's physical memory if that is less."""
    try:
        phys = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        phys = 0
    return float(min(4 * 2**30, phys // 2)) if phys > 0 else float(4 * 2**30)


@dataclass(frozen=True)
class Limits:
    """Ceilings on the estimated cost of one simulation call (module docstring, "Limits").

    ``cpu_seconds``: estimated core-seconds (default 3600, an hour of one core; the same on any number of
    cores); ``memory_bytes``: estimated peak memory of the call's arrays (default 4 GiB, or half the
    physical memory if less). ``math.inf`` switches a check off. Every simulator takes ``limits=``."""

    cpu_seconds: float = 3600.0
    memory_bytes: float | None = None

    def __post_init__(self):
        for name in ("cpu_seconds", "memory_bytes"):
            v = getattr(self, name)
            if name == "memory_bytes" and v is None:
                v = _default_memory_bytes()
            v = check_real(f"limits.{name}", v, allow_inf=True)
            if v <= 0:
                raise ValueError(f"limits.{name} must be a number > 0 (math.inf for no limit), got {v!r}")
            object.__setattr__(self, name, v)


def _fmt_bytes(n: float) -> str:
    if not math.isfinite(n):
        return "no limit"
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f} bytes"


def _fmt_seconds(s: float) -> str:
    if not math.isfinite(s):
        return "no limit"
    if s >= 3 * 365.25 * 86400:
        return f"{s:.2g} core-seconds ({s / (365.25 * 86400):.2g} core-years)"
    if s >= 2 * 3600:
        return f"{s:.3g} core-seconds ({s / 3600:.3g} core-hours)"
    return f"{s:.3g} core-seconds"


SCALE_OUT = (
    "To scale out instead, split the runs into several calls with different seeds (seed=0, 1, 2, ...), "
    "on this machine or on several, and concatenate their results along the runs axis; or lower runs or "
    "horizon."
)


def check_limits(
    call: str, work: str, cpu_seconds: float, memory_bytes: float, limits=None, *, scale_out: str = SCALE_OUT
) -> Limits:
    """Refuse a call whose estimated ``cpu_seconds`` (core-seconds) or ``memory_bytes`` exceed ``limits``
    (a :class:`Limits`, default ``Limits()``), before any work. ``call`` names the function, ``work``
    describes what was estimated (it names the parameters that drive the cost). The ValueError gives the
    estimate, the ceiling, the override and how to scale out (``scale_out``). Returns the limits used."""
    if limits is None:
        limits = Limits()
    elif not isinstance(limits, Limits):
        raise TypeError(f"limits must be an ldpcode.Limits(cpu_seconds=..., memory_bytes=...) or None, got {limits!r}")
    over = []
    if cpu_seconds > limits.cpu_seconds:
        over.append(
            (
                "time",
                f"about {_fmt_seconds(cpu_seconds)}",
                f"{_fmt_seconds(limits.cpu_seconds)} (limits.cpu_seconds)",
                f"cpu_seconds={float(f'{cpu_seconds * 1.5:.2g}'):g}",
            )
        )
    if memory_bytes > limits.memory_bytes:
        over.append(
            (
                "memory",
                f"about {_fmt_bytes(memory_bytes)}",
                f"{_fmt_bytes(limits.memory_bytes)} (limits.memory_bytes)",
                f"memory_bytes={float(f'{memory_bytes * 1.5:.2g}'):g}",
            )
        )
    if not over:
        return limits
    what = "; ".join(f"its {kind} is estimated at {est}, beyond the ceiling of {ceil}" for kind, est, ceil, _ in over)
    raise ValueError(
        f"{call}: {work}: {what}. To run it anyway, pass limits=ldpcode.Limits({', '.join(o[3] for o in over)}) "
        f"(math.inf switches a check off). {scale_out} (The per-core throughputs behind the estimate are "
        f"listed in the docstring of the module ldpcode/simulate.py.)"
    )


class Cancelled(Exception):
    """Raised in a worker thread at its next chunk once its call has been interrupted."""


class CancelFlag:
    """Set when a call is interrupted; the engines call :meth:`check` between chunks of work (and between
    episodes), which raises :class:`Cancelled` once it is set."""

    __slots__ = ("_event",)

    def __init__(self):
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        if self._event.is_set():
            raise Cancelled("the simulation was interrupted")


def run_pool(task, n: int, workers: int, *, progress: str | None = None) -> list:
    """``[task(i, cancel) for i in range(n)]`` on ``workers`` threads, in order of i; ``progress`` (a label)
    shows a bar over the tasks. Tasks are submitted a few at a time (at most ``POOL_WINDOW`` per thread
    queued or running), so that 10^5 runs do not make 10^5 futures up front. If the caller is interrupted
    (Ctrl-C) or a task raises, the :class:`CancelFlag` is set (running tasks stop at their next
    ``cancel.check()``), the few queued tasks are cancelled, the executor is shut down without waiting for
    them, and the exception is re-raised."""
    cancel = CancelFlag()
    threads = max(1, min(workers, n))
    pool = ThreadPoolExecutor(max_workers=threads)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n, desc=progress, leave=False)
    out = []
    try:
        pending = deque()
        submitted = 0
        while submitted < n or pending:
            while submitted < n and len(pending) < POOL_WINDOW * threads:
                pending.append(pool.submit(task, submitted, cancel))
                submitted += 1
            out.append(pending.popleft().result())
            if bar is not None:
                bar.update()
    except BaseException:
        cancel.set()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        if bar is not None:
            bar.close()
    pool.shutdown(wait=True)
    return out


POOL_WINDOW = 4
"""Tasks queued or running per worker thread in :func:`run_pool`: enough to keep every thread busy while
the results are collected in order, few enough that an interrupt has almost nothing to cancel."""


def log_checkpoints(horizon: int, points: int = 121) -> np.ndarray:
    """About ``points`` log-spaced pull counts from 1 to ``horizon`` (both included), unique and sorted."""
    horizon = check_int("horizon", horizon, minimum=1, maximum=MAX_HORIZON)
    points = check_int("points", points, minimum=2, maximum=MAX_POINTS)
    cp = np.unique(np.rint(np.geomspace(1, horizon, points)).astype(np.int64))
    cp[-1] = horizon
    return cp


def mean_and_half_width(values, level: float = 0.95):
    """Mean over runs (axis 0) and the half-width z * sd / sqrt(runs) (sd with ddof = 1) of its
    normal-approximation confidence interval at ``level``; the half-width is 0 for a single run."""
    from scipy.stats import norm

    v = as_float_array("values", values)
    if v.ndim == 0 or v.shape[0] == 0:
        raise ValueError(f"values must be a non-empty array with runs on axis 0, got shape {v.shape}")
    level = check_real("level", level)
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    runs = v.shape[0]
    half = norm.ppf(0.5 + level / 2) * v.std(axis=0, ddof=1) / np.sqrt(runs) if runs > 1 else np.zeros(v.shape[1:])
    return v.mean(axis=0), half


@dataclass
class SimulationResult:
    """What :func:`simulate` returns.

    ``checkpoints`` (C,), ``counts`` (runs, C, arms): N_a at each checkpoint, ``gaps`` (arms,).
    ``regret`` (runs, C) is the pseudo-regret sum_a N_a(t) Delta_a; ``pulls`` (runs, arms) the counts at
    the horizon. ``releases`` (runs,), for the global-DP policies, counts the private statistics each run
    computed (Azize and Basu, Table 1, "# Private Means"); None otherwise.
    """

    policy: str
    epsilon: float
    instance: str
    horizon: int
    runs: int
    seed: int
    checkpoints: np.ndarray
    counts: np.ndarray
    gaps: np.ndarray
    releases: np.ndarray | None = None

    @property
    def regret(self) -> np.ndarray:
        return self.counts @ self.gaps

    @property
    def pulls(self) -> np.ndarray:
        return self.counts[:, -1, :]

    def mean_regret(self) -> np.ndarray:
        """Mean pseudo-regret over runs at each checkpoint."""
        return self.regret.mean(axis=0)

    def regret_band(self, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Normal-approximation confidence band for the mean regret at each checkpoint."""
        m, half = mean_and_half_width(self.regret, level)
        return m - half, m + half

    def final_regret(self) -> np.ndarray:
        """Pseudo-regret of each run at the horizon."""
        return self.regret[:, -1]

    def at(self, t: int) -> np.ndarray:
        """Regret of each run at checkpoint ``t`` (which must be one of ``checkpoints``)."""
        idx = np.flatnonzero(self.checkpoints == t)
        if idx.size == 0:
            raise ValueError(f"t={t} is not a checkpoint of this result")
        return self.regret[:, idx[0]]

    def until(self, t: int) -> "SimulationResult":
        """The same runs cut at pull ``t`` (a checkpoint): a result of horizon ``t``.

        Run r's reward and noise streams do not depend on the horizon, so a run of horizon T cut at t
        is exactly the run of horizon t with the same seed (tests/test_figures.py checks it): one long
        simulation serves both a T = 10^6 panel and a T = 10^7 ratio curve.
        """
        t = check_int("t", t, minimum=1)
        idx = np.flatnonzero(self.checkpoints == t)
        if idx.size == 0:
            raise ValueError(f"t must be one of this result's checkpoints (1..{self.horizon}), got {t}")
        k = idx[0] + 1
        return SimulationResult(
            self.policy,
            self.epsilon,
            self.instance,
            t,
            self.runs,
            self.seed,
            self.checkpoints[:k].copy(),
            self.counts[:, :k].copy(),
            self.gaps,
        )

    @property
    def label(self) -> str:
        return self.policy if not np.isfinite(self.epsilon) else f"{self.policy} (ε = {self.epsilon:g})"


def ratio_of_means_se(num, den, *, paired: bool = True):
    r"""Delta-method standard error of the ratio of means :math:`\bar X/\bar Y` over runs.

    ``num`` and ``den`` hold one value per run along axis 0 (shape (runs,) or (runs, C), e.g.
    ``res.regret``); the result has the remaining shape. With :math:`R = \bar X/\bar Y`,

    .. math:: \mathrm{Var}(R) \approx \frac{1}{\bar Y^2}\Big(\frac{s_X^2}{n_X}
              - 2R\,\frac{s_{XY}}{n} + R^2\frac{s_Y^2}{n_Y}\Big),

    with sample (co)variances (ddof = 1). ``paired=True`` (runs with the same seed, common random
    numbers) keeps the covariance term and needs equal run counts; ``paired=False`` drops it.
    This is the standard error behind the tolerance of every regret-ratio claim (Ren et al. 2020,
    Sec. 4: "the ratio of the regrets of LDP-UCB-B to non-private UCB is 1.6").
    """
    x = as_float_array("num", num)
    y = as_float_array("den", den)
    for name, a in (("num", x), ("den", y)):
        if a.ndim not in (1, 2) or a.shape[0] < 2 or not np.isfinite(a).all():
            raise ValueError(
                f"{name} must be a finite array of shape (runs,) or (runs, C) with runs >= 2, got shape {a.shape}"
            )
    if x.shape[1:] != y.shape[1:]:
        raise ValueError(f"num and den must have the same shape after the runs axis, got {x.shape} and {y.shape}")
    if paired and x.shape[0] != y.shape[0]:
        raise ValueError(f"paired=True needs the same number of runs, got num {x.shape[0]} and den {y.shape[0]}")
    ym = y.mean(axis=0)
    if np.any(ym == 0):
        raise ValueError("den must have a non-zero mean (the ratio is undefined)")
    r = x.mean(axis=0) / ym
    var = x.var(axis=0, ddof=1) / x.shape[0] + r**2 * y.var(axis=0, ddof=1) / y.shape[0]
    if paired:
        cov = ((x - x.mean(axis=0)) * (y - ym)).sum(axis=0) / (x.shape[0] - 1)
        var = var - 2 * r * cov / x.shape[0]
    return np.sqrt(np.maximum(var, 0.0)) / np.abs(ym)


@dataclass(frozen=True)
class LinearFit:
    """Result of :func:`linear_fit`: ``slope`` a, ``intercept`` b, coefficient of determination ``r2``,
    and ``n`` the number of points."""

    slope: float
    intercept: float
    r2: float
    n: int

    def predict(self, x):
        """a x + b (broadcasts)."""
        return self.slope * np.asarray(x, dtype=float) + self.intercept


def linear_fit(x, y) -> LinearFit:
    r"""Ordinary least squares :math:`y \approx a x + b` and its :math:`R^2`, as in Figure 2 of Ren et al.
    (extended version, Section 4.2: "we linearly fit the empirical regrets and the values of
    :math:`V_L` or :math:`V_B`, and summarize the corresponding :math:`R^2`-value"):

    .. math:: a = \frac{\sum_i (x_i-\bar x)(y_i-\bar y)}{\sum_i (x_i-\bar x)^2},\quad b = \bar y - a\bar x,\quad
              R^2 = 1 - \frac{\sum_i (y_i - a x_i - b)^2}{\sum_i (y_i-\bar y)^2}.

    With an intercept, :math:`R^2` equals the squared Pearson correlation of x and y. Lives here, beside
    :func:`ratio_of_means_se`, because it summarises simulated regrets; it is not a bound.

    Raises ValueError unless x and y are finite 1-d arrays of the same length >= 3 (two points fit
    exactly), x is not constant, and y is not constant (R^2 undefined).
    """
    xs = as_float_array("x", x)
    ys = as_float_array("y", y)
    for name, a in (("x", xs), ("y", ys)):
        if a.ndim != 1 or a.size < 3 or not np.isfinite(a).all():
            raise ValueError(
                f"{name} must be a finite 1-d array of at least 3 points, got shape {a.shape}"
                + ("" if np.isfinite(a).all() else " with non-finite values")
            )
    if xs.size != ys.size:
        raise ValueError(f"x and y must have the same length, got {xs.size} and {ys.size}")
    dx, dy = xs - xs.mean(), ys - ys.mean()
    sxx, syy = float(dx @ dx), float(dy @ dy)
    if sxx == 0:
        raise ValueError(f"x must not be constant (all values {xs[0]!r}): the slope is undefined")
    if syy == 0:
        raise ValueError(f"y must not be constant (all values {ys[0]!r}): R^2 is undefined")
    slope = float(dx @ dy) / sxx
    intercept = float(ys.mean() - slope * xs.mean())
    resid = ys - slope * xs - intercept
    return LinearFit(slope=slope, intercept=intercept, r2=float(1.0 - (resid @ resid) / syy), n=int(xs.size))


@dataclass(frozen=True)
class HingeFit:
    """Result of :func:`hinge_fit`: the ``breakpoint`` x*, the ``plateau`` value of y above it, the
    ``slope`` of log y against log x below it, the coefficient of determination ``r2`` on log y, ``n`` points."""

    breakpoint: float
    plateau: float
    slope: float
    r2: float
    n: int

    def predict(self, x):
        """plateau * min(x / x*, 1) ** slope (broadcasts)."""
        x = np.asarray(x, dtype=float)
        return self.plateau * np.minimum(x / self.breakpoint, 1.0) ** self.slope


def hinge_fit(x, y, *, grid: int = 2001) -> HingeFit:
    r"""Two regimes in log-log coordinates: :math:`\log y \approx a + b\,\min(\log x - \log x^*, 0)`, a power
    law of slope b below the breakpoint x* and a plateau :math:`e^a` above it, fitted by least squares.

    This is how the book locates a regime change such as Figure 3 of Azize and Basu (2022), where the
    regret of AdaP-KLUCB depends on ε below some ε* and not above it: for each candidate x* on a log grid
    of ``grid`` points strictly inside the range of x, a and b are ordinary least squares, and x* is the
    candidate of least squared error. Needs at least 4 points, x > 0 and y > 0, all finite.
    """
    xs = as_float_array("x", x)
    ys = as_float_array("y", y)
    for name, a in (("x", xs), ("y", ys)):
        if a.ndim != 1 or a.size < 4 or not np.isfinite(a).all() or (a <= 0).any():
            raise ValueError(f"{name} must be a 1-d array of at least 4 finite positive numbers, got {a!r}")
    if xs.size != ys.size:
        raise ValueError(f"x and y must have the same length, got {xs.size} and {ys.size}")
    grid = check_int("grid", grid, minimum=3)
    lx, ly = np.log(xs), np.log(ys)
    if lx.max() == lx.min():
        raise ValueError("x must not be constant")
    cands = np.linspace(lx.min(), lx.max(), grid + 2)[1:-1]
    best = (np.inf, None)
    for c in cands:
        h = np.minimum(lx - c, 0.0)
        A = np.column_stack([np.ones_like(h), h])
        coef, *_ = np.linalg.lstsq(A, ly, rcond=None)
        sse = float(((A @ coef - ly) ** 2).sum())
        if sse < best[0]:
            best = (sse, (c, coef))
    sse, (c, (a, b)) = best
    syy = float(((ly - ly.mean()) ** 2).sum())
    return HingeFit(
        breakpoint=float(np.exp(c)),
        plateau=float(np.exp(a)),
        slope=float(b),
        r2=float(1 - sse / syy) if syy > 0 else 1.0,
        n=int(xs.size),
    )


@dataclass(frozen=True)
class HingeBootstrap:
    """Result of :func:`hinge_bootstrap`: ``fit`` (the :class:`HingeFit` of the mean over all runs) and, per
    bootstrap replicate, the resampled run ``indices`` (n_boot, runs) and the refitted ``breakpoints``,
    ``plateaus`` and ``slopes`` (n_boot,)."""

    fit: HingeFit
    indices: np.ndarray
    breakpoints: np.ndarray
    plateaus: np.ndarray
    slopes: np.ndarray

    @property
    def breakpoint_se(self) -> float:
        """Bootstrap standard error of the breakpoint (sd of the replicates, ddof = 1)."""
        return float(np.std(self.breakpoints, ddof=1))

    @property
    def plateau_se(self) -> float:
        return float(np.std(self.plateaus, ddof=1))

    @property
    def slope_se(self) -> float:
        return float(np.std(self.slopes, ddof=1))


def hinge_bootstrap(x, values, *, n_boot: int = 1000, seed: int = 0, grid: int = 2001) -> HingeBootstrap:
    r"""Bootstrap over runs of :func:`hinge_fit`, for the standard error of a regime change such as the
    breakpoint ε* of Figure 3 of Azize and Basu (2022).

    ``values`` has one row per run and one column per x (e.g. the regret at T of each run at each ε).
    Replicate k draws ``runs`` row indices with replacement from ``np.random.default_rng(seed)`` (all
    replicates in one ``integers(0, runs, size=(n_boot, runs))`` call), averages the chosen rows at each x
    and refits the hinge on the same candidate grid as :func:`hinge_fit`. The refit is done for all
    replicates at once in closed form: for a candidate x* with :math:`h_i = \min(\log x_i - \log x^*, 0)`,
    the least-squares slope is :math:`b = S_{hy}/S_{hh}` and the squared error :math:`S_{yy} - S_{hy}^2/S_{hh}`
    (centred sums), the same minimisation :func:`hinge_fit` solves one replicate at a time.

    Raises ValueError unless ``values`` is a (runs, len(x)) array of finite numbers > 0 with runs >= 2, and
    x is as :func:`hinge_fit` requires.
    """
    xs = as_float_array("x", x)
    v = as_float_array("values", values)
    if v.ndim != 2 or v.shape[0] < 2 or v.shape[1] != xs.size:
        raise ValueError(
            f"values must have shape (runs >= 2, {xs.size}) (one row per run, one column per x), got {v.shape}"
        )
    if not np.isfinite(v).all() or (v <= 0).any():
        raise ValueError("values must be finite and > 0 (their means are fitted on log axes)")
    n_boot = check_int("n_boot", n_boot, minimum=2)
    seed = check_int("seed", seed, minimum=0)
    fit = hinge_fit(xs, v.mean(axis=0), grid=grid)  # also validates x and grid
    idx = bootstrap_indices(v.shape[0], n_boot, seed)
    ly = np.log(v[idx].mean(axis=1))  # (n_boot, n)
    lx = np.log(xs)
    cands = np.linspace(lx.min(), lx.max(), grid + 2)[1:-1]
    h = np.minimum(lx[None, :] - cands[:, None], 0.0)  # (grid, n)
    hc = h - h.mean(axis=1, keepdims=True)
    yc = ly - ly.mean(axis=1, keepdims=True)
    shh = (hc**2).sum(axis=1)  # (grid,) > 0: the largest x has h = 0, others < 0
    shy = hc @ yc.T  # (grid, n_boot)
    sse = (yc**2).sum(axis=1)[None, :] - shy**2 / shh[:, None]
    best = np.argmin(sse, axis=0)
    cols = np.arange(n_boot)
    slopes = shy[best, cols] / shh[best]
    intercepts = ly.mean(axis=1) - slopes * h[best].mean(axis=1)
    return HingeBootstrap(
        fit=fit, indices=idx, breakpoints=np.exp(cands[best]), plateaus=np.exp(intercepts), slopes=slopes
    )


# ----------------------------------------------------------------------------------------------
# Measured exponents: one least-squares slope, one bootstrap over runs
# ----------------------------------------------------------------------------------------------


def bootstrap_indices(runs: int, n_boot: int, seed: int) -> np.ndarray:
    """Run indices of ``n_boot`` bootstrap replicates, drawn with replacement in one
    ``np.random.default_rng(seed).integers(0, runs, size=(n_boot, runs))`` call: the resampling of every
    bootstrap over runs in this module (:func:`hinge_bootstrap`, :func:`loglog_slope`, ...)."""
    runs = check_int("runs", runs, minimum=1)
    n_boot = check_int("n_boot", n_boot, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    return np.random.default_rng(seed).integers(0, runs, size=(n_boot, runs))


def mean_se(values) -> float:
    """Standard error of the mean over runs, :math:`s/\\sqrt{n}` (ddof = 1): the ``se`` of every claim that is a
    mean over independent runs (a mean regret, a mean count)."""
    x = as_float_array("values", values)
    if x.ndim != 1 or x.size < 2 or not np.isfinite(x).all():
        raise ValueError(f"values must be a finite 1-d array of at least 2 runs, got shape {x.shape}")
    return float(x.std(ddof=1) / math.sqrt(x.size))


def bootstrap_se(statistic, *arrays, n_boot: int = 1000, seed: int = 0) -> float:
    """Bootstrap standard error over runs of ``statistic(*arrays)``, a number computed from per-run arrays.

    Each array holds one row per run (axis 0, the same number of runs: paired, common random numbers);
    each replicate resamples the runs with replacement, the same rows in every array
    (:func:`bootstrap_indices`), and recomputes the statistic. Returns the standard deviation (ddof = 1)
    of the replicates: the ``se`` of a claim such as an R^2 or a difference of fitted values, which has no
    closed-form standard error."""
    if not callable(statistic):
        raise TypeError(f"statistic must be a function of the arrays, got {statistic!r}")
    if not arrays:
        raise ValueError("bootstrap_se needs at least one array of per-run values")
    arrs = [as_float_array(f"arrays[{i}]", a) for i, a in enumerate(arrays)]
    runs = arrs[0].shape[0] if arrs[0].ndim else 0
    if runs < 2 or any(a.ndim == 0 or a.shape[0] != runs for a in arrs):
        raise ValueError(
            f"every array needs the same number of runs (>= 2) along axis 0, got shapes {[a.shape for a in arrs]}"
        )
    n_boot = check_int("n_boot", n_boot, minimum=2)
    idx = bootstrap_indices(runs, n_boot, seed)
    reps = np.array([float(statistic(*(a[i] for a in arrs))) for i in idx])
    if not np.isfinite(reps).all():
        raise ValueError("statistic gave a non-finite value on a bootstrap replicate")
    return float(reps.std(ddof=1))


def _row_slopes(x: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Least-squares slopes of each row of ``ys`` (n_boot, n) on ``x`` (n,): the slope of :func:`linear_fit`,
    in closed form for all rows at once."""
    xc = x - x.mean()
    return (ys - ys.mean(axis=1, keepdims=True)) @ xc / (xc @ xc)


@dataclass(frozen=True, eq=False)
class SlopeFit:
    r"""A measured exponent (or growth rate) with its uncertainty from a bootstrap over runs.

    ``slope``, ``intercept`` and ``r2`` are :func:`linear_fit` of the fitted points: ordinate ``y`` (the
    mean regret over runs, its log, or a ratio of means; see the function that made it) against abscissa
    ``x`` (as given, before any log), ``n`` points. ``se`` is the standard deviation (ddof = 1) of the
    slopes refitted on ``n_boot`` bootstrap replicates of the runs, and [``ci_low``, ``ci_high``] their
    percentile interval at ``level``. ``n_boot`` counts the replicates actually used (those whose means
    could be logged, see :func:`loglog_slope`).
    """

    slope: float
    intercept: float
    se: float
    ci_low: float
    ci_high: float
    r2: float
    n: int
    level: float
    n_boot: int
    x: np.ndarray
    y: np.ndarray

    def predict(self, x):
        """slope * x + intercept, in the fitted coordinates (log t for an exponent; broadcasts), as
        :meth:`LinearFit.predict`."""
        return self.slope * np.asarray(x, dtype=float) + self.intercept


def _check_runs_matrix(name: str, values, n_points: int, *, min_runs: int = 2) -> np.ndarray:
    v = as_float_array(name, values)
    if v.ndim != 2 or v.shape[1] != n_points or v.shape[0] < min_runs:
        raise ValueError(
            f"{name} must have shape (runs >= {min_runs}, {n_points}) (one row per run, one column "
            f"per point), got {v.shape}"
        )
    if not np.isfinite(v).all():
        raise ValueError(f"{name} must be finite")
    return v


def _check_abscissa(name: str, x, *, positive: bool) -> np.ndarray:
    xs = as_float_array(name, x)
    if xs.ndim != 1 or xs.size < 3 or not np.isfinite(xs).all() or (positive and (xs <= 0).any()):
        raise ValueError(
            f"{name} must be a 1-d array of at least 3 finite"
            + (" positive" if positive else "")
            + f" numbers (log taken), got {x!r}"
        )
    return xs


def _fit_range(t, t_min):
    ts = _check_abscissa("t", t, positive=True)
    if t_min is None:
        return ts, np.ones(ts.size, dtype=bool)
    t_min = check_real("t_min", t_min)
    keep = ts >= t_min
    if keep.sum() < 3:
        raise ValueError(f"t_min={t_min!r} must leave at least 3 points of t to fit, leaves {int(keep.sum())}")
    return ts, keep


def _check_boot(n_boot, seed, level):
    n_boot = check_int("n_boot", n_boot, minimum=2)
    seed = check_int("seed", seed, minimum=0)
    level = check_real("level", level)
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    return n_boot, seed, level


def _slope_fit(x, y, lx, boot_y, level, *, log_y: bool) -> SlopeFit:
    """:func:`linear_fit` of (lx, y or log y) and the bootstrap of the slope from ``boot_y`` (n_boot, n):
    with ``log_y``, replicates with a mean <= 0 somewhere cannot be logged and are left out."""
    if log_y:
        ok = (boot_y > 0).all(axis=1)
        if ok.sum() < 2:
            raise ValueError(
                f"fewer than 2 bootstrap replicates have positive means at every point "
                f"({int(ok.sum())} of {boot_y.shape[0]}); the log-log slope has no bootstrap"
            )
        boot_y = np.log(boot_y[ok])
    fit = linear_fit(lx, np.log(y) if log_y else y)
    slopes = _row_slopes(lx, boot_y)
    lo, hi = np.quantile(slopes, [(1 - level) / 2, (1 + level) / 2])
    return SlopeFit(
        slope=fit.slope,
        intercept=fit.intercept,
        se=float(slopes.std(ddof=1)),
        ci_low=float(lo),
        ci_high=float(hi),
        r2=fit.r2,
        n=fit.n,
        level=float(level),
        n_boot=int(slopes.size),
        x=np.asarray(x, dtype=float),
        y=np.asarray(y, dtype=float),
    )


def loglog_slope(t, regret_runs, *, t_min=None, n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> SlopeFit:
    r"""Measured exponent a of :math:`\bar R(t) \approx C t^a`: the least-squares slope (:func:`linear_fit`)
    of :math:`\log \bar R(t)` against :math:`\log t` over the points :math:`t \ge` ``t_min`` (all if None),
    :math:`\bar R` the mean over runs of ``regret_runs`` (runs, len(t)). This is how every rate of Table 1
    of Zheng et al. (2020) becomes a number: t may be checkpoints of one run set, horizons simulated
    separately (then column j is the regret at the end of horizon j), or any positive abscissa (e.g. ε).

    Why a bootstrap over runs: runs are independent, the points of one run are not (a prefix of a run is
    part of the run, and runs of one seed share their streams across horizons), so the least-squares
    standard error would be wrong. Replicate k resamples whole rows (:func:`bootstrap_indices`), averages
    them and refits the slope; ``se`` and the percentile interval come from these slopes. A replicate
    whose mean is <= 0 at some point cannot be logged and is left out (``SlopeFit.n_boot`` counts the rest).

    ``SlopeFit.y`` holds the mean regret at the fitted points. Raises ValueError (naming the parameter) if
    t is not positive, ``regret_runs`` has the wrong shape (>= 2 runs), ``t_min`` leaves fewer than 3 points,
    or the mean regret is <= 0 at a fitted point.
    """
    ts, keep = _fit_range(t, t_min)
    v = _check_runs_matrix("regret_runs", regret_runs, ts.size)[:, keep]
    n_boot, seed, level = _check_boot(n_boot, seed, level)
    m = v.mean(axis=0)
    if (m <= 0).any():
        raise ValueError("regret_runs must have a mean > 0 at every fitted point (its log is fitted)")
    idx = bootstrap_indices(v.shape[0], n_boot, seed)
    return _slope_fit(ts[keep], m, np.log(ts[keep]), v[idx].mean(axis=1), level, log_y=True)


def log_growth(t, regret_runs, *, t_min=None, n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> SlopeFit:
    r"""Growth against log t, for O(log T) rates (Theorem 6 of Zheng et al. 2020, strongly convex two-point
    BCO): the least-squares slope b and :math:`R^2` of :math:`\bar R(t) \approx a + b\log t` over the points
    :math:`t \ge` ``t_min`` (all if None), :math:`\bar R` the mean over runs of ``regret_runs`` (runs,
    len(t)). A logarithmic rate shows as :math:`R^2` near 1 (a power law would curve on these axes); b is
    the constant in front of log T. ``se`` and the interval come from resampling runs, as in
    :func:`loglog_slope` (no replicate is left out: nothing is logged but t). ``SlopeFit.y`` is the mean
    regret. Raises ValueError on bad shapes, t <= 0, or a ``t_min`` that leaves fewer than 3 points.
    """
    ts, keep = _fit_range(t, t_min)
    v = _check_runs_matrix("regret_runs", regret_runs, ts.size)[:, keep]
    n_boot, seed, level = _check_boot(n_boot, seed, level)
    idx = bootstrap_indices(v.shape[0], n_boot, seed)
    return _slope_fit(ts[keep], v.mean(axis=0), np.log(ts[keep]), v[idx].mean(axis=1), level, log_y=False)


def ratio_exponent(
    x, num_runs, den_runs, *, paired: bool = True, n_boot: int = 1000, seed: int = 0, level: float = 0.95
) -> SlopeFit:
    r"""Slope of :math:`\log(\bar X_j/\bar Y)` against :math:`\log x_j`: how the private / non-private regret
    ratio grows with x, e.g. x = 1/ε (Table 1 of Zheng et al. 2020 states ratio ∝ 1/ε, slope 1, for one-point
    feedback; Theorem 3 gives at most 1 when the learner's regret is proportional to its feedback range).

    ``num_runs`` (runs, len(x)): column j the private regrets at x_j; ``den_runs`` (runs,): the non-private
    ones. The bootstrap resamples runs as :func:`loglog_slope` does; ``paired=True`` (runs with the same
    seeds, common random numbers, as in :func:`ratio_of_means_se`) resamples the same run indices for
    numerator and denominator and needs equal run counts, ``paired=False`` draws the denominator's
    indices separately (after the numerator's, from the same generator). Replicates with a ratio <= 0 are
    left out. ``SlopeFit.y`` holds the ratios of means. Raises ValueError on bad shapes, x <= 0, or a
    ratio of means <= 0.
    """
    xs = _check_abscissa("x", x, positive=True)
    num = _check_runs_matrix("num_runs", num_runs, xs.size)
    den = as_float_array("den_runs", den_runs)
    if den.ndim != 1 or den.size < 2 or not np.isfinite(den).all():
        raise ValueError(f"den_runs must be a finite array of shape (runs >= 2,), got {den.shape}")
    if paired and den.size != num.shape[0]:
        raise ValueError(
            f"paired=True needs as many runs in den_runs as in num_runs, got {den.size} and {num.shape[0]}"
        )
    n_boot, seed, level = _check_boot(n_boot, seed, level)
    r = num.mean(axis=0) / den.mean()
    if not (r > 0).all():
        raise ValueError("every ratio of mean regrets num_runs / den_runs must be > 0 (its log is fitted)")
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, num.shape[0], size=(n_boot, num.shape[0]))
    jdx = idx if paired else rng.integers(0, den.size, size=(n_boot, den.size))
    boot = num[idx].mean(axis=1) / den[jdx].mean(axis=1)[:, None]
    return _slope_fit(xs, r, np.log(xs), boot, level, log_y=True)


def _show_checkpoints(checkpoints) -> str:
    text = repr(checkpoints)
    return text if len(text) <= 120 else text[:117] + "..."


def resolve_checkpoints(horizon: int, checkpoints=None, points: int = 121) -> np.ndarray:
    """The checkpoints of a simulation, shared by every engine: :func:`log_checkpoints` (``points``) if
    ``checkpoints`` is None, else ``checkpoints`` as int64, which must be a strictly increasing sequence of
    whole rounds in [1, ``horizon``] whose last element is ``horizon`` (the result's pulls and final regret
    are read there; a result that stopped at t = 50 while saying horizon 100 would be wrong)."""
    horizon = check_int("horizon", horizon, minimum=1, maximum=MAX_HORIZON)
    if checkpoints is None:
        return log_checkpoints(horizon, points)
    try:
        cpf = as_float_array("checkpoints", checkpoints)
    except TypeError:
        raw = np.asarray(checkpoints, dtype=object) if not isinstance(checkpoints, (str, bytes)) else None
        if (
            raw is not None
            and raw.ndim == 1
            and raw.size
            and all(isinstance(c, int) and not isinstance(c, bool) for c in raw)
        ):
            raise ValueError(
                f"checkpoints must be whole rounds in [1, horizon={horizon}], got {_show_checkpoints(checkpoints)}"
            ) from None  # integers beyond int64
        raise
    if cpf.ndim != 1 or not np.isfinite(cpf).all() or (cpf != np.round(cpf)).any():
        raise ValueError(
            f"checkpoints must be a 1-d sequence of whole rounds in [1, horizon={horizon}], "
            f"got {_show_checkpoints(checkpoints)}"
        )
    if cpf.size == 0 or cpf.min() < 1 or cpf.max() > horizon:
        raise ValueError(
            f"checkpoints must be a strictly increasing sequence of rounds in [1, horizon={horizon}], "
            f"got {_show_checkpoints(checkpoints)}"
        )
    raw = np.asarray(checkpoints)
    cp = raw.astype(np.int64) if raw.dtype.kind in "iu" else cpf.astype(np.int64)  # ints compared exactly
    if (np.diff(cp) <= 0).any() or cp[0] < 1 or cp[-1] > horizon:
        raise ValueError(
            f"checkpoints must be a strictly increasing sequence of rounds in [1, horizon={horizon}], "
            f"got {_show_checkpoints(checkpoints)}"
        )
    if cp[-1] != horizon:
        raise ValueError(
            f"checkpoints must end at the horizon, {horizon} (the result's pulls and final regret are "
            f"read at the last checkpoint), got a last checkpoint of {int(cp[-1])}; append {horizon} "
            f"to checkpoints, or simulate with horizon={int(cp[-1])}"
        )
    return cp


def _check_compatible(policy, instance: Instance, levels) -> None:
    if isinstance(policy, HeterogeneousPolicy):
        if not isinstance(levels, PrivacyLevels):
            raise ValueError(
                f"policy {policy.name!r} needs privacy_levels=make_privacy_levels(...), the users' "
                f"distribution of eps_t; got {levels!r}"
            )
        if levels.p_at_least(policy.epsilon_min) <= 0:
            raise ValueError(
                f"no user of {levels.name!r} ever reaches epsilon_min={policy.epsilon_min:g}: every "
                f"response would be discarded and the agent could never learn; lower epsilon_min"
            )
    elif levels is not None:
        raise ValueError(f"privacy_levels is only for the heterogeneous HeLDP-UCB-* policies, not {policy.name!r}")
    elif not isinstance(policy, (IndexPolicy, *_GLOBAL)):
        raise TypeError(f"policy must come from make_policy(), got {policy!r}")
    if not isinstance(instance, Instance):
        raise TypeError(f"instance must come from make_instance(), got {instance!r}")
    if policy.needs_bounded_rewards and not instance.bounded:
        if isinstance(policy, _GLOBAL):
            raise ValueError(
                f"policy {policy.name!r} needs rewards in [0, 1] (its privacy or its index rests on "
                f"it) but instance {instance.name!r} is unbounded"
            )
        raise ValueError(
            f"policy {policy.name!r} needs rewards in [0, 1] but instance {instance.name!r} is unbounded; "
            f"use its Sigmoid version {policy.name}S"
        )


def _label_of(policy) -> float:
    return policy.epsilon_min if isinstance(policy, HeterogeneousPolicy) else policy.epsilon


def run_streams(seed_seq: np.random.SeedSequence, k: int = 2) -> tuple[np.random.Generator, ...]:
    """The generators of one run: users' rewards, curator noise and (k = 3) users' privacy levels.

    Derived from the run's spawn key, not with ``seed_seq.spawn`` (which counts its calls), so the same
    run always gets the same streams, however often and by whom they are asked for.
    """
    return tuple(
        np.random.Generator(
            np.random.PCG64(
                np.random.SeedSequence(
                    entropy=seed_seq.entropy, spawn_key=(*seed_seq.spawn_key, i), pool_size=seed_seq.pool_size
                )
            )
        )
        for i in range(k)
    )


def run_one(
    policy: IndexPolicy,
    instance: Instance,
    horizon: int,
    seed_seq: np.random.SeedSequence,
    checkpoints: np.ndarray,
    cancel: CancelFlag | None = None,
) -> np.ndarray:
    """One run with the compiled kernel; returns the counts at the checkpoints, shape (C, arms). ``cancel``
    is checked before each chunk of ``CHUNK`` pulls."""
    reward_rng, noise_rng = run_streams(seed_seq)
    n = instance.n_arms
    counts = np.zeros(n, dtype=np.int64)
    sums = np.zeros(n)
    means = np.zeros(n)
    widths = np.zeros(n)
    counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
    code, sig, scale, exp_eps = policy.kernel_args()
    t = ci = 0
    while t < horizon:
        if cancel is not None:
            cancel.check()
        m = min(CHUNK, horizon - t)
        rd = instance.draw_stream(reward_rng, m)
        nd = policy.draw_noise(noise_rng, m)
        t, ci = index_policy_chunk(
            t,
            horizon,
            instance.families,
            instance.params,
            rd,
            nd,
            code,
            sig,
            scale,
            exp_eps,
            policy.index_constant,
            policy.forced_exploration,
            counts,
            sums,
            means,
            widths,
            checkpoints,
            ci,
            counts_out,
        )
    return counts_out


def run_one_heterogeneous(
    policy: HeterogeneousPolicy,
    instance: Instance,
    levels: PrivacyLevels,
    horizon: int,
    seed_seq: np.random.SeedSequence,
    checkpoints: np.ndarray,
    cancel: CancelFlag | None = None,
) -> np.ndarray:
    """One run of a HeLDP policy; users' levels come from a third stream. Returns counts (C, arms)."""
    reward_rng, noise_rng, level_rng = run_streams(seed_seq, 3)
    n = instance.n_arms
    counts = np.zeros(n, dtype=np.int64)
    kept = np.zeros(n, dtype=np.int64)
    sums, acc, means, widths = (np.zeros(n) for _ in range(4))
    counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
    t = ci = 0
    while t < horizon:
        if cancel is not None:
            cancel.check()
        m = min(CHUNK, horizon - t)
        rd = instance.draw_stream(reward_rng, m)
        nd = policy.draw_noise(noise_rng, m)
        ed = levels.sample(level_rng, m)
        t, ci = heterogeneous_chunk(
            t,
            horizon,
            instance.families,
            instance.params,
            rd,
            nd,
            ed,
            policy.mechanism_code,
            policy.use_sigmoid,
            policy.epsilon_min,
            policy.forced_exploration,
            counts,
            kept,
            sums,
            acc,
            means,
            widths,
            checkpoints,
            ci,
            counts_out,
        )
    return counts_out


@functools.lru_cache(maxsize=None)
def _run_takes_cancel(cls) -> bool:
    """Whether ``cls.run`` takes ``cancel`` (a subclass written before it, such as the audits' deliberately
    broken policies, may not: it then runs to its end, as before)."""
    return "cancel" in inspect.signature(cls.run).parameters


def run_one_global(
    policy,
    instance: Instance,
    horizon: int,
    seed_seq: np.random.SeedSequence,
    checkpoints: np.ndarray,
    *,
    sampler: str = "exact",
    cancel: CancelFlag | None = None,
) -> tuple[np.ndarray, int]:
    """One run of an ε-global DP policy (or KL-UCB); returns (counts at the checkpoints, private releases).

    Episodic policies (AdaP-*, DP-SE) advance a whole episode at a time (see
    :mod:`ldpcode.global_policies`; ``cancel`` is checked between episodes); DP-UCB and KL-UCB step with
    compiled kernels (``cancel`` checked between chunks).
    """
    reward_rng, noise_rng = run_streams(seed_seq)
    if policy.episodic:
        kw = {"cancel": cancel} if cancel is not None and _run_takes_cancel(type(policy)) else {}
        blocks = policy.run(instance, horizon, reward_rng, noise_rng, sampler=sampler, **kw)
        return blocks.counts_at(checkpoints), blocks.releases
    n = instance.n_arms
    counts = np.zeros(n, dtype=np.int64)
    sums = np.zeros(n)
    counts_out = np.zeros((checkpoints.shape[0], n), dtype=np.int64)
    t = ci = 0
    if isinstance(policy, gp.DPUCB):
        depth, scale, bound = gp.dp_ucb_noise_bound(horizon, n, policy.epsilon, policy.gamma)
        nodes = np.zeros((n, depth))
        means, widths = np.zeros(n), np.zeros(n)
        while t < horizon:
            if cancel is not None:
                cancel.check()
            m = min(CHUNK, horizon - t)
            rd = instance.draw_stream(reward_rng, m)
            nd = mech.draw_noise(mech.LAPLACE, noise_rng, m)
            t, ci = gp.dp_ucb_chunk(
                t,
                horizon,
                instance.families,
                instance.params,
                rd,
                nd,
                scale,
                bound,
                counts,
                sums,
                nodes,
                means,
                widths,
                checkpoints,
                ci,
                counts_out,
            )
        return counts_out, horizon  # one new private sum per pull
    while t < horizon:
        if cancel is not None:
            cancel.check()
        rd = instance.draw_stream(reward_rng, min(CHUNK, horizon - t))
        t, ci = gp.klucb_chunk(
            t, horizon, instance.families, instance.params, rd, counts, sums, checkpoints, ci, counts_out
        )
    return counts_out, 0


def default_workers() -> int:
    """The number of worker threads of a call that does not say: ``LDPCODE_WORKERS`` (a positive integer) if
    that environment variable is set, else every core; never more than the cores."""
    cores = os.cpu_count() or 1
    text = os.environ.get("LDPCODE_WORKERS")
    if text is None:
        return cores
    try:
        value = int(text.strip())
    except ValueError:
        value = None
    if value is None or value < 1:
        raise ValueError(
            f"the environment variable LDPCODE_WORKERS must be a positive integer (the number of "
            f"worker threads; unset it to use every core), got {text!r}"
        )
    return min(cores, value)


def _episodes_bound(n_arms: int, horizon: int) -> int:
    """At most K(floor(log2 T) + 1) + 1 episodes a run: the first block, then each arm's count doubles with
    each of its episodes (Algorithm 1, Line 7); DP-SE has far fewer epochs."""
    return n_arms * (int(horizon).bit_length()) + 1


def simulate_cost(
    policy, instance: Instance, horizon: int, runs: int, n_checkpoints: int, workers: int = 1
) -> tuple[float, float, str]:
    """Estimated (core-seconds, bytes, description) of ``simulate(policy, instance, horizon, runs)`` with
    ``n_checkpoints`` checkpoints on ``workers`` threads, from the throughputs of the module docstring.

    Memory: the counts (runs, C, K) int64, twice (each run's array and the stacked result), 4 KiB a run of
    bookkeeping (its seed sequence, future and array headers), and per thread the draw buffers (three of
    ``CHUNK`` doubles) and, for the episodic engine, its list of episodes (~400 bytes each)."""
    K = instance.n_arms
    threads = max(1, min(workers, runs))
    if isinstance(policy, HeterogeneousPolicy):
        name, ns = "pulls of a heterogeneous policy", 100 + 3 * K
    elif isinstance(policy, gp.DPUCB):
        name, ns = "pulls of DP-UCB", 250 + 3 * K
    elif isinstance(policy, gp.KLUCB):
        name, ns = "pulls of KL-UCB", 4000 + 45 * K
    elif isinstance(policy, _GLOBAL) and policy.episodic:
        episodes = _episodes_bound(K, horizon)
        exact = all(a.family in (ins.BERNOULLI, ins.GAUSSIAN) for a in instance.arms)
        per_run = episodes * (20 + 4 * K) * 1e-6 + (0.0 if exact else 20e-9 * horizon)
        seconds = runs * per_run
        nbytes = (
            runs * (2 * n_checkpoints * K * 8 + 4096)
            + threads * episodes * 400
            + (0 if exact else threads * 3 * 2**20 * 8)
        )
        work = (
            f"runs={runs} x horizon={horizon}: at most {episodes} episodes a run of {policy.name} on {K} arms "
            f"at {20 + 4 * K} µs an episode"
            + ("" if exact else ", and every pull's reward drawn at 20 ns (arms neither Bernoulli nor Gaussian)")
        )
        return seconds, nbytes, work
    else:
        name, ns = "pulls of an index policy", 60 + 3 * K
    pulls = runs * horizon
    seconds = pulls * ns * 1e-9
    nbytes = runs * (2 * n_checkpoints * K * 8 + 4096) + threads * (3 * CHUNK * 8 + 64 * K * 8)
    work = f"runs={runs} x horizon={horizon} = {pulls:.3g} {name} on {K} arms at {ns} ns a pull"
    return seconds, nbytes, work


def simulate(
    policy: IndexPolicy,
    instance: Instance,
    horizon: int,
    runs: int = 50,
    seed: int = 0,
    *,
    checkpoints=None,
    workers: int | None = None,
    progress: bool | None = None,
    privacy_levels: PrivacyLevels | None = None,
    limits: Limits | None = None,
) -> SimulationResult:
    """Simulate ``runs`` independent runs of ``policy`` on ``instance`` for ``horizon`` pulls.

    ``checkpoints`` defaults to :func:`log_checkpoints` (given, they must end at ``horizon``); ``workers``
    threads share the runs (the result does not depend on it; default :func:`default_workers`);
    ``progress`` shows a bar over runs (default: only on a terminal). ``privacy_levels`` (heterogeneous
    policies only) is the users' distribution of eps_t. ``limits`` (a :class:`Limits`, default
    ``Limits()``) caps the estimated time and memory (:func:`simulate_cost`), checked before any work.
    Ctrl-C stops the call within a fraction of a second (module docstring).
    """
    _check_compatible(policy, instance, privacy_levels)
    horizon = check_int("horizon", horizon, minimum=instance.n_arms, maximum=MAX_HORIZON)
    runs = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
    seed = check_int("seed", seed, minimum=0)
    checkpoints = resolve_checkpoints(horizon, checkpoints)
    workers = default_workers() if workers is None else check_int("workers", workers, minimum=1, maximum=MAX_WORKERS)
    seconds, nbytes, work = simulate_cost(policy, instance, horizon, runs, checkpoints.size, workers)
    check_limits("simulate", work, seconds, nbytes, limits)
    children = np.random.SeedSequence(seed).spawn(runs)
    if progress is None:
        progress = sys.stderr.isatty() and horizon * runs >= 10**8

    is_global = isinstance(policy, _GLOBAL)

    def task(r, cancel):
        if privacy_levels is not None:
            return run_one_heterogeneous(policy, instance, privacy_levels, horizon, children[r], checkpoints, cancel)
        if is_global:
            return run_one_global(policy, instance, horizon, children[r], checkpoints, cancel=cancel)
        return run_one(policy, instance, horizon, children[r], checkpoints, cancel)

    out = run_pool(task, runs, workers, progress=f"{policy!r} T={horizon:,}" if progress else None)
    releases = None
    if is_global:
        releases = np.array([o[1] for o in out], dtype=np.int64)
        out = [o[0] for o in out]
    return SimulationResult(
        policy.name,
        _label_of(policy),
        instance.name,
        horizon,
        runs,
        seed,
        checkpoints,
        np.stack(out),
        instance.gaps,
        releases,
    )
