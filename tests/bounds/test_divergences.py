import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ldpcode import divergences as D

P = st.floats(min_value=0.0, max_value=1.0)


def test_kl_bernoulli_by_hand():
    assert D.kl_bernoulli(0.5, 0.25) == pytest.approx(0.5 * math.log(2) + 0.5 * math.log(0.5 / 0.75))
    assert D.kl_bernoulli(0.3, 0.3) == 0.0
    assert D.kl_bernoulli(1.0, 0.5) == pytest.approx(math.log(2))  # 0 log 0 = 0
    assert math.isinf(D.kl_bernoulli(0.5, 1.0))


@given(P, P)
def test_kl_bernoulli_is_non_negative_and_matches_discrete(p, q):
    kb = float(D.kl_bernoulli(p, q))
    assert kb >= -1e-15
    if 0 < q < 1:
        assert kb == pytest.approx(float(D.kl_discrete([p, 1 - p], [q, 1 - q])), abs=1e-12)


def test_kl_bernoulli_pinsker():
    p, q = np.linspace(0.01, 0.99, 50), 0.37
    assert (D.kl_bernoulli(p, q) >= 2 * (p - q) ** 2 - 1e-15).all()


def test_discrete_validation_and_tv():
    with pytest.raises(ValueError, match="same shape"):
        D.kl_discrete([0.5, 0.5], [1.0])
    with pytest.raises(ValueError, match="probability vector"):
        D.kl_discrete([0.5, 0.6], [0.5, 0.5])
    with pytest.raises(ValueError, match=r"p\[0\] must be in \[0, 1\]"):
        D.kl_bernoulli(1.5, 0.5)
    assert D.tv_discrete([1, 0], [0.25, 0.75]) == 0.75


def test_kl_bernoulli_stays_accurate_for_tiny_means():
    # D(Ber(1e-12) || Ber(2e-12)) = 1e-12 log(1/2) + (1 - 1e-12) log1p(1e-12 / (1 - 2e-12)) = 3.0685281944e-13;
    # log((1-p)/(1-q)) in doubles was 3e-4 relative off here
    expected = 1e-12 * math.log(0.5) + (1 - 1e-12) * math.log1p(1e-12 / (1 - 2e-12))
    assert float(D.kl_bernoulli(1e-12, 2e-12)) == pytest.approx(expected, rel=1e-12, abs=0)
    assert float(D.kl_bernoulli(2e-12, 1e-12)) == pytest.approx(
        2e-12 * math.log(2.0) + (1 - 2e-12) * math.log1p(-1e-12 / (1 - 1e-12)), rel=1e-12, abs=0
    )


@pytest.mark.parametrize("fn", [D.kl_discrete, D.tv_discrete])
def test_an_entry_above_one_is_no_probability_even_when_the_sum_rounds_to_one(fn):
    """Found by the fuzz suite: [1 + 2^-52, 0] sums to 1 within isclose, yet its first entry is no probability."""
    over = [np.nextafter(1.0, 2.0), 0.0]
    with pytest.raises(ValueError, match=r"entries in \[0, 1\]"):
        fn([0.5, 0.5], over)
    with pytest.raises(ValueError, match=r"entries in \[0, 1\]"):
        D.kl_mixture(0.5, 0.2, [0.5, 0.5], over)


@pytest.mark.parametrize(
    "call",
    [
        lambda z: D.kl_bernoulli(0.5, z),  # was nan: 0.5 log(0.5 / -0.0) is the log of -inf
        lambda z: D.kl_bernoulli([0.5, 0.0], [z, z]),
        lambda z: D.kl_bernoulli(z, 0.5),
        lambda z: D.kl_discrete([0.5, 0.5], [z, 1.0]),
        lambda z: D.kl_discrete([[0.5, 0.5], [z, 1.0]], [[z, 1.0], [0.25, 0.75]]),
        lambda z: D.tv_discrete([0.5, 0.5], [z, 1.0]),
        lambda z: D.kl_mixture(0.5, z, [1.0, 0.0], [z, 1.0]),
    ],
)
def test_minus_zero_is_zero(call):
    """A probability given as -0.0 (the result of 0.0 * -1, say) is the probability 0: the same divergence."""
    np.testing.assert_array_equal(call(-0.0), call(0.0))
    assert not np.isnan(call(-0.0)).any()
