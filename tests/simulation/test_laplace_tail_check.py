"""The comparison of a Laplace tail bound with its exact and Monte Carlo tails (Ren et al.'s Lemma 3, the HeLDP
paper's Lemma 6): ldpcode.experiments.laplace_tail_check against hand-computed values."""

import math

import matplotlib
import numpy as np
import pytest

from ldpcode.experiments import laplace_tail_check as tc

matplotlib.use("Agg")


def _curve(bound=(0.5, 0.3, 0.2), min_count=2):
    # 10 draws; beyond λ = 1, 2, 3: 5, 3 and 1 of them
    draws = [0.0, 0.5, 0.6, 0.7, 0.9, 1.5, 1.6, 2.5, 2.7, 3.5]
    return tc.tail_curve(draws, [1.0, 2.0, 3.0], [0.5, 0.3, 0.1], list(bound), end=4.0, min_count=min_count)


def test_the_monte_carlo_tail_counts_the_draws_beyond_each_lambda():
    c = _curve()
    assert c.emp.tolist() == pytest.approx([0.5, 0.3, 0.1]) and c.samples == 10 and c.end == 4.0
    assert c.ok.tolist() == [True, True, False]  # 10 x 0.1 = 1 < min_count = 2


def test_the_summary_is_read_at_the_last_well_estimated_lambda():
    s = _curve().summary()
    assert s["lam"] == 2.0 and s["emp"] == pytest.approx(0.3) and s["exact"] == 0.3 and s["bound"] == 0.3
    assert s["rho_mc"] == pytest.approx(1.0) and s["rho_exact"] == pytest.approx(1.0)
    assert s["rho_se"] == pytest.approx(math.sqrt(0.7 / 3) / abs(math.log(0.3)))  # ρ √((1-p)/(np)) / |log p|
    assert s["rho_end"] == pytest.approx(math.log(0.2) / math.log(0.1))
    assert s["z_max"] == pytest.approx(0.0, abs=1e-12)  # Monte Carlo equal to exact where well estimated


def test_violations_name_what_contradicts_the_lemma():
    import dataclasses

    assert _curve().violations() == []
    low = _curve(bound=(0.4, 0.3, 0.2))  # below the exact tail at λ = 1
    assert low.violations()[0] == "the exact tail exceeds the bound"
    high_mc = dataclasses.replace(_curve(), emp=np.array([0.5, 0.3, 0.9]))  # at λ = 3: 0.9 > 0.2 + 4 x 0.095
    assert high_mc.violations() == ["the Monte Carlo tail exceeds the bound by more than 4 standard errors"]
    a = np.array
    off = tc.TailCurve(a([1.0, 2, 3]), a([0.5, 0.3, 0.05]), a([0.5, 0.3, 0.1]), a([0.5, 0.3, 0.2]), 10**6, 2, 4.0)
    assert off.summary()["rho_se"] < 0.001  # ρ MC 0.537 against ρ exact 0.699 at λ = 3, with 10⁶ samples
    assert off.violations() == ["the Monte Carlo exponent ratio is more than 4 standard errors from the exact one"]


def test_no_well_estimated_point_is_refused_by_name():
    with pytest.raises(ValueError, match=r"no grid point has samples x P >= min_count \(20\): raise samples"):
        _curve(min_count=20).summary()
    nothing_beyond = tc.tail_curve([0.0] * 10, [1.0, 2.0], [0.5, 0.3], [0.6, 0.4], end=3.0, min_count=1)
    with pytest.raises(ValueError, match=r"no Monte Carlo draw exceeds λ = 2, the last grid point"):
        nothing_beyond.summary()  # was "math domain error"


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(draws=[]), "need draws and a 1-d grid"),
        (dict(exact=[0.5, 0.3]), "need draws and a 1-d grid"),
        (dict(draws=[1.0, float("nan")]), "draws"),
        (dict(min_count=0), "min_count"),
    ],
)
def test_bad_input_is_one_line(kw, match):
    args = dict(draws=[0.0, 1.5], lam=[1.0, 2.0, 3.0], exact=[0.5, 0.3, 0.1], bound=[0.5, 0.3, 0.2])
    args.update(kw)
    with pytest.raises(ValueError, match=match) as e:
        tc.tail_curve(
            args["draws"], args["lam"], args["exact"], args["bound"], end=4.0, min_count=kw.get("min_count", 1)
        )
    assert "\n" not in str(e.value)


def test_the_figures_draw_every_curve():
    import matplotlib.pyplot as plt

    curves = {1: _curve(), 4: _curve()}
    fig = tc.tails_figure(curves, {1: 1.0, 4: 2.0}, symbol="n", lemma="Lemma 3", xlabel="x", title="t")
    assert [ax.get_title() for ax in fig.axes[:2]] == ["n = 1", "n = 4"]
    assert fig.axes[0].lines[0].get_xdata().tolist() == [1.0, 2.0]  # Monte Carlo where well estimated
    assert fig.axes[1].lines[1].get_xdata().tolist() == [0.5, 1.0, 1.5]  # λ / scale
    fig2, ax = plt.subplots()
    tc.exponent_ratio_panel(ax, curves, symbol="n", range_text="4", title="ρ")
    assert ax.lines[0].get_xdata().tolist() == [0.25, 0.5, 0.75] and ax.get_ylim() == (0.0, 1.0)
    plt.close(fig)
    plt.close(fig2)


def test_the_t4_panel_draws_each_t_with_its_mark_and_the_bound():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    curves = {10: (np.array([1, 2, 4]), np.array([2.0, 0.5, 0.0])), 100: (np.array([1, 8]), np.array([3.0, 1e-3]))}
    tc.t4_panel(ax, curves, {10: 9.2, 100: 18.4}, bound_label="1", xlabel="k", ylabel="P t^4", title="T")
    assert ax.lines[0].get_ydata().tolist() == [2.0, 0.5, 1e-300]  # a tail of 0 drawn at the axis' floor, not lost
    assert list(ax.lines[1].get_xdata()) == [9.2, 9.2] and ax.lines[-1].get_label() == "1"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["t = $10^{1}$", "t = $10^{2}$", "1"]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    plt.close(fig)
