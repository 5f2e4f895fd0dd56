"""Every documented bad input is a clear ValueError (or TypeError) naming parameter, value and what is allowed."""

import math

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import _validate


@pytest.mark.parametrize("eps", [0, -1.0, math.inf, -math.inf, math.nan])
@pytest.mark.parametrize("name", ["LDP-UCB-L", "LDP-UCB-B", "LDP-UCB-LS", "LDP-UCB-BS"])
def test_bad_epsilon_for_policies(name, eps):
    with pytest.raises(ValueError, match=r"epsilon must be a finite number > 0, got"):
        ldp.make_policy(name, epsilon=eps)


@pytest.mark.parametrize("cls", [ldp.CTL, ldp.CTB, ldp.CTLS, ldp.CTBS])
@pytest.mark.parametrize("eps", [0, -0.5, math.inf, math.nan])
def test_bad_epsilon_for_curators(cls, eps):
    with pytest.raises(ValueError, match="epsilon"):
        cls(eps)


def test_epsilon_of_wrong_type():
    with pytest.raises(TypeError, match="epsilon must be a real number"):
        ldp.make_policy("LDP-UCB-B", epsilon="2")
    with pytest.raises(TypeError, match="epsilon"):
        ldp.CTB(True)


def test_private_policy_needs_epsilon_and_ucb1_refuses_one():
    with pytest.raises(ValueError, match="needs epsilon"):
        ldp.make_policy("LDP-UCB-B")
    with pytest.raises(ValueError, match="takes no epsilon"):
        ldp.make_policy("UCB1", epsilon=1.0)


def test_unknown_names_list_the_known_ones():
    with pytest.raises(
        ValueError,
        match="unknown policy 'LDP-UCB'; known: AdaP-KLUCB, AdaP-UCB, DP-SE, DP-UCB, HeLDP-UCB-B, HeLDP-UCB-BS, HeLDP-UCB-L, HeLDP-UCB-LS, KL-UCB, LDP-UCB-B",
    ):
        ldp.make_policy("LDP-UCB", epsilon=1.0)
    with pytest.raises(ValueError, match=r"unknown instance 'ren2020'; known: bernoulli, gaussian, ren2020-bernoulli"):
        ldp.make_instance("ren2020")
    with pytest.raises(ValueError, match="unknown curator"):
        ldp.make_curator("CTX", 1.0)


def test_horizon_below_number_of_arms():
    inst = ldp.make_instance("ren2020-bernoulli")
    with pytest.raises(ValueError, match="horizon must be an integer >= 20, got 19"):
        ldp.simulate(ldp.make_policy("UCB1"), inst, horizon=19, runs=1)


@pytest.mark.parametrize("runs", [0, -3])
def test_runs_below_one(runs):
    inst = ldp.make_instance("bernoulli", means=[0.5, 0.4])
    with pytest.raises(ValueError, match=f"runs must be an integer >= 1, got {runs}"):
        ldp.simulate(ldp.make_policy("UCB1"), inst, horizon=10, runs=runs)


def test_non_integer_horizon_and_seed():
    inst = ldp.make_instance("bernoulli", means=[0.5, 0.4])
    pol = ldp.make_policy("UCB1")
    with pytest.raises(TypeError, match="horizon must be an integer"):
        ldp.simulate(pol, inst, horizon=10.5, runs=1)
    with pytest.raises(ValueError, match="seed must be an integer >= 0"):
        ldp.simulate(pol, inst, horizon=10, runs=1, seed=-1)
    # a whole float such as 1e3 is accepted as a horizon
    assert ldp.simulate(pol, inst, horizon=1e3, runs=1).horizon == 1000


@pytest.mark.parametrize("bad", [-0.01, 1.5, math.nan, math.inf])
@pytest.mark.parametrize("cls", [ldp.CTL, ldp.CTB])
def test_reward_outside_unit_interval(cls, bad, rng):
    with pytest.raises(ValueError, match=r"rewards must lie in \[0, 1\] for this curator"):
        cls(1.0).privatize(np.array([0.2, bad, 0.3]), rng)


def test_sigmoid_curators_accept_any_finite_reward_but_not_nan(rng):
    out = ldp.CTBS(1.0).privatize(np.array([-50.0, 3.0, 1e6]), rng)
    assert set(np.unique(out)) <= {0.0, 1.0}
    with pytest.raises(ValueError, match="finite"):
        ldp.CTLS(1.0).privatize(np.array([math.nan]), rng)


@pytest.mark.parametrize("means", [[0.5, 1.2], [-0.1, 0.4], [0.5, math.nan], []])
def test_means_outside_unit_interval(means):
    with pytest.raises(ValueError, match="means"):
        ldp.make_instance("bernoulli", means=means)


def test_instance_parameters():
    with pytest.raises(ValueError, match="needs means"):
        ldp.make_instance("bernoulli")
    with pytest.raises(ValueError, match="takes no parameters"):
        ldp.make_instance("ren2020-bernoulli", means=[0.5])
    with pytest.raises(ValueError, match="sigma must be > 0"):
        ldp.make_instance("gaussian", means=[0.0, 1.0], sigma=0.0)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            dict(means=[1e308, -1e308]),
            r"^means\[0\] must be at most 1e12 in magnitude \(rescale the rewards\), got 1e\+308$",
        ),
        (dict(means=[0.0, -2e12]), r"^means\[1\] must be at most 1e12"),
        (dict(means=[0.0, 1.0], sigma=1e300), r"^sigma must be at most 1e12"),
    ],
)
def test_a_gaussian_instance_whose_regret_would_overflow_is_refused(kwargs, message):
    """The input review: means ±1e308 gave gaps [0, inf] and a final regret of inf, with no error."""
    with pytest.raises(ValueError, match=message):
        ldp.make_instance("gaussian", **kwargs)
    assert ldp.make_instance("gaussian", means=[1e12, -1e12]).gaps[1] == 2e12  # the largest scale, finite


def test_an_arm_at_a_scale_beyond_float64s_exact_range_is_refused():
    from ldpcode.instances import Arm, Family

    with pytest.raises(ValueError, match=r"^p0 of a uniform on \[lo, hi\] arm must be at most 1e12"):
        Arm(Family.UNIFORM, -1e13, 0.0)
    with pytest.raises(ValueError, match=r"^p1 of a uniform on \{lo, hi\} arm must be at most 1e12"):
        Arm(Family.TWO_POINT, 0.0, 1e20)


def test_bounded_policy_on_unbounded_instance():
    with pytest.raises(ValueError, match="use its Sigmoid version LDP-UCB-LS"):
        ldp.simulate(ldp.make_policy("LDP-UCB-L", 1.0), ldp.make_instance("ren2020-gaussian"), 100, 1)


def test_bad_checkpoints():
    inst = ldp.make_instance("bernoulli", means=[0.5, 0.4])
    with pytest.raises(ValueError, match="checkpoints"):
        ldp.simulate(ldp.make_policy("UCB1"), inst, 100, 1, checkpoints=[10, 5, 100])
    with pytest.raises(ValueError, match="checkpoints"):
        ldp.simulate(ldp.make_policy("UCB1"), inst, 100, 1, checkpoints=[10, 200])


def test_wrong_objects_to_simulate():
    with pytest.raises(TypeError, match="make_policy"):
        ldp.simulate("UCB1", ldp.make_instance("bernoulli", means=[0.5, 0.4]), 10, 1)
    with pytest.raises(TypeError, match="make_instance"):
        ldp.simulate(ldp.make_policy("UCB1"), [0.5, 0.4], 10, 1)


@pytest.mark.parametrize("huge", [2**1100, -(2**1100), 10**400], ids=["2**1100", "-2**1100", "10**400"])
@pytest.mark.parametrize(
    "check,allowed",
    [
        (lambda v: _validate.check_real("x", v), "x must be a finite number"),
        (lambda v: _validate.check_real("x", v, allow_inf=True), r"x must be a number \(inf allowed\)"),
        (lambda v: _validate.check_epsilon(v), "epsilon must be a finite number > 0"),
        (lambda v: _validate.check_probability("delta", v), r"delta must be a probability in \(0, 1\)"),
        (lambda v: ldp.make_policy("LDP-UCB-B", epsilon=v), "epsilon must be a finite number > 0"),
        (lambda v: ldp.CTB(v), "epsilon must be a finite number > 0"),
    ],
)
def test_integers_beyond_the_doubles_are_a_value_error(check, allowed, huge):
    """float(2**1100) raises OverflowError: it escaped every check as a bare OverflowError."""
    with pytest.raises(ValueError, match=rf"^{allowed}, got an integer of \d+ bits, beyond the largest double"):
        check(huge)


def test_check_bool_takes_only_bools():
    assert _validate.check_bool("paired", True) is True and _validate.check_bool("paired", np.bool_(False)) is False
    for bad in ("no", "False", "", 0, 1, 1.0, None, [True]):
        with pytest.raises(TypeError, match=r"^paired must be True or False, got "):
            _validate.check_bool("paired", bad)


@pytest.mark.parametrize(
    "call,name",
    [
        (lambda v: ldp.ratio_of_means_se([1.0, 2.0], [1.0, 2.0], paired=v), "paired"),
        (lambda v: ldp.ratio_exponent([1, 2, 4], np.ones((3, 3)) + np.arange(3), [1.0, 2.0, 3.0], paired=v), "paired"),
        (lambda v: ldp.global_policies.noise_free_pulls("AdaP-UCB", [0.9, 0.5], 10**5, 1.0, staircase=v), "staircase"),
        (
            lambda v: ldp.simulate(
                ldp.make_policy("UCB1"), ldp.make_instance("bernoulli", means=[0.6, 0.4]), 20, 1, progress=v
            ),
            "progress",
        ),
    ],
)
@pytest.mark.parametrize("flag", ["no", "yes", 0, 1])
def test_flags_are_bools(call, name, flag):
    """paired="no", staircase="no" and progress="no" are truthy strings: they did what "yes" does."""
    with pytest.raises(TypeError, match=rf"^{name} must be True or False, got {flag!r}"):
        call(flag)


def test_bools_are_not_rounds():
    """res.at(True) was the regret at round 1, and checkpoints=[True, 100] the rounds [1, 100]."""
    inst = ldp.make_instance("bernoulli", means=[0.6, 0.4])
    res = ldp.simulate(ldp.make_policy("UCB1"), inst, 20, 1, workers=1)
    with pytest.raises(TypeError, match=r"^t must be an integer, got True"):
        res.at(True)
    np.testing.assert_array_equal(res.at(1), res.regret[:, 0])
    assert res.at(1.0).shape == (1,)  # a whole float is a round, as a horizon is
    with pytest.raises(TypeError, match=r"^checkpoints must hold numbers, not bools"):
        ldp.simulate(ldp.make_policy("UCB1"), inst, 20, 1, checkpoints=[True, 20])
