"""Issue 12, item 6: wrong types that were quietly accepted, each now refused with a message naming the parameter:
bools as numbers (means=[True, False] was the instance [1.0, 0.0]), strings as numbers (output_mean('0.5') was
0.5), a mean outside a bounded curator's domain (CTB.output_mean(5.0) was 2.58), percentages for probabilities."""

import math

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import audit, bounds, divergences
from ldpcode import global_policies as gp
from ldpcode import mechanisms as mech

BOOLS = [[True, False], [True, 0.5], [0.9, np.bool_(False)], np.array([True, False]), [[0.5], [True]]]


@pytest.mark.parametrize("means", BOOLS[:4], ids=repr)
def test_bools_are_not_means(means):
    with pytest.raises(TypeError, match=r"means must hold numbers, not bools"):
        ldp.make_instance("bernoulli", means=means)
    with pytest.raises(TypeError, match=r"means must hold numbers, not bools"):
        ldp.make_instance("gaussian", means=means)
    for f in (
        bounds.lower_bound_constant,
        bounds.basu2019_lower_bound_constant,
        bounds.ctb_lai_robbins_constant,
        bounds.gdp_lower_bound_constant,
    ):
        with pytest.raises(TypeError, match=r"means must hold numbers, not bools"):
            f(means, 1.0)
    with pytest.raises(TypeError, match=r"means must hold numbers, not bools"):
        gp.noise_free_pulls("AdaP-UCB", means, 100, 1.0)


def test_bools_elsewhere():
    with pytest.raises(TypeError, match=r"values must hold numbers, not bools"):
        ldp.make_privacy_levels("discrete", values=[True, 1.0])
    with pytest.raises(TypeError, match=r"^p must be a number or an array of numbers, got True"):
        divergences.kl_bernoulli(True, 0.5)
    with pytest.raises(TypeError, match=r"^p must hold numbers, not bools"):
        divergences.kl_bernoulli([True], [0.5])
    with pytest.raises(TypeError, match=r"f must hold numbers, not bools"):
        divergences.kl_discrete([True, False], [0.5, 0.5])
    with pytest.raises(TypeError, match=r"epsilons must hold numbers, not bools"):
        ldp.CTB.respond_to_users(np.array([0.5, 0.5]), [True, True], np.random.default_rng(0))
    # a Bernoulli reward vector may well be bools (rng.random(n) < p): rewards accept them
    out = ldp.CTB(1.0).privatize(np.array([True, False]), np.random.default_rng(0))
    assert out.shape == (2,)


@pytest.mark.parametrize("cls", [ldp.CTL, ldp.CTB, ldp.CTLS, ldp.CTBS])
def test_output_mean_refuses_strings(cls):
    for bad in ("0.5", ["0.5"], None, True):
        with pytest.raises(TypeError, match=r"^mu must be"):
            cls(1.0).output_mean(bad)


@pytest.mark.parametrize("cls", [ldp.CTL, ldp.CTB])
@pytest.mark.parametrize("mu", [5.0, -0.1, 1.0 + 1e-12, math.nan, math.inf])
def test_bounded_curator_output_mean_outside_its_domain(cls, mu):
    """CTB.output_mean(5.0) was 2.58, a mean no response in {0, 1} can have."""
    with pytest.raises(ValueError, match=r"mu must lie in \[0, 1\] for this curator, got ") as info:
        cls(1.0).output_mean(mu)
    assert f"got {mu!r};" in str(info.value)  # the value as the user wrote it, not np.float64(5.0)
    with pytest.raises(ValueError, match=r"mu must lie in \[0, 1\]"):
        mech.ctb_output_mean(mu, 1.0)


def test_output_mean_in_domain_unchanged():
    assert ldp.CTL(1.0).output_mean(0.3) == 0.3
    e = math.exp(2.0)
    assert float(ldp.CTB(2.0).output_mean(0.3)) == 0.5 + (0.6 - 1.0) * math.expm1(2.0) / (2.0 * (e + 1.0))
    assert np.isfinite(ldp.CTBS(1.0).output_mean(5.0))  # unbounded curators take any finite mean
    with pytest.raises(ValueError, match=r"sigma must be a finite number >= 0"):
        ldp.CTLS(1.0).output_mean(0.5, sigma=-1.0)
    with pytest.raises(TypeError, match=r"order must be an integer"):
        mech.gaussian_sigmoid_mean(0.5, 1.0, order="80")


@pytest.mark.parametrize(
    "call,name",
    [
        (lambda v: mech.GaussianMechanism(1.0, v), "delta"),
        (lambda v: ldp.make_policy("DP-SE", 1.0, beta=v), "beta"),
        (lambda v: ldp.make_policy("DP-UCB", 1.0, gamma=v), "gamma"),
        (lambda v: gp.dp_ucb_noise_bound(100, 3, 1.0, v), "gamma"),
        (lambda v: gp.dp_se_epoch_length(3, 1, 1.0, v), "beta"),
        (lambda v: audit.binned_log_ratio([0.1, 0.5], [0.2, 0.6], 2, alpha=v), "alpha"),
        (lambda v: audit.delta_log_ratio([0.1, 0.5], [0.2, 0.6], [0.3], delta=v), "delta"),
        (lambda v: audit.delta_log_ratio([0.1, 0.5], [0.2, 0.6], [0.3], alpha=v), "alpha"),
        (lambda v: audit.gaussian_epsilon_at_delta(1.0, 1.0, v), "delta"),
        (lambda v: audit.curator_audit(ldp.CTB(1.0), 100, 0, alpha=v), "alpha"),
        (lambda v: audit.curator_audit(ldp.CTB(1.0), 100, 0, delta=v), "delta"),
        (lambda v: audit.output_mean_audit(ldp.CTB(1.0), samples=10, alpha=v), "alpha"),
    ],
)
@pytest.mark.parametrize("percent", [5, 95.0, 100])
def test_percentages_are_refused_as_probabilities(call, name, percent):
    """A confidence or failure probability given as 5 or 95 (per cent): the message says a probability in
    (0, 1) is expected and what the value would be as a fraction."""
    with pytest.raises(ValueError, match=rf"^{name} must be a probability in [\[(]0, 1\) \(a percentage\? "):
        call(percent)


def test_strings_are_not_numbers_in_the_bounds_and_audits():
    with pytest.raises(TypeError, match=r"^sigma must be a number"):
        bounds.gdp_lower_bound_constant([0.5, 0.3], 1.0, family="gaussian", sigma="2")
    with pytest.raises(TypeError, match=r"^actions must be a number"):
        bounds.linear_c_epsilon([["1", "0"], ["0", "1"]], [1.0, 0.0], 1.0)
    with pytest.raises(TypeError, match=r"^r must be a number"):
        bounds.fact13_bound("0.5", 2.0)
    with pytest.raises(TypeError, match=r"^p must be a number"):
        divergences.kl_mixture("0.5", 0.2, [0.5, 0.5], [0.2, 0.8])
    with pytest.raises(TypeError, match=r"^table must be a number"):
        audit.privacy_loss_matrix([["0.5", "0.5"]])
    with pytest.raises(TypeError, match=r"^samples_a must be a number"):
        audit.binned_log_ratio(["0.1", "0.5"], [0.2, 0.6], 2)
    with pytest.raises(TypeError, match=r"^thresholds must be a number"):
        audit.delta_log_ratio([0.1, 0.5], [0.2, 0.6], ["0.3"])
    with pytest.raises(TypeError, match=r"^x must be a number"):
        ldp.CTL(1.0).density("0.5", 0.2)
    with pytest.raises(TypeError, match=r"^values must be a number"):
        audit.HeterogeneousCurator("CTL", 1.0).privatize(["0.5"], np.random.default_rng(0))
    with pytest.raises(TypeError, match=r"^values must be a number"):
        mech.discrete_sigmoid_mean(0.0, "1", [1.0])
