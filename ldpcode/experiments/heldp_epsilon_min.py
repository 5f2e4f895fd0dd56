r"""Ren et al. (2020b), Section 4.2, the choice of :math:`\epsilon_{\min}`: what
``chapters/heldp/choosing_epsilon_min`` computes, prints and draws.

The heuristic (minimize :math:`V_L` or :math:`V_B`) is :func:`ldpcode.bounds.choose_epsilon_min`; the bounds of
Theorems 7 and 10 are :func:`ldpcode.bounds.heldp_ucb_l_regret_bound` and
:func:`ldpcode.bounds.heldp_ucb_b_regret_bound`. This module compares their choices with experiment: the three laws
of privacy levels (:func:`section42_laws`, :func:`describe_laws`), the criteria on a grid of thresholds
(:func:`curve_grids`, :func:`criterion_curves`), the regret at each simulated threshold (:func:`run_thresholds`,
:func:`ratio_to_best_other`), the printed comparison (:func:`comparison_text`) and the picture
(:func:`choice_figure`). The notebook's second computation of the heuristic (:math:`V` transcribed from Section
4.2) stays in the notebook: a claim's second way must not come from the package.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import as_float_array
from ..bounds import (
    EpsilonMinChoice,
    choose_epsilon_min,
    heldp_ucb_b_regret_bound,
    heldp_ucb_l_regret_bound,
    v_b,
    v_l,
)
from ..claims.tables import format_horizon
from ..instances import Instance, PrivacyLevels, check_instance, make_privacy_levels
from ..policies import make_policy
from ..simulate import simulate
from ..stats import bootstrap_se, mean_se, ratio_of_means_se

#: The two agents of Ren et al. (2020b) that discard the levels below ε_min, and the mechanism ("L" Laplace,
#: "B" Bernoulli) whose criterion :math:`V_L` or :math:`V_B` chooses their threshold.
AGENTS = {"HeLDP-UCB-L": "L", "HeLDP-UCB-B": "B"}
_V = {"L": v_l, "B": v_b}
_BOUND = {"L": heldp_ucb_l_regret_bound, "B": heldp_ucb_b_regret_bound}
_THEOREM = {"L": 7, "B": 10}


def _check_levels(levels) -> dict:
    if not isinstance(levels, dict) or not levels:
        raise TypeError(f"levels must be a non-empty dict name -> PrivacyLevels, got {type(levels).__name__}")
    for name, lv in levels.items():
        if not isinstance(lv, PrivacyLevels):
            raise TypeError(
                f"levels[{name!r}] must be PrivacyLevels (ldp.make_privacy_levels), got {type(lv).__name__}"
            )
    return levels


def section42_laws(exponential_mean: float) -> dict:
    r"""The three laws of the users' privacy levels of the notebook, name -> ``PrivacyLevels``: the two of
    Section 4.2 of Ren et al. (2020b), ``"discrete"`` (uniform on :math:`\{0, 0.2, 1, 2, 100\}`) and
    ``"gaussian"`` (Gaussian(1, 1) clipped to :math:`[0, 100]`), and ``"exponential"``, exponential with mean
    ``exponential_mean`` (a law the paper did not try; its expectations are fixed-seed Monte Carlo averages)."""
    if isinstance(exponential_mean, bool) or not isinstance(exponential_mean, (int, float)):
        raise TypeError(f"exponential_mean must be a number, got {type(exponential_mean).__name__}")
    if not (math.isfinite(exponential_mean) and exponential_mean > 0):
        raise ValueError(f"exponential_mean must be a finite number > 0, got {exponential_mean!r}")
    return {
        "discrete": make_privacy_levels("ren-heldp-discrete"),
        "gaussian": make_privacy_levels("ren-heldp-gaussian"),
        "exponential": make_privacy_levels(
            "sampler",
            sampler=lambda rng, size: rng.exponential(exponential_mean, size),
            name=f"exponential(mean {exponential_mean:g})",
        ),
    }


def describe_laws(levels) -> str:
    r"""One line per law of ``levels`` (name -> ``PrivacyLevels``): its name, :math:`P\{\epsilon_t = 0\}` (read as
    :math:`1 - P\{\epsilon_t \ge 10^{-12}\}`), :math:`P\{\epsilon_t \ge 3\}` and :math:`\epsilon_{\max}`, the
    largest level, which enters :math:`Q_L` and :math:`Q_B` of Theorems 7 and 10 of Ren et al. (2020b)."""
    return "\n".join(
        f"{name:12s} {lv.name:40s} P(ε = 0) = {1 - lv.p_at_least(1e-12):.3f}, "
        f"P(ε ≥ 3) = {lv.p_at_least(3.0):.3f}, ε_max = {lv.sup:.3g}"
        for name, lv in _check_levels(levels).items()
    )


def curve_grids(levels, support_points, bound_grid) -> dict:
    """Name -> the thresholds ε_min at which :func:`criterion_curves` evaluates :math:`V` and the bound: for a
    law of finite support, ``support_points`` (its positive support points, the paper's grid); for any other
    law, the geometric grid ``numpy.geomspace(lo, hi, points)`` of ``bound_grid = (lo, hi, points)``."""
    lo, hi, points = bound_grid
    geometric = np.geomspace(lo, hi, int(points))
    support = np.array(support_points)
    return {name: support if lv.values is not None else geometric for name, lv in _check_levels(levels).items()}


@dataclass(frozen=True)
class Criterion:
    """One law and agent of :func:`criterion_curves`: the ``mechanism`` ("L" or "B"), the ``heuristic``'s choice
    (an ``EpsilonMinChoice``), the thresholds ``xs``, :math:`V` at each (``v``, infinite where no user reaches
    it), the bound at each (``bound``, infinite where it does not apply) and ``bound_best``, the threshold of
    ``xs`` where the bound is smallest (the first one on a tie)."""

    mechanism: str
    heuristic: EpsilonMinChoice
    xs: np.ndarray
    v: np.ndarray
    bound: np.ndarray
    bound_best: float


def _bound_or_inf(mech, means, horizon, lv, em) -> float:
    try:
        return _BOUND[mech](means, horizon, lv, em)
    except ValueError:  # p_0 T <= 1: the bound does not apply
        return math.inf


def criterion_curves(levels, means, horizon: int, xs) -> dict:
    r"""For each law of ``levels`` (name -> ``PrivacyLevels``) and each agent of :data:`AGENTS`, (name, agent) ->
    :class:`Criterion`: the heuristic of Section 4.2 of Ren et al. (2020b),
    ``ldp.bounds.choose_epsilon_min(levels, mechanism)``; :math:`V_L` or :math:`V_B` (``ldp.bounds.v_l``,
    ``v_b``) at each threshold of ``xs[name]``; and the regret bound at ``horizon`` of Theorem 7 (HeLDP-UCB-L) or
    Theorem 10 (HeLDP-UCB-B), each with its infimum over κ, on arms of mean ``means``. The bound is infinite
    where :math:`p_0 T \le 1`, where the theorems say nothing."""
    out = {}
    for name, lv in _check_levels(levels).items():
        grid = as_float_array(f"xs[{name!r}]", xs[name], bools=False)
        for agent, mech in AGENTS.items():
            heuristic = choose_epsilon_min(lv, mech)
            v = np.array([_V[mech](lv, x) if lv.p_at_least(x) > 0 else math.inf for x in grid])
            bound = np.array([_bound_or_inf(mech, means, horizon, lv, x) for x in grid])
            best = float(grid[int(np.argmin(bound))])
            out[(name, agent)] = Criterion(mech, heuristic, grid, v, bound, best)
    return out


@dataclass(frozen=True)
class Thresholds:
    """One law and agent of :func:`run_thresholds`, over its simulated thresholds ``epsilon_min`` (ascending):
    the ``results`` (ε_min -> SimulationResult), the ``final`` regret of each run at T (ε_min -> array), its
    ``mean`` and standard error ``se`` (arrays over ``epsilon_min``) and ``best``, the ε_min of the smallest mean
    (the empirical best; the first one on a tie)."""

    epsilon_min: list
    results: dict
    final: dict
    mean: np.ndarray
    se: np.ndarray
    best: float

    def ratio(self, num: float, den: float) -> tuple[float, float]:
        """The mean regret at T at ε_min ``num`` over that at ``den``, and its delta-method standard error over
        the paired runs (``ldp.ratio_of_means_se``)."""
        x, y = self.final[num], self.final[den]
        return x.mean() / y.mean(), float(ratio_of_means_se(x, y))


def run_thresholds(levels, criteria, grids, instance: Instance, horizon: int, runs: int, seed: int) -> dict:
    """(name, agent) -> :class:`Thresholds`: each agent of :data:`AGENTS` simulated on ``instance`` under each law
    of ``levels`` (name -> ``PrivacyLevels``), at every threshold of ``grids[name]`` and at the heuristic's and
    the bound's choices of ``criteria`` (:func:`criterion_curves`), ``runs`` runs to ``horizon`` with the same
    ``seed`` throughout (common random numbers). The experiment that Section 4.2 of Ren et al. (2020b) replaces
    by its heuristic."""
    check_instance(instance)
    out = {}
    for name, lv in _check_levels(levels).items():
        for agent in AGENTS:
            c = criteria[(name, agent)]
            ems = sorted(set(grids[name]) | {c.heuristic.epsilon_min, c.bound_best})
            results = {
                em: simulate(
                    make_policy(agent, epsilon_min=em),
                    instance,
                    horizon,
                    runs,
                    seed,
                    privacy_levels=lv,
                    checkpoints=[horizon],
                )
                for em in ems
            }
            final = {em: r.final_regret() for em, r in results.items()}
            mean = np.array([final[em].mean() for em in ems])
            se = np.array([mean_se(final[em]) for em in ems])
            out[(name, agent)] = Thresholds(ems, results, final, mean, se, ems[int(np.argmin(mean))])
    return out


def ratio_to_best_other(at_choice, at_others) -> tuple[float, float]:
    r"""The mean regret at one threshold over the smallest mean regret among other thresholds,
    :math:`\bar R_0 / \min_j \bar R_j`, with ``at_choice`` the final regret of each run at the chosen threshold
    and ``at_others`` one such array per other threshold, the same paired runs; and its bootstrap standard error
    over the runs (``ldp.bootstrap_se``, whole runs resampled, so the runner-up is recomputed in each replicate).
    Below 1 when the choice (here the heuristic of Section 4.2 of Ren et al. (2020b)) beats every other."""
    if isinstance(at_others, np.ndarray) or not isinstance(at_others, (list, tuple)) or not at_others:
        raise ValueError("at_others must be a non-empty list of per-run arrays, one per other threshold")
    per_run = np.column_stack([at_choice, *at_others])  # (runs, 1 + others)
    to_best_other = lambda m: float(m[:, 0].mean() / m[:, 1:].mean(axis=0).min())  # noqa: E731
    return to_best_other(per_run), bootstrap_se(to_best_other, per_run)


def comparison_text(levels, criteria, thresholds, horizon: int, runs: int) -> str:
    """The printed comparison: for each law and agent, the heuristic's choice of Section 4.2 of Ren et al. (2020b)
    (with its :math:`V`), the bound's choice (Theorem 7 or 10) and the empirical best; then one row per simulated
    threshold (:math:`V`, mean regret at T and its standard error, marked ``H`` for the heuristic, ``T7`` or
    ``T10`` for the bound and a star for the best); then the regret at each choice over the best regret."""
    lines = [
        f"T = {format_horizon(horizon)}, {runs} runs; mean pseudo-regret at T ± standard error; "
        "H = heuristic's choice, T7/T10 = bound's choice, * = empirical best"
    ]
    for (name, agent), c in criteria.items():
        t, mech = thresholds[(name, agent)], c.mechanism
        h, bb, b = c.heuristic.epsilon_min, c.bound_best, t.best
        lines += [
            "",
            f"{name}, {agent}: heuristic ε_min = {h:.4g} (V_{mech} = {c.heuristic.value:.4g}), "
            f"bound's = {bb:.4g}, empirical best = {b:.4g}",
        ]
        for em, mi, si in zip(t.epsilon_min, t.mean, t.se):
            tags = ("H " if em == h else "") + (f"T{_THEOREM[mech]} " if em == bb else "") + ("*" if em == b else "")
            v = _V[mech](levels[name], em)
            lines.append(f"   ε_min = {em:<8.4g} V_{mech} = {v:8.4g}   R(T) = {mi:8,.0f} ± {si:4,.0f}  {tags}")
        lines.append(
            "   R(heuristic) / R(best) = {:.3f} ± {:.3f};  R(bound's) / R(best) = {:.3f} ± {:.3f}".format(
                *t.ratio(h, b), *t.ratio(bb, b)
            )
        )
    return "\n".join(lines)


def choice_figure(levels, criteria, thresholds, *, horizon: int, runs: int):
    """One panel per law (row) and agent (column), each curve divided by its minimum
    (``ldp.plotting.relative_panel``): the mean regret at T with its error bars, :math:`V` (the heuristic's
    criterion of Section 4.2 of Ren et al. (2020b)) and the bound of Theorem 7 or 10, against ε_min; vertical
    lines at the heuristic's choice, the bound's choice ("bound") and the empirical best ("best R(T)"), one line
    where they coincide. Returns the figure."""
    import matplotlib.pyplot as plt

    from ..claims import format_horizon
    from ..plotting import POLICY_COLORS, relative_panel

    names = list(_check_levels(levels))
    fig, axes = plt.subplots(len(names), len(AGENTS), figsize=(10, 15 * len(names) / 3), squeeze=False)
    for row, name in zip(axes, names):
        for ax, agent in zip(row, AGENTS):
            c, t = criteria[(name, agent)], thresholds[(name, agent)]
            relative_panel(
                ax,
                t.epsilon_min,
                t.mean,
                t.se,
                color=POLICY_COLORS["LDP-UCB-" + c.mechanism],
                label="mean regret R(T)",
                curves={f"V_{c.mechanism}": (c.xs, c.v), f"Theorem {_THEOREM[c.mechanism]} bound": (c.xs, c.bound)},
                marks={
                    "heuristic": c.heuristic.epsilon_min,
                    "bound": c.bound_best,
                    "best R(T)": t.best,
                },  # short: joined
                xlabel="ε_min",
                title=f"{agent}, {levels[name].name}\nT = {format_horizon(horizon, mathtext=True)}, {runs} runs",
            )
            ax.set_ylim(0.9, 30)
    fig.tight_layout()
    return fig
