r"""Azize and Basu (2022), Figure 1 and Example 2: the runs, tables, claims and figures of
``chapters/azize2022/figure1_episodes``.

Figure 1 illustrates the adaptive episodes of Algorithm 1 (AdaP-UCB, AdaP-KLUCB) with per-arm doubling, and
Example 2 walks through it on two arms. :func:`find_example_seed` selects a run that plays Example 2's arms,
:func:`example_text`, :func:`example_table` and :func:`continued_text` show what each index was built from (the arm's last episode
only), :func:`index_figure` and :func:`timelines_figure` draw Figure 1 from real runs. At paper scale
:func:`paper_scale_stats` counts the episodes and private means of many runs (Table 1's "# Private Means",
:math:`O(\log T)`), :func:`paper_scale_text` prints them, :func:`paper_scale_claims` builds their claims and
:func:`episodes_figure` draws each arm's episodes against its pulls. Example 2's exact claims, whose second
computation transcribes the paper, are built in the notebook.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import audit
from ..claims import Table
from ..claims.tables import format_horizon, format_value
from ..policies import make_policy
from ..plotting import POLICY_COLORS, THEORY_STYLE, episode_timeline
from ..simulate import run_streams, simulate
from ..stats import mean_se

FIGURE2_MEANS = (0.75, 0.625, 0.5, 0.375, 0.25)
"""The Bernoulli means of the instance of Figure 2 of Azize and Basu (2022)."""


def seed_streams(seed: int) -> tuple:
    """The reward and noise generators of the run with seed ``seed``, as :func:`ldpcode.simulate` derives them
    from ``numpy.random.SeedSequence(seed)`` (:func:`ldpcode.simulate.run_streams`)."""
    return run_streams(np.random.SeedSequence(seed))


def find_example_seed(policy, instance, horizon: int, pattern, seed: int, *, tries: int = 10_000) -> int:
    """The first seed ``seed``, ``seed + 1``, ... (at most ``tries`` of them) whose traced run of ``policy`` to
    ``horizon`` plays the arms ``pattern`` (0-based) in its episodes 1, 2, ...: the run that follows Example 2
    (arms 1, 1, 2, 1). Raises ValueError when no seed of the range does."""
    pattern = list(pattern)
    for s in range(seed, seed + tries):
        arms = audit.traced_run(policy, instance, horizon, *seed_streams(s)).blocks.arms[1 : 1 + len(pattern)]
        if [a[0] for a in arms] == pattern:
            return s
    raise ValueError(f"no seed in [{seed}, {seed + tries}) gives example_pattern={pattern}; try another")


def example_text(example, s: int, seed: int) -> str:
    r"""Example 2 on the run with seed ``s`` (the ``s - seed + 1``-th tried): its action sequence and the episode
    starts :math:`t_\ell` and lengths (:func:`example_table` gives what each index was built from)."""
    b = example.blocks
    head = f"seed {s} (the {s - seed + 1}-th tried); action sequence a^T = {audit.action_sequence(b)} (0-based arms)"
    starts = f"episode starts t_ℓ: {[t + 1 for t in b.start[1:]]}; lengths: {b.length[1:]}"
    return "\n".join([head, starts])


def example_table(rows: pd.DataFrame) -> Table:
    r"""Per decision and arm of Example 2's run, what the index was built from (``rows``, the
    :func:`ldpcode.audit.decision_table` of the run): the window of the arm's last episode, its length m, the
    episode mean, the Laplace draw, the scale :math:`1/(\epsilon m)`, the private mean :math:`\tilde\mu`
    recomputed and the one the policy used, the index and whether the arm was chosen. A table, not printed text:
    its twelve columns fit the page only as HTML, where the headers wrap."""
    windows = [f"[{f}, {l}]" if f < l else f"[{f}]" for f, l in zip(rows["first"], rows["last"], strict=True)]
    body = [
        [int(r.l), int(r.t_l), int(r.arm) + 1, w, int(r.m), r.episode_mean, r.draw, r.noise_scale, r.recomputed,
         r.private_mean, r["index"], "yes" if r.chosen else ""]
        for w, (_, r) in zip(windows, rows.iterrows(), strict=True)
    ]  # fmt: skip
    head = ["ℓ", "t_ℓ", "arm", "window", "m", "episode mean", "Lap draw", "1/(ε m)", "μ̃ = mean + draw/(ε m)",
            "μ̃ used (trace)", "index", "chosen"]  # fmt: skip
    return Table(head, body, formats=["d", "d", "d", None, "d", ".3g", ".3f", ".3g", ".4f", ".4f", ".3f", None])


def continued_run(policy, instance, horizon: int, s: int, example):
    """The run of Example 2 (seed ``s``) continued to ``horizon`` with the same streams, traced
    (:func:`ldpcode.audit.traced_run`); Algorithm 1 is anytime, so its first four episodes are those of
    ``example``: ValueError otherwise."""
    long = audit.traced_run(policy, instance, horizon, *seed_streams(s))
    if long.blocks.arms[:5] != example.blocks.arms[:5] or long.blocks.length[:4] != example.blocks.length[:4]:
        raise ValueError(f"the run continued to horizon={horizon} does not start with the example's episodes")
    return long


def continued_text(long, rows: pd.DataFrame, last: int = 6) -> str:
    """The continued run of Example 2: its decisions, private means and final counts, and for the ``last`` rows of
    ``rows`` (its :func:`ldpcode.audit.decision_table`) the last episode's mean each index used (forgetting, Theorem
    6) beside the mean of all the arm's rewards, which a non-forgetting policy would use."""
    b = long.blocks
    T = int(sum(b.length))
    table = pd.DataFrame(
        {
            "t_l": rows.t_l,
            "arm": rows.arm + 1,
            "m": rows.m,
            "last-episode mean": rows.episode_mean.round(3),
            "all-rewards mean": rows.all_mean.round(3),
        }
    )
    counts = b.counts_at(np.array([T]))[0].tolist()
    head = f"T = {T}: {len(b.start) - 1} decisions, {b.releases} private means; final counts N = {counts}"
    why = "mean of ALL the arm's rewards (what a non-forgetting policy would use) vs the last episode's mean:"
    return "\n".join([head, why, table.iloc[-last:].to_string(index=False)])


def index_figure(blocks, rows: pd.DataFrame, means, *, epsilon: float, seed: int, example_horizon: int):
    r"""Figure 1 on the continued run of Example 2: its episodes (:func:`ldpcode.plotting.episode_timeline`, Example
    2's steps 1 to ``example_horizon`` shaded) above the index of each arm at each decision :math:`t_\ell` (filled:
    the arm chosen) and its private mean (open), from ``rows`` (:func:`ldpcode.audit.decision_table`), with the
    true ``means`` dashed. Returns the figure."""
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(10, 5.6), sharex=True, height_ratios=[1, 1.6])
    episode_timeline(
        ax1,
        blocks,
        title=(
            f"AdaP-UCB, ε = {epsilon:g}, two arms (μ = {means}), seed {seed}: Example 2 is steps 1-{example_horizon}"
        ),
    )
    ax1.set_xlabel("")
    ax1.axvspan(1, example_horizon + 1, color="0.92", zorder=0)  # Example 2's steps
    for a in range(blocks.n_arms):
        r = rows[rows.arm == a]
        ax2.plot(r.t_l, r["index"], "-", color=f"C{a}", linewidth=0.8, label=f"index of arm {a + 1}")
        ax2.plot(r.t_l[r.chosen], r["index"][r.chosen], "o", color=f"C{a}", markersize=5)
        ax2.plot(r.t_l[~r.chosen], r["index"][~r.chosen], "o", color=f"C{a}", markersize=5, markerfacecolor="white")
        ax2.plot(
            r.t_l,
            r.private_mean,
            "s",
            color=f"C{a}",
            markersize=4,
            markerfacecolor="none",
            label=f"private mean of arm {a + 1}",
        )
        ax2.axhline(means[a], color=f"C{a}", **THEORY_STYLE)
    ax2.set_xlabel(r"step t (decisions at $t_\ell$)")
    ax2.set_ylabel("value at decision")
    ax2.legend(loc="upper right", ncol=2)
    fig.tight_layout()
    return fig


def _episode_count(blocks) -> str:
    r"""The episodes of ``blocks`` for a title, counted as :func:`paper_scale_stats` counts them: each arm's initial
    pull is one episode, and each decision :math:`t_\ell` starts one more (``len(start) - 1``: the first block holds
    the K initial pulls). A title that counted the decisions alone said 67 where the statistics said 72."""
    decisions = len(blocks.start) - 1
    return f"{decisions + blocks.n_arms} episodes ({blocks.n_arms} initial pulls, {decisions} decisions)"


def timelines_figure(small, big, *, epsilon: float):
    """Figure 1 on the Figure 2 instance: the episodes of the short run ``small`` (every episode visible) above
    those of the long run ``big`` on a log axis, where doubling episodes have equal widths
    (:func:`ldpcode.plotting.episode_timeline`). The titles count the episodes as :func:`_episode_count` does.
    Returns the figure."""
    T_small, T_big = int(sum(small.length)), int(sum(big.length))
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(10, 5.4))
    episode_timeline(
        ax1,
        small,
        title=(f"AdaP-UCB, ε = {epsilon:g}, Figure 2 instance, T = {T_small}: {_episode_count(small)}"),
    )
    episode_timeline(
        ax2,
        big,
        log=True,
        title=(f"the same seed at T = {format_horizon(T_big, mathtext=True)}: {_episode_count(big)}"),
    )
    fig.tight_layout()
    return fig


def paper_scale_stats(policies, instance, horizon: int, runs: int, seed: int, *, epsilon: float, alpha: float) -> dict:
    r"""Per policy of Algorithm 1, ``runs`` runs to ``horizon`` (run r on the r-th child of
    ``SeedSequence(seed)``, as :func:`ldpcode.simulate` gives it): the arms breaking the per-arm doubling
    (``doubling``), the arms whose number of episodes is not :math:`1 + \lceil\log_2 N_a(T)\rceil`
    (``log2_rule``), the episodes and private means per run (Table 1's "# Private Means"), the counts
    :math:`N_a(T)` and episodes per arm, the largest difference between private means and episodes - 1
    (``release_identity``) and between those private means and :func:`ldpcode.simulate`'s
    (``simulate_agrees``), and run 0's episode lengths per arm (``example_lengths``). Returns name -> dict."""
    stats = {}
    for name in policies:
        pol = make_policy(name, epsilon=epsilon, alpha=alpha)
        blocks = [pol.run(instance, horizon, *run_streams(c)) for c in np.random.SeedSequence(seed).spawn(runs)]
        counts = np.array([bl.counts_at(np.array([horizon]))[0] for bl in blocks])
        per_arm = np.array([[len(x) for x in audit.arm_episode_lengths(bl)] for bl in blocks])
        episodes = per_arm.sum(axis=1)
        releases = np.array([bl.releases for bl in blocks])
        sim = simulate(pol, instance, horizon, runs, seed, checkpoints=np.array([horizon]))
        stats[name] = dict(
            doubling=sum(audit.doubling_violations(bl, horizon) for bl in blocks),
            log2_rule=int((per_arm != 1 + np.ceil(np.log2(counts))).sum()),
            episodes=episodes,
            releases=releases,
            counts=counts,
            per_arm=per_arm,
            release_identity=int(np.abs(releases - (episodes - 1)).max()),
            simulate_agrees=int(np.abs(sim.releases - releases).max()),
            example_lengths=audit.arm_episode_lengths(blocks[0]),
        )
    return stats


def paper_scale_text(stats: dict, n_arms: int, horizon: int, bound: float) -> str:
    r"""The printout of :func:`paper_scale_stats`: the episode bound :math:`K\log_2(T/K) + K + 1` (``bound``,
    :func:`ldpcode.audit.algorithm1_episode_bound`) and :math:`K(\log_2(T/K) + 2)`; per policy the episodes and
    private means per run (mean, sd or standard error, max) and the rule counts; the first policy's run 0 episode
    lengths per arm."""
    lines = [
        f"T = {format_horizon(horizon)}, K = {n_arms}: episode bound K log2(T/K) + K + 1 = {bound:.2f}"
        f" (K (log2(T/K) + 2) = {n_arms * (math.log2(horizon / n_arms) + 2):.2f})"
    ]
    for name, st in stats.items():
        e, r = st["episodes"], st["releases"]
        lines.append(
            f"{name:10s} episodes per run: mean {e.mean():.2f} (sd {e.std(ddof=1):.2f}, max {e.max()});"
            f" private means per run: mean {r.mean():.2f} (se {mean_se(r):.2f});"
            f" arms breaking the doubling rule: {st['doubling']}; arms with episodes ≠ 1 + ceil(log2 N):"
            f" {st['log2_rule']}; episodes per arm (run 0): {st['per_arm'][0].tolist()}"
        )
    first = next(iter(stats))
    lines.append(f"{first}, run 0, episode lengths of each arm:")
    lines += [
        f"  arm {a + 1}: {'; '.join(format_value(n) for n in ls)}"
        for a, ls in enumerate(stats[first]["example_lengths"])
    ]
    return "\n".join(lines)


def instance_words(means) -> str:
    """The instance of a claim: ``'Fig. 2 instance'`` for :data:`FIGURE2_MEANS`, else its means."""
    return "Fig. 2 instance" if tuple(means) == FIGURE2_MEANS else f"means {list(means)}"


def paper_scale_claims(nb, stats: dict, means, *, horizon: int, runs: int, epsilon: float, bound: float) -> None:
    r"""The four bound claims per policy of :func:`paper_scale_stats` (Algorithm 1, Table 1's "# Private Means"),
    collected in ``nb`` (:class:`ldpcode.book.Notebook`): no arm breaks the per-arm doubling, every arm has
    :math:`1 + \lceil\log_2 N_a(T)\rceil` episodes, private means = episodes - 1 (and agree with
    :func:`ldpcode.simulate`), and the largest number of episodes in a run is at most ``bound``
    (:math:`K\log_2(T/K) + K + 1`)."""
    n_arms = len(means)
    for name, st in stats.items():
        key = name.replace("-", "_").lower()
        e = st["episodes"]
        ps = f"Algorithm 1 / Table 1, {name}, {instance_words(means)}, T = {format_horizon(horizon, caret=True)}, eps = {epsilon:g}"
        counted = dict(note=f"counted over {runs} runs x {n_arms} arms")
        rows = [  # (id, what, measured, bound, how, note)
            ("doubling_violations", "arms breaking the doubling rule", st["doubling"], 0,
             "Algorithm 1's per-arm doubling: episode lengths 1, 1, 2, 4, ... (the final one cut)", counted),
            ("log2_rule_violations", "arms with episodes != 1 + ceil(log2 N_a(T))", st["log2_rule"], 0,
             "per-arm doubling: arm a has exactly 1 + ceil(log2 N_a(T)) episodes", counted),
            ("releases_identity", "private means vs episodes - 1", max(st["release_identity"], st["simulate_agrees"]),
             0, "one private mean per episode but the last: max |private means - (episodes - 1)| and "
             "max |ours - ldp.simulate's releases| over runs", {}),
            ("max_episodes_per_run", "largest number of episodes in a run", int(e.max()), bound,
             "K log2(T/K) + K + 1 (audit.algorithm1_episode_bound: per-arm doubling and concavity)",
             dict(note=f"mean {e.mean():.2f} over {runs} runs")),
        ]  # fmt: skip
        for cid, what, value, limit, how, note in rows:
            nb.bound(f"{key}.{cid}", f"{ps}: {what}", reproduced=value, bound=limit, sense="<=", how=how, **note)


def episodes_figure(stats: dict, *, epsilon: float, horizon: int, runs: int):
    r"""Each arm of each run of :func:`paper_scale_stats`: its number of episodes against its pulls
    :math:`N_a(T)` (points offset vertically by policy), beside :math:`1 + \lceil\log_2 N\rceil`, the count
    per-arm doubling gives. Returns the figure."""
    fig, ax = plt.subplots(figsize=(8, 3.8))
    n = np.logspace(0, math.log10(horizon), 400)
    ax.plot(n, 1 + np.ceil(np.log2(n)), color="k", **THEORY_STYLE, label=r"$1 + \lceil\log_2 N\rceil$")
    for i, (name, st) in enumerate(stats.items()):  # hollow and offset by ±0.2: filled, the second hid the first
        ax.plot(
            st["counts"].ravel(),
            st["per_arm"].ravel() + 0.4 * (i - 0.5),
            "o",
            markersize=4,
            markerfacecolor="none",
            color=POLICY_COLORS.get(name),
            label=f"{name}: every arm of every run",
        )
    ax.set_xscale("log")
    ax.set_xlabel(r"pulls of the arm $N_a(T)$")
    ax.set_ylabel("episodes of the arm")
    ax.set_title(
        f"Figure 2 instance, ε = {epsilon:g}, T = {format_horizon(horizon, mathtext=True)}, {runs} runs"
        " (points offset vertically by ±0.2)"
    )
    ax.legend(loc="upper left")
    fig.tight_layout()
    return fig
