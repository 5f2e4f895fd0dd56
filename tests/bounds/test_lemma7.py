"""Lemma 7 (Ren et al. 2020, Section 3.2, Appendix A.5): Sigmoid means under non-Gaussian noise and the
best constant over all variance-one noises."""

import math

import numpy as np
import pytest

from ldpcode import bounds, mechanisms


def s(x):
    return 1 / (1 + math.exp(-x))


def sprime(x):
    return math.exp(-x) / (1 + math.exp(-x)) ** 2


def test_discrete_sigmoid_mean_rademacher_by_hand():
    # E s(mu + Z), Z = +-1: mu = 0 -> (s(-1) + s(1))/2 = 1/2; mu = 1 -> (s(0) + s(2))/2 = 0.6903985...
    out = mechanisms.discrete_sigmoid_mean([0.0, 1.0], [-1.0, 1.0], [0.5, 0.5])
    assert out[0] == pytest.approx(0.5, abs=1e-15)
    assert out[1] == pytest.approx((0.5 + 1 / (1 + math.exp(-2))) / 2, rel=1e-15)
    assert out[1] == pytest.approx(0.69039853, abs=1e-8)
    assert mechanisms.discrete_sigmoid_mean(0.3, [0.0], [1.0]) == pytest.approx(s(0.3))


def test_discrete_sigmoid_mean_agrees_with_gaussian_quadrature():
    # Gauss-Hermite nodes are a discrete law matching N(0,1) moments: both functions must agree
    x, w = np.polynomial.hermite_e.hermegauss(60)
    mu = np.linspace(-2, 3, 11)
    a = mechanisms.discrete_sigmoid_mean(mu, x, w / w.sum())
    assert a == pytest.approx(mechanisms.gaussian_sigmoid_mean(mu), abs=1e-13)


def test_lemma7_worst_noise_is_sandwiched():
    for t in [0.0, 0.5, 1.0]:
        value, atoms, probs = bounds.lemma7_worst_noise(t)
        # the minimizer is a law with mean 0, variance 1 and at most 3 atoms, attaining the value
        assert probs.sum() == pytest.approx(1.0)
        assert atoms @ probs == pytest.approx(0.0, abs=1e-9)
        assert (atoms**2) @ probs == pytest.approx(1.0, abs=1e-9)
        assert len(atoms) <= 3
        assert value == pytest.approx(sum(p * sprime(t + z) for z, p in zip(atoms, probs)), rel=1e-9)
        # no worse than Rademacher noise (a feasible law)
        assert value <= 0.5 * (sprime(t + 1) + sprime(t - 1)) + 1e-12
        # no better than Chebyshev: P{|Z| <= c} >= 1 - 1/c^2 and s'(t + z) >= s'(t + c) there
        cheb = max((1 - 1 / c**2) * sprime(t + c) for c in np.linspace(1.01, 5, 400))
        assert value >= cheb


def test_lemma7_worst_noise_at_zero_is_rademacher():
    # at t = 0 the LP picks Z = +-1: value s'(1) = e^-1/(1+e^-1)^2 = 0.19661193324148185
    value, atoms, probs = bounds.lemma7_worst_noise(0.0)
    assert value == pytest.approx(0.19661193324148185, abs=1e-9)
    assert atoms == pytest.approx([-1.0, 1.0])


def test_lemma7_worst_noise_scales_with_the_variance():
    # less variance -> noise closer to 0 -> larger s'; variance 1e-4 is nearly noiseless: s'(t)
    assert bounds.lemma7_worst_noise(1.0, variance=1e-4, step=0.001)[0] == pytest.approx(sprime(1.0), rel=1e-3)
    assert bounds.lemma7_worst_noise(1.0, variance=0.5)[0] > bounds.lemma7_worst_noise(1.0)[0]


def test_lemma7_constants_by_hand():
    # the objective a(1 - 2 exp(-v_a^2/2)) at the paper's a = 0.107, with v_a = log(1/(2a) - 1 + sqrt(1/(4a^2) - 1/a))
    a = 0.107
    v = math.log(1 / (2 * a) - 1 + math.sqrt(1 / (4 * a * a) - 1 / a))
    assert sprime(v) == pytest.approx(a, rel=1e-12)
    assert bounds.lemma7_subgaussian_objective(a) == pytest.approx(a * (1 - 2 * math.exp(-v * v / 2)), rel=1e-14)
    a_star, val = bounds.lemma7_subgaussian_sup()
    assert val >= bounds.lemma7_subgaussian_objective(a) and abs(a_star - 0.1058) < 5e-4


@pytest.mark.parametrize(
    "args, match",
    [
        (([0.0], [-1.0, 1.0], [0.5]), "same non-zero length"),
        (([0.0], [-1.0, 1.0], [0.7, 0.7]), "sum to 1"),
        (([0.0], [-1.0, 1.0], [1.5, -0.5]), "non-negative"),
        (([0.0], [np.inf, 1.0], [0.5, 0.5]), "finite"),
        (([np.nan], [-1.0, 1.0], [0.5, 0.5]), "mu"),
    ],
)
def test_discrete_sigmoid_mean_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        mechanisms.discrete_sigmoid_mean(*args)


def test_lemma7_worst_noise_rejects_bad_input():
    with pytest.raises(ValueError, match="variance"):
        bounds.lemma7_worst_noise(0.5, variance=0.0)
    with pytest.raises(ValueError, match="step"):
        bounds.lemma7_worst_noise(0.5, step=0.0)
    with pytest.raises(ValueError, match="z_max"):
        bounds.lemma7_worst_noise(0.5, z_max=0.5)
    with pytest.raises(TypeError, match="t must be"):
        bounds.lemma7_worst_noise("1")


def test_lemma7_chebyshev_constant_by_hand():
    c, value = bounds.lemma7_chebyshev_constant()
    assert value == pytest.approx((1 - 1 / c**2) * sprime(1 + c), rel=1e-12)
    # it is the maximum: c = 1.5 and c = 2 do worse: (1 - 1/2.25) s'(2.5) = 0.0390..., (3/4) s'(3) = 0.0339...
    assert value >= (1 - 1 / 2.25) * sprime(2.5) and value >= 0.75 * sprime(3.0)
    assert 0.039 < value < 0.040
    # a valid constant: below the exact worst case over variance-one noises, above the paper's 0.0765/e
    assert bounds.c_s_subgaussian() < value < bounds.lemma7_worst_noise(1.0)[0]


def test_lemma7_objective_at_a_tiny_a():
    """v_a = log(1/a - 2 - O(a)) = -log a to 1e-100 below a = 1e-100, so a (1 - 2 e^{-v_a^2/2}) = a there (e^{-v^2/2} ~
    e^{-2.4e5}); 1/(4a^2) overflowed into a ZeroDivisionError at a = 1e-300."""
    assert bounds.lemma7_subgaussian_objective(1e-300) == 1e-300
    assert bounds.lemma7_subgaussian_objective(1e-90) == pytest.approx(1e-90, rel=1e-15)  # the closed form, unchanged
