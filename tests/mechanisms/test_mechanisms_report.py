"""ldpcode.mechanisms.report, the computations and figures of the chapter on Lemmas 2 and 5 (the curators CTL and
CTB of Ren et al. 2020), against values worked out by hand."""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import ldpcode as ldp  # noqa: E402
from ldpcode.audit import binned_log_ratio, privacy_loss_matrix  # noqa: E402
from ldpcode.mechanisms import report  # noqa: E402

E = math.e
STYLE = dict(linestyle="--")
COLORS = {"CTB": "red", "CTL": "blue"}


def test_ctb_table_by_hand():
    # eps = 1: p(0) = 1/(1 + e), p(1) = e/(1 + e), p(1/2) = 1/2
    t = report.ctb_table(1.0, np.array([0.0, 0.5, 1.0]))
    expected = [[E / (1 + E), 1 / (1 + E)], [0.5, 0.5], [1 / (1 + E), E / (1 + E)]]
    np.testing.assert_allclose(t, expected, rtol=1e-15)


def test_ctl_table_by_hand():
    # eps = 1: the Laplace density of scale 1 around r, exp(-|x - r|) / 2; rows are rewards, columns outputs
    t = report.ctl_table(1.0, [0.0, 1.0], [0.0, 0.5, 3.0])
    expected = [
        [0.5, 0.5 * math.exp(-0.5), 0.5 * math.exp(-3)],
        [0.5 * math.exp(-1), 0.5 * math.exp(-0.5), 0.5 * E**-2],
    ]
    np.testing.assert_allclose(t, expected, rtol=1e-14)
    assert t.shape == (2, 3)


def test_exact_loss_sweep_is_lemmas_2_and_5():
    # CTB's worst pair is {0, 1}, with loss eps; CTL's loss is eps |r - r'| once x reaches left of 0 and right of 1
    eps = np.array([0.5, 2.0])
    s = report.exact_loss_sweep(eps, np.linspace(0, 1, 5), np.linspace(-2, 3, 51), privacy_loss_matrix)
    np.testing.assert_allclose(s.ctb_max, eps, rtol=1e-12)
    np.testing.assert_allclose(s.ctb_at_01, eps, rtol=1e-12)
    np.testing.assert_allclose(s.ctl_max, eps, rtol=1e-12)
    assert s.ctl_dev.max() < 1e-12 and s.r.size == 5
    assert s.errors == (0.0, 0.0, 0.0) and s.errors.ctl_dist == 0.0
    assert s.summary() == (
        "CTB: max over ε of |max_(r, r', x) log ratio - ε|       = 0.0\n"
        "CTB: the maximum is attained at {r, r'} = {0, 1} for every ε: True\n"
        "CTL: max over ε of |max_(r, r', x) log ratio - ε|       = 0.0\n"
        "CTL: max over ε, r, r' of |sup_x log ratio - ε |r - r'|| = 0.0"
    )


def test_exact_loss_sweep_uses_the_loss_matrix_it_is_given():
    # a loss of 3 for every pair: CTB's and CTL's maxima are 3, 2 away from eps = 1; CTL's gap to eps |r - r'| is 3
    s = report.exact_loss_sweep([1.0], [0.0, 1.0], [0.0], lambda t: np.full((t.shape[0], t.shape[0]), 3.0))
    assert s.ctb_max.tolist() == [3.0] and s.ctl_max.tolist() == [3.0] and s.ctl_dev.tolist() == [3.0]
    assert s.errors == (2.0, 2.0, 3.0)
    assert "= 2.0\n" in s.summary() and "= 3.0" in s.summary()


def test_exact_loss_sweep_refuses_bad_input():
    with pytest.raises(TypeError, match="loss_matrix must be a function"):
        report.exact_loss_sweep([1.0], [0.0, 1.0], [0.0], "privacy_loss_matrix")
    with pytest.raises(ValueError, match="at least 2 rewards"):
        report.exact_loss_sweep([1.0], [0.5], [0.0], privacy_loss_matrix)
    with pytest.raises(ValueError, match="non-empty"):
        report.exact_loss_sweep([], [0.0, 1.0], [0.0], privacy_loss_matrix)


def test_arm_kinds_by_hand():
    # distinct means 0.9 (first at 1), 0.7 (at 3), 0.5 (at 0): best first
    assert report.arm_kinds([0.5, 0.9, 0.5, 0.7, 0.9]) == [1, 3, 0]
    kinds = report.arm_kinds(ldp.make_instance("ren2020-mixed").means)
    assert kinds == [0, 1, 6, 11, 16]  # Bernoulli 0.9, Beta(4, 1), {0.4, 1}, Bernoulli 0.6, U[0, 1]
    with pytest.raises(ValueError, match="non-empty 1-d"):
        report.arm_kinds([])


def test_output_mean_z_by_hand():
    case = report.OutputMean("CTB", 1.0, 0, 0.6, 0.01, 0.58)
    assert case.z == pytest.approx(2.0, rel=1e-12)
    name, eps, arm, m, se, th = case  # unpacks as a tuple
    assert (name, eps, arm, m, se, th) == ("CTB", 1.0, 0, 0.6, 0.01, 0.58)


def test_output_means_order_of_draws_and_closed_forms():
    inst = ldp.make_instance("bernoulli", means=[0.9, 0.2])
    n = 2000
    means = report.output_means(inst, [0, 1], [1.0], n, np.random.default_rng(3))
    assert [(c.curator, c.eps, c.arm) for c in means] == [
        ("CTB", 1.0, 0),
        ("CTL", 1.0, 0),
        ("CTB", 1.0, 1),
        ("CTL", 1.0, 1),
    ]
    # Lemma 5: 1/2 + (2 mu - 1)(e - 1)/(2(e + 1)) at eps = 1; CTL: mu
    assert means[0].theory == pytest.approx(0.5 + 0.8 * (E - 1) / (2 * (E + 1)), rel=1e-14)
    assert means[2].theory == pytest.approx(0.5 - 0.6 * (E - 1) / (2 * (E + 1)), rel=1e-14)
    assert (means[1].theory, means[3].theory) == (0.9, 0.2)
    # the same draws by hand: per arm, the rewards, then CTB's responses, then CTL's
    rng = np.random.default_rng(3)
    rewards = inst.sample(0, n, rng)
    ctb = ldp.CTB(1.0).privatize(rewards, rng)
    ctl = ldp.CTL(1.0).privatize(rewards, rng)
    assert means[0].mean == ctb.mean() and means[1].mean == ctl.mean()
    assert means[0].se == ctb.std(ddof=1) / math.sqrt(n)
    assert means[1].se == ctl.std(ddof=1) / math.sqrt(n)


def test_output_means_refuses_a_ctb_response_that_is_not_a_bit(monkeypatch):
    monkeypatch.setattr(report.CTB, "privatize", lambda self, rewards, rng: np.full(len(rewards), 0.5))
    inst = ldp.make_instance("bernoulli", means=[0.9])
    with pytest.raises(RuntimeError, match="other than 0 and 1"):
        report.output_means(inst, [0], [1.0], 10, np.random.default_rng(0))


def test_plot_privacy_losses_draws_the_sweep():
    r = np.linspace(0, 1, 3)
    s = report.exact_loss_sweep([0.5, 1.0], r, np.linspace(-1, 2, 31), privacy_loss_matrix)
    losses = {1.0: privacy_loss_matrix(report.ctl_table(1.0, r, np.linspace(-1, 2, 31)))}
    fig = report.plot_privacy_losses(s, losses, colors=COLORS, eps_colors={1.0: "green"}, theory_style=STYLE)
    left, right = fig.axes
    assert left.get_title() == "exact privacy loss, 3 rewards on [0, 1]"
    assert [line.get_label() for line in left.lines] == ["CTB (exact)", "CTL (exact)", r"Lemmas 2, 5: $\epsilon$"]
    np.testing.assert_allclose(left.lines[0].get_ydata(), [0.5, 1.0], rtol=1e-12)
    # right: the 9 pairs' losses against |r - r'|, e.g. (0, 1) has loss 1 and distance 1
    x, y = right.lines[0].get_data()
    assert len(x) == 9 and right.lines[0].get_label() == r"CTL, $\epsilon$ = 1"
    np.testing.assert_allclose(y, np.asarray(x) * 1.0, atol=1e-12)
    assert right.lines[1].get_ydata().tolist() == [0, 1.0]
    plt.close(fig)


def test_plot_binned_audits_draws_each_epsilon():
    rng = np.random.default_rng(1)
    edges = np.r_[-np.inf, -1.0, 0.0, 1.0, 2.0, np.inf]
    audits = {
        eps: binned_log_ratio(
            ldp.CTL(eps).privatize(np.zeros(500), rng), ldp.CTL(eps).privatize(np.ones(500), rng), edges
        )
        for eps in (0.5, 2.0)
    }
    fig = report.plot_binned_audits(audits, 1.0, 500, eps_colors={0.5: "C0", 2.0: "C1"}, theory_style=STYLE)
    assert len(fig.axes) == 2
    assert fig.axes[1].get_title() == rf"$\epsilon$ = 2: largest |log-ratio| ≥ {audits[2.0].max_lower:.3f}"
    assert fig._suptitle.get_text() == (
        "CTL outputs for r = 0 vs r = 1: 500 samples each, 95% simultaneous intervals "
        "(outermost points: the two tail bins)"
    )
    # the tail bins sit 2.5 widths outside the inner edges -1 and 2, the inner bins at their middles
    np.testing.assert_allclose(fig.axes[0].lines[0].get_xdata(), [-3.5, -0.5, 0.5, 1.5, 4.5])
    plt.close(fig)


def test_plot_output_means_draws_every_case():
    inst = ldp.make_instance("bernoulli", means=[0.9, 0.6])
    means = [
        report.OutputMean("CTB", 1.0, 0, 0.70, 0.01, 0.68),
        report.OutputMean("CTL", 1.0, 0, 0.88, 0.01, 0.90),
        report.OutputMean("CTB", 1.0, 1, 0.55, 0.01, 0.55),
        report.OutputMean("CTL", 1.0, 1, 0.63, 0.01, 0.60),
    ]
    fig = report.plot_output_means(
        means, inst, [0, 1], "a title", colors=COLORS, eps_colors={1.0: "k"}, theory_style=STYLE
    )
    ctb, ctl, z = fig.axes
    assert fig._suptitle.get_text() == "a title"
    # the closed forms: Lemma 5's mu_a,eps for CTB, the identity for CTL, at mu = 0.45 and 0.95
    np.testing.assert_allclose(ctb.lines[0].get_ydata(), ldp.CTB(1.0).output_mean(np.array([0.45, 0.95])))
    assert ctl.lines[0].get_ydata().tolist() == [0.45, 0.95]
    assert [line.get_ydata()[0] for line in ctb.lines[1:]] == [0.70, 0.55]
    # z-scores (empirical - theory) / se: 2, -2, 0, 3, coloured by curator
    np.testing.assert_allclose([line.get_ydata()[0] for line in z.lines[:4]], [2.0, -2.0, 0.0, 3.0], atol=1e-9)
    assert [line.get_color() for line in z.lines[:2]] == ["red", "blue"]
    plt.close(fig)


def test_audit_bin_edges_by_hand():
    """Inner edges of width 0.1 from -1 to 2 (rounded: 0.30000000000000004 is 0.3), two tails; hi is an edge."""
    edges = report.audit_bin_edges(-1.0, 2.0, 0.1)
    assert edges[0] == -np.inf and edges[-1] == np.inf and edges.size == 31 + 2
    assert edges[1] == -1.0 and edges[-2] == 2.0 and 0.3 in edges.tolist() and (np.diff(edges) > 0).all()
    assert report.audit_bin_edges(0.0, 1.0, 0.5).tolist() == [-np.inf, 0.0, 0.5, 1.0, np.inf]
