"""The K-armed learners of the book, by family, and the one registry that names them.

* index policies (Ren et al. 2020a): ``UCB1``, ``UCB1-S``, ``LDP-UCB-L``, ``-B``, ``-LS``, ``-BS``, in
  :mod:`.index`;
* heterogeneous privacy levels (Ren et al. 2020b): ``HeLDP-UCB-L``, ``-B``, ``-LS``, ``-BS``, in
  :mod:`.heterogeneous`;
* ε-global DP (Azize and Basu 2022): ``AdaP-UCB``, ``AdaP-KLUCB``, ``DP-SE``, ``DP-UCB`` and the non-private
  ``KL-UCB``, in :mod:`ldpcode.global_policies`;
* the (ε, δ)-LDP reduction (Zheng et al. 2020, Algorithm 1): ``OnePoint-UCB``, in :mod:`ldpcode.reductions`.

:data:`REGISTRY` maps each name to the builder of its family; :func:`make_policy` builds by name,
:func:`list_policies` lists the names family by family, and :data:`POLICY_COLORS` gives each a colour for the
figures (:mod:`ldpcode.plotting` reads it from here). Every policy implements the engine's protocol
(:class:`ldpcode.engine.BanditPolicy`; :class:`ldpcode.engine.ArmedPolicy` supplies all but ``label``,
``check_environment``, ``cost`` and ``run_one``), so :func:`ldpcode.simulate`, :func:`ldpcode.sweep.sweep`, the
command line and the conformance tests (``tests/policies/test_conformance.py``, generated over this registry) take
any of them.

**Adding a policy** is one class in one file and one call, :func:`register_policy` (``name``, a builder
``build(name, epsilon, epsilon_min, options)``, optionally its colour): ``tests/policies/test_new_policy.py``
adds an ε-greedy policy from the test file alone and runs it through ``simulate``, ``sweep`` and a figure.
"""

from __future__ import annotations

from collections.abc import Callable

from .._validate import _is_real, check_choice, one_line
from ..global_policies import GLOBAL_POLICIES, make_global_policy
from ..reductions.policy import ONE_POINT_POLICIES, build_one_point
from .heterogeneous import (
    HE_SPECS,
    HELDP_L_MAX_EPSILON_MIN,
    HeterogeneousPolicy,
    UniformPlayWarning,
    build_heterogeneous,
    heterogeneous_chunk,
)
from .index import SPECS, IndexPolicy, build_index, index_policy_chunk

__all__ = [
    "HELDP_L_MAX_EPSILON_MIN",
    "HeterogeneousPolicy",
    "IndexPolicy",
    "POLICY_COLORS",
    "REGISTRY",
    "UniformPlayWarning",
    "heterogeneous_chunk",
    "index_policy_chunk",
    "list_policies",
    "make_policy",
    "register_policy",
]


def _build_global(name, epsilon, epsilon_min, options):
    if epsilon_min is not None:
        raise ValueError(f"policy {name!r} takes no epsilon_min (one epsilon for the whole action sequence)")
    return make_global_policy(name, epsilon, options)


REGISTRY: dict[str, Callable] = {
    **dict.fromkeys(SPECS, build_index),
    **dict.fromkeys(HE_SPECS, build_heterogeneous),
    **dict.fromkeys(GLOBAL_POLICIES, _build_global),
    **dict.fromkeys(ONE_POINT_POLICIES, build_one_point),
}
"""Every policy :func:`make_policy` builds, by name, with the builder of its family."""

#: the order of :func:`list_policies`: family by family, each sorted; a registered policy comes last
_FAMILIES = [sorted(SPECS), sorted(HE_SPECS), sorted(GLOBAL_POLICIES), sorted(ONE_POINT_POLICIES), []]

POLICY_COLORS: dict[str, str] = {
    "UCB1": "#000000",
    "UCB1-S": "#000000",
    "LDP-UCB-L": "#1f77b4",
    "LDP-UCB-LS": "#1f77b4",
    "LDP-UCB-B": "#d62728",
    "LDP-UCB-BS": "#d62728",
    # Azize and Basu (2022), global DP
    "AdaP-KLUCB": "#2ca02c",
    "AdaP-UCB": "#ff7f0e",
    "DP-SE": "#9467bd",
    "DP-UCB": "#8c564b",
    "KL-UCB": "#7f7f7f",
    # the landscape chapter: heterogeneous LDP and the (eps, delta)-LDP reduction of Zheng et al. (2020)
    "HeLDP-UCB-B": "#e377c2",
    "OnePoint-UCB": "#17becf",
}
"""A policy's colour in the book's figures (a name absent here takes matplotlib's next colour)."""


def list_policies() -> list[str]:
    """The names :func:`make_policy` accepts, family by family (each sorted), registered ones last."""
    return [name for family in _FAMILIES for name in family]


def register_policy(name: str, build: Callable, *, color: str | None = None) -> None:
    """Add a policy under ``name``: ``build(name, epsilon, epsilon_min, options)`` returns it (``options``: the
    dict of ``alpha``, ``beta``, ``gamma``, all None unless given, which a policy without options refuses); from
    then on :func:`make_policy`, :func:`list_policies`, :func:`ldpcode.sweep.sweep`, the command line (in the same
    process) and the figures' colours (``color``, e.g. ``"#bcbd22"``) know it. A name already registered is a
    ValueError: a policy is never replaced silently."""
    if not isinstance(name, str) or not name.strip():
        raise TypeError(f"name must be a non-empty string, got {name!r}")
    if name in REGISTRY:
        raise ValueError(f"policy {name!r} is already registered; choose another name")
    if not callable(build):
        raise TypeError(f"build must be callable as build(name, epsilon, epsilon_min, options), got {build!r}")
    if color is not None and not isinstance(color, str):
        raise TypeError(f"color must be a colour string such as '#bcbd22', got {color!r}")
    REGISTRY[name] = build
    _FAMILIES[-1] = sorted([*_FAMILIES[-1], name])
    if color is not None:
        POLICY_COLORS[name] = color


#: what each numeric option of :func:`make_policy` must be, in the words of the builders' own checks
_NUMBERS = dict.fromkeys(("epsilon", "epsilon_min"), "a real number > 0") | {"alpha": "a real number"}
_NUMBERS |= dict.fromkeys(("beta", "gamma", "delta"), "a probability, a real number in (0, 1)")


def make_policy(
    name: str,
    epsilon: float | None = None,
    *,
    epsilon_min: float | None = None,
    alpha: float | None = None,
    beta: float | None = None,
    gamma: float | None = None,
    delta: float | None = None,
):
    """A policy by the paper's name.

    The homogeneous private policies need ``epsilon`` > 0 and UCB1 takes none; the heterogeneous
    HeLDP-UCB-* take ``epsilon_min`` > 0, the threshold below which responses are discarded (the users'
    levels are part of the environment: ``simulate(..., privacy_levels=...)``). Privacy levels are at least
    :data:`~ldpcode._validate.EPSILON_FLOOR` (1e-9: below it indexes stop being finite numbers) and may be
    as large as any finite double (the curators' probabilities take their limits, with no overflow:
    as epsilon grows each agent becomes its non-private baseline UCB1 or UCB1-S); HeLDP-UCB-L's and -LS's
    ``epsilon_min`` is at most :data:`HELDP_L_MAX_EPSILON_MIN` (1e150), and so is every users' level they accept
    (their ``check_environment`` refuses levels that reach beyond it, before any work).

    The ε-global DP policies of Azize and Basu (2022), :mod:`ldpcode.global_policies`: ``AdaP-UCB`` and
    ``AdaP-KLUCB`` (``alpha``, default 3.1; alpha <= 3 warns that Theorems 7-8 no longer apply), ``DP-SE``
    (``beta``, default 1/T), ``DP-UCB`` (``gamma``, default 0.1), and the non-private ``KL-UCB``.

    The (ε, δ)-LDP one-point reduction of Zheng et al. (2020), Algorithm 1, around UCB1: ``OnePoint-UCB``
    (:class:`ldpcode.reductions.OnePointUCB`) needs ``epsilon`` and ``delta``, a probability in (0, 1); no
    other policy takes ``delta``.

    The names are the keys of :data:`REGISTRY`, each with the builder of its family; :func:`register_policy` adds
    one (module docstring). An unknown name is refused with the closest known one (:func:`~ldpcode._validate.check_choice`), and a
    numeric option that is not a real number (``bool`` included) with a TypeError, before any builder runs.
    """
    check_choice("policy", name, REGISTRY)
    given = dict(epsilon=epsilon, epsilon_min=epsilon_min, alpha=alpha, beta=beta, gamma=gamma, delta=delta)
    for key, value in given.items():  # a list of 10**6 items was shown whole by the builders' checks (5 MB)
        if value is not None and not _is_real(value):
            kind = type(value).__qualname__  # np.True_ is of type numpy.bool, not bool
            kind = kind if type(value).__module__ == "builtins" else f"{type(value).__module__}.{kind}"
            raise TypeError(f"{key} must be {_NUMBERS[key]}, got {one_line(value)} of type {kind}")
    options = {"alpha": alpha, "beta": beta, "gamma": gamma}
    if name in ONE_POINT_POLICIES:
        options["delta"] = delta
    elif delta is not None:
        raise ValueError(
            f"policy {name!r} takes no delta (only the (ε, δ)-LDP {', '.join(ONE_POINT_POLICIES)} does), "
            f"got delta={one_line(delta)}"
        )
    return REGISTRY[name](name, epsilon, epsilon_min, options)
