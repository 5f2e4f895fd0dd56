"""Theorem 1 of Zheng et al. (2020): whole transcripts of an LDP protocol (ldpcode.audit.transcripts)."""

import numpy as np
import pytest

from ldpcode import audit
from ldpcode.mechanisms import GaussianMechanism, LaplaceMechanism


def _streams():
    x = np.array([[0.0, 1.0], [1.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    y = x.copy()
    y[2] = [0.5, 1.0]
    return x, y


def test_the_first_k_users_are_asked_about_each_arm_in_order():
    x, _ = _streams()
    actions, responses = audit.follow_the_leader_transcripts(x, LaplaceMechanism(1.0), 50, np.random.default_rng(0))
    assert actions.shape == responses.shape == (50, 5)
    assert (actions[:, :2] == [0, 1]).all()


@pytest.mark.parametrize("mech", [LaplaceMechanism(0.7), GaussianMechanism(0.7, 1e-3)])
def test_the_transcript_log_ratio_is_the_changed_users_term_alone(mech):
    x, y = _streams()
    a, z = audit.follow_the_leader_transcripts(x, mech, 200, np.random.default_rng(1))
    whole = audit.transcript_log_ratio(a, z, x, y, mech)
    only = audit.transcript_log_ratio(a[:, 2:3], z[:, 2:3], x[2:3], y[2:3], mech)
    assert np.allclose(whole, only)


def test_composition_over_users_gives_the_changed_users_loss():
    x, y = _streams()
    mech = LaplaceMechanism(2.0)
    assert audit.transcript_loss_by_composition(x, y, mech, points=101) == pytest.approx(
        1.0 * 2.0, rel=1e-12
    )  # arm 1 moves by 1
    with pytest.raises(TypeError):
        audit.transcript_loss_by_composition(x, y, GaussianMechanism(1.0, 1e-3))
    with pytest.raises(ValueError):
        audit.transcript_log_ratio(np.zeros((1, 4), int), np.zeros((1, 4)), x, y, mech)
