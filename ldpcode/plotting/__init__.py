"""One look for every figure: a seaborn theme, one colour per algorithm, the papers' log-log axes.

Notebooks call :func:`use_theme` once, then :func:`regret_panel` / :func:`ratio_panel` per panel. The package:
:mod:`.theme` (the theme, legibility at the text column's width, colours, axes), :mod:`.panels` (one axes each),
:mod:`.labels` (labels beside points) and :mod:`.figures` (whole figures shared by two notebooks). Every name is here too: ``ldp.plotting.regret_panel``.
The colours of the algorithms are the policy registry's (:data:`ldpcode.policies.POLICY_COLORS`).
"""

from __future__ import annotations

from .theme import (
    COLUMN_PX,
    DPI,
    FONT_KEY,
    HIDDEN_KEY,
    COVER_KEY,
    MIN_FONT_PX,
    POLICY_COLORS,
    UNDERSCORE_KEY,
    THEORY_STYLE,
    epsilon_colors,
    figure_png,
    hidden_by_legend,
    legend_line_cover,
    legend_below,
    legend_cell,
    legend_under_panels,
    legible,
    math_subscripts,
    paper_axes,
    plain_log_ticks,
    raw_underscores,
    use_theme,
)
from .labels import label_points
from .panels import (
    PAPER_STYLE,
    band_curve,
    bound_curve,
    episode_timeline,
    fit_label,
    fit_panel,
    gap_panel,
    log_ratio_panel,
    mean_sd_panel,
    ratio_panel,
    regret_panel,
    relative_panel,
)
from .figures import (
    constant_levels_figure,
    gap_pulls_figure,
    heterogeneous_bound_figure,
    looseness_figure,
    rate_figure,
)

__all__ = [
    "COLUMN_PX",
    "DPI",
    "FONT_KEY",
    "HIDDEN_KEY",
    "COVER_KEY",
    "MIN_FONT_PX",
    "PAPER_STYLE",
    "POLICY_COLORS",
    "THEORY_STYLE",
    "UNDERSCORE_KEY",
    "band_curve",
    "bound_curve",
    "constant_levels_figure",
    "episode_timeline",
    "epsilon_colors",
    "figure_png",
    "fit_label",
    "fit_panel",
    "gap_panel",
    "gap_pulls_figure",
    "heterogeneous_bound_figure",
    "hidden_by_legend",
    "label_points",
    "legend_line_cover",
    "legend_below",
    "legend_cell",
    "legend_under_panels",
    "legible",
    "log_ratio_panel",
    "looseness_figure",
    "math_subscripts",
    "mean_sd_panel",
    "paper_axes",
    "plain_log_ticks",
    "rate_figure",
    "ratio_panel",
    "raw_underscores",
    "regret_panel",
    "relative_panel",
    "use_theme",
]
