"""The parameter rules of the appendix's notebook (``chapters/appendix/privacy_audit.ipynb``, the privacy
audits), with its private predicate and messages."""

from __future__ import annotations

import math

import numpy as np

from ldpcode.parameters.library import accepted_by, within_limits
from ldpcode.parameters.rules import (
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
    measured,
    custom,
)


def _ctb_float_finite(p) -> bool:
    from ldpcode.audit import ctb_float_probability_one, privacy_loss_matrix

    for e in p["ctb_float_epsilons"]:
        q = ctb_float_probability_one(np.array([0.0, 1.0]), e)
        if math.isfinite(float(privacy_loss_matrix(np.column_stack([1 - q, q])).max())):
            return True
    return False


def _gaussian_delta_below_zero_loss(p) -> bool:
    """The check reads the exact eps of Algorithm 1's Gaussian mechanism at zheng_delta twice, the second time by
    bisection of log(delta(eps)/zheng_delta) from eps = 0: zheng_delta must be below delta(0) (else that eps is 0 and
    there is no root). delta(eps) is the library's exact one (ldp.mechanisms.gaussian_exact_delta)."""
    from ldpcode.mechanisms.gaussian import gaussian_exact_delta
    from ldpcode.reductions import algorithm1_mechanism

    sens = 2 * p["loss_bound"]
    for e in p["zheng_epsilons"]:
        sigma = algorithm1_mechanism(e, p["zheng_delta"], p["loss_bound"]).sigma
        if not float(gaussian_exact_delta(0.0, sigma, sens)) > p["zheng_delta"]:
            return False
    return True


def _curator_audits_cost(p) -> None:
    """The largest audits of ``samples`` outputs (ldpcode.audit.curator_audit on the default inputs and probes, as
    the notebook calls it for Ren et al.'s curators and the broken ones), checked by the audit's own cost check."""
    from ldpcode.audit.curators import AUDIT_INPUTS, AUDIT_PROBES, _check_audit_cost

    n = p["samples"]
    _check_audit_cost(len(AUDIT_INPUTS) + len(AUDIT_PROBES), n, max(1000, n // 10), p["bins"] + 13, False, None)


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
            laplace_epsilon=measured(
                0.01,
                5,
                "the audits of Algorithm 1's Laplace variant hold",
                "at 7 and 10 the genuine mechanism is refuted",
            ),
            lemma1_epsilon=measured(
                0.01, 3, "Lemma 1's audit has a standard error", "at 5 its bins are empty and the error is nan"
            ),
            lemma1_starts=Seq(Int(2, 10**4), increasing=True),
            lemma1_samples=Int(1000, 10**9, LEMMA1_BINS),
            gdp_epsilon=measured(0.5, 3, "the action-sequence audits hold", "at 0.3 a genuine policy is refuted"),
            gdp_horizon=Int(3, 10**4, GDP_FORCED),
            gdp_runs=Int(2000, 10**8, GDP_POWER),
            index_alpha=ALPHA_INDEX,
            broken_epsilon=measured(
                0.3, 3, "every broken curator is refuted", "at 0.1 and 5 one is missed, at 20 an error is nan"
            ),
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
            within_limits(_curator_audits_cost, "samples", "every curator audit"),
            accepted_by(
                lambda p: __import__("ldpcode.audit", fromlist=["x"]).first_decision_log_ratio(
                    "AdaP-KLUCB", p["gdp_epsilon"], p["index_alpha"]
                ),
                "index_alpha",
                "large enough for the exact log-ratio of AdaP-KLUCB's first decision at gdp_epsilon (eps < alpha log 3)",
                library="ldp.audit.first_decision_log_ratio",
            ),
            custom(
                _gaussian_delta_below_zero_loss,
                "zheng_delta must be below delta(0) of Algorithm 1's Gaussian mechanism at every eps of zheng_epsilons "
                "(else its exact eps at zheng_delta is 0, and the check's bisection from eps = 0 has no root), got "
                "zheng_delta = {zheng_delta}, zheng_epsilons = {zheng_epsilons}",
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
