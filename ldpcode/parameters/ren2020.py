"""The parameter rules of the Ren et al. (2020) chapter's notebooks (``chapters/ren2020/``), with their
private predicate."""

from __future__ import annotations

import math

from .rules import (
    ALPHA_CONF,
    EPS,
    EPSILONS,
    HORIZON,
    MAX_COUNT,
    POINTS,
    POS,
    RATIO_LONGER,
    REN_ARMS,
    SE_RUNS,
    Fields,
    Grid,
    Int,
    Notebook,
    Real,
    Seq,
    _ren_horizon,
    custom,
    less,
)


def _tail_well_estimated(p) -> bool:
    from ..mechanisms import laplace_sum_sf

    for n in p["n_values"]:
        first = 2 * math.sqrt(2) * p["b"] * n / (p["grid_points"] - 1)  # the grid's first point after 0
        if float(laplace_sum_sf(first, n, p["b"])) * p["samples"] < p["min_count"]:
            return False
    return True


NOTEBOOKS: dict[str, Notebook] = {
    # ---------------------------------------------------------------- Ren et al. (2020)
    "chapters/ren2020/corollaries10_11_sigmoid.ipynb": Notebook(
        dict(
            samples=Int(2, 10**9, "a standard error needs at least 2 responses"),
            grid_points=Int(12, 10**6, "the picture of all pairs takes every 10th mean: at least 2 of them"),
        ),
        (_ren_horizon,),
        tiny=dict(horizon=20, runs=2, epsilons=[1.0], samples=2, grid_points=12),
    ),
    "chapters/ren2020/figure1.ipynb": Notebook(
        dict(eps_compare=Seq(EPS, 2, 2)),
        (_ren_horizon, less("horizon", "ratio_horizon", why=RATIO_LONGER)),
        tiny=dict(horizon=100, ratio_horizon=200, runs=2, epsilons=[1.0]),
    ),
    "chapters/ren2020/lemma3_laplace_tail.ipynb": Notebook(
        dict(
            n_values=Seq(Int(1, 10**6), min_len=2),
            b=POS,
            samples=Int(1, 10**9),
            grid_points=Int(3, 10**6, "the grid's two endpoints are dropped: at least one point must remain"),
            min_count=Int(
                10, why="with fewer expected exceedances the Monte Carlo tail is often 0, whose log is undefined"
            ),
            thm4_cases=Seq(Fields((("k", Int(1, 10**6)), ("t", HORIZON)))),
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
            paper_a=Real(),
            paper_sup=Real(),
            paper_gauss=Real(),
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
            sim_horizon=Int(REN_ARMS, MAX_COUNT),
            sim_runs=Int(2, 10**6, SE_RUNS),
        ),
        (
            less("eps_min", "eps_max"),
            less("x_min", "x_max"),
            custom(
                lambda p: p["audit_edges"][0] < p["audit_edges"][1]
                and (p["audit_edges"][1] - p["audit_edges"][0]) / p["audit_edges"][2] <= 10**5,
                "audit_edges must be [lo, hi, width] with lo < hi and at most 10**5 bins, got {audit_edges}",
            ),
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
            sim_runs=2,
        ),
    ),
    "chapters/ren2020/supplement_figure2.ipynb": Notebook(
        dict(eps_main=EPS),
        (_ren_horizon, less("horizon", "ratio_horizon", why=RATIO_LONGER)),
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
        ),
        (less("eps_min", "eps_max"),),
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
        ),
        tiny=dict(horizon=21, runs=2, epsilons=[1.0]),
    ),
    "chapters/ren2020/theorem6_ldp_ucb_b.ipynb": Notebook(
        dict(horizon=Int(100, MAX_COUNT, "the ratio panel starts at t = 100")),
        (_ren_horizon,),
        tiny=dict(horizon=100, runs=2, epsilons=[1.0]),
    ),
}
