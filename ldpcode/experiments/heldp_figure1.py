r"""Ren et al. (2020b), Figure 1 (Section 4): the runs, tables and panels of ``chapters/heldp/figure1``.

HeLDP-UCB-L (Agent 2) and HeLDP-UCB-B (Agent 4) on the 20 arms of the first paper: :func:`run_curves` runs every
curve of panels (a)-(h), the runs of (c), (d) continued to the ratio horizon; :func:`panels_ab`, :func:`panels_cd`,
:func:`panels_efgh` and :func:`panel_i` draw them; :func:`ratio_table`, :func:`paper_reach` and :func:`ratio_reason`
read the ratios of (c), (d) against t beside the paper's four printed ratios (Section 4.1); :func:`threshold_table`,
:func:`best_threshold` and :func:`threshold_margins` compare the thresholds of (e)-(h) (Section 4.2).

A result is keyed by (instance, agent, law of the levels, :math:`\epsilon_{\min}`), the law ``"constant"`` for
:math:`\epsilon_t \equiv \epsilon_{\min}`; non-private UCB1 is :data:`UCB_KEY`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np

from ..bounds import bernoulli_ratio, laplace_ratio
from ..claims import (
    Table,
    approach_text,
    consistent_horizons,
    final_regret_text,
    fits_at_each_t,
    format_horizon,
    format_number,
    horizon_tag,
    joint_horizons,
    statements,
    with_joint,
)
from ..engine import log_checkpoints
from ..instances import make_instance, make_privacy_levels
from ..plotting import POLICY_COLORS, epsilon_colors, legend_below, ratio_panel, regret_panel
from ..policies import make_policy
from ..simulate import simulate
from ..stats import bootstrap_se, mean_se

BERNOULLI, MIXED = "ren2020-bernoulli", "ren2020-mixed"
_B, _L = "HeLDP-UCB-B", "HeLDP-UCB-L"
UCB_KEY = (MIXED, "UCB1", None, None)  #: the key of non-private UCB1 (on the mixed arms, to the ratio horizon)
AGENTS = (_L, _B)  #: the order of the regret panels: L in (a), (e), (g); B in (b), (f), (h)
RATIO_AGENTS = (_B, _L)  #: the order of the ratios, as the paper prints them
THEORY = {_B: bernoulli_ratio, _L: laplace_ratio}  #: each agent's theoretical factor over UCB1 (Section 4.1)
#: (ε, agent) -> the ratio to UCB1 the paper prints for Figure 1(c) (ε = 2) and 1(d) (ε = 0.2)
PAPER_RATIO = {(2.0, _B): 1.6, (2.0, _L): 8.6, (0.2, _B): 74.0, (0.2, _L): 210.0}
AGENT_COLORS = {"UCB1": POLICY_COLORS["UCB1"], _L: POLICY_COLORS["LDP-UCB-L"], _B: POLICY_COLORS["LDP-UCB-B"]}
SHORT = {"ren-heldp-discrete": "discrete", "ren-heldp-gaussian": "gaussian", "constant": "constant"}
LAWS = {  #: law -> (panel letters of L and B, the law as the titles describe it)
    "ren-heldp-discrete": ("ef", "ε_t uniform on {0, 0.2, 1, 2, 100}"),
    "ren-heldp-gaussian": ("gh", "ε_t ~ N(1, 1) clipped to [0, 100]"),
}
PANEL = {(law, p): tags[i] for law, (tags, _) in LAWS.items() for i, p in enumerate(AGENTS)}
WORST_IN_PAPER = {  #: law -> (the threshold the paper calls too small or too large, its words, its statement, why)
    "ren-heldp-discrete": (0.2, "too small", "ren2020heldp.fig1ef.eps_min_too_small",
                           "(its responses at ε_t = 0.2 swamp A_a and B_a)"),
    "ren-heldp-gaussian": (2.0, "too large", "ren2020heldp.fig1gh.eps_min_too_large",
                           "(only p_0 = 15.9 % of users kept)"),
}  # fmt: skip
T_MIN = 10**3  #: the first t at which a ratio is compared with the paper's number (``consistent_horizons``' default)
FINE_POINTS = 481  #: the fine log grid of the ratio runs, to locate where a ratio crosses the paper's number
_pairs = lambda eps_compare: [(e, p) for e in eps_compare for p in RATIO_AGENTS]  # (ε, agent), in print order


def ratio_checkpoints(horizon: int, ratio_horizon: int, fine: int = FINE_POINTS) -> np.ndarray:
    """The checkpoints of the runs of panels (c), (d) continued to ``ratio_horizon``: the union of the log grids of
    both horizons (``ldp.log_checkpoints``) and a finer log grid of ``fine`` points up to ``ratio_horizon``."""
    coarse = np.union1d(log_checkpoints(horizon), log_checkpoints(ratio_horizon))
    return np.union1d(coarse, log_checkpoints(ratio_horizon, fine))


def grid_step_percent(ratio_horizon: int, fine: int = FINE_POINTS) -> float:
    r"""The step in t of the fine grid of :func:`ratio_checkpoints`, in percent: :math:`100(T^{1/(f-1)} - 1)`."""
    return 100 * (ratio_horizon ** (1 / (fine - 1)) - 1)


def run_curves(*, horizon, ratio_horizon, runs, seed, epsilons, eps_compare, grids) -> tuple[dict, dict]:
    """Every simulation of Figure 1 of Ren et al. (2020b), all with ``seed`` (common random numbers). Returns
    (``long``, ``res``): ``long`` holds UCB1 and both agents at each ε of ``eps_compare`` on the mixed arms, to
    ``ratio_horizon`` on :func:`ratio_checkpoints` (panels (c), (d), (i)); ``res`` holds those cut at ``horizon``,
    then both agents at each constant ε of ``epsilons`` (panels (a), (b)) and at each :math:`\\epsilon_{\\min}` of
    ``grids`` (law -> thresholds, panels (e)-(h)) on the Bernoulli arms, to ``horizon``."""
    inst = {BERNOULLI: make_instance(BERNOULLI), MIXED: make_instance(MIXED)}
    laws = {law: make_privacy_levels(law) for law in grids}

    def run(key, T, checkpoints=None):
        name, agent, law, em = key
        if law is None:  # UCB1
            return simulate(make_policy(agent), inst[name], T, runs, seed, checkpoints=checkpoints)
        lv = make_privacy_levels("constant", epsilon=em) if law == "constant" else laws[law]
        policy = make_policy(agent, epsilon_min=em)
        return simulate(policy, inst[name], T, runs, seed, privacy_levels=lv, checkpoints=checkpoints)

    cp = ratio_checkpoints(horizon, ratio_horizon)
    ratio_keys = [UCB_KEY] + [(MIXED, p, "constant", e) for e in eps_compare for p in AGENTS]
    long = {key: run(key, ratio_horizon, cp) for key in ratio_keys}
    res = {key: r.until(horizon) for key, r in long.items()}
    keys = [(BERNOULLI, p, "constant", e) for p in AGENTS for e in epsilons]
    keys += [(BERNOULLI, p, law, em) for law, grid in grids.items() for p in AGENTS for em in grid]
    res.update({key: run(key, horizon) for key in keys})
    return long, res


def kept_share_table(levels: dict, grids: dict) -> Table:
    r"""Per law and threshold of ``grids``: :math:`p_0 = P\{\epsilon_t \ge \epsilon_{\min}\}`, the share of users
    HeLDP-UCB-L and -B keep (Section 4.2). ``levels``: law -> ``ldp.make_privacy_levels(law)``."""
    rows = [[law, em, levels[law].p_at_least(em)] for law, grid in grids.items() for em in grid]
    return Table(["levels", "ε_min", "p_0 = P{ε_t ≥ ε_min}, share of users kept"], rows, formats=[None, "g", ".3f"])


def final_regret_table(res: dict) -> Table:
    """Per curve of :func:`run_curves`: its key and the mean pseudo-regret at its horizon ± its standard error."""
    regs = {key: r.final_regret() for key, r in res.items()}
    rows = [[i, p, "-" if law is None else law, em, (x.mean(), mean_se(x))] for (i, p, law, em), x in regs.items()]
    return Table(["instance", "agent", "levels", "ε_min", "R(T)"], rows, formats=[None] * 3 + ["g", (".4g", ".2g")])


def panels_ab(res: dict, epsilons):
    """Figure 1(a), (b): HeLDP-UCB-L, then -B, on the Bernoulli arms at each constant ε of ``epsilons``."""
    col = epsilon_colors(epsilons)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, p, tag in zip(axes, AGENTS, "ab"):
        regret_panel(ax, [res[(BERNOULLI, p, "constant", e)] for e in epsilons], colors=[col[e] for e in epsilons],
                     labels=[rf"$\epsilon_t \equiv \epsilon$ = {e:g}" for e in epsilons],
                     title=f"({tag}) {p}, Bernoulli arms,\nseveral ε (our choice)")  # fmt: skip
    fig.tight_layout()
    return fig


def panels_cd(res: dict, eps_compare):
    """Figure 1(c), (d): UCB1 and both agents on the mixed arms, at each constant ε of ``eps_compare``."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, e, tag in zip(axes, eps_compare, "cd"):
        keys = [UCB_KEY] + [(MIXED, p, "constant", e) for p in AGENTS]
        regret_panel(ax, [res[k] for k in keys], colors=[AGENT_COLORS[k[1]] for k in keys],
                     labels=["UCB1 (non-private)"] + [f"{p}, ε = {e:g}" for p in AGENTS],
                     title=rf"({tag}) mixed arms, $\epsilon_t \equiv$ {e:g}")  # fmt: skip
    fig.tight_layout()
    return fig


def panels_efgh(res: dict, law: str, grid):
    """Figure 1(e), (f) (``law`` the discrete levels) or (g), (h) (the Gaussian ones): HeLDP-UCB-L, then -B, on the
    Bernoulli arms at each threshold of ``grid``; vertical axes from 1 (R(1) = 0: the first forced pull is arm 0). Each
    legend entry gives the curve's mean regret at T: curves that end close together are told apart there."""
    tags, what = LAWS[law]
    col = epsilon_colors(grid)
    fig, axes = plt.subplots(1, 2, figsize=(10, 5.6), sharey=True)
    for ax, p, tag in zip(axes, AGENTS, tags):
        regret_panel(ax, [res[(BERNOULLI, p, law, em)] for em in grid], colors=[col[em] for em in grid],
                     labels=[rf"$\epsilon_{{\min}}$ = {em:g}, R(T) = {final_regret_text(res[(BERNOULLI, p, law, em)])}"
                             for em in grid], title=f"({tag}) {p}, Bernoulli arms,\n{what}")  # fmt: skip
        ax.set_ylim(bottom=1.0)
        legend_below(ax, offset=-0.2, ncol=1)  # inside, with R(T) ± its error, it covered the curves
    fig.tight_layout()
    return fig


def panel_i(long: dict, eps_compare, horizon: int):
    """Our panel (i), in two parts (i1) and (i2): the ratios to UCB1 of panels (c), (d) against t, from the runs
    ``long`` of :func:`run_curves`, with a 95 % band, the theoretical factors (dashed) and the paper's numbers
    (dotted); grey at ``horizon``."""
    ucb = long[UCB_KEY]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for i, (ax, e, tag) in enumerate(zip(axes, eps_compare, "cd")):
        pairs = [(f"{p} / UCB1", long[(MIXED, p, "constant", e)], ucb, AGENT_COLORS[p]) for p in RATIO_AGENTS]
        ratio_panel(ax, pairs, theory={f"{p} / UCB1": THEORY[p](e) for p in AGENTS},
                    paper={f"{p} / UCB1": PAPER_RATIO[(e, p)] for p in AGENTS}, band=0.95,
                    title=f"(i{i + 1}) ratios of panel ({tag}), mixed arms, ε = {e:g},\n"
                          f"T = {format_horizon(ucb.horizon, mathtext=True)}, {ucb.runs} runs; "
                          f"dashed: theory, dotted: paper")  # fmt: skip
        ax.axvline(horizon, color="grey", linewidth=0.8)
    fig.tight_layout()
    return fig


def _ratio(long: dict, e: float, p: str, t: int) -> float:
    return long[(MIXED, p, "constant", e)].at(t).mean() / long[UCB_KEY].at(t).mean()


def ratio_table(long: dict, eps_compare) -> Table:
    """The four ratios of mean regrets to UCB1 of Figure 1(c), (d) at t = 10^4 ... 10^7 (those that are checkpoints
    of ``long``), beside the theoretical factor and the paper's number (Section 4.1)."""
    cps = long[UCB_KEY].checkpoints
    read_at = [t for t in (10**4, 10**5, 10**6, 10**7) if t in cps]
    rows = [[f"{p} / UCB1, ε = {e:g}"] + [_ratio(long, e, p, t) for t in read_at] + [THEORY[p](e), PAPER_RATIO[(e, p)]]
            for e, p in _pairs(eps_compare)]  # fmt: skip
    head = ["ratio"] + [f"t = {format_horizon(t)}" for t in read_at] + ["theory", "paper"]
    return Table(head, rows, formats=[None] + [".3g"] * (len(read_at) + 2))


@dataclass(frozen=True)
class PaperReach:
    """What :func:`paper_reach` returns: ``ranges`` ((ε, agent) -> ``HorizonRange``), the checkpoints ``t`` examined,
    ``n_inside`` (how many of the four numbers each t reaches) and ``both_c`` (whether t reaches both of panel (c))."""

    ranges: dict
    t: np.ndarray
    n_inside: np.ndarray
    both_c: np.ndarray

    @property
    def most(self) -> int:
        """The largest number of the paper's ratios reached at one t."""
        return int(self.n_inside.max())

    def at_most(self) -> str:
        """The t at which :attr:`most` numbers are reached, as ``"6.46·10⁶, ..."``."""
        return ", ".join(format_number(t, ".3g") for t in self.t[self.n_inside == self.most])

    def summary(self) -> str:
        """One sentence: at most how many numbers one t reaches, and where; then, when no checkpoint reaches both of
        panel (c)'s numbers, their closest approach (which the report judges them by)."""
        out = f"at most {self.most} of the four numbers at one t" + (f", at t = {self.at_most()}" if self.most else "")
        joint = self.ranges[(2.0, _B)].joint
        if not self.both_c.any() and joint and math.isfinite(joint[1]):  # inf: runs without spread, no measure
            out += f"\npanel (c)'s 1.6 and 8.6: no t fits both; {approach_text(*joint)}"
        return out

    def table(self) -> Table:
        """Per ratio, the range of t within the paper's interval and the count of such checkpoints; then the t
        that reach all four numbers, and those that reach both numbers of panel (c)."""
        n = len(self.ranges)
        rows = [[f"{p} / UCB1, ε = {e:g}", PAPER_RATIO[(e, p)], " – ".join(format_number(t, ".2g") for t in h.consistent) or "none",
                 int(h.inside.sum())] for (e, p), h in self.ranges.items()]  # fmt: skip
        rows += [[label, "", ", ".join(format_number(t, ".2g") for t in self.t[mask]) or "none", int(mask.sum())]
                 for label, mask in (("all four at one t", self.n_inside == n),
                                     ("both of panel (c) (1.6 and 8.6)", self.both_c))]  # fmt: skip
        head = ["ratio", "paper", "within the paper's interval at t (first – last)", "checkpoints within"]
        return Table(head, rows, formats=[None, "g", None, "d"])


def paper_reach(long: dict, eps_compare) -> PaperReach:
    """For each of the paper's four ratios of Figure 1(c), (d) (Section 4.1), the checkpoints t >= ``T_MIN`` at which
    our ratio is within 2 standard errors of its printed interval, the paper's own trials counted
    (``ldp.claims.consistent_horizons``); ``eps_compare`` must hold 2.0 and 0.2."""
    if sorted(eps_compare) != [0.2, 2.0]:
        raise ValueError(f"eps_compare must hold the paper's levels 0.2 and 2.0, got {list(eps_compare)}")
    ucb = long[UCB_KEY]
    paper_runs = statements.get("ren2020heldp.fig1c.ratios").runs
    pairs = _pairs(eps_compare)
    ranges = {(e, p): consistent_horizons(ucb.checkpoints, long[(MIXED, p, "constant", e)].regret, ucb.regret,
                                          PAPER_RATIO[(e, p)], paper_runs=paper_runs, t_min=T_MIN)
              for e, p in pairs}  # fmt: skip
    # each panel's two numbers were read at one horizon: their closest approach, per panel
    joined = {k: r for e in eps_compare for k, r in with_joint({k: ranges[k] for k in pairs if k[0] == e}).items()}
    ranges = {k: joined[k] for k in ranges}
    n_inside = fits_at_each_t(*(ranges[k] for k in pairs))
    both_c = ranges[(2.0, _B)].inside & ranges[(2.0, _L)].inside
    return PaperReach(ranges, ranges[pairs[0]].t, n_inside, both_c)


def ratio_reason(long: dict, reach: PaperReach, e: float, p: str, horizon: int, ratio_horizon: int) -> str:
    """The reason of the claim on the paper's ratio of agent ``p`` at ε = ``e``: our ratio at ``horizon`` and at
    ``ratio_horizon``, the range of t that fits the paper's number and, at ε = 2, that of panel (c)'s other number."""
    lo, hi = (float(_ratio(long, e, p, s)) for s in (horizon, ratio_horizon))
    why = (f"the ratio still grows with t ({lo:.3g} at T = {format_horizon(horizon)}, {hi:.3g} at {format_horizon(ratio_horizon)}); "
           f"the paper's {PAPER_RATIO[(e, p)]:g} fits {reach.ranges[(e, p)].text()}")  # fmt: skip
    if e == 2.0 and len(reach.ranges) == 4:
        other = reach.ranges[(2.0, _L if p == _B else _B)]
        joint = joint_horizons(reach.ranges[(2.0, _B)], reach.ranges[(2.0, _L)])
        why += ", and panel (c)'s other number fits " + other.text() + ("" if joint else "; no one horizon gives both")
    return why


def _finals(res: dict, law: str, p: str, grid) -> list:
    return [res[(BERNOULLI, p, law, em)].final_regret().mean() for em in grid]


def threshold_table(res: dict, law: str, grid) -> Table:
    """Figure 1(e)-(h): per agent, the mean regret at T at each threshold of ``grid`` under ``law``, and the
    thresholds with the smallest and the largest (Section 4.2, the choice of :math:`\\epsilon_{\\min}`)."""
    rows = []
    for p in AGENTS:
        finals = _finals(res, law, p, grid)
        rows.append([f"({PANEL[(law, p)]}) {p}", *finals, grid[int(np.argmin(finals))], grid[int(np.argmax(finals))]])
    head = [f"panel ({law})", *[f"R(T), ε_min = {em:g}" for em in grid], "smallest at ε_min", "largest at ε_min"]
    return Table(head, rows, formats=[None] + [".4g"] * len(grid) + ["g", "g"])


def best_threshold(res: dict, law: str, p: str, grid) -> float:
    """The threshold of ``grid`` with the smallest mean regret at T of agent ``p`` under ``law`` (the first if tied)."""
    return grid[int(np.argmin(_finals(res, law, p, grid)))]


def threshold_margins(res: dict, law: str, p: str, grid, worst: float, best: float) -> tuple:
    """Section 4.2, Figure 1(e)-(h), from the final regrets of agent ``p`` at each threshold of ``grid`` under
    ``law`` (one column per threshold, paired runs): ((gap, se), (margin, se)), the gap the mean regret at ``worst``
    minus the largest among the other thresholds (the paper implies >= 0), the margin the smallest mean regret among
    the thresholds other than ``best`` minus the one at ``best``; se a bootstrap over runs (``ldp.bootstrap_se``)."""
    grid = list(grid)
    if worst not in grid or best not in grid:
        raise ValueError(f"worst and best must be thresholds of grid {grid}, got {worst!r} and {best!r}")
    m = np.column_stack([res[(BERNOULLI, p, law, x)].final_regret() for x in grid])  # (runs, thresholds)
    iw, ib = grid.index(worst), grid.index(best)
    gap = lambda m: float(m[:, iw].mean() - np.delete(m.mean(axis=0), iw).max())
    margin = lambda m: float(np.delete(m.mean(axis=0), ib).min() - m[:, ib].mean())
    return (gap(m), bootstrap_se(gap, m)), (margin(m), bootstrap_se(margin, m))


def worst_since(res: dict, law: str, p: str, grid, worst: float) -> int | None:
    """The first checkpoint from which the mean regret of agent ``p`` at threshold ``worst`` is the largest of
    ``grid``'s at every later checkpoint up to the horizon (Section 4.2's orderings hold from there on, at the
    horizons these runs have); None where it is not the largest at the horizon. A tie is not the largest: it
    counts for no threshold, whatever the order of ``grid``."""
    grid = list(grid)
    if worst not in grid:
        raise ValueError(f"worst must be a threshold of grid {grid}, got {worst!r}")
    if len(set(grid)) != len(grid):
        raise ValueError(f"grid must list each threshold once, got {grid}")
    curves = np.array([res[(BERNOULLI, p, law, x)].mean_regret() for x in grid])
    others = np.delete(curves, grid.index(worst), axis=0)
    top = curves[grid.index(worst)] > (others.max(axis=0) if len(others) else -np.inf)
    if not top[-1]:
        return None
    trailing = len(top) if top.all() else int(np.argmin(top[::-1]))  # checkpoints at the end where it is the largest
    return int(res[(BERNOULLI, p, law, worst)].checkpoints[len(top) - trailing])


def curve_claim(key: tuple, horizon: int) -> tuple[str, str]:
    """The claim name and source text of the mean regret at ``horizon`` of the curve ``key`` of :func:`run_curves`,
    with its panel of Figure 1. UCB1 (no levels) has none here: ``chapters/ren2020/figure1`` stores it."""
    inst, p, law, em = key
    if law is None:
        raise ValueError(f"{key!r} is UCB1 on the mixed arms, stored by chapters/ren2020/figure1: it has no claim here")
    arms = inst.removeprefix("ren2020-")
    if law == "constant":
        tag = ("a" if p == _L else "b") if inst == BERNOULLI else ("c" if em == 2.0 else "d")
        what, lev = f"{p}.eps{em:g}", f"ε_t ≡ {em:g}"
    else:
        tag, what, lev = PANEL[(law, p)], f"{p}.{SHORT[law]}.eps_min{em:g}", f"{SHORT[law]} levels, ε_min = {em:g}"
    name = f"regret.{arms}.{what}.{horizon_tag(horizon)}"
    return name, f"Fig. 1({tag}): {p}, {lev}, {arms} arms: mean pseudo-regret at T"
