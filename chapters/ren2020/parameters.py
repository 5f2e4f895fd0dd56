"""The parameter rules of the Ren et al. (2020) chapter's notebooks (``chapters/ren2020/``), with their
private predicate."""

from __future__ import annotations

import math

import numpy as np

from ldpcode._validate import EPSILON_FLOOR
from ldpcode.instances import make_instance
from ldpcode.parameters.library import (
    accepted_by,
    simulated,
    LAPLACE_DRAW_SECONDS,
    RESPONSE_BYTES,
    RESPONSE_SECONDS,
    SORT_SECONDS,
    SORTED_SUM_BYTES,
    policies_accept,
    within_limits,
)
from ldpcode.parameters.rules import (
    ALPHA_CONF,
    DISTINCT_IDS,
    EPS,
    EPSILONS,
    HORIZON,
    POINTS,
    POS,
    RATIO_LONGER,
    REN_ARMS,
    Fields,
    Grid,
    Int,
    Notebook,
    Real,
    Seq,
    _ren_horizon,
    custom,
    horizon_rule,
    less,
)


def _tail_well_estimated(p) -> bool:
    from ldpcode.mechanisms import laplace_sum_sf

    for n in p["n_values"]:
        first = 2 * math.sqrt(2) * p["b"] * n / (p["grid_points"] - 1)  # the grid's first point after 0
        if float(laplace_sum_sf(first, n, p["b"])) * p["samples"] < p["min_count"]:
            return False
    return True


def _lemma3_grid(p, n: int) -> np.ndarray:
    """lemma3_laplace_tail's grid of lambda for the sum of ``n`` terms: (0, 2 sqrt(2) b n), endpoints dropped."""
    return np.linspace(0.0, 2 * np.sqrt(2) * p["b"] * n, p["grid_points"])[1:-1]


def _lemma3_bounds(p) -> None:
    """lemma3_laplace_tail's bound on its grid, for each n of n_values: ldp.bounds.laplace_sum_tail_bound, checked as
    ldpcode.experiments.laplace_tail_check.tail_curve checks it (finite: the lemma says nothing at lambda = 0 or at
    the range's end, where a grid of a subnormal b rounds onto)."""
    from ldpcode._validate import check_finite_array
    from ldpcode.bounds import laplace_sum_tail_bound

    for n in p["n_values"]:
        check_finite_array("bound", laplace_sum_tail_bound(_lemma3_grid(p, n), n, p["b"]))


AUDIT_BIN_COUNT = 5  # the fewest outputs lemmas2_5_curators' audit expects in a bin, under each reward


def _audit_bins_filled(p) -> bool:
    """lemmas2_5_curators stores the left tail's log-ratio of its audit of CTL and the largest binned loss
    (ldp.audit.binned_log_ratio), each with its standard error, undefined (nan) for a bin that no output of one reward
    reaches. Every bin of audit_edges (ldp.mechanisms.report.audit_bin_edges, as the body makes them) must expect at least
    AUDIT_BIN_COUNT of the audit_samples outputs of CTL(eps) to the reward 0 and to the reward 1 (their laws
    ldp.CTL(eps).output_law), at every eps of audit_epsilons."""
    from ldpcode.mechanisms import CTL
    from ldpcode.mechanisms.report import audit_bin_edges

    edges = audit_bin_edges(*p["audit_edges"])
    for eps in p["audit_epsilons"]:
        for r in (0.0, 1.0):
            if p["audit_samples"] * float(np.diff(CTL(eps).output_law(r).cdf(edges)).min()) < AUDIT_BIN_COUNT:
                return False
    return True


def _ctl_reach(p) -> float:
    """The largest |x - r| over the outputs x of [x_min, x_max] and the rewards r of [0, 1] (x_min <= 0, x_max >= 1)."""
    return max(abs(p["x_min"]), abs(p["x_max"]), abs(p["x_min"] - 1), abs(p["x_max"] - 1))


def _crossings_in_grid(p) -> bool:
    """theorem1_lower_bound finds, by bisection on [eps_min, eps_max], the eps where Theorem 1's constant (and its
    tightened form) meets the non-private Lai-Robbins constant: the bounds of the library must lie on both sides."""
    from ldpcode.bounds import lai_robbins_constant, lower_bound_constant, lower_bound_constant_tightened
    from ldpcode.instances import make_instance

    means = make_instance(p["instance"]).means
    lr = lai_robbins_constant(means)
    return all(
        fn(means, p["eps_min"]) > lr > fn(means, p["eps_max"])
        for fn in (lower_bound_constant, lower_bound_constant_tightened)
    )


def _lemma3_cost(p) -> list:
    """The Monte Carlo of lemma3_laplace_tail (the notebook's own ``laplace_sums``): each of ``samples`` sums takes
    one Laplace draw per term, for each n of ``n_values`` (then sorted) and each k of ``thm4_cases``."""
    n, draws = p["samples"], sum(p["n_values"]) + sum(k for k, _ in p["thm4_cases"])
    seconds = n * (draws * LAPLACE_DRAW_SECONDS + len(p["n_values"]) * SORT_SECONDS)
    work = f"samples={n} sums, {draws} Laplace draws each in all, {len(p['n_values'])} sorts"
    return [("the notebook's Monte Carlo of Lemma 3", work, seconds, SORTED_SUM_BYTES * n)]


def _sigmoid_responses_cost(p) -> list:
    """The Monte Carlo of corollaries10_11_sigmoid (Lemmas 8 and 9): ``samples`` responses of CTL-S and CTB-S at
    each eps of ``epsilons`` to each distinct mean of the ren2020-gaussian instance."""
    from ldpcode.instances import make_instance

    means = len(set(make_instance("ren2020-gaussian").means.tolist()))
    n, calls = p["samples"], 2 * len(p["epsilons"]) * means
    work = f"samples={n} responses for each of {calls} (curator, eps, mean)"
    return [("the notebook's Monte Carlo of Lemmas 8 and 9", work, calls * n * RESPONSE_SECONDS, RESPONSE_BYTES * n)]


LDP_UCB = ("UCB1", "LDP-UCB-L", "LDP-UCB-B")
SIGMOID = ("LDP-UCB-LS", "LDP-UCB-BS")


NOTEBOOKS: dict[str, Notebook] = {
    # ---------------------------------------------------------------- Ren et al. (2020)
    "chapters/ren2020/corollaries10_11_sigmoid.ipynb": Notebook(
        dict(
            samples=Int(
                100,
                10**9,
                "each Monte Carlo gap is checked within 4 standard errors estimated from the sample: with fewer "
                "responses that estimate is unreliable (measured: at 2 responses the check fails at every eps but 1)",
            ),
            epsilons=Seq(EPS, distinct=True, why=DISTINCT_IDS),
            grid_points=Int(12, 10**6, "the picture of all pairs takes every 10th mean: at least 2 of them"),
        ),
        (
            _ren_horizon,
            within_limits(_sigmoid_responses_cost, "samples", "the curators' Monte Carlo"),
            simulated(SIGMOID, "ren2020-gaussian"),
        ),
        tiny=dict(horizon=20, runs=2, epsilons=[1.0], samples=100, grid_points=12),
    ),
    "chapters/ren2020/figure1.ipynb": Notebook(
        dict(eps_compare=Seq(EPS, 2, 2, distinct=True, why=DISTINCT_IDS)),
        (
            _ren_horizon,
            less("horizon", "ratio_horizon", why=RATIO_LONGER),
            simulated(LDP_UCB, "ren2020-bernoulli", (("horizon", "runs"), ("ratio_horizon", "runs"))),
        ),
        tiny=dict(horizon=100, ratio_horizon=200, runs=2, epsilons=[1.0]),
    ),
    "chapters/ren2020/lemma3_laplace_tail.ipynb": Notebook(
        dict(
            n_values=Seq(Int(1, 10**6), min_len=2, distinct=True, why=DISTINCT_IDS),
            b=POS,
            samples=Int(1, 10**9),
            grid_points=Int(3, 10**6, "the grid's two endpoints are dropped: at least one point must remain"),
            min_count=Int(
                10, why="with fewer expected exceedances the Monte Carlo tail is often 0, whose log is undefined"
            ),
            thm4_cases=Seq(Fields((("k", Int(1, 10**6)), ("t", HORIZON))), distinct=True, why=DISTINCT_IDS),
            thm4_times=Seq(HORIZON),
        ),
        (
            custom(
                lambda p: all(k > 4 * math.log(t) for k, t in p["thm4_cases"]),
                "thm4_cases must hold pairs (k, t) with k > 4 log t (Theorem 4's range), got {thm4_cases}",
            ),
            custom(
                _tail_well_estimated,
                "samples must be large enough that samples x P(Y_n > lambda) >= min_count at the first lambda of the "
                "grid for every n (where the tail counts as well estimated; the check reads the last such lambda), "
                "got samples = {samples}, min_count = {min_count}, n_values = {n_values}, grid_points = "
                "{grid_points}",
            ),
            within_limits(_lemma3_cost, "samples", "the Monte Carlo of the Laplace sums"),
            accepted_by(
                _lemma3_bounds,
                "b",
                "a scale at which Lemma 3's bound is a finite number at every lambda of the grid, (0, 2 sqrt(2) b n) "
                "without its endpoints (the grid of a subnormal b rounds onto them, where the lemma says nothing)",
                library="ldp.bounds.laplace_sum_tail_bound, as laplace_tail_check.tail_curve checks it",
            ),
        ),
        tiny=dict(n_values=[1, 2], samples=200, grid_points=3, min_count=10, thm4_cases=[[5, 3]], thm4_times=[2]),
    ),
    "chapters/ren2020/lemma7_sigmoid.ipynb": Notebook(
        dict(
            a_points=POINTS,
            grid_points=Int(2, 10**4),
            t_points=Int(2, 10**3),
            lp_z_max=Real(0, 100, True),
            lp_step=POS,
        ),
        (
            custom(
                lambda p: p["lp_z_max"] / p["lp_step"] <= 10**5,
                "lp_step must be >= lp_z_max / 10**5 (at most 10**5 support points per side), got "
                "lp_step = {lp_step}, lp_z_max = {lp_z_max}",
            ),
            custom(
                lambda p: p["lp_z_max"] > 1 and p["lp_step"] < p["lp_z_max"],
                "lp_z_max must be > 1 (the noises of the linear program have variance one) and lp_step < lp_z_max, "
                "got lp_z_max = {lp_z_max}, lp_step = {lp_step}",
            ),
        ),
        tiny=dict(a_points=2, grid_points=2, t_points=2, lp_z_max=1.01, lp_step=1.0),
    ),
    "chapters/ren2020/lemmas2_5_curators.ipynb": Notebook(
        dict(
            eps_max=Real(
                EPSILON_FLOOR,
                12,
                why="measured: the check compares the exact losses with eps to 1e-12, and from eps = 13 on, 1 - P{CTB "
                "= 1} = 1/(1 + e^eps) is computed with a larger relative error",
            ),
            eps_points=POINTS,
            r_points=POINTS,
            x_min=Real(),
            x_max=Real(),
            x_points=POINTS,
            audit_epsilons=EPSILONS,
            audit_samples=Int(
                1000, 10**9, "with fewer outputs the audit's tail bins are empty: no log-ratio, no standard error"
            ),
            audit_edges=Fields((("lo", Real()), ("hi", Real()), ("width", POS))),
            alpha=ALPHA_CONF,
            mean_epsilons=EPSILONS,
            mean_samples=Int(
                100,
                10**9,
                "each mean is checked within 4 standard errors estimated from the "
                "sample: fewer rewards make that estimate unusable",
            ),
            sim_epsilon=EPS,
            sim_horizon=horizon_rule(REN_ARMS),
            sim_runs=Int(
                10,
                10**6,
                "the check asserts the mixed / Bernoulli ratio within 4 of its standard errors of 1, an se with runs - 1 "
                "degrees of freedom: a true 1 lands beyond them with probability 16 % at 2 runs, 0.3 % at 10",
            ),
        ),
        (
            less("eps_min", "eps_max"),
            less("x_min", "x_max"),
            custom(
                lambda p: p["x_min"] <= 0 and p["x_max"] >= 1,
                "x_min must be <= 0 and x_max >= 1: CTL's log density ratio between the rewards 0 and 1 reaches "
                "+-eps only outside [0, 1], where the check reads it, got x_min = {x_min}, x_max = {x_max}",
            ),
            custom(
                lambda p: p["eps_max"] * max(abs(p["x_min"]), abs(p["x_max"]), abs(p["x_min"] - 1), abs(p["x_max"] - 1))
                <= 700,
                "x_min, x_max must keep eps_max |x - r| <= 700 for r in [0, 1] (CTL's density e^(-eps |x - r|) eps/2 "
                "underflows to 0 beyond about 745, and the loss of a zero density is undefined), got x_min = {x_min}, "
                "x_max = {x_max}, eps_max = {eps_max}",
            ),
            custom(
                lambda p: p["audit_edges"][0] < p["audit_edges"][1]
                and (p["audit_edges"][1] - p["audit_edges"][0]) / p["audit_edges"][2] <= 10**5,
                "audit_edges must be [lo, hi, width] with lo < hi and at most 10**5 bins, got {audit_edges}",
            ),
            custom(
                _audit_bins_filled,
                "audit_epsilons must leave, at audit_samples outputs per reward, at least "
                f"{AUDIT_BIN_COUNT} expected in every bin of audit_edges under both rewards 0 and 1 (the claims store "
                "the left tail's log-ratio and the largest binned loss with their standard errors, undefined for an "
                "empty bin: measured at 1,000 outputs, eps = 2, 2 expected in the sparsest bin, lost one for 1 seed of "
                "12, eps = 3 for 3 of 12; at 5 expected, 40 seeds of 40 kept them), got audit_epsilons = "
                "{audit_epsilons}, audit_samples = {audit_samples}, audit_edges = {audit_edges}",
            ),
            custom(
                lambda p: max(p["audit_epsilons"][0], p["audit_epsilons"][-1]) * _ctl_reach(p) <= 700,
                "audit_epsilons[0] and audit_epsilons[-1] must keep eps |x - r| <= 700 for r in [0, 1] and x in "
                "[x_min, x_max] (the body draws CTL's exact losses on the x grid at both: its density e^(-eps |x - r|) "
                "eps/2 underflows to 0 beyond about 745, and a reward whose densities are all 0 has no output law), "
                "got audit_epsilons = {audit_epsilons}, x_min = {x_min}, x_max = {x_max}",
            ),
            simulated(("LDP-UCB-B",), "ren2020-mixed", (("sim_horizon", "sim_runs"),)),
        ),
        tiny=dict(
            eps_points=2,
            r_points=2,
            x_points=2,
            audit_epsilons=[1.0],
            audit_samples=1000,
            mean_epsilons=[1.0],
            mean_samples=100,
            sim_horizon=20,
            sim_runs=10,
        ),
    ),
    "chapters/ren2020/supplement_figure2.ipynb": Notebook(
        dict(
            eps_main=Real(
                1e-6,
                why="the check compares the library's ratio bound with the paper's formula transcribed, whose e^eps - 1 "
                "loses the precision of the comparison (1e-9) below about 1e-7",
            ),
        ),
        (
            _ren_horizon,
            less("horizon", "ratio_horizon", why=RATIO_LONGER),
            simulated(SIGMOID, "ren2020-gaussian", (("horizon", "runs"), ("ratio_horizon", "runs"))),
        ),
        tiny=dict(horizon=20, ratio_horizon=21, runs=2, epsilons=[1.0]),
    ),
    "chapters/ren2020/theorem1_lower_bound.ipynb": Notebook(
        dict(
            eps_points=POINTS,
            claim_eps=EPSILONS,
            grid_pq=Int(2, 10**4),
            grid_eps=Grid(),
            random_pairs=Int(2, 10**8, "a standard error needs at least 2 pairs"),
            k_max=Int(2, 10**4),
            eps_max=Real(
                EPSILON_FLOOR,
                300,
                why="measured: from eps = 400 the library's constants lose their order in double precision (Theorem 1's "
                "falls below Basu et al.'s), and at 700 e^eps overflows",
            ),
        ),
        (
            less("eps_min", "eps_max"),
            custom(
                _crossings_in_grid,
                "eps_min, eps_max must bracket the eps where Theorem 1's constant (and its tightened form) meets the "
                "non-private Lai-Robbins constant of the instance (the body finds it by bisection on [eps_min, "
                "eps_max]), got eps_min = {eps_min}, eps_max = {eps_max}",
            ),
        ),
        tiny=dict(eps_points=2, claim_eps=[1.0], grid_pq=2, grid_eps=[0.5, 1.0, 2], random_pairs=2, k_max=2),
    ),
    "chapters/ren2020/theorem4_ldp_ucb_l.ipynb": Notebook(
        {},
        (
            _ren_horizon,
            custom(
                lambda p: p["horizon"] >= REN_ARMS + 1,
                "horizon must be at least 21: the slope over the last decade [T/10, T] needs 2 checkpoints t >= 20 "
                "(each arm pulled once), got horizon = {horizon}",
            ),
            policies_accept(("LDP-UCB-L",), lambda p: make_instance(p["instance"])),
            simulated(("LDP-UCB-L",)),
        ),
        tiny=dict(horizon=21, runs=2, epsilons=[1.0]),
    ),
    "chapters/ren2020/theorem6_ldp_ucb_b.ipynb": Notebook(
        dict(horizon=horizon_rule(100, "the ratio panel starts at t = 100")),
        (
            _ren_horizon,
            policies_accept(("LDP-UCB-B",), lambda p: make_instance(p["instance"])),
            simulated(("UCB1", "LDP-UCB-B")),
        ),
        tiny=dict(horizon=100, runs=2, epsilons=[1.0]),
    ),
}
