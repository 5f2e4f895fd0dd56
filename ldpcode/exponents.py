"""Measured exponents of simulated regrets: one least-squares slope, one bootstrap over runs.

The measured exponents of Table 1 of Zheng et al. (2020) (and of the book's other rates): power laws
(:func:`loglog_slope`), log T growth (:func:`log_growth`, Theorem 6) and the growth of a regret ratio in 1/ε
(:func:`ratio_exponent`), each with a bootstrap over runs (:func:`ldpcode.stats.bootstrap_indices`,
:class:`SlopeFit`), and what the choice of fit window does to them (:func:`window_spread`,
:func:`consecutive_windows`): the systematic spread a verdict states beside z. Every fit is
:func:`ldpcode.stats.linear_fit`; the costs each call checks against its ``limits`` are listed, with the rest of
the statistics', in the docstring of :mod:`ldpcode.stats`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import (
    MAX_COUNT,
    array_or_value,
    as_float_array,
    check_array,
    check_bool,
    check_int,
    check_real,
    check_seed,
)
from ._validate import check_vector, one_line
from .limits import Limits
from .stats import _UNLIMITED, _check_cost, bootstrap_indices, linear_fit


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
    n_boot = check_int("n_boot", n_boot, minimum=2, maximum=MAX_COUNT)  # 10**400 raised OverflowError in its cost
    seed = check_seed("seed", seed)
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
    exponent measured on a few horizons): about n^2/2 of them, checked against ``limits`` before any work. ``n`` and
    ``min_points`` are at most 2**53 (10**400 and 1e300 raised OverflowError in the cost)."""
    n = check_int("n", n, minimum=1, maximum=MAX_COUNT)
    k = check_int("min_points", min_points, minimum=2, maximum=MAX_COUNT)
    _check_cost("consecutive_windows", limits, lower="n", n=n, windows=(n - k + 1) * (n - k + 2) // 2 if n >= k else 0)
    return [slice(i, j) for i in range(n) for j in range(i + k, n + 1)]


def _check_window(w, n: int, name: str):
    """A fit window over n points: a slice of integers, or a boolean mask of n entries (the index 2 was one point)."""
    if isinstance(w, slice) and all(v is None or np.issubdtype(type(v), np.integer) for v in (w.start, w.stop, w.step)):
        if w.step != 0:
            return w
    elif isinstance(w, (list, tuple, np.ndarray)) and np.asarray(w).dtype == bool and np.shape(w) == (n,):
        return np.asarray(w)
    raise ValueError(
        f"{name} must be a slice of integers or a boolean mask of {n} entries (one per x), got {array_or_value(w)}"
    )


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
        name = f"windows[{i if label is None else one_line(label, 60)}]"
        w = _check_window(w, xs.size, name)
        wx, wy = xs[w], ys[w]
        if wx.size < 3:
            continue
        if (wx <= 0).any() or (wy <= 0).any():  # such a window was left out, and the spread taken over the others
            j = int(np.flatnonzero((wx <= 0) | (wy <= 0))[0])  # the first bad point, not every point on 100 lines
            raise ValueError(
                f"x and y must be > 0 in {name} (their logs are fitted), got x = {float(wx[j])!r}, y = {float(wy[j])!r} "
                f"at its point {j}"
            )
        key = (wx[0].item(), wx[-1].item()) if label is None else label
        if key in slopes:  # a second window from the same first to the same last x replaced the first's slope
            raise ValueError(f"{name} spans x = {key[0]:g} to {key[1]:g}, as an earlier window: use a dict of labels")
        slopes[key] = linear_fit(np.log(wx), np.log(wy)).slope
    spread = max((abs(v - ref) for v in slopes.values()), default=0.0)
    return WindowSpread(float(spread), slopes)
