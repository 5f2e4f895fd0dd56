r"""Azize and Basu (2022), Figure 2: the regret over time of DP-UCB, DP-SE, AdaP-UCB and AdaP-KLUCB at ε-global
DP, for ``chapters/azize2022/figure2``.

:func:`run_figure2` simulates the four algorithms on the checkpoints of :func:`figure2_checkpoints`;
:func:`figure2` draws the mean regret with its band of standard deviations on linear and log-log axes, beside
the Theorem 7 bound of AdaP-UCB. :func:`pulls_table`, :func:`baselines_text` and :func:`ratio_table` are what
the section on the paper's "10 times" reads; :func:`mean_difference`, :func:`final_ratios`, :func:`regret_note`,
:func:`regret_table` are the numbers of the check. The notebook's claims are built in the notebook.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np

from ..bounds import adap_ucb_regret_bound
from ..claims import Table
from ..claims.tables import format_horizon, format_number, format_value
from ..engine import decade_checkpoints, log_checkpoints
from ..global_policies import dp_se_epoch_length, dp_ucb_noise_bound
from ..plotting import POLICY_COLORS, bound_curve, legend_under_panels, mean_sd_panel
from ..policies import make_policy
from ..simulate import simulate
from ..stats import mean_and_half_width, mean_se, ratio_of_means_se

#: The four algorithms of Figure 2, in the order of the notebook's tables and legends.
POLICIES = ("DP-UCB", "DP-SE", "AdaP-UCB", "AdaP-KLUCB")
#: The baselines (numerators of the ratios) and the AdaP algorithms (denominators).
BASELINES = ("DP-UCB", "DP-SE")
ADAP = ("AdaP-UCB", "AdaP-KLUCB")


def figure2_checkpoints(horizon: int, linear_points: int) -> np.ndarray:
    """The checkpoints of Figure 2: the union of the log-spaced grid of ``ldp.log_checkpoints`` and the powers of
    ten (for the log-log panel) and of ``linear_points`` evenly spaced times in :math:`(0, T]` (for the linear
    panel), sorted and unique."""
    if not isinstance(linear_points, (int, np.integer)) or isinstance(linear_points, bool) or linear_points < 1:
        raise ValueError(f"linear_points must be an integer >= 1, got {linear_points!r}")
    linear = np.linspace(0, horizon, linear_points + 1)[1:].astype(np.int64)
    return np.union1d(np.union1d(log_checkpoints(horizon), decade_checkpoints(horizon)), linear)


@dataclass(frozen=True)
class Figure2Run:
    """What :func:`run_figure2` returns: the ``policies`` and their ``results`` (name -> SimulationResult), the
    ``checkpoints``, ``final`` (name -> regret at T of each run, as floats) and ``noise``, DP-UCB's
    (depth L, node scale b, noise bound B) of ``ldp.global_policies.dp_ucb_noise_bound``."""

    policies: dict
    results: dict
    checkpoints: np.ndarray
    final: dict
    noise: tuple

    def describe(self) -> str:
        """One line per algorithm: the policy, the number of checkpoints and of runs."""
        return "\n".join(
            f"{self.policies[p]!r:48s} {len(self.checkpoints)} checkpoints, {self.results[p].runs} runs"
            for p in POLICIES
        )


def run_figure2(
    instance, horizon: int, runs: int, seed: int, *, epsilon, alpha, gamma, beta, linear_points: int
) -> Figure2Run:
    """Simulate the four algorithms of Figure 2 of Azize and Basu (2022) on ``instance``, each with ``runs``
    runs and the same ``seed``, read at :func:`figure2_checkpoints`: AdaP-UCB and AdaP-KLUCB with exploration
    ``alpha``, DP-UCB with failure probability ``gamma``, DP-SE with ``beta`` (None: 1/T). Returns a
    :class:`Figure2Run`."""
    policies = {
        "DP-UCB": make_policy("DP-UCB", epsilon=epsilon, gamma=gamma),
        "DP-SE": make_policy("DP-SE", epsilon=epsilon, beta=beta),
        "AdaP-UCB": make_policy("AdaP-UCB", epsilon=epsilon, alpha=alpha),
        "AdaP-KLUCB": make_policy("AdaP-KLUCB", epsilon=epsilon, alpha=alpha),
    }
    cps = figure2_checkpoints(horizon, linear_points)
    res = {p: simulate(policies[p], instance, horizon, runs, seed, checkpoints=cps) for p in POLICIES}
    final = {p: res[p].final_regret().astype(float) for p in POLICIES}
    noise = dp_ucb_noise_bound(horizon, instance.n_arms, epsilon, gamma)
    return Figure2Run(policies, res, cps, final, noise)


def figure2(results: dict, *, means, horizon: int, epsilon: float, alpha: float, n_sd: float):
    r"""Figure 2 of Azize and Basu (2022): the mean pseudo-regret of each of :data:`POLICIES` in ``results``
    against t, with a band of ``n_sd`` standard deviations of the runs, on linear axes (left) and log-log axes
    from t = 10 (right), where the Theorem 7 bound of AdaP-UCB,
    :math:`\sum_a(16\alpha\log t/\min\{\Delta_a,\epsilon\} + 3\alpha/(\alpha-3))`, is drawn dashed. Returns the
    figure."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
    curves = [results[p] for p in POLICIES]
    mean_sd_panel(
        axes[0],
        curves,
        labels=list(POLICIES),
        n_sd=n_sd,
        loglog=False,
        title=f"Figure 2, ε = {epsilon:g}, linear axes",
    )
    axes[0].ticklabel_format(axis="both", style="sci", scilimits=(0, 0))
    mean_sd_panel(
        axes[1],
        curves,
        labels=list(POLICIES),
        n_sd=n_sd,
        loglog=True,
        t_min=10,
        title=f"Figure 2, ε = {epsilon:g}, log-log axes",
    )
    t_bound = log_checkpoints(horizon, 41)
    t_bound = t_bound[t_bound >= 10]
    bound_curve(
        axes[1],
        t_bound,
        lambda T: adap_ucb_regret_bound(means, T, epsilon, alpha),
        color=POLICY_COLORS["AdaP-UCB"],
        label="Theorem 7 bound (AdaP-UCB)",
    )
    # one legend under both panels: inside either it covered DP-SE's rise (linear) or the bound's start (log-log)
    n = len(axes[1].get_legend_handles_labels()[1])
    legend_under_panels(fig, axes[1], ncol=n, space=0.07, replaces=axes, fontsize="small")
    return fig


def pulls_table(instance, results: dict) -> Table:
    """The mean pulls of each arm at T over the runs, one row per algorithm of :data:`POLICIES`, under the arms'
    means and gaps: where the regret of Figure 2 of Azize and Basu (2022) comes from."""
    rows = [["arm mean"] + [f"{m:g}" for m in instance.means], ["gap"] + [f"{g:g}" for g in instance.gaps]]
    rows += [[p] + list(results[p].pulls.mean(axis=0)) for p in POLICIES]
    head = [""] + [f"arm {a}" for a in range(instance.n_arms)]
    return Table(head, rows, formats=[None] + [".4g"] * instance.n_arms)


def baselines_text(run: Figure2Run, instance, *, horizon: int, epsilon: float, beta) -> str:
    """Three lines on the constants that set the two baselines' regret in Figure 2 of Azize and Basu (2022): DP-UCB's
    tree depth L, node noise, noise bound B and :math:`(K-1)B` beside its measured mean regret at T; DP-SE's epoch
    lengths :math:`R_e`, e = 1..5, with all K arms active (``beta`` None: 1/T); the pulls of arm 1 (the smallest
    gap) by DP-SE in each run, sorted."""
    L, b, B = run.noise
    K = instance.n_arms
    beta_used = 1.0 / horizon if beta is None else beta
    lengths = "; ".join(f"e = {e}: {format_value(dp_se_epoch_length(K, e, epsilon, beta_used))}" for e in range(1, 6))
    pulls = "; ".join(format_value(n) for n in np.sort(run.results["DP-SE"].pulls[:, 1]))
    return (
        f"DP-UCB: depth L = {L}, node noise Lap({b:g}), noise bound B = {B:.4g}, (K-1) B = {(K - 1) * B:.4g}, "
        f"measured mean regret at T: {run.results['DP-UCB'].final_regret().mean():.4g}\n"
        f"DP-SE epoch lengths R_e per active arm with |S| = {K}: {lengths}\n"
        f"DP-SE pulls of the arm of gap {instance.gaps[1]:g} in each run (sorted): {pulls}"
    )


def ratio_table(results: dict, horizon: int) -> Table:
    """The ratio of mean regrets of each baseline to each AdaP algorithm at the powers of ten from
    :math:`10^4` below T and at T: the factor behind the "10 times lower regret" of Azize and Basu (2022),
    Section 5."""
    read_at = [t for t in decade_checkpoints(horizon) if 10**4 <= t < horizon] + [horizon]
    rows = [
        [f"{num} / {den}"] + [results[num].at(t).mean() / results[den].at(t).mean() for t in read_at]
        for num in BASELINES
        for den in ADAP
    ]
    head = ["ratio of mean regrets"] + [f"t = {format_horizon(t)}" for t in read_at]
    return Table(head, rows, formats=[None] + [".3g"] * len(read_at))


def mean_difference(final: dict, a: str, b: str) -> tuple[float, float]:
    r"""The mean regret at T of ``a`` minus that of ``b`` over the runs of ``final`` (name -> regret at T of each
    run), and its standard error for independent runs, :math:`\sqrt{s_a^2/n_a + s_b^2/n_b}`: the two orderings
    of Azize and Basu (2022), Section 5 ("AdaP-KLUCB achieves the lowest regret followed by AdaP-UCB")."""
    for name in (a, b):
        if name not in final:
            raise ValueError(f"{name!r} has no runs in final (it holds {', '.join(final)})")
    return float(final[a].mean() - final[b].mean()), math.hypot(mean_se(final[a]), mean_se(final[b]))


def final_ratios(final: dict) -> dict:
    """(baseline, AdaP algorithm) -> (ratio of mean regrets at T, its delta-method standard error for unpaired
    runs, ``ldp.ratio_of_means_se(..., paired=False)``), ``final`` mapping each name to its runs' regret at T:
    the four ratios of the "10 times" of Azize and Basu (2022), Section 5, baselines first."""
    return {
        (num, den): (
            float(final[num].mean() / final[den].mean()),
            float(ratio_of_means_se(final[num], final[den], paired=False)),
        )
        for num in BASELINES
        for den in ADAP
    }


def regret_note(final_runs) -> str:
    """The note of a mean-regret claim of Figure 2: the number of runs, the sd over them (ddof = 1) and the
    half-width of the normal 95 % confidence interval of the mean."""
    x = np.asarray(final_runs, dtype=float)
    if x.ndim != 1 or x.size < 2:
        raise ValueError(f"final_runs must be a 1-d array of at least 2 runs, got shape {x.shape}")
    _, half = mean_and_half_width(x[:, None])
    return f"{x.size} runs; sd {format_number(x.std(ddof=1), '.4g')}, 95% CI +- {format_number(half[0], '.3g')}"


def regret_table(final: dict) -> Table:
    """Per algorithm of :data:`POLICIES`: the mean regret at T over the runs of ``final``, its sd, its standard
    error and the half-width of its normal 95 % confidence interval (Figure 2 of Azize and Basu (2022) at T)."""
    rows = []
    for p in POLICIES:
        m, half = mean_and_half_width(final[p][:, None])
        rows.append([p, m[0], final[p].std(ddof=1), mean_se(final[p]), half[0]])
    return Table(["algorithm", "mean R(T)", "sd", "se", "95% CI ±"], rows, formats=[None, ".5g", ".4g", ".3g", ".3g"])
