"""Best-arm identification through Algorithm 1 (ldpcode.reductions.best_arm): the compiled kernel against
the plain step-by-step reference, the radius, the prediction, and the errors for bad input."""

import math

import numpy as np
import pytest

from ldpcode.reductions import algorithm1_mechanism
from ldpcode.reductions import best_arm as ba

LOSSES = [0.1, 0.3, 0.5, 0.7, 0.9]


@pytest.mark.parametrize("epsilon", [None, 8.0, 1e4])
def test_kernel_and_reference_stop_at_the_same_time_with_the_same_arm(epsilon):
    mech = None if epsilon is None else algorithm1_mechanism(epsilon, 1e-6)
    res = ba.successive_elimination(LOSSES, 0.05, 4, seed=11, mechanism=mech, workers=1)
    for r, child in enumerate(np.random.SeedSequence(11).spawn(4)):
        arm, samples, counts = ba.successive_elimination_reference(LOSSES, 0.05, child, mechanism=mech)
        assert (arm, samples) == (res.arms[r], res.samples[r])
        np.testing.assert_array_equal(counts, res.counts[r])
        assert counts.sum() == samples


def test_wrong_radius_and_the_sample_cap_agree_with_the_reference_too():
    mech = algorithm1_mechanism(2.0, 1e-6)
    res = ba.successive_elimination(LOSSES, 0.05, 3, seed=5, mechanism=mech, variance_proxy=0.25)
    capped = ba.successive_elimination(LOSSES, 0.05, 3, seed=5, mechanism=mech, max_samples=7)
    for r, child in enumerate(np.random.SeedSequence(5).spawn(3)):
        ref = ba.successive_elimination_reference(LOSSES, 0.05, child, mechanism=mech, variance_proxy=0.25)
        assert ref[:2] == (res.arms[r], res.samples[r])
        ref = ba.successive_elimination_reference(LOSSES, 0.05, child, mechanism=mech, max_samples=7)
        assert ref[:2] == (capped.arms[r], capped.samples[r]) == (-1, 7)
    assert capped.undecided == 3 and capped.correct == 0


def test_result_is_the_same_whatever_the_workers_and_the_best_arm_is_returned():
    mech = algorithm1_mechanism(8.0, 1e-6)
    a = ba.successive_elimination(LOSSES[::-1], 0.05, 6, seed=1, mechanism=mech, workers=1)
    b = ba.successive_elimination(LOSSES[::-1], 0.05, 6, seed=1, mechanism=mech, workers=2)
    np.testing.assert_array_equal(a.samples, b.samples)
    assert a.best_arm == 4 and a.correct == 6 and a.success_se() == 0.0
    assert a.variance_proxy == pytest.approx(0.25 + mech.sigma**2) and a.epsilon == 8.0
    assert a.success_lower_bound(0.05) == pytest.approx(0.05 ** (1 / 6))  # Clopper-Pearson at R/R successes


def test_radius_is_the_sub_gaussian_union_bound_radius():
    t = np.array([1, 10, 1000])
    got = ba.elimination_radius(t, 5, 0.05, 0.25 + 4.0)
    np.testing.assert_allclose(got, np.sqrt(2 * 4.25 * np.log(20 * t**2 / 0.05) / t))
    # the union bound over K arms and t >= 1 rounds: sum_t K * 2 exp(-t a_t^2 / (2 s^2)) = pi^2 delta / 12
    tt = np.arange(1, 10**6, dtype=float)
    a = ba.elimination_radius(tt, 5, 0.05, 3.0)
    assert np.sum(5 * 2 * np.exp(-tt * a**2 / 6.0)) == pytest.approx(math.pi**2 * 0.05 / 12, rel=1e-5)


def test_prediction_solves_its_fixed_point_and_grows_faster_than_the_variance():
    s2 = 7.0
    total = ba.elimination_samples_prediction(LOSSES, 0.05, s2)
    gaps = np.array([0.2, 0.4, 0.6, 0.8])
    # recover the roots from the total: each t_a = 8 s2 ln(20 t_a^2 / 0.05) / gap^2
    roots = []
    for g in gaps:
        t = 1e3
        for _ in range(500):
            t = 8 * s2 * math.log(20 * t * t / 0.05) / g**2
        roots.append(t)
    assert total == pytest.approx(sum(roots) + max(roots), rel=1e-9)
    ratio = ba.elimination_samples_prediction(LOSSES, 0.05, 4 * s2) / total
    assert ratio > 4.0  # the log factor grows with s^2


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="unique best"):
        ba.successive_elimination([0.2, 0.2, 0.5], 0.05, 2)
    with pytest.raises(ValueError, match="loss_means"):
        ba.successive_elimination([0.2, 1.5], 0.05, 2)
    with pytest.raises(ValueError, match="conf_delta"):
        ba.successive_elimination(LOSSES, 1.0, 2)
    with pytest.raises(ValueError, match="variance_proxy"):
        ba.successive_elimination(LOSSES, 0.05, 2, variance_proxy=0.0)
    with pytest.raises(TypeError, match="mechanism"):
        ba.successive_elimination(LOSSES, 0.05, 2, mechanism="gaussian")
    with pytest.raises(ValueError, match="runs"):
        ba.successive_elimination(LOSSES, 0.05, 0)
    with pytest.raises(ValueError, match="t must be"):
        ba.elimination_radius(0, 5, 0.05, 0.25)
    with pytest.raises(ValueError, match="n_arms"):
        ba.elimination_radius(1, 1, 0.05, 0.25)
    with pytest.raises(ValueError, match="cpu_seconds"):
        ba.successive_elimination(LOSSES, 0.05, 10**6, mechanism=algorithm1_mechanism(0.01, 1e-6))
