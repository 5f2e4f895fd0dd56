"""The book's figure formatter (ldpcode.plotting.figure_png): every figure is shown with no font below 9 CSS px
in the 688 px text column, and its PNG records the dpi and its smallest font for the page test to read."""

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from ldpcode import plotting  # noqa: E402
from ldpcode.claims import format_horizon  # noqa: E402


def _shown_px(png: bytes) -> float:
    """The smallest font as the book shows the PNG: at most COLUMN_PX wide, s pt at d dpi = s·d/72 image px."""
    im = Image.open(io.BytesIO(png))
    pt, dpi = float(im.info[plotting.FONT_KEY]), im.info["dpi"][0]
    return pt * dpi / 72 * min(1.0, plotting.COLUMN_PX / im.width)


@pytest.mark.parametrize("width", [4.0, 7.5, 10.0, 12.0, 16.0])
def test_wide_figures_with_tiny_fonts_show_at_9px(width):
    fig, ax = plt.subplots(figsize=(width, 3))
    ax.plot([1, 2], [3, 4], label="a line")
    ax.legend(fontsize="xx-small")
    ax.set_title("T = " + format_horizon(10**6, mathtext=True), fontsize=5)
    ax.annotate("note", (1.5, 3.5), fontsize=4)
    png = plotting.figure_png(fig)
    plt.close(fig)
    assert _shown_px(png) >= plotting.MIN_FONT_PX - 0.05


def test_a_legend_outside_the_axes_widens_the_figure_and_is_still_legible():
    """The tight box is wider than the figure here; the saved PNG's own width decides the floor."""
    fig, ax = plt.subplots(figsize=(9.5, 3))
    ax.plot([1, 2], [3, 4], label="a rather long label for a line")
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize="x-small")
    png = plotting.figure_png(fig)
    plt.close(fig)
    assert Image.open(io.BytesIO(png)).width > 9.5 * plotting.DPI
    assert _shown_px(png) >= plotting.MIN_FONT_PX


def test_fonts_already_large_enough_are_left_alone():
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.set_title("title", fontsize=14)
    ax.set_xlabel("x", fontsize=12)
    ax.tick_params(labelsize=10)
    smallest = plotting.legible(fig)
    plt.close(fig)
    assert smallest == pytest.approx(10.0)
    assert fig.axes[0].title.get_fontsize() == 14


def test_the_record_is_in_the_png():
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.plot([0, 1])
    im = Image.open(io.BytesIO(plotting.figure_png(fig)))
    plt.close(fig)
    assert plotting.FONT_KEY in im.info and round(im.info["dpi"][0]) == plotting.DPI
    assert "Software" not in im.info  # no version string: the same figure gives the same bytes


def test_horizons_are_typeset_by_mathtext():
    assert format_horizon(10**6, mathtext=True) == "$10^{6}$"
    assert format_horizon(10**3, mathtext=True) == "$10^{3}$"
    assert format_horizon(16000, mathtext=True) == "16,000"
    assert format_horizon(2 * 10**5, mathtext=True) == "200,000"
    assert not hasattr(plotting, "format_horizon")  # one formatter, one address: ldpcode.claims.format_horizon


def _legend_over_a_point(loc: str, *, scatter: bool = False, line_only: bool = False):
    """Points along a diagonal with one at the top left corner, and a legend at ``loc``."""
    fig, ax = plt.subplots(figsize=(5, 3))
    xs, ys = [0.05, 0.5, 0.95], [0.95, 0.5, 0.05]
    if line_only:
        ax.plot(xs, ys, "-", label="a curve, no markers")
    elif scatter:
        ax.scatter(xs, ys, label="points")
    else:
        ax.plot(xs, ys, "o", label="points")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc=loc, fontsize="small")
    return fig


@pytest.mark.parametrize("scatter", [False, True], ids=["plot markers", "scatter"])
def test_a_legend_over_a_marker_is_counted_and_recorded_in_the_png(scatter):
    """The point at (0.05, 0.95) sits under a legend at the upper left, and none under one at the upper right; a
    line without markers behind a legend is not a hidden point (a curve stays readable around it)."""
    over = _legend_over_a_point("upper left", scatter=scatter)
    plotting.legible(over)
    assert plotting.hidden_by_legend(over) == 1
    assert Image.open(io.BytesIO(plotting.figure_png(over))).info[plotting.HIDDEN_KEY] == "1"
    clear = _legend_over_a_point("upper right", scatter=scatter)
    plotting.legible(clear)
    assert plotting.hidden_by_legend(clear) == 0
    curve = _legend_over_a_point("upper left", line_only=True)
    plotting.legible(curve)
    assert plotting.hidden_by_legend(curve) == 0
    plt.close("all")


def test_a_legend_over_the_axis_label_is_counted():
    """A legend moved just below its axes lands on the x label and the tick labels: they count, and one placed
    further down does not."""
    counts = {}
    for below in (-0.05, -0.45):
        fig, ax = plt.subplots(figsize=(5, 3))
        ax.plot([0, 1], [0, 1], "-", label="a curve")
        ax.set_xlabel("the x label")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, below))
        plotting.legible(fig)
        counts[below] = plotting.hidden_by_legend(fig)
        plt.close(fig)
    assert counts[-0.05] >= 1 and counts[-0.45] == 0, counts


@pytest.mark.parametrize("loc", ["upper left", "lower right", "center"])
def test_the_share_of_a_curve_under_a_legend_is_its_length_inside_the_box(loc):
    """A straight curve of 400 points from the upper left to the lower right corner passes under a legend in
    either corner or in the centre: the share is the fraction of its evenly spaced points inside the legend's box
    (to 1 %), and the PNG records it. A reference line of two points under the same legend does not count."""
    import numpy as np

    fig, ax = plt.subplots(figsize=(5, 3))
    x = np.linspace(0, 1, 400)
    ax.plot(x, 1 - x, "-", label="a curve")
    ax.plot([0, 1], [0.5, 0.5], "--", label="a reference")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc=loc)
    plotting.legible(fig)
    box = ax.get_legend().get_window_extent()
    xy = ax.transData.transform(np.column_stack([x, 1 - x]))
    inside = ((xy[:, 0] > box.x0) & (xy[:, 0] < box.x1) & (xy[:, 1] > box.y0) & (xy[:, 1] < box.y1)).mean()
    share = plotting.legend_line_cover(fig)
    assert inside > 0.05 and share == pytest.approx(inside, abs=0.01)
    assert plotting.legend_line_cover(fig, details=True) == [f"{share:.0%} of 'a curve' in the axes titled ''"]
    png = Image.open(io.BytesIO(plotting.figure_png(fig)))
    assert float(png.info[plotting.COVER_KEY]) == pytest.approx(share, abs=0.006)
    plt.close(fig)


def test_a_legend_beside_every_curve_covers_none_of_it():
    """A legend in the upper right, above a curve along the bottom, and one below the axes: share 0; a figure
    without a legend: 0."""
    for where in ({"loc": "upper right"}, {"loc": "upper center", "bbox_to_anchor": (0.5, -0.3)}, None):
        fig, ax = plt.subplots(figsize=(5, 3))
        ax.plot([0, 0.5, 1], [0.05, 0.1, 0.05], "-", label="low")
        ax.set_ylim(0, 1)
        if where is not None:
            ax.legend(**where)
        plotting.legible(fig)
        assert plotting.legend_line_cover(fig) == 0.0, where
        plt.close(fig)


def test_the_page_audit_reads_the_keys_the_figures_write():
    """tests/book/page_audit.py runs without ldpcode (as a script over any built book): its copies of the PNG keys
    and of the font floor are the plotting module's."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "book" / "page_audit.py"
    spec = importlib.util.spec_from_file_location("page_audit_keys", path)
    audit = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = audit  # its dataclasses look their module up there
    spec.loader.exec_module(audit)
    assert (audit.FONT_KEY, audit.HIDDEN_KEY, audit.COVER_KEY, audit.UNDERSCORE_KEY, audit.MIN_FONT_PX) == (
        plotting.FONT_KEY,
        plotting.HIDDEN_KEY,
        plotting.COVER_KEY,
        plotting.UNDERSCORE_KEY,
        plotting.MIN_FONT_PX,
    )


@pytest.mark.parametrize(
    "text, shown",
    [
        ("ε_min = 0.2", r"$\epsilon_{\min}$ = 0.2"),
        ("HeLDP-UCB-BS, ε_t ≡ ε_min = 1", r"HeLDP-UCB-BS, $\epsilon_t$ ≡ $\epsilon_{\min}$ = 1"),
        ("V_L and V_B", "$V_L$ and $V_B$"),
        ("R_L(T), x_10, d_inf", r"$R_L$(T), $x_{10}$, $d_{\inf}$"),
        ("Δ_a over σ_2", r"$\Delta_a$ over $\sigma_2$"),
        ("c_ε(A, θ), x_εa", r"$c_\epsilon$(A, θ), $x_{\epsilon a}$"),
        ("max_lower, eps_min", "max_lower, eps_min"),  # a name as the code spells it: left, and counted
        ("R_HeLDP-UCB-BS(t)", "R_HeLDP-UCB-BS(t)"),  # a policy's name is no subscript: left, and counted
        (r"$\epsilon_{\min}$ = 1, ε_t", r"$\epsilon_{\min}$ = 1, $\epsilon_t$"),  # mathtext stays as written
        ("costs $5 at x_1", "costs $5 at x_1"),  # one $: not mathtext, left alone
        ("T = 10⁶, no subscript", "T = 10⁶, no subscript"),
    ],
)
def test_a_symbols_subscript_is_set_as_mathtext(text, shown):
    assert plotting.math_subscripts(text) == shown
    assert plotting.math_subscripts(shown) == shown  # once is enough


def test_a_text_that_is_no_str_is_refused():
    with pytest.raises(TypeError, match="text must be a str .*got int"):
        plotting.math_subscripts(5)


def test_the_png_records_the_texts_that_still_show_an_underscore():
    """figure_png sets ε_min as mathtext in every text (title, label, legend) and counts what it cannot set: a name
    as the code spells it. The page test fails on any (tests/book/test_book_pages.py)."""
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.plot([1, 2], [3, 4], label="eps_min = 0.5")
    ax.plot([1, 2], [4, 3], label="ε_min = 0.5")
    ax.legend()
    ax.set_title("constant levels ε = ε_min")
    ax.set_xlabel("ε_t")
    before = ["constant levels ε = ε_min", "eps_min = 0.5", "ε_min = 0.5", "ε_t"]
    assert sorted(plotting.raw_underscores(fig)) == before
    png = plotting.figure_png(fig)
    assert Image.open(io.BytesIO(png)).info[plotting.UNDERSCORE_KEY] == "1"
    assert ax.get_title() == r"constant levels ε = $\epsilon_{\min}$" and ax.get_xlabel() == r"$\epsilon_t$"
    assert plotting.raw_underscores(fig) == ["eps_min = 0.5"]
    plt.close(fig)
    clean, ax = plt.subplots(figsize=(5, 3))
    ax.plot([1, 2], [3, 4])
    ax.set_title("no subscript at all")
    assert Image.open(io.BytesIO(plotting.figure_png(clean))).info[plotting.UNDERSCORE_KEY] == "0"
    plt.close(clean)


def test_tick_labels_set_by_hand_get_their_subscripts_too():
    """Before: set_xticklabels(["ε_min = 0.2"]) showed the underscore (each draw re-reads the tick formatter, after
    figure_png had set the text) and the PNG counted 0 raw underscores (heldp/unbiasing_map_g)."""
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.plot([0, 1], [3, 4])
    ax.set_xticks([0, 1])
    ax.set_xticklabels(["ε = 1", "discrete\nε_min = 0.2"])
    png = plotting.figure_png(fig)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["ε = 1", "discrete\n$\\epsilon_{\\min}$ = 0.2"]
    assert Image.open(io.BytesIO(png)).info[plotting.UNDERSCORE_KEY] == "0"
    ax.set_xticks([0])
    ax.set_xticklabels(["eps_min"])  # a name as the code spells it is counted
    assert Image.open(io.BytesIO(plotting.figure_png(fig))).info[plotting.UNDERSCORE_KEY] == "1"
    plt.close(fig)


def test_guide_key_is_a_dashed_entry_that_draws_no_data():
    import matplotlib.pyplot as plt

    from ldpcode.plotting import guide_key

    fig, ax = plt.subplots()
    try:
        ax.plot([1, 2], [1, 4], label="curve")
        key = guide_key(ax, "dashed: the bound", color="k")
        assert key.get_xdata().size == 0 and key.get_linestyle() == "--" and key.get_color() == "k"
        assert ax.get_legend_handles_labels()[1] == ["curve", "dashed: the bound"]
        assert guide_key(ax, "grey").get_color() == "0.45"
    finally:
        plt.close(fig)
