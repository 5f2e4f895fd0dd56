"""Stored numbers: each notebook owns ``data/<chapter>/<notebook>.json`` and checks itself against it.

A claim is one number the book stands for; its *kind* (statistical, exact, bound, reproducible, prediction)
decides its verdict. The package is split by role:

:mod:`~ldpcode.claims.core`
    :class:`Claim`, the frozen base of every claim, and its stored form (the kinds and tolerances are documented
    there), the constants ``KINDS``, ``SENSES``, ``PAPERS``, ``AGREE_Z``, ``NEAR_Z``, ``VERDICTS``, ``FIELDS`` and
    :func:`paper_unit`.
:mod:`~ldpcode.claims.kinds`
    One class per kind, each with its own fields, checks and verdict rules: :class:`StatisticalClaim`,
    :class:`ExactClaim`, :class:`BoundClaim`, :class:`ReproducibleClaim`, :class:`PredictionClaim`.
:mod:`~ldpcode.claims.constructors`
    The constructors :func:`statistical`, :func:`exact`, :func:`bound`, :func:`reproducible` and
    :func:`prediction` (a number against the book's own prediction, never under a paper's name).
:mod:`~ldpcode.claims.statements`
    What the papers print: one :class:`~ldpcode.claims.statements.Statement` (verbatim quote, locator,
    category) per thing a paper number is judged against.
:mod:`~ldpcode.claims.horizons`
    :func:`consistent_horizons`: the range of t where a ratio curve is within a paper's printed interval, for
    numbers whose horizon the paper does not state.
:mod:`~ldpcode.claims.store`
    Parameters, paths and files: :func:`check_parameters`, :func:`data_path`, :func:`load`,
    :func:`write_atomic`, ``WRITE_ENV``, :func:`env_flag`, and :func:`check_stored_params` (the parameters cell
    against the params stored in data/).
:mod:`~ldpcode.claims.tables`
    Formatting (:func:`format_horizon`, :func:`format_number`, :func:`format_pm`, :func:`format_value`) and the one table renderer (:class:`Markup`,
    :class:`Table`).
:mod:`~ldpcode.claims.checking`
    :func:`check`, which compares a notebook's fresh claims with its stored ones, and its
    :class:`CheckReport`.
:mod:`~ldpcode.claims.report`
    The reproduction report: :func:`stored_files`, :func:`collect` and :class:`Summary`,
    :func:`paper_section` and :class:`PaperSection`, :func:`scorecard`, :class:`Predictions`,
    :class:`ClaimList`.
:mod:`~ldpcode.claims.findings`
    The findings table of README.md and intro.md, written from the report's scorecard (not re-exported).

Every name is re-exported here: notebooks call ``ldp.claims.check``, ``ldp.claims.statistical``, ...
"""

from __future__ import annotations

from .checking import CheckReport, check
from . import statements
from .constructors import bound, exact, prediction, reproducible, statistical
from .core import (
    AGREE_Z,
    CATEGORIES,
    FIELDS,
    KINDS,
    NEAR_Z,
    PAPERS,
    SENSES,
    VERDICTS,
    Claim,
    paper_unit,
)
from .kinds import BoundClaim, ExactClaim, PredictionClaim, ReproducibleClaim, StatisticalClaim
from .horizons import (
    HorizonRange,
    approach_text,
    closest_approach,
    consistent_horizons,
    fits_at_each_t,
    joint_horizons,
    with_joint,
)
from .report import (
    REPORT_CHAPTER,
    SEVERITY,
    ClaimList,
    PaperSection,
    Predictions,
    Scorecard,
    Summary,
    collect,
    paper_section,
    scorecard,
    statement_summary,
    statement_verdict,
    stored_files,
)
from .store import (
    WRITE_ENV,
    check_parameters,
    check_stored_params,
    data_path,
    env_flag,
    load,
    params_differences,
    stale_params_message,
    write_atomic,
)
from .tables import (
    Markup,
    Table,
    approx_horizon,
    final_regret_text,
    format_horizon,
    format_number,
    format_pm,
    format_value,
    heldp_setting_name,
    horizon_tag,
    policy_tag,
    span_text,
)

__all__ = [
    "AGREE_Z",
    "BoundClaim",
    "CATEGORIES",
    "ExactClaim",
    "FIELDS",
    "PredictionClaim",
    "ReproducibleClaim",
    "StatisticalClaim",
    "HorizonRange",
    "approx_horizon",
    "final_regret_text",
    "consistent_horizons",
    "fits_at_each_t",
    "joint_horizons",
    "closest_approach",
    "approach_text",
    "with_joint",
    "span_text",
    "prediction",
    "statements",
    "KINDS",
    "NEAR_Z",
    "PAPERS",
    "REPORT_CHAPTER",
    "SENSES",
    "VERDICTS",
    "WRITE_ENV",
    "CheckReport",
    "Claim",
    "ClaimList",
    "Markup",
    "PaperSection",
    "Predictions",
    "SEVERITY",
    "Scorecard",
    "scorecard",
    "statement_summary",
    "statement_verdict",
    "Summary",
    "Table",
    "bound",
    "check",
    "check_parameters",
    "check_stored_params",
    "collect",
    "data_path",
    "env_flag",
    "exact",
    "format_horizon",
    "format_number",
    "format_pm",
    "format_value",
    "heldp_setting_name",
    "horizon_tag",
    "policy_tag",
    "load",
    "paper_section",
    "paper_unit",
    "params_differences",
    "reproducible",
    "statistical",
    "stale_params_message",
    "stored_files",
    "write_atomic",
]
