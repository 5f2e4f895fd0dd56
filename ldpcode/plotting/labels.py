"""Labels written beside the points of a panel (:func:`label_points`), kept apart from one another and off the
points' markers: Figure 2 of the extended version of Ren et al. wrote "g 0.5", "d 1" and "g 1.5" over one another
where its points cluster, and a first layout of the book's wrote them over the neighbouring markers."""

from __future__ import annotations

import numpy as np


#: points a label keeps off the axes' right edge (a label that ended on the spine touched it as drawn)
_EDGE = 3.0


def _stack(targets, gap: float, bottom: float):
    """Heights for labels wanted at ``targets`` (top first), each at least ``gap`` below the one above and none
    below ``bottom``, as close to the targets as can be (least squares): with u_i = p_i - (n - 1 - i) gap the gaps
    say u is non-increasing, an isotonic regression (pool adjacent violators), then clipped at ``bottom``."""
    n = len(targets)
    shift = gap * np.arange(n - 1, -1, -1)
    blocks: list = []  # [sum, count] of pooled targets of u, each block's mean at most the one before
    for s in np.asarray(targets, dtype=float) - shift:
        blocks.append([s, 1])
        while len(blocks) > 1 and blocks[-1][0] / blocks[-1][1] > blocks[-2][0] / blocks[-2][1]:
            s2, c2 = blocks.pop()
            blocks[-1][0] += s2
            blocks[-1][1] += c2
    u = np.concatenate([[sm / c] * c for sm, c in blocks])
    return np.maximum(u, bottom) + shift


def _covered(boxes, xy, radius: float) -> np.ndarray:
    """For each label box (x0, y0, x1, y1), in points, the number of markers (centres ``xy``, disks of ``radius``
    points) it covers: a disk meets a box when its centre is within ``radius`` of the box's nearest point."""
    near_x = np.clip(xy[None, :, 0], boxes[:, None, 0], boxes[:, None, 2])
    near_y = np.clip(xy[None, :, 1], boxes[:, None, 1], boxes[:, None, 3])
    return ((near_x - xy[None, :, 0]) ** 2 + (near_y - xy[None, :, 1]) ** 2 < radius**2).sum(axis=1)


def _segments(ax, scale: float) -> tuple:
    """The drawn segments of the lines of ``ax`` (fits, curves; not markers alone), in points: (starts, ends)."""
    from .theme import drawn_segments

    drawn = [drawn_segments(line) for line in ax.get_lines()]
    return tuple(np.concatenate([np.empty((0, 2)), *(d[k] for d in drawn)]) * scale for k in (0, 1))


def _crossed(boxes, segments) -> int:
    """How many label boxes (x0, y0, x1, y1) a segment of ``segments`` runs through."""
    from .theme import _inside

    starts, ends = segments
    return sum(bool((_inside(starts, ends, box) > 0).any()) for box in boxes) if len(starts) else 0


def label_points(
    ax,
    x,
    y,
    texts,
    *,
    color=None,
    dx: float = 5.0,
    gap: float | None = None,
    width: float = 40.0,
    marker: float = 6.0,
    clear: float = 2.5,
) -> list:
    """Write ``texts`` beside the points (x, y) of ``ax``, each ``dx`` points to the right and a little below.
    Labels side by side (points within ``width`` points of each other across, chained) are one group, and keep
    ``gap`` points apart (default: 1.25 times their x-small font, as the theme sets it), none below the axes, each as
    near its own place as can be (:func:`_stack`). A group's labels go beside their points when every label keeps
    ``clear`` points off every point's marker (a disk ``marker`` points across: a label lifted level with its own
    point, ``dx`` to its right, crowds it) and none of three or more labels moves more than two gaps from its
    place; else in one column right of the group's rightmost point, in the order of their points, so that no
    leader line crosses a label (a second column's lines crossed the first's), or ``width`` further right, up to
    three times, until no line of the axes (a fit) runs through a label either, none past the axes' right edge;
    else in a column left of the group; when none qualifies, the layout with the fewest labels near a marker, on a
    line or past the edge. A column's labels start that clearance right of the rightmost marker. When even that
    layout leaves a label past the axes' right edge (a point at the edge, lines on both sides of it), the x-range
    widens on the right by the overflow and the layout is made again (up to three times; x-limits the caller set
    stay as they are, and when three widenings do not suffice the range and the first layout come back). A
    moved label has a thin line to its point. A point that is not finite (or not on a log axis) gets no label (None
    in its place). Call it once the axes have their data and their layout (it reads their scale; text sizes are
    the font's, whatever the backend). Returns the annotations."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    font = FontProperties(size="x-small")
    sizes = np.array([TextToPath().get_text_width_height_descent(s, font, ismath=False) for s in texts]).reshape(-1, 3)
    gap = 1.25 * font.get_size_in_points() if gap is None else gap
    kw = dict(sizes=sizes.T, dx=dx, gap=gap, width=width, marker=marker, clear=clear)  # text sizes in points, once
    placed, overflow = _layout(ax, x, y, **kw)
    if overflow <= 0 or not ax.get_autoscalex_on():  # x-limits the caller set stay (a point clipped on purpose)
        return _draw(ax, x, y, texts, placed, color)
    first, limits = placed, ax.get_xlim()
    for _ in range(3):  # a label past the right edge in the best layout: widen the x-range by its overflow
        lo, hi = ax.get_xlim()
        span = ax.bbox.width * 72.0 / ax.figure.dpi  # the axes' width in points
        if ax.get_xscale() == "log":
            ax.set_xlim(lo, hi * (hi / lo) ** ((overflow + 2.0) / span))
        else:
            ax.set_xlim(lo, hi + (hi - lo) * (overflow + 2.0) / span)
        placed, overflow = _layout(ax, x, y, **kw)
        if overflow <= 0:
            return _draw(ax, x, y, texts, placed, color)
    ax.set_xlim(*limits)  # three widenings were not enough (a label wider than the axes): the first layout
    ax.set_autoscalex_on(True)
    return _draw(ax, x, y, texts, first, color)


def _layout(ax, x, y, *, sizes, dx, gap, width, marker, clear):
    """The places of :func:`label_points`' labels (left edges and baselines in points, each point's own place,
    which points are shown, their positions) and by how many points the farthest label comes nearer than
    :data:`_EDGE` to the axes' right edge (at most 0 when none does). ``sizes``: the labels' widths, heights and
    descents in points."""
    w, h, descent = sizes
    radius = marker / 2 + clear  # a label's box keeps this far from a marker's centre
    ax.autoscale_view()
    scale = 72.0 / ax.figure.dpi  # display pixels to points
    with np.errstate(invalid="ignore"):
        xy = ax.transData.transform(np.column_stack([x, y])) * scale
    shown = np.isfinite(xy).all(axis=1)
    segments = _segments(ax, scale)
    bottom = ax.bbox.y0 * scale + 4.0  # a label's baseline: its descenders go below it
    own = np.maximum(xy[:, 1] - 10.0, bottom)  # each label's own place: right of its point, a little below
    lx, ty = xy[:, 0] + dx, own.copy()
    order = np.flatnonzero(shown)[np.argsort(xy[shown, 0], kind="stable")]  # side by side, chained along x: a group
    group = np.full(len(x), -1)
    group[order] = np.cumsum(np.diff(xy[order, 0], prepend=xy[order[:1], 0]) >= width)

    def layouts(members):
        """(left edges, baselines, acceptable if it covers no marker) of each layout of the group, in order."""
        right = xy[members, 0].max() + radius + 1.0
        beside = _stack(own[members], gap, bottom)
        moved = len(members) > 2 and np.max(np.abs(beside - own[members])) > 2 * gap
        yield xy[members, 0] + dx, beside, not moved
        for k in range(4):  # in the order of their points (no leader line crosses a label), off the axes' lines
            yield np.full(len(members), right + k * width), beside, True
        yield xy[members, 0].min() - radius - 1.0 - w[members], beside, True  # left of it, ending at one x

    for g in np.unique(group[shown]):
        members = np.flatnonzero(group == g)
        members = members[np.argsort(-own[members], kind="stable")]  # top first
        best = None
        for left, base, acceptable in layouts(members):
            boxes = np.column_stack(
                [left, base - descent[members], left + w[members], base - descent[members] + h[members]]
            )
            covers = int(_covered(boxes, xy[shown], radius).sum()) + _crossed(boxes, segments)
            covers += int((boxes[:, 2] > ax.bbox.x1 * scale - _EDGE).sum())  # a label at or past the right edge
            if best is None or covers < best[2] or (acceptable and covers == 0):
                best = (left, base, covers)
            if acceptable and covers == 0:
                break
        lx[members], ty[members] = best[0], best[1]
    ends = lx[shown] + w[shown]
    overflow = float(ends.max() - ax.bbox.x1 * scale + _EDGE) if ends.size else 0.0
    return (lx, ty, own, shown, xy, dx), overflow


def _draw(ax, x, y, texts, placed, color) -> list:
    """The annotations of :func:`label_points` at the places :func:`_layout` found; a moved label has a leader line."""
    lx, ty, own, shown, xy, dx = placed
    out = [None] * len(texts)
    for i in np.flatnonzero(shown):
        s = texts[i]
        moved = abs(lx[i] - xy[i, 0] - dx) > 0.5 or abs(ty[i] - own[i]) > 0.5
        arrow = dict(arrowstyle="-", lw=0.5, color=color, shrinkA=0, shrinkB=3) if moved else None
        out[i] = ax.annotate(s, (x[i], y[i]), textcoords="offset points", xytext=(lx[i] - xy[i, 0], ty[i] - xy[i, 1]),
                             fontsize="x-small", color=color, arrowprops=arrow)  # fmt: skip
    return out
