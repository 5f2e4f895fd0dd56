"""ldpcode.experiments.ren_lemma7, the helpers of the notebook on Lemma 7 of Ren et al. (2020a): values by hand on
the two-point grid {0, 1} of mu, lambda and on the three-atom support {-1.01, 0, 1.01} of the linear program, where
the only law of mean 0 and variance 1 is symmetric with mass 1/(2 x 1.01^2) on each of -1.01 and 1.01."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest
from scipy import integrate

import ldpcode as ldp
from ldpcode.experiments import ren_lemma7 as l7

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _s(x):
    return 1 / (1 + math.exp(-x))


def _ds(x):
    return math.exp(-x) / (1 + math.exp(-x)) ** 2


P = 1 / (2 * 1.01**2)  # the mass on each of -1.01 and 1.01 of the only variance-one law on {-1.01, 0, 1.01}


def _lp_by_hand(t):
    return P * (_ds(t - 1.01) + _ds(t + 1.01)) + (1 - 2 * P) * _ds(t)


def _constants(**kw):
    base = dict(a_star=0.1, sup_value=0.07, gauss_integral=0.2, c_sub=0.05, c_gauss=0.1, cheb_c=1.5, cheb_value=0.04)
    base.update(kw)
    return l7.Constants(**base, a_grid=np.array([0.1]), objective=np.array([0.07]))


def _gaps(t_points=2, grid_points=2):
    return l7.gap_ratios(grid_points, t_points, 1.01, 1.0)


def test_constants_objective_grid_and_constants_by_hand():
    k = l7.constants(2)
    # a in {1/12, 1/6}; e^{-v}/(1+e^{-v})^2 = 1/(4 cosh^2(v/2)) = a gives v_a = 2 acosh(1/(2 sqrt(a)))
    assert k.a_grid.tolist() == pytest.approx([1 / 12, 1 / 6], rel=1e-15)
    for a, obj in zip(k.a_grid, k.objective):
        v = 2 * math.acosh(1 / (2 * math.sqrt(a)))
        assert obj == pytest.approx(a * (1 - 2 * math.exp(-v * v / 2)), rel=1e-12)
    assert abs(k.a_star - 0.1058) < 1e-4 and 0.0765 <= k.sup_value < 0.0766
    assert k.sup_value > max(k.objective)  # the supremum is above the objective at 1/12 and 1/6
    gauss = integrate.quad(lambda z: _ds(z) * math.exp(-z * z / 2) / math.sqrt(2 * math.pi), -30, 30)[0]
    assert k.gauss_integral == pytest.approx(gauss, rel=1e-9) and round(k.gauss_integral, 4) == 0.2066
    assert k.c_sub == k.sup_value / math.e and k.c_gauss == k.gauss_integral / math.e
    c = k.cheb_c  # the Chebyshev constant is (1 - 1/c^2) s'(1 + c) at its argmax c, 0.0392 by the remark
    assert k.cheb_value == pytest.approx((1 - 1 / c**2) * _ds(1 + c), rel=1e-12) and round(k.cheb_value, 4) == 0.0392


def test_constants_refuses_bad_grid_sizes():
    with pytest.raises(ValueError, match="a_points must be an integer >= 1"):
        l7.constants(0)
    with pytest.raises(TypeError, match="a_points must be an integer"):
        l7.constants("5")


def test_constants_summary_lines():
    lines = l7.constants_summary(_constants(), 1 / 6, 0.0765, 0.2066).split("\n")
    v = 2 * math.acosh(math.sqrt(1.5))
    obj = (1 - 2 * math.exp(-v * v / 2)) / 6
    assert lines == [
        f"argmax a = 0.100000 (the paper evaluates at a = {1 / 6}); objective there 0.070000 (paper: sup ≥ 0.0765)",
        f"objective at the paper's a = {1 / 6}: {obj:.6f}",
        "Gaussian E[e^-Z/(1+e^-Z)^2] = 0.200000 (paper: 0.2066)",
        "c_s sub-Gaussian = 0.050000 (paper 0.0765/e = 0.028143)",
        "c_s Gaussian     = 0.100000 (paper 0.2066/e = 0.076004)",
        "Chebyshev constant (variance ≤ 1 only) = 0.040000 at c = 1.5000",
    ]


def test_gap_ratios_on_the_two_point_grid_by_hand():
    g = _gaps()
    assert g.x.tolist() == [0.0, 1.0] and g.mu_i.tolist() == [0] and g.lam_j.tolist() == [1]
    assert list(g.ratios) == [l7.GAUSSIAN, *l7.DISCRETE, l7.WORST]
    gauss = integrate.quad(lambda z: (_s(1 + z) - _s(z)) * math.exp(-z * z / 2) / math.sqrt(2 * math.pi), -30, 30)[0]
    rademacher = (_s(2) - _s(0)) / 2  # (s(0) + s(2))/2 - (s(-1) + s(1))/2, and s(-1) + s(1) = 1
    r3 = math.sqrt(3)
    three = (_s(1 - r3) + _s(1 + r3) - _s(-r3) - _s(r3)) / 6 + 2 / 3 * (_s(1) - _s(0))
    worst = P * (_s(1 - 1.01) + _s(1 + 1.01) - _s(-1.01) - _s(1.01)) + (1 - 2 * P) * (_s(1) - _s(0))
    expected = {l7.GAUSSIAN: gauss, "Rademacher ±1": rademacher, "three-point {-√3, 0, √3}": three, l7.WORST: worst}
    for name, value in expected.items():
        assert g.ratios[name][0] == pytest.approx(value, rel=1e-6), name
        assert g.mins[name] == (pytest.approx(value, rel=1e-6), 0.0, 1.0)
    # the linear program at t = 0 and t = 1: its only feasible law, worse at t = 1
    assert g.t_grid.tolist() == [0.0, 1.0] and g.i_worst == 1
    for (value, atoms, probs), t in zip(g.worst, g.t_grid):
        assert value == pytest.approx(_lp_by_hand(t), rel=1e-7)
    value, atoms, probs = g.lp
    assert atoms.tolist() == pytest.approx([-1.01, 0.0, 1.01]) and probs.tolist() == pytest.approx([P, 1 - 2 * P, P])
    assert value == pytest.approx(_lp_by_hand(1.0), rel=1e-7)


def test_gap_ratios_refuses_bad_grids():
    with pytest.raises(ValueError, match="grid_points must be an integer >= 2"):
        l7.gap_ratios(1, 2, 1.01, 1.0)
    with pytest.raises(ValueError, match="t_points must be an integer >= 1"):
        l7.gap_ratios(2, 0, 1.01, 1.0)
    with pytest.raises(ValueError, match="need 0 < step < z_max"):
        l7.gap_ratios(2, 2, 1.01, 2.0)


def _hand_gaps():
    """A GapRatios written by hand: the four laws with minima 0.3, 0.25, 0.2, 0.15 and a worst law at t = 1."""
    mins = {name: (r, 0.5, 1.0) for name, r in zip(l7.SLUGS, (0.3, 0.25, 0.2, 0.15))}
    worst = [
        (0.2, np.array([-1.0, 1.0]), np.array([0.5, 0.5])),
        (0.1, np.array([-2.424, 0.413]), np.array([0.1464, 0.8536])),
    ]
    x = np.array([0.0, 0.5, 1.0])
    mu_i, lam_j = np.triu_indices(3, k=1)
    ratios = {name: np.array([0.4, 0.5, r]) for name, (r, _, _) in mins.items()}
    return l7.GapRatios(x, mu_i, lam_j, ratios, mins, np.array([0.0, 1.0]), worst, 1)


def test_gap_table_rows():
    table = l7.gap_table(_hand_gaps(), _constants(c_sub=0.05, c_gauss=0.1))
    assert [row[0] for row in table.body] == list(l7.SLUGS)
    assert table.body[0][1:] == [0.3, "(0.50, 1.00)", pytest.approx(6.0), pytest.approx(3.0)]
    assert table.body[3][3:] == [pytest.approx(3.0), pytest.approx(1.5)]
    assert "three-point {-√3, 0, √3}         0.2000  (0.50, 1.00)   4.00         2.00" in repr(table)


def test_worst_law_summary_text():
    text = l7.worst_law_summary(_hand_gaps(), _constants(c_sub=0.05, c_gauss=0.1))
    assert text == (
        "worst law over variance-one noises: atoms [-2.42, 0.41], probabilities [0.146, 0.854], at t = 1.00\n"
        "best possible constant (LP): 0.1000 = 2.00 c_s = 1.00 c_s(Gauss)"
    )


def test_gap_ratio_claims_bounds_texts_and_tolerances():
    claims = l7.gap_ratio_claims(
        _hand_gaps(), _constants(c_sub=0.05, c_gauss=0.1), "L7", paper_sup=0.5, paper_gauss=0.7
    )
    assert [c["name"] for c in claims] == [
        "min_gap_ratio_gaussian",
        "min_gap_ratio_rademacher",
        "min_gap_ratio_three_point",
        "min_gap_ratio_worst_variance_one_law",
        "best_constant_variance_one",
    ]
    assert [c["reproduced"] for c in claims] == [0.3, 0.25, 0.2, 0.15, 0.1]
    assert [c["bound"] for c in claims] == [0.1, 0.05, 0.05, 0.05, 0.05]
    assert [c["rtol"] for c in claims] == [1e-9, 1e-9, 1e-9, 1e-6, 1e-6]
    assert all(c["sense"] == ">=" for c in claims)
    assert claims[0]["how"] == "Lemma 7's c_s = 0.7/e for Gaussian noise"
    assert claims[1]["how"] == "Lemma 7's c_s = 0.5/e for sub-Gaussian noise"
    assert claims[4]["how"] == "Lemma 7's c_s = 0.5/e, stated for every sub-Gaussian noise of variance one"
    assert claims[1]["source"] == "L7: smallest gap ratio over the grid, Rademacher ±1 noise"
    assert claims[1]["note"] == "minimum over the grid at (mu, lambda) = (0.50, 1.00)"
    assert claims[3]["note"].endswith("; " + l7.LP_NOTE) and l7.LP_NOTE in claims[4]["note"]
    built = [ldp.claims.bound(f"t.{c.pop('name')}", **c) for c in claims]  # the arguments nb.bound takes
    assert all(b.verdict().startswith("holds") for b in built)


def test_objective_ratio_figure_draws_the_given_arrays():
    k = _constants()
    fig = l7.objective_ratio_figure(k, _hand_gaps(), 0.107, 0.0765)
    ax1, ax2 = fig.axes[:2]
    assert len(fig.axes) == 3  # the two panels and the colour bar
    assert ax1.get_lines()[0].get_ydata().tolist() == [0.07]
    assert [line.get_label() for line in ax1.get_lines()[1:]] == [
        "argmax a = 0.1000",
        "paper's a = 0.107",
        "paper's value 0.0765",
    ]
    img = ax2.get_images()[0].get_array()
    assert img[1, 0] == 0.4 and img[2, 0] == 0.5 and img[2, 1] == 0.3 and img.mask[0, 1]  # lambda rows, mu columns
    assert ax2.get_title() == "gap ratio, Gaussian noise, 3×3 grid"
    plt.close(fig)


def test_adjacent_ratio_figure_draws_neighbouring_pairs_and_constants():
    fig = l7.adjacent_ratio_figure(_constants(c_sub=0.05, c_gauss=0.1, cheb_value=0.04), _hand_gaps())
    (ax,) = fig.axes
    lines = ax.get_lines()
    # pairs (0, 0.5) and (0.5, 1) are neighbours: midpoints 0.25, 0.75, ratios 0.4 and r
    assert lines[0].get_xdata().tolist() == [0.25, 0.75] and lines[0].get_ydata().tolist() == [0.4, 0.3]
    assert list(lines[4].get_ydata()) == [0.2, 0.1]  # the linear program's value at each t
    assert [line.get_ydata()[0] for line in lines[5:]] == [0.1, 0.05, 0.04]
    assert ax.get_title().endswith(r"($\lambda - \mu$ = 0.5)")
    plt.close(fig)
