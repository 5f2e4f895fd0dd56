"""The parameter rules of the Zheng et al. (2020) chapter's notebooks (``chapters/zheng2020/``), with their
private rules and messages."""

from __future__ import annotations

from ldpcode._validate import EPSILON_FLOOR
from ldpcode.parameters.library import accepted_by, simulations, within_limits
from ldpcode.parameters.rules import (
    ALPHA_CONF,
    COUNT,
    EPS,
    EPSILONS,
    HORIZON,
    MEANS,
    POS,
    PROB,
    SE_RUNS,
    SEED,
    Int,
    Notebook,
    Real,
    Seq,
    at_least_arms,
    custom,
    fit_window,
    horizon_rule,
    less,
)

ALPHA_RADIUS = Real(
    1e-100,
    1,
    hi_open=True,
    why="ldpcode.contextual's confidence radii take log(2T/alpha) and 1/alpha^2, which overflow to inf below about "
    "1e-154",
)  # the failure probability of a contextual learner's confidence sets (zheng2020's linear and GLM notebooks)

EPS_FIT = Seq(EPS, min_len=3, why="the exponent in eps is a log-log fit over at least 3 of them", distinct=True)
T_FIT = "the exponent in T is a log-log fit over at least 3 horizons"


RATIO_FIT = "the exponent of the ratio in 1/eps is a log-log fit over at least 3 of them"


def _mab_cost(agents, env, horizon: int, runs: int, n_checkpoints: int) -> list:
    """The library's estimate of ``reductions.simulate_mab(make_agent(name), env, horizon, runs)`` for each name of
    ``agents`` (the numba kernels of UCB and Tsallis-INF: the policy's own ``cost``)."""
    from ldpcode import reductions as rd
    from ldpcode.limits import default_workers
    from ldpcode.reductions.runs import AgentPolicy

    out = []
    for name in agents:
        seconds, nbytes, work = AgentPolicy(rd.make_agent(name), True).cost(
            env, horizon, runs, n_checkpoints, default_workers()
        )
        out.append(("simulate_mab", f"{name}: {work}", seconds, nbytes))
    return out


def _bco(kind: str, sizes):
    """:func:`within_limits` of a BCO notebook's runs: ``bco.bco_cost(kind, d, horizon, runs, checkpoints)`` (the
    library's estimate, as ``simulate_one_point`` / ``simulate_two_point`` check it) at each (horizon, runs, kind) of
    ``sizes`` (parameter names; kind None: ``kind``)."""

    def estimate(p):
        from ldpcode.bco import bco_cost

        out = []
        for h, r, k in sizes:
            seconds, nbytes, work = bco_cost(k or kind, p["d"], p[h], p[r], 41)
            out.append(("bco", work, seconds, nbytes))
        return out

    names = tuple(dict.fromkeys(n for h, r, _ in sizes for n in (h, r)))
    return within_limits(estimate, names, "each BCO simulation")


def _horizon_sweep_cost(p) -> list:
    """The library's estimate of ``contextual.horizon_sweep`` (all the horizons together, as it checks them)."""
    from ldpcode.contextual.runs import contextual_cost

    costs = [contextual_cost("numba", p["dim"], p["n_arms"], int(t), p["runs"], 30) for t in p["horizons"]]
    return [("horizon_sweep", costs[-1][2], sum(c[0] for c in costs), max(c[1] for c in costs))]


def _exact_delta_in_range(p) -> bool:
    """algorithm1_theorems2_3 divides delta by the exact delta(eps) of line 2's sigma at every eps of eps_grid (the
    library's ldp.reductions.gaussian_exact_delta), which must not underflow to 0, and its check asserts that the
    calibration holds at eps = 1 and 8 (delta(eps) <= delta, Theorem 2) and breaks at 16 (delta(16) >= delta)."""
    from ldpcode import reductions as rd

    sens = 2 * p["loss_bound"]

    def exact(e):
        return float(rd.gaussian_exact_delta(e, rd.algorithm1_mechanism(e, p["delta"], p["loss_bound"]).sigma, sens))

    d = p["delta"]
    return all(exact(e) > 0 for e in p["eps_grid"]) and exact(1.0) <= d and exact(8.0) <= d <= exact(16.0)


def _mechanisms_accept(build: str):
    """The Gaussian mechanisms of a contextual learner (ldp.contextual.linucb_mechanisms or gloc_mechanisms, the
    library's own validation) at every eps of epsilons: each splits delta (by 3 for GLOC), which must stay a
    probability."""

    def call(p):
        from ldpcode import contextual as ctx

        for e in p["epsilons"]:
            if build == "gloc":
                ctx.gloc_mechanisms(e, p["delta"])
            else:
                ctx.linucb_mechanisms(e, p["delta"], 1.0)

    return accepted_by(
        call,
        "delta",
        f"a delta the mechanisms of {build} accept at every eps of epsilons",
        library=f"ldp.contextual.{build}_mechanisms",
    )


def _transcripts_cost(p) -> list:
    """ldp.audit.follow_the_leader_transcripts at ``runs`` transcripts of ``horizon`` users, as that function
    estimates itself before any work (30 µs a step, (60 + 5K) ns and 24 bytes a step and run; it has no separate
    estimate function), for each of the body's calls."""
    n, t, k = p["runs"], p["horizon"], len(p["loss_means"])
    work = f"runs={n} transcripts of {t} users on {k} arms"
    return [
        ("follow_the_leader_transcripts", work, t * (30e-6 + n * (60 + 5 * k) * 1e-9), n * (24.0 * t + 48.0 * k + 64))
    ]


def _algorithm1_cost(p) -> list:
    from ldpcode import reductions as rd

    return _mab_cost(("UCB", "Tsallis-INF"), rd.bernoulli_losses(p["loss_means"]), p["horizon"], p["runs"], 1)


def _mab_reduction_cost(p) -> list:
    import numpy as np

    from ldpcode import reductions as rd
    from ldpcode.instances import make_instance

    inst = make_instance("bernoulli", means=p["reward_means"])
    env = rd.bernoulli_losses(1.0 - np.array(p["reward_means"], dtype=float))
    return simulations(("UCB1", "LDP-UCB-L", "LDP-UCB-B"), inst, p["horizon"], p["runs"]) + _mab_cost(
        ("UCB", "Tsallis-INF"), env, p["horizon"], p["runs"], 61
    )


def _reduction_agents(p) -> None:
    """mab_reduction's private reductions, built as its body builds them: UCB and Tsallis-INF through the Laplace and
    the Gaussian (Algorithm 1) mechanisms at each eps of epsilons, with loss_bound B (sensitivity 2B)."""
    from ldpcode import reductions as rd

    for e in p["epsilons"]:
        for learner in ("UCB", "Tsallis-INF"):
            rd.make_agent(learner, "laplace", epsilon=e, loss_bound=p["loss_bound"])
            rd.make_agent(learner, "gaussian", epsilon=e, delta=p["delta"], loss_bound=p["loss_bound"])


def _adversary_cost(p) -> list:
    from ldpcode import reductions as rd

    env = rd.ucb_adversary(p["adv_arms"], p["adv_horizon"])
    return _mab_cost(("UCB", "Tsallis-INF"), env, p["adv_horizon"], p["runs"], 61)


def _contextual_notebook(learner: str, **rules) -> Notebook:
    """The rules of the twin pages of the contextual learners (theorems7_8_linear: LinUCB; algorithm3_theorems9_10_glm:
    GLOC): the instance, the eps and horizon grids of the fits, and ``rules`` for a page's own parameters."""
    return Notebook(
        dict(
            dim=Int(1, 10**4),
            n_arms=Int(2, 10**5),
            theta_seed=SEED,
            epsilons=EPS_FIT,
            alpha=ALPHA_RADIUS,
            horizons=Seq(HORIZON, min_len=3, increasing=True, why=T_FIT),
            **rules,
        ),
        (within_limits(_horizon_sweep_cost, ("horizons", "runs"), "each horizon sweep"), _mechanisms_accept(learner)),
        tiny=dict(n_arms=2, epsilons=[1.0, 2.0, 4.0], horizons=[100, 200, 400], runs=2),
    )


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
            regret_epsilons=Seq(
                EPS, min_len=3, why="the exponent in 1/eps is a fit over at least 3 of them", distinct=True
            ),
        ),
        (
            at_least_arms("horizon", "loss_means"),
            custom(
                lambda p: max(p["loss_means"]) > min(p["loss_means"]),
                "loss_means must not all be equal (every regret would be 0, and the check divides regrets by "
                "regrets), got {loss_means}",
            ),
            custom(
                lambda p: {1.0, 8.0, 16.0} <= set(p["eps_grid"]),
                "eps_grid must hold 1.0, 8.0 and 16.0 (the check reads the exact delta(eps) of line 2's sigma at "
                "these), got {eps_grid}",
            ),
            within_limits(_algorithm1_cost, ("horizon", "runs"), "each simulation"),
            custom(
                _exact_delta_in_range,
                "delta must leave the exact delta(eps) of Algorithm 1's sigma above 0 at every eps of eps_grid (the "
                "calibration table divides delta by it) and, as the check asserts, at most delta at eps = 1 and 8 "
                "(Theorem 2) and at least delta at 16 (where the calibration breaks; at eps = 8 it breaks from delta "
                "= 1e-4 on), got delta = {delta}, eps_grid = {eps_grid}",
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
            d=Int(
                3,
                10**4,
                "the environments of ldp.bco.make_environment turn their loss direction in coordinates 2 and 3",
            ),
            t_min=COUNT,
            t_min_log=horizon_rule(2, "the regret is fitted on log t, which must be > 0"),
            releases=Int(2, 10**9, "a standard error needs at least 2 releases"),
            sweep_epsilons=Seq(EPS, 3, why=RATIO_FIT, distinct=True),
            sweep_horizon=HORIZON,
            sweep_runs=Int(2, 10**6, SE_RUNS),
        ),
        (
            less("t_min", "horizon"),
            less("t_min_log", "horizon"),
            fit_window("t_min", "horizon", 41),
            fit_window("t_min_log", "horizon", 41),
            _bco("two-point", (("horizon", "runs", None), ("sweep_horizon", "sweep_runs", None))),
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
    "chapters/zheng2020/algorithm3_theorems9_10_glm.ipynb": _contextual_notebook("gloc"),
    "chapters/zheng2020/corollary4_one_point_bco.ipynb": Notebook(
        dict(
            d=Int(
                3,
                10**4,
                "the environments of ldp.bco.make_environment turn their loss direction in coordinates 2 and 3",
            ),
            t_min=COUNT,
            sweep_epsilons=Seq(EPS, 3, why=RATIO_FIT, distinct=True),
            sweep_horizon=HORIZON,
            sweep_runs=Int(2, 10**6, SE_RUNS),
            smooth_horizon=HORIZON,
            smooth_runs=Int(2, 10**6, SE_RUNS),
            t_min_late=COUNT,
            epsilon=Real(
                1e-4,
                why="measured: below, the barrier learners' schedules (ldp.bco.barrier_tuning) underflow and a run "
                "divides by zero (at 1e-5)",
            ),
            st_beta=Real(
                1e-3,
                1e12,
                why="measured: below, Saha and Tewari's schedule underflows and a run divides by zero (at 1e-6); "
                "above, ldp.bco's own cap (a beta of 1e300 gave a regret of nan)",
            ),
        ),
        (
            less("t_min", "horizon"),
            less("t_min_late", "smooth_horizon"),
            fit_window("t_min", "horizon", 41),
            fit_window("t_min_late", "horizon", 41),
            fit_window("t_min", "smooth_horizon", 41),
            fit_window("t_min_late", "smooth_horizon", 41),
            _bco(
                "one-point",
                (
                    ("horizon", "runs", None),
                    ("sweep_horizon", "sweep_runs", None),
                    ("smooth_horizon", "smooth_runs", "barrier"),
                ),
            ),
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
            custom(
                lambda p: _reduction_agents(p) is None,
                "loss_bound must be a loss bound B whose mechanisms the reductions (ldp.reductions.make_agent) can "
                "build at every eps of epsilons: the Laplace scale 2B / eps and Algorithm 1's Gaussian sigma, whose "
                "noise variances must be doubles, got loss_bound = {loss_bound}, epsilons = {epsilons}, "
                "delta = {delta}",
            ),
            within_limits(_mab_reduction_cost, ("horizon", "runs"), "each simulation"),
            within_limits(_adversary_cost, ("adv_horizon", "adv_arms", "runs"), "each simulation"),
        ),
        tiny=dict(horizon=1000, runs=2, fit_from=10, adv_horizon=100, n_boot=2, epsilons=[1.0]),
    ),
    # no parameters: the page reads what the notebooks of its last column stored (issue 24: its former "chapter" and
    # "eps_label" were pseudo-parameters, and the edge run at eps_label = 2 printed "ε = 2" over the ε = 1 numbers)
    "chapters/zheng2020/table1.ipynb": Notebook(),
    "chapters/zheng2020/theorems7_8_linear.ipynb": _contextual_notebook("linucb", noise=Real(0, 100)),
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
        (
            less("changed_user", "horizon", strict=False, why="the changed user is one of the stream's users"),
            within_limits(_transcripts_cost, ("runs", "horizon"), "each audit's transcripts"),
        ),
        tiny=dict(horizon=1, loss_means=[0.5, 0.5], changed_user=1, epsilons=[1.0], runs=20_000, bins=1, grid_points=3),
    ),
    "chapters/zheng2020/appendix_b_best_arm.ipynb": Notebook(
        dict(
            reward_means=MEANS,
            epsilons=Seq(EPS, min_len=2, increasing=True, why="stopping times are compared between neighbours"),
            huge_epsilon=EPS,
            broken_epsilon=Real(
                EPSILON_FLOOR,
                8,
                why="measured at the fewest runs the rules accept: the counter-example (a radius without the noise "
                "variance) shows its failure for eps up to 8; from 10 on the noise is too small to mislead it and "
                "it found the best arm in some seeds",
            ),
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
