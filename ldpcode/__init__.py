"""ldpcode: the executable companion to four papers on differentially private bandits.

>>> import ldpcode as ldp
>>> inst = ldp.make_instance("ren2020-bernoulli")
>>> pol = ldp.make_policy("LDP-UCB-B", epsilon=2.0)
>>> res = ldp.simulate(pol, inst, horizon=10_000, runs=4, seed=0)
>>> res.regret.shape[0]
4
"""

from . import audit, bounds, claims, divergences, experiments, landscape, mechanisms, plotting, sweep, vetted  # noqa: F401
from ._validate import EPSILON_FLOOR
from .bounds import choose_epsilon_min
from .instances import Instance, PrivacyLevels, list_instances, list_privacy_levels, make_instance, make_privacy_levels
from .mechanisms import CTB, CTBS, CTL, CTLS, make_curator
from .policies import list_policies, make_policy
from .limits import Limits
from .results import RegretCurves
from .simulate import SimulationResult, log_checkpoints, simulate
from .stats import (
    HingeBootstrap,
    HingeFit,
    LinearFit,
    SlopeFit,
    WindowSpread,
    bootstrap_se,
    consecutive_windows,
    hinge_bootstrap,
    hinge_fit,
    linear_fit,
    mean_se,
    mean_with_se,
    se_or_zero,
    log_growth,
    loglog_slope,
    ratio_exponent,
    ratio_of_means_se,
    window_spread,
)

__all__ = [
    "CTB",
    "CTBS",
    "CTL",
    "CTLS",
    "EPSILON_FLOOR",
    "Instance",
    "RegretCurves",
    "SimulationResult",
    "audit",
    "bounds",
    "choose_epsilon_min",
    "bootstrap_se",
    "claims",
    "divergences",
    "experiments",
    "landscape",
    "sweep",
    "HingeBootstrap",
    "HingeFit",
    "hinge_bootstrap",
    "hinge_fit",
    "LinearFit",
    "Limits",
    "list_instances",
    "list_policies",
    "log_checkpoints",
    "make_curator",
    "make_instance",
    "linear_fit",
    "make_policy",
    "mean_se",
    "mean_with_se",
    "se_or_zero",
    "mechanisms",
    "plotting",
    "ratio_of_means_se",
    "simulate",
    "SlopeFit",
    "WindowSpread",
    "consecutive_windows",
    "window_spread",
    "loglog_slope",
    "log_growth",
    "ratio_exponent",
    "vetted",
    "PrivacyLevels",
    "list_privacy_levels",
    "make_privacy_levels",
]
__version__ = "0.1.0"
