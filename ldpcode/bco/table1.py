r"""Table 1 of Zheng et al. (2020), the bandit convex optimisation rows, as the claims of the learners' runs.

Table 1 states, for the one-point rows (Corollary 4: Algorithm 1 around a non-private learner),

========================  ====================================  ===========================================
row                       private regret (ε, δ)-LDP             best non-private regret
========================  ====================================  ===========================================
Convex                    :math:`\tilde O(T^{3/4}/\epsilon)`    :math:`\tilde O(T^{3/4})` (Flaxman et al. 2005)
Convex + Smooth           :math:`\tilde O(T^{2/3}/\epsilon)`    :math:`\tilde O(T^{2/3})` (Saha and Tewari 2011)
S.C                       :math:`\tilde O(T^{2/3}/\epsilon)`    :math:`\tilde O(T^{2/3})` (Agarwal et al. 2010)
S.C + Smooth              :math:`\tilde O(T^{1/2}/\epsilon)`    :math:`\tilde O(T^{1/2})` (Hazan and Levy 2014)
========================  ====================================  ===========================================

and for the two-point rows (MP-BCO, Algorithm 2, Theorem 6) :math:`\tilde O(\sqrt T/\epsilon^2)` (convex) and
:math:`\tilde O(\log T/\epsilon^2)` (strongly convex). A run measures the exponent of T as the log-log slope of
the mean regret (:func:`ldpcode.exponents.loglog_slope`), and the exponent of 1/ε as the slope of the log regret
ratio on log(1/ε) (:func:`ldpcode.exponents.ratio_exponent`).

* :data:`ONE_POINT_ROWS`, :data:`WINDOW_SHIFTS`, :data:`EXACT_UNIT`: the rows, keyed by the notebook's setting.
* :func:`one_point_exponent_claims`, :func:`one_point_eps_claim`: the claim family of Corollary 4's notebook.
* :func:`log_increment_ratio`: the O(log T) test of the strongly convex two-point row.
* :func:`capped_eps_exponent`: the largest exponent of 1/ε a capped regret can show over an ε grid, what a claim of
  1/ε could reach (one formula for the BCO rows, :func:`ldpcode.bco.report.exponent_room`, and the contextual rows,
  :func:`ldpcode.contextual.epsilon_exponent_room`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..claims.tables import format_number
from ..exponents import window_spread
from ..stats import ratio_of_means_se

EXACT_UNIT = 1e-9
"""The ``paper_unit`` of an exponent Table 1 states (3/4, 2/3, 1/2 of T; 1 and 2 of 1/ε): an exact fraction, not a
rounded decimal, so no rounding interval. The contextual rows' claims (:mod:`ldpcode.contextual.table1`) use it too."""


def capped_eps_exponent(total_cap: float, regrets, epsilons) -> float:
    r"""The largest exponent a of 1/ε that a regret capped by ``total_cap`` (the most any learner can lose over the
    horizon) can show between the smallest and the largest of ``epsilons`` (any order), given ``regrets``, the mean
    regret measured at each of them: :math:`R(\epsilon_{\min}) \le C` and
    :math:`R(\epsilon_{\min})/R(\epsilon_{\max}) = (\epsilon_{\max}/\epsilon_{\min})^a` give
    :math:`a \le \ln(C/R(\epsilon_{\max}))/\ln(\epsilon_{\max}/\epsilon_{\min})`; inf when R(ε_max) is 0 (no cap)."""
    eps, regrets = np.asarray(epsilons, dtype=float), np.asarray(regrets, dtype=float)
    if eps.ndim != 1 or regrets.shape != eps.shape:
        raise ValueError(f"regrets must hold one mean regret per epsilon, got {regrets.shape} for {eps.shape}")
    hi, lo = int(np.argmax(eps)), int(np.argmin(eps))
    if eps[hi] == eps[lo]:
        raise ValueError(
            f"epsilons must hold two different values (an exponent needs two different epsilons), got {list(epsilons)}"
        )
    if regrets[hi] <= 0:
        return math.inf
    return math.log(total_cap / regrets[hi]) / math.log(eps[hi] / eps[lo])


WINDOW_SHIFTS = (0.1, 10**-0.5, 10**0.5)
"""The late fit window's start moved 10x earlier and √10x either way: the systematic spread of a judged exponent."""


class Row(NamedTuple):
    """One one-point row of Table 1: its name, its statement key (``zheng2020locally.table1.<cell>``), the stated
    exponent of T (the same with and without privacy) and the non-private learner that attains it."""

    name: str
    cell: str
    exponent: float
    fraction: str
    reference: str


ONE_POINT_ROWS = {
    "linear": Row("Convex", "convex", 3 / 4, "3/4", "Flaxman et al. 2005"),
    "quadratic": Row("S.C", "strongly_convex", 2 / 3, "2/3", "Agarwal et al. 2010"),
    "convex_smooth": Row("Convex + Smooth", "convex_smooth", 2 / 3, "2/3", "Saha and Tewari 2011"),
    "sc_smooth": Row("S.C + Smooth", "sc_smooth", 1 / 2, "1/2", "Hazan and Levy 2014"),
}
"""The settings of Corollary 4's notebook that are rows of Table 1 (the sphere learner on the linear and moving
quadratic losses, the barrier learners on the smooth ones), keyed as there; any other key (``"stochastic"``) is
measured, not judged."""


def one_point_exponent_claims(
    nb, key: str, learner: str, eps, fit, late_fit, result, *, t_min: int, t_min_late: int, delta: float, reason=None
) -> None:
    r"""The exponent of T of one run set (``result``, a :class:`~ldpcode.bco.BCOResult` of the learner ``learner`` at
    privacy level ``eps``, None without privacy), built into ``nb`` (an :class:`ldpcode.book.Notebook`):

    * ``exponent_<key>_<tag>`` (``tag`` ``nonprivate`` or ``private``): ``fit``, the slope on t in
      [``t_min``, T], reproducible;
    * ``exponent_<key>_<tag>_late``: ``late_fit``, the slope on [``t_min_late``, T], judged (statistical, sense
      "<=") against the row's exponent of :data:`ONE_POINT_ROWS` with ``reason``, and with the largest change of the
      slope when the window's start moves by :data:`WINDOW_SHIFTS` as its systematic; reproducible for a key that is
      not a row."""
    tag = "nonprivate" if eps is None else "private"
    cid, T, n_runs = f"exponent_{key}_{tag}", int(result.horizon), result.regret.shape[0]
    what = f"{learner}" + ("" if eps is None else f", ε = {eps:g}, δ = {format_number(delta)}")
    nb.reproducible(cid, f"one-point BCO, {what}: log-log slope of the regret on t in [{t_min}, {T}]",
                    reproduced=fit.slope, se=fit.se, horizon=T, note=f"{n_runs} runs, bootstrap se")  # fmt: skip
    late_kw = dict(reproduced=late_fit.slope, se=late_fit.se, horizon=T,
                   note=f"{what}; log-log slope on t in [{t_min_late}, {T}], {n_runs} runs, bootstrap se")  # fmt: skip
    row = ONE_POINT_ROWS.get(key)
    if row is None:
        nb.reproducible(cid + "_late", f"one-point BCO, {what}: log-log slope of the regret on t in [{t_min_late}, {T}]",
                        **late_kw)  # fmt: skip
        return
    source = (f"Table 1, {row.name} row: exponent of T in the private regret O~(T^{row.fraction}/ε)" if eps is not None
              else f"Table 1, {row.name} row: exponent of T in the best non-private regret O~(T^{row.fraction}) "
                   f"({row.reference})")  # fmt: skip
    nb.statistical(cid + "_late", source, paper=row.exponent, paper_unit=EXACT_UNIT, sense="<=",
                   statement=f"zheng2020locally.table1.{row.cell}.{tag}", runs=n_runs, reason=reason,
                   **window_systematic(result, t_min_late, late_fit.slope), **late_kw)  # fmt: skip


def window_systematic(result, t_min_late: int, slope: float) -> dict:
    """The systematic spread of an exponent of T judged on the late window [``t_min_late``, T] of ``result`` (a
    :class:`~ldpcode.bco.BCOResult`; ``slope``, the judged fit there): the largest change of the log-log slope of the
    mean regret when the window's start moves by :data:`WINDOW_SHIFTS`, as the keyword arguments ``systematic`` and
    ``systematic_how`` of a statistical claim. No allowance is made for Table 1's Õ, whose logs have no stated
    power; the text says what one log would add."""
    cp = result.checkpoints
    windows = {t_min_late * k: cp >= t_min_late * k for k in WINDOW_SHIFTS}
    ws = window_spread(cp, result.regret.mean(axis=0), windows, slope)
    how = (f"fit window: the largest change of the slope when the window's start {format_number(t_min_late)} moves 10x earlier or "
           "sqrt(10)x either way (slopes " + ", ".join(f"{v:.3f} from {format_number(t, '.2g')}" for t, v in ws.slopes.items())
           + f"); no log allowance: Table 1's Õ hides logs of unstated power ((ln T)^k would add "
           f"{1 / math.log(t_min_late):.3f} k)")  # fmt: skip
    return {"systematic": ws.spread, "systematic_how": how}


def one_point_eps_claim(nb, key: str, learner: str, fit, *, horizon: int, runs: int, epsilons, reason=None,
                        reachable=None) -> None:  # fmt: skip
    r"""``eps_exponent_<key>``, built into ``nb``: ``fit``, the slope of log(private / non-private mean regret) on
    log(1/ε) over ``epsilons`` at ``horizon`` (``runs`` paired runs; :func:`ldpcode.exponents.ratio_exponent`), judged
    (statistical, sense "<=") against the 1/ε of Table 1's private regret with ``reason`` if ``key`` is a row of
    :data:`ONE_POINT_ROWS`, reproducible otherwise; ``reachable``, the largest exponent the experiment allows
    (:func:`~ldpcode.bco.report.exponent_room`), makes an agreement below it inconclusive when it is at most 1."""
    kw = dict(reproduced=fit.slope, se=fit.se, horizon=horizon,
              note=f"{learner}; slope of log(private / non-private regret) on log(1/ε), ε in {epsilons}, {runs} paired "
                   "runs, bootstrap se")  # fmt: skip
    row = ONE_POINT_ROWS.get(key)
    if row is None:
        nb.reproducible(f"eps_exponent_{key}", f"one-point BCO, {learner}: exponent of 1/ε in the regret ratio", **kw)
    else:
        nb.statistical(f"eps_exponent_{key}", f"Table 1, {row.name} row: exponent of 1/ε in the private regret",
                       paper=1.0, paper_unit=EXACT_UNIT, sense="<=", statement=f"zheng2020locally.table1.{row.cell}.private",
                       runs=runs, reason=reason, reachable=reachable, **kw)  # fmt: skip


class LogIncrementRatio(NamedTuple):
    """:func:`log_increment_ratio`'s result: the ratio, its delta-method standard error, and the checkpoints
    (t0, t1, t2) that bound the two halves."""

    ratio: float
    se: float
    windows: tuple


def log_increment_ratio(result, t_min: int) -> LogIncrementRatio:
    r"""Whether a regret grows like :math:`a + b\log t` (Table 1's O(log T) rows): its slope on log t over the
    second half of [``t_min``, T] (halves in log t, at the checkpoint t1 nearest :math:`\sqrt{t_0 T}`) divided by its
    slope over the first half,

    .. math:: g = \frac{(\bar R(t_2) - \bar R(t_1))/\ln(t_2/t_1)}{(\bar R(t_1) - \bar R(t_0))/\ln(t_1/t_0)},

    with :math:`\bar R` the mean over runs of ``result.regret`` (a :class:`~ldpcode.results.RegretCurves`), t0 the
    first checkpoint >= ``t_min`` and t2 = T. g = 1 for :math:`a + b\log t` whatever the offset a, g > 1 for a
    power of t. The standard error is the delta method's over the paired increments of the runs
    (:func:`ldpcode.stats.ratio_of_means_se`)."""
    cp, regret = result.checkpoints, result.regret
    i0, i2 = np.searchsorted(cp, [t_min, result.horizon])
    i1 = int(np.argmin(np.abs(np.log(cp) - 0.5 * np.log(cp[i0] * cp[i2]))))
    t0, t1, t2 = (int(cp[i]) for i in (i0, i1, i2))
    num, den = regret[:, i2] - regret[:, i1], regret[:, i1] - regret[:, i0]
    scale = math.log(t1 / t0) / math.log(t2 / t1)  # per unit of log t on each half
    return LogIncrementRatio(scale * num.mean() / den.mean(), scale * float(ratio_of_means_se(num, den)), (t0, t1, t2))
