"""Horizon-resolved verdicts: where along t a reproduced ratio curve sits within a paper's printed interval.

A paper that prints a number read off a figure without stating the figure's horizon (Ren et al.'s "1.6" and
"8.5") is judged by the range of t at which the reproduced curve is consistent with it, not at one horizon the
book chose: :func:`consistent_horizons` returns that range as a :class:`HorizonRange`, which a statistical
claim carries (``horizons=``) and the report prints ("consistent at t ≈ 6·10⁶–10⁷", "no horizon in
[10³, 10⁷] reaches it"). Two or more numbers of one figure, which the paper read at one horizon, are judged together
by their closest approach (:func:`closest_approach`): the checkpoint where the farthest of them is nearest its
interval, in standard errors.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import numpy as np

from .._validate import check_real, check_rounds
from ..stats import ratio_of_means_se
from .core import AGREE_Z, NEAR_Z, family_z, paper_error_factor
from .core import paper_unit as _paper_unit
from .tables import approx_horizon, span_text


@dataclass(frozen=True)
class HorizonRange:
    """``searched``: (first, last) checkpoint examined; ``consistent``: (first, last) checkpoint at which the
    curve is within the paper's interval, or () when none is; ``t`` the checkpoints examined and ``inside`` whether
    the curve is within the interval at each (to count, say, how many of a figure's numbers one t reaches);
    ``accepts``: (low, high, missing), the least and the largest number printed to the paper's last digit that some
    checkpoint would have found consistent, and how many between them none would (:func:`printed_numbers_accepted`):
    a range from 1 to 19 says how little "consistent at some t" tells of a curve that still rises. ``z``: how far
    beyond the interval the curve lies at each t, in its standard errors (0 inside the interval's rounding); ``joint``:
    (t, z), the closest approach of this number and the figure's others (:func:`closest_approach`), or ()."""

    searched: tuple
    consistent: tuple
    t: np.ndarray = field(default=None, compare=False, repr=False)
    inside: np.ndarray = field(default=None, compare=False, repr=False)
    accepts: tuple = ()
    z: np.ndarray = field(default=None, compare=False, repr=False)
    joint: tuple = ()

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
    _same_checkpoints(ranges, "fits_at_each_t")
    return np.sum([r.inside for r in ranges], axis=0)


def _same_checkpoints(ranges: tuple, who: str) -> None:
    if not ranges or not all(isinstance(r, HorizonRange) and r.t is not None for r in ranges):
        raise TypeError(f"{who} takes HorizonRange objects from consistent_horizons, got {ranges!r}")
    if any(r.t.shape != ranges[0].t.shape or (r.t != ranges[0].t).any() for r in ranges):
        raise ValueError(f"{who} needs ranges searched over the same checkpoints")


def closest_approach(*ranges: HorizonRange) -> tuple:
    """(t, z): the checkpoint at which the farthest of ``ranges`` (the numbers of one figure, searched over the same
    checkpoints) lies nearest its interval, and that distance in its standard errors (0 when every number is inside
    its interval's rounding there; the first such t on a tie). The paper read its numbers at one horizon, so a
    figure is judged by this z as one number by its own (:func:`ldpcode.claims.report.statement_verdict`)."""
    _same_checkpoints(ranges, "closest_approach")
    if any(r.z is None for r in ranges):
        raise TypeError("closest_approach takes HorizonRange objects from consistent_horizons")
    worst = np.max([r.z for r in ranges], axis=0)
    i = int(np.argmin(worst))
    return int(ranges[0].t[i]), float(worst[i])


def with_joint(ranges: dict) -> dict:
    """``ranges`` (key -> :class:`HorizonRange`, the numbers of one figure) with each range's ``joint`` set to their
    :func:`closest_approach`, which the claims built from them store (``t_joint``)."""
    joint = closest_approach(*ranges.values())
    return {k: dataclasses.replace(r, joint=joint) for k, r in ranges.items()}


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
    t = check_rounds("checkpoints", checkpoints)
    paper = check_real("paper", paper)
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
    with np.errstate(divide="ignore", invalid="ignore"):  # se 0: inside the rounding or infinitely far
        beyond = np.maximum(np.abs(ratio - paper) - unit / 2, 0.0)
        z = np.where(beyond > 0, beyond / se, 0.0)
    searched = (int(t[0]), int(t[-1]))
    return HorizonRange(searched=searched, consistent=consistent, t=t, inside=ok, accepts=accepts, z=z)


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


def _is_real_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def check_stored_range(name: str, sense: str, t_consistent, t_searched, t_accepts, t_joint) -> None:
    """The stored form of a statistical claim's horizon range (``name`` its id), checked: ``t_searched`` [first, last]
    and ``t_consistent`` [first, last] or [] within it, both positive integers, together, and only with sense '=';
    ``t_accepts`` [low, high, missing] and ``t_joint`` [t, z] (t searched, z finite >= 0) only with them."""
    if (t_consistent is None) != (t_searched is None) or (t_searched is None and (t_accepts, t_joint) != (None, None)):
        raise ValueError(f"{name}: t_consistent and t_searched come together, t_accepts and t_joint only with them")
    if t_searched is None:
        return
    if sense != "=":
        raise ValueError(f"{name}: a horizon range belongs to a statistical claim with sense '='")
    for field_name, v, n in (("t_searched", t_searched, (2,)), ("t_consistent", t_consistent, (0, 2))):
        ok = isinstance(v, list) and len(v) in n
        if not ok or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in v):
            raise ValueError(f"{name}: {field_name} must be a list of positive integers, got {v!r}")
    lo, hi = t_searched
    if not lo <= hi or (t_consistent and not lo <= t_consistent[0] <= t_consistent[1] <= hi):
        raise ValueError(f"{name}: t_consistent {t_consistent} must lie in t_searched {t_searched}")
    acc = t_accepts  # the printed numbers the search would have found at some t: [low, high, missing]
    ok = acc is None or isinstance(acc, list) and len(acc) == 3 and all(_is_real_number(x) for x in acc)
    if not ok or acc is not None and not (acc[0] <= acc[1] and acc[2] == int(acc[2]) >= 0):
        raise ValueError(f"{name}: t_accepts must be [low, high, missing], low <= high, missing >= 0, got {acc!r}")
    tj = t_joint  # the closest approach of the figure's numbers: a checkpoint (an int) and a z
    ok = tj is None or isinstance(tj, list) and len(tj) == 2 and all(_is_real_number(x) for x in tj)
    ok = ok and (tj is None or isinstance(tj[0], int))
    if not ok or tj is not None and not (lo <= tj[0] <= hi and tj[1] >= 0):
        raise ValueError(f"{name}: t_joint must be [t, z] with t in t_searched and z a finite z >= 0, got {tj!r}")


# --- numbers of one figure in a statement: judged together -------------------------------------------------


def _searched(group: list) -> list:
    """The numbers of ``group`` read off one figure at a horizon the paper does not state (each searched over t): the
    paper read them at one horizon, so two or more of them are judged together too."""
    return [c for c in group if c.t_searched is not None]


def _common_t(group: list) -> tuple:
    """The (first, last) t at which the searched numbers of ``group`` may all fit at once, or () (:func:`joint_horizons`).
    With their closest approach stored, () when it is beyond 2 se: ranges that overlap from first to last visit need
    not share a checkpoint at which both fit."""
    z = _joint_z(group)
    if z is not None and z > AGREE_Z:
        return ()
    return joint_horizons(*(HorizonRange(tuple(c.t_searched), tuple(c.t_consistent)) for c in _searched(group)))


def _joint_z(group: list) -> float | None:
    """The closest approach of the searched numbers of ``group`` (the z each stores in ``t_joint``), or None when one
    lacks it (a file written before the field)."""
    found = [c.t_joint for c in _searched(group)]
    return None if any(tj is None for tj in found) else max(tj[1] for tj in found)


def joint_verdict(group: list) -> str | None:
    """How the numbers of one figure read at one unstated horizon (``group``'s searched claims, two or more) fare
    together, or None when some t fits them all within 2 se: at their closest approach (:func:`~ldpcode.claims.
    closest_approach`, the t where the farthest is nearest its interval) **consistent at some t** within
    :func:`family_z` of their number (the farthest of k numbers of a true figure lies beyond it as often as one
    number beyond 2 se), **near** within 4 se, else **disagrees** (and **disagrees** when ranges without a stored
    approach do not meet)."""
    searched = _searched(group)
    if len(searched) < 2 or _common_t(group):
        return None
    z = _joint_z(group)
    if z is None or z > NEAR_Z:
        return "disagrees"
    return "consistent at some t" if z <= family_z(len(searched)) else "near"


def approach_text(t: int, z: float, k: int = 2) -> str:
    """The closest approach of ``k`` numbers of one figure (:func:`closest_approach`, or a stored ``t_joint``) as the
    book writes it everywhere: 'closest at t ≈ 2.3·10⁶, where the farther of the 2 is 3.18 se beyond its interval'."""
    return f"closest at t ≈ {approx_horizon(t)}, where the {_farthest(k)} of the {k} is {z:.2f} se beyond its interval"


def _farthest(k: int) -> str:
    return "farther" if k == 2 else "farthest"


def _approach_text(group: list) -> str:
    """', closest at t ≈ 3·10⁶, where the farthest is 3.1 se beyond its interval (...)': the joint verdict's measure."""
    z, k = _joint_z(group), len(_searched(group))
    if z is None:
        return ""
    return (
        f"; {approach_text(_searched(group)[0].t_joint[0], z, k)} (the {_farthest(k)} of {k} numbers of a true figure lies "
        f"beyond {family_z(k):.2f} se as often as one number beyond {AGREE_Z:g} se, Šidák; near within {NEAR_Z:g})"
    )
