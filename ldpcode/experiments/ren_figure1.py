r"""Ren et al. (2020a), Figure 1: simulations, tables, figures and claims of ``chapters/ren2020/figure1``.

Section 4 of the paper runs LDP-UCB-L (Agent 2) and LDP-UCB-B (Agent 4) beside UCB1 on twenty arms and states
the ratios of their regrets to UCB1's, beside the theoretical factors
:math:`\big(\frac{e^\epsilon+1}{e^\epsilon-1}\big)^2` (Theorem 6) and :math:`(1 + 4/\epsilon)^2` (Theorem 4).
This module is what the notebook does with them: the runs (:func:`simulate_curves`, keyed by
``(instance name, policy, ε)``, ε ``None`` for UCB1) and their final regrets (:func:`regret_table`); panels (a)-(f)
(:func:`agents_figure`, :func:`epsilons_figure`); the ratios against t (:func:`theory_factors`,
:func:`ratio_figure`, :func:`ratio_table`, :func:`first_reach_table`); the horizons at which the paper's ratios
fit (:func:`stated_horizons`, :func:`joint_fit_text`); the ids, sources and arguments of the notebook's ratio
and regret-bound claims (:func:`ratio_claims`, :func:`regret_bound_claims`, :func:`factor_reason`). The
second computations of the exact claims (the factors from the policies' widths and from CTB) stay in the
notebook: a claim's second way must not come from the package.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from .. import plotting
from ..bounds import bernoulli_ratio, laplace_ratio
from ..claims import (
    Table,
    approach_text,
    consistent_horizons,
    format_horizon,
    horizon_tag,
    span_text,
    statements,
    with_joint,
)
from ..policies import make_policy
from ..simulate import simulate
from ..stats import mean_se, ratio_of_means_se
from . import agent_regret_bound

AGENTS = ("LDP-UCB-B", "LDP-UCB-L")  # the private agents, in the order of the ratio tables and panel (g)
READ_AT = (10**4, 10**5, 10**6, 10**7)  # the horizons of :func:`ratio_table` (those among the checkpoints)
REACH_FROM = 10**4  # :func:`first_reach_table` searches t >= this


def _label(policy: str) -> str:
    return f"{policy} / UCB1"


def simulate_curves(instance, agents, horizon: int, runs: int, seed: int, checkpoints, *, done=()) -> dict:
    """Simulate each ``(policy, ε)`` of ``agents`` on ``instance`` (ε ``None`` for UCB1) to ``horizon``, with
    ``runs`` runs, the same ``seed`` for every curve (common random numbers) and the ``checkpoints`` up to
    ``horizon``. Returns ``(instance.name, policy, ε)`` -> :class:`~ldpcode.simulate.SimulationResult`, in the
    order of ``agents``, leaving out the keys in ``done`` (already simulated) and repeated ones. The curves of
    Figure 1 of Ren et al. (2020a)."""
    checkpoints = np.asarray(checkpoints)
    out = {}
    for policy, eps in agents:
        key = (instance.name, policy, eps)
        if key in done or key in out:
            continue
        cps = checkpoints[checkpoints <= horizon]
        out[key] = simulate(make_policy(policy, epsilon=eps), instance, horizon, runs, seed, checkpoints=cps)
    return out


def regret_table(results: dict) -> Table:
    """The mean pseudo-regret at the horizon of every curve of ``results`` (as :func:`simulate_curves` keys
    them) with its standard error :func:`~ldpcode.stats.mean_se`, sorted by instance, then policy name, then
    decreasing ε: the final regrets of Figure 1 of Ren et al. (2020a)."""
    rows = []
    for key in sorted(results, key=lambda k: (k[0], k[1], -(k[2] or math.inf))):
        r = results[key]
        rows.append([key[0], r.label, (r.mean_regret()[-1], mean_se(r.final_regret()))])
    return Table(["instance", "curve", "R(T)"], rows, formats=[None, None, (".4g", ".2g")])


def _regret_pair(panels, **kwargs):
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, (title, curves) in zip(axes, panels):
        plotting.regret_panel(ax, curves, title=title, **kwargs)
    fig.tight_layout()
    return fig


def agents_figure(results: dict, instance: str, epsilons, tags: str, arms: str):
    """Two panels of Figure 1 of Ren et al. (2020a), one per ε of ``epsilons``: the mean regret of UCB1,
    LDP-UCB-L and LDP-UCB-B on the instance named ``instance`` (panels (a), (b) on Bernoulli arms, (e), (f)
    on mixed arms; ``tags`` the panels' letters, ``arms`` the words for the instance). Returns the figure."""
    ucb = results[(instance, "UCB1", None)]
    panels = [
        (f"({tag}) {arms}, ε = {e:g}", [ucb, results[(instance, "LDP-UCB-L", e)], results[(instance, "LDP-UCB-B", e)]])
        for e, tag in zip(epsilons, tags)
    ]
    return _regret_pair(panels)


def epsilons_figure(results: dict, instance: str, epsilons, tags: str):
    """Panels (c), (d) of Figure 1 of Ren et al. (2020a): the mean regret of LDP-UCB-L, then of LDP-UCB-B, at
    each ε of ``epsilons`` on the instance named ``instance`` (``tags`` the panels' letters). Returns the
    figure."""
    colors = plotting.epsilon_colors(epsilons)
    panels = [
        (f"({tag}) {p}, Bernoulli arms, several ε (our choice)", [results[(instance, p, e)] for e in epsilons])
        for p, tag in zip(AGENTS[::-1], tags)
    ]
    return _regret_pair(panels, colors=[colors[e] for e in epsilons], labels=[f"ε = {e:g}" for e in epsilons])


def theory_factors(epsilons) -> dict:
    r"""ε -> ``{"LDP-UCB-B / UCB1": ..., "LDP-UCB-L / UCB1": ...}``: the theoretical factors of Section 4 of Ren et
    al. (2020a), :math:`\big(\frac{e^\epsilon+1}{e^\epsilon-1}\big)^2` (Theorem 6,
    :func:`~ldpcode.bounds.bernoulli_ratio`) and :math:`(1 + 4/\epsilon)^2` (Theorem 4,
    :func:`~ldpcode.bounds.laplace_ratio`)."""
    return {e: {_label("LDP-UCB-B"): bernoulli_ratio(e), _label("LDP-UCB-L"): laplace_ratio(e)} for e in epsilons}


def ratio_figure(long: dict, instance: str, epsilons, theory: dict, paper: dict, horizon: int, t_min: int):
    """Panel (g), one axes per ε of ``epsilons``: LDP-UCB-B / UCB1 and LDP-UCB-L / UCB1, ratios of mean regrets of
    the ``long`` runs on the instance named ``instance``, against t >= ``t_min``, with a 95 % band, the
    ``theory`` factors (dashed) and the ``paper``'s ratios (dotted, where it gives some), and a grey line at
    ``horizon`` (that of panels (a)-(f)). Ren et al. (2020a), Section 4. Returns the figure."""
    ucb = long[(instance, "UCB1", None)]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for i, (ax, e) in enumerate(zip(axes, epsilons)):
        pairs = [(_label(p), long[(instance, p, e)], ucb, plotting.POLICY_COLORS[p]) for p in AGENTS]
        part = f"g{i + 1}" if len(epsilons) > 1 else "g"  # the parts of panel (g), one per ε: (g1), (g2)
        title = (
            f"({part}) Bernoulli arms, ε = {e:g}, T = {format_horizon(ucb.horizon, mathtext=True)}, "
            f"{ucb.runs} runs\ndashed: theory" + (", dotted: paper" if paper.get(e) else "")
        )  # a re-run at an ε the paper prints no ratio for draws no dotted line, and says none
        plotting.ratio_panel(ax, pairs, theory=theory[e], paper=paper.get(e), band=0.95, title=title, t_min=t_min)
        ax.axvline(horizon, color="grey", linewidth=0.8)
    fig.tight_layout()
    return fig


def ratio_table(long: dict, instance: str, epsilons, theory: dict, paper: dict) -> Table:
    """The ratios of mean regrets to UCB1's of the ``long`` runs on the instance named ``instance``, read at each
    t of ``READ_AT`` among their checkpoints, beside the ``theory`` factor and the ``paper``'s ratio ("-" where it
    prints none), one row per (ε, agent): how the ratios of Section 4 of Ren et al. (2020a) move with the horizon."""
    ucb = long[(instance, "UCB1", None)]
    read_at = [t for t in READ_AT if t in ucb.checkpoints]
    rows = []
    for e in epsilons:
        for p in AGENTS:
            r, lab = long[(instance, p, e)], _label(p)
            vals = [r.at(t).mean() / ucb.at(t).mean() for t in read_at]
            rows.append([f"{lab}, ε = {e:g}"] + vals + [theory[e][lab], paper.get(e, {}).get(lab, "-")])
    head = ["ratio"] + [f"t = {format_horizon(t)}" for t in read_at] + ["theory", "paper"]
    return Table(head, rows, formats=[None] + [".3g"] * (len(read_at) + 2))


def first_reach_table(long: dict, instance: str, epsilons, paper: dict) -> Table:
    """For each (ε, agent), the first checkpoint t >= ``REACH_FROM`` at which the ratio of mean regrets of the
    ``long`` runs on the instance named ``instance`` to UCB1's reaches the ``paper``'s ratio (Ren et al. 2020a,
    Section 4), or "not reached by t = ..." at the runs' horizon; an ε for which the paper prints no ratio has no
    row."""
    ucb = long[(instance, "UCB1", None)]
    keep = ucb.checkpoints >= REACH_FROM
    rows = []
    for e in epsilons:
        for p in AGENTS:
            lab = _label(p)
            if lab not in paper.get(e, {}):
                continue
            ratio = long[(instance, p, e)].mean_regret()[keep] / ucb.mean_regret()[keep]
            hit = np.flatnonzero(ratio >= paper[e][lab])
            first = ucb.checkpoints[keep][hit[0]] if hit.size else f"not reached by t = {format_horizon(ucb.horizon)}"
            rows.append([f"{lab}, ε = {e:g}", paper[e][lab], first])
    head = ["ratio", "paper", f"first t ≥ {format_horizon(REACH_FROM)} with ours ≥ paper"]
    return Table(head, rows, formats=[None, "g", ".2g"])


def stated_horizons(long: dict, instance: str, stated: dict, t_min: int) -> dict:
    """(policy, ε) -> :class:`~ldpcode.claims.HorizonRange`: for each ratio the paper states (``stated``:
    (policy, ε) -> (printed number, statement id)) and the ``long`` runs hold, the range of t >= ``t_min`` at
    which our ratio to UCB1 on the instance named ``instance`` is within the printed interval, the paper's own
    runs counted (:func:`~ldpcode.claims.consistent_horizons`), each with the numbers' closest approach
    (:func:`~ldpcode.claims.with_joint`, when there are two or more): the paper read them off one figure at one
    horizon. Figure 1(a) of Ren et al. (2020a)."""
    ucb = long[(instance, "UCB1", None)]
    out = {
        pe: consistent_horizons(
            ucb.checkpoints,
            long[(instance, *pe)].regret,
            ucb.regret,
            printed,
            paper_runs=statements.get(key).runs,
            t_min=t_min,
        )
        for pe, (printed, key) in stated.items()
        if (instance, *pe) in long
    }
    return with_joint(out) if len(out) > 1 else out


def joint_fit_text(long: dict, instance: str, stated: dict, horizons: dict, joint) -> str:
    """Two lines on the paper's two stated ratios (``stated``, LDP-UCB-B's then LDP-UCB-L's, with their
    ``horizons`` from :func:`stated_horizons`): where each fits, where both do (``joint``, from
    :func:`~ldpcode.claims.joint_horizons`), and LDP-UCB-L's ratio at the last t that fits LDP-UCB-B's number,
    with its delta-method standard error. Figure 1(a) of Ren et al. (2020a)."""
    (b, (b_printed, _)), (l, (l_printed, _)) = stated.items()
    hb, hl = horizons[b], horizons[l]
    lines = [
        f"ε = {b[1]:g}: {b_printed:g} ({_label(b[0])}) fits {hb.text()}, {l_printed:g} ({_label(l[0])}) fits "
        f"{hl.text()}; one horizon for both: " + (span_text(joint, hb.searched) if joint else "none")
    ]
    if hb.joint and not joint and math.isfinite(hb.joint[1]):  # no common t: how close the pair comes
        lines.append(approach_text(*hb.joint))
    if hb.consistent:
        t = hb.consistent[1]
        x, y = long[(instance, *l)].at(t), long[(instance, "UCB1", None)].at(t)
        lines.append(
            f"at the last t that fits {b_printed:g} (t = {t:,}) {_label(l[0])} = {x.mean() / y.mean():.3g} "
            f"± {float(ratio_of_means_se(x, y)):.2g}, not {l_printed:g}"
        )
    return "\n".join(lines)


def ratio_claims(long, res, bernoulli: str, mixed: str, epsilons, horizon: int, *, stated, horizons, reasons, t_min):
    """The keyword arguments of the notebook's ratio claims (``nb.ratio(**claim)``), one per (ε, agent) at
    ``horizon`` and at the long runs' horizon on Bernoulli arms (``long``), and at ``horizon`` on mixed arms
    (``res``). A ratio the paper states for Figure 1(a) of Ren et al. (2020a) (``stated``: (policy, ε) ->
    (printed number, statement id)) is judged at the long horizon with its ``horizons`` and the reason
    ``reasons[(policy, ε)]()``; the others are reproducible numbers (the paper states none)."""
    ucb = long[(bernoulli, "UCB1", None)]
    claims = []
    for table, inst, t in [(long, bernoulli, horizon), (long, bernoulli, ucb.horizon), (res, mixed, horizon)]:
        arms, sub = ("mixed", "mixed.") if inst == mixed else ("Bernoulli", "")
        for e in epsilons:
            for p in AGENTS:
                num, den = table[(inst, p, e)], table[(inst, "UCB1", None)]
                what = f"{p} / UCB1 regret ratio at ε = {e:g}, {arms} arms"
                claim = dict(name=f"{sub}ratio_{p[-1]}_UCB.eps{e:g}.{horizon_tag(t)}", num=num, den=den, t=t)
                if inst == bernoulli and t == ucb.horizon and (p, e) in stated:
                    printed, key = stated[(p, e)]
                    note = (
                        f"{num.runs} paired runs; the paper states no horizon: the value is ours at T = {format_horizon(t)}, "
                        f"the verdict is the range of t (from {format_horizon(t_min)} to {format_horizon(ucb.horizon)}) where our curve "
                        "is within the paper's interval"
                    )
                    claim.update(source=f"Fig. 1(a): {what}", paper=printed, statement=key, runs=num.runs)
                    claim.update(horizons=horizons[(p, e)], reason=reasons[(p, e)](), note=note)
                else:
                    note = f"{num.runs} paired runs; the conference paper states no number"
                    claim.update(source=f"Fig. 1: {what}", note=note)
                claims.append(claim)
    return claims


def factor_reason(value: float, printed: float, unit: float) -> str:
    """The reason of an exact claim on a theoretical factor of Section 4 of Ren et al. (2020a): whether ``value``
    rounded to a multiple of ``unit`` (the printed digits) is the paper's ``printed`` number."""
    if abs(round(value / unit) * unit - printed) < unit / 1000:
        return "rounds to the paper's number"
    return f"the factor is {value:.4g}, which does not round to the paper's {printed:g}"


def regret_bound_claims(results, instances) -> list:
    """The arguments of the notebook's regret-bound claims (``nb.regret_bound(**claim)``), one per
    ``((instance name, policy, ε), result)`` of ``results``: the bound the paper proves for the agent at the
    result's horizon (:func:`~ldpcode.experiments.agent_regret_bound`: Theorem 4, Theorem 6 or UCB1's), on the
    means of the instance of that name among ``instances``. Figure 1 of Ren et al. (2020a)."""
    means = {inst.name: inst.means for inst in instances}
    claims = []
    for (inst, p, e), r in results:
        which, bound = agent_regret_bound(p, means[inst], r.horizon, e)
        eps_tag, at_eps = ("", "") if e is None else (f".eps{e:g}", f", ε = {e:g}")
        name = f"regret.{inst.removeprefix('ren2020-')}.{p}{eps_tag}.{horizon_tag(r.horizon)}"
        source = f"Fig. 1, {p}{at_eps}, {inst}: mean pseudo-regret at T"
        claims.append(dict(name=name, source=source, result=r, bound=bound, how=f"{which} at T"))
    return claims
