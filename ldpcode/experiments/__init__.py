"""The simulation drivers that two chapter notebooks share, one function per idea, called with each
notebook's policy and bound.

* Ren et al. (2020a), Theorems 4 (LDP-UCB-L) and 6 (LDP-UCB-B), regret upper bounds checked by simulation:
  :func:`bounds_along_run` simulates the agent at each ε and evaluates the regret bound and the pulls bound
  of the proof (Appendix A.2 / A.4) at every checkpoint; :func:`gap_group_pulls` is its mean pull count per
  gap group; :func:`last_decade_slopes` compares the regret's local slope with the distribution-free rate;
  :meth:`BoundsAlongRun.violations` lists where a bound fails. :func:`agent_regret_bound` is the bound the paper
  proves for each of its agents (Theorems 4, 6, Corollaries 10, 11, and UCB1's), for the notebooks of its figures.
* Ren et al. (2020b), Theorems 7 (HeLDP-UCB-L) and 10 (HeLDP-UCB-B) and Corollaries 8 and 11:
  :func:`heterogeneous_against_bound` runs the agent under each law of privacy levels and evaluates the
  theorem's bound (infimum over κ) at every checkpoint; :func:`constant_levels_pairs` runs it with constant
  levels beside the homogeneous agent of the first paper (the reduction to the corollary);
  :func:`sup_ratio` is the stored "bound" statistic, the largest ratio of mean regret to bound over t.
* Ren et al. (2020a), Lemma 3, and Ren et al. (2020b), Lemma 6, tail bounds on sums of Laplace variables:
  :mod:`ldpcode.experiments.laplace_tail_check` compares each bound with the exact and the Monte Carlo tail
  (:func:`~ldpcode.experiments.laplace_tail_check.tail_curve`) and draws them.
* Azize and Basu (2022), Theorems 2 and 4, minimax lower bounds max(ε-free term, ε term):
  :func:`epsilon_free_crossing` finds numerically the ε where the bound leaves its ε-free value, a second
  computation of the closed-form thresholds.

The figures of these notebooks are in :mod:`ldpcode.plotting` (:func:`~ldpcode.plotting.looseness_figure`,
:func:`~ldpcode.plotting.gap_pulls_figure`, :func:`~ldpcode.plotting.rate_figure`,
:func:`~ldpcode.plotting.heterogeneous_bound_figure`, :func:`~ldpcode.plotting.constant_levels_figure`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .._validate import EPSILON_FLOOR, as_float_array, check_array, check_int, check_result, one_line
from ..instances import Instance, check_instance, make_privacy_levels
from ..policies import make_policy
from ..results import RegretCurves
from ..simulate import SimulationResult, simulate
from ..stats import bootstrap_se


def _check_callable(name: str, value) -> None:
    if not callable(value):
        raise TypeError(f"{name} must be a function (a bound of ldpcode.bounds), got {type(value).__name__}")


def _check_values(name: str, values, what: str) -> list:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name} must be a list of {what}, got {type(values).__name__}")
    values = list(values)
    if not values:
        raise ValueError(f"{name} must hold at least one {what.rstrip('s')}, got an empty list")
    return values


def _shown(value) -> str:
    return f"{one_line(value, 80)} of type {type(value).__name__}"


def _check_keep(keep, result) -> np.ndarray:
    """``keep`` as a boolean mask over the checkpoints of ``result``, or the ValueError saying what it must be."""
    keep = np.asarray(keep)
    if keep.dtype != bool or keep.shape != result.checkpoints.shape:
        raise ValueError(
            f"keep must be a boolean mask over the {result.checkpoints.size} checkpoints, "
            f"got dtype {keep.dtype} and shape {keep.shape}"
        )
    return keep


def _checked_bound(name: str, value) -> float:
    """What a bound callable returned: one finite number >= 0 (a nan or a string was stored as the bound)."""
    x = check_result(name, value)
    if not (math.isfinite(x) and x >= 0):
        raise ValueError(f"{name} must return a finite number >= 0, got {x!r}")
    return value


# ---------------------------------------------------------------- Ren et al. (2020a), Theorems 4 and 6


def gap_groups(instance: Instance) -> list[float]:
    """The distinct positive gaps Δ_a of ``instance`` (rounded to 12 digits), ascending: the gap groups
    whose pulls the proofs of Theorems 4 and 6 of Ren et al. (2020a) bound one by one."""
    check_instance(instance)
    return [float(g) for g in np.unique(np.round(instance.gaps[instance.gaps > 0], 12))]


def gap_group_pulls(result: SimulationResult, instance: Instance, keep, gaps) -> dict:
    """Per gap Δ in ``gaps``: the pull counts N_a(t) averaged over the arms of that gap (which are
    exchangeable), one row per run, at the checkpoints selected by the boolean mask ``keep``; shape
    (runs, keep.sum()). The empirical side of the pulls bound E[N_a(T)] <= ... in the proofs of Theorems 4
    and 6 of Ren et al. (2020a), Appendix A.2 and A.4."""
    check_instance(instance)
    keep = _check_keep(keep, result)
    out = {}
    for g in _check_values("gaps", gaps, "gaps"):
        arms = np.isclose(instance.gaps, g)
        if not arms.any() or g <= 0:
            raise ValueError(f"gaps must be positive gaps of the instance {list(gap_groups(instance))}, got {g!r}")
        out[g] = result.counts[:, keep][:, :, arms].mean(axis=2)
    return out


@dataclass(frozen=True)
class BoundsAlongRun:
    """What :func:`bounds_along_run` returns: ``results`` (ε -> SimulationResult), the ``checkpoints``, the
    mask ``keep`` of those >= n and the kept checkpoints ``t``; the ``gaps`` groups; per ε the
    ``regret_bound`` at every t, the mean ``pulls`` of each gap group (gap -> (runs, len(t))) and the
    ``pulls_bound`` of each gap group at every t."""

    results: dict
    checkpoints: np.ndarray
    keep: np.ndarray
    t: np.ndarray
    gaps: list
    regret_bound: dict
    pulls: dict
    pulls_bound: dict

    def violations(self) -> list[str]:
        """Where a bound fails, one line each: an ε whose mean regret over runs exceeds ``regret_bound`` at some
        kept checkpoint, a gap group whose mean pulls exceed ``pulls_bound`` at some kept checkpoint. Empty when
        both bounds hold at every t >= n: Theorems 4 and 6 of Ren et al. (2020a) and the bounds on
        :math:`E[N_a(t)]` in their proofs (Appendix A.2, A.4), checked as inequalities along the run."""
        out = []
        for eps, res in self.results.items():
            if not (res.mean_regret()[self.keep] <= self.regret_bound[eps]).all():
                out.append(f"eps = {eps:g}: the mean regret exceeds the regret bound")
            for g in self.gaps:
                if not (self.pulls[eps][g].mean(axis=0) <= self.pulls_bound[eps][g]).all():
                    out.append(f"eps = {eps:g}: the mean pulls of gap {g:g} exceed the pulls bound")
        return out


def bounds_along_run(
    policy: str,
    instance: Instance,
    horizon: int,
    runs: int,
    epsilons,
    *,
    seed: int,
    regret_bound: Callable,
    pulls_bound: Callable,
) -> BoundsAlongRun:
    """Simulate ``policy`` (a registry name taking ``epsilon``) at each ε, one simulation per ε with the same
    seed, and evaluate at every checkpoint t >= n the regret bound ``regret_bound(means, t, ε)`` and, per
    gap group Δ, the pulls bound ``pulls_bound(Δ, t, ε)``, beside the mean pulls of that gap group.

    The computation behind Theorem 4 (LDP-UCB-L, ``ldp.bounds.ldp_ucb_l_regret_bound`` and
    ``ldp_ucb_l_pulls_bound``, Appendix A.2) and Theorem 6 (LDP-UCB-B, ``ldp_ucb_b_*``, Appendix A.4) of
    Ren et al. (2020a). Neither agent uses T, so the run cut at t is the run of horizon t and each bound is
    evaluated with horizon t.
    """
    if not isinstance(policy, str):
        raise TypeError(f"policy must be a registry name such as 'LDP-UCB-L', got {type(policy).__name__}")
    check_instance(instance)
    epsilons = _check_values("epsilons", epsilons, "privacy levels")
    _check_callable("regret_bound", regret_bound)
    _check_callable("pulls_bound", pulls_bound)
    results = {eps: simulate(make_policy(policy, epsilon=eps), instance, horizon, runs, seed=seed) for eps in epsilons}
    cps = results[epsilons[0]].checkpoints
    keep = cps >= instance.n_arms
    t = cps[keep]
    gaps = gap_groups(instance)
    return BoundsAlongRun(
        results=results,
        checkpoints=cps,
        keep=keep,
        t=t,
        gaps=gaps,
        regret_bound={
            eps: np.array([_checked_bound("regret_bound", regret_bound(instance.means, int(s), eps)) for s in t])
            for eps in epsilons
        },
        pulls={eps: gap_group_pulls(res, instance, keep, gaps) for eps, res in results.items()},
        pulls_bound={
            eps: {g: np.array([_checked_bound("pulls_bound", pulls_bound(g, int(s), eps)) for s in t]) for g in gaps}
            for eps in epsilons
        },
    )


def last_decade_slopes(results: dict, t, keep, horizon: int, n_arms: int) -> tuple[dict, float]:
    """The least-squares log-log slope of each result's mean regret over the checkpoints ``t >= horizon // 10``
    (the last decade), and the same slope of the distribution-free rate ε^{-1} sqrt(n t log t) of Theorems 4
    and 6 of Ren et al. (2020a) (``ldp.bounds.distribution_free_rate``; its slope does not depend on ε).
    ``results`` maps a key (ε) to a SimulationResult; ``keep`` selects ``t`` from its checkpoints.
    Returns (key -> slope, rate slope).

    Checked against every result (as :func:`bounds_along_run` gives them: ``run.results, run.t, run.keep``):
    ``keep`` a boolean mask over its checkpoints (an integer array selected other checkpoints and the slope was
    about 0), ``t`` exactly its checkpoints that ``keep`` selects, ``horizon`` its horizon (a smaller one fitted
    another decade) and ``n_arms`` its number of arms."""
    from ..bounds import distribution_free_rate

    if not isinstance(results, dict) or not results or not all(isinstance(r, RegretCurves) for r in results.values()):
        raise TypeError(f"results must be a non-empty dict of key -> SimulationResult, got {_shown(results)}")
    horizon = check_int("horizon", horizon, minimum=1)
    n_arms = check_int("n_arms", n_arms, minimum=1)
    t = np.asarray(t)
    for key, res in results.items():
        mask = _check_keep(keep, res)
        if res.horizon != horizon:
            raise ValueError(
                f"horizon must be the horizon of the results, {res.horizon} (the last decade is [horizon // 10, "
                f"horizon]), got {horizon} (results[{key!r}])"
            )
        if t.shape != res.checkpoints[mask].shape or not np.array_equal(t, res.checkpoints[mask]):
            raise ValueError(
                f"t must be the checkpoints keep selects of every result ({int(mask.sum())} rounds from "
                f"{int(res.checkpoints[mask][0]) if mask.any() else '-'}: run.t of bounds_along_run), got "
                f"{one_line(t, 80)} (results[{key!r}])"
            )
        if isinstance(res, SimulationResult) and res.counts.shape[2] != n_arms:
            raise ValueError(f"n_arms must be the results' number of arms, {res.counts.shape[2]}, got {n_arms}")
    last = t >= horizon // 10
    if last.sum() < 2:
        raise ValueError(f"the last decade [{horizon // 10}, {horizon}] must hold at least 2 checkpoints of t")
    rate_slope = np.polyfit(np.log(t[last]), np.log([distribution_free_rate(n_arms, int(s), 1.0) for s in t[last]]), 1)[
        0
    ]
    slopes = {
        key: np.polyfit(np.log(t[last]), np.log(res.mean_regret()[keep][last]), 1)[0] for key, res in results.items()
    }
    return slopes, rate_slope


#: Registry name -> (the result of Ren et al. (2020a) that bounds its regret, the bound's function name in
#: ldpcode.bounds, whether it is a Sigmoid agent, whose bound is divided by Lemma 7's c_s^2).
_AGENT_BOUNDS = {
    "UCB1": ("the UCB1 bound of Auer et al. (2002)", "ucb1_regret_bound", False),
    "LDP-UCB-L": ("Theorem 4", "ldp_ucb_l_regret_bound", False),
    "LDP-UCB-B": ("Theorem 6", "ldp_ucb_b_regret_bound", False),
    "LDP-UCB-LS": ("Corollary 10", "ldp_ucb_l_regret_bound", True),
    "LDP-UCB-BS": ("Corollary 11", "ldp_ucb_b_regret_bound", True),
}


def agent_regret_bound(policy: str, means, horizon: int, epsilon=None, *, c_s: float = 1.0) -> tuple[str, float]:
    r"""The bound on the regret at ``horizon`` of the agent ``policy`` (a registry name) on arms of mean ``means``,
    and the result that proves it: (name, bound). With :math:`\Delta_a` the gaps and :math:`\log` natural,

    * ``"UCB1"`` (``epsilon`` None): Auer et al. (2002), Theorem 1,
      :math:`\sum_a 8\log T/\Delta_a + (1+\pi^2/3)\Delta_a`;
    * ``"LDP-UCB-L"``: Theorem 4 of Ren et al. (2020a),
      :math:`\sum_a 8(1+4/\epsilon)^2\log T/\Delta_a + (1+2\pi^2/3)\Delta_a`;
    * ``"LDP-UCB-B"``: Theorem 6,
      :math:`\sum_a 8((e^\epsilon+1)/(e^\epsilon-1))^2\log T/\Delta_a + (1+\pi^2/3)\Delta_a`;
    * ``"LDP-UCB-LS"``, ``"LDP-UCB-BS"``: Corollaries 10 and 11, the bounds of Theorems 4 and 6 divided by
      :math:`c_s^2`, with ``c_s`` Lemma 7's constant (``ldp.bounds.c_s_gaussian()`` or ``c_s_subgaussian()``).

    The table of bounds of Figure 1, of Supplement Figure 2 and of the notebook on Corollaries 10 and 11: one
    entry per curve, the bound named as the claims' ``how`` names it. A ValueError for another policy, an ε
    given to UCB1 or missing for a private agent, and a ``c_s`` other than 1 for an agent without the Sigmoid.
    """
    from .. import bounds

    if not isinstance(policy, str) or policy not in _AGENT_BOUNDS:
        raise ValueError(f"policy must be one of {', '.join(_AGENT_BOUNDS)}, got {policy!r}")
    which, fn, sigmoid = _AGENT_BOUNDS[policy]
    if not sigmoid and c_s != 1.0:
        raise ValueError(f"c_s is Lemma 7's constant of the Sigmoid agents: {policy} takes none, got c_s = {c_s!r}")
    if policy == "UCB1":
        if epsilon is not None:
            raise ValueError(f"UCB1 is not private: epsilon must be None, got {epsilon!r}")
        return which, bounds.ucb1_regret_bound(means, horizon)
    if epsilon is None:
        raise ValueError(f"{policy} is private: give its epsilon")
    return which, getattr(bounds, fn)(means, horizon, epsilon, c_s=c_s)


# ---------------------------------------------------------------- Ren et al. (2020b), Theorems 7 and 10


@dataclass(frozen=True)
class HeterogeneousRun:
    """What :func:`heterogeneous_against_bound` returns, keyed by setting (law, ε_min): the privacy
    ``levels``, the ``quantities`` (p_0, α_0, β_0, Q_L, Q_B), the ``results``; the ``checkpoints``, the mask
    ``keep`` of those >= n and the kept ``t``; ``best`` ((κ*, bound) at every t, shape (len(t), 2)) and
    ``bound_kappa1``, the bound at T with the remark's κ = 1."""

    levels: dict
    quantities: dict
    results: dict
    checkpoints: np.ndarray
    keep: np.ndarray
    t: np.ndarray
    best: dict
    bound_kappa1: dict


def heterogeneous_against_bound(
    policy: str,
    instance: Instance,
    horizon: int,
    runs: int,
    settings,
    *,
    seed: int,
    best_kappa: Callable,
    regret_bound: Callable,
) -> HeterogeneousRun:
    """Simulate ``policy`` (a registry name taking ``epsilon_min``) under each setting (law of the users'
    privacy levels, ε_min), with the same seed, and evaluate at every checkpoint t >= n the infimum over κ of
    the theorem's bound, ``best_kappa(means, t, levels, ε_min)`` -> (κ*, bound), and at T the bound with
    κ = 1, ``regret_bound(means, T, levels, ε_min, kappa=1.0)``.

    The computation behind Theorem 7 (HeLDP-UCB-L, ``ldp.bounds.heldp_ucb_l_best_kappa`` and
    ``heldp_ucb_l_regret_bound``) and Theorem 10 (HeLDP-UCB-B, ``heldp_ucb_b_*``) of Ren et al. (2020b).
    """
    from ..bounds import heldp_quantities

    if not isinstance(policy, str):
        raise TypeError(f"policy must be a registry name such as 'HeLDP-UCB-L', got {type(policy).__name__}")
    check_instance(instance)
    settings = _check_values("settings", settings, "(law, epsilon_min) pairs")
    for s in settings:
        if isinstance(s, str) or len(s) != 2:
            raise ValueError(f"settings must hold (law, epsilon_min) pairs, got {s!r}")
    _check_callable("best_kappa", best_kappa)
    _check_callable("regret_bound", regret_bound)
    levels = {(law, em): make_privacy_levels(law) for law, em in settings}
    quant = {key: heldp_quantities(lv, key[1]) for key, lv in levels.items()}
    het = {
        key: simulate(make_policy(policy, epsilon_min=key[1]), instance, horizon, runs, seed=seed, privacy_levels=lv)
        for key, lv in levels.items()
    }
    cps = next(iter(het.values())).checkpoints
    keep = cps >= instance.n_arms
    t = cps[keep]
    return HeterogeneousRun(
        levels=levels,
        quantities=quant,
        results=het,
        checkpoints=cps,
        keep=keep,
        t=t,
        best={key: np.array([best_kappa(instance.means, int(s), lv, key[1]) for s in t]) for key, lv in levels.items()},
        bound_kappa1={key: regret_bound(instance.means, horizon, lv, key[1], kappa=1.0) for key, lv in levels.items()},
    )


@dataclass(frozen=True)
class ConstantLevelsPair:
    """One ε of :func:`constant_levels_pairs`: the heterogeneous agent's run ``he`` and the homogeneous agent's
    ``ho`` (same seed), the minimizing ``kappa_star`` at T, the theorem's bound at T with κ -> ∞
    (``theorem_at_inf``), the corollary's closed form at T (``corollary``) and at every t (``corollary_t``),
    and the first paper's bound for the homogeneous agent at T (``homogeneous``)."""

    he: SimulationResult
    ho: SimulationResult
    kappa_star: float
    theorem_at_inf: float
    corollary: float
    corollary_t: np.ndarray
    homogeneous: float


def constant_levels_pairs(
    he_policy: str,
    ho_policy: str,
    instance: Instance,
    horizon: int,
    runs: int,
    epsilons,
    t,
    *,
    seed: int,
    best_kappa: Callable,
    regret_bound: Callable,
    corollary_bound: Callable,
    homogeneous_bound: Callable,
) -> dict:
    """With constant levels ε_t ≡ ε = ε_min, for each ε: the heterogeneous agent ``he_policy`` (taking
    ``epsilon_min``) and the homogeneous agent ``ho_policy`` of Ren et al. (2020a) (taking ``epsilon``), paired
    by the same seed, with the theorem's bound at κ -> ∞ (``regret_bound(..., kappa=math.inf)``), its
    minimizing κ (``best_kappa``), the corollary's closed form ``corollary_bound(means, T, ε)`` at T and at every
    checkpoint in ``t``, and the first paper's bound ``homogeneous_bound(means, T, ε)``. Returns ε ->
    :class:`ConstantLevelsPair`.

    The reduction of Theorem 7 to Corollary 8 (HeLDP-UCB-L against LDP-UCB-L, Section 3.1) and of Theorem 10
    to Corollary 11 (HeLDP-UCB-B against LDP-UCB-B, Section 3.2) of Ren et al. (2020b).
    """
    for name, value in (("he_policy", he_policy), ("ho_policy", ho_policy)):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a registry name, got {type(value).__name__}")
    check_instance(instance)
    epsilons = _check_values("epsilons", epsilons, "privacy levels")
    for name, fn in (
        ("best_kappa", best_kappa),
        ("regret_bound", regret_bound),
        ("corollary_bound", corollary_bound),
        ("homogeneous_bound", homogeneous_bound),
    ):
        _check_callable(name, fn)
    means = instance.means
    pairs = {}
    for eps in epsilons:
        lv = make_privacy_levels("constant", epsilon=eps)
        he = simulate(make_policy(he_policy, epsilon_min=eps), instance, horizon, runs, seed=seed, privacy_levels=lv)
        ho = simulate(make_policy(ho_policy, epsilon=eps), instance, horizon, runs, seed=seed)
        pairs[eps] = ConstantLevelsPair(
            he=he,
            ho=ho,
            kappa_star=best_kappa(means, horizon, lv, eps)[0],
            theorem_at_inf=regret_bound(means, horizon, lv, eps, kappa=math.inf),
            corollary=corollary_bound(means, horizon, eps),
            corollary_t=np.array([corollary_bound(means, int(s), eps) for s in t]),
            homogeneous=homogeneous_bound(means, horizon, eps),
        )
    return pairs


def sup_ratio(regret_runs, bound_t) -> tuple[float, float]:
    """max over the checkpoints of the mean regret over the bound, max_t R̄(t)/B(t), and its bootstrap
    standard error over the runs (``ldp.bootstrap_se``, whole runs resampled). ``regret_runs`` has shape
    (runs, len(bound_t)). The stored "bound" statistic of Theorems 7 and 10 and Corollaries 8 and 11 of
    Ren et al. (2020b): the bound holds at every checkpoint iff it is <= 1."""
    regret_runs = as_float_array("regret_runs", regret_runs, bools=False)  # a bool array was read as 0/1 regrets
    bound_t = as_float_array("bound_t", bound_t, bools=False)
    if regret_runs.ndim != 2 or bound_t.ndim != 1 or regret_runs.shape[1] != bound_t.shape[0]:
        raise ValueError(
            f"regret_runs must have shape (runs, {bound_t.shape[0] if bound_t.ndim == 1 else '?'}) to match "
            f"bound_t of shape {bound_t.shape}, got {regret_runs.shape}"
        )
    if not (np.isfinite(bound_t) & (bound_t > 0)).all():
        raise ValueError("bound_t must be > 0 and finite at every checkpoint (it divides the mean regret)")
    check_array("regret_runs", regret_runs, low=0)  # a pseudo-regret: finite and >= 0
    stat = lambda r: float(np.max(r.mean(axis=0) / bound_t))  # noqa: E731
    return stat(regret_runs), bootstrap_se(stat, regret_runs)


# ---------------------------------------------------------------- Azize and Basu (2022), Theorems 2 and 4


def epsilon_free_crossing(bound: Callable) -> float:
    """The ε at which a minimax lower bound of the form max(ε-free term, ε term), ``bound(ε)``, leaves its
    ε-free value, found numerically: the root of bound(ε) / bound(10^12) - (1 + 10^-12) by ``brentq`` on
    [``EPSILON_FLOOR``, 1000] (xtol 1e-300, rtol 1e-14).

    Azize and Basu (2022), Theorem 2 (bound (3), ``lambda e: ldp.bounds.gdp_minimax_lower_bound(T, K, e)``) and
    Theorem 4 (bound (5), ``ldp.bounds.linear_minimax_lower_bound``): a second computation of the closed-form
    thresholds ``gdp_minimax_threshold`` and ``linear_minimax_threshold``, from the bound itself.
    """
    from scipy.optimize import brentq

    _check_callable("bound", bound)
    flat = bound(1e12)
    if not (math.isfinite(flat) and flat > 0):
        raise ValueError(f"bound(1e12), the ε-free value, must be a finite number > 0, got {flat!r}")
    excess = lambda e: bound(e) / flat - (1 + 1e-12)  # noqa: E731
    if not (excess(EPSILON_FLOOR) > 0 > excess(1e3)):
        raise ValueError(
            f"bound must exceed its ε-free value {flat!r} at ε = {EPSILON_FLOOR} and reach it by ε = 1000, got "
            f"{bound(EPSILON_FLOOR)!r} and {bound(1e3)!r}"
        )
    return brentq(excess, EPSILON_FLOOR, 1e3, xtol=1e-300, rtol=1e-14)
