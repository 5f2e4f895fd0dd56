"""The book's look: one seaborn theme, the figures' legibility at the text column's width, one colour per ε and
per algorithm, and the papers' log-log axes."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt

from ..claims.tables import format_number
from ..policies import POLICY_COLORS  # noqa: F401 (the registry's colours, the same dict: ldp.plotting.POLICY_COLORS)

THEORY_STYLE = dict(linestyle="--", linewidth=1.2, alpha=0.9)


#: the width of the book's text column at 1280 px (sphinx-book-theme), in CSS pixels: a figure wider than this
#: is shown scaled down to it, and its fonts with it. The column measures 687-688 px; 684 leaves the fonts a
#: little room above the floor rather than landing on it to the last sub-pixel
COLUMN_PX = 684
#: the smallest font a reader is shown, in CSS pixels, as displayed (tests/book/test_book_pages.py measures it)
MIN_FONT_PX = 9
#: the PNG text key under which :func:`figure_png` records the figure's smallest font, in points
FONT_KEY = "ldp-min-font-pt"
#: the PNG text key of the book's figures: how many markers and texts a legend hides (:func:`hidden_by_legend`)
HIDDEN_KEY = "ldp-hidden-by-legend"
#: the PNG text key of the book's figures: the largest share of a curve's length under a legend
#: (:func:`legend_line_cover`), to two decimals
COVER_KEY = "ldp-legend-line-cover"
#: the PNG text key of the book's figures: how many of their texts still write an underscore outside mathtext
#: (:func:`raw_underscores`), after :func:`math_subscripts` has set every one-letter symbol's subscript
UNDERSCORE_KEY = "ldp-raw-underscores"
DPI = 90


def use_theme() -> None:
    """The book's seaborn theme (white grid, colour-blind-safe palette, readable sizes); in a notebook, its
    figures are shown through :func:`figure_png`, so none carries a font below 9 px in the book's column."""
    import seaborn as sns

    sns.set_theme(context="notebook", style="whitegrid", palette="colorblind")
    plt.rcParams.update({"figure.dpi": DPI, "savefig.dpi": DPI, "legend.fontsize": "small", "axes.titlesize": "medium"})
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with the notebook stack
        return
    shell = get_ipython()
    if shell is not None and hasattr(shell, "display_formatter"):
        import matplotlib
        from matplotlib.figure import Figure

        # load the backend now: matplotlib-inline registers its own PNG formatter when its backend loads,
        # which would otherwise happen at the first figure and replace the one below
        plt.switch_backend(matplotlib.get_backend())

        shell.display_formatter.formatters["image/png"].for_type(Figure, _png_base64)


def _texts(fig):
    from matplotlib.text import Text

    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


#: the TeX names of the Greek letters the book's figures write (ε_min -> $\epsilon_{\min}$)
_GREEK_TEX = dict(
    zip(
        "αβγδΔεζηθκλμνξπρσΣτφχψω",
        r"""\alpha \beta \gamma \delta \Delta \epsilon \zeta \eta \theta
    \kappa \lambda \mu \nu \xi \pi \rho \sigma \Sigma \tau \phi \chi \psi \omega""".split(),
    )
)
#: subscripts that TeX sets upright, as operators
_OPERATOR_SUB = {"min": r"\min", "max": r"\max", "inf": r"\inf", "sup": r"\sup"}
#: a one-letter symbol (not the end of a longer name: ``max_lower``, ``eps_min`` stay) and its subscript (not the
#: start of a hyphenated name: ``R_HeLDP-UCB-BS`` stays, to be written another way)
_SUBSCRIPT = re.compile(r"(?<![\w\\])([^\W\d_])_([^\W_]++)(?!-\w)")  # ++: no backtracking into a name


def _outside_math(text: str) -> list[str]:
    """``text`` split at its ``$...$`` spans: the even items lie outside mathtext, the odd ones are the spans."""
    return re.split(r"(\$[^$]*\$)", text)


def math_subscripts(text: str) -> str:
    r"""``text`` with each one-letter symbol's subscript set as mathtext instead of an underscore: ``ε_min`` ->
    ``$\epsilon_{\min}$``, ``ε_t`` -> ``$\epsilon_t$``, ``V_L`` -> ``$V_L$``, ``c_ε`` -> ``$c_\epsilon$``. A longer
    name (``max_lower``), a text already in mathtext, and a text with an odd number of ``$`` (a price, not mathtext)
    are left as they are. A str is required (TypeError otherwise)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str (a title, label or legend entry), got {type(text).__name__}")
    if "_" not in text or text.count("$") % 2:
        return text
    parts = _outside_math(text)

    def tex(m: re.Match) -> str:
        symbol = _GREEK_TEX.get(m[1], m[1])
        sub = _OPERATOR_SUB.get(m[2]) or "".join(_GREEK_TEX[c] + " " if c in _GREEK_TEX else c for c in m[2]).strip()
        return f"${symbol}_{{{sub}}}$" if len(m[2]) > 1 else f"${symbol}_{sub}$"

    parts[::2] = [_SUBSCRIPT.sub(tex, p) for p in parts[::2]]
    return "".join(parts)


def raw_underscores(fig) -> list[str]:
    """The texts of ``fig`` (titles, labels, legend entries, annotations, ticks) that show an underscore outside
    mathtext: a name as the code spells it (``eps_min``, ``max_lower``), where the reader expects the symbol."""
    return [t.get_text() for t in _texts(fig) if "_" in "".join(_outside_math(t.get_text())[::2])]


def _floor_pt(width_px: float, *, column_px: float, min_px: float, dpi: float) -> float:
    """The smallest font, in points, that shows at ``min_px`` CSS px in a figure ``width_px`` pixels wide at ``dpi``,
    shown at most ``column_px`` wide: s pt are s·dpi/72 image px, scaled by min(1, column_px/width_px)."""
    return min_px * 72 / dpi / min(1.0, column_px / width_px)


def legible(fig, *, column_px: int = COLUMN_PX, min_px: float = MIN_FONT_PX, dpi: float = DPI) -> float:
    """Raise every font of ``fig`` that would show below ``min_px`` CSS pixels when the saved figure (tight
    bounding box, ``dpi``) is shown at most ``column_px`` wide; return the smallest font, in points.

    A figure of width W inches is shown at ``min(1, column_px / (W·dpi))`` of its natural size, so a font
    of s points shows at ``s·dpi/72·min(1, column_px/(W·dpi))`` px. The floor is recomputed after each
    raise (larger fonts may widen the tight box) until no font is below it.
    """
    for _ in range(4):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        width_in = fig.get_tightbbox(renderer).width + 0.2  # savefig's pad_inches = 0.1 on each side
        floor = _floor_pt(width_in * dpi, column_px=column_px, min_px=min_px, dpi=dpi)
        small = [t for t in _texts(fig) if t.get_fontsize() < floor - 1e-9]
        if not small:
            break
        for t in small:
            t.set_fontsize(floor)
    return min((t.get_fontsize() for t in _texts(fig)), default=float("inf"))


def hidden_by_legend(fig, *, details: bool = False):
    """How many things a legend of ``fig`` hides: data markers (the points of every line drawn with a marker and of
    every scatter, shown inside their axes) whose centre lies inside the box of a legend of the same axes or of the
    figure, and texts (axis labels, tick labels, titles) whose box meets a legend's. A reader can see neither;
    lines passing behind a legend are not counted (a curve stays readable around it). Reads the last draw
    (:func:`legible` draws the figure). Returns the count (markers and texts), or with ``details=True`` one line per
    series or text hidden (an author's view of what the page test counts)."""
    import numpy as np
    from matplotlib.collections import PathCollection

    legends, boxes, mine_of = _legend_boxes(fig)
    if not legends:
        return [] if details else 0
    own = {id(t) for leg in legends for t in leg.findobj(lambda a: True)}
    found = []
    for ax in fig.axes:
        mine = mine_of(ax)
        frame = ax.get_window_extent()
        points = [
            (line.get_label(), line.get_transform().transform(line.get_xydata()))
            for line in ax.get_lines()
            if line.get_visible() and line.get_marker() not in (None, "None", "", " ") and len(line.get_xydata())
        ]
        points += [
            (c.get_label(), c.get_offset_transform().transform(c.get_offsets()))
            for c in ax.collections
            if isinstance(c, PathCollection) and c.get_visible() and len(c.get_offsets())
        ]
        for label, xy in points:
            xy = np.asarray(xy, dtype=float).reshape(-1, 2)
            shown = np.isfinite(xy).all(axis=1) & (xy[:, 0] >= frame.x0) & (xy[:, 0] <= frame.x1)
            shown &= (xy[:, 1] >= frame.y0) & (xy[:, 1] <= frame.y1)
            for box in mine:
                inside = (xy[:, 0] > box.x0) & (xy[:, 0] < box.x1) & (xy[:, 1] > box.y0) & (xy[:, 1] < box.y1)
                n = int((shown & inside).sum())
                if n:
                    found.append((n, f"{n} marker(s) of {label!r} in the axes titled {ax.get_title()!r}"))
    renderer = fig.canvas.get_renderer()
    undrawn = _undrawn_tick_labels(fig)
    for text in _texts(fig):
        if id(text) in own or id(text) in undrawn:
            continue
        extent = text.get_window_extent(renderer)
        found += [(1, f"the text {text.get_text()!r}") for box in boxes.values() if extent.overlaps(box)]
    return [what for _, what in found] if details else sum(n for n, _ in found)


def _undrawn_tick_labels(fig) -> set:
    """The ids of the tick labels matplotlib keeps but does not draw, their tick outside the axis' view (the "10^2" of a
    log axis that ends at 30): visible as Text objects, at a stale place, where they met the legend of the panel
    above and were counted as hidden by it."""
    import numpy as np

    out = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            slack = 1e-9 * max(abs(lo), abs(hi), 1e-300)
            for tick in [*axis.get_major_ticks(), *axis.get_minor_ticks()]:
                loc = tick.get_loc()
                if loc is not None and np.isfinite(loc) and not lo - slack <= loc <= hi + slack:
                    out |= {id(tick.label1), id(tick.label2)}
    return out


def _legend_boxes(fig):
    """The visible legends of ``fig`` (its own and its axes'), their boxes on the last draw keyed by ``id``, and a
    function giving the boxes that can cover an axes' data: its own legend's and the figure's."""
    legends = [
        leg for leg in [*fig.legends, *(ax.get_legend() for ax in fig.axes)] if leg is not None and leg.get_visible()
    ]
    boxes = {id(leg): leg.get_window_extent() for leg in legends}

    def mine_of(ax):
        return [boxes[id(leg)] for leg in [ax.get_legend(), *fig.legends] if leg is not None and id(leg) in boxes]

    return legends, boxes, mine_of


def _inside(p0, p1, box):
    """The share of each segment ``p0[i]``-``p1[i]`` (display coordinates, arrays of shape (n, 2)) that lies inside
    the rectangle ``box`` (x0, y0, x1, y1): Liang-Barsky clipping, one interval of the segment's parameter each."""
    import numpy as np

    lo, hi = np.zeros(len(p0)), np.ones(len(p0))
    d = p1 - p0
    for k, (a, b) in enumerate(((box[0], box[2]), (box[1], box[3]))):
        with np.errstate(divide="ignore", invalid="ignore"):
            ta, tb = (a - p0[:, k]) / d[:, k], (b - p0[:, k]) / d[:, k]
        flat = d[:, k] == 0
        out = flat & ((p0[:, k] < a) | (p0[:, k] > b))
        lo = np.where(flat, lo, np.maximum(lo, np.minimum(ta, tb)))
        hi = np.where(flat, hi, np.minimum(hi, np.maximum(ta, tb)))
        hi = np.where(out, 0.0, hi)
    return np.clip(hi - lo, 0.0, 1.0)


def drawn_segments(line):
    """The segments ``line`` draws, in display pixels, as two arrays (starts, ends) of shape (n, 2): none for a line
    that is hidden or has no line style (markers alone); a segment with an end that is not finite (NaN, or a
    non-positive value on a log axis) is not drawn."""
    import numpy as np

    if not line.get_visible() or line.get_linestyle() in ("None", "", " ") or len(line.get_xydata()) < 2:
        return np.empty((0, 2)), np.empty((0, 2))
    with np.errstate(invalid="ignore"):
        xy = np.asarray(line.get_transform().transform(line.get_xydata()), dtype=float)
    keep = np.isfinite(xy[:-1]).all(axis=1) & np.isfinite(xy[1:]).all(axis=1)
    return xy[:-1][keep], xy[1:][keep]


def legend_line_cover(fig, *, details: bool = False):
    """The largest share of a curve's drawn length (inside its axes) that lies under a legend of the same axes or
    of the figure: 0 when no legend meets a curve, 1 when one hides a whole curve. A curve is a line with a line
    style and at least three points (a straight reference line of two points stays readable however much of it
    a legend covers). Reads the last draw. With ``details=True``, one line per curve under a legend."""
    import numpy as np

    _, _, mine_of = _legend_boxes(fig)
    worst, found = 0.0, []
    for ax in fig.axes:
        mine = mine_of(ax)
        if not mine:
            continue
        f = ax.get_window_extent()
        frame = (f.x0, f.y0, f.x1, f.y1)
        for line in ax.get_lines():
            if len(line.get_xydata()) < 3:
                continue
            p0, p1 = drawn_segments(line)
            length = np.hypot(*(p1 - p0).T)
            shown = (length * _inside(p0, p1, frame)).sum()
            if shown <= 0:
                continue
            for b in mine:
                both = (max(b.x0, frame[0]), max(b.y0, frame[1]), min(b.x1, frame[2]), min(b.y1, frame[3]))
                share = (
                    float((length * _inside(p0, p1, both)).sum() / shown)
                    if both[0] < both[2] and both[1] < both[3]
                    else 0.0
                )
                if share > 0:
                    found.append(f"{share:.0%} of {line.get_label()!r} in the axes titled {ax.get_title()!r}")
                worst = max(worst, share)
    return found if details else worst


def figure_png(fig, *, dpi: float = DPI, column_px: int = COLUMN_PX, min_px: float = MIN_FONT_PX) -> bytes:
    """The PNG the book shows for ``fig``: its subscripts set as mathtext (:func:`math_subscripts`, on every text),
    made :func:`legible`, a tight bounding box, ``dpi`` recorded in the PNG, the smallest font (points) under the
    text key ``FONT_KEY``, what a legend hides (:func:`hidden_by_legend`) under ``HIDDEN_KEY``, how much of a curve
    (:func:`legend_line_cover`) under ``COVER_KEY`` and how many texts still show an underscore
    (:func:`raw_underscores`) under ``UNDERSCORE_KEY``, which the page test reads.

    The saved PNG's own width decides: if its smallest font would still show below ``min_px`` (the tight
    box came out wider than :func:`legible` estimated), the fonts are raised to that floor and it is saved
    again."""
    import io

    from PIL import Image

    from matplotlib.ticker import FixedLocator

    for t in _texts(fig):
        t.set_text(math_subscripts(t.get_text()))
    # tick labels set by hand: each draw re-reads them from the axis' formatter, so "ε_min = 0.2" set as a Text above
    # came back raw (and uncounted); they are set again, converted, on the axis itself
    fixed = [a for ax in fig.axes for a in (ax.xaxis, ax.yaxis) if isinstance(a.get_major_locator(), FixedLocator)]
    if fixed:
        fig.canvas.draw()
        for axis in fixed:
            labels = [t.get_text() for t in axis.get_majorticklabels()]
            if any(math_subscripts(s) != s for s in labels):
                axis.set_ticklabels([math_subscripts(s) for s in labels])
    raw = len(raw_underscores(fig))
    smallest = legible(fig, dpi=dpi, column_px=column_px, min_px=min_px)
    hidden, cover = hidden_by_legend(fig), legend_line_cover(fig)  # on legible's last draw
    for _ in range(4):
        buf = io.BytesIO()
        meta = {"Software": None, FONT_KEY: f"{smallest:.3f}", HIDDEN_KEY: str(hidden), COVER_KEY: f"{cover:.2f}",
                UNDERSCORE_KEY: str(raw)}  # fmt: skip
        fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight", metadata=meta)
        width = Image.open(io.BytesIO(buf.getvalue())).width
        floor = _floor_pt(width, column_px=column_px, min_px=min_px, dpi=dpi)
        small = [t for t in _texts(fig) if t.get_fontsize() < floor]
        if not small:
            break
        for t in small:
            t.set_fontsize(floor * 1.005)
        smallest = min(t.get_fontsize() for t in _texts(fig))
    return buf.getvalue()


def _png_base64(fig) -> str:
    import base64

    if not fig.axes and not fig.texts:  # an empty figure shows nothing, as the inline backend does
        return None
    return base64.b64encode(figure_png(fig)).decode("ascii")


def legend_below(ax, *, offset: float, ncol: int = 2, fontsize="x-small", **kwargs):
    """``ax``'s legend centred below it, its top at ``offset`` (axes fraction: below the x label, lower for a taller
    one), in ``ncol`` columns: for a panel whose data leave no corner empty, where an inside legend lies over them.
    Returns the legend."""
    return ax.legend(loc="upper center", bbox_to_anchor=(0.5, offset), ncol=ncol, fontsize=fontsize, **kwargs)


def guide_key(ax, label: str, color="0.45"):
    """A legend entry, a dashed line that draws no data, for guides drawn without entries of their own (a dashed
    bound or rate per curve, in each curve's colour): one key names them all, in the axes' legend. Returns the
    line."""
    (key,) = ax.plot([], [], color=color, linestyle="--", linewidth=1.0, label=label)
    return key


def legend_under_panels(fig, ax, *, ncol: int, space: float, replaces=(), **kwargs):
    """One frameless legend for the whole figure, centred under its panels, with the entries of ``ax``: for panels
    that share their lines and leave no corner empty. The legends of the axes in ``replaces`` are removed, and the
    panels are laid out above a band of height ``space`` (figure fraction) that holds it, so call it once every
    panel is drawn. Returns the legend."""
    handles, labels = ax.get_legend_handles_labels()
    for other in replaces:
        if other.get_legend() is not None:
            other.get_legend().remove()
    legend = fig.legend(handles, labels, loc="lower center", ncol=ncol, frameon=False, **kwargs)
    fig.tight_layout(rect=(0, space, 1, 1))
    return legend


def legend_cell(fig, cell, ax, **kwargs):
    """``ax``'s entries as a frameless legend alone in ``cell``, a slot of ``fig``'s grid (``gridspec[1, :]``), on
    axes that draw nothing: a key under or beside panels that have no room for one. Returns the legend."""
    key = fig.add_subplot(cell)
    key.axis("off")
    return key.legend(*ax.get_legend_handles_labels(), frameon=False, **kwargs)


def epsilon_colors(epsilons) -> dict:
    """A sequential palette keyed by epsilon, darker for more privacy (smaller epsilon): viridis from its darkest end
    to 0.8, evenly spaced (seaborn's viridis of four colours spans only 0.2-0.8, and its two middle shades, #2a788e
    and #22a884, made heldp Figure 1(g)'s four curves one)."""
    import matplotlib
    import numpy as np

    eps = sorted(set(float(e) for e in epsilons))
    cmap = matplotlib.colormaps["viridis"]
    return {e: cmap(x) for e, x in zip(eps, np.linspace(0.0, 0.8, max(len(eps), 2)))}


def plain_log_ticks(axis, values=None) -> None:
    """Label a log ``axis`` (``ax.xaxis`` or ``ax.yaxis``) in plain numbers ("0.2", "5", not "2×10⁻¹"): major ticks
    at ``values`` (a figure's grid, e.g. its ε), or by default at 1, 2 and 5 times each power of ten; minor ticks
    unlabelled. Matplotlib labels only the powers of ten, which leaves a grid of 0.1 to 8 two labels."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter

    if values is None:
        axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    else:
        axis.set_major_locator(FixedLocator(sorted({float(v) for v in values})))
    axis.set_major_formatter(FuncFormatter(lambda v, _: format_number(v)))
    axis.set_minor_formatter(NullFormatter())


def legend_clear_of_texts(ax, locations=("best", "lower right", "center right", "upper left", "lower center")):
    """The legend of ``ax`` at the first of ``locations`` whose box meets none of the axes' texts (the values a
    ratio panel writes on its lines: "best" weighs the curves only, and put the legend of Ren's supplementary
    Fig. 2(d) over "paper 10"); at "best" if every location meets one, or if the axes cannot be drawn yet (a log
    axis with no data on it, as a re-run's tiny horizon below the panel's t_min leaves it)."""
    try:
        ax.figure.canvas.draw()  # the texts where they are drawn
    except ValueError:  # "Data cannot be log-scaled because all values are <= 0"
        return ax.legend(loc="best")
    renderer = ax.figure.canvas.get_renderer()
    boxes = [(t.get_bbox_patch() or t).get_window_extent(renderer) for t in ax.texts]
    for loc in locations:
        legend = ax.legend(loc=loc)
        ax.figure.canvas.draw()
        frame = legend.get_window_extent(renderer)
        if not any(frame.overlaps(b) for b in boxes):
            return legend
    return ax.legend(loc="best")


def paper_axes(ax, *, xlabel="time t (pulls)", ylabel="pseudo-regret R(t)", title=None, loglog=True):
    """Log-log axes labelled as in the papers' figures."""
    if loglog:
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    return ax
