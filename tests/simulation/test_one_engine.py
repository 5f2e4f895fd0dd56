"""One engine for every learner (issue 13): the convex learners of Zheng et al. Section 3 and their contextual
learners are engine policies (:class:`ldpcode.engine.BanditPolicy`) that :func:`ldpcode.simulate` runs; their
drivers (``bco.simulate_one_point``, ``bco.simulate_two_point``, ``contextual.simulate_contextual``) are that
call with their own arguments. The engine dispatches on no class: it refuses a learner's wrong environment by
the learner's own ``environment_type``."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import bco, engine
from ldpcode import contextual as ctx
from ldpcode import reductions as rd

LIN = ctx.make_contextual_instance(4, 6, link="linear", seed=3)
LOGI = ctx.make_contextual_instance(4, 6, link="logistic", seed=3)


@pytest.mark.parametrize(
    ("driver", "algorithm", "kw"),
    [
        (bco.simulate_one_point, "one-point", dict(epsilon=1.0)),
        (bco.simulate_one_point, "one-point", dict(epsilon=None, strongly_convex=False, rho_max=0.3)),
        (bco.simulate_one_point, "one-point", dict(epsilon=2.0, delta=1e-3, learner="barrier")),
        (bco.simulate_one_point, "one-point", dict(epsilon=1.0, learner="barrier", strongly_convex=False, beta=2.0)),
        (bco.simulate_two_point, "two-point", dict(epsilon=0.5)),
    ],
)
@pytest.mark.parametrize("environment", ["quadratic", "linear", "stochastic"])
def test_bco_learner_through_simulate_is_the_driver(driver, algorithm, kw, environment):
    env = bco.make_environment(environment, 5)
    learner = bco.make_learner(algorithm, **kw)
    assert isinstance(learner, engine.BanditPolicy)
    got = ldp.simulate(learner, env, 2000, 3, 11)
    want = driver(environment, horizon=2000, runs=3, seed=11, **kw)
    assert type(got) is bco.BCOResult and got.algorithm == want.algorithm
    np.testing.assert_array_equal(got.regret, want.regret)
    np.testing.assert_array_equal(got.checkpoints, want.checkpoints)
    assert (
        np.array_equal(got.checkpoints, ldp.log_checkpoints(2000, 41))
        and got.tuning == want.tuning
        and got.sigma == want.sigma
    )
    if want.max_norm is not None:
        np.testing.assert_array_equal(got.max_norm, want.max_norm)
    # the learner's label is its ε (inf when not private), the result's too
    assert learner.label == got.epsilon == (math.inf if kw["epsilon"] is None else kw["epsilon"])


@pytest.mark.parametrize(
    ("policy", "inst", "kw"),
    [
        ("linucb", LIN, {}),
        ("ldp-linucb", LIN, dict(epsilon=1.0, delta=0.1)),
        ("gloc", LOGI, {}),
        ("ldp-gloc", LOGI, dict(epsilon=2.0, delta=0.05, alpha=0.1, lam=2.0)),
    ],
)
def test_contextual_learner_through_simulate_is_the_driver(policy, inst, kw):
    learner = ctx.make_learner(policy, record_choices=True, **kw)
    assert isinstance(learner, engine.BanditPolicy)
    got = ldp.simulate(learner, inst, 700, 3, 5)
    want = ctx.simulate_contextual(policy, inst, 700, 3, 5, record_choices=True, **kw)
    np.testing.assert_array_equal(got.regret, want.regret)
    np.testing.assert_array_equal(got.choices, want.choices)
    assert got.sigmas == want.sigmas and got.epsilon == want.epsilon
    np.testing.assert_array_equal(got.checkpoints, ldp.log_checkpoints(700, 30))
    # the plain vectorised engine makes the same choices (the fast path against the step-by-step one)
    ref = ctx.simulate_contextual(policy, inst, 700, 3, 5, record_choices=True, engine="numpy", **kw)
    np.testing.assert_array_equal(ref.choices, got.choices)
    np.testing.assert_allclose(ref.regret, got.regret, rtol=1e-9, atol=1e-9)


def test_runs_do_not_depend_on_how_many_there_are():
    """Run r plays from SeedSequence(seed).spawn(runs)[r]: the first runs of a longer call are the shorter call."""
    env = bco.make_environment("quadratic", 5)
    learner = bco.make_learner("one-point", epsilon=1.0)
    np.testing.assert_array_equal(
        ldp.simulate(learner, env, 1500, 2, 4).regret, ldp.simulate(learner, env, 1500, 5, 4).regret[:2]
    )
    c = ctx.make_learner("ldp-linucb", epsilon=1.0, delta=0.1)
    np.testing.assert_array_equal(ldp.simulate(c, LIN, 300, 1, 4).regret, ldp.simulate(c, LIN, 300, 3, 4).regret[:1])


def test_the_engine_refuses_an_environment_of_another_kind():
    bern = ldp.make_instance("ren2020-bernoulli")
    env = bco.make_environment("quadratic", 5)
    with pytest.raises(TypeError, match=r"instance must come from make_instance\(\), got Environment"):
        ldp.simulate(ldp.make_policy("UCB1"), env, 100, 1)
    with pytest.raises(TypeError, match=r"instance must come from ldpcode\.bco\.make_environment\(\), got Instance"):
        ldp.simulate(bco.make_learner("two-point"), bern, 100, 1)
    with pytest.raises(TypeError, match=r"make_contextual_instance\(\), got Environment"):
        ldp.simulate(ctx.make_learner("linucb"), env, 100, 1)
    with pytest.raises(TypeError, match=r"policy must come from make_policy\(\).*BanditPolicy, got 'UCB1'"):
        ldp.simulate("UCB1", bern, 100, 1)


def test_swapped_policy_and_instance_get_one_short_line_that_names_the_order():
    """simulate(instance, policy) printed the whole repr of the instance (20 arms of ren2020-mixed, 2,000 characters)
    and did not say that the two arguments were swapped."""
    mixed, ucb = ldp.make_instance("ren2020-mixed"), ldp.make_policy("UCB1")
    with pytest.raises(TypeError) as err:
        ldp.simulate(mixed, ucb, 100, 1)
    text = str(err.value)
    assert text.endswith("got Instance; the order is simulate(policy, instance, horizon, ...)"), text
    assert len(text) < 250 and "\n" not in text
    with pytest.raises(TypeError, match=r"instance must come from make_instance\(\), got Policy\('UCB1'\)$"):
        ldp.simulate(ucb, ucb, 100, 1)


def test_learners_refuse_what_they_cannot_run_on():
    levels = ldp.make_privacy_levels("discrete", values=[0.5, 1.5], probs=[0.5, 0.5])
    with pytest.raises(ValueError, match="privacy_levels is only for the heterogeneous"):
        ldp.simulate(bco.make_learner("one-point"), bco.make_environment("quadratic"), 100, 1, privacy_levels=levels)
    with pytest.raises(ValueError, match="privacy_levels is only for the heterogeneous"):
        ldp.simulate(ctx.make_learner("linucb"), LIN, 100, 1, privacy_levels=levels)
    with pytest.raises(ValueError, match="strongly_convex=True needs a strongly convex environment, got 'linear'"):
        ldp.simulate(bco.make_learner("one-point", strongly_convex=True), bco.make_environment("linear"), 100, 1)
    with pytest.raises(ValueError, match="policy 'gloc' needs link logistic, got 'linear'"):
        ldp.simulate(ctx.make_learner("gloc"), LIN, 100, 1)
    with pytest.raises(ValueError, match=r"beta must be a number in \(0, 1e12\] \(\[0, 1e12\] for the strongly convex"):
        ldp.simulate(bco.make_learner("one-point", learner="barrier", beta=0.0), bco.make_environment("linear"), 100, 1)
    # the second input review: beta = 1e300 gave a regret of nan, rho_max = 1e-200 one of 1e-4 (x projected to 0)
    with pytest.raises(ValueError, match=r"^beta must be a number in \(0, 1e12\]"):
        bco.make_learner("one-point", learner="barrier", beta=1e300)
    with pytest.raises(ValueError, match=r"^rho_max must be in \[1e-6, 1\) \(the gradient estimate grows as 1/ρ\)"):
        bco.make_learner("one-point", rho_max=1e-200)
    assert bco.make_learner("one-point", rho_max=1e-6).rho_max == 1e-6
    with pytest.raises(ValueError, match="horizon must be"):
        ldp.simulate(bco.make_learner("one-point"), bco.make_environment("quadratic"), 1, 1)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: bco.make_learner("three-point"), ValueError, "algorithm must be one of"),
        (lambda: bco.make_learner("two-point", learner="barrier"), ValueError, "options of algorithm='one-point'"),
        (lambda: bco.make_learner("two-point", rho_max=0.2), ValueError, "options of algorithm='one-point'"),
        (lambda: bco.make_learner("one-point", beta=1.0), ValueError, "beta is only used by learner='barrier'"),
        (
            lambda: bco.make_learner("one-point", learner="barrier", beta=-1),
            ValueError,
            r"beta must be a number in \(0, 1e12\]",
        ),
        (lambda: bco.make_learner("one-point", learner=3), TypeError, "learner must be a string"),
        (lambda: bco.make_learner("one-point", rho_max=1.0), ValueError, r"rho_max must be in \[1e-6, 1\)"),
        (lambda: bco.make_learner("one-point", epsilon=None, delta=1e-5), ValueError, "delta is a privacy argument"),
        (lambda: bco.make_learner("one-point", epsilon=-1.0), ValueError, "epsilon"),
        (lambda: ctx.make_learner("ucb"), ValueError, "policy must be one of"),
        (lambda: ctx.make_learner("linucb", epsilon=1.0), ValueError, "is not private and takes no epsilon"),
        (lambda: ctx.make_learner("ldp-linucb", epsilon=1.0), ValueError, "needs epsilon and delta"),
        (lambda: ctx.make_learner("ldp-gloc", epsilon=-1.0, delta=0.1), ValueError, "epsilon"),
        (lambda: ctx.make_learner("ldp-linucb", epsilon=1.0, delta=1.5), ValueError, "delta"),
        (lambda: ctx.make_learner("linucb", alpha=1.0), ValueError, r"alpha must be in \(0, 1\)"),
        (
            lambda: ctx.make_learner("linucb", lam=0.0),
            ValueError,
            r"lam must be >= 1e-8 \(the ridge keeps the design matrix invertible\)",
        ),
        # the second input review: 1e-300 passed, and the run failed mid-way on a singular matrix naming nothing
        (lambda: ctx.make_learner("linucb", lam=1e-300), ValueError, r"^lam must be >= 1e-8"),
        # the second input review: the refusal showed the share eps/3, 6.67e-10, not the eps given
        (
            lambda: ctx.make_learner("ldp-gloc", epsilon=2e-9, delta=1e-3),
            ValueError,
            r"^epsilon must be >= 3e-09 for LDP GLOC, whose 3 releases each spend epsilon/3 .*, got 2e-09$",
        ),
        (lambda: ctx.make_learner("linucb", sigma_scale=2.0), ValueError, "sigma_scale scales privacy noise"),
    ],
)
def test_learner_arguments_are_checked_when_it_is_built(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_a_numpy_contextual_learner_is_not_a_per_run_policy():
    import dataclasses

    learner = dataclasses.replace(ctx.make_learner("linucb"), engine="numpy")
    with pytest.raises(ValueError, match="the numpy engine runs every run at once"):
        ldp.simulate(learner, LIN, 100, 1)


def test_the_engine_names_no_learner_class():
    """No isinstance dispatch: the engine's isinstance calls test only the protocol and the learner's own
    environment type."""
    tree = ast.parse(Path(engine.__file__).read_text())
    checked = [
        ast.unparse(n.args[1])
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "isinstance"
    ]
    assert "BanditPolicy" in checked and "policy.environment_type" in checked
    # the rest check argument types (checkpoints, chunk sizes), not learners
    assert set(checked) - {"BanditPolicy", "policy.environment_type"} <= {
        "(str, bytes)",
        "int",
        "bool",
        "(int, np.integer)",
    }, checked


@pytest.mark.parametrize("engine_name", ["auto", "python"])
def test_mab_agent_through_simulate_is_the_driver(engine_name):
    env = rd.bernoulli_losses([0.5, 0.4, 0.6])
    agent = rd.make_agent("UCB", "gaussian", epsilon=1.0, delta=1e-3)
    want = rd.simulate_mab(agent, env, 2000, 3, 9, engine=engine_name)
    policy = rd.AgentPolicy(agent, fast=engine_name == "auto")
    got = ldp.simulate(policy, env, 2000, 3, 9)
    np.testing.assert_array_equal(got.regret, want.regret)
    np.testing.assert_array_equal(got.counts, want.counts)
    assert (got.name, got.epsilon, policy.threads) == (want.name, 1.0, None if engine_name == "auto" else 1)
