"""The certified argmax of the per-pull kernels (ldpcode.kit): the scan by hand and against numpy, and
the kernels against the plain reference at every round, on instances made of ties."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ldpcode as ldp
from ldpcode.kit import MIN_WINDOW, WINDOW_SHIFT, leader_index, leader_scan, sqrt_log, window_end
from ldpcode.reference import run_reference, run_reference_global, run_reference_heterogeneous


def test_leader_scan_by_hand():
    means = np.array([0.5, 0.7, 0.7, 0.1])
    widths = np.array([0.4, 0.0, 0.0, 1.0])
    kept = np.ones(4, dtype=np.int64)
    # at g = 0.5: u = 0.7, 0.7, 0.7, 0.6 -> the lowest-numbered of the three tied, arm 0; at g_end = 1: v = 0.9,
    # 0.7, 0.7, 1.1 -> the largest of the others is arm 3's 1.1
    assert leader_scan(means, widths, kept, 0.5, 1.0) == (0, 1.1)
    # at g = 0: arms 1 and 2 tie at 0.7 -> arm 1; the others' largest at g_end = 0.1 is arm 2's 0.7
    arm, rival = leader_scan(means, widths, kept, 0.0, 0.1)
    assert (arm, rival) == (1, 0.7)
    kept[2] = 0  # no response yet: index +inf, and so is the rival of any other leader
    assert leader_scan(means, widths, kept, 0.5, 1.0) == (2, 1.1)
    kept[2], kept[3] = 1, 0
    assert leader_scan(means, widths, kept, 0.5, 1.0) == (3, 0.9)
    assert leader_index(means, widths, kept, 3, 0.5) == math.inf
    assert leader_index(means, widths, kept, 0, 0.5) == 0.5 + 0.5 * 0.4


def test_window_and_g_by_hand():
    assert (WINDOW_SHIFT, MIN_WINDOW) == (12, 8)
    assert window_end(0) == 8 and window_end(40_960) == 40_970 and window_end(10**6) == 10**6 + 244
    assert window_end(10**6, 10) == 10**6 + 976 and window_end(100, 10) == 108  # KL-UCB's longer windows
    assert sqrt_log(1) == 0.0 and sqrt_log(0) == 0.0 and sqrt_log(100) == math.sqrt(math.log(100))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=8),
    st.integers(0, 4),
    st.integers(0, 4),
)
def test_leader_scan_is_numpys_first_argmax_and_the_others_max(arms, g4, extra4):
    """Small integer grids make ties common; kept = 0 stands for an arm with no response (index +inf)."""
    means = np.array([m / 4 for m, _, _ in arms])
    widths = np.array([w / 4 for _, w, _ in arms])
    kept = np.array([k for _, _, k in arms], dtype=np.int64)
    g, g_end = g4 / 4, (g4 + extra4) / 4
    u = np.where(kept == 0, np.inf, means + g * widths)
    v = np.where(kept == 0, np.inf, means + g_end * widths)
    arm, rival = leader_scan(means, widths, kept, g, g_end)
    assert arm == int(np.argmax(u))
    others = np.delete(v, arm)
    assert rival == (others.max() if others.size else -np.inf)


TIES = {
    "three equal coins": (0.5, 0.5, 0.5),
    "certain rewards, tied": (1.0, 1.0, 0.0, 1.0),
    "close means": (0.9, 0.8, 0.8, 0.5),
}


@pytest.mark.parametrize("name,eps", [("UCB1", None), ("LDP-UCB-L", 1.0), ("LDP-UCB-B", 0.5)])
@pytest.mark.parametrize("means", list(TIES.values()), ids=list(TIES))
def test_certified_kernel_pulls_the_references_arm_at_every_round(name, eps, means):
    """Every round is a checkpoint; 50,000 rounds reach windows of 12 rounds (t >> 12 = 12)."""
    pol, ins = ldp.make_policy(name, eps), ldp.make_instance("bernoulli", means=means)
    horizon = 50_000
    cps = np.arange(1, horizon + 1)
    ss = np.random.SeedSequence(7).spawn(1)[0]
    np.testing.assert_array_equal(pol.run_one(ins, horizon, ss, cps)[0], run_reference(pol, ins, horizon, ss, cps))


@pytest.mark.parametrize(
    "name,levels,eps_min",
    [("HeLDP-UCB-B", ("constant", 1.0), 1.0), ("HeLDP-UCB-L", ("ren-heldp-discrete", None), 1.0)],
)
@pytest.mark.parametrize("means", [TIES["certain rewards, tied"], TIES["close means"]], ids=["tied", "close"])
def test_certified_heterogeneous_kernel_pulls_the_references_arm_at_every_round(name, levels, eps_min, means):
    lv = ldp.make_privacy_levels(levels[0], **({} if levels[1] is None else {"epsilon": levels[1]}))
    pol, ins = ldp.make_policy(name, epsilon_min=eps_min), ldp.make_instance("bernoulli", means=means)
    horizon = 40_000
    cps = np.arange(1, horizon + 1)
    ss = np.random.SeedSequence(8).spawn(1)[0]
    fast = pol.run_one(ins, horizon, ss, cps, privacy_levels=lv)[0]
    np.testing.assert_array_equal(fast, run_reference_heterogeneous(pol, ins, lv, horizon, ss, cps))


@pytest.mark.parametrize("means", list(TIES.values()), ids=list(TIES))
def test_certified_dp_ucb_kernel_pulls_the_references_arm_at_every_round(means):
    """DP-UCB calls ldpcode.kit.certified_argmax (the kit's one function; the two fastest kernels write it out)."""
    pol, ins = ldp.make_policy("DP-UCB", epsilon=1.0), ldp.make_instance("bernoulli", means=means)
    horizon = 20_000
    cps = np.arange(1, horizon + 1)
    ss = np.random.SeedSequence(9).spawn(1)[0]
    np.testing.assert_array_equal(
        pol.run_one(ins, horizon, ss, cps)[0], run_reference_global(pol, ins, horizon, ss, cps)
    )


def _one_point_by_the_plain_scan(inst, reward_draws, noise_draws, width_c, horizon):
    """Algorithm 1 around UCB1 with ``_ucb_select`` at every round: the reference of ``one_point_ucb_chunk``."""
    from ldpcode.instances import reward_from_draw
    from ldpcode.reductions.kernels import _ucb_select

    counts, sums = np.zeros(inst.n_arms, dtype=np.int64), np.zeros(inst.n_arms)
    out = np.empty((horizon, inst.n_arms), dtype=np.int64)
    for t in range(horizon):
        a = _ucb_select(counts, sums, max(t, 1), width_c)
        r = reward_from_draw(inst.families[a], inst.params[a, 0], inst.params[a, 1], reward_draws[t])
        counts[a] += 1
        sums[a] += (1.0 - r) + noise_draws[t]
        out[t] = counts
    return out


@pytest.mark.parametrize("noise_sd", [0.0, 0.3, 3.0])
@pytest.mark.parametrize("means", list(TIES.values()), ids=list(TIES))
def test_certified_one_point_kernel_pulls_the_plain_scans_arm_at_every_round(means, noise_sd):
    """No noise and certain rewards make exact ties of the lower confidence values."""
    from ldpcode.reductions.kernels import one_point_ucb_chunk

    ins, horizon, width_c = ldp.make_instance("bernoulli", means=means), 50_000, 1.7
    rng = np.random.default_rng(3)
    rd, nd = rng.random(horizon), noise_sd * rng.standard_normal(horizon)
    counts, sums = np.zeros(ins.n_arms, dtype=np.int64), np.zeros(ins.n_arms)
    cps = np.arange(1, horizon + 1)
    out = np.zeros((horizon, ins.n_arms), dtype=np.int64)
    t = ci = 0
    for lo in range(0, horizon, 16_384):  # in chunks, as the engine calls it
        t, ci = one_point_ucb_chunk(
            t, horizon, ins.families, ins.params, rd[lo:], nd[lo:], width_c, counts, sums, cps, ci, out
        )
    assert t == horizon
    np.testing.assert_array_equal(out, _one_point_by_the_plain_scan(ins, rd, nd, width_c, horizon))
