"""The certified argmax of the per-pull KL-UCB kernel (ldpcode.global_policies.per_step.klucb_chunk): the kernel
pulls klucb_argmax's arm at every round; the certificate and its run of rounds hold on random states, and the
checker finds the wrong pulls of a certificate built on caps at the wrong time (so it can fail)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ldpcode as ldp
from ldpcode.divergences import klucb_bernoulli_scalar
from ldpcode.global_policies.per_step import (
    KL_CAP_HALVINGS,
    KL_WINDOW_SHIFT,
    klucb_argmax,
    klucb_certified_rounds,
    klucb_certifies,
    klucb_chunk,
)
from ldpcode.kit import window_end
from ldpcode.reference import run_reference_global

KL = ldp.make_policy("KL-UCB")
INSTANCES = {
    "ren2020 Bernoulli": ldp.make_instance("ren2020-bernoulli"),
    "ren2020 mixed (Beta, uniform)": ldp.make_instance("ren2020-mixed"),
    "three equal coins": ldp.make_instance("bernoulli", means=[0.5, 0.5, 0.5]),
    "certain rewards, tied": ldp.make_instance("bernoulli", means=[1.0, 1.0, 0.0, 1.0]),
    "close means": ldp.make_instance("bernoulli", means=[0.9, 0.899, 0.898]),
    "rare rewards": ldp.make_instance("bernoulli", means=[0.02, 0.01, 0.015]),
}


@pytest.mark.parametrize("inst", list(INSTANCES.values()), ids=list(INSTANCES))
def test_the_kernel_pulls_klucb_argmax_at_every_round(inst):
    """30,000 rounds, every one a checkpoint, in three calls as the engine's chunks (each starts a new
    certificate): windows grow to 29 rounds (30,000 >> 10)."""
    n, horizon = inst.n_arms, 30_000
    draws = np.random.default_rng(4).random(horizon)
    fast = np.zeros((horizon, n), dtype=np.int64)
    cps = np.arange(1, horizon + 1, dtype=np.int64)
    state, ci = (np.zeros(n, np.int64), np.zeros(n)), 0
    for start, stop in [(0, 7_000), (7_000, 19_001), (19_001, horizon)]:
        t, ci = klucb_chunk(start, horizon, inst.families, inst.params, draws[start:stop], *state, cps, ci, fast)
        assert t == stop
    counts, sums = np.zeros(n, dtype=np.int64), np.zeros(n)
    pulls = np.argmax(np.diff(np.vstack([np.zeros(n, np.int64), fast]), axis=0), axis=1)
    for t in range(horizon):
        arm = t if t < n else klucb_argmax(math.log(t), counts, sums)[0]
        assert arm == pulls[t], f"round {t}: the kernel pulled {pulls[t]}, klucb_argmax {arm}"
        counts[arm] += 1
        sums[arm] += ldp.instances.reward_from_draw(
            inst.families[arm], inst.params[arm, 0], inst.params[arm, 1], draws[t]
        )
    np.testing.assert_array_equal(counts, fast[-1])


@pytest.mark.parametrize("means", [[0.7, 0.5, 0.45], [0.5, 0.5, 0.5, 0.5]])
def test_the_engine_in_chunks_is_the_plain_reference(means):
    """The policy's own run (its reward stream, its call of the kernel) against the literal KL-UCB of
    ``ldpcode.reference``, which inverts every arm's index at every round: the same pull at every round."""
    inst, horizon = ldp.make_instance("bernoulli", means=means), 6_000
    cps = np.arange(1, horizon + 1)
    ss = np.random.SeedSequence(5).spawn(1)[0]
    np.testing.assert_array_equal(
        KL.run_one(inst, horizon, ss, cps)[0], run_reference_global(KL, inst, horizon, ss, cps)
    )


def wrong_pulls(counts, sums, t, lt_caps, rounds=12):
    """Rounds t' in [t, t_end] (and along the all-zero run of the leader) at which the certificate, with the other
    arms' caps computed at log t = ``lt_caps``, names the leader while klucb_argmax pulls another arm. The kernel
    computes the caps at log t_end: then the list must be empty."""
    n = counts.shape[0]
    t_end = window_end(t, KL_WINDOW_SHIFT)
    lt = math.log(t)
    leader = klucb_argmax(lt, counts, sums)[0]
    cap = max(
        klucb_bernoulli_scalar(sums[a] / counts[a], lt_caps / counts[a], KL_CAP_HALVINGS)
        for a in range(n)
        if a != leader
    )
    if not klucb_certifies(sums[leader] / counts[leader], cap, lt / counts[leader]):
        return []
    wrong = [
        u for u in np.linspace(t, t_end, rounds).astype(int) if klucb_argmax(math.log(u), counts, sums)[0] != leader
    ]
    # the leader's run: k more rounds certified on its worst path, all-zero rewards, and each of them pulls it
    k = klucb_certified_rounds(sums[leader], counts[leader], cap, lt, t_end - t)
    zeros = counts.copy()
    for j in range(1, k + 1):
        zeros[leader] = counts[leader] + j
        if klucb_argmax(math.log(t + j), zeros, sums)[0] != leader:
            wrong.append(t + j)
    if k < t_end - t:  # the run is the longest: one more zero breaks the certificate
        zeros[leader] = counts[leader] + k + 1
        assert not klucb_certifies(sums[leader] / zeros[leader], cap, lt / zeros[leader])
    return wrong


MEAN = st.sampled_from([0.0, 0.01, 0.1, 0.5, 0.5, 0.8, 0.9, 0.9, 0.99, 1.0])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(MEAN, st.integers(1, 10**6)), min_size=2, max_size=6),
    st.integers(0, 4),
    st.sampled_from([10, 10**3, 10**5, 10**7]),
)
def test_the_certificate_and_its_run_never_name_a_wrong_arm(arms, nudge, t0):
    """Empirical means on a coarse grid (ties and 0 and 1 are common), nudged by a few rewards."""
    counts = np.array([c for _, c in arms], dtype=np.int64)
    sums = np.array([float(round(m * c)) for m, c in arms]) + np.minimum(nudge, counts)
    sums = np.minimum(sums, counts.astype(float))
    t = max(t0, int(counts.sum()))
    assert wrong_pulls(counts, sums, t, math.log(window_end(t, KL_WINDOW_SHIFT))) == []


def test_the_checker_finds_the_wrong_pulls_of_caps_taken_too_early():
    """Caps taken at log t instead of log t_end are not upper bounds over the window: on the states of a per-pull
    run, the checker finds rounds where that certificate names an arm klucb_argmax does not pull."""
    inst = ldp.make_instance("bernoulli", means=[0.9, 0.89, 0.88])
    n, horizon = inst.n_arms, 20_000
    counts, sums = np.zeros(n, dtype=np.int64), np.zeros(n)
    draws = np.random.default_rng(1).random(horizon)
    found = 0
    for t in range(horizon):
        arm = t if t < n else klucb_argmax(math.log(t), counts, sums)[0]
        if t >= 1000 and t % 7 == 0:
            assert wrong_pulls(counts, sums, t, math.log(window_end(t, KL_WINDOW_SHIFT))) == []
            found += len(wrong_pulls(counts, sums, t, math.log(t)))
        counts[arm] += 1
        sums[arm] += 1.0 if draws[t] < inst.means[arm] else 0.0
    assert found > 0
