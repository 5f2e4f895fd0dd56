r"""Table 1 of Zheng et al. (2020), rows "Contextual Linear Bandits" (Theorem 8) and "Generalize Linear Bandits"
(Theorem 10), as the claims of a horizon sweep (:func:`ldpcode.contextual.horizon_sweep`).

Both rows state the same orders: :math:`\tilde O(T^{1/2})` for the best non-private learner and
:math:`\tilde O(T^{3/4}/\epsilon)` under (ε, δ)-LDP. A sweep measures the exponent of T as the slope of log mean
regret on log T; whether such a regret *could* show a power at all is read against two caps per round, uniform
random play (:func:`ldpcode.contextual.uniform_play_regret`) and always playing the worst arm
(:func:`worst_arm_regret`), the latter bounding the exponent of 1/ε the sweep can show
(:func:`epsilon_exponent_room`).

* :func:`worst_arm_regret`, :func:`epsilon_exponent_room`: the caps.
* :func:`sweep_table`: per sweep, the mean regret at the largest T and the exponent of T against Table 1's.
* :func:`table1_claims`: the claim family of the two contextual notebooks (``theorems7_8_linear``,
  ``algorithm3_theorems9_10_glm``): per sweep, the exponent of T (judged against Table 1 for the non-private
  learner and the smallest ε, with the fit window's spread as its systematic) and the mean regret at the largest
  T; then the exponent of 1/ε.
"""

from __future__ import annotations

import math

import numpy as np

from ..bco.table1 import EXACT_UNIT, capped_eps_exponent
from ..claims.tables import Table, format_number
from ..exponents import consecutive_windows, window_spread

STATED = {False: 0.5, True: 0.75}
"""Table 1's exponent of T, without (False) and with (True) local privacy: :math:`T^{1/2}` and :math:`T^{3/4}/\\epsilon`."""


def sweep_table(sweeps: dict) -> Table:
    """One row per sweep of ``sweeps`` (name -> :class:`~ldpcode.contextual.runs.HorizonSweep`): its mean regret at
    the largest horizon ± the 95% half-width (1.96 standard errors), the measured exponent of T with its bootstrap
    95% interval, and Table 1's exponent (:data:`STATED`: 1/2 without privacy, 3/4 with)."""
    rows = [
        [name, (s.mean[-1], 1.96 * s.se[-1]), s.fit.slope, f"[{s.fit.ci_low:.3f}, {s.fit.ci_high:.3f}]",
         STATED[s.epsilon is not None]]
        for name, s in sweeps.items()
    ]  # fmt: skip
    head = ["learner", "R(T_max) ± 95% CI", "exponent of T", "95% interval", "Table 1"]
    return Table(head, rows, formats=[None, (".1f", ".1f"), ".3f", None, "g"])


def worst_arm_regret(instance, n_rounds: int = 100_000, seed: int = 0) -> float:
    r""":math:`E_x[\max_a g(x_a^\top\theta^*) - \min_a g(x_a^\top\theta^*)]`, by Monte Carlo over ``n_rounds`` context
    draws from ``default_rng(seed)``: the largest regret per round any policy can have (always the worst arm), so
    :math:`R(T) \le` this times T for every learner."""
    m = instance.mean(instance.draw_contexts(np.random.default_rng(seed), n_rounds) @ instance.theta)
    return float((m.max(axis=1) - m.min(axis=1)).mean())


def epsilon_exponent_room(cap_per_round: float, horizon: int, regrets, epsilons) -> float:
    """The largest exponent of 1/ε that a regret capped by ``cap_per_round`` x ``horizon`` can show over
    ``epsilons`` (any order), given ``regrets``, the mean regret at each: :func:`ldpcode.bco.table1.capped_eps_exponent`
    with the cap cT; inf when the regret at the largest ε is 0."""
    return capped_eps_exponent(cap_per_round * horizon, regrets, epsilons)


def table1_claims(
    nb,
    sweeps: dict,
    eps_fit,
    *,
    row: str,
    theorem: str,
    reference: str,
    statement: str,
    learners: tuple,
    delta: float,
    reasons: dict,
    eps_reachable: float | None = None,
) -> None:
    r"""Build, into ``nb`` (an :class:`ldpcode.book.Notebook`), the claims of Table 1's contextual ``row`` from the
    horizon sweeps ``sweeps`` (name -> :class:`~ldpcode.contextual.HorizonSweep`, the non-private one and then one
    per ε in increasing order) and ``eps_fit`` (the log-log slope of the mean regret at the largest T on ε).

    For each sweep, in order: ``exponent_<tag>`` (``tag`` ``nonprivate`` or ``eps<ε>``), the slope of log mean
    regret on log T, judged (statistical, sense "<=") against Table 1's :math:`T^{1/2}` (non-private, the learner
    of ``reference``) and :math:`T^{3/4}/\epsilon` (``theorem``, first private sweep), with the largest change of the
    slope over every run of at least 3 consecutive horizons as its systematic
    (:func:`ldpcode.exponents.window_spread`); reproducible for the other ε. Then ``regret_T<T>_<tag>``, the mean
    regret at the largest T. Last, ``eps_exponent``: minus ``eps_fit``'s slope against the exponent 1 of 1/ε.

    ``learners``: the (non-private, private) learner names of the notes (``("non-private LinUCB", "LDP
    LinUCB")``); ``statement``: the key prefix of the row's statements (``.nonprivate``/``.private`` added);
    ``reasons``: ``"nonprivate"``, ``"private"`` and ``"eps"``, why each judged number lands where it does;
    ``eps_reachable``: the largest exponent of 1/ε the experiment allows (:func:`epsilon_exponent_room`), which makes
    an agreement inconclusive when it is at most 1."""
    private_seen = False
    for s in sweeps.values():
        T, runs, horizons = int(s.horizons[-1]), s.final.shape[0], [int(h) for h in s.horizons]
        tag = "nonprivate" if s.epsilon is None else f"eps{s.epsilon:g}"
        what = learners[0] if s.epsilon is None else f"{learners[1]}, ε = {s.epsilon:g}, δ = {format_number(delta)}"
        fit_kw = dict(reproduced=s.fit.slope, se=s.fit.se, horizon=T, note=f"{what}; slope of log mean regret on "
                      f"log T, T in {horizons}, {runs} runs per T, bootstrap se")  # fmt: skip
        if s.epsilon is None or not private_seen:  # judged: the non-private learner and the smallest ε
            key = "nonprivate" if s.epsilon is None else "private"
            source = (f"Table 1, {row} row: exponent of T in the best non-private regret O~(T^1/2) ({reference})"
                      if s.epsilon is None else
                      f"{theorem} / Table 1, {row} row: exponent of T in the private regret O~(T^3/4/ε)")  # fmt: skip
            ws = window_spread(s.horizons, s.final.mean(axis=0), consecutive_windows(len(s.horizons)), s.fit.slope)
            nb.statistical(f"exponent_{tag}", source, paper=STATED[s.epsilon is not None], paper_unit=EXACT_UNIT,
                           sense="<=", statement=f"{statement}.{key}", reason=reasons[key], runs=runs,
                           systematic=ws.spread, systematic_how=_window_how(ws.slopes, horizons[0]), **fit_kw)  # fmt: skip
        else:
            nb.reproducible(f"exponent_{tag}", f"{what}: exponent of T in the regret", **fit_kw)
        private_seen = private_seen or s.epsilon is not None
        nb.reproducible(f"regret_T{T}_{tag}", f"{what}: mean pseudo-regret at T", reproduced=s.mean[-1], se=s.se[-1],
                        horizon=T, note=f"{runs} runs")  # fmt: skip
    epsilons = [s.epsilon for s in sweeps.values() if s.epsilon is not None]
    nb.statistical("eps_exponent", f"{theorem} / Table 1, {row} row: exponent of 1/ε in the private regret",
                   reproduced=-eps_fit.slope, se=eps_fit.se, paper=1.0, paper_unit=EXACT_UNIT, sense="<=",
                   statement=f"{statement}.private", runs=runs, horizon=T, reason=reasons["eps"], reachable=eps_reachable,
                   note=f"minus the slope of log mean regret at T on log ε, ε in {epsilons}, {runs} runs, bootstrap se")  # fmt: skip


def _window_how(slopes: dict, first_horizon: int) -> str:
    """The ``systematic_how`` of a judged exponent: its slope on every window, and why no log allowance is made."""
    return (
        "fit window: the largest change of the slope over every run of at least 3 consecutive horizons (slopes "
        + ", ".join(f"{v:.3f} on [{int(a)}, {int(b)}]" for (a, b), v in slopes.items())
        + "); no log allowance: Table 1's Õ hides logs of unstated power ((ln T)^k would add "
        + f"{1 / math.log(first_horizon):.3f} k)"
    )
