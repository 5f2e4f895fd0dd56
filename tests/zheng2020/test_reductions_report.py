"""ldpcode.reductions.report: the tables, audit, runs and figures of the notebook algorithm1_theorems2_3
(values checked by hand)."""

import math

import matplotlib
import numpy as np
import pytest
from scipy.stats import norm

from ldpcode.claims import format_number
from ldpcode.reductions import bernoulli_losses, gaussian_exact_delta, make_agent, report, simulate_mab

# 2 ln(1.25 / DELTA) = 4, so line 2's sigma is 2B * 2 / eps: sigma = 2 at B = 1, eps = 2
DELTA = 1.25 * math.exp(-2)


def _balle_wang(eps, sigma, sens):
    """Balle and Wang (2018), Theorem 8, written out: Phi(D/2s - eps s/D) - e^eps Phi(-D/2s - eps s/D)."""
    a, b = sens / (2 * sigma), eps * sigma / sens
    return norm.cdf(a - b) - math.exp(eps) * norm.cdf(-a - b)


def test_calibration_rows_at_a_delta_where_sigma_is_4b_over_eps():
    rows = report.calibration_rows([2.0, 4.0], DELTA, 1.0)
    assert [r["eps"] for r in rows] == [2.0, 4.0]
    r = rows[0]
    assert r["sigma"] == pytest.approx(2.0, rel=1e-14) and rows[1]["sigma"] == pytest.approx(1.0, rel=1e-14)
    assert r["mu"] == pytest.approx(0.5, rel=1e-14)  # mu = (2B)^2 / (2 sigma^2) = 4 / 8
    assert r["tail"] == pytest.approx(norm.sf(1.5), rel=1e-10)  # L ~ N(0.5, 1): P[L > 2] = P[N(0,1) > 1.5]
    assert r["exact"] == pytest.approx(norm.cdf(-1.5) - math.exp(2) * norm.cdf(-2.5), rel=1e-10)
    assert r["exact"] == pytest.approx(0.0209237, rel=1e-5)
    doubled = report.calibration_rows([2.0], DELTA, 2.0)[0]  # B = 2 doubles sigma; mu is unchanged
    assert doubled["sigma"] == pytest.approx(4.0, rel=1e-14) and doubled["mu"] == pytest.approx(0.5, rel=1e-14)
    with pytest.raises(ValueError, match="loss_bound must be a finite number > 0"):
        report.calibration_rows([1.0], DELTA, 0.0)


def test_calibration_table_lists_the_rows_and_the_target_over_the_exact_delta():
    rows = [dict(eps=1.0, sigma=3.0, mu=0.25, tail=1e-7, exact=2e-7), dict(eps=8.0, sigma=0.5, mu=8.0, tail=0.2,
                                                                           exact=4e-6)]  # fmt: skip
    t = report.calibration_table(rows, 1e-6)
    assert t.head == ["eps", "sigma", "mu", "P[L > eps]", "exact delta", "delta / exact"]
    assert t.body[0] == [1.0, 3.0, 0.25, 1e-7, 2e-7, pytest.approx(5.0)]
    assert t.body[1][-1] == pytest.approx(0.25)
    assert "0.25" in repr(t) and "5" in repr(t)


def test_exact_delta_curves_and_the_first_crossing():
    eps_line = np.array([1.0, 2.0, 4.0])
    curves, cross = report.exact_delta_curves(eps_line, [DELTA], 1.0)
    assert list(curves) == [DELTA]
    sig = 4.0 / eps_line  # sigma = 2B sqrt(2 ln(1.25/delta)) / eps = 4 / eps at DELTA
    assert curves[DELTA] == pytest.approx([_balle_wang(e, s, 2.0) for e, s in zip(eps_line, sig)], rel=1e-9)
    # by hand: 0.040059 - e 0.012224, 0.066807 - e^2 0.0062097, 0.158655 - e^4 0.0013499: all below DELTA = 0.1149
    assert curves[DELTA] == pytest.approx([0.006830, 0.020924, 0.084953], rel=1e-4)
    assert cross[DELTA] == math.inf
    curves2, cross2 = report.exact_delta_curves([0.5, 50.0], [1e-6], 1.0)
    assert curves2[1e-6][0] <= 1e-6 < curves2[1e-6][1]  # line 2 fails at eps = 50, and first at the root 8.78
    assert cross2[1e-6] == pytest.approx(8.782092, abs=1e-6)  # as the chapter's brentq on the closed form, not 50
    sig_x = 2 * math.sqrt(2 * math.log(1.25e6)) / cross2[1e-6]
    assert float(gaussian_exact_delta(cross2[1e-6], sig_x, 2.0)) == pytest.approx(1e-6, rel=1e-9)
    assert report.exact_delta_curves([20.0, 50.0], [1e-6], 1.0)[1][1e-6] == 20.0  # above from the start: its first ε
    assert curves2[1e-6][1] == pytest.approx(float(gaussian_exact_delta(50.0, 2 * math.sqrt(2 * math.log(1.25e6))
                                                                        / 50.0, 2.0)), rel=1e-12)  # fmt: skip
    with pytest.raises(ValueError, match="eps_line must be a non-empty 1-d array of epsilons > 0"):
        report.exact_delta_curves([1.0, -2.0], [1e-6], 1.0)


def test_loss_audit_draws_b_then_minus_b_and_measures_the_gaussian_loss():
    a = report.loss_audit(2.0, DELTA, 1.0, samples=4000, bins=8, seed=7)
    rng = np.random.default_rng(7)
    z = rng.standard_normal(4000)
    z_b = rng.standard_normal(4000)
    assert a.sigma == pytest.approx(2.0, rel=1e-14) and a.sens == 2.0
    assert np.allclose(a.y_a, 1.0 + 2.0 * z, rtol=0, atol=1e-12)
    assert np.allclose(a.y_b, -1.0 + 2.0 * z_b, rtol=0, atol=1e-12)
    assert np.allclose(a.loss, 2.0 * a.y_a / 4.0, rtol=0, atol=1e-12)  # L = 2B y / sigma^2
    assert a.mu == pytest.approx(0.5, rel=1e-14)
    assert a.emp_mean == pytest.approx(a.loss.mean()) and a.emp_var == pytest.approx(a.loss.var(ddof=1))
    assert a.emp_tail == np.mean(a.loss > 2.0) and a.exact_tail == pytest.approx(norm.sf(1.5), rel=1e-10)
    thr = 0.5 + 3.0 * 1.0  # mu + 3 sd, sd = sqrt(2 mu) = 1
    assert a.emp_thr == np.mean(a.loss > thr) and a.exact_thr == pytest.approx(0.0013499, rel=1e-4)
    assert a.centres.size == 8 and a.blr.log_ratio.size == 8 and a.blr.alpha == 0.05
    assert a.centres[0] == pytest.approx(np.quantile(a.y_a, 1 / 16))
    assert a.mean_se == pytest.approx(a.loss.std(ddof=1) / math.sqrt(4000))
    assert a.mean_z == pytest.approx((a.emp_mean - 0.5) / a.mean_se)
    assert a.thr_se == pytest.approx(math.sqrt(a.emp_thr * (1 - a.emp_thr) / 4000))
    assert a.thr_z == pytest.approx((a.emp_thr - a.exact_thr) / math.sqrt(a.exact_thr * (1 - a.exact_thr) / 4000))
    lines = a.summary().split("\n")
    assert len(lines) == 5
    assert lines[0] == "σ = 2, privacy loss L ~ N(μ, 2μ), μ = 0.5"
    assert lines[2].startswith("P[L > ε = 2]: 4,000 samples give ") and lines[2].endswith(
        f"(δ = {format_number(DELTA)})"
    )
    assert lines[3].startswith("P[L > μ + 3 sd]: samples ")
    assert "over 8 bins" in lines[4] and "(95% lower bound)" in lines[4]
    assert "(90% lower bound)" in report.loss_audit(2.0, DELTA, 1.0, samples=500, bins=4, seed=1, alpha=0.1).summary()
    with pytest.raises(ValueError):
        report.loss_audit(2.0, DELTA, -1.0, samples=100, bins=4, seed=1)


def test_loss_audit_figure_has_three_panels():
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    a = report.loss_audit(1.0, 1e-6, 1.0, samples=2000, bins=6, seed=3)
    eps_line = np.geomspace(0.5, 50, 20)
    curves, _ = report.exact_delta_curves(eps_line, [1e-2, 1e-6], 1.0)
    fig = report.loss_audit_figure(a, eps_line, curves)
    ax1, ax2, ax3 = fig.axes
    assert ax1.get_title() == "ε = 1, δ = 10⁻⁶, 2,000 samples"
    assert "95% simultaneous" in [t.get_text() for t in ax2.get_legend().get_texts()]
    assert [t.get_text() for t in ax3.get_legend().get_texts()] == ["δ = 0.01", "δ = 10⁻⁶"]
    assert np.array_equal(ax3.get_lines()[0].get_ydata(), curves[1e-2])
    plt.close(fig)


def test_wrapped_regrets_pairs_each_learner_with_its_wrapped_runs():
    final = report.wrapped_regrets(["UCB"], [0.2, 0.8], [1.0, 4.0], horizon=300, runs=3, seed=5, delta=1e-4,
                                   loss_bound=1.0)  # fmt: skip
    base, wrapped = final["UCB"]
    assert base.shape == (3,) and wrapped.shape == (2, 3)
    env = bernoulli_losses([0.2, 0.8])
    direct = simulate_mab(make_agent("UCB", "gaussian", epsilon=4.0, delta=1e-4), env, 300, 3, 5, checkpoints=[300])
    assert np.array_equal(wrapped[1], direct.final_regret())
    assert np.array_equal(base, simulate_mab(make_agent("UCB"), env, 300, 3, 5, checkpoints=[300]).final_regret())
    with pytest.raises(TypeError, match="learners must be a collection of learner names"):
        report.wrapped_regrets("UCB", [0.2, 0.8], [1.0], horizon=300, runs=3, seed=5, delta=1e-4, loss_bound=1.0)


def test_ratio_se_by_hand():
    # constant denominator: se = s_X / sqrt(n) / mean(Y); row [1, 2, 3] has s = 1, n = 3, mean(Y) = 2
    se = report.ratio_se(np.array([2.0, 2.0, 2.0]), np.array([[1.0, 2.0, 3.0], [4.0, 4.0, 4.0]]))
    assert se == pytest.approx([1 / math.sqrt(3) / 2, 0.0], abs=1e-15)
    with pytest.raises(ValueError, match=r"wrapped must have shape \(n_eps, runs\)"):
        report.ratio_se(np.ones(3), np.ones(3))


def test_ratio_figure():
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from types import SimpleNamespace

    final = {"A": (np.array([1.0, 2.0, 3.0]), np.array([[4.0, 5.0, 6.0], [2.0, 2.5, 3.0], [1.0, 2.0, 3.5]]))}
    fits = {"A": SimpleNamespace(y=np.array([2.5, 1.25, 1.0833]), slope=0.66)}
    fig = report.ratio_figure(final, fits, [1.0, 2.0, 4.0], reference="A", delta=1e-6, loss_bound=1.0, horizon=1000,
                              runs=3, loss_means=[0.1, 0.9])  # fmt: skip
    (ax,) = fig.axes
    assert ax.get_title() == "Theorem 3: T = 1,000, 3 runs, δ = 10⁻⁶, means [0.1, 0.9]"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1/1", "1/2", "1/4"]
    slope1 = ax.get_lines()[-1]  # slope 1 through the last ratio: 1.0833 * (1/eps) / (1/4)
    assert slope1.get_ydata() == pytest.approx([4 * 1.0833, 2 * 1.0833, 1.0833])
    gap = ax.get_lines()[-2]  # 1 + 4 sigma^2, sigma = 2 sqrt(2 ln(1.25e6)) / eps
    assert gap.get_ydata()[0] == pytest.approx(1 + 16 * 2 * math.log(1.25e6))
    plt.close(fig)
    with pytest.raises(ValueError, match="reference 'B' is not one of the fitted learners"):
        report.ratio_figure(final, fits, [1.0, 2.0, 4.0], reference="B", delta=1e-6, loss_bound=1.0, horizon=1000,
                            runs=3, loss_means=[0.1, 0.9])  # fmt: skip
