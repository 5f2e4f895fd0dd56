"""ldpcode.experiments.ren_lower_bound, the helpers of the notebook on Theorem 1 and Lemma 12 of Ren et al. (2020):
values by hand on the two-arm instance (0.9, 0.5) at eps = log 3, where e^eps = 3, 2 sinh(eps) = 8/3 and CTB
answers 1 with probability 3/4 to the reward 1 and 1/4 to the reward 0."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

from ldpcode.experiments import ren_lower_bound as rlb

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MEANS = np.array([0.9, 0.5])  # one suboptimal arm, gap 0.4: sum 1/Delta = 2.5
EPS = math.log(3.0)
THM1 = 2.5 * 9 / 64  # 2.5 / (2 sinh eps)^2 = 2.5 / (8/3)^2
KL = math.log(5 / 3)  # d(0.5, 0.9) = 0.5 log(5/9) + 0.5 log(5)
BASU = 0.4 / (2 * 4 * 4 * KL)  # min{4, e^2eps = 9} = 4, (e^eps - 1)^2 = 4
SMALL = 2.5 / (4 * EPS**2)
CTB = 0.4 / (0.5 * math.log(25 / 21))  # CTB means: 0.5 -> 0.5, 0.9 -> 0.7; d(0.5, 0.7) = 0.5 log(25/21)
LAI = 0.4 / KL


def test_constant_curves_by_hand():
    curves = rlb.constant_curves(MEANS, [EPS, 1.0])
    assert list(curves) == list(rlb.CURVES)
    want = [THM1, BASU, SMALL, 4 * THM1, CTB]
    assert [c[0] for c in curves.values()] == pytest.approx(want, rel=1e-12)
    assert curves["Theorem 1"][1] == pytest.approx(2.5 / (2 * math.sinh(1.0)) ** 2, rel=1e-12)


def test_constant_via_lemma12_by_hand():
    assert rlb.constant_via_lemma12(MEANS, EPS) == pytest.approx(THM1, rel=1e-12)
    # gaps 0.1 and 0.4: sum 1/Delta = 12.5
    assert rlb.constant_via_lemma12([0.9, 0.8, 0.5], EPS) == pytest.approx(12.5 * 9 / 64, rel=1e-12)
    with pytest.raises(ValueError):
        rlb.constant_via_lemma12([0.9, 1.5], EPS)


def test_constants_table_by_hand():
    table = rlb.constants_table(MEANS, [EPS])
    head = ["ε", "Thm 1", "via Lemma 12", "Basu 2019", "Thm 1 / Basu", "small-ε form", "CTB achievable", "CTB / Thm 1"]
    assert table.head == head
    want = [EPS, THM1, THM1, BASU, THM1 / BASU, SMALL, CTB, CTB / THM1]
    assert len(table.body) == 1 and table.body[0] == pytest.approx(want, rel=1e-12)
    assert "0.3516" in repr(table) and "1.10" in repr(table)  # Thm 1 to 4 digits, eps to 2


def test_lai_robbins_crossings_by_hand():
    # 2.5 / (2 sinh eps)^2 = LAI at sinh eps = sqrt(2.5 / LAI) / 2; the tightened form (x 4) at sqrt(2.5 / LAI)
    cross = rlb.lai_robbins_crossings(MEANS, 0.05, 5.0)
    root = math.sqrt(2.5 / LAI)
    assert cross == pytest.approx({"Theorem 1": math.asinh(root / 2), "tightened": math.asinh(root)}, rel=1e-9)
    with pytest.raises(ValueError):
        rlb.lai_robbins_crossings(MEANS, 2.0, 5.0)  # both constants below Lai-Robbins there: no crossing


def test_ctb_grid_ratios_by_hand():
    # p, q in {0, 1}: h_a, h_b are CTB's two laws (3/4, 1/4) and (1/4, 3/4): KL = (1/2) log 3; Lemma 12's bound
    # (8/3)^2 = 64/9, Fact 13's (R - r)^2/(4rR) with R = 3, r = 1/3: 16/9
    kl = 0.5 * math.log(3)
    ratios = rlb.ctb_grid_ratios([EPS], 2)
    assert ratios.shape == (1, 3)
    assert ratios[0] == pytest.approx([kl * 9 / 64, kl * 9 / 16, 0.25], rel=1e-12)
    # eps -> 0: KL ~ eps^2/2 against 4 eps^2, the 1/8 of the notebook; the finer grid does not change the maxima
    small = rlb.ctb_grid_ratios([1e-3], 11)[0]
    assert small == pytest.approx([1 / 8, 1 / 2, 1 / 4], rel=1e-5)


def test_ctb_grid_ratios_refuses_a_bad_grid():
    with pytest.raises(ValueError, match="grid_pq"):
        rlb.ctb_grid_ratios([EPS], 1)
    with pytest.raises(TypeError, match="grid_pq"):
        rlb.ctb_grid_ratios([EPS], 2.5)


def test_random_pair_ratios_draws_in_order():
    rand = rlb.random_pair_ratios(50, (0.01, 5.0), 10, 7)
    assert list(rand) == ["interior", "extreme"] and all(r.shape == (50, 3) for r in rand.values())
    # the first draw of the generator is the first pair's log eps
    first = math.exp(np.random.default_rng(7).uniform(math.log(0.01), math.log(5.0)))
    assert rand["interior"][0, 0] == pytest.approx(first, rel=1e-15)
    for r in rand.values():
        assert ((r[:, 0] >= 0.01) & (r[:, 0] <= 5.0)).all()
        assert (r[:, 1] <= 1).all()  # Lemma 12
        assert (r[:, 2] >= 4 * r[:, 1] * (1 - 1e-12)).all()  # Fact 13's bound is at most Lemma 12's / 4
    again = rlb.random_pair_ratios(50, (0.01, 5.0), 10, 7)
    assert all(np.array_equal(rand[m], again[m]) for m in rlb.MODES)
    assert not np.array_equal(rand["interior"], rlb.random_pair_ratios(50, (0.01, 5.0), 10, 8)["interior"])


def test_random_pair_ratios_extreme_pairs_on_two_points_are_randomized_response():
    # k_max = 2 and one eps: the extreme pairs are CTB's laws up to a swap, so every KL / Lemma 12 bound is at
    # most the CTB maximum over p != q, and the extreme pairs reach above 0.9 of it
    rand = rlb.random_pair_ratios(400, (EPS, EPS), 2, 3)
    ctb_max = rlb.ctb_grid_ratios([EPS], 201)[0, 0]
    assert rand["extreme"][:, 0] == pytest.approx(EPS, rel=1e-15)
    assert rand["extreme"][:, 1].max() <= ctb_max * (1 + 1e-9)
    assert rand["extreme"][:, 1].max() >= 0.9 * ctb_max


def test_random_pair_ratios_refuses_bad_input():
    with pytest.raises(ValueError, match="n_pairs"):
        rlb.random_pair_ratios(0, (0.01, 5.0), 10, 7)
    with pytest.raises(ValueError, match="k_max"):
        rlb.random_pair_ratios(5, (0.01, 5.0), 1, 7)
    with pytest.raises(ValueError, match="eps_range"):
        rlb.random_pair_ratios(5, (5.0, 0.01), 10, 7)


def test_lemma12_summary_by_hand():
    ctb = [[0.1, 0.4, 0.25], [0.125, 0.5, 0.2]]
    rand = {"interior": np.tile([1.0, 0.1, 0.41], (1000, 1)), "extreme": [[2.0, 0.12504, 0.5], [1.0, 0.0, 0.0]]}
    assert rlb.lemma12_summary(ctb, rand) == (
        "CTB pair on the grid: max KL / Lemma 12 = 0.1250, max KL / Fact 13 = 0.5000, max Fact 13 / Lemma 12 = 0.2500\n"
        "1,000 random interior pairs: max KL / Lemma 12 = 0.1000, max KL / Fact 13 = 0.4100\n"
        "2 random extreme pairs: max KL / Lemma 12 = 0.1250, max KL / Fact 13 = 0.5000"
    )
    with pytest.raises(ValueError, match="3 columns"):
        rlb.lemma12_summary([[0.1, 0.2]], rand)


def test_constants_figure_draws_the_curves_and_ratios():
    eps = np.array([0.5, EPS, 2.0])
    curves = rlb.constant_curves(MEANS, eps)
    fig = rlb.constants_figure(eps, curves, LAI, n_arms=2)
    ax1, ax2 = fig.axes[:2]
    assert [ln.get_label() for ln in ax1.lines] == [*rlb.CURVES, "non-private Lai-Robbins"]
    assert ax1.lines[-1].get_ydata()[0] == pytest.approx(LAI)
    assert ax1.get_title() == "constants on the paper's 2-arm instance" and ax1.get_xscale() == "log"
    assert ax2.lines[0].get_ydata()[1] == pytest.approx(THM1 / BASU, rel=1e-12)
    assert ax2.lines[1].get_ydata()[1] == pytest.approx(CTB / THM1, rel=1e-12)
    plt.close(fig)
    with pytest.raises(ValueError, match="constant_curves"):
        rlb.constants_figure(eps, {"Theorem 1": curves["Theorem 1"]}, LAI, n_arms=2)


def test_lemma12_figure_draws_the_ratios_and_the_pairs():
    ctb = np.array([[0.1, 0.4, 0.25], [0.125, 0.5, 0.25]])
    rand = {"interior": np.array([[0.5, 0.05, 0.3]]), "extreme": np.array([[1.0, 0.1, 0.45], [2.0, 0.08, 0.4]])}
    fig = rlb.lemma12_figure([0.5, 1.0], ctb, rand, grid_pq=11, k_max=4)
    ax1, ax2 = fig.axes[:2]
    assert [ln.get_ydata().tolist() for ln in ax1.lines] == [[0.1, 0.125], [0.4, 0.5], [0.25, 0.25]]
    assert ax1.get_ylim() == (0, 0.8) and ax1.get_title() == "extremal pair (CTB), 11×11 grid of (p, q)"
    assert [c.get_offsets().tolist() for c in ax2.collections] == [[[0.5, 0.05]], [[1.0, 0.1], [2.0, 0.08]]]
    assert ax2.get_title() == "1 random ε-DP pairs per mode, k ≤ 4"
    plt.close(fig)
    with pytest.raises(ValueError, match="rand must map"):
        rlb.lemma12_figure([0.5, 1.0], ctb, {"interior": rand["interior"]}, grid_pq=11, k_max=4)
    with pytest.raises(ValueError, match="3 columns"):
        rlb.lemma12_figure([0.5, 1.0], ctb[:, :2], rand, grid_pq=11, k_max=4)
