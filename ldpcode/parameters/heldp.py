"""The parameter rules of the heterogeneous LDP chapter's notebooks (``chapters/heldp/``, Ren et al. 2020,
HeLDP), with their private messages."""

from __future__ import annotations

from .rules import (
    EPS,
    EPSILONS,
    HELDP_LAW,
    HORIZON,
    POS,
    RATIO_LONGER,
    UNIT,
    Grid,
    Int,
    Choice,
    Notebook,
    REN_ARMS,
    Seq,
    _ren_horizon,
    custom,
    less,
)

OTHER_EPS_MIN = "the heuristic's eps_min is compared with the best other eps_min of the grid"


WORST_OF_PANEL = "the check compares the paper's worst eps_min of the panel with the others"


FIT_PER_LAW = "a linear fit per law of the users' levels needs at least 3 thresholds"


def _some_users_kept(p) -> bool:
    from ..instances import make_privacy_levels

    return make_privacy_levels(p["level_law"]).p_at_least(p["eps_min"]) > 0


NOTEBOOKS: dict[str, Notebook] = {
    # ---------------------------------------------------------------- heterogeneous LDP (Ren et al. 2020, HeLDP)
    "chapters/heldp/choosing_epsilon_min.ipynb": Notebook(
        dict(
            grid_discrete=Seq(EPS, min_len=2, increasing=True, why=OTHER_EPS_MIN),
            grid_gaussian=Seq(EPS, min_len=2, increasing=True, why=OTHER_EPS_MIN),
            grid_exponential=Seq(EPS, min_len=2, increasing=True, why=OTHER_EPS_MIN),
            exponential_mean=POS,
            bound_grid=Grid(),
        ),
        (_ren_horizon,),
        tiny=dict(
            horizon=1000,
            runs=2,
            grid_discrete=[1.0, 2.0],
            grid_gaussian=[1.0, 2.0],
            grid_exponential=[1.0, 2.0],
            bound_grid=[0.5, 2.0, 2],
        ),
    ),
    "chapters/heldp/corollary13_sigmoid.ipynb": Notebook(
        dict(reduction_epsilon=EPS),
        (_ren_horizon,),
        tiny=dict(horizon=20, runs=2, settings=[["ren-heldp-discrete", 1.0]]),
    ),
    "chapters/heldp/figure1.ipynb": Notebook(
        dict(
            eps_compare=Seq(EPS, 2, 2),
            eps_min_discrete=Seq(EPS, min_len=2, why=WORST_OF_PANEL),
            eps_min_gaussian=Seq(EPS, min_len=2, why=WORST_OF_PANEL),
        ),
        (
            _ren_horizon,
            less("horizon", "ratio_horizon", why=RATIO_LONGER),
            custom(
                lambda p: all(e in (0.2, 2.0) for e in p["eps_compare"]),
                "eps_compare must hold the paper's levels 0.2 and 2.0 (panels (c), (d) and the ratio panel are drawn "
                "and checked against the paper's ratios at these levels), got {eps_compare}",
            ),
            custom(
                lambda p: 0.2 in p["eps_min_discrete"] and 2.0 in p["eps_min_gaussian"],
                "eps_min_discrete must hold 0.2 and eps_min_gaussian 2.0 (the check compares the paper's worst "
                "threshold of each panel with the others), got {eps_min_discrete}, {eps_min_gaussian}",
            ),
        ),
        tiny=dict(
            horizon=1000,
            ratio_horizon=2000,
            runs=2,
            epsilons=[1.0],
            eps_min_discrete=[0.2, 1.0],
            eps_min_gaussian=[1.0, 2.0],
        ),
    ),
    "chapters/heldp/figure2.ipynb": Notebook(
        dict(
            eps_min_discrete=Seq(EPS, min_len=3, why=FIT_PER_LAW),
            eps_min_gaussian=Seq(EPS, min_len=3, why=FIT_PER_LAW),
            r2_paper=UNIT,
        ),
        (_ren_horizon,),
        tiny=dict(horizon=1000, runs=2, eps_min_discrete=[0.2, 1.0, 2.0], eps_min_gaussian=[0.5, 1.0, 2.0]),
    ),
    "chapters/heldp/theorem10_corollary11.ipynb": Notebook(
        dict(constant_epsilons=EPSILONS),
        (_ren_horizon,),
        tiny=dict(horizon=20, runs=2, settings=[["ren-heldp-discrete", 1.0]], constant_epsilons=[1.0]),
    ),
    "chapters/heldp/theorem7_corollary8.ipynb": Notebook(
        dict(constant_epsilons=EPSILONS),
        (_ren_horizon,),
        tiny=dict(horizon=20, runs=2, settings=[["ren-heldp-discrete", 1.0]], constant_epsilons=[1.0]),
    ),
    "chapters/heldp/lemma6_laplace_tail.ipynb": Notebook(
        dict(
            level_law=HELDP_LAW,
            m_values=Seq(Int(1, 2000, "the exact tail takes at most 2,000 scales (MIXED_SUM_MAX_TERMS)")),
            samples=Int(1, 10**9),
            grid_points=Int(3, 10**5, "the grid's two endpoints are dropped: at least one point must remain"),
            min_count=Int(
                10, why="with fewer expected exceedances the Monte Carlo tail is often 0, whose log is undefined"
            ),
            usage_times=Seq(HORIZON),
            sweep_points=Int(2, 10**3),
        ),
        (
            custom(
                _some_users_kept,
                "eps_min must be a level some users of level_law reach (else no response is kept), got "
                "eps_min = {eps_min} for {level_law}",
            ),
        ),
        tiny=dict(m_values=[2], samples=20_000, grid_points=5, min_count=10, usage_times=[2], sweep_points=2),
    ),
    "chapters/heldp/unbiasing_map_g.ipynb": Notebook(
        dict(
            instance=Choice(("ren2020-bernoulli", "ren2020-mixed")),
            arms=Seq(Int(0, REN_ARMS - 1), min_len=1),
            epsilons=Seq(EPS, min_len=1),
            samples=Int(2, 10**8, "a standard error needs at least 2 samples"),
        ),
        (),
        tiny=dict(arms=[16], epsilons=[1.0], settings=[["ren-heldp-discrete", 0.2]], samples=200),
    ),
}
