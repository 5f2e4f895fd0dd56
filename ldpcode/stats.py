"""Statistics of simulated runs: confidence intervals, regression fits and bootstraps over runs.

Every number the book reads off simulated regrets goes through here; nothing here simulates. It serves:

* the confidence bands of every regret curve (:func:`mean_and_half_width`) and the standard error of every
  claim that is a mean (:func:`mean_se`) or has no closed form (:func:`bootstrap_se`);
* regret ratios, private over non-private (:func:`ratio_of_means_se`; Ren et al. 2020, Sec. 4, "the ratio
  of the regrets of LDP-UCB-B to non-private UCB is 1.6");
* the linear fits and R^2 of regret against V_L or V_B (:func:`linear_fit`; Ren et al., Figure 2);
* the regime change in ε of AdaP-KLUCB's regret (:func:`hinge_fit`, :func:`hinge_bootstrap`; Azize and
  Basu 2022, Figure 3);
* the measured exponents of Table 1 of Zheng et al. (2020): power laws (:func:`loglog_slope`), log T growth
  (:func:`log_growth`, Theorem 6) and the growth of a regret ratio in 1/ε (:func:`ratio_exponent`), each with
  a bootstrap over runs (:func:`bootstrap_indices`, :class:`SlopeFit`), and what the choice of fit window does to
  them (:func:`window_spread`, :func:`consecutive_windows`): the systematic spread a verdict states beside z.

**Limits.** Each function whose work grows with a size argument takes ``limits`` (:class:`ldpcode.limits.Limits`)
and refuses, before any work, a call estimated beyond it. Costs (``_COSTS``), measured on the README's 2-core
machine with other jobs running, rounded up about twofold: a :func:`hinge_fit` candidate 40 + 0.04n µs (17-19 µs
at n <= 100 points, 35 at 1000); :func:`hinge_bootstrap`'s refit 3 ns a grid x replicate x (n + 10) (0.7-2.7 ns
per grid x replicate x n); an index 10 ns (3-5); a replicate 5 µs + 8 ns a run x point (slope fits: 1-41 µs) or
10 µs + 2 ns a value (:func:`bootstrap_se`, 6-26 µs; the statistic's time is the caller's); a window 1 µs, 128
bytes (0.14-0.8 µs, 74-97 bytes). Figure 3's bootstrap, the book's largest, is estimated at 0.3 s and 70 MiB.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._validate import as_float_array, check_array, check_bool, check_int, check_real, check_result, check_vector
from .limits import Limits, check_limits

_UNLIMITED = Limits(cpu_seconds=math.inf, memory_bytes=math.inf)  # inner calls: the outer call was checked
_COSTS = {  # call -> (core-seconds, bytes) at the sizes named in its message; module docstring, "Limits"
    "hinge_fit": lambda grid, points: (grid * (40 + 0.04 * points) * 1e-6, 16.0 * grid + 256 * points),
    "hinge_bootstrap": lambda grid, n_boot, runs, points: (
        grid * (40 + 0.04 * points) * 1e-6 + n_boot * (runs * (10 + 5 * points) + 3 * grid * (points + 10)) * 1e-9,
        8.0 * n_boot * (runs * (points + 1) + 2 * points + 4 * grid) + 24.0 * grid * points,
    ),
    "bootstrap_indices": lambda n_boot, runs: (n_boot * runs * 10e-9, 8.0 * n_boot * runs),
    "bootstrap_se": lambda n_boot, runs, values: (
        n_boot * (1e-5 + (values + 5 * runs) * 2e-9),
        64.0 * values + 8.0 * n_boot * (runs + 8),
    ),
    "slope": lambda n_boot, runs, points, den_runs=0: (
        n_boot * (5e-6 + (runs * (points + 1) + den_runs) * 8e-9),
        8.0 * n_boot * (runs * (points + 1) + 2 * den_runs + 4 * points),
    ),
    "consecutive_windows": lambda n, windows: (windows * 1e-6, 128.0 * windows),
}


def _check_cost(call: str, limits, kind: str | None = None, lower: str = "n_boot", **sizes) -> None:
    """Refuse ``call`` if its cost, ``_COSTS[kind or call](**sizes)`` + 1 ms, 64 KiB, is beyond ``limits``."""
    seconds, nbytes = _COSTS[kind or call](**sizes)
    work = ", ".join(f"{k}={v}" for k, v in sizes.items())
    advice = f"Or lower {lower}. The per-unit costs are listed in the docstring of the module ldpcode/stats.py."
    check_limits(call, work, seconds + 1e-3, nbytes + 65536, limits, scale_out=advice)


def mean_and_half_width(values, level: float = 0.95):
    """Mean over runs (axis 0) and the half-width z * sd / sqrt(runs) (sd with ddof = 1) of its
    normal-approximation confidence interval at ``level``; the half-width is 0 for a single run."""
    from scipy.stats import norm

    v = as_float_array("values", values)
    if v.ndim == 0 or v.shape[0] == 0:
        raise ValueError(f"values must be a non-empty array with runs on axis 0, got shape {v.shape}")
    if not np.isfinite(v).all():  # a nan gave a nan band, an inf a nan half-width
        raise ValueError(f"values must be finite, got {float(v[~np.isfinite(v)][0])!r} among them")
    level = check_real("level", level)
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    runs = v.shape[0]
    half = norm.ppf(0.5 + level / 2) * v.std(axis=0, ddof=1) / np.sqrt(runs) if runs > 1 else np.zeros(v.shape[1:])
    return v.mean(axis=0), half


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
    if check_bool("paired", paired) and x.shape[0] != y.shape[0]:  # paired="no" was paired
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
            bad = "" if np.isfinite(a).all() else " with non-finite values"
            raise ValueError(f"{name} must be a finite 1-d array of at least 3 points, got shape {a.shape}{bad}")
    if xs.size != ys.size:
        raise ValueError(f"x and y must have the same length, got {xs.size} and {ys.size}")
    dx, dy = xs - xs.mean(), ys - ys.mean()
    sxx, syy = float(dx @ dx), float(dy @ dy)
    if sxx == 0:
        raise ValueError(f"x must not be constant (all values {float(xs[0])!r}): the slope is undefined")
    if syy == 0:
        raise ValueError(f"y must not be constant (all values {float(ys[0])!r}): R^2 is undefined")
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


def hinge_fit(x, y, *, grid: int = 2001, limits: Limits | None = None) -> HingeFit:
    r"""Two regimes in log-log coordinates: :math:`\log y \approx a + b\,\min(\log x - \log x^*, 0)`, a power
    law of slope b below the breakpoint x* and a plateau :math:`e^a` above it, fitted by least squares.

    This is how the book locates a regime change such as Figure 3 of Azize and Basu (2022), where the
    regret of AdaP-KLUCB depends on ε below some ε* and not above it: for each candidate x* on a log grid
    of ``grid`` points strictly inside the range of x, a and b are ordinary least squares, and x* is the
    candidate of least squared error. Needs at least 4 points, x > 0 and y > 0, all finite. ``limits`` caps grid.
    """
    xs, ys = check_vector("x", x, min_size=4, positive=True), check_vector("y", y, min_size=4, positive=True)
    if xs.size != ys.size:
        raise ValueError(f"x and y must have the same length, got {xs.size} and {ys.size}")
    lx, ly = np.log(xs), np.log(ys)
    if np.unique(lx).size < 3:  # two values of x: every breakpoint between them fitted exactly; the first was returned
        raise ValueError(f"x must hold at least 3 distinct values (a hinge has 3 parameters), got {np.unique(xs).size}")
    grid = check_int("grid", grid, minimum=3)
    _check_cost("hinge_fit", limits, lower="grid", grid=grid, points=xs.size)
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
    r2 = float(1 - sse / syy) if syy > 0 else 1.0
    return HingeFit(breakpoint=float(np.exp(c)), plateau=float(np.exp(a)), slope=float(b), r2=r2, n=int(xs.size))


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


def hinge_bootstrap(
    x, values, *, n_boot: int = 1000, seed: int = 0, grid: int = 2001, limits: Limits | None = None
) -> HingeBootstrap:
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
    x is as :func:`hinge_fit` requires. The fit and the refit are checked against ``limits`` before any work.
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
    grid = check_int("grid", grid, minimum=3)
    _check_cost("hinge_bootstrap", limits, lower="grid, n_boot", grid=grid, n_boot=n_boot, runs=len(v), points=len(xs))
    fit = hinge_fit(xs, v.mean(axis=0), grid=grid, limits=_UNLIMITED)  # also validates x
    idx = bootstrap_indices(v.shape[0], n_boot, seed, limits=_UNLIMITED)
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
    breakpoints, plateaus = np.exp(cands[best]), np.exp(intercepts)
    return HingeBootstrap(fit=fit, indices=idx, breakpoints=breakpoints, plateaus=plateaus, slopes=slopes)


# ----------------------------------------------------------------------------------------------
# Measured exponents: one least-squares slope, one bootstrap over runs
# ----------------------------------------------------------------------------------------------


def bootstrap_indices(runs: int, n_boot: int, seed: int, *, limits: Limits | None = None) -> np.ndarray:
    """Run indices of ``n_boot`` bootstrap replicates, drawn with replacement in one
    ``np.random.default_rng(seed).integers(0, runs, size=(n_boot, runs))`` call: the resampling of every
    bootstrap over runs in this module (:func:`hinge_bootstrap`, :func:`loglog_slope`, ...); ``limits`` caps it."""
    runs = check_int("runs", runs, minimum=1)
    n_boot = check_int("n_boot", n_boot, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    _check_cost("bootstrap_indices", limits, n_boot=n_boot, runs=runs)
    return np.random.default_rng(seed).integers(0, runs, size=(n_boot, runs))


def mean_se(values) -> float:
    """Standard error of the mean over runs, :math:`s/\\sqrt{n}` (ddof = 1): the ``se`` of every claim that is a
    mean over independent runs (a mean regret, a mean count)."""
    x = as_float_array("values", values)
    if x.ndim != 1 or x.size < 2 or not np.isfinite(x).all():
        raise ValueError(f"values must be a finite 1-d array of at least 2 runs, got shape {x.shape}")
    return float(x.std(ddof=1) / math.sqrt(x.size))


def mean_with_se(values) -> tuple[float, float]:
    """(mean, standard error of the mean) over runs: the pair a table row or a statistical claim prints
    (:func:`mean_se`, so at least 2 finite runs)."""
    se = mean_se(values)
    return float(np.mean(values)), se


def se_or_zero(se, value) -> float:
    """A Monte Carlo standard error below floating-point round-off of ``value`` (1e-12 relative) is 0: the runs
    agree exactly, and :func:`ldpcode.claims.statistical` then checks that every run gave the same value. ``se`` is
    a finite number >= 0 and ``value`` a finite number (a nan se was 0: an unknown error read as exact runs)."""
    se, value = float(check_array("se", se, ndim=0, low=0)), check_real("value", value)
    return se if se > 1e-12 * abs(value) else 0.0


def bootstrap_se(statistic, *arrays, n_boot: int = 1000, seed: int = 0, limits: Limits | None = None) -> float:
    """Bootstrap standard error over runs of ``statistic(*arrays)``, a number computed from per-run arrays.

    Each array holds one row per run (axis 0, the same number of runs: paired, common random numbers);
    each replicate resamples the runs with replacement, the same rows in every array
    (:func:`bootstrap_indices`), and recomputes the statistic. Returns the standard deviation (ddof = 1)
    of the replicates: the ``se`` of a claim such as an R^2 or a difference of fitted values, which has no
    closed-form standard error. ``limits`` caps the resampling (the statistic's own time is the caller's)."""
    if not callable(statistic):
        raise TypeError(f"statistic must be a function of the arrays, got {statistic!r}")
    if not arrays:
        raise ValueError("bootstrap_se needs at least one array of per-run values")
    arrs = [as_float_array(f"arrays[{i}]", a) for i, a in enumerate(arrays)]
    runs = arrs[0].shape[0] if arrs[0].ndim else 0
    if runs < 2 or any(a.ndim == 0 or a.shape[0] != runs for a in arrs):
        shapes = [a.shape for a in arrs]
        raise ValueError(f"every array needs the same number of runs (>= 2) along axis 0, got shapes {shapes}")
    n_boot = check_int("n_boot", n_boot, minimum=2)
    _check_cost("bootstrap_se", limits, n_boot=n_boot, runs=runs, values=sum(a.size for a in arrs))
    idx = bootstrap_indices(runs, n_boot, seed, limits=_UNLIMITED)
    reps = np.array([check_result("statistic", statistic(*(a[i] for a in arrs))) for i in idx])
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
    return check_vector(name, x, min_size=3, positive=positive, note=" (log taken)")


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
    if log_y and np.ptp(y) == 0:  # linear_fit would name the log, "y must not be constant (all values 0.0)"
        raise ValueError(
            f"the means must not be constant (all values {float(y[0])!r}): their log-log slope is undefined"
        )
    fit = linear_fit(lx, np.log(y) if log_y else y)
    slopes = _row_slopes(lx, boot_y)
    lo, hi = np.quantile(slopes, [(1 - level) / 2, (1 + level) / 2])
    return SlopeFit(slope=fit.slope, intercept=fit.intercept, se=float(slopes.std(ddof=1)), ci_low=float(lo),
                    ci_high=float(hi), r2=fit.r2, n=fit.n, level=float(level), n_boot=int(slopes.size),
                    x=np.asarray(x, dtype=float), y=np.asarray(y, dtype=float))  # fmt: skip


def loglog_slope(
    t, regret_runs, *, t_min=None, n_boot: int = 1000, seed: int = 0, level: float = 0.95, limits: Limits | None = None
) -> SlopeFit:
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
    or the mean regret is <= 0 at a fitted point. ``limits`` caps the bootstrap.
    """
    ts, keep = _fit_range(t, t_min)
    v = _check_runs_matrix("regret_runs", regret_runs, ts.size)[:, keep]
    n_boot, seed, level = _check_boot(n_boot, seed, level)
    m = v.mean(axis=0)
    if (m <= 0).any():
        raise ValueError("regret_runs must have a mean > 0 at every fitted point (its log is fitted)")
    _check_cost("loglog_slope", limits, "slope", n_boot=n_boot, runs=v.shape[0], points=v.shape[1])
    idx = bootstrap_indices(v.shape[0], n_boot, seed, limits=_UNLIMITED)
    return _slope_fit(ts[keep], m, np.log(ts[keep]), v[idx].mean(axis=1), level, log_y=True)


def log_growth(
    t, regret_runs, *, t_min=None, n_boot: int = 1000, seed: int = 0, level: float = 0.95, limits: Limits | None = None
) -> SlopeFit:
    r"""Growth against log t, for O(log T) rates (Theorem 6 of Zheng et al. 2020, strongly convex two-point
    BCO): the least-squares slope b and :math:`R^2` of :math:`\bar R(t) \approx a + b\log t` over the points
    :math:`t \ge` ``t_min`` (all if None), :math:`\bar R` the mean over runs of ``regret_runs`` (runs,
    len(t)). A logarithmic rate shows as :math:`R^2` near 1 (a power law would curve on these axes); b is
    the constant in front of log T. ``se`` and the interval come from resampling runs, as in
    :func:`loglog_slope` (no replicate is left out: nothing is logged but t). ``SlopeFit.y`` is the mean
    regret. Raises ValueError on bad shapes, t <= 0, or a ``t_min`` that leaves fewer than 3 points (``limits``).
    """
    ts, keep = _fit_range(t, t_min)
    v = _check_runs_matrix("regret_runs", regret_runs, ts.size)[:, keep]
    n_boot, seed, level = _check_boot(n_boot, seed, level)
    _check_cost("log_growth", limits, "slope", n_boot=n_boot, runs=v.shape[0], points=v.shape[1])
    idx = bootstrap_indices(v.shape[0], n_boot, seed, limits=_UNLIMITED)
    return _slope_fit(ts[keep], v.mean(axis=0), np.log(ts[keep]), v[idx].mean(axis=1), level, log_y=False)


def ratio_exponent(
    x, num_runs, den_runs, *, paired=True, n_boot: int = 1000, seed=0, level=0.95, limits: Limits | None = None
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
    ratio of means <= 0. ``limits`` caps the bootstrap.
    """
    xs = _check_abscissa("x", x, positive=True)
    num = _check_runs_matrix("num_runs", num_runs, xs.size)
    den = as_float_array("den_runs", den_runs)
    if den.ndim != 1 or den.size < 2 or not np.isfinite(den).all():
        raise ValueError(f"den_runs must be a finite array of shape (runs >= 2,), got {den.shape}")
    if check_bool("paired", paired) and den.size != num.shape[0]:
        raise ValueError(
            f"paired=True needs as many runs in den_runs as in num_runs, got {den.size} and {num.shape[0]}"
        )
    n_boot, seed, level = _check_boot(n_boot, seed, level)
    r = num.mean(axis=0) / den.mean()
    if not (r > 0).all():
        raise ValueError("every ratio of mean regrets num_runs / den_runs must be > 0 (its log is fitted)")
    _check_cost("ratio_exponent", limits, "slope", n_boot=n_boot, runs=len(num), points=len(r), den_runs=len(den))
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, num.shape[0], size=(n_boot, num.shape[0]))
    jdx = idx if paired else rng.integers(0, den.size, size=(n_boot, den.size))
    boot = num[idx].mean(axis=1) / den[jdx].mean(axis=1)[:, None]
    return _slope_fit(xs, r, np.log(xs), boot, level, log_y=True)


@dataclass(frozen=True)
class WindowSpread:
    """:func:`window_spread`'s result: ``spread``, the largest ``abs(slope - reference)`` over the windows that could be
    fitted (0 when none could), and ``slopes``, window label -> slope."""

    spread: float
    slopes: dict


def consecutive_windows(n: int, min_points: int = 3, *, limits: Limits | None = None) -> list:
    """Every run of at least ``min_points`` consecutive indices of ``n`` points, as slices (the fit windows of an
    exponent measured on a few horizons): about n^2/2 of them, checked against ``limits`` before any work."""
    n = check_int("n", n, minimum=1)
    k = check_int("min_points", min_points, minimum=2)
    _check_cost("consecutive_windows", limits, lower="n", n=n, windows=(n - k + 1) * (n - k + 2) // 2 if n >= k else 0)
    return [slice(i, j) for i in range(n) for j in range(i + k, n + 1)]


def _check_window(w, n: int, name: str):
    """A fit window over n points: a slice of integers, or a boolean mask of n entries (the index 2 was one point)."""
    if isinstance(w, slice) and all(v is None or np.issubdtype(type(v), np.integer) for v in (w.start, w.stop, w.step)):
        if w.step != 0:
            return w
    elif isinstance(w, (list, tuple, np.ndarray)) and np.asarray(w).dtype == bool and np.shape(w) == (n,):
        return np.asarray(w)
    raise ValueError(f"{name} must be a slice of integers or a boolean mask of {n} entries (one per x), got {w!r}")


def window_spread(x, y, windows, reference: float) -> WindowSpread:
    r"""What the choice of fit window does to a measured exponent (its systematic spread, beside the Monte Carlo
    standard error): the log-log slope (:func:`linear_fit` of :math:`\log y` on :math:`\log x`) refitted on each
    window, and the largest distance of these slopes from ``reference`` (the judged slope).

    ``x``, ``y``: 1-d arrays of one length of finite numbers (the horizons or ε, and the mean regret there);
    ``windows``: slices or boolean masks of that length over them, as a list (each labelled by its first and last x)
    or a dict (label -> window). A window with fewer than 3 points cannot be fitted and is left out (no spread is
    claimed when none is left); one of 3 or more with an x or y <= 0, whose log is fitted, is refused."""
    xs, ys = check_array("x", x, ndim=1), check_array("y", y, ndim=1)  # a window with a nan was left out
    if xs.shape != ys.shape:
        raise ValueError(f"x and y must be 1-d arrays of one length, got shapes {xs.shape} and {ys.shape}")
    ref = check_real("reference", reference)
    if not isinstance(windows, (list, tuple, dict)):
        raise TypeError(f"windows must be a list, tuple or dict of slices or boolean masks, got {windows!r}")
    items = windows.items() if isinstance(windows, dict) else ((None, w) for w in windows)
    slopes = {}
    for i, (label, w) in enumerate(items):
        name = f"windows[{i if label is None else repr(label)}]"
        w = _check_window(w, xs.size, name)
        wx, wy = xs[w], ys[w]
        if wx.size < 3:
            continue
        if (wx <= 0).any() or (wy <= 0).any():  # such a window was left out, and the spread taken over the others
            raise ValueError(f"x and y must be > 0 in {name} (their logs are fitted), got {wx.tolist()}, {wy.tolist()}")
        key = (wx[0].item(), wx[-1].item()) if label is None else label
        if key in slopes:  # a second window from the same first to the same last x replaced the first's slope
            raise ValueError(f"{name} spans x = {key[0]:g} to {key[1]:g}, as an earlier window: use a dict of labels")
        slopes[key] = linear_fit(np.log(wx), np.log(wy)).slope
    spread = max((abs(v - ref) for v in slopes.values()), default=0.0)
    return WindowSpread(float(spread), slopes)
