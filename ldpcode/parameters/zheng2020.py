"""The parameter rules of the Zheng et al. (2020) chapter's notebooks (``chapters/zheng2020/``), with their
private rules and messages."""

from __future__ import annotations

from .rules import (
    ALPHA_CONF,
    COUNT,
    EPS,
    EPSILONS,
    HORIZON,
    MAX_COUNT,
    MEANS,
    POS,
    PROB,
    SE_RUNS,
    SEED,
    Int,
    Notebook,
    Real,
    Seq,
    Text,
    _chapter_exists,
    at_least_arms,
    custom,
    fit_window,
    less,
)

EPS_FIT = Seq(EPS, min_len=3, why="the exponent in eps is a log-log fit over at least 3 of them")
T_FIT = "the exponent in T is a log-log fit over at least 3 horizons"


RATIO_FIT = "the exponent of the ratio in 1/eps is a log-log fit over at least 3 of them"


NOTEBOOKS: dict[str, Notebook] = {
    # ---------------------------------------------------------------- Zheng et al. (2020)
    "chapters/zheng2020/algorithm1_theorems2_3.ipynb": Notebook(
        dict(
            loss_bound=POS,
            eps_grid=EPSILONS,
            delta_grid=Seq(PROB),
            audit_epsilon=EPS,
            audit_samples=Int(2, 10**9, "a standard error needs at least 2 outputs"),
            audit_bins=Int(2, 10**5),
            loss_means=MEANS,
            regret_epsilons=Seq(EPS, min_len=3, why="the exponent in 1/eps is a fit over at least 3 of them"),
        ),
        (
            at_least_arms("horizon", "loss_means"),
            custom(
                lambda p: {1.0, 8.0, 16.0} <= set(p["eps_grid"]),
                "eps_grid must hold 1.0, 8.0 and 16.0 (the check reads the exact delta(eps) of line 1's sigma at "
                "these), got {eps_grid}",
            ),
        ),
        tiny=dict(
            eps_grid=[1.0, 8.0, 16.0],
            delta_grid=[0.01],
            audit_samples=2,
            audit_bins=2,
            horizon=1000,
            runs=2,
            regret_epsilons=[2.0, 4.0, 8.0],
            n_boot=2,
        ),
    ),
    "chapters/zheng2020/algorithm2_two_point_bco.ipynb": Notebook(
        dict(
            d=Int(1, 10**4),
            t_min=COUNT,
            t_min_log=Int(2, MAX_COUNT, "the regret is fitted on log t, which must be > 0"),
            releases=Int(2, 10**9, "a standard error needs at least 2 releases"),
            sweep_epsilons=Seq(EPS, 3, why=RATIO_FIT),
            sweep_horizon=HORIZON,
            sweep_runs=Int(2, 10**6, SE_RUNS),
        ),
        (
            less("t_min", "horizon"),
            less("t_min_log", "horizon"),
            fit_window("t_min", "horizon", 41),
            fit_window("t_min_log", "horizon", 41),
        ),
        tiny=dict(
            horizon=1000,
            runs=2,
            t_min=10,
            t_min_log=100,
            releases=2,
            sweep_epsilons=[1.0, 2.0, 4.0],
            sweep_horizon=1000,
            sweep_runs=2,
            n_boot=2,
        ),
    ),
    "chapters/zheng2020/algorithm3_theorems9_10_glm.ipynb": Notebook(
        dict(
            dim=Int(1, 10**4),
            n_arms=Int(2, 10**5),
            theta_seed=SEED,
            epsilons=EPS_FIT,
            alpha=ALPHA_CONF,
            horizons=Seq(HORIZON, min_len=3, increasing=True, why=T_FIT),
        ),
        (),
        tiny=dict(n_arms=2, epsilons=[1.0, 2.0, 4.0], horizons=[100, 200, 400], runs=2),
    ),
    "chapters/zheng2020/corollary4_one_point_bco.ipynb": Notebook(
        dict(
            d=Int(1, 10**4),
            t_min=COUNT,
            sweep_epsilons=Seq(EPS, 3, why=RATIO_FIT),
            sweep_horizon=HORIZON,
            sweep_runs=Int(2, 10**6, SE_RUNS),
            smooth_horizon=HORIZON,
            smooth_runs=Int(2, 10**6, SE_RUNS),
            t_min_late=COUNT,
            st_beta=POS,
        ),
        (
            less("t_min", "horizon"),
            less("t_min_late", "smooth_horizon"),
            fit_window("t_min", "horizon", 41),
            fit_window("t_min_late", "horizon", 41),
            fit_window("t_min", "smooth_horizon", 41),
            fit_window("t_min_late", "smooth_horizon", 41),
        ),
        tiny=dict(
            horizon=1000,
            runs=2,
            t_min=10,
            sweep_epsilons=[1.0, 2.0, 4.0],
            sweep_horizon=1000,
            sweep_runs=2,
            n_boot=2,
            smooth_horizon=1000,
            smooth_runs=2,
            t_min_late=100,
        ),
    ),
    "chapters/zheng2020/mab_reduction.ipynb": Notebook(
        dict(
            reward_means=MEANS,
            loss_bound=POS,
            fit_from=COUNT,
            adv_arms=Int(2, 10**5),
            adv_horizon=HORIZON,
            adv_epsilon=EPS,
        ),
        (
            at_least_arms("horizon", "reward_means"),
            less("fit_from", "horizon"),
            fit_window("fit_from", "horizon", 61),
            custom(
                lambda p: p["adv_horizon"] >= p["adv_arms"],
                "adv_horizon must be >= adv_arms = {adv_arms}, got {adv_horizon}",
            ),
        ),
        tiny=dict(horizon=1000, runs=2, fit_from=10, adv_horizon=100, n_boot=2, epsilons=[1.0]),
    ),
    "chapters/zheng2020/table1.ipynb": Notebook(
        dict(chapter=Text(), eps_label=EPS), (_chapter_exists,), tiny=dict(eps_label=2.0)
    ),
    "chapters/zheng2020/theorems7_8_linear.ipynb": Notebook(
        dict(
            dim=Int(1, 10**4),
            n_arms=Int(2, 10**5),
            noise=Real(0, 100),
            theta_seed=SEED,
            epsilons=EPS_FIT,
            alpha=ALPHA_CONF,
            horizons=Seq(HORIZON, min_len=3, increasing=True, why=T_FIT),
        ),
        (),
        tiny=dict(n_arms=2, epsilons=[1.0, 2.0, 4.0], horizons=[100, 200, 400], runs=2),
    ),
    "chapters/zheng2020/theorem1_ldp_implies_dp.ipynb": Notebook(
        dict(
            horizon=Int(1, 10**4),
            loss_means=MEANS,
            changed_user=Int(1, 10**4),
            runs=Int(20_000, 10**8, "with fewer transcripts the audit's bins and the Gaussian tail are often empty"),
            bins=Int(1, 1000),
            grid_points=Int(3, 10**6),
            confidence_alpha=ALPHA_CONF,
        ),
        (less("changed_user", "horizon", strict=False, why="the changed user is one of the stream's users"),),
        tiny=dict(horizon=1, loss_means=[0.5, 0.5], changed_user=1, epsilons=[1.0], runs=20_000, bins=1, grid_points=3),
    ),
    "chapters/zheng2020/appendix_b_best_arm.ipynb": Notebook(
        dict(
            reward_means=MEANS,
            epsilons=Seq(EPS, min_len=2, increasing=True, why="stopping times are compared between neighbours"),
            huge_epsilon=EPS,
            broken_epsilon=EPS,
            conf_delta=PROB,
            cp_alpha=PROB,
            runs=Int(
                20,
                10**6,
                "with fewer runs the counter-example (the frequency of the best arm below 1 - conf_delta when the "
                "radius ignores the noise, about 0.24) has no power: at 2 runs both are right 6% of the time",
            ),
        ),
        (
            custom(
                lambda p: sorted(p["reward_means"])[-1] > sorted(p["reward_means"])[-2],
                "reward_means must have a unique best arm (with two, successive elimination never stops), "
                "got {reward_means}",
            ),
            custom(
                lambda p: p["huge_epsilon"] > max(p["epsilons"]),
                "huge_epsilon must exceed every entry of epsilons = {epsilons} (it stands for the limit "
                "eps -> inf), got {huge_epsilon}",
            ),
        ),
        tiny=dict(epsilons=[8.0, 16.0], runs=20),
    ),
}
