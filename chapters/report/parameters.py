"""The parameter rules of the report's notebooks: the reproduction report (``chapters/report/reproduction_report.ipynb``)
and the errata (``chapters/report/errata.ipynb``)."""

from __future__ import annotations

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
                lambda p: min(p["figure3_means"]) < max(p["figure3_means"]) < 1,
                "figure3_means needs an arm below the best and a best mean below 1, got {figure3_means}",
            ),
        ),
        tiny=dict(figure3_horizon=100, example=[100, 10]),
    ),
}
