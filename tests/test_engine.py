"""The compiled engine against the plain step-by-step reference, and the engine's bookkeeping."""

import math

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.reference import run_reference

CASES = [
    ("UCB1", None, "ren2020-bernoulli"),
    ("LDP-UCB-L", 1.0, "ren2020-bernoulli"),
    ("LDP-UCB-L", 0.2, "ren2020-mixed"),
    ("LDP-UCB-B", 2.0, "ren2020-bernoulli"),
    ("LDP-UCB-B", 0.5, "ren2020-mixed"),
    ("UCB1-S", None, "ren2020-gaussian"),
    ("LDP-UCB-LS", 0.5, "ren2020-gaussian"),
    ("LDP-UCB-BS", 0.5, "ren2020-gaussian"),
]


@pytest.mark.parametrize("name,eps,inst", CASES)
@pytest.mark.parametrize("seed", [0, 1])
def test_fast_path_pulls_exactly_the_arms_of_the_reference(name, eps, inst, seed):
    """Same streams, same decisions: the counts at every checkpoint agree exactly.

    The reference recomputes every index with the paper's literal formula (e.g. Agent 2, Line 3),
    so this also checks that the rearranged index m + sqrt(log t) c / sqrt(N) is the same index.
    Horizon 40_000 spans several engine chunks (32_768 steps), so chunk boundaries are covered.
    """
    pol, ins = ldp.make_policy(name, eps), ldp.make_instance(inst)
    horizon = 40_000
    cps = ldp.log_checkpoints(horizon, 40)
    ss = np.random.SeedSequence(seed).spawn(1)[0]
    fast = pol.run_one(ins, horizon, ss, cps)[0]
    plain = run_reference(pol, ins, horizon, ss, cps)
    np.testing.assert_array_equal(fast, plain)


def test_run_r_does_not_depend_on_the_number_of_runs():
    pol, ins = ldp.make_policy("LDP-UCB-B", 1.0), ldp.make_instance("ren2020-bernoulli")
    few = ldp.simulate(pol, ins, 5_000, runs=2, seed=4)
    many = ldp.simulate(pol, ins, 5_000, runs=6, seed=4)
    np.testing.assert_array_equal(few.counts, many.counts[:2])
    # and the runs are different from each other
    assert len({r.tobytes() for r in many.pulls}) == 6


def test_bookkeeping_counts_regret_and_checkpoints():
    ins = ldp.make_instance("ren2020-bernoulli")
    res = ldp.simulate(ldp.make_policy("UCB1"), ins, 10_000, runs=3, seed=0)
    assert res.checkpoints[0] == 1 and res.checkpoints[-1] == 10_000
    assert (np.diff(res.checkpoints) > 0).all()
    # the counts at checkpoint t add up to t
    np.testing.assert_array_equal(res.counts.sum(axis=2), np.broadcast_to(res.checkpoints, (3, res.checkpoints.size)))
    # pseudo-regret = sum_a N_a Delta_a, non-decreasing in t
    np.testing.assert_allclose(res.regret, res.counts @ ins.gaps)
    assert (np.diff(res.regret, axis=1) >= 0).all()
    np.testing.assert_array_equal(res.pulls, res.counts[:, -1, :])
    assert res.mean_regret().shape == res.checkpoints.shape
    lo, hi = res.regret_band()
    assert (lo <= res.mean_regret()).all() and (res.mean_regret() <= hi).all()
    np.testing.assert_array_equal(res.at(10_000), res.final_regret())
    with pytest.raises(
        ValueError, match=r"t must be one of this result's \d+ checkpoints \(rounds 1\.\.10000\), got 10001"
    ):
        res.at(10_001)


def test_first_round_pulls_every_arm_once():
    ins = ldp.make_instance("ren2020-bernoulli")
    res = ldp.simulate(ldp.make_policy("LDP-UCB-B", 1.0), ins, 20, runs=2, seed=0, checkpoints=np.arange(1, 21))
    for t in range(1, 21):
        np.testing.assert_array_equal(res.counts[:, t - 1, :t], 1)
        np.testing.assert_array_equal(res.counts[:, t - 1, t:], 0)


def test_ldp_ucb_l_forced_pulls_keep_every_arm_above_4_log_t():
    """Agent 2, Lines 5-6: no arm stays at N_a <= 4 log(t+1) for longer than a round of forced pulls."""
    ins = ldp.make_instance("ren2020-bernoulli")
    T = 50_000
    res = ldp.simulate(ldp.make_policy("LDP-UCB-L", 0.5), ins, T, runs=2, seed=0)
    assert (res.pulls > 4 * math.log(T + 1) - ins.n_arms).all()


def test_ucb1_on_a_deterministic_instance_by_hand():
    """Arms with rewards always 1 and always 0. After the first round (t = 2) the index of arm 2 is
    sqrt(2 log t); arm 1's is 1 + sqrt(2 log t / (t - 1)). Arm 2 is pulled again at the first t where
    sqrt(2 log t) >= 1 + sqrt(2 log t / (t - 1)), computed here by hand in plain Python."""
    t = 2
    while math.sqrt(2 * math.log(t)) < 1 + math.sqrt(2 * math.log(t) / (t - 1)):
        t += 1
    ins = ldp.make_instance("bernoulli", means=[1.0, 0.0])
    res = ldp.simulate(ldp.make_policy("UCB1"), ins, t + 1, runs=1, seed=0, checkpoints=[t, t + 1])
    np.testing.assert_array_equal(res.counts[0, 0], [t - 1, 1])
    np.testing.assert_array_equal(res.counts[0, 1], [t - 1, 2])


def test_same_seed_same_runs():
    """One policy, one seed, two calls: the same pulls (determinism; across threads and processes see
    tests/test_determinism.py)."""
    ins = ldp.make_instance("ren2020-bernoulli")
    a = ldp.simulate(ldp.make_policy("UCB1"), ins, 1_000, runs=2, seed=3)
    b = ldp.simulate(ldp.make_policy("UCB1"), ins, 1_000, runs=2, seed=3)
    np.testing.assert_array_equal(a.counts, b.counts)


def test_common_random_numbers_across_policies():
    """Two different policies with one seed see the same reward stream (the n-th pull of an arm gets the
    same reward under either). LDP-UCB-B at eps = 10^4 answers each Bernoulli reward with itself (CTB's P{1}
    tends to r), so it is UCB1 pull for pull, but only if both read the same rewards: with another seed
    the pulls differ."""
    ins = ldp.make_instance("ren2020-bernoulli")
    ucb1 = ldp.simulate(ldp.make_policy("UCB1"), ins, 5_000, runs=2, seed=3)
    ldp_b = ldp.simulate(ldp.make_policy("LDP-UCB-B", 1e4), ins, 5_000, runs=2, seed=3)
    other_seed = ldp.simulate(ldp.make_policy("LDP-UCB-B", 1e4), ins, 5_000, runs=2, seed=4)
    np.testing.assert_array_equal(ldp_b.counts, ucb1.counts)
    assert (other_seed.counts != ucb1.counts).any()  # the agreement is the shared stream, not a fixed path


def test_log_checkpoints():
    cp = ldp.log_checkpoints(10**6)
    assert cp[0] == 1 and cp[-1] == 10**6 and (np.diff(cp) > 0).all()
    assert 100 <= cp.size <= 121
    np.testing.assert_array_equal(ldp.log_checkpoints(5, 50), [1, 2, 3, 4, 5])


def test_run_streams_do_not_depend_on_call_history():
    ss = np.random.SeedSequence(5).spawn(1)[0]
    from ldpcode.simulate import run_streams

    first = [g.random(3) for g in run_streams(ss)]
    ss.spawn(4)  # spawning elsewhere must not change the run's streams
    second = [g.random(3) for g in run_streams(ss)]
    np.testing.assert_array_equal(first, second)
    assert not np.array_equal(first[0], first[1])  # rewards and noise are different streams


def test_mean_and_half_width_by_hand():
    from ldpcode.simulate import mean_and_half_width

    v = np.array([[1.0, 10.0], [3.0, 10.0], [5.0, 10.0]])
    m, half = mean_and_half_width(v, 0.95)
    np.testing.assert_allclose(m, [3.0, 10.0])
    np.testing.assert_allclose(half, [1.959963984540054 * 2.0 / math.sqrt(3), 0.0])
    m1, h1 = mean_and_half_width(v[:1])
    np.testing.assert_array_equal(h1, [0.0, 0.0])
