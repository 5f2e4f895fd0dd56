"""The parameter rules of the appendix's notebook (``chapters/appendix/privacy_audit.ipynb``, the privacy
audits), with its private predicate and messages."""

from __future__ import annotations

import math

import numpy as np

from .rules import (
    ALPHA_CONF,
    ALPHA_INDEX,
    EPS,
    EPSILONS,
    GDP_POWER,
    LEMMA1_BINS,
    POS,
    PROB,
    Int,
    Notebook,
    Real,
    Seq,
    custom,
)


def _ctb_float_finite(p) -> bool:
    from ..audit import ctb_float_probability_one, privacy_loss_matrix

    for e in p["ctb_float_epsilons"]:
        q = ctb_float_probability_one(np.array([0.0, 1.0]), e)
        if math.isfinite(float(privacy_loss_matrix(np.column_stack([1 - q, q])).max())):
            return True
    return False


# why the privacy audit needs what it needs (the appendix)
AUDIT_POWER = (
    "with fewer outputs per input the audit is too weak to refute every broken curator (measured: with "
    "100 it misses one)"
)
GDP_FORCED = "at T = 2 both pulls are forced: no action sequence depends on the rewards"


NOTEBOOKS: dict[str, Notebook] = {
    # ---------------------------------------------------------------- appendix: the privacy audits
    "chapters/appendix/privacy_audit.ipynb": Notebook(
        dict(
            curator_epsilons=EPSILONS,
            heldp_levels=Seq(Real(0), increasing=True),
            samples=Int(1000, 10**9, AUDIT_POWER),
            heldp_samples=Int(100, 10**9, "the audit's pilot bins need 100 outputs per input"),
            bins=Int(2, 10**4),
            confidence_alpha=ALPHA_CONF,
            loss_bound=POS,
            zheng_epsilons=EPSILONS,
            zheng_delta=PROB,
            laplace_epsilon=EPS,
            lemma1_epsilon=EPS,
            lemma1_starts=Seq(Int(2, 10**4), increasing=True),
            lemma1_samples=Int(1000, 10**9, LEMMA1_BINS),
            gdp_epsilon=EPS,
            gdp_horizon=Int(3, 10**4, GDP_FORCED),
            gdp_runs=Int(2000, 10**8, GDP_POWER),
            index_alpha=ALPHA_INDEX,
            broken_epsilon=EPS,
            mironov_epsilon=EPS,
            mironov_samples=Int(2, 10**9, "a standard error needs at least 2 outputs"),
            mironov_window=Int(1, 10**6),
            ctb_float_epsilons=EPSILONS,
            vetted_samples=Int(100, 10**9),
            vetted_grid_bits=Int(0, 40),
        ),
        (
            custom(
                _ctb_float_finite,
                "ctb_float_epsilons must hold at least one eps at which CTB's implemented law "
                "has a finite loss (below about 37: above, 1/(1 + e^eps) rounds to the grid's "
                "last step and the loss is infinite), got {ctb_float_epsilons}",
            ),
        ),
        tiny=dict(
            curator_epsilons=[1.0],
            heldp_levels=[0.0],
            samples=1000,
            heldp_samples=100,
            bins=2,
            zheng_epsilons=[1.0],
            lemma1_starts=[2],
            lemma1_samples=1000,
            gdp_horizon=3,
            gdp_runs=2000,
            mironov_samples=2,
            mironov_window=1,
            ctb_float_epsilons=[1.0],
            vetted_samples=100,
        ),
    ),
}
