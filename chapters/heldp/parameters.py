"""The parameter rules of the heterogeneous LDP chapter's notebooks (``chapters/heldp/``, Ren et al. 2020,
HeLDP), with their private messages."""

from __future__ import annotations

import math

from ldpcode.instances import make_instance
from ldpcode.policies import HELDP_L_MAX_EPSILON_MIN
from ldpcode.parameters.library import (
    simulated,
    LAPLACE_DRAW_SECONDS,
    SORT_SECONDS,
    SORTED_SUM_BYTES,
    policies_accept,
    within_limits,
)
from ldpcode.parameters.rules import (
    DISTINCT_IDS,
    EPS,
    EPSILONS,
    HELDP_LAW,
    HORIZON,
    RATIO_LONGER,
    Grid,
    Int,
    Choice,
    Notebook,
    REN_ARMS,
    Real,
    Seq,
    _ren_horizon,
    custom,
    less,
)

OTHER_EPS_MIN = "the heuristic's eps_min is compared with the best other eps_min of the grid"
#: a level HeLDP-UCB-L runs at (its eps_min, or the users' constant level): the library refuses one above
#: HELDP_L_MAX_EPSILON_MIN, but only when the policy is built, after the runs before it; so the rule says it first
EPS_L = Real(EPS.lo, HELDP_L_MAX_EPSILON_MIN, why="HeLDP-UCB-L refuses a level above it: beyond, it pulls one arm")


WORST_OF_PANEL = "the check compares the paper's worst eps_min of the panel with the others"


FIT_PER_LAW = "a linear fit per law of the users' levels needs at least 3 thresholds"


def _some_users_kept(p) -> bool:
    from ldpcode.instances import make_privacy_levels

    return make_privacy_levels(p["level_law"]).p_at_least(p["eps_min"]) > 0


EXACT_TAIL_SCALES = 64  # above, ldpcode.laplace_tails.laplace_mixed_sum_sf takes seconds (5 s at 500 scales)


def _lemma6_tails_estimated(p) -> bool:
    """lemma6_laplace_tail reads the last grid point where samples x P(Y_m > lambda) >= min_count, for each m: there
    must be one, so at least the first. The scale vectors are the body's (the same draws from seed, before any
    other), the tail the library's exact one; for m above EXACT_TAIL_SCALES (too slow to compute here) nothing is
    checked."""
    import math

    import numpy as np

    from ldpcode.instances import make_privacy_levels
    from ldpcode.laplace_tails import kept_scales, laplace_mixed_sum_sf

    rng = np.random.default_rng(p["seed"])
    levels = make_privacy_levels(p["level_law"])
    for m in p["m_values"]:
        b = kept_scales(levels, p["eps_min"], rng, count=m)
        if m > EXACT_TAIL_SCALES:
            continue
        first = 2 * math.sqrt(2) * float(np.sum(b * b)) / float(b.max()) / (p["grid_points"] - 1)
        if float(laplace_mixed_sum_sf(np.array([first]), b)[0]) * p["samples"] < p["min_count"]:
            return False
    return True


def _lemma6_cost(p) -> list:
    """The Monte Carlo of lemma6_laplace_tail: ``samples`` sums of m Laplace draws (ldpcode.laplace_tails.
    laplace_mixed_sums, which has no limits of its own), sorted, for each m of ``m_values``."""
    n, draws = p["samples"], sum(p["m_values"])
    seconds = n * (draws * LAPLACE_DRAW_SECONDS + len(p["m_values"]) * SORT_SECONDS)
    work = f"samples={n} sums, {draws} Laplace draws each in all, {len(p['m_values'])} sorts"
    return [("the notebook's Monte Carlo of Lemma 6", work, seconds, SORTED_SUM_BYTES * n)]


HELDP = ("HeLDP-UCB-L", "HeLDP-UCB-B")


#: The heuristic's eps_min for the Gaussian law of Section 4.2 (argmin of V_L, of V_B), a property of the law
#: alone: ldp.bounds.choose_epsilon_min takes seconds, too long for a rule, and tests/book/test_heldp_rules.py checks
#: these two numbers against it.
GAUSSIAN_HEURISTIC = (0.9977161068335945, 0.9881312246866223)


def _bound_grid_holds_the_heuristic(p) -> bool:
    """choosing_epsilon_min's second way transcribes the heuristic for the Gaussian law as a bounded search of
    Section 4.2's V over [bound_grid[0], bound_grid[1]]: that interval must hold the heuristic's choice
    (:data:`GAUSSIAN_HEURISTIC`) strictly inside, else the two ways find different minima."""
    return p["bound_grid"][0] < min(GAUSSIAN_HEURISTIC) and max(GAUSSIAN_HEURISTIC) < p["bound_grid"][1]


def gaussian_kept(eps_min: float) -> float:
    """P(eps_t >= eps_min) for the users' levels 'ren-heldp-gaussian', Gaussian(1, 1) clipped to [0, 100]: the
    Gaussian tail for 0 < eps_min <= 100 (the clip moves mass only to the two ends)."""
    return 0.5 * math.erfc((eps_min - 1.0) / math.sqrt(2.0))


def _every_threshold_keeps_responses(p) -> bool:
    """choosing_epsilon_min simulates each eps_min of its three grids: each must keep, in expectation, at least 10
    responses per arm over the horizon (T p_0 >= 10 K). With fewer, arms go unobserved, and HeLDP-UCB-B, whose ties
    between unobserved arms go to the lowest index, keeps pulling arm 0, the best arm of ren2020-bernoulli: a
    regret near 0 that measures the tie-break, not the threshold (measured: at T = 1000 and eps_min = 4 on the
    Gaussian law, two runs in four never left arm 0)."""
    from ldpcode.instances import make_privacy_levels

    kept = {  # P(eps_t >= eps_min) of the three laws of ldpcode.experiments.heldp_epsilon_min.section42_laws
        "discrete": make_privacy_levels("ren-heldp-discrete").p_at_least,
        # Gaussian(1, 1) clipped to [0, 100], in closed form: the law's own quadrature loads scipy.stats (0.6 s,
        # too long for a rule); tests/book/test_heldp_rules.py checks the two agree
        "gaussian": gaussian_kept,
        "exponential": lambda em: math.exp(-em / p["exponential_mean"]),  # exact (the law's own is Monte Carlo)
    }
    return all(p["horizon"] * kept[name](em) >= 10 * REN_ARMS for name in kept for em in p[f"grid_{name}"])


NOTEBOOKS: dict[str, Notebook] = {
    # ---------------------------------------------------------------- heterogeneous LDP (Ren et al. 2020, HeLDP)
    "chapters/heldp/choosing_epsilon_min.ipynb": Notebook(
        dict(
            grid_discrete=Seq(EPS, min_len=2, increasing=True, why=OTHER_EPS_MIN),
            grid_gaussian=Seq(EPS, min_len=2, increasing=True, why=OTHER_EPS_MIN),
            grid_exponential=Seq(EPS, min_len=2, increasing=True, why=OTHER_EPS_MIN),
            exponential_mean=Real(
                1e-3,
                1e3,
                why="measured: the heuristic's eps_min follows the mean, and at 1e-300 every candidate's V is infinite "
                "and its eps_min falls below ldpcode's EPSILON_FLOOR",
            ),
            bound_grid=Grid(),
        ),
        (
            _ren_horizon,
            custom(
                _bound_grid_holds_the_heuristic,
                "bound_grid must hold the heuristic's eps_min for the Gaussian law (V_L's and V_B's) strictly inside "
                "[bound_grid[0], bound_grid[1]]: the transcribed second way searches the minimum of V there, got "
                "bound_grid = {bound_grid}",
            ),
            custom(
                _every_threshold_keeps_responses,
                "grid_discrete, grid_gaussian and grid_exponential must hold only eps_min that keep at least 10 "
                "responses per arm in expectation (horizon x P(eps_t >= eps_min) >= 200): with fewer, arms go unobserved and "
                "HeLDP-UCB-B keeps pulling arm 0, the best arm, by tie-breaking, a regret near 0 that measures "
                "nothing, got horizon = {horizon}, grid_discrete = {grid_discrete}, grid_gaussian = {grid_gaussian}, "
                "grid_exponential = {grid_exponential}",
            ),
            simulated(HELDP, "ren2020-bernoulli"),
        ),
        tiny=dict(
            horizon=2000,
            runs=2,
            grid_discrete=[1.0, 2.0],
            grid_gaussian=[1.0, 2.0],
            grid_exponential=[1.0, 2.0],
            bound_grid=[0.5, 2.0, 2],
        ),
    ),
    "chapters/heldp/corollary13_sigmoid.ipynb": Notebook(
        dict(reduction_epsilon=EPS),
        (_ren_horizon, simulated(("HeLDP-UCB-LS", "HeLDP-UCB-BS", "LDP-UCB-BS"), "ren2020-gaussian")),
        tiny=dict(horizon=20, runs=2, settings=[["ren-heldp-discrete", 1.0]]),
    ),
    "chapters/heldp/figure1.ipynb": Notebook(
        dict(
            epsilons=Seq(EPS_L, min_len=1, distinct=True, why="each level is one curve of panels (a), (b)"),
            eps_compare=Seq(EPS_L, 2, 2),
            eps_min_discrete=Seq(EPS_L, min_len=2, why=WORST_OF_PANEL, distinct=True),
            eps_min_gaussian=Seq(EPS_L, min_len=2, why=WORST_OF_PANEL, distinct=True),
        ),
        (
            _ren_horizon,
            less("horizon", "ratio_horizon", why=RATIO_LONGER),
            custom(
                lambda p: sorted(p["eps_compare"]) == [0.2, 2.0],
                "eps_compare must hold the paper's levels 0.2 and 2.0, each once (panels (c), (d) and the ratio panel are drawn "
                "and checked against the paper's ratios at these levels), got {eps_compare}",
            ),
            custom(
                lambda p: 0.2 in p["eps_min_discrete"] and 2.0 in p["eps_min_gaussian"],
                "eps_min_discrete must hold 0.2 and eps_min_gaussian 2.0 (the check compares the paper's worst "
                "threshold of each panel with the others), got {eps_min_discrete}, {eps_min_gaussian}",
            ),
            simulated(HELDP, "ren2020-bernoulli", (("horizon", "runs"), ("ratio_horizon", "runs"))),
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
            eps_min_discrete=Seq(EPS, min_len=3, why=FIT_PER_LAW, distinct=True),
            eps_min_gaussian=Seq(EPS, min_len=3, why=FIT_PER_LAW, distinct=True),
        ),
        (_ren_horizon, simulated(HELDP, "ren2020-bernoulli")),
        tiny=dict(horizon=1000, runs=2, eps_min_discrete=[0.2, 1.0, 2.0], eps_min_gaussian=[0.5, 1.0, 2.0]),
    ),
    "chapters/heldp/theorem10_corollary11.ipynb": Notebook(
        dict(constant_epsilons=EPSILONS),
        (
            _ren_horizon,
            policies_accept(("HeLDP-UCB-B", "LDP-UCB-B"), lambda p: make_instance(p["instance"])),
            simulated(("HeLDP-UCB-B", "LDP-UCB-B")),
        ),
        tiny=dict(horizon=20, runs=2, settings=[["ren-heldp-discrete", 1.0]], constant_epsilons=[1.0]),
    ),
    "chapters/heldp/theorem7_corollary8.ipynb": Notebook(
        dict(constant_epsilons=Seq(EPS_L)),
        (
            _ren_horizon,
            policies_accept(("HeLDP-UCB-L", "LDP-UCB-L"), lambda p: make_instance(p["instance"])),
            simulated(("HeLDP-UCB-L", "LDP-UCB-L")),
        ),
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
            usage_times=Seq(HORIZON, distinct=True, why=DISTINCT_IDS),
            sweep_points=Int(2, 10**3),
        ),
        (
            custom(
                lambda p: p["level_law"] != "ren-heldp-discrete",
                "level_law must have continuous levels (ren-heldp-gaussian): the exact tail's partial fractions "
                "need distinct scales, and the discrete law repeats them (a pole of higher order; the Fourier "
                "inversion that takes them is not accurate at the t^-4 tails checked here), got {level_law}",
            ),
            custom(
                _some_users_kept,
                "eps_min must be a level some users of level_law reach (else no response is kept), got "
                "eps_min = {eps_min} for {level_law}",
            ),
            within_limits(_lemma6_cost, "samples", "the Monte Carlo of the Laplace sums"),
            custom(
                _lemma6_tails_estimated,
                "min_count must be at most samples x P(Y_m > lambda) at the first lambda of the grid for every m "
                "(the check reads the last lambda where the Monte Carlo tail counts as well estimated), got "
                "min_count = {min_count}, samples = {samples}, m_values = {m_values}, grid_points = {grid_points}",
            ),
        ),
        tiny=dict(m_values=[2], samples=20_000, grid_points=5, min_count=10, usage_times=[2], sweep_points=2),
    ),
    "chapters/heldp/unbiasing_map_g.ipynb": Notebook(
        dict(
            instance=Choice(("ren2020-bernoulli", "ren2020-mixed")),
            arms=Seq(Int(0, REN_ARMS - 1), min_len=1),
            epsilons=Seq(EPS, min_len=1, distinct=True, why=DISTINCT_IDS),
            samples=Int(
                20_000,
                5 * 10**7,
                "measured: with fewer, the sample variance of a nearly symmetric two-point law of g is skewed and "
                "the checks of the proposition within 4 standard errors fail by chance (1 seed in 20 at 5,000, "
                "none in 30 at 20,000 and at 10^5)",
                hi_why="the heterogeneous settings draw 4 levels a kept one (ldp.unbiasing.kept_levels, about 48 bytes): "
                "10^8 would take 4.5 GiB, beyond ldp.Limits()' 4 GiB",
            ),
        ),
        (),
        tiny=dict(arms=[16], epsilons=[1.0], settings=[["ren-heldp-discrete", 0.2]], samples=20_000),
    ),
}
