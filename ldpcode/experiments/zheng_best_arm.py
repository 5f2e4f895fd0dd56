r"""Zheng et al. (2020), Appendix B: best-arm identification through Algorithm 1, the computations and figure of
``chapters/zheng2020/appendix_b_best_arm``.

Appendix B is not in the text the book works from; the book's reading is successive elimination at fixed
confidence :math:`\delta_c` on the releases of Algorithm 1 (:mod:`ldpcode.reductions.best_arm`). This module is
what the notebook does with it: the runs at each privacy level (:func:`run_levels`, labelled by
:func:`level_label`) and with the non-private radius on private releases (:func:`run_broken_radius`), the
predicted stopping times :math:`\tau^{\text{pred}}(s^2)` (:func:`predictions`, :func:`prediction_curve`), the
table of the levels (:func:`levels_table`, :func:`broken_summary`), the ratios of mean stopping times between
neighbouring ε (:func:`neighbour_ratios`, :func:`ratios_table`) and at a huge ε against the non-private runs
(:func:`limit_comparison`), and the figure (:func:`samples_figure`). The claims stay in the notebook.
"""

from __future__ import annotations

import numpy as np

from ..claims import Table, format_number
from ..reductions import algorithm1_mechanism, elimination_samples_prediction, successive_elimination
from ..reductions.best_arm import LOSS_PROXY, BAIResult
from ..stats import mean_and_half_width, mean_with_se, ratio_of_means_se

#: the label of the non-private runs (σ = 0, :math:`s^2 = 1/4`) in the dictionaries of this module
NON_PRIVATE = "non-private"


def level_label(epsilon) -> str:
    """The label of a privacy level in the dictionaries of this module: ``"ε = 2"`` for ``epsilon`` 2.0
    (format ``g``), :data:`NON_PRIVATE` for None."""
    if epsilon is None:
        return NON_PRIVATE
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.floating, np.integer)):
        raise TypeError(f"epsilon must be a number or None (non-private), got {epsilon!r}")
    return f"ε = {epsilon:g}"


def shown_label(label: str) -> str:
    """A label of :func:`level_label` as a table shows it: its ε with thousands separators (``"ε = 10,000"`` for
    ``"ε = 10000"``); the label itself stays the key of the dictionaries and of the claim ids."""
    if not label.startswith("ε = "):
        return label
    return f"ε = {float(label[len('ε = ') :]):,g}"


def _results(results) -> dict:
    if not isinstance(results, dict) or not all(isinstance(r, BAIResult) for r in results.values()):
        raise TypeError("results must be a dict label -> BAIResult (from run_levels)")
    return results


def _level(results, label) -> BAIResult:
    if label not in results:
        raise ValueError(f"no level {label!r} in the results, which hold {list(results)}")
    return results[label]


def run_levels(loss_means, conf_delta, runs, seed, epsilons, huge_epsilon, delta) -> dict:
    r"""Successive elimination at confidence ``conf_delta`` on the Bernoulli ``loss_means``, ``runs`` runs at each
    level: non-private, then Algorithm 1's Gaussian releases at each ε of ``epsilons`` and at ``huge_epsilon``
    (the limit ε → ∞), all with ``delta``; the radius uses the correct :math:`s^2 = 1/4 + \sigma^2` (Appendix B,
    the book's reading). Every level uses the same ``seed`` (common random numbers). Returns label
    (:func:`level_label`) -> :class:`~ldpcode.reductions.best_arm.BAIResult`, in that order."""
    levels = [None, *epsilons, huge_epsilon]
    labels = [level_label(e) for e in levels]
    if len(set(labels)) != len(labels):
        raise ValueError(f"the levels must be distinct, got epsilons {list(epsilons)} and huge_epsilon {huge_epsilon}")
    return {
        k: successive_elimination(
            loss_means, conf_delta, runs, seed, mechanism=None if e is None else algorithm1_mechanism(e, delta)
        )
        for k, e in zip(labels, levels)
    }


def run_broken_radius(loss_means, conf_delta, runs, seed, epsilon, delta) -> BAIResult:
    r"""The counter-example of Appendix B (the book's reading): the releases of Algorithm 1 at ``epsilon``,
    ``delta``, fed to successive elimination with the non-private radius (:math:`s^2 = 1/4`, no
    :math:`\sigma^2`), ``runs`` runs on ``seed``; its frequency of the best arm falls below :math:`1 - \delta_c`."""
    mechanism = algorithm1_mechanism(epsilon, delta)
    return successive_elimination(loss_means, conf_delta, runs, seed, mechanism=mechanism, variance_proxy=LOSS_PROXY)


def predictions(loss_means, conf_delta, results) -> dict:
    r"""Label -> :math:`\tau^{\text{pred}}(s^2)` (:func:`~ldpcode.reductions.elimination_samples_prediction`) at the
    :math:`s^2` of each level of ``results``: the predicted samples to stop of theorem (ii) of the notebook."""
    return {
        k: elimination_samples_prediction(loss_means, conf_delta, r.variance_proxy)
        for k, r in _results(results).items()
    }


def levels_table(results, pred, cp_alpha) -> Table:
    """One row per level of ``results``: σ, :math:`s^2`, the frequency of the best arm with its binomial standard
    error and its one-sided Clopper-Pearson lower bound at level 1 - ``cp_alpha`` (Appendix B's correctness, at
    least :math:`1 - \\delta_c`), the undecided runs, the mean samples to stop with its standard error, the
    prediction in ``pred`` (:func:`predictions`) and the ratio of the two."""
    rows = []
    for k, r in _results(results).items():
        m, se = mean_with_se(r.samples)
        p = _level(pred, k)
        rows.append(
            [shown_label(k), r.sigma, r.variance_proxy, r.success_rate, r.success_se(), r.success_lower_bound(cp_alpha)]
            + [r.undecided, (m, se), p, m / p]
        )
    head = ["level", "σ", "s²", "P(best)", "± se", "CP lower", "undecided", "mean samples ± se", "predicted"]
    formats = [None, ".4f", ".3f", ".3f", ".3f", ".4f", "d", (".0f", ".0f"), ".0f", ".3f"]
    return Table(head + ["meas/pred"], rows, formats=formats)


def broken_summary(broken) -> str:
    """One line on the runs of :func:`run_broken_radius`: ε, σ, the frequency of the best arm with its standard
    error, the mean samples to stop with its standard error."""
    if not isinstance(broken, BAIResult):
        raise TypeError(f"broken must be a BAIResult (from run_broken_radius), got {type(broken).__name__}")
    m, se = mean_with_se(broken.samples)
    return (
        f"broken: private releases at ε = {broken.epsilon:g} (σ {broken.sigma:.3f}) with the radius of "
        f"s² = 1/4: P(best) = {broken.success_rate:.3f} ± {broken.success_se():.3f}, mean samples {m:.0f} ± {se:.0f}"
    )


def neighbour_ratios(results, pred, epsilons) -> list[dict]:
    r"""For each pair of neighbours :math:`\epsilon_1 < \epsilon_2` of ``epsilons``: a dict with the labels ``a``,
    ``b``, the ``ratio`` of mean samples to stop :math:`\bar\tau(\epsilon_1)/\bar\tau(\epsilon_2)` and its paired
    delta-method ``se`` (:func:`~ldpcode.stats.ratio_of_means_se`), the ``leading`` factor
    :math:`(1/4 + \sigma_1^2)/(1/4 + \sigma_2^2)` and the ``full`` ratio of :math:`\tau^{\text{pred}}` in ``pred``
    (:func:`predictions`; theorem (ii) of the notebook, Appendix B in the book's reading)."""
    results = _results(results)
    names = [level_label(e) for e in epsilons]
    pairs = []
    for a, b in zip(names[:-1], names[1:]):
        ra, rb = _level(results, a), _level(results, b)
        x, y = ra.samples, rb.samples
        ratio = x.mean() / y.mean()
        se = float(ratio_of_means_se(x, y))
        full = _level(pred, a) / _level(pred, b)
        pairs.append(dict(a=a, b=b, ratio=ratio, se=se, leading=ra.variance_proxy / rb.variance_proxy, full=full))
    return pairs


def ratios_table(pairs) -> Table:
    """One row per pair of :func:`neighbour_ratios`: the measured ratio with its standard error, the leading
    factor, the ratio of :math:`\\tau^{\\text{pred}}` and the z-score of the measured ratio against it."""
    rows = [
        [
            shown_label(p["a"]) + " / " + shown_label(p["b"]),
            (p["ratio"], p["se"]),
            p["leading"],
            p["full"],
            (p["ratio"] - p["full"]) / p["se"],
        ]
        for p in pairs
    ]
    head = ["ratio", "measured ± se", "(1/4+σ₁²)/(1/4+σ₂²)", "τ_pred ratio", "z (pred)"]
    return Table(head, rows, formats=[None, (".3f", ".3f"), ".3f", ".3f", ".2f"])


def limit_comparison(results, pred, huge_epsilon) -> dict:
    r"""The runs at ``huge_epsilon`` against the non-private ones on the same loss draws (the limit ε → ∞ of
    Appendix B, the book's reading): ``ratio`` of mean samples to stop with its paired ``se``, ``predicted``
    the ratio of :math:`\tau^{\text{pred}}` in ``pred`` (:func:`predictions`), ``same`` the fraction of runs
    with the same arm after the same samples and ``same_se`` its binomial standard error, ``sigma`` the noise sd
    at ``huge_epsilon``."""
    results = _results(results)
    label = level_label(huge_epsilon)
    huge, base = _level(results, label), _level(results, NON_PRIVATE)
    same = ((huge.samples == base.samples) & (huge.arms == base.arms)).mean()
    return dict(
        ratio=huge.samples.mean() / base.samples.mean(),
        se=float(ratio_of_means_se(huge.samples, base.samples)),
        predicted=_level(pred, label) / _level(pred, NON_PRIVATE),
        same=float(same),
        same_se=float(np.sqrt(same * (1 - same) / huge.runs)),
        sigma=huge.sigma,
    )


def prediction_curve(loss_means, conf_delta, results, points=200):
    r""":math:`\tau^{\text{pred}}(s^2)` on a log grid of ``points`` values of :math:`s^2` from 1/4 (non-private) to
    1.2 times the largest :math:`s^2` of ``results``: (grid, predictions), the curve of :func:`samples_figure`."""
    s2_max = max(r.variance_proxy for r in _results(results).values())
    grid = np.geomspace(LOSS_PROXY, s2_max * 1.2, points)
    return grid, np.array([elimination_samples_prediction(loss_means, conf_delta, v) for v in grid])


def samples_figure(results, broken, grid, curve, *, delta, cp_alpha):
    r"""Left: mean samples to stop (95 % bands) against :math:`s^2` for the levels of ``results``, with the curve
    ``grid``, ``curve`` of :func:`prediction_curve` and the leading order (non-private mean times
    :math:`4s^2`). Right: the frequency of the best arm at each level and for ``broken``
    (:func:`run_broken_radius`), with its Clopper-Pearson lower bound at level 1 - ``cp_alpha``, against
    :math:`1 - \delta_c` and 1/K. Appendix B, the book's reading; ``delta`` is for the title. Returns the figure."""
    import matplotlib.pyplot as plt

    from ..plotting import THEORY_STYLE

    results = _results(results)
    base = _level(results, NON_PRIVATE)
    k_arms, conf_delta, runs = base.loss_means.size, base.conf_delta, base.runs
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4))
    order = sorted(results, key=lambda k: results[k].variance_proxy)
    s2 = np.array([results[k].variance_proxy for k in order])
    means = np.array([results[k].samples.mean() for k in order])
    half = np.array([mean_and_half_width(results[k].samples)[1] for k in order])
    ax.errorbar(s2, means, yerr=half, fmt="o", color="C0", label="measured mean samples")
    ax.plot(grid, curve, color="C1", label=r"$\tau^{pred}(s^2)$ (with its logarithm)")
    ax.plot(
        grid,
        base.samples.mean() * 4 * grid,
        color="k",
        **THEORY_STYLE,
        label=r"non-private mean $\times\, 4 s^2$ (leading order)",
    )
    for k, x, y in zip(order, s2, means):
        if k != NON_PRIVATE:
            ax.annotate(k, (x, y), textcoords="offset points", xytext=(6, -10), fontsize=7)
    xlabel = r"variance proxy of a release $s^2 = 1/4 + \sigma^2(\epsilon, \delta)$"
    ax.set(xscale="log", yscale="log", xlabel=xlabel, ylabel=r"samples to stop $\tau$ (users)")
    ax.margins(x=0.12, y=0.12)  # room for the labels of the first and last levels inside the frame
    ax.set_title(
        rf"successive elimination, K = {k_arms}, $\delta_c$ = {format_number(conf_delta)}, δ = {format_number(delta)}, {runs} runs",
        fontsize=9,
    )
    ax.legend(fontsize=7)
    rs, x = [results[k] for k in order] + [broken], np.arange(len(order) + 1)
    colors = ["C0"] * len(order) + ["C3"]
    bx.bar(x, [r.success_rate for r in rs], color=colors, alpha=0.7, label="frequency of the best arm")
    bx.plot(
        x,
        [r.success_lower_bound(cp_alpha) for r in rs],
        "v",
        color="k",
        label=f"Clopper-Pearson lower bound ({1 - cp_alpha:.0%})",
    )
    bx.axhline(1 - conf_delta, color="C1", **THEORY_STYLE, label=r"guarantee $1 - \delta_c$")
    bx.axhline(1 / k_arms, color="0.5", linestyle=":", label="1/K (a random arm)")
    bx.set_xticks(x, order + [f"broken (ε = {broken.epsilon:g})"], rotation=35, ha="right", fontsize=7)
    bx.set(ylabel="P(returned arm is the best)", ylim=(0, 1.42))
    bx.set_title(rf"fixed confidence $\delta_c$ = {format_number(conf_delta)}, {runs} runs per level", fontsize=9)
    bx.set_yticks(np.linspace(0, 1, 6))  # the room above 1 holds the legend, not a probability
    bx.legend(fontsize=7, loc="upper center", ncol=2)  # above the bars: in the middle it covered them
    fig.tight_layout()
    return fig
