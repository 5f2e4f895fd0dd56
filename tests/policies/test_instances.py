import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import instances as I


def test_ren2020_instances():
    b = ldp.make_instance("ren2020-bernoulli")
    assert b.n_arms == 20 and b.best == 0 and b.bounded
    np.testing.assert_allclose(sorted(b.means, reverse=True), [0.9] + [0.8] * 5 + [0.7] * 5 + [0.6] * 5 + [0.5] * 4)
    m = ldp.make_instance("ren2020-mixed")
    np.testing.assert_allclose(m.means, b.means)
    assert [a.describe() for a in m.arms[:2]] == ["Bernoulli(0.9)", "Beta(4, 1)"]
    g = ldp.make_instance("ren2020-gaussian")
    assert not g.bounded and g.stream == "normal"
    np.testing.assert_allclose(g.means, b.means)
    assert set(ldp.list_instances()) >= {"ren2020-bernoulli", "ren2020-mixed", "ren2020-gaussian", "bernoulli"}


@pytest.mark.parametrize("arm", range(20))
def test_mixed_instance_sample_means_and_support(arm):
    inst = ldp.make_instance("ren2020-mixed")
    x = inst.sample(arm, 200_000, np.random.default_rng(arm))
    assert abs(x.mean() - inst.means[arm]) < 4.5 * x.std() / np.sqrt(x.size) + 1e-12
    assert x.min() >= 0 and x.max() <= 1


def test_reward_from_draw_by_hand():
    assert I.reward_from_draw(I.Family.BERNOULLI, 0.3, 0.0, 0.29) == 1.0
    assert I.reward_from_draw(I.Family.BERNOULLI, 0.3, 0.0, 0.3) == 0.0
    assert I.reward_from_draw(I.Family.BETA_A1, 4.0, 0.0, 0.0625) == pytest.approx(0.5)
    assert I.reward_from_draw(I.Family.TWO_POINT, 0.4, 1.0, 0.49) == 0.4
    assert I.reward_from_draw(I.Family.UNIFORM, 0.0, 1.0, 0.25) == 0.25
    assert I.reward_from_draw(I.Family.GAUSSIAN, 0.9, 1.0, -1.0) == pytest.approx(-0.1)


def test_cannot_mix_gaussian_and_bounded_arms():
    with pytest.raises(ValueError, match="cannot mix"):
        I.Instance("x", (I.Arm(I.Family.BERNOULLI, 0.5), I.Arm(I.Family.GAUSSIAN, 0.5, 1.0)))


def test_custom_bernoulli_instance_gaps():
    inst = ldp.make_instance("bernoulli", means=[0.75, 0.625, 0.5])
    np.testing.assert_allclose(inst.gaps, [0, 0.125, 0.25])


def test_reward_families_and_curator_mechanisms_are_distinct_named_codes():
    """Family (the law of an arm's rewards) and Mechanism (what a curator does) are two enums: BERNOULLI is
    code 0 in one and 2 in the other, so neither may be written as a bare integer or a shared name."""
    from ldpcode.mechanisms import CTB, CTL, Mechanism

    assert [f.name for f in I.Family] == ["BERNOULLI", "BETA_A1", "TWO_POINT", "UNIFORM", "GAUSSIAN"]
    assert [int(f) for f in I.Family] == [0, 1, 2, 3, 4]
    assert [(m.name, int(m)) for m in Mechanism] == [("NONE", 0), ("LAPLACE", 1), ("BERNOULLI", 2)]
    assert CTL.code is Mechanism.LAPLACE and CTB.code is Mechanism.BERNOULLI
    assert I.make_instance("ren2020-bernoulli").arms[0].family is I.Family.BERNOULLI
    assert not hasattr(I, "BERNOULLI") and not hasattr(__import__("ldpcode.mechanisms").mechanisms, "BERNOULLI")
