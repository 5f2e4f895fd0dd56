"""Table 1 of Azize and Basu (2022): the number of private means of Algorithm 1 against its bound."""

import pytest

import ldpcode as ldp
from ldpcode.bounds import adap_releases_bound


def test_hand_values():
    assert adap_releases_bound(5, 5) == 5.0  # only the initial pulls
    assert adap_releases_bound(40, 5) == pytest.approx(5 + 5 * 3)  # log2(8) = 3
    assert adap_releases_bound(1024, 1) == pytest.approx(11.0)


@pytest.mark.parametrize("name", ["AdaP-UCB", "AdaP-KLUCB"])
@pytest.mark.parametrize("horizon", [5, 37, 1000, 10**5])
def test_simulated_releases_never_exceed_bound(name, horizon):
    inst = ldp.make_instance("bernoulli", means=[0.75, 0.625, 0.5, 0.375, 0.25])
    res = ldp.simulate(ldp.make_policy(name, epsilon=1.0), inst, horizon, runs=3, seed=1)
    assert (res.releases <= adap_releases_bound(horizon, 5) + 1e-9).all()
    assert (res.releases >= 5).all()


def test_bound_reached_when_all_arms_equal():
    # equal means and a huge epsilon: arms share the horizon about evenly, so the releases approach the bound
    inst = ldp.make_instance("bernoulli", means=[0.5, 0.5])
    res = ldp.simulate(ldp.make_policy("AdaP-UCB", epsilon=1e6), inst, 2 * 2**10, runs=2, seed=0)
    assert res.releases.max() >= adap_releases_bound(2 * 2**10, 2) - 3


@pytest.mark.parametrize("horizon, n_arms", [(4, 5), (10, 0)])
def test_bad_input(horizon, n_arms):
    with pytest.raises(ValueError, match="n_arms|horizon"):
        adap_releases_bound(horizon, n_arms)
