"""Horizon-resolved verdicts: where along t a reproduced ratio curve sits within a paper's printed interval.

A paper that prints a number read off a figure without stating the figure's horizon (Ren et al.'s "1.6" and
"8.5") is judged by the range of t at which the reproduced curve is consistent with it, not at one horizon the
book chose: :func:`consistent_horizons` returns that range as a :class:`HorizonRange`, which a statistical
claim carries (``horizons=``) and the report prints ("consistent at t ≈ 6·10⁶–10⁷", "no horizon in
[10³, 10⁷] reaches it").
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..stats import ratio_of_means_se
from .core import AGREE_Z, paper_error_factor
from .core import paper_unit as _paper_unit
from .tables import span_text


@dataclass(frozen=True)
class HorizonRange:
    """``searched``: (first, last) checkpoint examined; ``consistent``: (first, last) checkpoint at which the
    curve is within the paper's interval, or () when none is; ``t`` the checkpoints examined and ``inside`` whether
    the curve is within the interval at each (to count, say, how many of a figure's numbers one t reaches);
    ``accepts``: (low, high, missing), the least and the largest number printed to the paper's last digit that some
    checkpoint would have found consistent, and how many between them none would (:func:`printed_numbers_accepted`):
    a range from 1 to 19 says how little "consistent at some t" tells of a curve that still rises."""

    searched: tuple
    consistent: tuple
    t: np.ndarray = field(default=None, compare=False, repr=False)
    inside: np.ndarray = field(default=None, compare=False, repr=False)
    accepts: tuple = ()

    def text(self) -> str:
        """'t ≈ 3.1·10⁴–4.6·10⁵', 't ≈ 6.7·10⁶' or 'no t in [1000, 10⁷]'."""
        return span_text(self.consistent, self.searched)


def joint_horizons(*ranges: HorizonRange) -> tuple:
    """The (first, last) t common to every range, or () when they do not meet (or one is empty). Each range runs
    from a curve's first to its last visit of its interval, so an empty result proves that no checkpoint fits
    every number at once; a non-empty one is an upper bound on where they may all fit."""
    if not ranges or not all(isinstance(r, HorizonRange) for r in ranges):
        raise TypeError(f"joint_horizons takes HorizonRange objects, got {ranges!r}")
    if not all(r.consistent for r in ranges):
        return ()
    lo, hi = max(r.consistent[0] for r in ranges), min(r.consistent[1] for r in ranges)
    return (lo, hi) if lo <= hi else ()


def fits_at_each_t(*ranges: HorizonRange) -> np.ndarray:
    """How many of ``ranges`` (the numbers of one figure, searched over the same checkpoints) each checkpoint fits
    at once: its maximum is the most of the figure's numbers one horizon reproduces."""
    if not ranges or not all(isinstance(r, HorizonRange) and r.t is not None for r in ranges):
        raise TypeError(f"fits_at_each_t takes HorizonRange objects from consistent_horizons, got {ranges!r}")
    if any(r.t.shape != ranges[0].t.shape or (r.t != ranges[0].t).any() for r in ranges):
        raise ValueError("fits_at_each_t needs ranges searched over the same checkpoints")
    return np.sum([r.inside for r in ranges], axis=0)


def _width(se, unit: float, z: float = AGREE_Z):
    """Half a printed unit plus ``z`` standard errors: how far from a printed number a curve is still within it."""
    return unit / 2 + z * se


def within(curve, se, paper: float, unit: float, z: float = AGREE_Z) -> np.ndarray:
    """Where ``curve`` (with standard errors ``se``) is within ``z`` standard errors of the interval a printed
    number stands for, ``[paper - unit/2, paper + unit/2]``."""
    curve, se = np.asarray(curve, float), np.asarray(se, float)
    return np.abs(curve - paper) <= _width(se, unit, z)


def consistent_horizons(
    checkpoints,
    num,
    den,
    paper: float,
    *,
    paper_unit: float | None = None,
    paper_runs: int | None = None,
    t_min: int = 1000,
) -> HorizonRange:
    """The checkpoints t >= ``t_min`` at which the ratio of mean regrets ``num`` / ``den`` (arrays of shape
    (runs, checkpoints), paired runs) lies within 2 delta-method standard errors
    (:func:`~ldpcode.stats.ratio_of_means_se`) of the interval of the printed ``paper`` number (half a unit of
    its last printed digit either side; ``paper_unit`` as for claims). With ``paper_runs`` (the paper's own
    number of runs) the paper's Monte Carlo error counts too, as in :meth:`~ldpcode.claims.Claim.total_se`:
    ``se * sqrt(1 + runs / paper_runs)``. Returns the first and last such t; a curve that enters and leaves
    the interval more than once is reported by its first and last visit."""
    t = np.asarray(checkpoints)
    num, den = np.asarray(num, float), np.asarray(den, float)
    if t.ndim != 1 or num.shape != den.shape or num.ndim != 2 or num.shape[1] != t.size:
        raise ValueError(
            f"checkpoints (C,) and num, den (runs, C) must match, got {t.shape}, {num.shape} and {den.shape}"
        )
    unit = _paper_unit(paper) if paper_unit is None else float(paper_unit)
    keep = t >= t_min
    if not keep.any():
        raise ValueError(f"no checkpoint at or after t_min = {t_min} (last: {int(t[-1])})")
    t, num, den = t[keep], num[:, keep], den[:, keep]
    ratio = num.mean(axis=0) / den.mean(axis=0)
    se = ratio_of_means_se(num, den)
    if paper_runs is not None:
        if isinstance(paper_runs, bool) or not isinstance(paper_runs, int) or paper_runs < 1:
            raise ValueError(f"paper_runs must be a positive integer or None, got {paper_runs!r}")
        se = se * paper_error_factor(num.shape[0], paper_runs)
    ok = within(ratio, se, paper, unit)
    hits = t[ok]
    consistent = (int(hits[0]), int(hits[-1])) if hits.size else ()
    accepts = printed_numbers_accepted(ratio, _width(se, unit), unit)  # as within() accepts at each t
    return HorizonRange(searched=(int(t[0]), int(t[-1])), consistent=consistent, t=t, inside=ok, accepts=accepts)


MAX_GRID = 10**6  # printed numbers examined at most; beyond, the hull of the curve's band is given instead


def printed_numbers_accepted(curve, width, unit: float) -> tuple:
    """Which numbers printed to ``unit`` (the paper's last digit) some point of ``curve`` accepts, a number p being
    accepted at a point where ``abs(curve - p) <= width`` there (as :func:`within`): (low, high, missing), the least
    and the largest accepted, and how many printed numbers between them no point accepts (a curve that jumps between
    two checkpoints by more than its band). With a unit of 0 (an exact number), or more than :data:`MAX_GRID`
    printed numbers in the band, the band's hull, (low, high, 0)."""
    lo_all, hi_all = curve - width, curve + width
    hull = (float(np.min(lo_all)), float(np.max(hi_all)), 0)
    if unit <= 0 or (hull[1] - hull[0]) / unit > MAX_GRID:
        return hull
    order = np.argsort(lo_all)
    starts, ends = [], []
    for a, b in zip(lo_all[order], hi_all[order]):  # the union of the points' intervals, merged
        if starts and a <= ends[-1]:
            ends[-1] = max(ends[-1], b)
        else:
            starts.append(a)
            ends.append(b)
    eps = 1e-9 * unit  # k * unit in floating point: 16 * 0.1 is 1.6000000000000001
    ks = np.arange(np.ceil(hull[0] / unit - 1e-9), np.floor(hull[1] / unit + 1e-9) + 1)
    per = round(1 / unit)  # 0.1 -> 10: 19 / 10 is 1.9, where 19 * 0.1 is 1.9000000000000001
    grid = ks / per if per >= 1 and abs(1 / unit - per) < 1e-9 * per else ks * unit
    k = np.searchsorted(np.asarray(starts) - eps, grid, side="right") - 1
    ok = (k >= 0) & (grid <= np.asarray(ends)[np.maximum(k, 0)] + eps)
    if not ok.any():
        return hull
    first, last = np.flatnonzero(ok)[[0, -1]]
    return (float(grid[first]), float(grid[last]), int((~ok[first : last + 1]).sum()))
