"""The (epsilon, delta) Gaussian mechanism and the epsilon-DP Laplace mechanism of Zheng et al.'s chapter."""

import math

import numpy as np
import pytest

from ldpcode.mechanisms import GaussianMechanism, LaplaceMechanism


def test_gaussian_sigma_hand_value():
    # eps = 1, delta = 1e-5, Delta = 2: sqrt(2 log(125000)) = sqrt(2 * 11.736069) = 4.844805 -> sigma = 9.689610
    g = GaussianMechanism(1.0, 1e-5, 2.0)
    assert g.sigma == pytest.approx(9.689610, abs=1e-6)
    assert GaussianMechanism(0.5, 1e-5, 2.0).sigma == pytest.approx(2 * g.sigma)  # sigma is 1/eps


def test_noise_moments_closed_form():
    rng = np.random.default_rng(1)
    x = np.full(200_000, 0.3)
    g = GaussianMechanism(2.0, 0.01, 1.0)
    y = g.privatize(x, rng)
    assert abs(y.mean() - 0.3) < 4 * g.sigma / math.sqrt(x.size)
    assert y.var() == pytest.approx(g.sigma**2, rel=0.02)
    lap = LaplaceMechanism(0.5, 2.0)  # scale 4, variance 2 * 16 = 32
    z = lap.privatize(np.zeros((400, 500)), rng)
    assert z.shape == (400, 500) and z.var() == pytest.approx(32.0, rel=0.02)


@pytest.mark.parametrize(
    "args,match",
    [
        ((0.0, 0.1), "epsilon"),
        ((-1.0, 0.1), "epsilon"),
        ((math.inf, 0.1), "epsilon"),
        ((1.0, 0.0), "delta"),
        ((1.0, 1.0), "delta"),
        ((1.0, math.nan), "delta"),
        ((1.0, 0.1, 0.0), "sensitivity"),
        ((1.0, 0.1, -2.0), "sensitivity"),
    ],
)
def test_gaussian_validation(args, match):
    with pytest.raises(ValueError, match=match):
        GaussianMechanism(*args)


def test_laplace_validation_and_bad_values():
    with pytest.raises(ValueError, match="sensitivity"):
        LaplaceMechanism(1.0, 0.0)
    with pytest.raises(ValueError, match="epsilon"):
        LaplaceMechanism(0.0)
    with pytest.raises(ValueError, match="finite"):
        GaussianMechanism(1.0, 0.1).privatize([1.0, math.nan], np.random.default_rng(0))
