"""Issue 23, part 6: values that passed a notebook's rules and failed deep in its body are now refused by its check cell
(``ldp.claims.check_parameters``), before any work, with one line that names the parameter, the value, what is allowed
and why.

The four cases of the issue: ``alpha 2.0`` (Theorems 7 and 8, whose bounds three notebooks draw, need alpha > 3),
``means [0.5, 0.5]`` (those bounds sum over the suboptimal arms), ``samples 1e9`` (the Monte Carlo of four notebooks
is beyond ldpcode's Limits, the ceiling every library call checks) and ``horizon 2^62`` (beyond MAX_HORIZON = 2^53,
the largest horizon of every engine). Then the late failures that ``tests/book/rules_fuzz.py`` found, one example
each. Every value is tried over the notebook's tiny set (the other parameters at the edges their rules accept)."""

import math
import re

import pytest

import ldpcode as ldp
from ldpcode import parameters as P
from ldpcode.limits import MAX_HORIZON

from rules_fuzz import tiny_values

A, R, H, Z = "chapters/azize2022/", "chapters/ren2020/", "chapters/heldp/", "chapters/zheng2020/"
APPENDIX = "chapters/appendix/privacy_audit.ipynb"
ALPHA = (
    r"^parameter alpha must be a number in \(3, 1e\+06\] \(Theorems 7 and 8 of Azize and Basu need alpha > 3.*got 2\.0$"
)
MEANS = r"^parameter means must be a list of means with a suboptimal arm .*got \[0\.5, 0\.5\] \(ldp\.bounds\."
SAMPLES = (
    r"^parameter samples must keep .* within ldpcode's Limits, got samples = 1000000000: .*its (time|memory) is "
    r"estimated at about .*beyond the ceiling of .*LDPCODE_(CPU_SECONDS|MEMORY_BYTES)="
)
HORIZON = r"^parameter horizon must be an integer in \[\d+, 2\*\*53\] \(.*ldpcode\.limits\.MAX_HORIZON.*got 4611686018427387904$"

HORIZON_NOTEBOOKS = sorted(
    k
    for k in P.notebook_rules()
    if "horizon" in P.rules_for(k).names
    and isinstance(P.rules_for(k).rule("horizon"), P.rules.Int)
    and P.rules_for(k).rule("horizon").hi == MAX_HORIZON
)

ISSUE = [
    *[(A + nb, "alpha", 2.0, ALPHA) for nb in ("figure2.ipynb", "figure3.ipynb", "theorems7_8_upper_bounds.ipynb")],
    *[
        (A + nb, "means", [0.5, 0.5], MEANS)
        for nb in ("figure2.ipynb", "figure3.ipynb", "theorems7_8_upper_bounds.ipynb")
    ],
    *[
        (nb, "samples", 10**9, SAMPLES)
        for nb in (
            R + "lemma3_laplace_tail.ipynb",
            H + "lemma6_laplace_tail.ipynb",
            R + "corollaries10_11_sigmoid.ipynb",
            APPENDIX,
        )
    ],
    *[(nb, "horizon", 2**62, HORIZON) for nb in HORIZON_NOTEBOOKS],
]


def _refusal(path, values) -> Exception:
    with pytest.raises((TypeError, ValueError)) as info:
        ldp.claims.check_parameters(path, values)
    return info.value


@pytest.mark.parametrize("path,name,value,message", ISSUE, ids=[f"{p.split('/', 1)[1]}:{n}" for p, n, _, _ in ISSUE])
def test_the_four_late_cases_are_refused_before_any_work(path, name, value, message):
    ldp.claims.check_parameters(path, tiny_values(path))  # the tiny set passes: the refusal is the value's doing
    exc = _refusal(path, {**tiny_values(path), name: value})
    text = str(exc)
    assert type(exc) is ValueError and "\n" not in text, text
    assert re.search(message, text), text


def test_every_horizon_notebook_is_covered():
    assert len(HORIZON_NOTEBOOKS) >= 20, HORIZON_NOTEBOOKS


def test_horizons_stop_at_max_horizon_and_stay_strict():
    assert P.rules.HORIZON.hi == MAX_HORIZON == 2**53
    P.rules.HORIZON("horizon", 2**53)
    with pytest.raises(ValueError, match=r"^parameter horizon must be an integer in \[2, 2\*\*53\] \(2\*\*53 is"):
        P.rules.HORIZON("horizon", 2**53 + 1)
    with pytest.raises(ValueError, match=r"^parameter horizon must be an integer in \[2, 2\*\*53\], got 1$"):
        P.rules.HORIZON("horizon", 1)  # below: no word about MAX_HORIZON
    with pytest.raises(TypeError, match=re.escape("(write 10**6 or 1000000, not 1e6)")):
        P.rules.HORIZON("horizon", 1e6)  # integers stay strict: a whole float is refused with a TypeError


def test_the_alpha_rule_is_the_bound_functions_range():
    """The rule refuses exactly what ldp.bounds.adap_ucb_regret_bound refuses, at 3 and just above it."""
    means, above = [0.75, 0.5], math.nextafter(3.0, math.inf)
    alpha_rule = P.rules_for("chapters/azize2022/figure2.ipynb").rule("alpha")
    ldp.bounds.adap_ucb_regret_bound(means, 1000, 1.0, above)
    alpha_rule("alpha", above)
    with pytest.raises(ValueError, match="alpha must be > 3"):
        ldp.bounds.adap_ucb_regret_bound(means, 1000, 1.0, 3.0)
    with pytest.raises(ValueError, match=r"alpha must be a number in \(3, 1e\+06\]"):
        alpha_rule("alpha", 3.0)


def test_notebooks_that_only_simulate_still_take_any_positive_alpha():
    """figure1_episodes and table1 draw no bound: alpha <= 3 only warns there (the library's _check_alpha)."""
    for path in (A + "figure1_episodes.ipynb", A + "table1.ipynb"):
        ldp.claims.check_parameters(path, {**tiny_values(path), "alpha": 2.0})


def test_means_with_a_suboptimal_arm_pass_even_with_two_best_arms():
    path = A + "figure2.ipynb"
    ldp.claims.check_parameters(path, {**tiny_values(path), "means": [0.5, 0.5, 0.25]})


def test_samples_are_refused_by_the_same_ceiling_as_the_library(monkeypatch):
    """Raising ldpcode's memory and time ceilings (the environment variables Limits() reads, which rerun's --memory
    and --cpu-seconds set) lets samples = 10**9 through: the refusal is the Limits ceiling, not a number of the rule."""
    path = R + "lemma3_laplace_tail.ipynb"
    values = {**tiny_values(path), "samples": 10**9}
    with pytest.raises(ValueError, match=r"beyond the ceiling of 4 GiB|beyond the ceiling of [\d.]+ GiB"):
        ldp.claims.check_parameters(path, values)
    monkeypatch.setenv("LDPCODE_MEMORY_BYTES", "inf")
    monkeypatch.setenv("LDPCODE_CPU_SECONDS", "inf")
    ldp.claims.check_parameters(path, values)


def test_the_limits_advice_names_the_command_line_flags_under_rerun(monkeypatch):
    monkeypatch.setenv("LDPCODE_LIMITS_ADVICE", "cli")
    path = R + "lemma3_laplace_tail.ipynb"
    text = str(_refusal(path, {**tiny_values(path), "samples": 10**9}))
    assert "--memory" in text and "limits=ldpcode.Limits" not in text, text


# --- the late failures rules_fuzz.py found (notebook, values over the tiny set, the start of the refusal) ----------

FOUND = [
    # a simulation beyond ldpcode's Limits (the body's simulate refused it after the cells before it had run)
    (H + "figure2.ipynb", dict(runs=999999), r"^parameters horizon, runs must keep each simulation within ldpcode's"),
    (H + "corollary13_sigmoid.ipynb", dict(horizon=2**37), r"^parameters horizon, runs must keep each simulation"),
    (R + "lemmas2_5_curators.ipynb", dict(sim_horizon=10**12), r"^parameters sim_horizon, sim_runs must keep"),
    (Z + "corollary4_one_point_bco.ipynb", dict(sweep_horizon=10**10), r"^parameters horizon, runs, sweep_horizon"),
    (Z + "algorithm2_two_point_bco.ipynb", dict(sweep_horizon=2**42), r"^parameters horizon, runs, sweep_horizon"),
    # a value given twice: the body keys its results and claim ids by it
    (H + "figure1.ipynb", dict(eps_compare=[0.2, 0.2]), r"^parameter eps_compare must hold the paper's levels"),
    (H + "figure2.ipynb", dict(eps_min_gaussian=[2.0, 1.5, 1.5]), r"^parameter eps_min_gaussian must be a list .*all"),
    (H + "lemma6_laplace_tail.ipynb", dict(usage_times=[1000, 1000]), r"^parameter usage_times must be a list .*all"),
    (H + "unbiasing_map_g.ipynb", dict(epsilons=[0.2, 5.0, 5.0]), r"^parameter epsilons must be a list .*all differ"),
    (R + "figure1.ipynb", dict(eps_compare=[2.0, 2.0]), r"^parameter eps_compare must be a list of exactly 2 items"),
    (R + "corollaries10_11_sigmoid.ipynb", dict(epsilons=[2.0, 2.0]), r"^parameter epsilons must be a list .*all"),
    # the library's own validation, asked before the body asks it
    (A + "lemma1_theorem6_privacy.ipynb", dict(alpha=1.0), r"^parameter alpha must be a number in \[2, 4\]"),
    (APPENDIX, dict(index_alpha=0.5), r"^parameter index_alpha must be large enough .*first_decision_log_ratio"),
    (APPENDIX, dict(zheng_delta=0.7368383079180899), r"^parameter zheng_delta must be below delta\(0\)"),
    (A + "theorem2_minimax.ipynb", dict(n_arms_list=[2, 10, 907]), r"^parameter (n_arms_list|horizon) must"),
    (A + "theorems4_5_linear.ipynb", dict(angles_deg=[150]), r"^parameter angles_deg must be a list of 2 to"),
    (A + "theorems4_5_linear.ipynb", dict(eoo_x=1e-17), r"^parameter theta_basis, angles_deg, eoo_x must make"),
    (A + "theorems4_5_linear.ipynb", dict(eoo_x=1e-10), r"^parameter theta_basis, angles_deg, eoo_x must make"),
    (H + "theorem7_corollary8.ipynb", dict(instance="ren2020-gaussian"), r"^parameter instance must be an instance"),
    (H + "theorem10_corollary11.ipynb", dict(instance="ren2020-gaussian"), r"^parameter instance must be an instance"),
    (Z + "algorithm1_theorems2_3.ipynb", dict(delta=5e-324), r"^parameter delta must leave the exact delta\(eps\)"),
    (R + "theorem1_lower_bound.ipynb", dict(eps_max=0.06), r"^parameter eps_min, eps_max must bracket"),
    (H + "lemma6_laplace_tail.ipynb", dict(min_count=10000), r"^parameter min_count must be at most samples x P"),
    # the arithmetic of the body in double precision, or of the claims module
    (A + "figure2.ipynb", dict(n_sd=1.7976931348623157e308), r"^parameter n_sd must be a number in \(0, 100\]"),
    # a reader's review: these passed the rules and failed in a later cell (n_sd = 0: "must be > 0" in the figure;
    # equal loss means: every regret 0, "every ratio of mean regrets ... must be > 0" after 9 s)
    (A + "figure2.ipynb", dict(n_sd=0.0), r"^parameter n_sd must be a number in \(0, 100\]"),
    (Z + "algorithm1_theorems2_3.ipynb", dict(loss_means=[0.5, 0.5]), r"^parameter loss_means must not all be equal"),
    (R + "lemmas2_5_curators.ipynb", dict(eps_max=100.0), r"^parameter eps_max must be a number in \[1e-09, 12\]"),
    (R + "theorem1_lower_bound.ipynb", dict(eps_max=700676.13), r"^parameter eps_max must be a number in \[1e-09, 300"),
    (R + "supplement_figure2.ipynb", dict(eps_main=2e-09), r"^parameter eps_main must be a finite number >= 1e-06"),
    (Z + "theorems7_8_linear.ipynb", dict(alpha=5e-324), r"^parameter alpha must be a number in \[1e-100, 1\)"),
    (H + "choosing_epsilon_min.ipynb", dict(exponential_mean=1e-300), r"^parameter exponential_mean must be a number"),
    (Z + "algorithm3_theorems9_10_glm.ipynb", dict(delta=5e-324), r"^parameter delta must be a delta the mechanisms"),
    (Z + "algorithm1_theorems2_3.ipynb", dict(delta=0.01), r"^parameter delta must leave the exact delta\(eps\)"),
    (Z + "theorem1_ldp_implies_dp.ipynb", dict(horizon=10000), r"^parameters runs, horizon must keep each audit's"),
    (Z + "corollary4_one_point_bco.ipynb", dict(sweep_epsilons=[1e7] * 3), r"^parameter sweep_epsilons must be a list"),
    (
        Z + "corollary4_one_point_bco.ipynb",
        dict(epsilon=2e-09),
        r"^parameter epsilon must be a finite number >= 0\.0001",
    ),
    (
        Z + "corollary4_one_point_bco.ipynb",
        dict(st_beta=6.5e-157),
        r"^parameter st_beta must be a number in \[0\.001, 1e\+12\]",
    ),
    (A + "figure1_episodes.ipynb", dict(alpha=100.0), r"^parameter alpha must be a number in \(0, 5\] \(measured"),
    # an audit without power, measured (at the fewest outputs or runs the rules accept)
    (R + "corollaries10_11_sigmoid.ipynb", dict(samples=2), r"^parameter samples must be an integer in \[100, "),
    (A + "lemma1_theorem6_privacy.ipynb", dict(broken_stale_epsilon=1e6), r"^parameter broken_stale_epsilon must be"),
    (A + "lemma1_theorem6_privacy.ipynb", dict(confidence_alpha=1e-10), r"^parameter confidence_alpha must be"),
    (A + "theorem1_table2.ipynb", dict(sensitivity=2.0), r"^parameter f_d and f_d_prime must be two vectors"),
    (APPENDIX, dict(laplace_epsilon=19.97), r"^parameter laplace_epsilon must be a number in \[0\.01, 5\]"),
]


@pytest.mark.parametrize("path,values,message", FOUND, ids=[f"{p.split('/', 1)[1]}:{','.join(v)}" for p, v, _ in FOUND])
def test_the_late_failures_the_fuzz_found_are_refused_by_name(path, values, message):
    exc = _refusal(path, {**tiny_values(path), **values})
    assert type(exc) is ValueError and "\n" not in str(exc), str(exc)
    assert re.search(message, str(exc)), str(exc)
