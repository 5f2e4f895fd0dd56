"""The exact event-driven engine of HeLDP-UCB-B (ldpcode.policies.event_heldp) against the per-pull engine.

As tests/policies/test_event.py: the two engines use different random streams, so they are compared in law, 400
runs of each at T = 2*10**4 (different seeds), a two-sample KS test on the regret and Welch t-tests on each
arm's mean pull count at two checkpoints, Bonferroni-corrected, p > 1e-3; users' levels from
``ren-heldp-discrete``, epsilon_min 0.2 and 1. The block draw is checked against its multinomial-binomial law in
each of its three regimes, and the certificate is audited round by round on per-pull draws: no round of a block
is lost by the leader, while a one-pull overshoot and the mean bound with g = 0 are caught. Seeds are fixed.
"""

import numpy as np
import pytest
from scipy import stats

import ldpcode as ldp
from event_law import (
    assert_counts_follow_the_checkpoints,
    checkpoint_lists,
    corrected_pvalue,
    law_pvalues,
    P_MIN,
    same_seed_same_output,
)
from ldpcode.limits import CancelFlag, Cancelled
from ldpcode.policies import event_heldp as eh

T = 20_000
RUNS = 400
CHECKPOINTS = np.array([T // 10, T], dtype=np.int64)
LEVELS = ldp.make_privacy_levels("ren-heldp-discrete")
REN = ldp.make_instance("ren2020-bernoulli")
THREE = ldp.make_instance("bernoulli", means=[0.7, 0.6, 0.5])
CONFIGS = [(eps_min, inst) for eps_min in (0.2, 1.0) for inst in (REN, THREE)]
IDS = [f"eps_min={e}-{inst.n_arms}arms" for e, inst in CONFIGS]


def heldp(eps_min=1.0):
    return ldp.make_policy("HeLDP-UCB-B", epsilon_min=eps_min)


def event_counts(pol, inst, brk=eh.NO_BREAK, seed=2, runs=RUNS):
    seqs = np.random.SeedSequence(seed).spawn(runs)
    return np.stack([eh._run(pol, inst, T, s, CHECKPOINTS, LEVELS, brk=brk)[0] for s in seqs])


# --- the law of the per-pull engine -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def per_pull():
    """The per-pull engine's counts for every configuration (seed 1), shared by the law tests."""
    return [
        ldp.simulate(
            heldp(e), inst, T, RUNS, 1, checkpoints=CHECKPOINTS, privacy_levels=LEVELS, workers=1, progress=False
        ).counts
        for e, inst in CONFIGS
    ]


@pytest.mark.parametrize("i", range(len(CONFIGS)), ids=IDS)
def test_same_law_as_the_per_pull_engine(per_pull, i):
    eps_min, inst = CONFIGS[i]
    pvals = law_pvalues(per_pull[i], event_counts(heldp(eps_min), inst), inst.gaps)
    corrected = corrected_pvalue(pvals)
    print(
        f"\n{IDS[i]}: (KS regret, t pulls) p-values at t = {CHECKPOINTS.tolist()}: {pvals}; corrected {corrected:.3g}"
    )
    assert corrected > P_MIN, pvals


def test_the_law_test_rejects_20_extra_pulls_a_block(per_pull):
    """What the law test can see at this size: 20 extra pulls a block at epsilon_min = 1 on 20 arms (corrected
    p = 7e-5). It does not reject m + 5 or 2m pulls, nor the mean bounded with g = 0, in any of the four
    configurations, nor m + 20 in the other three: the audit below is what checks the certificate."""
    pvals = law_pvalues(per_pull[2], event_counts(heldp(1.0), REN, brk=[1, 20, 0]), REN.gaps)
    print(f"\nbroken (m + 20): {pvals}")
    assert corrected_pvalue(pvals) < P_MIN, pvals


@pytest.mark.parametrize("m", [1, 3, 40, 41, 52, 90, 105, 400], ids=lambda m: f"m={m}")
def test_a_block_draw_has_the_multinomial_binomial_law(m):
    """The m users' cells and responses of one block (one uniform a user, lanes of 52 users in one or two
    chunks, sequential binomials): the kept count, the count of level 0.2, the 1-responses at each level and in
    all are Binomial(m, p) with p the per-pull probability (5 chi-square tests, Bonferroni)."""
    pol, inst, arm, reps = heldp(0.2), THREE, 1, 8000
    tab = eh.level_tables(pol, inst, LEVELS)
    q, joint, gv, bv, cum, cond = tab
    nc, scr = cum.size, eh.scratch(tab)
    state = (np.zeros(3, np.int64), *(np.zeros(3) for _ in range(4)))
    rng = np.random.default_rng(m)
    draws = np.empty((reps, 2 * nc - 1), np.int64)
    for k in range(reps):
        eh._block(rng, m, arm, tab, scr, state)
        draws[k, :nc], draws[k, nc:] = scr[0], scr[1]
    assert (draws[:, :nc].sum(axis=1) == m).all() and (draws[:, nc:] <= draws[:, 1:nc]).all()
    pi = LEVELS.probs[LEVELS.values >= 0.2]
    checks = [(m - draws[:, 0], pi.sum()), (draws[:, 1], pi[0]), (draws[:, nc:].sum(axis=1), pi @ q[arm])]
    checks += [(draws[:, nc + lv], pi[lv] * q[arm, lv]) for lv in (0, 3)]
    pvals = []
    for x, p in checks:
        expected = stats.binom.pmf(np.arange(m + 1), m, p) * reps
        observed = np.bincount(x, minlength=m + 1)
        keep = expected > 5
        obs, exp = observed[keep], expected[keep]
        if reps - exp.sum() > 5:  # the rare counts, pooled
            obs, exp = np.r_[obs, reps - obs.sum()], np.r_[exp, reps - exp.sum()]
        pvals.append(stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue)
    assert min(pvals) * len(pvals) > P_MIN, pvals
    # the state follows the counts: N_a, s_a and B_a of the last draw and of all draws
    kept, sums, acc, means, widths = state
    assert kept[arm] == (m - draws[:, 0]).sum() and kept[0] == kept[2] == 0
    assert acc[arm] == pytest.approx((draws[:, 1:nc] * bv).sum(), rel=1e-12)
    s = (draws[:, nc:] * gv[:, 1] + (draws[:, 1:nc] - draws[:, nc:]) * gv[:, 0]).sum()
    assert sums[arm] == pytest.approx(s, rel=1e-9, abs=1e-6)
    assert means[arm] == sums[arm] / kept[arm] and widths[arm] == np.sqrt(2 * acc[arm]) / kept[arm]


# --- the certificate's audit ----------------------------------------------------------------------------------


@pytest.mark.parametrize("eps_min", [0.2, 1.0])
def test_audit_no_block_round_is_lost_and_the_breaks_are_caught(eps_min):
    """Each block played pull by pull on per-pull draws, the leader checked against the per-pull kernel's
    argmax (arithmetic and tie rule) at every round: never lost with the certificate, lost with m + 1 pulls and
    with the mean bounded with g = 0 instead of g_- (the negative unbiased response)."""
    pol = heldp(eps_min)
    for inst in (REN, THREE):
        seqs = np.random.SeedSequence(3).spawn(5)
        audit = {
            name: sum(eh._run(pol, inst, T, s, CHECKPOINTS, LEVELS, brk=brk)[1] for s in seqs)
            for name, brk in [
                ("exact", [1, 0, eh.AUDIT]),
                ("m + 1", [1, 1, eh.AUDIT]),
                ("g = 0", [1, 0, eh.AUDIT | eh.BREAK_MEAN_G0]),
            ]
        }
        print(f"\neps_min={eps_min}, {inst.n_arms} arms: [steps, blocks, pulls in blocks, rounds lost] {audit}")
        assert audit["exact"][3] == 0 and audit["exact"][2] > T  # no round lost, in more than T pulls in blocks
        assert audit["m + 1"][3] > 0 and audit["g = 0"][3] > 0


def test_certified_length_is_the_largest_certified_block_or_close():
    """certified_length returns m in [1, room] with F(N_a + m - 1) > τ if m >= 2 and, on 2000 random states, the
    largest certified m is below m + m/15 + 2 (the tangent root of a convex F, or a bisection within 1/16)."""
    rng = np.random.default_rng(4)
    for _ in range(2000):
        na = float(rng.integers(1, 10**6))
        sa = na * rng.uniform(-0.5, 1.5)
        ba = na * rng.uniform(1.0, 100.0)
        gm, bm, gt = -rng.uniform(0, 5), 1.0, np.sqrt(np.log(rng.uniform(na, 1e9)))
        m0 = sa / na + gt * np.sqrt(2 * ba) / na - rng.uniform(0, 0.01)
        slope, room = rng.uniform(0, 1e-6), int(rng.integers(2, 10**6))
        m = eh.certified_length(na, sa, ba, gm, bm, gt, m0, slope, room)
        assert 1 <= m <= room
        if m >= 2:
            assert eh._margin(na + m - 1, na, sa, ba, gm, bm, gt, m0, slope) > 0
        if m < room and eh._margin(na + m, na, sa, ba, gm, bm, gt, m0, slope) > 0:
            assert eh._margin(na + m + m // 15 + 1, na, sa, ba, gm, bm, gt, m0, slope) <= 0


# --- bad input ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pol,inst,levels",
    [
        (ldp.make_policy("HeLDP-UCB-L", epsilon_min=1.0), REN, LEVELS),
        (ldp.make_policy("HeLDP-UCB-BS", epsilon_min=1.0), REN, LEVELS),
        (ldp.make_policy("LDP-UCB-B", 1.0), REN, LEVELS),
        (heldp(), ldp.make_instance("ren2020-mixed"), LEVELS),
        (heldp(), ldp.make_instance("ren2020-gaussian"), LEVELS),
        (heldp(), REN, ldp.make_privacy_levels("ren-heldp-gaussian")),
        (heldp(), REN, ldp.make_privacy_levels("sampler", sampler=lambda rng, size: np.full(size, 2.0))),
        (heldp(), REN, None),
        (heldp(1.5), REN, ldp.make_privacy_levels("discrete", values=[0.5, 1.0])),  # every user discarded
        (heldp(), "ren2020-bernoulli", LEVELS),
    ],
    ids=[
        "HeLDP-UCB-L",
        "HeLDP-UCB-BS",
        "LDP-UCB-B",
        "mixed",
        "gaussian",
        "gaussian-levels",
        "sampler",
        "none",
        "all-discarded",
        "not-an-instance",
    ],  # fmt: skip
)
def test_refuses_what_it_cannot_run_with_one_line(pol, inst, levels):
    assert not eh.heldp_event_applies(pol, inst, levels)
    for call in (
        lambda: eh.heldp_event_driven(pol, inst, levels),
        lambda: eh.run_one_heldp_event(
            pol, inst, 100, np.random.SeedSequence(0), np.array([100]), privacy_levels=levels
        ),
    ):
        with pytest.raises(ValueError, match="^the event-driven HeLDP engine runs only HeLDP-UCB-B") as info:
            call()
        assert "\n" not in str(info.value)


def test_the_event_policy_refuses_other_levels_in_simulate_before_any_work():
    ev = eh.heldp_event_driven(heldp(), REN, LEVELS)
    with pytest.raises(ValueError, match="^the event-driven HeLDP engine") as info:
        ldp.simulate(ev, REN, 10**15, 2, privacy_levels=ldp.make_privacy_levels("ren-heldp-gaussian"))
    assert "\n" not in str(info.value)


# --- determinism, checkpoints, simulate, cancel ------------------------------------------------------------------


def test_same_seed_same_output_other_seed_other_output():
    cps = ldp.log_checkpoints(50_000, 30)
    one = same_seed_same_output(lambda s: eh.run_one_heldp_event(heldp(), REN, 50_000, s, cps, privacy_levels=LEVELS))
    assert one[1] is None and one[0].dtype == np.int64 and one[0].shape == (cps.size, 20)


@pytest.mark.parametrize("inst", [REN, THREE], ids=["20arms", "3arms"])
def test_counts_are_recorded_exactly_at_the_checkpoints(inst):
    horizon = 300_000
    for cps in checkpoint_lists(horizon):
        out, st = eh._run(heldp(), inst, horizon, np.random.SeedSequence(9), cps, LEVELS)
        assert_counts_follow_the_checkpoints(out, cps)
        assert st[1] > 0 and st[2] > horizon // 2


def test_one_arm_and_a_horizon_shorter_than_the_arms():
    one = ldp.make_instance("bernoulli", means=[0.3])
    out, st = eh._run(heldp(), one, 10**6, np.random.SeedSequence(0), np.array([5, 10**6]), LEVELS)
    np.testing.assert_array_equal(out, [[5], [10**6]])
    assert st[0] <= 3
    out = eh.run_one_heldp_event(heldp(), REN, 7, np.random.SeedSequence(0), np.array([3, 7]), privacy_levels=LEVELS)
    assert out[0].sum(axis=1).tolist() == [3, 7]


def test_simulate_runs_the_event_kernel_run_by_run_and_the_repr_is_the_policys():
    pol = heldp()
    ev = eh.heldp_event_driven(pol, REN, LEVELS)
    assert repr(ev) == repr(pol) == "Policy('HeLDP-UCB-B', epsilon_min=1)" and ev.name == pol.name
    res = ldp.simulate(ev, REN, T, 3, 5, checkpoints=CHECKPOINTS, privacy_levels=LEVELS, workers=2, progress=False)
    for r, s in enumerate(np.random.SeedSequence(5).spawn(3)):
        expected = eh.run_one_heldp_event(pol, REN, T, s, CHECKPOINTS, privacy_levels=LEVELS)[0]
        np.testing.assert_array_equal(res.counts[r], expected)
    assert res.name == "HeLDP-UCB-B" and res.epsilon == 1.0 and res.counts.shape == (3, 2, 20)


def test_a_set_cancel_flag_stops_the_run():
    flag = CancelFlag()
    flag.set()
    with pytest.raises(Cancelled):
        eh.run_one_heldp_event(
            heldp(), REN, 10**6, np.random.SeedSequence(0), np.array([10**6]), privacy_levels=LEVELS, cancel=flag
        )
