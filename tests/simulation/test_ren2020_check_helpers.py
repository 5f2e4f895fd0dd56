"""The helpers the ren2020 check cells call: ldpcode.experiments.agent_regret_bound (the bound of each agent of
Ren et al. 2020a, by name) and BoundsAlongRun.violations (Theorems 4 and 6 as inequalities along the run),
against values computed by hand."""

import dataclasses
import math

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import bounds as B
from ldpcode import experiments as X

MEANS = [0.9, 0.8, 0.5]  # gaps 0.1 and 0.4: sum of 1/gap = 12.5, sum of gaps = 0.5
LOG_T = math.log(100)


def test_ucb1_bound_by_hand():
    which, value = X.agent_regret_bound("UCB1", MEANS, 100)
    assert which == "the UCB1 bound of Auer et al. (2002)"
    # 8 log(100) (1/0.1 + 1/0.4) + (1 + pi^2/3)(0.1 + 0.4)
    assert value == pytest.approx(462.6619526656574, rel=1e-12)
    assert value == pytest.approx(8 * LOG_T * 12.5 + (1 + math.pi**2 / 3) * 0.5, rel=1e-12)


def test_theorem4_bound_by_hand():
    which, value = X.agent_regret_bound("LDP-UCB-L", MEANS, 100, 1.0)
    assert which == "Theorem 4"
    # (1 + 4/eps)^2 = 25 at eps = 1: 8 * 25 log(100) * 12.5 + (1 + 2 pi^2/3) * 0.5
    assert value == pytest.approx(11516.715333103924, rel=1e-12)


def test_theorem6_bound_by_hand():
    which, value = X.agent_regret_bound("LDP-UCB-B", MEANS, 100, math.log(3))
    assert which == "Theorem 6"
    # at eps = log 3, (e^eps + 1)/(e^eps - 1) = 4/2 = 2, squared 4: 8 * 4 log(100) * 12.5 + (1 + pi^2/3) * 0.5
    assert value == pytest.approx(1844.2130084620849, rel=1e-12)


def test_corollaries_divide_by_c_s_squared():
    which, value = X.agent_regret_bound("LDP-UCB-LS", MEANS, 100, 1.0, c_s=0.5)
    assert which == "Corollary 10" and value == pytest.approx(4 * 11516.715333103924, rel=1e-12)
    which, value = X.agent_regret_bound("LDP-UCB-BS", MEANS, 100, math.log(3), c_s=0.5)
    assert which == "Corollary 11" and value == pytest.approx(4 * 1844.2130084620849, rel=1e-12)
    # c_s = 1 gives the theorem's bound itself, bit for bit
    assert X.agent_regret_bound("LDP-UCB-BS", MEANS, 10**6, 0.5)[1] == B.ldp_ucb_b_regret_bound(MEANS, 10**6, 0.5)


def test_same_bits_as_the_bounds_module():
    """The notebooks' stored bounds came from the ldpcode.bounds calls: the helper must give the same floats."""
    means = ldp.make_instance("ren2020-bernoulli").means
    c = B.c_s_gaussian()
    assert X.agent_regret_bound("UCB1", means, 10**7)[1] == B.ucb1_regret_bound(means, 10**7)
    assert X.agent_regret_bound("LDP-UCB-L", means, 10**6, 0.2)[1] == B.ldp_ucb_l_regret_bound(means, 10**6, 0.2)
    assert X.agent_regret_bound("LDP-UCB-LS", means, 10**6, 2.0, c_s=c)[1] == B.ldp_ucb_l_regret_bound(
        means, 10**6, 2.0, c_s=c
    )


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        (("KL-UCB", MEANS, 100, 1.0), {}, "policy must be one of"),
        (("UCB1", MEANS, 100, 1.0), {}, "UCB1 is not private"),
        (("LDP-UCB-L", MEANS, 100), {}, "LDP-UCB-L is private"),
        (("LDP-UCB-B", MEANS, 100, 1.0), {"c_s": 0.5}, "c_s is Lemma 7's constant"),
        (("LDP-UCB-LS", MEANS, 100, 1.0), {"c_s": 2.0}, "c_s must be in"),
    ],
)
def test_refuses(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        X.agent_regret_bound(*args, **kwargs)


@pytest.fixture(scope="module")
def run():
    return X.bounds_along_run(
        "LDP-UCB-B",
        ldp.make_instance("ren2020-bernoulli"),
        400,
        3,
        [1.0, 2.0],
        seed=3,
        regret_bound=B.ldp_ucb_b_regret_bound,
        pulls_bound=B.ldp_ucb_b_pulls_bound,
    )


def test_no_violation_when_the_bounds_hold(run):
    assert run.violations() == []


def test_a_lowered_regret_bound_is_a_violation(run):
    # at eps = 2 the regret bound becomes 0 at the last checkpoint: the mean regret there is positive
    low = {eps: b.copy() for eps, b in run.regret_bound.items()}
    low[2.0][-1] = 0.0
    assert run.results[2.0].mean_regret()[-1] > 0
    assert dataclasses.replace(run, regret_bound=low).violations() == [
        "eps = 2: the mean regret exceeds the regret bound"
    ]


def test_a_lowered_pulls_bound_is_a_violation(run):
    # gap 0.4 at eps = 1: a bound of 0 everywhere, while every arm is pulled at least once
    low = {eps: {g: b.copy() for g, b in per.items()} for eps, per in run.pulls_bound.items()}
    low[1.0][0.4] = np.zeros_like(low[1.0][0.4])
    assert dataclasses.replace(run, pulls_bound=low).violations() == [
        "eps = 1: the mean pulls of gap 0.4 exceed the pulls bound"
    ]
