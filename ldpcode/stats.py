"""Statistics of simulated runs: confidence intervals, regression fits and bootstraps over runs.

Every number the book reads off simulated regrets goes through here; nothing here simulates. It serves:

* the confidence bands of every regret curve (:func:`mean_and_half_width`) and the standard error of every
  claim that is a mean (:func:`mean_se`) or has no closed form (:func:`bootstrap_se`);
* regret ratios, private over non-private (:func:`ratio_of_means_se`; Ren et al. 2020, Sec. 4, "the ratio
  of the regrets of LDP-UCB-B to non-private UCB is 1.6");
* the linear fits and R^2 of regret against V_L or V_B (:func:`linear_fit`; Ren et al., Figure 2);
* the regime change in ε of AdaP-KLUCB's regret (:func:`hinge_fit`, :func:`hinge_bootstrap`; Azize and
  Basu 2022, Figure 3);
* the resampling of every bootstrap over runs (:func:`bootstrap_indices`), which the measured exponents of Table 1 of
  Zheng et al. (2020) use too: those are :mod:`ldpcode.exponents`' (power laws, log T growth, the growth of a regret
  ratio in 1/ε, and what the choice of fit window does to them).

**Limits.** Each function whose work grows with a size argument takes ``limits`` (:class:`ldpcode.limits.Limits`)
and refuses, before any work, a call estimated beyond it. Costs (``_COSTS``), measured on the README's 2-core
machine with other jobs running, rounded up about twofold: a :func:`hinge_fit` candidate 40 + 0.04n µs (17-19 µs
at n <= 100 points, 35 at 1000); :func:`hinge_bootstrap`'s refit 3 ns a grid x replicate x (n + 10) (0.7-2.7 ns
per grid x replicate x n); an index 10 ns (3-5); a replicate 5 µs + 8 ns a run x point (slope fits: 1-41 µs) or
10 µs + 2 ns a value (:func:`bootstrap_se`, 6-26 µs; the statistic's time is the caller's); a window 1 µs, 128
bytes (0.14-0.8 µs, 74-97 bytes). Figure 3's bootstrap, the book's largest, is estimated at 0.3 s and 70 MiB. Every
count is capped (runs at ``MAX_RUNS``, the others at ``MAX_COUNT`` = 2**53) before its cost is estimated: 10**400
raised OverflowError there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._validate import (
    MAX_COUNT,
    as_float_array,
    check_array,
    check_bool,
    check_int,
    check_real,
    check_result,
    check_seed,
)
from ._validate import check_vector
from .limits import MAX_RUNS, Limits, check_limits

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


def _scaled(a: np.ndarray) -> tuple[np.ndarray, float]:
    """``(a / s, s)`` with ``s`` the power of two at or just below ``max |a|`` (1 for zeros): sums, squares and
    products of the scaled values cannot overflow, and a power of two scales every rounding exactly, so a mean, a
    standard deviation or a least-squares slope computed on ``a / s`` and multiplied back is bit for bit the one computed
    on ``a`` wherever that one neither overflows nor underflows (values near 1e308 gave an infinite or zero standard
    error, and an abscissa near 1e200 a slope of 0)."""
    top = float(np.abs(a).max()) if a.size else 0.0
    scale = math.ldexp(1.0, math.frexp(top)[1] - 1) if top > 0 else 1.0  # so 1 <= max |a / s| < 2
    return a / scale, scale


def _finite(what: str, value):
    """``value`` if it is finite; otherwise a ValueError: the quantity is beyond a double (about 1.8e308)."""
    if not np.all(np.isfinite(value)):
        raise ValueError(f"{what} of these values overflows a double (about 1.8e308); rescale them")
    return value


def _back(what: str, value, up: float, down: float = 1.0):
    """``value * up / down`` for powers of two ``up`` and ``down`` (:func:`_scaled`'s), in one exact step (``up /
    down`` alone may overflow where the product does not); a ValueError where it overflows, or where a nonzero
    value underflows to 0 (a standard error of 0 would read as runs that agree exactly)."""
    with np.errstate(over="ignore", under="ignore"):
        out = np.ldexp(value, math.frexp(up)[1] - math.frexp(down)[1])
    if np.any((out == 0) & (np.asarray(value) != 0)):
        raise ValueError(f"{what} of these values underflows a double (below about 5e-324); rescale them")
    return _finite(what, out)


def mean_and_half_width(values, level: float = 0.95):
    """Mean over runs (axis 0) and the half-width z * sd / sqrt(runs) (sd with ddof = 1) of its
    normal-approximation confidence interval at ``level``; the half-width is 0 for a single run. A ``level`` so close
    to 1 that 0.5 + level/2 rounds to 1 (its normal quantile is infinite) is refused by name (it was blamed on the
    values: "the half-width ... overflows a double")."""
    from scipy.stats import norm

    v = as_float_array("values", values)
    if v.ndim == 0 or v.shape[0] == 0:
        raise ValueError(f"values must be a non-empty array with runs on axis 0, got shape {v.shape}")
    if not np.isfinite(v).all():  # a nan gave a nan band, an inf a nan half-width
        raise ValueError(f"values must be finite, got {float(v[~np.isfinite(v)][0])!r} among them")
    level = check_real("level", level)
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    if not math.isfinite(z := norm.ppf(0.5 + level / 2)):
        raise ValueError(f"level must be <= 1 - 2.2e-16 (0.5 + level/2 rounds to 1, where z = inf), got {level!r}")
    runs, (w, scale) = v.shape[0], _scaled(v)  # computed on v / scale, then scaled back (see _scaled)
    half = z * w.std(axis=0, ddof=1) / np.sqrt(runs) if runs > 1 else np.zeros(v.shape[1:])
    return _back("the mean", w.mean(axis=0), scale), _back("the half-width", half, scale)


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
    (x, sx), (y, sy) = _scaled(x), _scaled(y)  # the ratio's error scales by sx / sy (see _scaled)
    ym = y.mean(axis=0)
    if np.any(ym == 0):
        raise ValueError("den must have a non-zero mean (the ratio is undefined)")
    r = x.mean(axis=0) / ym
    var = x.var(axis=0, ddof=1) / x.shape[0] + r**2 * y.var(axis=0, ddof=1) / y.shape[0]
    if paired:
        cov = ((x - x.mean(axis=0)) * (y - ym)).sum(axis=0) / (x.shape[0] - 1)
        var = var - 2 * r * cov / x.shape[0]
    se = np.sqrt(np.maximum(var, 0.0)) / np.abs(ym)
    _back("the ratio", r, sx, sy)
    return _back("the ratio's standard error", se, sx, sy)


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
    for name, a in (("x", xs), ("y", ys)):
        if np.all(a == a[0]):
            what = "the slope" if name == "x" else "R^2"
            raise ValueError(f"{name} must not be constant (all values {float(a[0])!r}): {what} is undefined")
    (u, sx), (v, sy) = _scaled(xs), _scaled(ys)  # fitted on x / sx and y / sy, then scaled back (see _scaled)
    du, dv = u - u.mean(), v - v.mean()
    suu, svv = float(du @ du), float(dv @ dv)
    if suu == 0 or svv == 0:  # not constant, yet every deviation below a double's resolution of the mean
        raise ValueError(f"{'x' if suu == 0 else 'y'} varies less than a double resolves around its mean")
    b = float(du @ dv) / suu  # the slope on the scaled values
    c = float(v.mean() - b * u.mean())
    resid = v - b * u - c
    slope, intercept = _back("the slope", b, sy, sx), _back("the intercept", c, sy)
    return LinearFit(slope=slope, intercept=intercept, r2=float(1.0 - (resid @ resid) / svv), n=int(xs.size))


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
    grid = check_int("grid", grid, minimum=3, maximum=MAX_COUNT)
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
    n_boot = check_int("n_boot", n_boot, minimum=2, maximum=MAX_COUNT)
    seed = check_seed("seed", seed)
    grid = check_int("grid", grid, minimum=3, maximum=MAX_COUNT)
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
# Means over runs and the bootstrap over runs (the measured exponents' fits are ldpcode.exponents')
# ----------------------------------------------------------------------------------------------


def bootstrap_indices(runs: int, n_boot: int, seed: int, *, limits: Limits | None = None) -> np.ndarray:
    """Run indices of ``n_boot`` bootstrap replicates, drawn with replacement in one
    ``np.random.default_rng(seed).integers(0, runs, size=(n_boot, runs))`` call: the resampling of every
    bootstrap over runs (:func:`hinge_bootstrap` here, :func:`ldpcode.exponents.loglog_slope`, ...); ``limits`` caps it."""
    runs = check_int("runs", runs, minimum=1, maximum=MAX_RUNS)
    n_boot = check_int("n_boot", n_boot, minimum=1, maximum=MAX_COUNT)
    seed = check_seed("seed", seed)
    _check_cost("bootstrap_indices", limits, n_boot=n_boot, runs=runs)
    return np.random.default_rng(seed).integers(0, runs, size=(n_boot, runs))


def mean_se(values) -> float:
    """Standard error of the mean over runs, :math:`s/\\sqrt{n}` (ddof = 1): the ``se`` of every claim that is a
    mean over independent runs (a mean regret, a mean count)."""
    return mean_with_se(values)[1]


def mean_with_se(values) -> tuple[float, float]:
    """(mean, standard error of the mean) over runs: the pair a table row or a statistical claim prints
    (:func:`mean_se`, so at least 2 finite runs)."""
    x = as_float_array("values", values)
    if x.ndim != 1 or x.size < 2 or not np.isfinite(x).all():
        raise ValueError(f"values must be a finite 1-d array of at least 2 runs, got shape {x.shape}")
    w, scale = _scaled(x)  # the standard error divided by sqrt(n) before it is scaled back: sd may overflow, se not
    return float(_back("the mean", w.mean(), scale)), float(
        _back("the standard error", w.std(ddof=1) / math.sqrt(x.size), scale)
    )


def se_or_zero(se, value) -> float:
    """A Monte Carlo standard error below floating-point round-off of ``value`` (1e-12 relative) is 0: the runs
    agree exactly, and :func:`ldpcode.claims.statistical` then checks that every run gave the same value. ``se`` is
    a finite number >= 0 and ``value`` a finite number (a nan se was 0: an unknown error read as exact runs)."""
    se, value = float(check_array("se", se, ndim=0, low=0)), check_real("value", value)
    return se if se > 1e-12 * abs(value) else 0.0


def _first(mask: np.ndarray):
    """The index of the first True of ``mask``: an int for a 1-d mask, else a tuple."""
    idx = tuple(int(i) for i in np.unravel_index(int(np.flatnonzero(mask.ravel())[0]), mask.shape))
    return idx[0] if len(idx) == 1 else idx


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
    n_boot = check_int("n_boot", n_boot, minimum=2, maximum=MAX_COUNT)
    _check_cost("bootstrap_se", limits, n_boot=n_boot, runs=runs, values=sum(a.size for a in arrs))
    idx = bootstrap_indices(runs, n_boot, seed, limits=_UNLIMITED)
    reps = np.array([check_result("statistic", statistic(*(a[i] for a in arrs))) for i in idx])
    if not np.isfinite(reps).all():  # the arrays may hold nan for a statistic that handles it (np.nanmean)
        i, bad = next(((i, ~np.isfinite(a)) for i, a in enumerate(arrs) if not np.isfinite(a).all()), (None, None))
        held = "" if i is None else f"; arrays[{i}] holds {float(arrs[i][bad][0])!r} at index {_first(bad)}"
        raise ValueError(f"statistic gave a non-finite value on a bootstrap replicate{held}")
    return float(reps.std(ddof=1))
