"""ldpcode.experiments.azize_table2, the helpers of the notebook on Theorem 1 and Table 2 of Azize and Basu (2022):
values by hand on small pairs of inputs and on hand-made rows of Table 2."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

from ldpcode import audit
from ldpcode.bounds import table2
from ldpcode.experiments import azize_table2 as at

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

F, FP = [0.0, 0.0], [1.0, 0.0]  # at L1 distance 1


def _audits(epsilons=(0.5, 2.0), factor=0.25, seed=0):
    return at.theorem1_audits(
        F, FP, 1.0, list(epsilons), 20_000, np.random.default_rng(seed), bins=4, alpha=0.05, broken_factor=factor
    )


def test_exact_losses_are_distance_over_scale_both_ways():
    out = at.exact_losses(F, FP, 1.0, [0.5, 2.0], 201)
    assert list(out) == [0.5, 2.0]
    assert out[0.5][0] == pytest.approx(0.5)  # ||f - f'||_1 / b with b = 1 / 0.5 = 2
    assert out[2.0][0] == pytest.approx(2.0)  # b = 0.5
    assert out[0.5][1] == pytest.approx(0.5, rel=1e-6)
    assert out[2.0][1] == pytest.approx(2.0, rel=1e-6)
    assert at.exact_losses(F, FP, 2.0, [1.0], 201)[1.0][0] == pytest.approx(0.5)  # b = s / eps = 2


def test_exact_losses_rejects_no_epsilon():
    with pytest.raises(ValueError, match="at least one privacy budget"):
        at.exact_losses(F, FP, 1.0, [], 201)
    with pytest.raises(TypeError, match="list of privacy budgets"):
        at.exact_losses(F, FP, 1.0, "0.5", 201)


def test_loss_table_rows():
    t = at.loss_table({0.5: (0.5, 0.49), 2.0: (2.0, 1.9)}, 1.0)
    assert t.head == ["ε", "b = s/ε", "closed form", "grid sup", "loss / ε"]
    assert t.body == [[0.5, 2.0, 0.5, 0.49, 1.0], [2.0, 0.5, 2.0, 1.9, 1.0]]
    assert "0.490000" in repr(t)


def test_theorem1_audits_draw_in_order_at_the_two_scales():
    audits, broken = _audits()
    rng = np.random.default_rng(0)
    for eps in (0.5, 2.0):  # the order of draws: the mechanism, then the broken one, per eps
        a = audit.laplace_mechanism_audit(F, FP, 1 / eps, 20_000, rng, claimed=eps, bins=4, alpha=0.05)
        b = audit.laplace_mechanism_audit(F, FP, 0.25 / eps, 20_000, rng, claimed=eps, bins=4, alpha=0.05)
        np.testing.assert_array_equal(audits[eps].binned.counts_a, a.binned.counts_a)
        np.testing.assert_array_equal(broken[eps].binned.counts_b, b.binned.counts_b)
        assert audits[eps].scale == pytest.approx(1 / eps) and broken[eps].scale == pytest.approx(0.25 / eps)
        assert audits[eps].claimed == broken[eps].claimed == eps
        assert broken[eps].exact == pytest.approx(4 * eps)  # loss eps / factor
    assert not any(a.refuted for a in audits.values())
    assert all(b.refuted for b in broken.values())


@pytest.mark.parametrize("factor", [0.0, 1.0, -0.5, "0.5"])
def test_theorem1_audits_rejects_a_factor_outside_0_1(factor):
    with pytest.raises(ValueError, match="broken_factor must be a number in"):
        _audits(factor=factor)


def test_audit_table_rows_and_verdicts():
    audits, broken = _audits(factor=0.25)
    t = at.audit_table(audits, broken, 0.25)
    assert [r[0] for r in t.body] == ["Theorem 1 (scale b)", "BROKEN (0.25 b)"] * 2
    assert [r[1] for r in t.body] == [0.5, 0.5, 2.0, 2.0]
    assert [r[5] for r in t.body] == ["within ε", "REFUTED", "within ε", "REFUTED"]
    a = audits[2.0].binned
    assert t.body[2][3] == (a.log_ratio[-1], a.se[-1]) and t.body[2][4] == a.max_lower
    assert t.body[3][2] == pytest.approx(8.0)
    with pytest.raises(ValueError, match="same ε"):
        at.audit_table(audits, {0.5: broken[0.5]}, 0.25)


def test_bin_centres_by_hand():
    np.testing.assert_allclose(at.bin_centres([-math.inf, -1, 0, 1, math.inf]), [-1.5, -0.5, 0.5, 1.5])
    np.testing.assert_allclose(at.bin_centres([-math.inf, -1, 1, math.inf]), [-2.0, 0.0, 2.0])
    np.testing.assert_allclose(at.bin_centres([-math.inf, 0, math.inf]), [-0.5, 0.5])
    with pytest.raises(ValueError, match="at least 3 bin edges"):
        at.bin_centres([-math.inf, math.inf])


def test_theorem1_figure_panels():
    audits, broken = _audits(epsilons=(0.5, 1.0, 2.0))
    fig = at.theorem1_figure(audits, broken, broken_factor=0.25, dim=2)
    ax1, ax2 = fig.axes
    assert ax1.get_title() == "Theorem 1 audit, ε = 1, d = 2"  # the middle eps
    assert ax2.get_title() == "20,000 releases per input"
    labels = ax2.get_legend_handles_labels()[1]
    assert "BROKEN 0.25 b: lower bound" in labels
    exact = next(ln for ln in ax2.get_lines() if ln.get_label() == "BROKEN: its exact loss")
    np.testing.assert_allclose(exact.get_ydata(), [2.0, 4.0, 8.0])  # eps / factor
    diag = next(ln for ln in ax2.get_lines() if ln.get_label() == "loss = claimed ε")
    np.testing.assert_allclose(diag.get_xdata(), [0, 8.4])  # 2 / 0.25 * 1.05
    plt.close(fig)


def _row(eps):
    return dict(
        eps=eps, sm_table=10.0, sm_thm=10.0, sm_private=eps < 1, pb_table=4.0, pb_thm=4.0, pg_table=2.0,
        pg_thm=5.0, lm_table=3.0, lm_thm=3.0, lp_table=8.0, lp_thm=6.0,
    )  # fmt: skip


def test_table2_tables_rows():
    stochastic, linear = at.table2_tables([_row(0.1), _row(1.0)])
    assert stochastic.body[0] == [0.1, 10.0, "private", 4.0, 1.0, 2.0, 2.5]
    assert stochastic.body[1][2] == "free"
    assert linear.body == [[0.1, 3.0, 8.0, 0.75], [1.0, 3.0, 8.0, 0.75]]
    assert linear.head == ["ε", "linear minimax", "linear PD", "thm/table"]


def test_table2_figure_curves():
    fig = at.table2_figure(1000, 10, 2, [0.1, 1.0], [0.5, 0.25], [0.5, 0.25], 1.0, [1.0, 0.5, 0.0])
    (ax,) = fig.axes
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    assert len(lines) == 6 and "linear PD, basis of R^3 (Thm 5)" in lines and "linear minimax, d = 2 (Thm 4)" in lines
    sm = lines["stochastic minimax (Thm 2)"]
    x = sm.get_xdata()
    assert x.size == 60 and x[0] == pytest.approx(0.01) and x[-1] == pytest.approx(10.0)
    assert sm.get_ydata()[0] == pytest.approx(max(math.sqrt(9000) / 27, 9 / 0.01 / 131))
    lp = lines["linear PD, basis of R^3 (Thm 5)"].get_ydata()
    # gaps 0.5 and 1: sum 1 / min(gap / 2, 3 eps) times log T, at eps = 10 (no privacy term)
    assert lp[-1] == pytest.approx((1 / 0.25 + 1 / 0.5) * math.log(1000))
    bern = lines["stochastic PD, Bernoulli (Thm 3)"].get_ydata()
    assert bern[0] == pytest.approx(table2.table2_stochastic_problem_dependent([0.25], [1.0], 1000, 0.01))  # 6 eps gap
    assert bern[0] == pytest.approx(0.25 * math.log(1000) / (6 * 0.01 * 0.25))
    plt.close(fig)


def test_table2_figure_rejects_no_suboptimal_arm():
    with pytest.raises(ValueError, match="suboptimal arm"):
        at.table2_figure(1000, 10, 2, [0.1], [0.5, 0.5], [0.5, 0.25], 1.0, [1.0, 0.5])
