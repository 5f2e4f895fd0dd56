"""The parameter rules of the report's notebooks: the reproduction report (``chapters/report/reproduction_report.ipynb``)
and the errata (``chapters/report/errata.ipynb``)."""

from __future__ import annotations

import math

from ldpcode.parameters.rules import (
    ALPHA_INDEX,
    COUNT,
    EPS,
    EPSILONS,
    HORIZON,
    MEANS,
    POS,
    PROB,
    Fields,
    Int,
    Notebook,
    Optional,
    Real,
    Seq,
    Text,
    custom,
)


def _data_folder_exists(p) -> bool:
    from ldpcode._paths import repo_root

    ch = p["chapter"]
    if ch is None:
        return True
    # a plain folder name: no separators, no "..", so "/etc" or "../x" cannot name a folder outside data/
    return "/" not in ch and "\\" not in ch and ch not in (".", "..") and (repo_root() / "data" / ch).is_dir()


CHAPTER_EXISTS = custom(
    _data_folder_exists, "chapter must name a folder under data/ (such as 'ren2020'), got {chapter}"
)


def _gaussian_cell(p) -> None:
    """The errata's Gaussian cell of Table 2 beside Theorem 3, as its body computes them: ldp.divergences' d_inf and
    t_inf of the arms of gaussian_means (known variance; Delta^2 / (2 sigma^2) over- or underflows at an extreme
    sigma), Table 2's cell and Theorem 3's bound at (example's T, table2_epsilon); both are claims' values, which must
    be finite numbers."""
    import numpy as np

    from ldpcode import bounds as B
    from ldpcode import divergences as D

    gauss = np.asarray(p["gaussian_means"], dtype=float)
    sub, sigma, eps, horizon = gauss[gauss < gauss.max()], p["gaussian_sigma"], p["table2_epsilon"], p["example"][0]
    with np.errstate(all="ignore"):  # the refusal is the library's ValueError, not a RuntimeWarning before it
        d_inf = np.atleast_1d(D.d_inf_gaussian(sub, gauss.max(), sigma))
        D.t_inf_gaussian(sub, gauss.max(), sigma)
        cell = B.table2_stochastic_problem_dependent(gauss.max() - sub, d_inf, horizon, eps)
        theorem3 = B.gdp_lower_bound_constant(gauss, eps, family="gaussian", sigma=sigma) * math.log(horizon)
    if not (math.isfinite(cell) and math.isfinite(theorem3)):
        raise ValueError(f"the cell is {cell:g} and Theorem 3's bound {theorem3:g}, not finite")


_ARMS = Int(2, 10**9)
ERRATA = dict(
    example=Fields((("T", HORIZON), ("K", _ARMS))),
    table2_epsilon=EPS,
    gaussian_means=Seq(Real(-1e6, 1e6), 2),
    gaussian_sigma=POS,
    alpha=ALPHA_INDEX,
    figure3_horizon=HORIZON,
    figure3_means=MEANS,
    regime_epsilon=EPS,
    small=Fields((("t", COUNT), ("K", _ARMS), ("eps", EPS))),
    gaussian_delta=PROB,
    gaussian_epsilons=EPSILONS,
)

NOTEBOOKS: dict[str, Notebook] = {
    # ---------------------------------------------------------------- the reproduction report
    "chapters/report/reproduction_report.ipynb": Notebook(
        dict(chapter=Optional(Text())), (CHAPTER_EXISTS,), tiny=dict(chapter="appendix")
    ),
    # ---------------------------------------------------------------- the errata
    "chapters/report/errata.ipynb": Notebook(
        ERRATA,
        (
            custom(lambda p: p["example"][0] >= p["example"][1] - 1, "example needs T >= K - 1, got {example}"),
            custom(lambda p: p["small"][0] >= p["small"][1] - 1, "small needs t >= K - 1, got {small}"),
            custom(
                lambda p: min(p["gaussian_means"]) < max(p["gaussian_means"]),
                "gaussian_means needs an arm below the best (Table 2's cell sums over them), got {gaussian_means}",
            ),
            custom(
                lambda p: _gaussian_cell(p) is None,
                "gaussian_sigma must be a standard deviation at which Table 2's Gaussian cell and Theorem 3's bound "
                "(ldp.bounds.table2_stochastic_problem_dependent, gdp_lower_bound_constant) are finite numbers (the "
                "cell takes d_inf = Delta^2 / (2 sigma^2), which overflows for a sigma below about 1e-154 Delta and "
                "underflows to 0 above 1e154 Delta), got gaussian_sigma = {gaussian_sigma}, gaussian_means = "
                "{gaussian_means}, table2_epsilon = {table2_epsilon}, example = {example}",
            ),
            custom(
                lambda p: min(p["figure3_means"]) < max(p["figure3_means"]) < 1,
                "figure3_means needs an arm below the best and a best mean below 1, got {figure3_means}",
            ),
        ),
        tiny=dict(figure3_horizon=100, example=[100, 10]),
    ),
}
