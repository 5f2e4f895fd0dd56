"""ldpcode.experiments.azize_upper_bounds, the helpers of the notebook on Theorems 7 and 8 of Azize and Basu (2022):
values by hand on the two-arm instance (0.75, 0.25) and on small hand-made results.

On (0.75, 0.25) at alpha = 3.1: Delta = 0.5, d(0.25, 0.75) = log(3)/2 = 0.5493, the additive term
3 alpha/(alpha - 3) = 93. Theorem 7 at eps >= 0.5 is 16 alpha/0.5 log t + 93 = 99.2 log t + 93; Theorem 8 at C2 = 1 and
eps = 1 is C1 Delta/min(d, Delta) log t + 93 = C1 log t + 93; Theorem 3's constant is Delta/min(d, 6 eps Delta) =
0.5/d at eps >= d/3, the switch point d/(6 Delta) = d/3 = 0.1831.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import matplotlib
import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.experiments import azize_upper_bounds as aub

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MEANS = [0.75, 0.25]
D = math.log(3) / 2  # d(0.25, 0.75)
ALPHA = 3.1


@pytest.fixture(scope="module")
def inst():
    return ldp.make_instance("bernoulli", means=MEANS)


@pytest.fixture(scope="module")
def over_t(inst):
    return aub.over_t(inst, 200, 100, 3, 7, epsilon=1.0, alpha=ALPHA, c1=1.0, c2=1.0)


@pytest.fixture(scope="module")
def over_eps(inst):
    return aub.over_eps(inst, [0.5, 1.0], 2000, 3, 7, alpha=ALPHA)


def _over_t(mean_ucb, mean_klucb, thm7, t, *, se=(0.0, 0.0), regret_ucb=None, lower=None, c1=1.0):
    """An OverT built by hand: Theorem 8 at C1 = ``c1`` is c1 log t + 93 (additive 93, step c1 log t)."""
    t = np.asarray(t, dtype=float)
    mean = {"AdaP-UCB": np.asarray(mean_ucb, float), "AdaP-KLUCB": np.asarray(mean_klucb, float)}
    se = {"AdaP-UCB": np.asarray(se, float), "AdaP-KLUCB": np.asarray(se, float)}
    results = {"AdaP-UCB": SimpleNamespace(regret=np.asarray(regret_ucb if regret_ucb is not None else [mean_ucb]))}
    lower = np.ones_like(t) if lower is None else np.asarray(lower, float)
    step = c1 * np.log(t)
    return aub.OverT(
        1.0, c1, 1.0, 10, results, {}, t, np.ones(t.size, bool), mean, se,
        np.asarray(thm7, float), step + 93, step, np.full(t.size, 93.0), 1.0, lower,
    )  # fmt: skip


def test_decades_by_hand():
    assert (
        aub.decade_checkpoints(10**4).tolist() == [10, 100, 1000, 10**4]
        and aub.decade_checkpoints(10**4).dtype == np.int64
    )
    assert aub.decade_checkpoints(9999).tolist() == [10, 100, 1000]
    assert aub.decade_checkpoints(20).tolist() == [10]
    with pytest.raises(ValueError, match="horizon must be an integer >= 1"):
        aub.decade_checkpoints(0)
    with pytest.raises(TypeError, match="horizon must be an integer"):
        aub.decade_checkpoints(2.5)


def test_checkpoints_add_the_decades_and_the_extra_rounds():
    cp = aub.checkpoints(1000, 37)
    assert {10, 37, 100, 1000} <= set(cp.tolist())
    assert np.all(np.diff(cp) > 0) and cp[-1] == 1000 and cp.dtype.kind == "i"
    plain = aub.checkpoints(1000)
    assert plain.dtype.kind == "i" and set(plain.tolist()) == set(ldp.log_checkpoints(1000).tolist()) | {10, 100}


def test_epsilon_grid_adds_one():
    assert aub.epsilon_grid(0.01, 100, 2).tolist() == [0.01, 1.0, 100.0]
    assert aub.epsilon_grid(0.01, 100, 3).tolist() == [0.01, 1.0, 100.0]  # 1 once
    assert aub.epsilon_grid(0.5, 2, 2).tolist() == [0.5, 1.0, 2.0]
    with pytest.raises(ValueError, match="n_eps must be an integer >= 2"):
        aub.epsilon_grid(0.5, 2, 1)


def test_over_t_bounds_by_hand(over_t):
    a = over_t
    assert a.t[0] == 2 and {10, 100, 200} <= set(a.t.tolist()) and a.t[-1] == 200
    assert a.results["AdaP-UCB"].horizon == 200 and a.references["UCB1"].horizon == 100
    assert set(a.results) == {"AdaP-UCB", "AdaP-KLUCB"} and set(a.references) == {"UCB1", "KL-UCB"}
    log_t = np.log(a.t)
    assert a.thm7 == pytest.approx(99.2 * log_t + 93, rel=1e-12)
    assert a.thm8 == pytest.approx(log_t + 93, rel=1e-12)
    assert a.step8 == pytest.approx(log_t, rel=1e-9) and a.additive8 == pytest.approx(np.full(a.t.size, 93.0))
    assert a.lower_constant == pytest.approx(0.5 / D, rel=1e-12)
    assert a.lower == pytest.approx(0.5 / D * log_t, rel=1e-12)
    reg = a.results["AdaP-KLUCB"].regret[:, a.keep]
    assert a.mean["AdaP-KLUCB"] == pytest.approx(reg.mean(axis=0))
    assert a.se["AdaP-KLUCB"] == pytest.approx(reg.std(axis=0, ddof=1) / math.sqrt(3))


def test_over_t_properties_by_hand():
    a = _over_t([1.0, 5.0], [0.0, 0.0], [10.0, 20.0], [2, 10], se=[0.5, 2.0], lower=[2.0, 4.0],
                regret_ucb=[[1.0, 8.0], [1.0, 2.0]])  # fmt: skip
    assert a.below_thm7 is True
    assert a.worst_run_over_thm7 == pytest.approx(0.4)  # 8 / 20
    j, ratio, se = a.largest_over_thm7()
    assert (j, ratio, se) == (1, pytest.approx(0.25), pytest.approx(0.1))  # 5 / 20, 2 / 20
    assert a.over_lower == {"AdaP-UCB": pytest.approx(1.25), "AdaP-KLUCB": pytest.approx(0.0)}
    assert _over_t([11.0, 5.0], [0, 0], [10.0, 20.0], [2, 10]).below_thm7 is False


def test_c1_needed_by_hand():
    # R(t) - 93 over log t: (100 - 93)/log 2 = 10.10 at t = 2, (200 - 93)/log 10 = 46.47 at t = 10
    a = _over_t([0, 0], [100.0, 200.0], [1, 1], [2, 10], se=[1.0, 3.0])
    c = a.c1_needed()
    assert c.per_t == pytest.approx([7 / math.log(2), 107 / math.log(10)])
    assert (c.index, c.value, c.se) == (1, pytest.approx(107 / math.log(10)), pytest.approx(3 / math.log(10)))
    # neither the needed C1 nor its SE depends on the C1 at which the shape was drawn
    c2 = _over_t([0, 0], [100.0, 200.0], [1, 1], [2, 10], se=[1.0, 3.0], c1=2.0).c1_needed()
    assert (c2.value, c2.se) == (pytest.approx(c.value), pytest.approx(c.se))


def test_decade_table_by_hand():
    t = [2, 10, 50, 100, 1000]
    a = _over_t([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [10, 20, 30, 40, 50], t, lower=[0.1, 0.2, 0.3, 0.4, 0.5])
    table = aub.decade_table(a)
    assert table.head == ["t", "AdaP-UCB", "Thm 7", "ratio", "AdaP-KLUCB", "Thm 3 LB"]
    assert table.body == [[100.0, 4, 40, 0.1, 9, 0.4], [1000.0, 5, 50, 0.1, 10, 0.5]]
    with pytest.raises(TypeError, match="expected a OverT"):
        aub.decade_table({"t": t})


def test_privacy_cost_by_hand():
    # AdaP runs 2 and 4 over references 1 and 3: ratio 3/2; unpaired SE (no covariance term, though the runs are
    # correlated) sqrt(s_X^2/n + R^2 s_Y^2/n)/mean(Y) = sqrt(1 + 2.25)/2
    a = _over_t([0], [0], [1], [10])
    res = SimpleNamespace(at=lambda t: np.array([2.0, 4.0]) if t == 10 else None)
    ref = SimpleNamespace(final_regret=lambda: np.array([1.0, 3.0]))
    a = aub.OverT(**{**a.__dict__, "results": {p: res for p in aub.ADAP}, "references": {"UCB1": ref, "KL-UCB": ref}})
    cost, table = aub.privacy_cost(a)
    want = (pytest.approx(1.5), pytest.approx(math.sqrt(3.25) / 2))
    assert cost == {"AdaP-UCB": want, "AdaP-KLUCB": want}
    assert table.body[0] == ["AdaP-UCB", 3.0, "UCB1", 2.0, want] and table.body[1][2] == "KL-UCB"


def test_over_eps_by_hand(over_eps):
    b = over_eps
    assert b.eps.tolist() == [0.5, 1.0] and b.i1 == 1 and b.horizon == 2000 and b.runs == 3
    assert b.regret["AdaP-UCB"].shape == (3, 2) and b.regret["AdaP-KLUCB"].shape == (3, 2)
    assert b.thm7 == pytest.approx([99.2 * math.log(2000) + 93] * 2, rel=1e-12)  # min(0.5, eps) = 0.5 for both
    assert b.lower == pytest.approx([0.5 / D * math.log(2000)] * 2, rel=1e-12)  # both eps above d/3 = 0.18
    # the noise-free model's regret is the suboptimal arm's predicted pulls times its gap 0.5
    assert b.model["AdaP-UCB"][1] == pytest.approx(256 * 0.5) and b.model["AdaP-KLUCB"][0] == pytest.approx(512 * 0.5)
    with pytest.raises(ValueError, match="eps must hold 1"):
        aub.over_eps(ldp.make_instance("bernoulli", means=MEANS), [0.5, 2.0], 2000, 2, 7, alpha=ALPHA)


def _over_eps(regret_ucb, thm7):
    reg = np.asarray(regret_ucb, float)
    model = {"AdaP-UCB": np.array([3.0, 4.0]), "AdaP-KLUCB": np.array([5.0, 6.0])}
    regret = {"AdaP-UCB": reg, "AdaP-KLUCB": 2 * reg}
    return aub.OverEps(np.array([0.5, 1.0]), 1, 100, 2, regret, model, np.asarray(thm7, float), np.array([7.0, 8.0]))


def test_over_eps_methods_by_hand():
    b = _over_eps([[1.0, 2.0], [3.0, 4.0]], [4.0, 4.0])  # means 2 and 3 over 4
    k, ratio, se = b.largest_over_thm7()
    assert (k, ratio, se) == (1, pytest.approx(0.75), pytest.approx(0.25))  # se of [2, 4] is 1, over 4
    assert b.below_thm7 is True and _over_eps([[1.0, 2.0], [3.0, 4.0]], [4.0, 2.0]).below_thm7 is False
    # x = [2, 4], y = [1, 3]: ratio 3/2, SE sqrt(1 + 1.5^2 * 1) / 2
    r, r_se = b.ratio("AdaP-UCB", 1, 0)
    assert r == pytest.approx(1.5) and r_se == pytest.approx(math.sqrt(3.25) / 2)


def test_epsilon_table_by_hand():
    table = aub.epsilon_table(_over_eps([[1.0, 2.0], [3.0, 4.0]], [5.0, 6.0]))
    assert table.head == ["eps", "AdaP-UCB", "model", "AdaP-KLUCB", "model", "Thm 7", "Thm 3 LB"]
    assert table.body == [[0.5, 2.0, 3.0, 4.0, 5.0, 5.0, 7.0], [1.0, 3.0, 4.0, 6.0, 6.0, 6.0, 8.0]]
    with pytest.raises(TypeError, match="expected a OverEps"):
        aub.epsilon_table([])


def test_flat_from_by_hand():
    thr3, thr7 = aub.flat_from(MEANS)
    assert thr3 == pytest.approx(D / 3, rel=1e-12) and thr7 == 0.5
    assert aub.flat_from([0.75, 0.625, 0.5, 0.375, 0.25]) == (pytest.approx(0.1831, abs=1e-4), 0.5)


def test_out_of_range_alpha():
    policy, lines = aub.out_of_range_alpha(1.0, 3.0, MEANS, 100)
    assert len(lines) == 2 and lines[0].startswith("UserWarning: alpha=3 <= 3: Theorems 7 and 8 need alpha > 3")
    assert lines[1] == "ValueError: alpha must be > 3 (Theorems 7 and 8 need alpha > 3), got 3.0"
    assert policy.name == "AdaP-UCB"
    assert aub.out_of_range_alpha(1.0, 3.5, MEANS, 100)[1] == []  # inside the theorems: nothing to print


def test_figure(over_t, over_eps):
    fig = aub.figure(over_t, over_eps, over_t.c1_needed())
    left, key_a, right, key_b = fig.axes  # each part with its key: under (a), beside (b)
    assert not key_a.axison and len(key_a.get_legend().get_texts()) == len(left.lines)
    assert [t.get_text() for t in key_b.get_legend().get_texts()] == [line.get_label() for line in right.lines]
    labels = [line.get_label() for line in left.lines]
    assert "Theorem 8, C1 = 1, C2 = 1: shape only, constants unknown" in labels and "Theorem 7" in labels
    assert "UCB1 (non-private, T = $10^{2}$)" in labels and "AdaP-UCB (ε = 1)" in labels
    needed = [line for line in left.lines if "(needed)" in line.get_label()][0]
    td = over_t.t >= 20
    assert needed.get_xdata().tolist() == over_t.t[td].tolist()
    assert right.get_xlabel() == "privacy budget ε" and "3 runs" in right.get_title()
    assert len([line for line in right.lines if "noise-free" in line.get_label()]) == 2
    plt.close(fig)
    with pytest.raises(TypeError, match="expected a C1Needed"):
        aub.figure(over_t, over_eps, 12.8)


def test_the_arm_order_table_runs_the_same_laws_both_ways_and_shows_klucbs_early_ties(monkeypatch):
    """AdaP-KLUCB's regret of 1.25 at t = 100 (the visual review) is the arms' order: with the best arm listed first a
    tie of indexes clipped at 1 goes to it; reversed, the same runs pay for their exploration."""
    t = aub.arm_order_effect(ldp.make_instance("bernoulli", means=[0.75, 0.625, 0.5]), 4, 7, epsilon=1.0, alpha=3.1,
                             checkpoints=(1000, 100))  # fmt: skip
    assert t.head == ["policy", "arms", "R(t = 10²)", "R(t = 10³)"]  # checkpoints in order
    rows = {(r[0], r[1]): r[2:] for r in t.body}
    assert set(rows) == {(p, k) for p in aub.ADAP for k in ("as listed", "reversed")}
    assert rows["AdaP-KLUCB", "as listed"][0] < rows["AdaP-KLUCB", "reversed"][0]  # the tie goes to the best arm
    seen = []  # the instances the function simulates: any family, each arm's law kept, the order reversed
    monkeypatch.setattr(aub, "simulate", lambda pol, inst, *a, **k: seen.append(inst) or _FakeResult())
    mixed = ldp.make_instance("ren2020-mixed")
    aub.arm_order_effect(mixed, 2, 1, epsilon=1.0, alpha=3.1, checkpoints=(100,))
    assert [i.arms for i in seen[:2]] == [mixed.arms, tuple(mixed.arms[::-1])]
    with pytest.raises(TypeError, match="^checkpoint must be an integer, got 1.5"):
        aub.arm_order_effect(mixed, 2, 1, epsilon=1.0, alpha=3.1, checkpoints=(1.5,))  # not truncated to 1


class _FakeResult:
    def mean_regret(self):
        return np.zeros(1)
