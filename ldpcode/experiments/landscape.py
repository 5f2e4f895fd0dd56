"""The privacy landscape: every trust model of the book on one instance, regret against ε, beside the lower bounds.

None of the four papers puts its privacy model next to the others. This module does, for the chapter
``chapters/landscape/privacy_landscape.ipynb``:

* :data:`MODELS`: the policies, each with its trust model: no privacy (UCB1, KL-UCB), ε-LDP (LDP-UCB-L and
  LDP-UCB-B of Ren et al. 2020), heterogeneous ε-LDP (HeLDP-UCB-B of their extended version, users' levels drawn
  with mean ε: :func:`same_mean_levels`, and the book's prediction for it, :func:`same_mean_prediction`), ε-global DP
  (AdaP-UCB and AdaP-KLUCB of Azize and Basu 2022) and (ε, δ)-LDP (the one-point reduction of Zheng et al. 2020
  around UCB);
* :func:`lower_bounds`: the asymptotic lower bounds of each model times log T: Ren et al. Theorem 1 (ε-LDP),
  Azize and Basu Theorem 3 (ε-global DP), Lai and Robbins (no privacy); :func:`closest_to_bound`, where a policy
  comes closest to the bound of its model;
* :func:`price_of_trust` and :func:`crossover`: the ratio of the local model's regret to the global model's at
  each ε, and the privacy level ε_k below which local privacy costs at least k times global privacy, with a
  bootstrap over runs (:func:`crossover_bootstrap`);
* :func:`landscape_panel`: the figure, regret against ε on log axes.

The simulations go through :func:`ldpcode.sweep.sweep`, so a reader can run the same grid on a cluster.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import as_float_array, check_epsilon, check_int, check_probability_vector
from ..bounds import (
    gdp_lower_bound_constant,
    gdp_lower_bound_terms,
    heldp_beta,
    heldp_ucb_b_homogeneous_bound,
    heldp_ucb_b_regret_bound,
    lai_robbins_constant,
    lower_bound_constant,
)
from ..instances import make_privacy_levels
from ..exponents import _row_slopes
from ..stats import bootstrap_indices, linear_fit

MODELS = {
    "UCB1": "no privacy",
    "KL-UCB": "no privacy",
    "LDP-UCB-L": "ε-LDP",
    "LDP-UCB-B": "ε-LDP",
    "HeLDP-UCB-B": "heterogeneous ε-LDP",
    "AdaP-UCB": "ε-global DP",
    "AdaP-KLUCB": "ε-global DP",
    "OnePoint-UCB": "(ε, δ)-LDP",
}
"""The landscape's policies and the trust model of each, in the order of the figure's legend."""


def same_mean_levels(epsilon: float):
    r"""The users' levels of the heterogeneous cell ε: half the users at ε/2, half at 3ε/2 (mean ε), with
    :math:`\epsilon_{\min} = \epsilon/2`, so that HeLDP-UCB-B keeps every user. Returns (ε_min,
    :class:`ldpcode.instances.PrivacyLevels`); module level, so that a Dask worker can unpickle it."""
    eps = check_epsilon(epsilon)
    return eps / 2, make_privacy_levels("discrete", values=[eps / 2, 1.5 * eps], probs=[0.5, 0.5])


def same_mean_prediction(means, horizon: int, epsilon: float) -> tuple[float, float]:
    r"""The book's prediction for HeLDP-UCB-B on the users of :func:`same_mean_levels` (levels ε/2 and 3ε/2, mean ε,
    all kept) over LDP-UCB-B at ε, and the ratio of the papers' bounds, as ``(variance_ratio, bound_ratio)``:

    .. math:: \frac{E[\beta(\epsilon_t)]}{\beta(\epsilon)}
              = \frac{\beta(\epsilon/2) + \beta(3\epsilon/2)}{2\,\beta(\epsilon)},\qquad
              \beta(\epsilon) = \Big(\frac{e^\epsilon+1}{e^\epsilon-1}\Big)^2,

    the variance proxy of the unbiased value g at the users' levels over its value at ε (the factor of HeLDP-UCB-B's
    index, chapter ``chapters/heldp/unbiasing_map_g``), and Theorem 10 of the HeLDP paper at those levels (its
    infimum over κ, :func:`ldpcode.bounds.heldp_ucb_b_regret_bound`) over Corollary 11 at ε
    (:func:`ldpcode.bounds.heldp_ucb_b_homogeneous_bound`), at ``horizon`` on the arms ``means``."""
    eps_min, levels = same_mean_levels(epsilon)
    bound_ratio = heldp_ucb_b_regret_bound(means, horizon, levels, eps_min) / heldp_ucb_b_homogeneous_bound(
        means, horizon, epsilon
    )
    return float(levels.expect(heldp_beta, eps_min) / heldp_beta(epsilon)), bound_ratio


def lower_bounds(means, epsilons, horizon: int) -> dict:
    r"""The lower bounds of the three trust models at ``horizon``, each as constant × log T (the bounds are
    asymptotic: :math:`\liminf_T R(T)/\log T \ge c`), for each ε of ``epsilons`` (Bernoulli arms):

    * ``"ε-LDP (Ren et al. Thm 1)"``: :math:`c = (e^\epsilon - e^{-\epsilon})^{-2}\sum_a 1/\Delta_a`
      (:func:`ldpcode.bounds.lower_bound_constant`);
    * ``"ε-global DP (Azize and Basu Thm 3)"``: :math:`c = \sum_a \Delta_a/\min\{d(\mu_a,\mu^*), 6\epsilon\Delta_a\}`
      (:func:`ldpcode.bounds.gdp_lower_bound_constant`);
    * ``"no privacy (Lai and Robbins)"``: :math:`c = \sum_a \Delta_a/d(\mu_a,\mu^*)`, the same at every ε.
    """
    means = check_probability_vector("means", means)
    horizon = check_int("horizon", horizon, minimum=2)
    eps = [check_epsilon(e) for e in epsilons]
    log_t = math.log(horizon)
    return {
        "ε-LDP (Ren et al. Thm 1)": np.array([lower_bound_constant(means, e) for e in eps]) * log_t,
        "ε-global DP (Azize and Basu Thm 3)": np.array([gdp_lower_bound_constant(means, e) for e in eps]) * log_t,
        "no privacy (Lai and Robbins)": np.full(len(eps), lai_robbins_constant(means) * log_t),
    }


def model_lower_bound(policy: str, means, epsilons, horizon: int) -> tuple[np.ndarray, str]:
    """The lower bound (times log T, on ``epsilons``) that binds ``policy`` through its trust model, and what it is:

    * ε-LDP (``LDP-UCB-*``): max(Ren et al. Theorem 1, Lai and Robbins) at ε;
    * heterogeneous ε-LDP (``HeLDP-UCB-B`` with :func:`same_mean_levels`): every user is at most 3ε/2-LDP, so the
      same bound at 3ε/2 binds it;
    * ε-global DP (``AdaP-*``, ``DP-SE``, ``DP-UCB``): Azize and Basu Theorem 3 at ε;
    * (ε, δ)-LDP (``OnePoint-UCB``) and the non-private policies: Lai and Robbins (no (ε, δ) bound in the papers).
    """
    eps = np.asarray([check_epsilon(e) for e in epsilons])
    if policy not in MODELS and not policy.startswith(("LDP-UCB-", "DP-")):
        raise ValueError(f"no trust model known for policy {policy!r}; known: {sorted(MODELS)}")
    lr = lower_bounds(means, eps, horizon)["no privacy (Lai and Robbins)"]
    if policy.startswith("LDP-UCB-"):
        return np.maximum(lower_bounds(means, eps, horizon)["ε-LDP (Ren et al. Thm 1)"], lr), (
            "max(Ren et al. Thm 1, Lai-Robbins) x log T at eps"
        )
    if policy == "HeLDP-UCB-B":
        return np.maximum(lower_bounds(means, 1.5 * eps, horizon)["ε-LDP (Ren et al. Thm 1)"], lr), (
            "max(Ren et al. Thm 1, Lai-Robbins) x log T at 3 eps / 2, the largest user level"
        )
    if policy.startswith(("AdaP-", "DP-")):
        return lower_bounds(means, eps, horizon)["ε-global DP (Azize and Basu Thm 3)"], "Azize and Basu Thm 3 x log T"
    return lr, "Lai-Robbins x log T (no bound of the papers is tighter for this model)"


def binding_term(policy: str, means, epsilon: float, horizon: int) -> tuple[bool, str] | None:
    """Which term of the bound of ``policy``'s model (:func:`model_lower_bound`) binds at ``epsilon``: (whether the
    privacy term binds anywhere, the words). Ren et al.'s Theorem 1 is a maximum of two sums, so one of them binds
    as a whole; Azize and Basu's Theorem 3 takes min(d(μ_a, μ*), 6εΔ_a) arm by arm, so the privacy term may bind
    for some arms only. At large ε both reduce to Lai and Robbins'. None for a model with no privacy term."""
    bound, _ = model_lower_bound(policy, means, [epsilon], horizon)
    if not policy.startswith(("LDP-UCB-", "HeLDP-", "AdaP-", "DP-")):
        return None
    if policy.startswith(("AdaP-", "DP-")):
        terms = gdp_lower_bound_terms(means, epsilon)
        k, n = int((epsilon < terms.epsilon_threshold).sum()), terms.gaps.size
        if k == 0:
            return False, "Lai-Robbins (the privacy term binds for no arm)"
        return (
            True,
            "its privacy term for every arm"
            if k == n
            else f"its privacy term for {k} of {n} arms, d(μ_a, μ*) for the rest",
        )
    lr = lower_bounds(means, [epsilon], horizon)["no privacy (Lai and Robbins)"]
    if bound[0] > lr[0] * (1 + 1e-12):
        return True, "its privacy term"
    return False, "Lai-Robbins (the privacy term is the smaller)"


def privacy_binds(policy: str, means, epsilon: float, horizon: int) -> bool | None:
    """Whether, at ``epsilon``, the privacy term of ``policy``'s bound binds (for at least one arm; see
    :func:`binding_term`); None for a model whose bound has no privacy term."""
    term = binding_term(policy, means, epsilon, horizon)
    return None if term is None else term[0]


def final_regret(table, policy: str) -> tuple[np.ndarray, np.ndarray]:
    """(ε values, regret (runs, n_ε)) of ``policy`` at the horizon, from a :func:`ldpcode.sweep.sweep` table."""
    at = table[(table["policy"] == policy) & (table["t"] == table["t"].max())]
    if at.empty:
        raise ValueError(f"the table has no rows of policy {policy!r}")
    eps = np.sort(at["epsilon"].unique())
    runs = at["run"].nunique()
    regret = np.empty((runs, eps.size))
    for j, e in enumerate(eps):
        cell = at[at["epsilon"] == e].sort_values("run")["regret"].to_numpy()
        if cell.size != runs:
            raise ValueError(f"policy {policy!r} has {cell.size} runs at eps = {e}, not {runs}")
        regret[:, j] = cell
    return eps, regret


@dataclass(frozen=True)
class ClosestToBound:
    """Where a policy's mean regret comes closest to the lower bound of its trust model (:func:`closest_to_bound`):
    the grid's ``epsilon``, the ``mean`` regret at the horizon there with its standard error ``se`` over runs, the
    ``bound`` (constant × log T) and ``how`` it is built (:func:`model_lower_bound`)."""

    epsilon: float
    mean: float
    se: float
    bound: float
    how: str

    @property
    def ratio(self) -> float:
        """mean regret / bound at that ε (>= 1 where the lower bound holds)."""
        return self.mean / self.bound


def closest_to_bound(table, policy: str, means, horizon: int, epsilon: float | None = None) -> ClosestToBound:
    r"""The ε of the sweep's grid at which ``policy``'s mean regret at the horizon is the smallest multiple of the
    lower bound of its trust model:

    .. math:: \epsilon^\circ = \arg\min_{\epsilon}\ \bar R(T;\epsilon)\,/\,\big(c(\epsilon)\log T\big),

    :math:`\bar R` the mean over runs of :func:`final_regret` (standard error :math:`s/\sqrt n`), c the constant of
    :func:`model_lower_bound`: the point where a bound that holds (``ratio`` >= 1) is nearest to failing. With
    ``epsilon`` (an ε of the grid), the same at that ε instead: at the grid's smallest, where the privacy term of the
    bound is the larger, the row tests the privacy bound itself. ``how`` says which term binds there
    (:func:`privacy_binds`)."""
    eps, runs = final_regret(table, policy)
    m, se = runs.mean(axis=0), runs.std(axis=0, ddof=1) / math.sqrt(runs.shape[0])
    b, how = model_lower_bound(policy, means, eps, horizon)
    if epsilon is None:
        j = int(np.argmin(m / b))
    else:
        hit = np.flatnonzero(eps == check_epsilon(epsilon))
        if not hit.size:
            raise ValueError(f"epsilon {epsilon!r} is not in the grid of policy {policy!r}: {eps.tolist()}")
        j = int(hit[0])
    term = binding_term(policy, means, float(eps[j]), horizon)
    if term is not None:
        how = f"{how}; at eps = {eps[j]:g} the bound is {term[1]}"
    return ClosestToBound(float(eps[j]), float(m[j]), float(se[j]), float(b[j]), how)


def price_of_trust(local_runs, global_runs) -> np.ndarray:
    """Mean regret of the local model over that of the global model at each ε: the columns of ``local_runs`` and
    ``global_runs`` (runs, n_ε) are the same ε. A ratio of means, not a mean of ratios."""
    num = as_float_array("local_runs", local_runs)
    den = as_float_array("global_runs", global_runs)
    if num.ndim != 2 or den.ndim != 2 or num.shape[1] != den.shape[1]:
        raise ValueError(
            f"local_runs and global_runs must be (runs, n_eps) with one n_eps, got {num.shape}, {den.shape}"
        )
    d = den.mean(axis=0)
    if (d <= 0).any():
        raise ValueError("the global model's mean regret must be > 0 at every eps (it divides)")
    return num.mean(axis=0) / d


class NoCrossover(ValueError):
    """The grid holds no crossover of the level (:func:`crossover`), or too few bootstrap replicates do
    (:func:`crossover_bootstrap`): a finding about the runs and the grid, not a bad argument."""


def crossover(epsilons, ratio, factor: float) -> float:
    r"""The largest ε at which ``ratio`` (local over global regret, one value per ε of the increasing grid
    ``epsilons``) still reaches ``factor``: the last crossing of the level ``factor``, scanning from the largest ε
    down, located by linear interpolation of log ratio against log ε between the two grid points around it.

    Raises :class:`NoCrossover` (a ValueError) when the grid holds no crossing (the ratio is below ``factor``
    everywhere, or already at or above it at the largest ε): the crossover lies outside the grid and no number
    would be honest."""
    eps = as_float_array("epsilons", epsilons)
    r = as_float_array("ratio", ratio)
    if eps.ndim != 1 or r.shape != eps.shape or eps.size < 2 or (np.diff(eps) <= 0).any() or (eps <= 0).any():
        raise ValueError("epsilons must be an increasing grid of >= 2 levels > 0, with one ratio each")
    if not (np.isfinite(r).all() and (r > 0).all()):
        raise ValueError("ratio must be finite and > 0 at every eps")
    factor = float(factor)
    if not (math.isfinite(factor) and factor > 0):
        raise ValueError(f"factor must be a finite number > 0, got {factor!r}")
    if r[-1] >= factor:
        raise NoCrossover(
            f"the ratio is {r[-1]:.4g} >= {factor:g} at the largest eps of the grid ({eps[-1]:g}): the crossover "
            "lies above the grid; extend the grid"
        )
    above = np.flatnonzero(r >= factor)
    if above.size == 0:
        raise NoCrossover(
            f"the ratio never reaches {factor:g} on the grid (max {r.max():.4g}); the crossover lies below it"
        )
    i = int(above[-1])  # r[i] >= factor > r[i + 1]
    le, lr = np.log(eps[i : i + 2]), np.log(r[i : i + 2])
    w = (math.log(factor) - lr[0]) / (lr[1] - lr[0])
    return float(math.exp(le[0] + w * (le[1] - le[0])))


@dataclass(frozen=True)
class CrossoverEstimate:
    """A crossover ε_k (:func:`crossover` of the mean ratio) with the standard deviation ``se`` of the bootstrap
    replicates and their percentile interval [``ci_low``, ``ci_high``] (95 %); ``n_boot`` replicates were drawn
    and ``outside`` of them had no crossing on the grid (they are left out of se, and counted here so that a
    reader can see when the interval is not to be trusted)."""

    factor: float
    value: float
    se: float
    ci_low: float
    ci_high: float
    n_boot: int
    outside: int


def crossover_bootstrap(epsilons, local_runs, global_runs, factor: float, *, n_boot: int = 1000, seed: int = 0):
    """:func:`crossover` of :func:`price_of_trust` with its uncertainty: each replicate resamples the runs of the
    two models independently (their cells are separate simulations at each ε; the runs of one model share seeds
    across ε, so whole rows are resampled, as in :func:`ldpcode.exponents.loglog_slope`). Raises :class:`NoCrossover`
    when fewer than 90 % of the replicates cross the level on the grid."""
    value = crossover(epsilons, price_of_trust(local_runs, global_runs), factor)
    n_boot = check_int("n_boot", n_boot, minimum=2)
    loc = np.asarray(local_runs, dtype=float)
    glo = np.asarray(global_runs, dtype=float)
    il = bootstrap_indices(loc.shape[0], n_boot, seed)
    ig = bootstrap_indices(glo.shape[0], n_boot, seed + 1)
    values = []
    for a, b in zip(il, ig):
        try:
            values.append(crossover(epsilons, price_of_trust(loc[a], glo[b]), factor))
        except ValueError:  # no crossing in this replicate (or a ratio it cannot take): left out, and counted
            continue
    outside = n_boot - len(values)
    if outside > 0.1 * n_boot:
        raise NoCrossover(
            f"{outside} of {n_boot} bootstrap replicates have no crossover of {factor:g} on the grid: the crossover "
            "is too close to the grid's end to estimate; extend the grid"
        )
    v = np.asarray(values)
    lo, hi = np.percentile(v, [2.5, 97.5])
    return CrossoverEstimate(float(factor), value, float(v.std(ddof=1)), float(lo), float(hi), n_boot, outside)


def crossovers_on_grid(epsilons, local_runs, global_runs, factors, *, n_boot: int, seed: int) -> tuple[dict, dict]:
    """:func:`crossover_bootstrap` for each k of ``factors``, keeping apart the ones the grid cannot estimate: returns
    (k -> :class:`CrossoverEstimate`, k -> why not), the second with the one-line reason (the ratio never reaches k,
    is still above k at the largest ε, or too many replicates leave the grid). At a reader's horizon or grid a
    crossover may lie outside it; the notebook then says so instead of stopping."""
    found, outside = {}, {}
    for k in factors:
        try:
            found[k] = crossover_bootstrap(epsilons, local_runs, global_runs, k, n_boot=n_boot, seed=seed)
        except NoCrossover as err:  # a bad argument is still a ValueError and propagates
            outside[k] = str(err)
    return found, outside


def bound_crossover(means, factor: float, *, lo: float = 1e-4, hi: float = 1e3) -> float:
    r"""The ε below which the ε-LDP lower bound is at least ``factor`` (> 1) times the ε-global-DP lower bound, by
    root finding in log ε on [``lo``, ``hi``] (log T cancels in the ratio).

    The ε-LDP bound is :math:`\max\{` Ren et al.'s Theorem 1, Lai and Robbins :math:`\}`: an ε-LDP policy is a
    policy, so the non-private bound binds it too, and Theorem 1 alone falls below it from ε ≈ 0.8 on (on Ren et
    al.'s 20-arm instance). The ε-global-DP bound is Azize and Basu's Theorem 3, which holds the Lai-Robbins term
    already. For small ε the ratio behaves as :math:`\frac{3}{2}\,\overline{1/\Delta}/\epsilon`, and it is 1 for
    large ε. Raises ValueError if it does not cross ``factor`` inside the bracket."""
    from scipy.optimize import brentq

    means = check_probability_vector("means", means)
    factor = float(factor)
    if not (math.isfinite(factor) and factor > 1):
        raise ValueError(f"factor must be a finite number > 1 (the ratio tends to 1 for large eps), got {factor!r}")
    lai_robbins = lai_robbins_constant(means)

    def gap(log_eps):
        e = math.exp(log_eps)
        ldp_bound = max(lower_bound_constant(means, e), lai_robbins)
        return math.log(ldp_bound / gdp_lower_bound_constant(means, e)) - math.log(factor)

    a, b = math.log(lo), math.log(hi)
    if gap(a) * gap(b) > 0:
        raise ValueError(f"the ratio of the two lower bounds does not cross {factor:g} for eps in [{lo:g}, {hi:g}]")
    return float(math.exp(brentq(gap, a, b, xtol=1e-12, rtol=1e-12)))


@dataclass(frozen=True)
class ExcessSlope:
    """The log-log slope of the regret a policy pays above its non-private baseline against ε, over the window
    ``eps`` (the grid's points inside it), with the bootstrap's standard error and 95 % percentile interval;
    ``excess`` the mean excess regret at those points; ``r2`` of the fit on the means."""

    slope: float
    se: float
    ci_low: float
    ci_high: float
    r2: float
    eps: np.ndarray
    excess: np.ndarray
    n_boot: int


def excess_slope(epsilons, policy_runs, baseline_runs, window, *, n_boot: int = 1000, seed: int = 0) -> ExcessSlope:
    r"""Exponent b of :math:`\bar R_\pi(\epsilon) - \bar R_0 \approx C\epsilon^{b}`: the price of privacy a policy
    pays above its non-private baseline (UCB1 for LDP-UCB-B, KL-UCB for AdaP-KLUCB), against ε, fitted by least
    squares of log excess on log ε over the grid points in ``window`` = (ε_lo, ε_hi) (at least 3).

    The lower bounds predict b = -2 for ε-LDP (Ren et al. Theorem 1: :math:`1/(e^\epsilon-e^{-\epsilon})^2
    \approx 1/(4\epsilon^2)`) and b = -1 for ε-global DP (Azize and Basu Theorem 3: :math:`\sum_a 1/(6\epsilon)`)
    for ε small enough. ``policy_runs`` (runs, n_ε) and ``baseline_runs`` (runs0,) are separate simulations, so each
    bootstrap replicate resamples both, independently (whole rows of ``policy_runs``: one run shares its seed
    across ε). Raises ValueError if a mean excess in the window is <= 0 (no power law to fit) or fewer than 3 grid
    points fall in the window."""
    eps = as_float_array("epsilons", epsilons)
    runs = as_float_array("policy_runs", policy_runs)
    base = as_float_array("baseline_runs", baseline_runs)
    if runs.ndim != 2 or runs.shape[1] != eps.size or runs.shape[0] < 2 or base.ndim != 1 or base.size < 2:
        raise ValueError(
            f"policy_runs must be (runs >= 2, {eps.size}) and baseline_runs (runs0 >= 2,), got {runs.shape}, {base.shape}"
        )
    lo, hi = (float(w) for w in window)
    keep = (eps >= lo) & (eps <= hi)
    if keep.sum() < 3:
        raise ValueError(f"window {window} holds {int(keep.sum())} grid points; the slope needs at least 3")
    x = np.log(eps[keep])
    excess = runs[:, keep].mean(axis=0) - base.mean()
    if (excess <= 0).any():
        raise ValueError(
            f"the mean excess regret over the baseline is <= 0 at eps = {eps[keep][excess <= 0].tolist()}: "
            "no power law to fit there; narrow the window"
        )
    fit = linear_fit(x, np.log(excess))
    il = bootstrap_indices(runs.shape[0], n_boot, seed)
    ib = bootstrap_indices(base.size, n_boot, seed + 1)
    boot = runs[:, keep][il].mean(axis=1) - base[ib].mean(axis=1)[:, None]  # (n_boot, n)
    ok = (boot > 0).all(axis=1)
    if ok.sum() < 0.9 * n_boot:
        raise ValueError(f"{int(n_boot - ok.sum())} of {n_boot} bootstrap replicates have an excess <= 0 in the window")
    slopes = _row_slopes(x, np.log(boot[ok]))
    q_lo, q_hi = np.percentile(slopes, [2.5, 97.5])
    return ExcessSlope(
        fit.slope, float(slopes.std(ddof=1)), float(q_lo), float(q_hi), fit.r2, eps[keep], excess, int(ok.sum())
    )


def landscape_panel(ax, table, bounds: dict, *, horizon: int, colors=None, band: float = 0.95) -> None:
    """Regret at ``horizon`` against ε on log axes: one curve per private policy of ``table`` (mean and a ``band``
    confidence band over runs), a horizontal line per non-private policy, and the ``bounds`` (name → values on the
    table's ε grid, :func:`lower_bounds`) dashed."""
    from ..claims.tables import format_horizon
    from ..plotting import POLICY_COLORS, THEORY_STYLE, band_curve, paper_axes, plain_log_ticks

    colors = {**POLICY_COLORS, **(colors or {})}
    for policy in table["policy"].unique():
        eps, regret = final_regret(table, policy)
        color = colors.get(policy)
        label = f"{policy} ({MODELS.get(policy, 'other')})"
        if eps.size == 1 and math.isinf(eps[0]):
            # wide and pale, under the thin bounds: KL-UCB and the global bound meet at Lai and Robbins' large-ε value
            ax.axhline(regret.mean(), color=color, linestyle=":", linewidth=2.6, alpha=0.6, zorder=1, label=label)
        else:
            band_curve(ax, eps, regret, label=label, color=color, band=band)
    grid = np.sort([e for e in table["epsilon"].unique() if math.isfinite(e)])
    styles = ["--", "-.", ":"]
    for (name, values), style in zip(bounds.items(), styles):
        if "no privacy" in name:
            continue
        ax.plot(grid, values, color="k", **{**THEORY_STYLE, "linestyle": style}, label=f"lower bound: {name}")
    paper_axes(
        ax, xlabel="privacy level ε", ylabel=f"pseudo-regret R(T) at T = {format_horizon(horizon, mathtext=True)}"
    )
    plain_log_ticks(ax.xaxis, grid)


def regret_table(table, policies, *, epsilons=None):
    """The landscape's table: one row per policy of ``policies`` (in that order), one column per ε of ``epsilons``
    (default: every ε of ``table``, a :func:`ldpcode.sweep.sweep` table, ∞ for the non-private ones), each cell the
    mean regret at the horizon over runs with its standard error (:func:`ldpcode.sweep.summary`), in the book's number
    format, right-aligned; "·" where a policy has no such ε. More than about five columns of such cells are wider than
    the book's text column at 1280 px: show a long grid as two tables, each with part of its ε."""
    from ..claims.tables import Table, format_pm
    from ..sweep import summary

    s = summary(table)
    have = [float(e) for e in sorted(s["epsilon"].unique())]
    eps = have if epsilons is None else [float(e) for e in epsilons]
    missing = [e for e in eps if e not in have]
    if not eps or missing:
        raise ValueError(f"epsilons must be a non-empty list of the table's ε {have}, got {epsilons!r}")
    cells = {(r.policy, r.epsilon): (r.mean_regret, r.se) for r in s.itertuples()}
    body = []
    for p in policies:
        if not any(k[0] == p for k in cells):
            raise ValueError(f"policy {p!r} has no rows in the table")
        body.append([p, *[format_pm(*cells[(p, e)]) if (p, e) in cells else "·" for e in eps]])
    head = ["policy", *[f"ε = {e:g}" if math.isfinite(e) else "not private" for e in eps]]
    return Table(head, body, formats=[None, *[str] * len(eps)])  # cells written already: the format right-aligns them


def curves_table(epsilons, rows: dict, *, se: dict | None = None, first: str = "curve"):
    """A table with one column per ε of ``epsilons`` and one row per entry of ``rows`` (name → values on the grid),
    in the book's number format (:mod:`ldpcode.claims.tables`), with ``± se`` where ``se`` (name → standard errors) gives one: the lower bounds and the
    price of trust of the landscape chapter."""
    from ..claims.tables import Table, format_value, format_pm

    se = se or {}
    body = []
    for name, values in rows.items():
        errs = se.get(name)
        body.append(
            [name, *[format_pm(v, errs[j]) if errs is not None else format_value(v) for j, v in enumerate(values)]]
        )
    # cells written already: the formats mark the columns as numbers (right-aligned, "± se" kept whole)
    return Table([first, *[f"ε = {e:g}" for e in epsilons]], body, formats=[None, *[str] * len(epsilons)])


def price_panel(ax, epsilons, ratio, se, fine, bound_ratio, crossovers: dict, bound_crossovers: dict, *, label: str):
    """The price of trust against ε on log axes: the measured ratio with ±2 standard errors (``se``), the ratio of
    the two lower bounds on the ``fine`` grid, a horizontal line at each level k of ``crossovers`` (k → measured
    ε_k) and the crossovers themselves, measured (solid) and of the bounds (dotted, ``bound_crossovers``)."""
    from ..plotting import legend_below, paper_axes, plain_log_ticks

    eps = np.asarray(epsilons, dtype=float)
    ax.errorbar(eps, ratio, yerr=2 * np.asarray(se), fmt="o-", color="#d62728", markersize=4, capsize=2, label=label)
    ax.plot(fine, bound_ratio, color="k", linestyle="--", linewidth=1.2, label="ratio of the lower bounds")
    for i, (k, value) in enumerate(sorted(crossovers.items())):
        shade = ["#0173b2", "#9467bd", "#8c564b"][i % 3]  # not the theme's grid greys: a crossover is not a grid line
        ax.axhline(k, color=shade, linewidth=0.8)
        # each level k is labelled on the line itself: "price k", at the right edge of the panel
        ax.annotate(
            f"price {k:g}",
            xy=(1.0, k),
            xycoords=("axes fraction", "data"),
            xytext=(-3, 2),
            textcoords="offset points",
            ha="right",
            va="bottom",
            fontsize="small",
            color=shade,
        )
        same = f"{value:.2f}" == f"{bound_crossovers[k]:.2f}"  # one line hides the other: one entry says both
        both = " (the bounds' too)" if same else ""
        ax.axvline(value, color=shade, linewidth=1.6, label=rf"measured $\varepsilon_{{{k:g}}}$ = {value:.2f}{both}")
        ax.axvline(
            bound_crossovers[k],
            color=shade,
            linewidth=1.6,
            linestyle=(0, (1, 2)),
            label="_nolegend_" if same else rf"bounds' $\varepsilon_{{{k:g}}}$ = {bound_crossovers[k]:.2f}",
        )
    ax.axhline(1.0, color="k", linewidth=0.6, alpha=0.5)
    paper_axes(ax, xlabel="privacy level ε", ylabel="regret of local / global privacy", title="the price of trust")
    plain_log_ticks(ax.xaxis, eps)
    plain_log_ticks(ax.yaxis)
    legend_below(ax, offset=-0.14, fontsize="small")
