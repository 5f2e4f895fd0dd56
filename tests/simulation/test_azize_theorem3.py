"""ldpcode.experiments.azize_theorem3, the helpers of the notebook on Theorem 3 of Azize and Basu (2022): values by
hand on the two-arm instance (0.5, 0.25) and on Gaussians whose KL and TV have closed forms."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.experiments import azize_theorem3 as t3

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MEANS = np.array([0.5, 0.25])  # one suboptimal arm, gap 0.25
D = 0.25 * math.log(0.25 / 0.5) + 0.75 * math.log(0.75 / 0.5)  # d(0.25, 0.5) = 0.130812
SWITCH = D / (6 * 0.25)  # eps_a = d_inf / (6 t_inf), t_inf = Delta: 0.087208
EPS = np.array([0.01, 1.0])  # one eps below the switch point, one above


def _phi(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def _terms(eps=1.0, means=MEANS):
    return ldp.bounds.gdp_lower_bound_terms(means, eps)


def test_arm_table_by_hand():
    table = t3.arm_table(MEANS, _terms())
    assert table.head == ["μ_a", "Δ", "d_inf", "t_inf", "2Δ²", "d/(2Δ²)", "ε_a", "regime", "term"]
    want = [0.25, 0.25, D, 0.25, 0.125, D / 0.125, SWITCH, "KL", 0.25 / D]
    row = table.body[0]
    assert len(table.body) == 1 and row[7] == want[7]
    assert [row[i] for i in (0, 1, 2, 3, 4, 5, 6, 8)] == pytest.approx([want[i] for i in (0, 1, 2, 3, 4, 5, 6, 8)])
    assert t3.arm_table(MEANS, _terms(0.01)).body[0][7] == "private"  # 0.01 < eps_a
    assert "0.0872" in repr(table) and "1.911" in repr(table)


def test_arm_table_refuses_terms_of_another_kind():
    with pytest.raises(TypeError, match="gdp_lower_bound_terms"):
        t3.arm_table(MEANS, {"gaps": [0.25]})


def test_constant_curve_by_hand():
    # eps = 0.01: 6 eps Delta = 0.015 < d, term 0.25 / 0.015; eps = 1: the Lai-Robbins term 0.25 / d
    assert t3.constant_curve(MEANS, EPS) == pytest.approx([0.25 / 0.015, 0.25 / D], rel=1e-12)
    # Gaussian, sigma = 0.5, known variance: d_inf = Delta^2 / (2 sigma^2) = 0.125 < 6 t_inf at eps = 1
    gauss = t3.constant_curve(MEANS, [1.0], family="gaussian", sigma=0.5)
    assert gauss == pytest.approx([0.25 / 0.125], rel=1e-12)


def test_asymptotes_by_hand():
    lai, priv = t3.asymptotes(_terms())
    assert lai == pytest.approx(0.25 / D, rel=1e-12)
    assert priv == pytest.approx(1 / 6, rel=1e-12)  # Delta / (6 t_inf) with t_inf = Delta
    with pytest.raises(TypeError):
        t3.asymptotes(None)


def test_asymptote_errors_by_hand():
    const = t3.constant_curve(MEANS, EPS)
    lo, hi = t3.asymptote_errors(const, EPS, _terms())
    assert lo < 1e-12 and hi < 1e-12  # on the asymptotes exactly, up to round-off
    lo, hi = t3.asymptote_errors(const * np.array([1.1, 0.8]), EPS, _terms())
    assert lo == pytest.approx(0.1, rel=1e-9) and hi == pytest.approx(0.2, rel=1e-9)


def test_asymptote_errors_refuses_a_grid_on_one_side_or_of_another_length():
    with pytest.raises(ValueError, match="below the smallest switch point"):
        t3.asymptote_errors([1.0, 2.0], [0.5, 1.0], _terms())
    with pytest.raises(ValueError, match="same length"):
        t3.asymptote_errors([1.0, 2.0, 3.0], EPS, _terms())


def test_format_small():
    assert t3.format_small(1e-13) == "< 10⁻¹²"
    assert t3.format_small(3e-7) == "3.0·10⁻⁷"
    assert t3.format_small(1e-12) == "1.0·10⁻¹²"  # the floor itself is shown
    assert t3.format_small(1e-5, floor=1e-3) == "< 0.001"


def test_lai_robbins_switch_is_the_largest_switch_point():
    assert t3.lai_robbins_switch(MEANS) == pytest.approx(SWITCH, rel=1e-9)
    fig3 = [0.8, 0.1, 0.1, 0.1, 0.1]
    d = 0.1 * math.log(0.1 / 0.8) + 0.9 * math.log(0.9 / 0.2)
    assert t3.lai_robbins_switch(fig3) == pytest.approx(d / (6 * 0.7), rel=1e-9)  # 0.2728


def test_constant_panel_draws_the_curve_the_asymptotes_and_the_switch_points():
    fig, ax = plt.subplots()
    const = t3.constant_curve(MEANS, EPS)
    t3.constant_panel(ax, EPS, const, _terms(), title="two arms", paper_switch=0.3)
    labels = [h.get_label() for h in ax.get_legend().legend_handles]
    assert labels[0] == "Theorem 3, Bernoulli" and labels[1] == f"Lai-Robbins Σ Δ/d_inf = {0.25 / D:.3g}"
    assert labels[2] == "Σ Δ/(6ε t_inf) = 0.167/ε" and labels[3] == "paper's 'near 0.3' (Section 5)"
    assert [line.get_xdata()[0] for line in ax.lines if line.get_linestyle() == ":"] == pytest.approx([SWITCH])
    assert ax.get_ylim() == pytest.approx((0.25 / D / 2, 0.25 / 0.015 * 1.5))
    assert ax.get_title() == "two arms\n(dotted: switch points ε_a)"
    plt.close(fig)


def test_consequence2_by_hand():
    c = t3.consequence2(MEANS, _terms(), t3.constant_curve(MEANS, EPS), EPS)
    assert c.t_inf_is_gap is True
    assert c.pinsker == pytest.approx(D / (2 * 0.25**2), rel=1e-12)  # 1.0465 >= 1
    assert c.chi2 == pytest.approx(D * 0.25 / 0.25**2, rel=1e-12)  # d mu*(1-mu*)/Delta^2 = 0.5232 <= 1
    # sum 1/min(Delta, eps): 100 at eps = 0.01, 4 at eps = 1
    assert c.ratio_min == pytest.approx(0.25 / 0.015 / 100, rel=1e-12)
    assert c.ratio_max == pytest.approx(0.25 / D / 4, rel=1e-12)
    assert c.lower_const == pytest.approx(1 / 6)  # 1/max(1/(0.5 x 0.5), 6)
    high = t3.consequence2([0.9, 0.5], _terms(means=[0.9, 0.5]), [1.0], [1.0])
    assert high.lower_const == pytest.approx(0.9 * 0.1, rel=1e-12)  # 1/(mu*(1-mu*)) = 11.1 > 6


def test_shariff_sheffet_ratio_by_hand():
    const = t3.constant_curve(MEANS, EPS)
    # max(sum 1/Delta, K/eps) with K = 2: 200 at eps = 0.01, 4 at eps = 1
    assert t3.shariff_sheffet_ratio(const, _terms(), EPS, 2) == pytest.approx([0.25 / 0.015 / 200, 0.25 / D / 4])
    with pytest.raises(ValueError, match="n_arms"):
        t3.shariff_sheffet_ratio(const, _terms(), EPS, 1)


def test_families_and_the_matched_standard_deviation():
    fam = t3.families(0.5)
    assert list(fam) == ["Bernoulli", "Gaussian σ = 0.5, known", "Gaussian σ = 0.5, unknown"]
    assert fam["Gaussian σ = 0.5, unknown"] == dict(family="gaussian", sigma=0.5, variance="unknown")
    matched = t3.families(0.5, [0.5, 0.9])["Gaussian matched sd, known"]["sigma"]
    assert matched == pytest.approx([0.5, 0.3], rel=1e-12)


def test_switch_table_by_hand():
    table = t3.switch_table(MEANS, 1.0, 0.5)
    assert table.head == ["family", "ε_1", "constant of (4)"]
    rows = {row[0]: row[1:] for row in table.body}
    assert rows["Bernoulli"] == pytest.approx([SWITCH, 0.25 / D])
    t_known = 2 * _phi(0.25) - 1  # 2 Phi(Delta / (2 sigma)) - 1
    assert rows["Gaussian σ = 0.5, known"] == pytest.approx([0.125 / (6 * t_known), 0.25 / 0.125])
    assert len(rows) == 4


def test_switch_curves_by_hand():
    curves = t3.switch_curves(0.5, np.array([0.25]), 1.0, 0.5)
    assert list(curves)[-1] == "Gaussian matched sd, known"
    assert curves["Bernoulli"] == pytest.approx([SWITCH])
    s = math.sqrt(0.25 * 0.75)  # the arm of mean 0.25, matched: d_inf = Delta^2/(2 s^2), t_inf = 2 Phi(Delta/(2s)) - 1
    assert curves["Gaussian matched sd, known"] == pytest.approx(
        [0.0625 / (2 * s**2) / (6 * (2 * _phi(0.25 / (2 * s)) - 1))]
    )


def test_switch_panel_draws_one_line_per_family_and_the_slope():
    fig, ax = plt.subplots()
    gaps = np.array([0.1, 0.25])
    t3.switch_panel(ax, gaps, t3.switch_curves(0.5, gaps, 1.0, 0.5), 0.5)
    assert len(ax.lines) == 5 and ax.lines[-1].get_ydata() == pytest.approx(gaps / 3)  # Delta / (12 x 0.25)
    assert ax.get_title() == "high-privacy regime for ε < ε_a"
    plt.close(fig)
