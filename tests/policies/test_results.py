"""The one result type family (ldpcode.results.RegretCurves): every engine's result shares its methods."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import ldpcode as ldp
from ldpcode import bco, contextual as ctx, reductions as rd
from ldpcode.results import RegretCurves
from ldpcode.simulate import SimulationResult


def _results():
    return {
        "simulate": ldp.simulate(
            ldp.make_policy("LDP-UCB-B", epsilon=1.0), ldp.make_instance("ren2020-bernoulli"), 200, 3
        ),
        "bco": bco.simulate_one_point("quadratic", horizon=200, runs=3, epsilon=1.0),
        "contextual": ctx.simulate_contextual("linucb", ctx.make_contextual_instance(), 100, 3, 0),
        "mab": rd.simulate_mab(
            rd.make_agent("UCB", "gaussian", epsilon=2.0, delta=1e-3), rd.bernoulli_losses([0.2, 0.6]), 200, 3
        ),
    }


RESULTS = _results()


@pytest.mark.parametrize("kind", sorted(RESULTS))
def test_every_result_is_regret_curves_with_the_shared_methods(kind):
    res = RESULTS[kind]
    assert isinstance(res, RegretCurves)
    C = res.checkpoints.size
    assert res.regret.shape == (res.runs, C) and res.checkpoints[-1] == res.horizon
    np.testing.assert_array_equal(res.final_regret(), res.regret[:, -1])
    np.testing.assert_array_equal(res.mean_regret(), res.regret.mean(axis=0))
    np.testing.assert_array_equal(res.at(int(res.checkpoints[C // 2])), res.regret[:, C // 2])
    lo, hi = res.regret_band()
    assert (lo <= res.mean_regret() + 1e-12).all() and (res.mean_regret() <= hi + 1e-12).all()
    with pytest.raises(
        ValueError,
        match=rf"^t must be one of this result's {C} checkpoints \(rounds 1\.\.{res.horizon}\), got {res.horizon + 1}$",
    ):
        res.at(res.horizon + 1)
    with pytest.raises(ValueError, match="level must be in"):
        res.regret_band(1.5)


def test_a_single_run_has_no_confidence_band():
    """The input review: one run gave a band of width 0, certainty on a plot."""
    one = ldp.simulate(ldp.make_policy("UCB1"), ldp.make_instance("bernoulli", means=[0.9, 0.5]), 100, 1)
    with pytest.raises(ValueError, match=r"^a confidence band needs at least 2 runs, got 1"):
        one.regret_band()


def test_labels_name_the_privacy_level():
    assert RESULTS["simulate"].label == "LDP-UCB-B (ε = 1)"
    assert RESULTS["bco"].label == "one-point (ε = 1)" and RESULTS["bco"].name == "one-point"
    assert RESULTS["contextual"].label == "linucb" and RESULTS["contextual"].privacy_level == math.inf
    assert RESULTS["mab"].epsilon == 2.0 and RESULTS["mab"].label == "UCB + Gaussian (Alg. 1) (ε = 2)"
    plain = rd.simulate_mab(rd.make_agent("UCB"), rd.bernoulli_losses([0.2, 0.6]), 50, 2)
    assert plain.epsilon == math.inf and plain.label == "UCB"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 10**6), min_size=1, max_size=20, unique=True), st.integers(1, 5), st.data())
def test_at_reads_the_column_of_its_checkpoint(cps, runs, data):
    cp = np.array(sorted(cps), dtype=np.int64)
    K = 2
    counts = np.cumsum(np.ones((runs, cp.size, K), dtype=np.int64), axis=1) * np.arange(1, runs + 1)[:, None, None]
    res = SimulationResult("UCB1", math.inf, "toy", int(cp[-1]), runs, 0, cp, counts, np.array([0.0, 0.5]))
    i = data.draw(st.integers(0, cp.size - 1))
    np.testing.assert_array_equal(res.at(int(cp[i])), res.regret[:, i])
    np.testing.assert_array_equal(res.at(np.int64(cp[i])), counts[:, i] @ res.gaps)
    missing = data.draw(st.integers(1, 10**6).filter(lambda t: t not in set(cps)))
    with pytest.raises(ValueError, match=f"got {missing}$"):
        res.at(missing)


def test_final_regret_text_is_the_mean_at_the_horizon_rounded_to_its_standard_error():
    """A legend and a table print one number alike: runs with regret 10, 20, 30 and 40 at T (gap 0.5 times the pulls
    of arm 1): mean 25, standard error sqrt(var / 4) = 6.455 -> '25.0 ± 6.5'."""
    cp = np.array([10, 100])
    counts = np.zeros((4, 2, 2), dtype=np.int64)
    counts[:, 1, 1] = [20, 40, 60, 80]  # regret at T = 0.5 x pulls of the second arm
    res = SimulationResult("UCB1", math.inf, "toy", 100, 4, 0, cp, counts, np.array([0.0, 0.5]))
    np.testing.assert_array_equal(res.final_regret(), [10.0, 20.0, 30.0, 40.0])
    assert ldp.claims.final_regret_text(res) == "25.0 ± 6.5"
