"""ldpcode.audit: the exact privacy-loss matrix of a mechanism and the sample-based binned log-ratio
(Lemmas 2 and 5 of Ren et al. 2020), and ldpcode.plotting.band_curve."""

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from scipy.stats import beta  # noqa: E402

import ldpcode as ldp  # noqa: E402
from ldpcode.audit import binned_log_ratio, privacy_loss_matrix  # noqa: E402


# ---------------------------------------------------------------- privacy_loss_matrix


def test_privacy_loss_matrix_by_hand():
    # rows (1/2, 1/2) and (1/4, 3/4): M01 = max(log 2, log 2/3) = log 2, M10 = max(log 1/2, log 3/2) = log 3/2
    m = privacy_loss_matrix([[0.5, 0.5], [0.25, 0.75]])
    assert m == pytest.approx(np.array([[0.0, math.log(2)], [math.log(1.5), 0.0]]), abs=1e-15)


def test_privacy_loss_matrix_support_mismatch_and_common_zero():
    m = privacy_loss_matrix([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]])
    assert m[0, 1] == pytest.approx(math.log(2))  # the third column (0, 0) is ignored
    assert m[1, 0] == math.inf  # output 2 possible under row 1 only


@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_ctb_loss_is_eps_at_r0_r1(eps):
    # Lemma 5: P{M_B(1)=1}/P{M_B(0)=1} = e^eps exactly; the worst pair on a grid is (0, 1).
    r = np.linspace(0, 1, 11)
    p = ldp.CTB(eps).probability_one(r)
    m = privacy_loss_matrix(np.column_stack([1 - p, p]))
    assert m.max() == pytest.approx(eps, rel=1e-12)
    assert m[0, -1] == pytest.approx(eps, rel=1e-12) and m[-1, 0] == pytest.approx(eps, rel=1e-12)
    assert m[2, 5] < eps


def test_ctl_loss_is_eps_times_distance():
    # Lemma 2: sup_x f(x|r)/f(x|r') = e^{eps |r - r'|}, reached for x <= min(r, r') or x >= max(r, r').
    eps = 0.7
    r = np.array([0.0, 0.3, 1.0])
    x = np.linspace(-2, 3, 501)
    m = privacy_loss_matrix(ldp.CTL(eps).density(x[None, :], r[:, None]))
    assert m == pytest.approx(eps * np.abs(r[:, None] - r[None, :]), abs=1e-12)


@pytest.mark.parametrize("bad", [[1.0, 2.0], [[-0.1, 1.1]], [[np.nan, 1.0]], [[0.0, 0.0], [1.0, 0.0]]])
def test_privacy_loss_matrix_rejects_bad_tables(bad):
    with pytest.raises(ValueError, match="table"):
        privacy_loss_matrix(bad)


# ---------------------------------------------------------------- binned_log_ratio


def test_binned_log_ratio_by_hand():
    # a: three 0s and one 1; b: one 0 and three 1s -> p_a = (3/4, 1/4), p_b = (1/4, 3/4)
    res = binned_log_ratio([0, 0, 0, 1], [0, 1, 1, 1], [-0.5, 0.5, 1.5])
    assert res.counts_a.tolist() == [3, 1] and res.counts_b.tolist() == [1, 3]
    assert res.log_ratio == pytest.approx([math.log(3), -math.log(3)])
    # se^2 = 1/3 - 1/4 + 1/1 - 1/4 = 5/6 in both bins
    assert res.se == pytest.approx([math.sqrt(5 / 6)] * 2)
    assert (res.lower < res.log_ratio).all() and (res.log_ratio < res.upper).all()


def test_binned_log_ratio_clopper_pearson_closed_forms():
    # All 10 a-samples in bin 0, all 10 b-samples in bin 1. Per-interval level l = alpha / (2K) = 0.05 / 4.
    # Clopper-Pearson: n = N gives lower (l/2)^(1/N); n = 0 gives upper 1 - (l/2)^(1/N).
    n, alpha = 10, 0.05
    res = binned_log_ratio(np.zeros(n), np.ones(n), [-0.5, 0.5, 1.5], alpha=alpha)
    l = alpha / 4
    lo_full, hi_empty = (l / 2) ** (1 / n), 1 - (l / 2) ** (1 / n)
    assert res.lower[0] == pytest.approx(math.log(lo_full) - math.log(hi_empty), rel=1e-10)
    assert res.upper[0] == math.inf
    assert res.log_ratio[0] == math.inf and np.isnan(res.se[0])
    assert res.max_lower == pytest.approx(math.log(lo_full / hi_empty), rel=1e-10)
    # A generic count against scipy's beta quantiles.
    res = binned_log_ratio([0, 0, 1, 1, 1], [0, 1, 1, 1, 1], [-0.5, 0.5, 1.5], alpha=0.1)
    l = 0.1 / 4
    lo_a = beta.ppf(l / 2, 2, 4)
    hi_b = beta.ppf(1 - l / 2, 2, 4)
    assert res.lower[0] == pytest.approx(math.log(lo_a / hi_b), rel=1e-12)


def test_binned_log_ratio_tails_outside_edges_and_int_bins():
    # A value outside finite edges is not counted but stays in the total; the last edge is inclusive.
    res = binned_log_ratio([0.0, 1.0, 5.0, 0.2], [0.0, 0.5, 1.0, 1.0], [0.0, 0.5, 1.0])
    assert res.counts_a.tolist() == [2, 1] and res.counts_b.tolist() == [1, 3]
    assert res.log_ratio[0] == pytest.approx(math.log((2 / 4) / (1 / 4)))
    res = binned_log_ratio([0.0, 1.0], [0.0, 3.0], 3)
    assert res.edges == pytest.approx([0.0, 1.0, 2.0, 3.0])
    assert res.counts_a.tolist() == [1, 1, 0] and res.counts_b.tolist() == [1, 0, 1]


def test_binned_log_ratio_on_ctl_stays_below_eps_and_finds_it():
    # CTL responses to r = 0 and r = 1: the true bin log-ratio is exactly eps for bins left of 0,
    # so the lower confidence bound must not exceed eps, and with 2e5 samples it comes close to it.
    eps = 1.0
    rng = np.random.default_rng(5)
    ctl = ldp.CTL(eps)
    a = ctl.privatize(np.zeros(200_000), rng)
    b = ctl.privatize(np.ones(200_000), rng)
    res = binned_log_ratio(a, b, np.r_[-np.inf, np.linspace(-1, 2, 13), np.inf])
    assert res.max_lower <= eps
    assert res.max_lower > 0.85 * eps
    assert abs(res.log_ratio[0] - eps) < 4 * res.se[0]


def test_binned_log_ratio_same_law_gives_small_loss():
    rng = np.random.default_rng(6)
    res = binned_log_ratio(rng.normal(size=50_000), rng.normal(size=50_000), np.linspace(-2, 2, 9))
    assert res.max_lower < 0.05


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(samples_a=[], samples_b=[1.0], bins=3), "samples_a"),
        (dict(samples_a=[1.0], samples_b=[[1.0]], bins=3), "samples_b"),
        (dict(samples_a=[1.0], samples_b=[np.inf], bins=3), "samples_b"),
        (dict(samples_a=[1.0], samples_b=[1.0], bins=[0.0, 0.0, 1.0]), "bins"),
        (dict(samples_a=[1.0], samples_b=[1.0], bins=0), "bins"),
        (dict(samples_a=[1.0], samples_b=[1.0], bins=3, alpha=1.5), "alpha"),
    ],
)
def test_binned_log_ratio_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        binned_log_ratio(**kwargs)


# ---------------------------------------------------------------- plotting.band_curve


def test_band_curve_mean_and_band():
    fig, ax = plt.subplots()
    v = np.array([[1.0, 2.0], [3.0, 6.0]])
    mean = ldp.plotting.band_curve(ax, [10, 100], v, label="x", band=0.95)
    assert mean == pytest.approx([2.0, 4.0])
    assert ax.lines[0].get_ydata() == pytest.approx([2.0, 4.0])
    # half-width 1.96 * sd / sqrt(2): sd = sqrt(2) and 2 sqrt(2) -> 1.96 and 3.92
    verts = ax.collections[0].get_paths()[0].vertices
    assert verts[:, 1].max() == pytest.approx(4.0 + 1.959964 * 2, rel=1e-6)
    with pytest.raises(ValueError, match="values"):
        ldp.plotting.band_curve(ax, [1, 2, 3], v)
    plt.close(fig)
