"""ldpcode.linear_fit (least squares with R^2, Figure 2 of Ren et al., extended version), checked
against values computed by hand."""

import numpy as np
import pytest

import ldpcode as ldp


def test_hand_example():
    # x = 0, 1, 2, 3; y = 1, 3, 2, 6. x̄ = 1.5, ȳ = 3; Sxx = 5, Sxy = (-1.5)(-2) + (-0.5)(0) + 0.5(-1) + 1.5(3) = 7,
    # a = 7/5 = 1.4, b = 3 - 1.4 * 1.5 = 0.9; fitted 0.9, 2.3, 3.7, 5.1; residuals 0.1, 0.7, -1.7, 0.9,
    # SSE = 0.01 + 0.49 + 2.89 + 0.81 = 4.2, SST = 4 + 0 + 1 + 9 = 14, R^2 = 1 - 4.2/14 = 0.7.
    fit = ldp.linear_fit([0, 1, 2, 3], [1, 3, 2, 6])
    assert fit.slope == pytest.approx(1.4, abs=1e-12)
    assert fit.intercept == pytest.approx(0.9, abs=1e-12)
    assert fit.r2 == pytest.approx(0.7, abs=1e-12)
    assert fit.n == 4
    assert fit.predict(10) == pytest.approx(14.9)


def test_exact_line_and_anticorrelated():
    fit = ldp.linear_fit([1.0, 2.0, 4.0], [-1.0, -3.0, -7.0])  # y = -2x + 1
    assert (fit.slope, fit.intercept, fit.r2) == pytest.approx((-2.0, 1.0, 1.0))


def test_r2_is_squared_correlation():
    rng = np.random.default_rng(1)
    x = rng.normal(size=30)
    y = 3 * x + rng.normal(size=30)
    assert ldp.linear_fit(x, y).r2 == pytest.approx(np.corrcoef(x, y)[0, 1] ** 2, rel=1e-12)


@pytest.mark.parametrize(
    "x, y, word",
    [
        ([1, 2], [1, 2], "at least 3"),
        ([1, 2, 3, 4], [1, 2, 3], "same length"),
        ([1, 1, 1], [1, 2, 3], "x must not be constant"),
        ([1, 2, 3], [5, 5, 5], "y must not be constant"),
        ([1, np.nan, 3], [1, 2, 3], "finite"),
        ([[1, 2, 3]], [1, 2, 3], "1-d"),
    ],
)
def test_bad_input(x, y, word):
    with pytest.raises(ValueError, match=word):
        ldp.linear_fit(x, y)


def test_fit_panel_draws_the_fitted_line():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    fit = ldp.plotting.fit_panel(ax, [0, 1, 2, 3], [1, 3, 2, 6], se=[0.1, 0.1, 0.1, 0.1], annotate=list("abcd"))
    assert (fit.slope, fit.intercept) == pytest.approx((1.4, 0.9))
    line = [l for l in ax.lines if l.get_linestyle() == "--"][0]
    assert np.allclose(line.get_xdata(), [0, 3]) and np.allclose(line.get_ydata(), [0.9, 5.1])
    assert "R² = 0.7000" in line.get_label()
    with pytest.raises(ValueError, match="annotate"):
        ldp.plotting.fit_panel(ax, [0, 1, 2], [1, 2, 4], annotate=["a"])
    plt.close(fig)


def test_relative_panel_divides_by_minimum():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ldp.plotting.relative_panel(
        ax,
        [1, 2, 4],
        [30.0, 10.0, 20.0],
        se=[1.0, 1.0, 1.0],
        curves={"V": ([1, 2, 3], [8.0, 4.0, np.inf])},
        marks={"heuristic": 2.0},
    )
    pts = ax.lines[0]
    assert np.allclose(pts.get_ydata(), [3.0, 1.0, 2.0])  # 30/10, 10/10, 20/10
    v = [l for l in ax.lines if l.get_label() == "V"][0]
    assert np.allclose(v.get_xdata(), [1, 2]) and np.allclose(v.get_ydata(), [2.0, 1.0])  # inf skipped
    assert any(l.get_label() == "heuristic: 2" for l in ax.lines)
    with pytest.raises(ValueError, match="y must be finite and > 0"):
        ldp.plotting.relative_panel(ax, [1, 2], [0.0, 1.0])
    plt.close(fig)
