"""The constructors of claims: :func:`statistical`, :func:`exact`, :func:`bound`, :func:`reproducible` and
:func:`prediction`. Each derives the claim's tolerance (a Monte Carlo claim: ``k`` standard errors; a deterministic
one: ``max(atol, rtol |value|)``) and, for a paper number, copies the evidence of its paper statement (quote,
locator, category, the paper's horizon and runs) from :mod:`ldpcode.claims.statements`; the claim's class (one
kind of :class:`~.core.Claim`) checks the result."""

from __future__ import annotations

import math

from .._validate import check_bool, check_real
from .kinds import BoundClaim, ExactClaim, PredictionClaim, ReproducibleClaim, StatisticalClaim
from .horizons import HorizonRange
from .statements import get as _statement


def _mc_tolerance(se, k, name):
    """``se`` checked, and the tolerance k x se of a Monte Carlo claim (None when se = 0)."""
    se = check_real(f"{name}: se", se)
    k = check_real(f"{name}: k", k)
    if se < 0:
        raise ValueError(f"{name}: se must be >= 0, got {se!r}")
    if not 1 <= k <= 10:
        raise ValueError(f"{name}: k (standard errors of tolerance) must be in [1, 10], got {k!r}")
    return se, (k * se if se > 0 else None)


def _det_tolerance(value, rtol, atol, name):
    rtol = check_real(f"{name}: rtol", rtol)
    atol = check_real(f"{name}: atol", atol)
    if rtol < 0 or atol < 0:
        raise ValueError(f"{name}: rtol and atol must be >= 0, got {rtol!r} and {atol!r}")
    return max(atol, rtol * abs(check_real(f"{name}: reproduced", value)))


def _evidence(id: str, statement: str, cites: str | None) -> dict:
    """The fields a claim copies from its paper statement (a key of :mod:`ldpcode.claims.statements`)."""
    if not isinstance(statement, str) or not statement:
        raise ValueError(
            f"{id}: a paper number names the statement it is judged against: statement='<key>' "
            "(the keys are in ldpcode.claims.statements)"
        )
    st = _statement(statement)
    if cites is not None and cites != st.cites:
        raise ValueError(f"{id}: cites {cites!r} is not the paper of statement {statement!r} ({st.cites})")
    return dict(
        statement=st.key,
        cites=st.cites,
        category=st.category,
        locator=st.locator,
        quote=st.quote,
        paper_horizon=st.horizon,
        paper_runs=st.runs,
    )


def _horizon_fields(id, horizons) -> dict:
    if horizons is None:
        return {}
    if not isinstance(horizons, HorizonRange):
        raise TypeError(f"{id}: horizons must come from ldpcode.claims.consistent_horizons, got {horizons!r}")
    out = dict(t_consistent=list(horizons.consistent), t_searched=list(horizons.searched))
    if horizons.accepts:
        out["t_accepts"] = list(horizons.accepts)
    if horizons.joint and math.isfinite(horizons.joint[1]):  # the figure's closest approach: t, and z (rounded)
        out["t_joint"] = [int(horizons.joint[0]), round(float(horizons.joint[1]), 3)]
    return out


def statistical(
    id: str,
    source: str,
    *,
    reproduced,
    se,
    paper,
    statement: str,
    reason: str,
    cites: str | None = None,
    horizon: int | None = None,
    scale: str = "",
    sense: str = "=",
    paper_unit: float | None = None,
    runs: int | None = None,
    margin: float = 0.0,
    systematic: float = 0.0,
    systematic_how: str = "",
    horizons=None,
    reachable: float | None = None,
    k: float = 4.0,
    note: str = "",
    tolerance_reason: str = "",
) -> StatisticalClaim:
    """A Monte Carlo reproduction of a number stated in the paper ``cites``.

    ``reproduced`` is the book's estimate and ``se`` its standard error (over independent runs, by the
    delta method or a bootstrap: the notebook says which); ``horizon`` the T it was read at (or ``scale``,
    e.g. "10^6 samples"); ``sense`` what the paper states ("=", "<=" an upper bound such as an order of
    growth, ">=" a lower bound); ``reason`` one line on the verdict (why it agrees, or why not). The stored
    value must be reproduced within ``k`` standard errors. ``se = 0`` only when every run gave the same value
    (then the verdict is the paper's rounding alone, and the stored value must come back exactly).

    ``statement`` names what the paper prints (its quote, locator and category are copied into the claim);
    ``runs`` the number of independent runs behind ``se`` (with the paper's own runs, from the statement, the
    paper's Monte Carlo error counts too where the paper prints the number, and a verdict states how many runs would
    resolve it); ``margin`` a
    practical margin (absolute) below which a difference does not matter; ``systematic`` (absolute, with
    ``systematic_how``) the spread of the number under what the paper leaves open (the fit window, the horizon);
    ``horizons`` the range of t where the reproduced curve is within the paper's interval
    (:func:`~ldpcode.claims.consistent_horizons`), for a number whose horizon the paper does not state;
    ``reachable`` (with sense "<=" or ">=") the most extreme value the experiment could produce on the side that
    would refute the statement (the largest exponent a capped regret allows): if it cannot pass the paper's number,
    an agreement is **inconclusive**, as the claim could not have failed."""
    se, tol = _mc_tolerance(se, k, id)
    return StatisticalClaim(
        **_evidence(id, statement, cites),
        **_horizon_fields(id, horizons),
        runs=runs,
        margin=margin,
        systematic=systematic,
        systematic_how=systematic_how,
        reachable=reachable,
        id=id,
        source=source,
        reproduced=reproduced,
        se=se,
        k=float(k),
        tolerance=tol if tol is not None else 0.0,
        paper=paper,
        paper_unit=paper_unit,
        sense=sense,
        horizon=horizon,
        scale=scale,
        reason=reason,
        note=note,
        tolerance_reason=tolerance_reason,
    )


def exact(
    id: str,
    source: str,
    *,
    reproduced,
    second,
    how: str,
    paper=None,
    statement: str | None = None,
    cites: str | None = None,
    reason: str = "",
    sense: str = "=",
    paper_unit: float | None = None,
    rtol: float = 1e-9,
    atol: float = 0.0,
    note: str = "",
    tolerance_reason: str = "",
) -> ExactClaim:
    """A value without sampling error, computed two independent ways: ``reproduced`` and ``second``, with
    ``how = "<first way> vs <second way>"`` (closed form vs quadrature, a formula vs a count over a trace,
    a module function vs a literal transcription of the paper's equation). They must agree within
    ``max(atol, rtol |reproduced|)`` at every run. Never pass the same computation twice. With a ``paper``
    number, ``statement`` names what the paper prints (see :func:`statistical`)."""
    tol = _det_tolerance(reproduced, rtol, atol, id)
    evidence = _evidence(id, statement, cites) if paper is not None else {"cites": cites}
    return ExactClaim(
        **evidence,
        id=id,
        source=source,
        reproduced=reproduced,
        second=second,
        how=how,
        tolerance=tol,
        paper=paper,
        paper_unit=paper_unit,
        sense=sense,
        reason=reason,
        note=note,
        tolerance_reason=tolerance_reason,
    )


def prediction(
    id: str,
    source: str,
    *,
    reproduced,
    se,
    predicted,
    derived_in: str,
    how: str,
    reason: str,
    horizon: int | None = None,
    scale: str = "",
    runs: int | None = None,
    k: float = 4.0,
    note: str = "",
    tolerance_reason: str = "",
) -> PredictionClaim:
    """A Monte Carlo number against the book's own prediction ``predicted``, derived in the notebook
    ``derived_in`` by ``how`` (never filed under a paper's name). Judged like a statistical claim: agrees
    within 2 standard errors, near within 4, disagrees beyond."""
    se, tol = _mc_tolerance(se, k, id)
    return PredictionClaim(
        id=id,
        source=source,
        reproduced=reproduced,
        se=se,
        k=float(k),
        tolerance=tol if tol is not None else 0.0,
        predicted=check_real(f"{id}: predicted", predicted),
        derived_in=derived_in,
        how=how,
        horizon=horizon,
        scale=scale,
        runs=runs,
        reason=reason,
        note=note,
        tolerance_reason=tolerance_reason,
    )


def bound(
    id: str,
    source: str,
    *,
    reproduced,
    bound,
    how: str,
    sense: str = "<=",
    se=0.0,
    k: float = 4.0,
    horizon: int | None = None,
    scale: str = "",
    rtol: float = 1e-9,
    atol: float = 0.0,
    reason: str = "",
    note: str = "",
    tolerance_reason: str = "",
    shows_failure: bool = False,
    control: bool = False,
    cap: float | None = None,
) -> BoundClaim:
    """An inequality the notebook asserts: ``reproduced <= bound`` (or ``>=`` with ``sense=">="``), where
    ``how`` names the bound ("Theorem 4 at T"). With ``se > 0`` (a Monte Carlo mean) a failure within 2
    standard errors is "holds within noise"; beyond, the check fails at every run. ``shows_failure=True`` marks
    a failure asserted the other way round (a theorem's bound above what a policy reaches): it reads "failure
    shown", not "holds". ``control=True`` (which implies ``shows_failure``) marks a failure built on purpose to prove
    that the check can fail (a broken mechanism's loss above its claimed ε): it reads "caught, as intended".
    ``cap``: the largest value the number can take (a pseudo-regret's T·Δ_max), given for an upper bound at or above
    it, which no run can fail: it reads "vacuous"."""
    check_bool("shows_failure", shows_failure)
    check_bool("control", control)
    se, tol = _mc_tolerance(se, k, id)
    if tol is None:
        tol = _det_tolerance(reproduced, rtol, atol, id)
    return BoundClaim(
        id=id,
        source=source,
        reproduced=reproduced,
        bound=bound,
        how=how,
        sense=sense,
        se=se,
        k=float(k) if se > 0 else None,
        tolerance=tol,
        horizon=horizon,
        scale=scale,
        reason=reason,
        note=note,
        tolerance_reason=tolerance_reason,
        shows_failure=True if shows_failure or control else None,
        control=True if control else None,
        cap=cap,
    )


def reproducible(
    id: str,
    source: str,
    *,
    reproduced,
    se=0.0,
    k: float = 4.0,
    horizon: int | None = None,
    scale: str = "",
    rtol: float = 1e-9,
    atol: float = 0.0,
    note: str = "",
    tolerance_reason: str = "",
) -> ReproducibleClaim:
    """A number the book stands for with no paper number to compare: checked against its stored value
    only (within ``k`` standard errors when ``se > 0``, else within ``max(atol, rtol |reproduced|)``)."""
    se, tol = _mc_tolerance(se, k, id)
    if tol is None:
        tol = _det_tolerance(reproduced, rtol, atol, id)
    return ReproducibleClaim(
        id=id,
        source=source,
        reproduced=reproduced,
        se=se,
        k=float(k) if se > 0 else None,
        tolerance=tol,
        horizon=horizon,
        scale=scale,
        note=note,
        tolerance_reason=tolerance_reason,
    )
