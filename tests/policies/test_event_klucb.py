"""The exact event-driven KL-UCB engine (ldpcode.global_policies.klucb_event) against the per-pull KL-UCB.

As tests/policies/test_event.py: the engines use different random streams, so they are compared in law, 300
runs of each at T = 10**4 on two instances (different seeds: independent samples), a two-sample KS test on
the regret and Welch t-tests on each arm's mean pull count at two checkpoints; the smallest p-value,
Bonferroni-corrected over the arms, the two statistics and the checkpoints, must be > 1e-3. Seeds are fixed,
so the tests are deterministic. The engine's argmax is checked to be the per-pull kernel's pull for pull, its
search to find the largest block of the certificate in its literal form (the leader's index by bisection),
and every round of every block is audited with the kernel's argmax, on the drawn responses and on all zeros.
"""

import math
from dataclasses import dataclass

import numpy as np
import pytest

import ldpcode as ldp
from event_law import (
    assert_counts_follow_the_checkpoints,
    checkpoint_lists,
    law_pvalues,
    law_test_passes,
    same_seed_same_output,
)
from ldpcode.global_policies import klucb_event as ke
from ldpcode.global_policies.per_step import KLUCB, klucb_chunk
from ldpcode.limits import CancelFlag, Cancelled

T = 10_000
RUNS = 300
CHECKPOINTS = np.array([T // 10, T], dtype=np.int64)
REN = ldp.make_instance("ren2020-bernoulli")
THREE = ldp.make_instance("bernoulli", means=[0.7, 0.6, 0.5])
INSTANCES = [REN, THREE]
IDS = ["20arms", "3arms"]
KL = ldp.make_policy("KL-UCB")


def event_counts(inst, brk=ke.NO_BREAK, seed=2, runs=RUNS):
    """(runs, C, K) counts of the event-driven engine, run r from SeedSequence(seed).spawn(runs)[r]."""
    seqs = np.random.SeedSequence(seed).spawn(runs)
    return np.stack([ke._run(KL, inst, T, s, CHECKPOINTS, brk=brk)[0] for s in seqs])


@pytest.fixture(scope="module")
def per_pull():
    """The per-pull KL-UCB's counts on each instance (seed 1): 3 * 10**6 pulls each, about 1 s."""
    return [
        ldp.simulate(KL, inst, T, RUNS, 1, checkpoints=CHECKPOINTS, workers=1, progress=False).counts
        for inst in INSTANCES
    ]


def per_pull_state(inst, t, seed):
    """(counts, sums) of the per-pull kernel after t pulls on the uniforms of default_rng(seed)."""
    counts, sums = np.zeros(inst.n_arms, dtype=np.int64), np.zeros(inst.n_arms)
    out = np.zeros((1, inst.n_arms), dtype=np.int64)
    klucb_chunk(
        0, t, inst.families, inst.params, np.random.default_rng(seed).random(t), counts, sums, np.array([t]), 0, out
    )
    return counts, sums


def literal_max(t, a, counts, sums, room):
    """The largest m <= room that :func:`ke.certifies_bisection` accepts (1 if none): it is monotone in m."""
    if not ke.certifies_bisection(t, 1, a, counts, sums):
        return 1
    hi = 2
    while hi <= room and ke.certifies_bisection(t, hi, a, counts, sums):
        hi *= 2
    lo, hi = hi // 2, min(hi, room + 1)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ke.certifies_bisection(t, mid, a, counts, sums) else (lo, mid)
    return lo


# --- (a) the argmax and the search ---------------------------------------------------------------------------


@pytest.mark.parametrize("inst", INSTANCES, ids=IDS)
def test_the_argmax_is_the_per_pull_kernels_pull_for_pull(inst):
    """On the same uniforms, a per-pull loop with :func:`ke.klucb_argmax` pulls what ``klucb_chunk`` pulls."""
    n, horizon = inst.n_arms, 4000
    draws = np.random.default_rng(4).random(horizon)
    ref = np.zeros((horizon, n), dtype=np.int64)
    cps = np.arange(1, horizon + 1, dtype=np.int64)
    klucb_chunk(0, horizon, inst.families, inst.params, draws, np.zeros(n, np.int64), np.zeros(n), cps, 0, ref)
    counts, sums = np.zeros(n, dtype=np.int64), np.zeros(n)
    for t in range(horizon):
        arm = t if t < n else ke.klucb_argmax(math.log(t), counts, sums)[0]
        counts[arm] += 1
        sums[arm] += 1.0 if draws[t] < inst.means[arm] else 0.0
        np.testing.assert_array_equal(counts, ref[t])


@pytest.mark.parametrize("inst", INSTANCES, ids=IDS)
def test_the_search_finds_the_largest_block_of_the_literal_certificate(inst):
    """At 50 states of per-pull runs, the block from fresh tangents (after the argmax) and, a few pulls of the
    leader later, from the kept ones, is the largest m that the certificate with the bisection's L accepts."""
    rng = np.random.default_rng(5)
    results = []
    for i in range(50):
        t = int(rng.integers(50, 10_000))
        counts, sums = per_pull_state(inst, t, i)
        a, ua = ke.klucb_argmax(math.log(t), counts, sums)
        work, room = np.zeros((3, inst.n_arms)), int(rng.choice([10**7, 40]))
        m = ke.block_length(t, a, ua, counts, sums, work, room, False)
        results.append((max(m, 1), literal_max(t, a, counts, sums, room)))
        if m >= 1:  # the tangents are kept: k more pulls of a (ones and zeros), as after a block
            k = int(rng.integers(1, 30))
            counts[a], sums[a] = counts[a] + k, sums[a] + rng.binomial(k, inst.means[a])
            m = ke.search(t + k, a, counts, sums, work, room, False)
            results.append((max(m, 1), literal_max(t + k, a, counts, sums, room)))
    got, ref = np.array(results).T
    print(f"\n{inst.n_arms} arms: {len(got)} states, {np.mean(got == ref):.3f} equal, largest {ref.max()}")
    assert (got <= ref).all() and np.mean(got == ref) >= 0.97 and (ref >= 2).mean() > 0.5


# --- (b) the law of the per-pull engine, and the audit ----------------------------------------------------------


@pytest.mark.parametrize("i", range(len(INSTANCES)), ids=IDS)
def test_same_law_as_the_per_pull_kl_ucb(per_pull, i):
    b = event_counts(INSTANCES[i])
    pvals = law_pvalues(per_pull[i], b, INSTANCES[i].gaps)
    print(f"\nKL-UCB {IDS[i]}: (KS regret, t pulls) p-values at t = {CHECKPOINTS.tolist()}: {pvals}")
    assert law_test_passes(pvals), pvals


@pytest.mark.parametrize("audit", [ke.AUDIT_PATH, ke.AUDIT_ZEROS], ids=["path", "zeros"])
@pytest.mark.parametrize("inst", INSTANCES, ids=IDS)
def test_audit_no_block_round_is_lost_by_the_leader(inst, audit):
    """Every round of every block, replayed with the kernel's argmax, has the leader as the argmax; a one-pull
    overshoot is caught on both paths, the challengers at log t on the all-zero path."""
    seqs = np.random.SeedSequence(3).spawn(4)
    exact = sum(ke._run(KL, inst, T, s, CHECKPOINTS, brk=(0, audit))[1] for s in seqs)
    over = sum(ke._run(KL, inst, T, s, CHECKPOINTS, brk=(1, audit))[1] for s in seqs)
    at_t = sum(ke._run(KL, inst, T, s, CHECKPOINTS, brk=(0, audit | ke.BREAK_CHALLENGERS_AT_T))[1] for s in seqs)
    print(f"\n{inst.n_arms} arms, audit {audit}: exact {exact}, m + 1 {over}, challengers at t {at_t}")
    assert exact[3] == 0 and exact[4] == 0 and exact[2] > 3 * T and exact[5] > exact[1] // 2
    assert over[3] > 0
    assert at_t[3] > 0 or audit == ke.AUDIT_PATH


# --- (c) bad input --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OtherKLUCB(KLUCB):
    """A hand-made KL-UCB: its name, not its kernel."""


@pytest.mark.parametrize(
    "pol,inst",
    [
        (ldp.make_policy("UCB1"), REN),
        (ldp.make_policy("LDP-UCB-B", 1.0), REN),
        (ldp.make_policy("DP-UCB", 1.0), REN),
        (OtherKLUCB(), REN),
        (KL, ldp.make_instance("ren2020-mixed")),
        (KL, ldp.make_instance("ren2020-gaussian")),
        (KL, "ren2020-bernoulli"),
    ],
    ids=["UCB1", "LDP-UCB-B", "DP-UCB", "subclass", "mixed", "gaussian", "name"],
)
def test_refuses_other_policies_and_instances_with_one_line(pol, inst):
    assert not ke.klucb_event_applies(pol, inst)
    for call in (
        lambda: ke.run_one_klucb_event(pol, inst, 100, np.random.SeedSequence(0), np.array([100])),
        lambda: ke.klucb_event_driven(pol, inst),
    ):
        with pytest.raises(ValueError, match="event-driven KL-UCB engine runs only KL-UCB") as info:
            call()
        assert "\n" not in str(info.value)


# --- (d) determinism, checkpoints, cancel, the way in through simulate -------------------------------------------


def test_same_seed_same_output_other_seed_other_output():
    cps = ldp.log_checkpoints(50_000, 30)
    one = same_seed_same_output(lambda s: ke.run_one_klucb_event(KL, REN, 50_000, s, cps))
    assert one[1] == 0 and one[0].dtype == np.int64 and one[0].shape == (cps.size, 20)


@pytest.mark.parametrize("inst", INSTANCES, ids=IDS)
def test_counts_are_recorded_exactly_at_the_checkpoints(inst):
    horizon = 300_000
    for cps in checkpoint_lists(horizon):
        out, st = ke._run(KL, inst, horizon, np.random.SeedSequence(9), cps)
        assert_counts_follow_the_checkpoints(out, cps)
        assert st[1] > 0  # blocks were taken
        np.testing.assert_array_equal(out[cps <= inst.n_arms].max(axis=1), 1)  # the first K pulls: each arm once


def test_one_arm_and_a_horizon_shorter_than_the_arms():
    one = ldp.make_instance("bernoulli", means=[0.3])
    out, st = ke._run(KL, one, 10**6, np.random.SeedSequence(0), np.array([5, 10**6]))
    np.testing.assert_array_equal(out, [[5], [10**6]])
    assert st[0] <= 3
    out = ke.run_one_klucb_event(KL, REN, 7, np.random.SeedSequence(0), np.array([3, 7]))[0]
    np.testing.assert_array_equal(out, [[1] * 3 + [0] * 17, [1] * 7 + [0] * 13])


def test_a_set_cancel_flag_stops_the_run():
    flag = CancelFlag()
    flag.set()
    with pytest.raises(Cancelled):
        ke.run_one_klucb_event(KL, REN, 10**6, np.random.SeedSequence(0), np.array([10**6]), cancel=flag)


def test_simulate_runs_the_event_kernel_run_by_run_under_kl_ucbs_name():
    """``simulate(klucb_event_driven(KL-UCB, instance), ...)``: run r is :func:`ke.run_one_klucb_event` on
    ``SeedSequence(seed).spawn(runs)[r]``, whatever the number of workers; the repr is KL-UCB's."""
    pol = ke.klucb_event_driven(KL, THREE)
    assert repr(pol) == repr(KL) == "Policy('KL-UCB')" and pol.name == "KL-UCB"
    assert ke.klucb_event_applies(pol, THREE) and KL == ldp.make_policy("KL-UCB")
    res = ldp.simulate(pol, THREE, T, 3, 5, checkpoints=CHECKPOINTS, workers=2, progress=False)
    for r, s in enumerate(np.random.SeedSequence(5).spawn(3)):
        np.testing.assert_array_equal(res.counts[r], ke.run_one_klucb_event(KL, THREE, T, s, CHECKPOINTS)[0])
    assert res.counts.shape == (3, 2, 3) and res.policy == "KL-UCB"
