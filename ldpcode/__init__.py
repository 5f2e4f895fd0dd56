"""ldpcode: the executable companion to four papers on differentially private bandits.

>>> import ldpcode as ldp
>>> inst = ldp.make_instance("ren2020-bernoulli")
>>> pol = ldp.make_policy("LDP-UCB-B", epsilon=2.0)
>>> res = ldp.simulate(pol, inst, horizon=10_000, runs=4, seed=0)
>>> res.regret.shape[0]
4
"""

import importlib as _importlib
import typing as _typing

from . import divergences, mechanisms  # noqa: F401
from ._validate import EPSILON_FLOOR
from .instances import Instance, PrivacyLevels, list_instances, list_privacy_levels, make_instance, make_privacy_levels
from .mechanisms import CTB, CTBS, CTL, CTLS, make_curator
from .policies import list_policies, make_policy
from .limits import Limits
from .results import RegretCurves
from .simulate import SimulationResult, log_checkpoints, simulate
from .exponents import (
    SlopeFit,
    WindowSpread,
    consecutive_windows,
    log_growth,
    loglog_slope,
    ratio_exponent,
    window_spread,
)
from .stats import (
    HingeBootstrap,
    HingeFit,
    LinearFit,
    bootstrap_se,
    hinge_bootstrap,
    hinge_fit,
    linear_fit,
    mean_se,
    mean_with_se,
    se_or_zero,
    ratio_of_means_se,
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
    "book",
    "bounds",
    "choose_epsilon_min",
    "bootstrap_se",
    "claims",
    "divergences",
    "experiments",
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

# Lazy loading (PEP 562). ``import ldpcode`` loads only the simulation core (instances, mechanisms, policies,
# simulate, stats, exponents and what they import: numba and scipy); the rooms below load on first use, so that pyplot
# (through ``plotting``) and the audits cost nothing to a script or worker that never touches them (issue 24).
# ``ldp.audit.X``, ``from ldpcode import audit`` and ``import ldpcode.audit`` work as before, and a room that the
# core already loaded is a plain attribute, never seen by __getattr__. tests/simulation/test_import_time.py checks
# that pyplot and the audits stay unloaded and that every name of dir(ldpcode) resolves.

#: the submodules reachable as ``ldpcode.<name>`` without an import of their own: the public rooms, and those a
#: room imported under the eager ``__init__`` (a notebook may use ``ldp.stats`` or ``ldp.global_policies``)
_LAZY_SUBMODULES = frozenset(
    {
        "_paths",
        "_validate",
        "_vetted_noise",
        "audit",
        "book",
        "bounds",
        "claims",
        "divergences",
        "engine",
        "experiments",
        "exponents",
        "global_policies",
        "instances",
        "limits",
        "mechanisms",
        "parameters",
        "plotting",
        "policies",
        "reductions",
        "results",
        "rng",
        "stats",
        "sweep",
        "table_io",
        "vetted",
    }
)
#: top-level names that live in a lazily loaded room: name -> room
_LAZY_ATTRIBUTES = {"choose_epsilon_min": "bounds"}

if _typing.TYPE_CHECKING:  # for type checkers and editors only; at run time __getattr__ provides these
    from . import audit, book, bounds, claims, experiments, plotting, sweep, vetted  # noqa: F401
    from .bounds import choose_epsilon_min  # noqa: F401


def __getattr__(name: str):
    """Load a room (or a name that lives in one) on first access; see the comment above."""
    if name in _LAZY_ATTRIBUTES:
        value = getattr(_importlib.import_module(f".{_LAZY_ATTRIBUTES[name]}", __name__), name)
        globals()[name] = value
        return value
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _LAZY_SUBMODULES | set(_LAZY_ATTRIBUTES))
