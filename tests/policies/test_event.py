"""The exact event-driven engine (ldpcode.policies.event) against the per-pull engine.

The two engines use different random streams, so they are compared in law: 400 runs of each at T = 2*10**4
(different seeds, so the samples are independent), a two-sample KS test on the regret and Welch t-tests on
each arm's mean pull count, at two checkpoints; the smallest p-value, Bonferroni-corrected over the arms, the
two statistics and the checkpoints, must be > 1e-3. Seeds are fixed, so the tests are deterministic. The
certificate itself is audited along explicit response paths and along the all-zero path (its worst case): no
round of a block is one the per-pull kernel would have played otherwise. Broken skips show what each check
can see: the law test catches a lost response and 20 extra pulls a block, but not a one-pull overshoot,
which the audit catches.
"""

import math

import numpy as np
import pytest
from scipy import stats

import ldpcode as ldp
from event_law import (
    assert_counts_follow_the_checkpoints,
    checkpoint_lists,
    law_pvalues,
    law_test_passes,
    P_MIN,
    same_seed_same_output,
)
from ldpcode import mechanisms as mech
from ldpcode.limits import CancelFlag, Cancelled
from ldpcode.policies import event as ev
from ldpcode.policies.index import IndexPolicy

T = 20_000
RUNS = 400
CHECKPOINTS = np.array([T // 10, T], dtype=np.int64)
REN = ldp.make_instance("ren2020-bernoulli")
THREE = ldp.make_instance("bernoulli", means=[0.7, 0.6, 0.5])
CONFIGS = [
    (name, eps, inst) for name, eps in [("UCB1", None), ("LDP-UCB-B", 0.5), ("LDP-UCB-B", 2.0)] for inst in (REN, THREE)
]
IDS = [f"{name}-{eps}-{inst.n_arms}arms" for name, eps, inst in CONFIGS]


def event_counts(pol, inst, brk=ev.NO_BREAK, seed=2, runs=RUNS, horizon=T, checkpoints=CHECKPOINTS):
    """(runs, C, K) counts of the event-driven engine, run r from SeedSequence(seed).spawn(runs)[r]."""
    seqs = np.random.SeedSequence(seed).spawn(runs)
    return np.stack([ev._run(pol, inst, horizon, s, checkpoints, brk=brk)[0] for s in seqs])


@pytest.fixture(scope="module")
def per_pull():
    """The per-pull engine's counts for every configuration (seed 1): shared by the law tests."""
    return {
        i: ldp.simulate(
            ldp.make_policy(name, eps), inst, T, RUNS, 1, checkpoints=CHECKPOINTS, workers=1, progress=False
        ).counts
        for i, (name, eps, inst) in enumerate(CONFIGS)
    }


# --- (a) the response probability q --------------------------------------------------------------------------


@pytest.mark.parametrize("eps", [0.5, 1.0, 2.0])
def test_ctb_response_probability_is_lemma_5_and_the_curators_own_frequency(eps):
    pol = ldp.make_policy("LDP-UCB-B", eps)
    q = ev.response_probabilities(pol, REN)
    e = math.exp(eps)
    np.testing.assert_allclose(q, (REN.means * e + 1 - REN.means) / (1 + e), rtol=1e-15)
    np.testing.assert_allclose(q, [mech.ctb_output_mean(mu, eps) for mu in REN.means], rtol=1e-14)
    rng = np.random.default_rng(7)
    n = 200_000
    for arm in (0, 1, 19):  # the curator's own code (respond, as the kernel calls it) on Bernoulli rewards
        freq = pol.curator.privatize(REN.sample(arm, n, rng), rng).mean()
        assert abs(freq - q[arm]) < 5 * math.sqrt(q[arm] * (1 - q[arm]) / n)


@pytest.mark.parametrize("m,q", [(1, 0.5), (2, 0.9), (12, 0.9), (20, 0.68), (52, 0.3), (52, 0.0), (7, 1.0)])
def test_bernoulli_sum_is_binomial(m, q):
    """The bit-by-bit sum of a block's responses (blocks of at most 52 pulls) has the Binomial(m, q) law."""
    rng = np.random.default_rng(11)
    x = np.array([ev.bernoulli_sum(rng, m, q) for _ in range(40_000)])
    if q in (0.0, 1.0):
        assert (x == m * q).all()
        return
    expected = stats.binom.pmf(np.arange(m + 1), m, q) * x.size
    observed = np.bincount(x, minlength=m + 1)
    keep = expected > 5
    obs, exp = observed[keep], expected[keep]
    if x.size - exp.sum() > 5:  # the rare counts, pooled
        obs, exp = np.r_[obs, x.size - obs.sum()], np.r_[exp, x.size - exp.sum()]
    assert stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue > P_MIN


def test_ucb1_response_probability_is_the_mean_and_huge_epsilon_tends_to_it():
    np.testing.assert_array_equal(ev.response_probabilities(ldp.make_policy("UCB1"), REN), REN.means)
    np.testing.assert_allclose(ev.response_probabilities(ldp.make_policy("LDP-UCB-B", 800.0), REN), REN.means)


# --- (b) the law of the per-pull engine, and the certificate's audit -------------------------------------------


@pytest.mark.parametrize("i", range(len(CONFIGS)), ids=IDS)
def test_same_law_as_the_per_pull_engine(per_pull, i):
    name, eps, inst = CONFIGS[i]
    b = event_counts(ldp.make_policy(name, eps), inst)
    pvals = law_pvalues(per_pull[i], b, inst.gaps)
    print(f"\n{IDS[i]}: (KS regret, t pulls) p-values at t = {CHECKPOINTS.tolist()}: {pvals}")
    assert law_test_passes(pvals), pvals


@pytest.mark.parametrize("audit", [ev.AUDIT_PATH, ev.AUDIT_ZEROS], ids=["path", "zeros"])
def test_certificate_audit_no_block_round_is_lost_by_the_leader(audit):
    """Every round of every block, replayed with the per-pull kernel's arithmetic (explicit responses, or all
    zeros), has the leader as the argmax; a one-pull overshoot (m + 1) is caught on both."""
    for name, eps in [("UCB1", None), ("LDP-UCB-B", 0.5)]:
        pol = ldp.make_policy(name, eps)
        for inst in (REN, THREE):
            seqs = np.random.SeedSequence(3).spawn(5)
            exact = sum(ev._run(pol, inst, T, s, CHECKPOINTS, brk=[1, 0, audit])[1] for s in seqs)
            assert exact[3] == 0 and exact[2] > T  # no round lost, in more than T pulls in blocks
            broken = sum(ev._run(pol, inst, T, s, CHECKPOINTS, brk=[1, 1, audit])[1] for s in seqs)
            assert broken[3] > 0


# --- (c) broken skips ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "brk,flag",
    [([1, 0, ev.BREAK_SHORT_DRAW], "a block of m draws Binomial(m - 1)"), ([1, 20, 0], "20 extra pulls a block")],
    ids=["short-draw", "plus-20"],
)
def test_the_law_test_rejects_a_broken_skip(per_pull, brk, flag):
    """UCB1 on 20 arms (seed 2, as the exact test): the law test rejects. Not rejected at this size, in any of
    the six configurations: m + 1 pulls (which the audit above catches), the challengers at g(t), the leader's
    mean kept at S_a/N_a, 5 m pulls, m + 10 and m + 15 pulls (m + 15 is, with seed 6). m + 20 is rejected on
    UCB1 with 20 arms with seeds 2, 4 and 6 (corrected p = 3e-5, 1e-7, 5e-5)."""
    pol, inst = ldp.make_policy("UCB1"), REN
    b = event_counts(pol, inst, brk=brk)
    pvals = law_pvalues(per_pull[0], b, inst.gaps)
    print(f"\nbroken ({flag}): {pvals}")
    assert not law_test_passes(pvals), pvals


# --- (d) bad input ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,eps,inst",
    [
        ("LDP-UCB-L", 1.0, "ren2020-bernoulli"),
        ("UCB1-S", None, "ren2020-bernoulli"),
        ("LDP-UCB-BS", 1.0, "ren2020-bernoulli"),
        ("HeLDP-UCB-B", None, "ren2020-bernoulli"),
        ("UCB1", None, "ren2020-mixed"),
        ("LDP-UCB-B", 1.0, "ren2020-gaussian"),
    ],
)
def test_refuses_other_policies_and_instances_with_one_line(name, eps, inst):
    pol = ldp.make_policy(name, epsilon_min=1.0) if name.startswith("HeLDP") else ldp.make_policy(name, eps)
    ins = ldp.make_instance(inst)
    assert not ev.event_driven_applies(pol, ins)
    with pytest.raises(ValueError, match="event-driven engine runs only UCB1 and LDP-UCB-B") as info:
        ev.run_one_event(pol, ins, 100, np.random.SeedSequence(0), np.array([100]))
    assert "\n" not in str(info.value)


def test_refuses_a_hand_made_index_policy_and_a_non_instance():
    ucb_ctl = IndexPolicy("UCB1", mech.CTL(1.0), False, False)  # the name of UCB1, the curator of LDP-UCB-L
    assert not ev.event_driven_applies(ucb_ctl, REN)
    assert not ev.event_driven_applies(ldp.make_policy("UCB1"), "ren2020-bernoulli")
    assert ev.event_driven_applies(ldp.make_policy("UCB1"), THREE)
    with pytest.raises(ValueError, match="event-driven"):
        ev.run_one_event(ucb_ctl, REN, 100, np.random.SeedSequence(0), np.array([100]))


# --- (e) determinism, (f) checkpoints, cancel ----------------------------------------------------------------


def test_same_seed_same_output_other_seed_other_output():
    pol = ldp.make_policy("LDP-UCB-B", 1.0)
    cps = ldp.log_checkpoints(50_000, 30)
    one = same_seed_same_output(lambda s: ev.run_one_event(pol, REN, 50_000, s, cps))
    assert one[1] is None and one[0].dtype == np.int64 and one[0].shape == (cps.size, 20)


@pytest.mark.parametrize("inst", [REN, THREE], ids=["20arms", "3arms"])
def test_counts_are_recorded_exactly_at_the_checkpoints(inst):
    horizon = 300_000
    for cps in checkpoint_lists(horizon):
        out, st = ev._run(ldp.make_policy("UCB1"), inst, horizon, np.random.SeedSequence(9), cps)
        assert_counts_follow_the_checkpoints(out, cps)
        assert st[1] > 0  # blocks were taken
        np.testing.assert_array_equal(out[cps <= inst.n_arms].max(axis=1), 1)  # the first K pulls: each arm once


def test_one_arm_and_a_horizon_shorter_than_the_arms():
    one = ldp.make_instance("bernoulli", means=[0.3])
    out, st = ev._run(ldp.make_policy("UCB1"), one, 10**6, np.random.SeedSequence(0), np.array([5, 10**6]))
    np.testing.assert_array_equal(out, [[5], [10**6]])
    assert st[0] <= 3
    out = ev.run_one_event(ldp.make_policy("UCB1"), REN, 7, np.random.SeedSequence(0), np.array([3, 7]))[0]
    np.testing.assert_array_equal(out, [[1] * 3 + [0] * 17, [1] * 7 + [0] * 13])


def test_a_set_cancel_flag_stops_the_run():
    flag = CancelFlag()
    flag.set()
    with pytest.raises(Cancelled):
        ev.run_one_event(ldp.make_policy("UCB1"), REN, 10**6, np.random.SeedSequence(0), np.array([10**6]), cancel=flag)


# --- the public way in: simulate(..., engine="event") ---------------------------------------------------------


def test_simulate_with_the_event_engine_runs_the_event_kernel_run_by_run():
    """Run r of ``simulate(engine="event")`` is :func:`run_one_event` on ``SeedSequence(seed).spawn(runs)[r]``,
    whatever the number of workers; the policy's repr and equality do not show the engine."""
    pol = ldp.make_policy("LDP-UCB-B", 1.0)
    res = ldp.simulate(pol, REN, T, 3, 5, checkpoints=CHECKPOINTS, workers=2, engine="event")
    for r, s in enumerate(np.random.SeedSequence(5).spawn(3)):
        np.testing.assert_array_equal(res.counts[r], ev.run_one_event(pol, REN, T, s, CHECKPOINTS)[0])
    per_pull = ldp.simulate(pol, REN, T, 3, 5, checkpoints=CHECKPOINTS, workers=1)
    assert not np.array_equal(res.counts, per_pull.counts)  # another stream: the default engine is unchanged
    assert repr(pol) == "Policy('LDP-UCB-B', epsilon=1)" and pol == ldp.make_policy("LDP-UCB-B", 1.0)


@pytest.mark.parametrize(
    "name,eps,inst,engine,match",
    [
        (
            "LDP-UCB-L",
            1.0,
            REN,
            "event",
            r"^engine 'event' runs only UCB1, LDP-UCB-B and KL-UCB, .* use engine='per-pull'",
        ),
        ("UCB1", None, ldp.make_instance("ren2020-mixed"), "event", r"^engine 'event' runs only"),
        ("UCB1", None, REN, "fast", r"^unknown engine 'fast'; known: auto, event, per-pull$"),
        ("UCB1", None, REN, None, r"^engine must be"),
    ],
)
def test_simulate_refuses_an_engine_that_does_not_apply_in_one_line_before_any_work(name, eps, inst, engine, match):
    with pytest.raises((ValueError, TypeError), match=match) as info:
        ldp.simulate(ldp.make_policy(name, eps), inst, 10**15, 2, engine=engine)  # 10**15 pulls: refused first
    assert "\n" not in str(info.value)


def test_auto_takes_the_event_engine_where_it_applies_and_the_per_pull_one_elsewhere():
    seed, cps = 9, np.array([50, 2_000])
    for name, eps, inst, engine in [("UCB1", None, THREE, "event"), ("LDP-UCB-L", 1.0, THREE, "per-pull")]:
        pol = ldp.make_policy(name, eps)
        auto = ldp.simulate(pol, inst, 2_000, 2, seed, checkpoints=cps, engine="auto")
        same = ldp.simulate(pol, inst, 2_000, 2, seed, checkpoints=cps, engine=engine)
        np.testing.assert_array_equal(auto.counts, same.counts)


@pytest.mark.parametrize("name", ["UCB1", "KL-UCB", "HeLDP-UCB-B"])
def test_the_limits_check_calls_the_event_estimate_its_worst_case(name):
    """An event-driven run is estimated at the per-pull engine's cost, its worst case, and the refusal says so
    (its real time is usually far smaller: a bare number would mislead)."""
    heldp = name.startswith("HeLDP")
    pol = ldp.make_policy(name, epsilon_min=1.0) if heldp else ldp.make_policy(name)
    levels = ldp.make_privacy_levels("ren-heldp-discrete") if heldp else None
    with pytest.raises(ValueError, match="on the event-driven engine, estimated at its worst case") as info:
        ldp.simulate(pol, REN, 10**12, 2, engine="event", privacy_levels=levels)
    assert "\n" not in str(info.value)


def test_a_policy_or_instance_of_the_wrong_type_gets_the_engines_type_error_whatever_the_engine():
    """A policy's name where the policy belongs is a TypeError naming make_policy, not 'engine event runs only
    UCB1' (which it is, by name)."""
    for engine in ("event", "auto"):
        with pytest.raises(TypeError, match="^policy must come from make_policy"):
            ldp.simulate("UCB1", REN, 100, 2, engine=engine)
        with pytest.raises(TypeError, match="^instance must come from make_instance"):
            ldp.simulate(ldp.make_policy("UCB1"), "ren2020-bernoulli", 100, 2, engine=engine)
