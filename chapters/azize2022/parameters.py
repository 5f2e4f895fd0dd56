"""The parameter rules of the Azize and Basu (2022) chapter's notebooks (``chapters/azize2022/``), with
their private predicates and messages."""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ldpcode.parameters.library import accepted_by, simulations, within_limits
from ldpcode.parameters.rules import (
    ALPHA_CONF,
    ALPHA_INDEX,
    DISTINCT_IDS,
    EPS,
    EPSILONS,
    Choice,
    GDP_POWER,
    HORIZON,
    LEMMA1_BINS,
    MAX_ALPHA,
    MEANS,
    POINTS,
    POS,
    PROB,
    SE_RUNS,
    SEED,
    Fields,
    Grid,
    Int,
    Notebook,
    Optional,
    Real,
    Seq,
    measured,
    at_least_arms,
    below,
    custom,
    horizon_rule,
    less,
)

ADAP = Choice(("AdaP-UCB", "AdaP-KLUCB"))
ALPHA_THEOREMS = Real(
    3,
    MAX_ALPHA,
    lo_open=True,
    why="Theorems 7 and 8 of Azize and Basu need alpha > 3; the notebook draws their bounds, "
    "as ldp.bounds.adap_ucb_regret_bound, which refuses alpha <= 3",
)  # alpha where the body draws Theorem 7's or 8's bound (the paper's Section 5: 3.1 "to comply with" them)

# measured: at T = 12 the non-forgetting AdaP-UCB is refuted with 25,000 runs, missed with 10,000 (3 seeds of 3)
STALE_HORIZON = "the non-forgetting AdaP-UCB's excess privacy loss shows from T = 12 (Example 2's horizon) on"
STALE_POWER = "with fewer runs the audit cannot refute the non-forgetting AdaP-UCB, whose excess over eps is small"


def _episode5_start(pattern, n_arms: int) -> int:
    """t_5 of Algorithm 1 (Azize and Basu, Example 2) when episodes 1-4 play ``pattern``: after one pull of
    each arm (t_1 = K + 1), episode l plays its arm for as many steps as the arm has been pulled."""
    counts, t = [1] * n_arms, n_arms + 1
    for a in pattern:
        t += counts[a]
        counts[a] *= 2
    return t


AFTER_START = (
    "Algorithm 1's first private means are released for the decision at t = K + 1: at T = K none "
    "is used, and a release count per episode is undefined"
)


def _eps_grid_spans_switches(p) -> bool:
    from ldpcode.bounds import gdp_lower_bound_terms

    lo, hi = p["eps_grid"][0], p["eps_grid"][1]
    for means in (p["fig2_means"], p["fig3_means"]):
        switch = gdp_lower_bound_terms(means, 1.0).epsilon_threshold
        if not (lo < switch.min() and hi >= switch.max()):
            return False
    return True


def _epsilon_above_switches(p) -> bool:
    from ldpcode.bounds import gdp_lower_bound_terms

    return all(
        p["epsilon"] >= gdp_lower_bound_terms(m, 1.0).epsilon_threshold.max()
        for m in (p["fig2_means"], p["fig3_means"])
    )


THEOREM3_SIGMA = Real(
    1e-150,
    1e150,
    why="the body's Simpson rule (scipy.integrate.simpson) multiplies two spacings of its grid, sigma / 2,500 to "
    "sigma / 2: beyond 1e+-150 their product leaves the doubles, and the numerical d_inf is 1.5 for 4.5 (measured "
    "at 1e+-160)",
)
THEOREM3_RATIO = Real(
    0,
    10,
    lo_open=True,
    why="the numerical known-variance d_inf is the KL at an alternative 1e-7 sigma above mu*, which exceeds "
    "Delta^2 / (2 sigma^2) by r x 1e-7, and the body asserts 1e-6: 12 fails it, and from 15 on the TV of the "
    "shifted alternatives stops increasing in the doubles (an assertion with no message)",
)
LOG_S_BOUND = Real(
    -7,
    7,
    why="measured: the body's Simpson rule (200,001 points over 40 sd on each side) is within 4e-5 of the closed "
    "forms for |log s| <= 7; at 8 it is off by 0.01 (TV) and 0.2 (KL), at 9 it gives a TV above 1",
)


SAME_RUNS = "at T = K each arm is pulled once: every run has the same regret, and its standard error is 0"


def _first_checkpoint_fits_arms(p) -> bool:
    from ldpcode.simulate import log_checkpoints

    cps = log_checkpoints(p["horizon"], p["checkpoint_points"])
    return int(cps[cps >= 10][0]) >= max(p["n_arms_list"]) - 1


def _minimax_bound_fails_early(p) -> bool:
    from ldpcode.bounds import gdp_minimax_lower_bound
    from ldpcode.simulate import log_checkpoints

    cps = log_checkpoints(p["horizon"], p["checkpoint_points"])
    t = int(cps[cps >= 10][0])
    return all(gdp_minimax_lower_bound(t, k, min(p["epsilons"])) > t * (k - 1) / k for k in p["n_arms_list"])


def _minimax_bound_reachable(p) -> bool:
    from ldpcode.bounds import gdp_minimax_lower_bound

    t = p["horizon"]
    return all(gdp_minimax_lower_bound(t, k, e) <= t * (k - 1) / k for k in p["n_arms_list"] for e in p["epsilons"])


def _noise_free_model_fits(horizon: str, policies: tuple[str, ...]):
    """A rule for notebooks that draw global_policies.noise_free_pulls over an eps grid (azize2022/figure3,
    theorems7_8): the smallest eps explores longest, and the model refuses a horizon shorter than that
    exploration. The rule asks the model itself, for each policy drawn."""

    def fits(p) -> bool:
        from ldpcode.global_policies import HorizonTooShort, noise_free_pulls

        try:  # any other ValueError is another parameter's fault, and propagates in the model's own words
            for name in policies:
                noise_free_pulls(name, p["means"], p[horizon], p["eps_min"], p["alpha"])
        except HorizonTooShort:
            return False
        return True

    return custom(
        fits,
        f"{horizon} must outlast the exploration of the noise-free model at eps_min (the notebook "
        f"draws it for {', '.join(policies)}): the model predicts more pulls of the suboptimal arms "
        f"than the horizon, got {horizon} = {{{horizon}}}, eps_min = {{eps_min}}, alpha = {{alpha}}, means = {{means}}",
    )


def _first_decisions(p) -> None:
    """lemma1_theorem6_privacy reads the exact log-ratio of the first decision (ldp.audit.first_decision_log_ratio)
    at every audited (policy, eps), and at twice broken_halved_epsilon for the noise-halved AdaP-UCB."""
    from ldpcode.audit import first_decision_log_ratio

    for name in p["audit_policies"]:
        for eps in p["audit_epsilons"]:
            first_decision_log_ratio(name, eps, p["alpha"])
    first_decision_log_ratio("AdaP-UCB", 2 * p["broken_halved_epsilon"], p["alpha"])


def _linear_sets(p) -> dict:
    """theorems4_5_linear's three linear instances (actions, theta), as its body builds them."""
    ang = np.deg2rad(np.asarray(p["angles_deg"], dtype=float))
    x, g = p["eoo_x"], p["eoo_gamma"]
    return {
        "basis": (np.eye(3), np.asarray(p["theta_basis"], dtype=float)),
        "angles": (np.c_[np.cos(ang), np.sin(ang)], np.array([1.0, 0.0])),
        "end of optimism": (np.array([[1.0, 0.0], [0.0, 1.0], [1 - x, g * x]]), np.array([1.0, 0.0])),
    }


LINEAR_GAP = 1e-3  # the smallest relative gap at which the convex programs of ldp.bounds certify their value


def _linear_sets_solvable(p) -> bool:
    """Each instance passes the library's own check (ldp.bounds.linear: at least 2 actions spanning R^d, a unique
    optimal action), and its smallest gap is at least LINEAR_GAP of the largest value: measured, with the end of
    optimism at gamma 2 and 10, the solver's value agrees with the closed form within 1e-6 down to x = 1e-3, and
    below it (x = 1e-4) the duality gap reaches 0.75 (at gamma 100, x = 3e-3, no point has a certificate)."""
    from ldpcode.bounds.linear import _check_linear_instance

    for actions, theta in _linear_sets(p).values():
        _, _, _, gaps = _check_linear_instance(actions, theta)
        scale = float(np.abs(actions @ theta).max())
        if float(gaps[gaps > 0].min()) < LINEAR_GAP * scale:
            return False
    return True


def _bounds_accept(horizon: str, epsilon: str):
    """A rule for notebooks that draw Theorems 7 and 8's upper bounds (azize2022/figure2, figure3,
    theorems7_8_upper_bounds): the bounds sum over the suboptimal arms, so ``means`` needs one. The rule asks
    the bound functions themselves, at ``horizon`` and ``epsilon`` (the other parameters have passed their
    rules: what the bounds refuse then is the means)."""

    def call(p):
        from ldpcode.bounds import adap_klucb_regret_bound, adap_ucb_regret_bound

        adap_ucb_regret_bound(p["means"], p[horizon], p[epsilon], p["alpha"])
        adap_klucb_regret_bound(p["means"], p[horizon], p[epsilon], c1=1.0, c2=1.0, alpha=p["alpha"])

    return accepted_by(
        call,
        "means",
        "a list of means with a suboptimal arm (the notebook draws the upper bounds of Theorems 7 and 8, sums "
        "over the arms with a gap Delta_a > 0)",
        library="ldp.bounds.adap_ucb_regret_bound, adap_klucb_regret_bound",
    )


def _theorem8_drawn(c1: Callable[[dict], float]):
    """theorems7_8_upper_bounds draws Theorem 8 (ldp.bounds.adap_klucb_regret_bound) at C1 = c1_shape and 2 c1_shape,
    C2 = c2_shape, at each checkpoint t >= 2 (ldp.experiments.azize_upper_bounds.over_t), and reads the C1 needed as c1
    (R(t) - A) / step(t), step the difference of the two bounds. The test, at C1 = ``c1(p)``: the bound at 2 C1 must
    be finite at t = horizon (its largest) and the step > 0 at t = 2 (its smallest, beside the additive term A); the
    library's refusal, or the ValueError raised here, says why."""

    def call(p):
        from ldpcode.bounds import adap_klucb_regret_bound

        k, means, eps, c2, alpha = c1(p), p["means"], p["epsilon"], p["c2_shape"], p["alpha"]
        bound = lambda c, t: adap_klucb_regret_bound(means, t, eps, c1=c, c2=c2, alpha=alpha)
        with np.errstate(all="ignore"):  # an infinite bound is refused below, without a RuntimeWarning before it
            top, step = bound(2 * k, p["horizon"]), bound(2 * k, 2) - bound(k, 2)
        if not (math.isfinite(top) and step > 0):
            raise ValueError(f"at C1 = {k:g} the bound at 2 C1 is {top:g} at T and the step {step:g} at t = 2")
        return True

    return call


def _simulated(
    policies, sizes=(("horizon", "runs"),), *, means: str = "means", arms: str | None = None, checkpoints=None
):
    """:func:`within_limits` of the notebook's simulations: each policy of ``policies`` (names, or the parameter
    that lists them) on the Bernoulli instance of ``means`` (or on ``max(p[arms])`` arms), at each (horizon, runs) of
    ``sizes`` (parameter names), as the library estimates them; ``checkpoints(p)`` their number where the body
    gives them."""

    def estimate(p):
        from ldpcode.instances import make_instance

        names = p[policies] if isinstance(policies, str) else policies
        if arms is not None:
            k = max(p[arms])
            inst = make_instance("bernoulli", means=[0.5] + [0.25] * (k - 1))
        else:
            inst = make_instance("bernoulli", means=p[means])
        n = None if checkpoints is None else checkpoints(p)
        return [c for h, r in sizes for c in simulations(names, inst, p[h], p[r], n)]

    names = tuple(dict.fromkeys(n for pair in sizes for n in pair))
    return within_limits(estimate, names, "each simulation")


def _growth_simulated(p) -> list:
    """table1's growth of the private means: each policy at each T of growth_horizons, growth_runs runs."""
    from ldpcode.instances import make_instance

    inst = make_instance("bernoulli", means=p["means"])
    return [c for t in p["growth_horizons"] for c in simulations(TABLE1_POLICIES, inst, t, p["growth_runs"])]


TABLE1_POLICIES = ("DP-UCB", "DP-SE", "AdaP-UCB", "AdaP-KLUCB")  # table1 and figure2 run these four


def _pair_within_sensitivity(p) -> bool:
    f, g = np.asarray(p["f_d"], dtype=float), np.asarray(p["f_d_prime"], dtype=float)
    return f.shape == g.shape and abs(float(np.abs(f - g).sum()) - p["sensitivity"]) <= 1e-12 * p["sensitivity"]


def _broken_audit_has_power(p) -> bool:
    """theorem1_table2 asserts that its audit refutes the broken mechanism (noise at broken_factor of Theorem 1's
    scale) at every eps. Its best bin is the atom of the privacy loss L at +loss, loss = eps / broken_factor for a
    pair at distance s(f): probability q = 2^-m under f and q e^-loss under f' (m coordinates differ). The audit's
    lower bound there is log(l_a / h_b), Clopper-Pearson bounds at alpha / (4 (bins + 2)) a tail
    (ldpcode.audit.binned_log_ratio). Taken at pessimistic counts, 2 standard deviations below n q under f and above
    n q e^-loss under f' (about 98 % power), it must exceed eps: else a reader's run fails in cell 5 because the
    audit had too few releases, not because the mechanism is private. The genuine mechanism's atom, of probability
    q e^-eps under f', must expect at least 5 releases: its log-ratio is a stored number, infinite when no release
    reaches the bin."""
    from scipy.stats import beta

    m = int(np.sum(np.asarray(p["f_d"], float) != np.asarray(p["f_d_prime"], float)))
    n, q = p["samples"], 2.0**-m
    tail = p["confidence_alpha"] / (4 * (p["bins"] + 2))
    for eps in p["epsilons"]:
        if n * q * math.exp(-eps) < 5:
            return False
        k_a = n * q - 2 * math.sqrt(n * q * (1 - q))
        mean_b = n * q * math.exp(-eps / p["broken_factor"])
        k_b = min(mean_b + 2 * math.sqrt(mean_b) + 1, n - 1)
        if k_a <= 0 or math.log(beta.ppf(tail, k_a, n - k_a + 1) / beta.ppf(1 - tail, k_b + 1, n - k_b)) <= eps:
            return False
    return True


def _gaussian_gaps(means) -> tuple[np.ndarray, np.ndarray]:
    """The Gaussian instance of ``means`` and its gaps Delta_a > 0, as the bodies of theorem1_table2 take them."""
    gauss = np.asarray(means, dtype=float)
    return gauss, gauss.max() - gauss[gauss < gauss.max()]


def _table2_gaussian_cells(p) -> None:
    """theorem1_table2's Gaussian cells at every eps of table_epsilons, as ldp.bounds.table2_cells computes them:
    Table 2's cell on ldp.divergences.d_inf_gaussian (Delta^2 / (2 sigma^2), which under- or overflows at an extreme
    sigma) and Theorem 3's bound; both are claims' values, which must be finite numbers."""
    from ldpcode.bounds import gdp_lower_bound_constant, table2_stochastic_problem_dependent
    from ldpcode.divergences import d_inf_gaussian

    gauss, gaps = _gaussian_gaps(p["gaussian_means"])
    sigma, horizon = p["gaussian_sigma"], p["table_horizon"]
    with np.errstate(all="ignore"):  # the refusal is the library's ValueError, not a RuntimeWarning before it
        d = np.atleast_1d(d_inf_gaussian(gauss[gauss < gauss.max()], gauss.max(), sigma))
        for eps in p["table_epsilons"]:
            cell = table2_stochastic_problem_dependent(gaps, d, horizon, eps)
            theorem = gdp_lower_bound_constant(gauss, eps, family="gaussian", sigma=sigma) * math.log(horizon)
            if not (math.isfinite(cell) and math.isfinite(theorem)):
                raise ValueError(f"at eps = {eps:g} the cell is {cell:g} and Theorem 3's bound {theorem:g}, not finite")


def _two_point_laws(p):
    from ldpcode.experiments.azize_table2 import two_point_laws

    two_point_laws(p["bernoulli_means"], p["two_point_half_width"])


THEOREM1_TABLE2 = Notebook(
    dict(
        sensitivity=POS,
        f_d=Seq(Real(-1e6, 1e6), 1, 50),
        f_d_prime=Seq(Real(-1e6, 1e6), 1, 50),
        grid_points=Int(3, 10**6),
        samples=Int(100, 10**8),
        bins=Int(1, 1000),
        confidence_alpha=ALPHA_CONF,
        broken_factor=Real(0, 1, lo_open=True, hi_open=True),
        table_horizon=HORIZON,
        table_arms=Int(2, 10**6),
        table_epsilons=EPSILONS,
        table_dim=Int(1, 10**6),
        bernoulli_means=MEANS,
        gaussian_means=Seq(Real(-1e6, 1e6), 2),
        gaussian_sigma=POS,
        two_point_half_width=Real(0, 0.5, lo_open=True),
        linear_theta=Seq(Real(-1e6, 1e6), 2, 20),
        rho=POS,
    ),
    (
        custom(
            _pair_within_sensitivity,
            "f_d and f_d_prime must be two vectors of one length at L1 distance exactly sensitivity (a worst-case "
            "pair of neighbouring inputs: at a smaller distance the loss the audit measures is below eps, and "
            "the broken mechanism is missed, measured at distance 1 and sensitivity 2), got f_d = {f_d}, "
            "f_d_prime = {f_d_prime}, sensitivity = {sensitivity}",
        ),
        custom(
            _broken_audit_has_power,
            "samples, bins, broken_factor and epsilons must give the audit the power to refute the broken mechanism "
            "at every eps (its Clopper-Pearson lower bound at the atom of L, at counts 2 standard deviations on the "
            "wrong side, above eps; the check asserts the refutation), and 5 releases of the genuine mechanism in "
            "that atom, "
            "got samples = {samples}, bins = {bins}, "
            "broken_factor = {broken_factor}, epsilons = {epsilons}",
        ),
        custom(
            lambda p: p["table_horizon"] >= p["table_arms"] - 1,
            "table_horizon must be >= table_arms - 1 (Theorem 2 asks T >= K - 1), got {table_horizon}, {table_arms}",
        ),
        custom(
            lambda p: len(set(p["bernoulli_means"])) > 1 and max(p["bernoulli_means"]) < 1,
            "bernoulli_means must have a suboptimal arm and a best mean < 1 (else d_inf and t_inf are infinite), "
            "got {bernoulli_means}",
        ),
        accepted_by(
            _two_point_laws,
            "two_point_half_width",
            "a half-width h with every mu_a +- h of bernoulli_means in [0, 1]",
            library="ldpcode.experiments.azize_table2.two_point_laws",
        ),
        custom(
            lambda p: len(set(p["gaussian_means"])) > 1,
            "gaussian_means must have a suboptimal arm, got {gaussian_means}",
        ),
        custom(
            lambda p: _table2_gaussian_cells(p) is None,
            "gaussian_sigma must be a standard deviation at which Table 2's Gaussian cell and Theorem 3's bound "
            "(ldp.bounds.table2_stochastic_problem_dependent, gdp_lower_bound_constant) are finite numbers at every "
            "eps of table_epsilons (the cell takes d_inf = Delta^2 / (2 sigma^2), which overflows for a sigma below "
            "about 1e-154 Delta and underflows to 0 above 1e154 Delta), got gaussian_sigma = {gaussian_sigma}, "
            "gaussian_means = {gaussian_means}, table_epsilons = {table_epsilons}, table_horizon = {table_horizon}",
        ),
        custom(
            lambda p: _gaussian_gaps(p["gaussian_means"])[1].min() / (2 * p["gaussian_sigma"]) >= 1e-15,
            "gaussian_sigma must keep Delta_a / (2 sigma) >= 1e-15 for every gap of gaussian_means: the notebook "
            "writes eq. (4) out with t_inf = 2 Phi(Delta_a / 2 sigma) - 1, a difference of numbers near 1 that is 0 "
            "below about 1.1e-16 (an infinite bound), got gaussian_sigma = {gaussian_sigma}, "
            "gaussian_means = {gaussian_means}",
        ),
        custom(
            lambda p: int(np.sum((t := np.asarray(p["linear_theta"], float)) == t.max())) == 1 <= t.size - 1,
            "linear_theta must have a unique largest entry (Theorem 5: a unique optimal action), got {linear_theta}",
        ),
    ),
    tiny=dict(
        epsilons=[1.0],
        grid_points=3,
        samples=2_000,
        bins=1,
        table_horizon=2,
        table_arms=2,
        table_epsilons=[1.0],
        table_dim=1,
        bernoulli_means=[0.5, 0.25],
        gaussian_means=[0.5, 0.25],
        linear_theta=[1.0, 0.5],
    ),
)


NOTEBOOKS: dict[str, Notebook] = {
    # ---------------------------------------------------------------- Azize and Basu (2022)
    "chapters/azize2022/figure1_episodes.ipynb": Notebook(
        dict(
            alpha=Real(
                0,
                5,
                lo_open=True,
                why="measured: the bounded search of Example 2's run finds the default pattern for alpha in [0.01, "
                "5], and none from 10 on, where the exploration bonus decides every episode",
            ),
            example_means=MEANS,
            example_pattern=Seq(Int(0), 4, 4),
            example_horizon=Int(2, 10**6),
            trace_horizon=Int(2, 10**6),
            small_horizon=Int(2, 10**7),
            policies=Seq(ADAP),
        ),
        (
            below("example_pattern", "example_means", what="an arm of example_means"),
            at_least_arms("example_horizon", "example_means"),
            custom(
                lambda p: p["example_horizon"] >= _episode5_start(p["example_pattern"], len(p["example_means"])) - 1,
                "example_horizon must be >= t_5 - 1, the last step of example_pattern's fourth episode (each "
                "episode doubles its arm's count), got example_horizon = {example_horizon}, example_pattern = "
                "{example_pattern}",
            ),
            less("example_horizon", "trace_horizon", strict=False),
            at_least_arms("small_horizon", "means"),
            at_least_arms("horizon", "means", extra=1, why=AFTER_START),
            _simulated("policies", checkpoints=lambda p: 1),
        ),
        tiny=dict(example_horizon=10, trace_horizon=10, small_horizon=5, horizon=6, runs=2, policies=["AdaP-KLUCB"]),
    ),
    "chapters/azize2022/figure2.ipynb": Notebook(
        dict(
            horizon=horizon_rule(10, "the log-log panel starts at t = 10"),
            alpha=ALPHA_THEOREMS,
            gamma=PROB,
            beta=Optional(PROB),
            linear_points=POINTS,
            n_sd=Real(
                0,
                100,
                True,
                why="a band of mean +- n_sd standard deviations (the figure refuses a band of width 0): beyond "
                "100 it covers every panel, and near the largest doubles its limits overflow",
            ),
        ),
        (
            at_least_arms("horizon", "means"),
            _bounds_accept("horizon", "epsilon"),
            less(
                "linear_points",
                "horizon",
                strict=False,
                why="the linear panel's checkpoints are T/points apart, at least one step",
            ),
            _simulated(TABLE1_POLICIES, checkpoints=lambda p: p["linear_points"] + 200),
        ),
        tiny=dict(horizon=10, runs=2, linear_points=2),
    ),
    "chapters/azize2022/figure3.ipynb": Notebook(
        dict(
            n_eps=Int(4, 10**4, "the two-regime (hinge) fit needs at least 4 values of eps"),
            alpha=ALPHA_THEOREMS,
            boot_seed=SEED,
        ),
        (
            at_least_arms("horizon", "means"),
            _bounds_accept("horizon", "eps_min"),
            less("eps_min", "eps_max"),
            custom(
                lambda p: (np.geomspace(p["eps_min"], p["eps_max"], p["n_eps"]) > 0.3).sum() >= 2,
                "n_eps, eps_min, eps_max must put at least two eps of the log grid above 0.3 (the check compares the "
                "regret at the first eps above the paper's switch 0.3 with that at eps_max), got n_eps = {n_eps}, "
                "eps_min = {eps_min}, eps_max = {eps_max}",
            ),
            _noise_free_model_fits("horizon", ("AdaP-KLUCB",)),
            _simulated(("AdaP-KLUCB",), checkpoints=lambda p: 1),
        ),
        tiny=dict(horizon=20_000, runs=2, n_eps=4, n_boot=2),
    ),
    "chapters/azize2022/lemma1_theorem6_privacy.ipynb": Notebook(
        dict(
            lemma1_epsilon=EPS,
            lemma1_starts=Seq(Int(2, 10**4), min_len=0, increasing=True),
            lemma1_changed=Seq(Int(1, 10**4)),
            lemma1_samples=Int(1000, 10**9, LEMMA1_BINS),
            audit_means=MEANS,
            audit_horizon=Int(
                12,
                24,
                STALE_HORIZON + "; measured up to 24 at the fewest runs the rules accept: from 36 on the action "
                "sequences multiply and the noise-halved AdaP-UCB went unrefuted",
            ),
            audit_changed_step=Int(
                1,
                1,
                "the first decision's exact law (audit.first_decision_log_ratio) is for a change at step 1, and at the "
                "fewest runs the rules accept a later change left a broken variant unrefuted (step 3; step 2 with T = 24)",
            ),
            audit_table_entry=Fields((("arm", Int(0)), ("pull", Int(0)))),
            audit_runs=Int(2000, 10**8, GDP_POWER),
            audit_epsilons=EPSILONS,
            audit_policies=Seq(ADAP),
            alpha=Real(
                2,
                4,
                why="measured at the fewest runs the rules accept: the audits refute both broken variants and see "
                "their events for alpha in [2, 4] (the paper's 3.1); at 1 one is missed, at 5 and 10 an event is "
                "never seen",
            ),
            confidence_alpha=Real(
                1e-4,
                1,
                hi_open=True,
                why="measured: at 1e-6 the audit's intervals are too wide to refute the noise-halved AdaP-UCB",
            ),
            broken_halved_epsilon=measured(
                0.5,
                2,
                "the audit refutes the noise-halved AdaP-UCB",
                "at 0.1 it is missed, and from 3 on the refuting event is never seen under the neighbour",
            ),
            broken_stale_epsilon=measured(
                1, 5, "the audit refutes the non-forgetting AdaP-UCB", "at 0.5 and 7 it is missed"
            ),
            broken_stale_runs=Int(25_000, 10**8, STALE_POWER),
        ),
        (
            custom(
                lambda p: p["lemma1_samples"] * math.exp(-p["lemma1_epsilon"]) / 2 >= 50,
                "lemma1_samples and lemma1_epsilon must put at least 50 releases, in expectation, in the half-line "
                "below both locations under r' (probability e^-eps / 2), whose log-ratio is a stored number: with "
                "fewer its bins go empty and their standard errors undefined (measured: eps = 3 at 1,000 samples "
                "failed so), got lemma1_samples = {lemma1_samples}, lemma1_epsilon = {lemma1_epsilon}",
            ),
            at_least_arms("audit_horizon", "audit_means"),
            custom(
                lambda p: len(p["audit_means"]) == 2,
                "audit_means must have 2 arms: the audits' exact values (the first decision, the non-forgetting "
                "variant's true level) and their power were worked out for K = 2 (at the fewest runs the rules "
                "accept, 3 arms left the noise-halved variant unrefuted), got {audit_means}",
            ),
            less("audit_changed_step", "audit_horizon", strict=False),
            custom(
                lambda p: p["audit_table_entry"][0] < len(p["audit_means"]),
                "audit_table_entry[0] (arm) must be < len(audit_means) = {audit_means}, got {audit_table_entry}",
            ),
            custom(
                lambda p: p["audit_table_entry"][1] < p["audit_horizon"],
                "audit_table_entry[1] (pull) must be < audit_horizon = {audit_horizon}, got {audit_table_entry}",
            ),
            accepted_by(
                _first_decisions,
                "alpha",
                "large enough for the exact log-ratio of the first decision at every audited (policy, eps) (AdaP-KLUCB "
                "needs eps < alpha log 3)",
                library="ldp.audit.first_decision_log_ratio",
            ),
        ),
        tiny=dict(
            lemma1_starts=[],
            lemma1_changed=[1],
            lemma1_samples=1000,
            audit_horizon=12,
            audit_runs=2000,
            audit_epsilons=[1.0],
            audit_policies=["AdaP-KLUCB"],
            broken_stale_runs=25_000,
            audit_table_entry=[0, 0],
        ),
    ),
    "chapters/azize2022/table1.ipynb": Notebook(
        dict(
            alpha=ALPHA_INDEX,
            gamma=PROB,
            beta=Optional(PROB),
            growth_horizons=Seq(
                HORIZON, min_len=3, increasing=True, why="the growth exponent is a fit over at least 3 horizons"
            ),
            growth_runs=Int(2, 10**6, SE_RUNS),
        ),
        (
            at_least_arms("horizon", "means"),
            at_least_arms("growth_horizons", "means", each=True),
            _simulated(TABLE1_POLICIES),
            within_limits(_growth_simulated, ("growth_horizons", "growth_runs"), "each simulation"),
        ),
        tiny=dict(horizon=5, runs=2, growth_horizons=[5, 6, 7], growth_runs=2),
    ),
    "chapters/azize2022/theorem2_minimax.ipynb": Notebook(
        dict(
            horizon=horizon_rule(10, "the check reads the worst case at the first checkpoint t >= 10"),
            policies=Seq(ADAP, distinct=True, why=DISTINCT_IDS),
            alpha=ALPHA_INDEX,
            n_arms_list=Seq(Int(2, 10**5), distinct=True, why=DISTINCT_IDS),
            gap_grid=Grid(),
            base_mean=Real(0, 1, hi_open=True),
            checkpoint_points=Int(2, 10**4),
            example=Fields((("T", HORIZON), ("K", Int(2, 10**9)))),
            curves_kt=Seq(Fields((("T", HORIZON), ("K", Int(2, 10**9)))), distinct=True, why=DISTINCT_IDS),
            curves_eps=EPSILONS,
        ),
        (
            custom(
                lambda p: p["base_mean"] + p["gap_grid"][1] <= 1,
                "gap_grid[1] (max) must be <= 1 - base_mean (a mean in [0, 1]), got gap_grid = {gap_grid}, "
                "base_mean = {base_mean}",
            ),
            custom(
                lambda p: all(t >= k - 1 for t, k in [p["example"], *p["curves_kt"]]),
                "example and every pair of curves_kt must be (T, K) with T >= K - 1 (Theorem 2 asks it; T comes "
                "first), got example = {example}, curves_kt = {curves_kt}",
            ),
            custom(
                lambda p: p["horizon"] >= max(p["n_arms_list"]),
                "horizon must be >= max(n_arms_list) = {n_arms_list}, got {horizon}",
            ),
            custom(
                _first_checkpoint_fits_arms,
                "n_arms_list must hold no K above t + 1 for the first checkpoint t >= 10 of the run (Theorem 2 needs "
                "T >= K - 1 where the check reads it), got n_arms_list = {n_arms_list}, horizon = {horizon}, "
                "checkpoint_points = {checkpoint_points}",
            ),
            custom(
                _minimax_bound_fails_early,
                "epsilons must hold an eps so small that bound (3) exceeds t(K-1)/K, the regret of uniform play, at "
                "the first checkpoint t >= 10 for every K of n_arms_list (the check asserts that (3) fails there: "
                "eps < K/(131 t)), got epsilons = {epsilons}, n_arms_list = {n_arms_list}, horizon = {horizon}, "
                "checkpoint_points = {checkpoint_points}",
            ),
            custom(
                _minimax_bound_reachable,
                "epsilons must each keep bound (3) at T = horizon at most T(K-1)/K, the regret of uniform play, for "
                "every K of n_arms_list (the check asserts that the worst case reaches (3) at T: eps >= K/(131 T)), "
                "got epsilons = {epsilons}, n_arms_list = {n_arms_list}, horizon = {horizon}",
            ),
            _simulated("policies", arms="n_arms_list", checkpoints=lambda p: p["checkpoint_points"]),
        ),
        tiny=dict(
            horizon=1000,
            runs=2,
            policies=["AdaP-UCB"],
            n_arms_list=[2],
            epsilons=[1e-3],
            gap_grid=[0.1, 0.45, 2],
            checkpoint_points=4,
            curves_kt=[[10, 2]],
            curves_eps=[1e-3],
        ),
    ),
    "chapters/azize2022/theorem3_problem_dependent.ipynb": Notebook(
        dict(
            fig2_means=MEANS,
            fig3_means=MEANS,
            eps_grid=Grid(),
            sigma=THEOREM3_SIGMA,
            gap_axis=Grid(Real(0, 0.75, lo_open=True)),
            gauss_check_ratios=Seq(THEOREM3_RATIO),
            log_s_grid=Grid(LOG_S_BOUND, Int(2, 10**4)),
        ),
        (
            custom(
                lambda p: all(sorted(m)[-1] > sorted(m)[-2] for m in (p["fig2_means"], p["fig3_means"])),
                "fig2_means and fig3_means must each have one best arm (Theorem 3's high-privacy coefficient is "
                "(K - 1)/6, K - 1 suboptimal arms; a second best arm failed a late check), got {fig2_means}, "
                "{fig3_means}",
            ),
            custom(
                _eps_grid_spans_switches,
                "eps_grid must reach below the smallest switch point eps_a of the two instances and up to the largest "
                "(the asymptotes are checked on both sides), got eps_grid = {eps_grid}",
            ),
            custom(
                _epsilon_above_switches,
                "epsilon must be at least the largest switch point eps_a = d(mu_a, mu*)/(6 t_inf) of the two "
                "instances: the exact claims at epsilon compare Theorem 3's constant with the Lai-Robbins sum, which "
                "it equals only when every arm is in the low-privacy regime, got epsilon = {epsilon}",
            ),
            custom(
                lambda p: all(
                    p["log_s_grid"][0] < math.log1p(r * r) / 2 < p["log_s_grid"][1] for r in p["gauss_check_ratios"]
                ),
                "log_s_grid must hold, for every ratio r of gauss_check_ratios, the minimiser over log(s / sigma) of "
                "the KL, log(1 + r^2)/2 (1.15 at r = 3): the body's search ends at the grid's edge otherwise, short of "
                "the library's d_inf, got log_s_grid = {log_s_grid}, gauss_check_ratios = {gauss_check_ratios}",
            ),
        ),
        tiny=dict(eps_grid=[1e-3, 1e2, 2], gap_axis=[0.1, 0.2, 2], gauss_check_ratios=[1.0], log_s_grid=[-1.0, 1.0, 2]),
    ),
    "chapters/azize2022/theorems4_5_linear.ipynb": Notebook(
        dict(
            dims=Seq(Int(1, 10**6)),
            horizons=Seq(HORIZON),
            t4_eps=EPSILONS,
            claim_horizon=HORIZON,
            theta_basis=Seq(Real(-1e6, 1e6), 3, 3),
            angles_deg=Seq(Real(-360, 360), min_len=2, why="the instance needs at least 2 actions"),
            eoo_x=Real(0, 1, True, True),
            eoo_gamma=Real(0, 10, lo_open=True, why="measured: at gamma = 100 the solver certifies no point"),
            eps_rho_grid=Grid(),
            table_eps_rho=Seq(EPS),
            rho_pairs=Seq(Fields((("eps", EPS), ("rho", POS)))),
        ),
        (
            custom(
                _linear_sets_solvable,
                "theta_basis, angles_deg, eoo_x must make three linear instances with a unique optimal action and "
                f"every gap at least {LINEAR_GAP:g} of the largest <a, theta> (below, the convex programs of "
                "ldp.bounds no longer certify their value: measured), got theta_basis = {theta_basis}, angles_deg = "
                "{angles_deg}, eoo_x = {eoo_x}, eoo_gamma = {eoo_gamma}",
            ),
        ),
        tiny=dict(
            dims=[2],
            horizons=[2],
            t4_eps=[1.0],
            claim_horizon=2,
            angles_deg=[0, 90],
            eps_rho_grid=[0.1, 1.0, 2],
            table_eps_rho=[1.0],
            rho_pairs=[[1.0, 1.0]],
        ),
    ),
    "chapters/azize2022/theorems7_8_upper_bounds.ipynb": Notebook(
        dict(
            horizon=horizon_rule(20, "the regret panel starts at t = 20"),
            alpha=ALPHA_THEOREMS,
            horizon_np=HORIZON,
            horizon_eps=HORIZON,
            n_eps=Int(2, 10**4),
            c1_shape=POS,
            c2_shape=POS,
            alpha_bad=POS,
        ),
        (
            at_least_arms("horizon", "means"),
            _bounds_accept("horizon", "epsilon"),
            at_least_arms("horizon_np", "means"),
            less("horizon_np", "horizon", strict=False, why="the privacy cost reads the private runs at horizon_np"),
            at_least_arms("horizon_eps", "means", extra=1, why=SAME_RUNS),
            less("eps_min", "eps_max"),
            custom(
                lambda p: p["eps_max"] > 1,
                "eps_max must be > 1 (the check compares the regret at eps_max with that at eps = 1), got {eps_max}",
            ),
            custom(
                _theorem8_drawn(lambda p: 1.0),
                "c2_shape must be a C2 at which Theorem 8's bound (ldp.bounds.adap_klucb_regret_bound) at C1 = 1 is a "
                "finite number at T = horizon (a C2 so small that C2 eps Delta_a rounds to 0 divides by it), got "
                "c2_shape = {c2_shape}, epsilon = {epsilon}, means = {means}, horizon = {horizon}",
            ),
            custom(
                _theorem8_drawn(lambda p: p["c1_shape"]),
                "c1_shape must be a C1 at which the notebook can draw Theorem 8 (ldp.bounds.adap_klucb_regret_bound) "
                "at C1 and 2 C1, its C1 needed dividing by their difference: the bound at 2 c1_shape finite at T = "
                "horizon, and the difference > 0 at t = 2 beside the additive term 3 alpha / (alpha - 3) per arm "
                "(measured: 1e-20 gave a standard error of nan), got c1_shape = {c1_shape}, c2_shape = {c2_shape}, "
                "epsilon = {epsilon}, means = {means}, horizon = {horizon}",
            ),
            _noise_free_model_fits("horizon_eps", ("AdaP-UCB", "AdaP-KLUCB")),
            _simulated(("AdaP-UCB", "AdaP-KLUCB"), (("horizon", "runs"), ("horizon_eps", "runs"))),
            _simulated(("KL-UCB", "UCB1"), (("horizon_np", "runs"),)),
        ),
        tiny=dict(horizon=20, runs=2, horizon_np=5, horizon_eps=40_000, eps_max=1.5, n_eps=2),
    ),
    "chapters/azize2022/theorem1_table2.ipynb": THEOREM1_TABLE2,
}
