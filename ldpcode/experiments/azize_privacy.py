r"""Azize and Basu (2022), Lemma 1 and Theorem 6: the audits, tables and figures of
``chapters/azize2022/lemma1_theorem6_privacy``.

Lemma 1 (the private means of Algorithm 1 are ε-DP): :func:`lemma1_horizon` and :func:`flip` build the
neighbouring reward sequences, :func:`lemma1_audits` samples the release under each
(:func:`ldpcode.audit.lemma1_audit`), :func:`window_length` reads the affected window's length,
:func:`lemma1_table` and :func:`lemma1_figure` show the result. Theorem 6 (Algorithm 1 is ε-global DP):
:func:`theorem6_audits` audits every (policy, ε), one table-model pair and two broken variants
(:func:`ldpcode.audit.action_sequence_audit`) and returns a :class:`Theorem6Audits`;
:func:`audit_table`, :func:`first_decision_table`, :func:`audit_panels_figure` (with :func:`ranked`) and
:func:`loss_figure` show it. The notebook's claims are built in the notebook.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np

from .. import audit
from ..claims import Table
from ..instances import make_instance
from ..plotting import POLICY_COLORS, THEORY_STYLE, log_ratio_panel
from ..policies import make_policy

#: The action-sequence prefix of the event "arm 2 is chosen at :math:`t_1 = 3`" with K = 2 arms.
FIRST_DECISION = "011"


def lemma1_horizon(starts, changed) -> int:
    r"""The length of the reward sequence Lemma 1's audit needs: one step past the last window start
    :math:`t_\ell` (1 with no start), and at least the largest changed step of ``changed``."""
    starts, changed = list(starts), list(changed)
    if not changed:
        raise ValueError("changed must hold at least one step, got an empty list")
    return max(max(starts) + 1 if starts else 1, max(changed))


def flip(rewards, j: int) -> np.ndarray:
    r"""A copy of the 0/1 reward sequence ``rewards`` with the reward of step ``j`` (1-based) replaced by
    :math:`1 - r_j`: the neighbouring sequence :math:`r'` of Definition 2 used for Lemma 1."""
    r = np.asarray(rewards, dtype=float)
    if isinstance(j, bool) or not isinstance(j, (int, np.integer)) or not 1 <= j <= r.size:
        raise ValueError(f"j must be a step in 1..{r.size}, got {j!r}")
    out = r.copy()
    out[j - 1] = 1 - out[j - 1]
    return out


def lemma1_audits(rewards, changed, starts, epsilon, samples: int, rng, *, alpha: float) -> dict:
    """Lemma 1's audit (:func:`ldpcode.audit.lemma1_audit`) of ``rewards`` against :func:`flip` of it at each
    step j of ``changed``, in that order, all drawing from ``rng``; returns j -> :class:`Lemma1Audit`."""
    return {
        j: audit.lemma1_audit(rewards, flip(rewards, j), starts, epsilon, samples, rng, alpha=alpha) for j in changed
    }


def window_length(result, epsilon) -> int:
    r"""The length m of the window whose private mean moves in a Lemma 1 audit ``result``: its Laplace scale is
    :math:`1/(\epsilon m)`, so m = round(1/(ε scale))."""
    return round(1 / (epsilon * result.scale))


def lemma1_table(audits: dict, epsilon) -> Table:
    """The table of Lemma 1's audits (:func:`lemma1_audits`): per changed step j, the window that moves and its
    length m, the exact loss per coordinate, the log-ratios on the two tail half-lines (exact value ±ε there),
    the largest lower confidence bound and the largest one of the other coordinates."""
    rows = []
    for j, res in audits.items():
        b, loss = res.binned, str(np.round(res.exact_loss, 3).tolist())
        tails = [(b.log_ratio[0], b.se[0]), (b.log_ratio[-1], b.se[-1])]
        rows.append(
            [j, res.coordinate + 1, window_length(res, epsilon), loss, *tails, b.max_lower, res.others_max_lower]
        )
    head = ["j", "window", "m", "exact loss per coordinate", "lower tail log-ratio", "upper tail log-ratio"]
    return Table(
        head + ["max lower bound", "others"],
        rows,
        formats=["d", "d", "d", None, ("+.4f", ".4f"), ("+.4f", ".4f"), ".4f", ".3f"],
    )


def lemma1_figure(audits: dict, rewards, starts, epsilon, samples: int, confidence_alpha: float):
    """Lemma 1's figure: per changed step, the binned log-ratio of the moving window with its simultaneous
    intervals, the exact bin log-ratios and the log density ratio (:func:`ldpcode.audit.lemma1_log_density_ratio`)
    against the ±ε band. Returns the figure."""
    fig, axes = plt.subplots(1, len(audits), figsize=(10, 3.4), sharey=True)
    for ax, (j, res) in zip(np.atleast_1d(axes), audits.items()):
        b, e = res.binned, res.binned.edges
        x = np.r_[e[1] - res.scale, (e[1:-2] + e[2:-1]) / 2, e[-2] + res.scale]
        log_ratio_panel(
            ax, x, b.log_ratio, b.lower, b.upper, epsilon=epsilon, exact=res.exact_bin_log_ratio,
            ylim=(-1.6 * epsilon, 1.6 * epsilon), xlabel=f"private mean of window {res.coordinate + 1}",
            title=f"r_{j} flipped: window of m = {window_length(res, epsilon)}",
        )  # fmt: skip
        grid = np.linspace(x[0], x[-1], 400)
        pts = np.zeros((grid.size, res.exact_loss.size))
        pts[:, res.coordinate] = grid
        ratio = audit.lemma1_log_density_ratio(pts, rewards, flip(rewards, j), starts, epsilon)
        ax.plot(grid, ratio, color="0.5", linewidth=1, label="density ratio")
    np.atleast_1d(axes)[0].legend(loc="lower right", fontsize="x-small")
    fig.suptitle(
        f"Lemma 1: log P_r(bin) / P_r'(bin), {samples:,} releases each, ε = {epsilon:g}, "
        f"{100 * (1 - confidence_alpha):g}% simultaneous intervals"
    )
    fig.tight_layout()
    return fig


@dataclass(frozen=True)
class Theorem6Audits:
    """What :func:`theorem6_audits` returns: the parameters it ran with, the output ``space`` of action
    sequences, ``audits`` ((policy, ε) -> :class:`ldpcode.audit.ActionSequenceAudit`, step model), the
    table-model audit ``table`` of AdaP-UCB at ``table_epsilon``, the broken variants ``halved`` (noise
    halved) and ``stale`` (no forgetting), and the ``changed_step`` of r' (1-based)."""

    n_arms: int
    horizon: int
    runs: int
    stale_runs: int
    policies: list
    epsilons: list
    alpha: float
    confidence_alpha: float
    halved_epsilon: float
    stale_epsilon: float
    space: list
    audits: dict
    table_epsilon: float
    table: audit.ActionSequenceAudit
    halved: audit.ActionSequenceAudit
    stale: audit.ActionSequenceAudit
    changed_step: int = 1

    def has_first_decision(self) -> bool:
        """Whether :data:`FIRST_DECISION` has the exact law of :func:`ldpcode.audit.first_decision_log_ratio`:
        K = 2 arms and r' differing from r in the first reward only."""
        return (self.n_arms, self.changed_step) == (2, 1)

    def labelled(self) -> list:
        """Every audit as (policy label, ε, reward model, audit): the step audits, the table model, the two
        broken variants."""
        return [(f"{n}", e, "step", a) for (n, e), a in self.audits.items()] + [
            ("AdaP-UCB", self.table_epsilon, "table", self.table),
            ("BROKEN: noise halved", self.halved_epsilon, "step", self.halved),
            ("BROKEN: no forgetting", self.stale_epsilon, "step", self.stale),
        ]

    def first_decisions(self) -> list:
        """(policy label, ε, audit, exact log-ratio of :data:`FIRST_DECISION`) for every step audit and the
        noise-halved variant, whose exact value is AdaP-UCB's at 2ε
        (:func:`ldpcode.audit.first_decision_log_ratio`). Empty unless :meth:`has_first_decision`: with other K
        or another changed step the prefix :data:`FIRST_DECISION` is not that event and no exact value is known,
        so there is no row rather than a wrong one."""
        if not self.has_first_decision():
            return []
        out = [(n, e, a, audit.first_decision_log_ratio(n, e, self.alpha)) for (n, e), a in self.audits.items()]
        exact = audit.first_decision_log_ratio("AdaP-UCB", 2 * self.halved_epsilon, self.alpha)
        return out + [("BROKEN: noise halved", self.halved_epsilon, self.halved, exact)]


def theorem6_audits(
    means, horizon, runs, seed, *, policies, epsilons, alpha, changed_step, table_entry, confidence_alpha,
    halved_epsilon, stale_epsilon, stale_runs,
) -> Theorem6Audits:  # fmt: skip
    r"""Theorem 6's audits (:func:`ldpcode.audit.action_sequence_audit`, over the sequences of
    :func:`ldpcode.audit.algorithm1_action_sequences`, all with ``seed``): each policy of ``policies`` at each ε
    of ``epsilons`` on :math:`r = (0, \dots, 0)` against :math:`r'` (1 at ``changed_step``); AdaP-UCB at ε = 1
    (or the first ε if 1 is not audited) in the table model, zeros against a 1 at ``table_entry`` (0-based
    [arm, pull]); and the broken AdaP-UCB with its noise halved (claiming ``halved_epsilon``) and without
    forgetting (claiming ``stale_epsilon``, ``stale_runs`` runs). ``alpha`` is the index parameter,
    ``confidence_alpha`` the simultaneous level of the intervals."""
    policies, epsilons = list(policies), list(epsilons)
    if not policies or not epsilons:
        raise ValueError(f"policies and epsilons must be non-empty, got {policies!r} and {epsilons!r}")
    K = len(means)
    inst = make_instance("bernoulli", means=means)
    r0 = np.zeros(horizon)
    r1 = r0.copy()
    r1[changed_step - 1] = 1.0
    space = audit.algorithm1_action_sequences(K, horizon)
    kw = dict(alpha=confidence_alpha, outputs=space)
    audits = {}
    for name in policies:
        for eps in epsilons:
            pol = make_policy(name, epsilon=eps, alpha=alpha)
            audits[(name, eps)] = audit.action_sequence_audit(pol, inst, r0, r1, horizon, runs, seed, **kw)
    tab0 = np.zeros((K, horizon))
    tab1 = tab0.copy()
    tab1[tuple(table_entry)] = 1.0
    table_eps = 1.0 if 1.0 in epsilons else epsilons[0]
    table_pol = make_policy("AdaP-UCB", epsilon=table_eps, alpha=alpha)
    table = audit.action_sequence_audit(table_pol, inst, tab0, tab1, horizon, runs, seed, model="table", **kw)
    halved_pol = audit.broken_policy("AdaP-UCB", halved_epsilon, "noise-halved", alpha)
    halved = audit.action_sequence_audit(halved_pol, inst, r0, r1, horizon, runs, seed, **kw)
    stale_pol = audit.broken_policy("AdaP-UCB", stale_epsilon, "no-forgetting", alpha)
    stale = audit.action_sequence_audit(stale_pol, inst, r0, r1, horizon, stale_runs, seed, **kw)
    return Theorem6Audits(
        K, horizon, runs, stale_runs, policies, epsilons, alpha, confidence_alpha, halved_epsilon, stale_epsilon,
        space, audits, table_eps, table, halved, stale, changed_step,
    )  # fmt: skip


def audit_table(t6: Theorem6Audits) -> Table:
    """The table of Theorem 6's audits: per audit of :meth:`Theorem6Audits.labelled`, the sequences seen, the
    largest lower confidence bound on the loss, the sequence attaining it with its log-ratio and counts under
    r and r', and the verdict (a violation when the bound exceeds the claimed ε)."""
    rows = []
    for name, eps, model, a in t6.labelled():
        i = a.argmax
        seen = int(((a.counts_a > 0) | (a.counts_b > 0)).sum())
        verdict = "VIOLATION" if a.violation else "within ε"
        ratio = (a.log_ratio[i], a.se[i])
        rows.append([name, eps, model, seen, a.max_lower, a.sequences[i], ratio, a.counts_a[i], a.counts_b[i], verdict])
    head = ["policy", "ε", "model", "seen", "lower bound", "at sequence", "its log-ratio", "count under r"]
    return Table(
        head + ["count under r'", "verdict"],
        rows,
        formats=[None, "g", None, "d", ".3f", None, ("+.3f", ".3f"), "d", "d", None],
    )


def event_probability(a, prefix: str) -> float:
    """The fraction of the runs of the audit ``a`` on r whose action sequence starts with ``prefix``."""
    if not isinstance(prefix, str):
        raise TypeError(f"prefix must be a string of arm numbers such as '011', got {prefix!r}")
    return sum(c for q, c in zip(a.sequences, a.counts_a) if q.startswith(prefix)) / a.runs


def first_decision_table(events) -> Table | None:
    """The table of the first decision (the event :data:`FIRST_DECISION`, arm 2 at :math:`t_1 = 3`) for the
    ``events`` of :meth:`Theorem6Audits.first_decisions`: its probability under r, its estimated log-ratio and
    the exact one (where AdaP-KLUCB attains Theorem 6's bound ε). With no events (other K or changed step, see
    :meth:`Theorem6Audits.has_first_decision`) it prints why and returns None."""
    if not events:
        print("no first-decision rows: the event A_1 = arm 2 at t_1 = 3 and its exact law hold for K = 2 arms "
              "with the first reward changed only")  # fmt: skip
        return None
    rows = [[n, e, event_probability(a, FIRST_DECISION), a.event_log_ratio(FIRST_DECISION), x] for n, e, a, x in events]
    return Table(
        ["policy", "ε", "P_r(A_1 = 2)", "log-ratio (audit)", "exact"],
        rows,
        formats=[None, "g", ".4f", (".3f", ".3f"), ".3f"],
    )


def ranked(a) -> np.ndarray:
    """The indexes of the action sequences of the audit ``a``, most frequent first (counts under r and r'
    together; ties keep the order of ``a.sequences``)."""
    return np.argsort(-(a.counts_a + a.counts_b), kind="stable")


def audit_panels_figure(t6: Theorem6Audits):
    """Theorem 6's panels: for each audit, every action sequence (ranked by :func:`ranked`) with its log-ratio
    and simultaneous interval against ±ε, red for a violation, with the count of intervals outside the band.
    Returns the figure."""
    panels = [(f"{n}, ε = {e:g}", t6.audits[(n, e)]) for n in t6.policies for e in t6.epsilons] + [
        (f"AdaP-UCB, ε = {t6.table_epsilon:g}, table model", t6.table),
        (f"BROKEN noise halved, claims ε = {t6.halved_epsilon:g}", t6.halved),
        (f"BROKEN no forgetting, claims ε = {t6.stale_epsilon:g}", t6.stale),
    ]
    ncol = 3
    nrow = math.ceil(len(panels) / ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(10, 2.7 * nrow), squeeze=False)
    for ax, (title, a) in zip(axes.ravel(), panels):
        o, eps = ranked(a), a.epsilon
        style = dict(epsilon=eps, ylim=(-2.6 * eps, 2.6 * eps), color="C3" if a.violation else "C0", title=title)
        bad = log_ratio_panel(ax, np.arange(len(o)), a.log_ratio[o], a.lower[o], a.upper[o], **style)
        ax.set_xlabel("action sequence (rank)" if ax in axes[-1] else "")
        ax.set_ylabel("log π(a|r)/π(a|r')" if ax in axes[:, 0] else "")
        if bad:  # in the title: a note inside the panel sat on the wide intervals of the rare sequences
            ax.set_title(f"{title}\n{bad} interval{'s' if bad > 1 else ''} outside ±ε")
    for ax in axes.ravel()[len(panels) :]:
        ax.axis("off")
    fig.suptitle(
        f"Theorem 6 audit: T = {t6.horizon}, K = {t6.n_arms}, {t6.runs:,} runs per input "
        f"({t6.stale_runs:,} for no forgetting), {100 * (1 - t6.confidence_alpha):g}% simultaneous intervals"
    )
    fig.tight_layout()
    return fig


def loss_figure(t6: Theorem6Audits):
    """Theorem 6's summary: the lower confidence bound on the privacy loss (filled) and the point estimate of the
    same sequence (open) against the ε each policy claims, with the lines loss = ε and 2ε (the noise-halved
    variant's true level); the legend beside the panel. Returns the figure."""
    fig, ax = plt.subplots(figsize=(9.5, 4))
    es = np.array(sorted(set(t6.epsilons) | {t6.halved_epsilon, t6.stale_epsilon}))
    ax.plot([0, es.max() * 1.1], [0, es.max() * 1.1], color="k", **THEORY_STYLE, label="loss = claimed ε")
    ax.plot(es, 2 * es, color="0.5", linestyle=":", label="2ε (noise halved: its true level)")
    e = np.array(t6.epsilons)
    for name, mk in zip(t6.policies, "os"):
        found = [t6.audits[(name, x)] for x in e]
        color = POLICY_COLORS.get(name)
        ax.plot(e, [a.max_lower for a in found], mk, color=color, label=f"{name}: lower bound")
        estimates = [abs(a.log_ratio[a.argmax]) for a in found]
        ax.plot(e, estimates, mk, color=color, markerfacecolor="none", label=f"{name}: its point estimate")
    ax.plot([t6.table_epsilon], [t6.table.max_lower], "D", color="C0", label="AdaP-UCB, table model: lower bound")
    # black, one marker each: in the theme's palette C3 was near AdaP-UCB's orange, and both broken ones shared an X
    for a, lab, mk in ((t6.halved, "noise halved", "X"), (t6.stale, "no forgetting", "P")):
        ax.plot([a.epsilon], [a.max_lower], mk, color="k", markersize=9, label=f"BROKEN {lab}: lower bound")
    ax.set_xlabel("ε the policy claims")
    ax.set_ylabel(r"privacy loss $|\log\pi(a^T|r)/\pi(a^T|r')|$")
    ax.set_title(
        f"T = {t6.horizon}: {100 * (1 - t6.confidence_alpha):g}% lower confidence bound on the loss (filled)\n"
        "and the point estimate of the same action sequence (open)"
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="x-small")  # inside, it lay over the 2ε line
    fig.tight_layout()
    return fig
