"""ldpcode.experiments.azize_privacy, the helpers of the notebook on Lemma 1 and Theorem 6 of Azize and Basu (2022):
values by hand on small reward sequences and on hand-made action-sequence audits."""

from __future__ import annotations

import math
from types import SimpleNamespace

import matplotlib
import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import audit
from ldpcode.experiments import azize_privacy as ap

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

REWARDS = np.array([1.0, 0.0, 1.0, 0.0])  # windows [1], [2], [3, 4] with starts [2, 3]
STARTS = [2, 3]


def _seq_audit(sequences, counts_a, counts_b, *, epsilon=1.0, runs=None, max_lower=0.5, argmax=0, lower=None):
    """A hand-made ActionSequenceAudit (only the fields the helpers read are meaningful)."""
    ca, cb = np.array(counts_a), np.array(counts_b)
    n = len(sequences)
    with np.errstate(divide="ignore", invalid="ignore"):
        lr = np.log(ca / cb)
    lo = np.full(n, -0.1) if lower is None else np.array(lower, dtype=float)
    return audit.ActionSequenceAudit(
        list(sequences), ca, cb, runs or int(ca.sum()), epsilon, lr, np.full(n, 0.1), lo, lo + 0.4, 0.05,
        max_lower, argmax,
    )  # fmt: skip


def _t6(**kw):
    """A hand-made Theorem6Audits: AdaP-UCB at eps = 1 (and 2 with two_eps), one violating stale variant."""
    good = _seq_audit(["0110", "0101", "0011"], [5, 0, 3], [1, 0, 2], max_lower=0.7)
    bad = _seq_audit(["0110", "0101"], [9, 1], [1, 1], epsilon=2.0, max_lower=2.1, lower=[2.1, -0.2])
    fields = dict(
        n_arms=2, horizon=4, runs=8, stale_runs=10, policies=["AdaP-UCB"], epsilons=[1.0], alpha=3.1,
        confidence_alpha=0.05, halved_epsilon=1.0, stale_epsilon=2.0, space=["0110", "0101", "0011"],
        audits={("AdaP-UCB", 1.0): good}, table_epsilon=1.0, table=good, halved=good, stale=bad,
    )  # fmt: skip
    fields.update(kw)
    return ap.Theorem6Audits(**fields)


# ---------------------------------------------------------------- Lemma 1


def test_lemma1_horizon_by_hand():
    assert ap.lemma1_horizon([2, 3, 4, 6, 7, 11], [1, 5, 8]) == 12  # one past the last start
    assert ap.lemma1_horizon([2], [5]) == 5  # the changed step is further
    assert ap.lemma1_horizon([], [1]) == 1
    with pytest.raises(ValueError, match="changed must hold at least one step"):
        ap.lemma1_horizon([2], [])


def test_flip_by_hand():
    out = ap.flip(REWARDS, 2)
    assert out.tolist() == [1.0, 1.0, 1.0, 0.0] and REWARDS.tolist() == [1.0, 0.0, 1.0, 0.0]
    assert ap.flip(REWARDS, 1).tolist() == [0.0, 0.0, 1.0, 0.0]
    for bad in (0, 5, True, 1.0):
        with pytest.raises(ValueError, match=r"j must be a step in 1\.\.4"):
            ap.flip(REWARDS, bad)


def test_window_length_by_hand():
    assert ap.window_length(SimpleNamespace(scale=0.25), 2.0) == 2  # scale 1/(eps m) = 1/(2 x 2)
    assert ap.window_length(SimpleNamespace(scale=1.0), 1.0) == 1


def test_lemma1_audits_and_table_by_hand():
    audits = ap.lemma1_audits(REWARDS, [1, 3], STARTS, 1.0, 2000, np.random.default_rng(5), alpha=0.05)
    assert list(audits) == [1, 3]
    assert [audits[j].coordinate for j in (1, 3)] == [0, 2]  # r_3 lies in the third window [3, 4]
    # the loss eps m |mean - mean'|: window [1] moves by 1 (m = 1), window [3, 4] by 1/2 (m = 2): eps both times
    assert audits[1].exact_loss.tolist() == [1.0, 0.0, 0.0] and audits[3].exact_loss.tolist() == [0.0, 0.0, 1.0]
    assert [ap.window_length(audits[j], 1.0) for j in (1, 3)] == [1, 2]
    # the same draws as the direct calls, in the order of the changed steps
    rng = np.random.default_rng(5)
    first = audit.lemma1_audit(REWARDS, [0.0, 0.0, 1.0, 0.0], STARTS, 1.0, 2000, rng, alpha=0.05)
    second = audit.lemma1_audit(REWARDS, [1.0, 0.0, 0.0, 0.0], STARTS, 1.0, 2000, rng, alpha=0.05)
    assert audits[1].binned.counts_a.tolist() == first.binned.counts_a.tolist()
    assert audits[3].binned.counts_b.tolist() == second.binned.counts_b.tolist()
    table = ap.lemma1_table(audits, 1.0)
    assert table.head[:4] == ["j", "window", "m", "exact loss per coordinate"] and len(table.head) == 8
    assert [row[:4] for row in table.body] == [[1, 1, 1, "[1.0, 0.0, 0.0]"], [3, 3, 2, "[0.0, 0.0, 1.0]"]]
    b = audits[3].binned
    assert table.body[1][4:7] == [(b.log_ratio[0], b.se[0]), (b.log_ratio[-1], b.se[-1]), b.max_lower]


def test_lemma1_figure_by_hand():
    audits = ap.lemma1_audits(REWARDS, [1, 3], STARTS, 1.0, 1000, np.random.default_rng(1), alpha=0.05)
    fig = ap.lemma1_figure(audits, REWARDS, STARTS, 1.0, 1000, 0.05)
    axes = fig.get_axes()
    assert [ax.get_title() for ax in axes] == ["r_1 flipped: window of m = 1", "r_3 flipped: window of m = 2"]
    assert (
        fig._suptitle.get_text()
        == "Lemma 1: log P_r(bin) / P_r'(bin), 1,000 releases each, ε = 1, 95% simultaneous intervals"
    )
    # the density ratio of window 1: eps (|x - 0| - |x - 1|), i.e. -1 below 0 and +1 above 1
    line = [ln for ln in axes[0].get_lines() if ln.get_label() == "density ratio"][0]
    x, y = line.get_data()
    assert y[x < 0] == pytest.approx(-1.0) and y[x > 1] == pytest.approx(1.0)
    plt.close(fig)


# ---------------------------------------------------------------- Theorem 6


def test_theorem6_audits_by_hand():
    t6 = ap.theorem6_audits(
        [0.75, 0.5], 12, 300, 7, policies=["AdaP-UCB", "AdaP-KLUCB"], epsilons=[0.5, 2.0], alpha=3.1,
        changed_step=1, table_entry=[1, 1], confidence_alpha=0.05, halved_epsilon=1.0, stale_epsilon=2.0,
        stale_runs=400,
    )  # fmt: skip
    assert t6.n_arms == 2 and len(t6.space) == 30  # the 30 action sequences of Algorithm 1 at T = 12, K = 2
    assert list(t6.audits) == [("AdaP-UCB", 0.5), ("AdaP-UCB", 2.0), ("AdaP-KLUCB", 0.5), ("AdaP-KLUCB", 2.0)]
    assert t6.table_epsilon == 0.5  # 1 is not audited: the first eps
    assert (t6.table.runs, t6.halved.runs, t6.stale.runs) == (300, 300, 400)
    assert (t6.halved.epsilon, t6.stale.epsilon) == (1.0, 2.0)
    assert all(a.counts_a.sum() == a.runs for a in t6.audits.values())
    # each audit is the direct call with the same seed
    r1 = np.zeros(12)
    r1[0] = 1.0
    pol = ldp.make_policy("AdaP-KLUCB", epsilon=2.0, alpha=3.1)
    inst = ldp.make_instance("bernoulli", means=[0.75, 0.5])
    direct = audit.action_sequence_audit(pol, inst, np.zeros(12), r1, 12, 300, 7, outputs=t6.space)
    assert t6.audits[("AdaP-KLUCB", 2.0)].counts_b.tolist() == direct.counts_b.tolist()
    labels = [(n, e, m) for n, e, m, _ in t6.labelled()]
    assert labels[4:] == [
        ("AdaP-UCB", 0.5, "table"), ("BROKEN: noise halved", 1.0, "step"), ("BROKEN: no forgetting", 2.0, "step")
    ]  # fmt: skip
    with pytest.raises(ValueError, match="policies and epsilons must be non-empty"):
        ap.theorem6_audits(
            [0.75, 0.5], 12, 300, 7, policies=[], epsilons=[1.0], alpha=3.1, changed_step=1, table_entry=[1, 1],
            confidence_alpha=0.05, halved_epsilon=1.0, stale_epsilon=2.0, stale_runs=400,
        )  # fmt: skip


def test_first_decisions_by_hand():
    t6 = _t6(policies=["AdaP-UCB", "AdaP-KLUCB"], audits={("AdaP-UCB", 1.0): 1, ("AdaP-KLUCB", 0.5): 2})
    got = t6.first_decisions()
    assert [(n, e, a) for n, e, a, _ in got] == [
        ("AdaP-UCB", 1.0, 1), ("AdaP-KLUCB", 0.5, 2), ("BROKEN: noise halved", 1.0, t6.halved)
    ]  # fmt: skip
    # eps - log(1 + eps/2) for AdaP-UCB, exactly eps for AdaP-KLUCB, AdaP-UCB's at 2 eps for the halved noise
    assert [x for *_, x in got] == pytest.approx([1 - math.log(1.5), 0.5, 2 - math.log(2)])
    # the exact law is for K = 2 and the first reward changed: elsewhere no row, rather than a wrong exact value
    assert t6.has_first_decision()
    for other in (_t6(n_arms=3), _t6(changed_step=2)):
        assert not other.has_first_decision() and other.first_decisions() == []


def test_theorem6_audits_keep_the_changed_step():
    kw = dict(policies=["AdaP-UCB"], epsilons=[1.0], alpha=3.1, table_entry=[1, 1], confidence_alpha=0.05,
              halved_epsilon=1.0, stale_epsilon=2.0, stale_runs=50)  # fmt: skip
    assert ap.theorem6_audits([0.75, 0.5], 12, 50, 7, changed_step=3, **kw).first_decisions() == []
    three = ap.theorem6_audits([0.75, 0.5, 0.25], 12, 50, 7, changed_step=1, **kw)
    assert (three.n_arms, three.changed_step) == (3, 1) and three.first_decisions() == []


def test_audit_table_by_hand():
    table = ap.audit_table(_t6())
    assert len(table.head) == 10 and table.head[-1] == "verdict"
    first, last = table.body[0], table.body[-1]
    assert first[:6] == ["AdaP-UCB", 1.0, "step", 2, 0.7, "0110"]  # "0101" was never seen
    assert first[7:] == [5, 1, "within ε"] and first[6] == (math.log(5), 0.1)
    assert last[:5] == ["BROKEN: no forgetting", 2.0, "step", 2, 2.1] and last[-1] == "VIOLATION"
    assert [row[2] for row in table.body] == ["step", "table", "step", "step"]


def test_event_probability_by_hand():
    a = _seq_audit(["011000", "011100", "010000"], [3, 2, 5], [1, 1, 1], runs=10)
    assert ap.event_probability(a, "011") == 0.5
    assert ap.event_probability(a, "0") == 1.0 and ap.event_probability(a, "1") == 0.0
    with pytest.raises(TypeError, match="prefix must be a string"):
        ap.event_probability(a, 11)


def test_first_decision_table_by_hand():
    a = _seq_audit(["0110", "0111", "0100"], [2, 2, 4], [1, 1, 6], runs=8)
    table = ap.first_decision_table([("AdaP-UCB", 1.0, a, 0.6)])
    # P_r = 4/8; log(4/2) with the delta-method se sqrt(1/4 - 1/8 + 1/2 - 1/8)
    assert table.body == [["AdaP-UCB", 1.0, 0.5, (math.log(2), math.sqrt(0.5)), 0.6]]


def test_first_decision_table_without_events_says_why(capsys):
    assert ap.first_decision_table([]) is None
    assert capsys.readouterr().out == (
        "no first-decision rows: the event A_1 = arm 2 at t_1 = 3 and its exact law hold for K = 2 arms with the "
        "first reward changed only\n"
    )


def test_ranked_by_hand():
    a = _seq_audit(["a", "b", "c", "d"], [1, 3, 0, 2], [1, 0, 0, 2])  # totals 2, 3, 0, 4
    assert ap.ranked(a).tolist() == [3, 1, 0, 2]
    tie = _seq_audit(["a", "b", "c"], [1, 2, 1], [1, 0, 0])  # totals 2, 2, 1: the tie keeps its order
    assert ap.ranked(tie).tolist() == [0, 1, 2]


def test_audit_panels_figure_by_hand():
    fig = ap.audit_panels_figure(_t6())
    axes = fig.get_axes()
    assert len(axes) == 6 and [ax.axison for ax in axes] == [True] * 4 + [False] * 2  # 4 panels on a 2 x 3 grid
    assert [ax.get_title() for ax in axes[:4]] == [
        "AdaP-UCB, ε = 1", "AdaP-UCB, ε = 1, table model", "BROKEN noise halved, claims ε = 1",
        "BROKEN no forgetting, claims ε = 2\n1 interval outside ±ε",  # lower 2.1 > eps 2
    ]  # fmt: skip
    assert not any(ax.texts for ax in axes)  # the count is in the title, off the intervals
    assert fig._suptitle.get_text().startswith("Theorem 6 audit: T = 4, K = 2, 8 runs per input (10 for no forgetting)")
    plt.close(fig)


def test_loss_figure_by_hand():
    fig = ap.loss_figure(_t6())
    ax = fig.get_axes()[0]
    lines = {ln.get_label(): ln.get_ydata() for ln in ax.get_lines()}
    assert list(lines["2ε (noise halved: its true level)"]) == [2.0, 4.0]  # eps 1 and 2
    assert list(lines["AdaP-UCB: lower bound"]) == [0.7]
    assert list(lines["AdaP-UCB: its point estimate"]) == pytest.approx([math.log(5)])
    assert list(lines["BROKEN no forgetting: lower bound"]) == [2.1]
    assert ax.get_title().startswith("T = 4: 95% lower confidence bound")
    plt.close(fig)
