"""ldpcode.audit, ε-global DP of Algorithm 1 (Azize and Basu 2022): Lemma 1's release and its exact loss,
fixed reward inputs, the output space of Algorithm 1, the action-sequence audit (it passes for AdaP-UCB and
FAILS for broken variants), traces of one run and the episode structure (Figure 1)."""

import math

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import audit
from ldpcode.global_policies import Blocks
from ldpcode.simulate import run_streams

TWO = ldp.make_instance("bernoulli", means=[0.75, 0.5])


def example2_blocks():
    # Example 2 / Figure 1: arms 1, 2 once; then arm 1 (1 step), arm 1 (2), arm 2 (1), arm 1 (4); T = 10
    return Blocks(2, [0, 2, 3, 5, 6], [(0, 1), (0,), (0,), (1,), (0,)], [2, 1, 2, 1, 4])


# ---------------------------------------------------------------- Lemma 1


def test_lemma1_privacy_loss_by_hand():
    r = [0, 1, 1, 0, 1]  # sub-sequences [r1], [r2, r3], [r4, r5]
    flip = [0, 1, 0, 0, 1]  # r3: 1 -> 0, the mean of [r2, r3] moves by 1/2, its scale is 1/(2 eps)
    assert audit.lemma1_privacy_loss(r, flip, [2, 4], 0.7) == pytest.approx([0.0, 0.7, 0.0])
    part = [0, 1, 0.7, 0, 1]  # |r3 - r3'| = 0.3 -> loss 0.3 eps whatever the length
    assert audit.lemma1_privacy_loss(r, part, [2, 4], 2.0) == pytest.approx([0.0, 0.6, 0.0])
    first = [1, 1, 1, 0, 1]  # r1 alone: shift 1, scale 1/eps
    assert audit.lemma1_privacy_loss(r, first, [2, 4], 1.5) == pytest.approx([1.5, 0.0, 0.0])


def test_lemma1_log_density_ratio_by_hand_and_its_sup():
    r, rp, starts, eps = [0, 1, 1, 0, 1], [0, 1, 0, 0, 1], [2, 4], 1.0
    # means (0, 1, 1/2) and (0, 1/2, 1/2); m = (1, 2, 2); at x = (0, 0.75, 0): 2 (|0.75 - 0.5| - |0.75 - 1|) = 0
    assert audit.lemma1_log_density_ratio([0, 0.75, 0], r, rp, starts, eps) == pytest.approx(0.0)
    # at x2 = 2 (beyond both means): 2 (1.5 - 1) = +1 = eps; at x2 = -3: 2 (3.5 - 4) = -1
    assert audit.lemma1_log_density_ratio([[5, 2, 0], [0, -3, 9]], r, rp, starts, eps) == pytest.approx([1.0, -1.0])
    with pytest.raises(ValueError, match="last axis"):
        audit.lemma1_log_density_ratio([0, 1], r, rp, starts, eps)


def test_lemma1_release_locations_and_scales():
    r, eps = np.array([0, 1, 1, 0, 1.0]), 0.5
    x = audit.lemma1_release(r, [2, 4], eps, 200_000, np.random.default_rng(1))
    assert x.shape == (200_000, 3)
    assert np.median(x, axis=0) == pytest.approx([0, 1, 0.5], abs=0.02)
    # E|Lap(b)| = b = 1/(eps m) with m = (1, 2, 2)
    assert np.abs(x - np.median(x, axis=0)).mean(axis=0) == pytest.approx([2.0, 1.0, 1.0], rel=0.02)


@pytest.mark.parametrize("starts", [[1, 3], [3, 2], [2, 9], [[2, 3]], [2.5]])
def test_lemma1_rejects_bad_starts(starts):
    with pytest.raises(ValueError, match="starts"):
        audit.lemma1_release([0, 1, 0, 1], starts, 1.0, 3, np.random.default_rng(0))


def test_lemma1_rejects_unbounded_rewards():
    with pytest.raises(ValueError, match=r"rewards must be in \[0, 1\], got 1.5 at index 1"):
        audit.lemma1_release([0, 1.5, 0], [2], 1.0, 3, np.random.default_rng(0))


# ---------------------------------------------------------------- fixed inputs and the output space


def test_fixed_reward_sampler_step_and_table_by_hand():
    s = audit.FixedRewardSampler([1, 0, 1, 1, 0, 1])
    assert [s(0, 1), s(1, 1), s(0, 2), s(1, 1)] == [1, 0, 2, 0]  # steps 1 | 2 | 3-4 | 5
    t = audit.FixedRewardSampler([[1, 0, 1, 1], [0, 1, 1, 0]], model="table")
    assert [t(0, 1), t(1, 1), t(0, 2), t(1, 2)] == [1, 0, 1, 2]  # arm 0 pulls 1 | 2-3, arm 1 pulls 1 | 2-3
    with pytest.raises(ValueError, match="ran out"):
        t(0, 2)
    with pytest.raises(ValueError, match="model"):
        audit.FixedRewardSampler([0, 1], model="time")


def test_action_sequence_and_output_space_by_hand():
    assert audit.action_sequence(example2_blocks()) == "0100010000"
    assert audit.algorithm1_action_sequences(2, 4) == ["0100", "0101", "0110", "0111"]
    assert audit.algorithm1_action_sequences(2, 5) == ["01000", "01010", "01011", "01100", "01101", "01111"]
    assert "0100010000" in audit.algorithm1_action_sequences(2, 10)


def test_real_runs_stay_in_the_output_space():
    space = set(audit.algorithm1_action_sequences(3, 20))
    pol = ldp.make_policy("AdaP-UCB", epsilon=1.0)
    inst = ldp.make_instance("bernoulli", means=[0.6, 0.5, 0.4])
    for ss in np.random.SeedSequence(5).spawn(200):
        assert audit.action_sequence(pol.run(inst, 20, *run_streams(ss))) in space


# ---------------------------------------------------------------- the audit (Theorem 6)


def _first_choice_probability(eps, noise=1.0):
    """T = 3, rewards r = (0, 0, 0) vs r' = (1, 0, 0): at t_1 = 3 both arms have m = 1, so the same bonus,
    and arm 2 is chosen iff r_1 + noise L_1/eps < r_2 + noise L_2/eps. With D = L_1 - L_2 (density
    (1 + |x|) e^{-|x|}/4), P{D > x} = (2 + x) e^{-x}/4 for x >= 0: under r the probability is 1/2, under r'
    it is P{D > eps/noise}."""
    x = eps / noise
    return 0.5, (2 + x) * math.exp(-x) / 4


@pytest.mark.parametrize("eps", [0.5, 1.0])
def test_audit_matches_the_exact_two_step_law_and_passes(eps):
    pol = ldp.make_policy("AdaP-UCB", epsilon=eps)
    r, rp = np.zeros(3), np.array([1.0, 0, 0])
    res = audit.action_sequence_audit(pol, TWO, r, rp, 3, 20_000, 11, outputs=["010", "011"])
    p, q = _first_choice_probability(eps)
    exact = math.log(p / q)  # log pi('011'|r) / pi('011'|r')
    assert exact < eps
    assert res.log_ratio[1] == pytest.approx(exact, abs=4 * res.se[1])
    assert res.lower[1] <= exact <= res.upper[1]
    assert res.counts_a.sum() == res.counts_b.sum() == 20_000
    assert not res.violation and res.max_lower <= eps


def test_audit_fails_for_halved_noise_exactly_where_the_law_says():
    eps = 1.0
    bad = audit.broken_policy("AdaP-UCB", eps, "noise-halved")
    r, rp = np.zeros(3), np.array([1.0, 0, 0])
    res = audit.action_sequence_audit(bad, TWO, r, rp, 3, 20_000, 11, outputs=["010", "011"])
    p, q = _first_choice_probability(eps, noise=0.5)
    assert math.log(p / q) == pytest.approx(math.log(0.5 * math.exp(2)))  # 1.307 > eps
    assert res.log_ratio[1] == pytest.approx(math.log(p / q), abs=4 * res.se[1])
    assert res.violation and res.max_lower > eps and res.sequences[res.argmax] == "011"


@pytest.mark.slow
def test_audit_at_t12_passes_for_adap_ucb_and_fails_for_broken_variants():
    T = 12
    r, rp = np.zeros(T), np.r_[1.0, np.zeros(T - 1)]
    space = audit.algorithm1_action_sequences(2, T)
    ok = audit.action_sequence_audit(ldp.make_policy("AdaP-UCB", epsilon=1.0), TWO, r, rp, T, 6000, 3, outputs=space)
    assert not ok.violation
    halved = audit.action_sequence_audit(
        audit.broken_policy("AdaP-UCB", 1.0, "noise-halved"), TWO, r, rp, T, 6000, 3, outputs=space
    )
    assert halved.violation and halved.max_lower > 1.2
    # no forgetting: r_1 enters every later release of arm 1; visible at eps = 2 (loss up to 2 eps)
    stale = audit.action_sequence_audit(
        audit.broken_policy("AdaP-UCB", 2.0, "no-forgetting"), TWO, r, rp, T, 25_000, 3, outputs=space
    )
    assert stale.violation


def test_table_model_gives_the_same_runs_when_the_change_is_arm_1_first_pull():
    # Step 1 is always arm 1's first pull, so r^T = (x, 0, ..., 0) and the table with x at [0, 0] give the
    # same observed rewards for every action sequence, hence the same runs with the same seed.
    T = 12
    pol = ldp.make_policy("AdaP-UCB", epsilon=1.0)
    step = audit.action_sequence_audit(pol, TWO, np.zeros(T), np.r_[1.0, np.zeros(T - 1)], T, 500, 4)
    table = np.zeros((2, T))
    table2 = table.copy()
    table2[0, 0] = 1
    tab = audit.action_sequence_audit(pol, TWO, table, table2, T, 500, 4, model="table")
    assert step.sequences == tab.sequences
    assert np.array_equal(step.counts_a, tab.counts_a) and np.array_equal(step.counts_b, tab.counts_b)


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(neighbour=np.ones(12)), "exactly one entry"),
        (dict(neighbour=np.zeros(12)), "exactly one entry"),
        (dict(model="time"), "model"),
        (dict(horizon=20), "at least horizon"),
        (dict(outputs=["010000000000"]), "not in outputs"),
    ],
)
def test_audit_rejects_bad_input(kw, match):
    args = dict(
        policy=ldp.make_policy("AdaP-UCB", epsilon=1.0),
        instance=TWO,
        rewards=np.zeros(12),
        neighbour=np.r_[1.0, np.zeros(11)],
        horizon=12,
        runs=50,
        seed=0,
    )
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        audit.action_sequence_audit(**args)


def test_broken_policy_rejects_unknown_flaw_and_name():
    with pytest.raises(ValueError, match="flaw"):
        audit.broken_policy("AdaP-UCB", 1.0, "no-noise")
    with pytest.raises(ValueError, match="name"):
        audit.broken_policy("DP-SE", 1.0, "noise-halved")


# ---------------------------------------------------------------- traces (Example 2)


def test_trace_private_means_use_the_last_episode_only():
    pol = ldp.make_policy("AdaP-UCB", epsilon=0.8)
    rewards = np.random.default_rng(2).integers(0, 2, 64).astype(float)
    tr = audit.traced_run(pol, TWO, 64, None, np.random.default_rng(3), sampler=audit.FixedRewardSampler(rewards))
    rows = audit.decision_table(tr)
    assert len(rows) == 2 * (len(tr.blocks.start) - 1)
    for row in rows:
        window = rewards[row["first"] - 1 : row["last"]]
        assert row["m"] == window.size and row["episode_mean"] == pytest.approx(window.mean())
        assert row["noise_scale"] == pytest.approx(1 / (0.8 * row["m"]))
        assert row["private_mean"] == row["recomputed"]
        assert row["last"] < row["t_l"]
    # the window of each arm is its LAST episode: the next episode of that arm starts after the decision
    assert sum(r["chosen"] for r in rows) == len(tr.blocks.start) - 1


def test_non_forgetting_variant_releases_running_means():
    pol = audit.broken_policy("AdaP-UCB", 1.0, "no-forgetting")
    tr = audit.traced_run(pol, TWO, 40, *run_streams(np.random.SeedSequence(8)))
    rows = audit.decision_table(tr)
    for row in rows:
        assert row["private_mean"] == pytest.approx(row["all_mean"] + row["draw"] * row["noise_scale"])
    assert any(abs(r["private_mean"] - r["recomputed"]) > 1e-9 for r in rows)


# ---------------------------------------------------------------- episode structure (Figure 1)


def test_episode_lengths_and_doubling_by_hand():
    b = example2_blocks()
    assert audit.arm_episode_lengths(b) == [[1, 1, 2, 4], [1, 1]]
    assert audit.doubling_violations(b, 10) == 0
    assert audit.doubling_violations(b, 11) == 1  # lengths add up to 10
    cut = Blocks(2, [0, 2, 3, 5, 6], [(0, 1), (0,), (0,), (1,), (0,)], [2, 1, 2, 1, 3])
    assert audit.doubling_violations(cut, 9) == 0  # the last episode may be cut by the horizon
    bad = Blocks(2, [0, 2, 3, 6], [(0, 1), (0,), (0,), (1,)], [2, 1, 3, 1])
    assert audit.doubling_violations(bad, 7) == 1  # arm 1's second episode has 3 pulls, not 2


def test_episode_bound_by_hand_and_on_runs():
    assert audit.algorithm1_episode_bound(2, 8) == pytest.approx(2 * 2 + 2 + 1)
    assert audit.algorithm1_episode_bound(5, 10**7) <= 5 * (math.log2(10**7 / 5) + 2)
    inst = ldp.make_instance("bernoulli", means=[0.9, 0.9, 0.9])
    pol = ldp.make_policy("AdaP-UCB", epsilon=1.0)
    for ss in np.random.SeedSequence(1).spawn(30):
        b = pol.run(inst, 5000, *run_streams(ss))
        assert audit.doubling_violations(b, 5000) == 0
        assert len(b.start) - 1 + 3 <= audit.algorithm1_episode_bound(3, 5000)
        assert b.releases == len(b.start) - 1 + 3 - 1  # one private mean per episode but the last
    with pytest.raises(ValueError, match="horizon"):
        audit.algorithm1_episode_bound(5, 3)


def test_lemma1_audit_tails_are_exactly_eps_and_estimates_agree():
    r = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0.0])
    rp = r.copy()
    rp[7] = 0  # step 8, in the window [7, 10] of length 4
    res = audit.lemma1_audit(r, rp, [2, 3, 4, 6, 7, 11], 1.0, 100_000, np.random.default_rng(0))
    assert res.coordinate == 5 and res.locations == (0.5, 0.25) and res.scale == 0.25
    assert res.exact_loss == pytest.approx([0, 0, 0, 0, 0, 1, 0])
    ex = res.exact_bin_log_ratio
    # r has the larger mean: below both locations the ratio is e^{-eps}, above both e^{+eps}
    assert ex[0] == pytest.approx(-1.0) and ex[-1] == pytest.approx(1.0)
    assert np.all(np.abs(ex) <= 1 + 1e-12)
    b = res.binned
    assert b.edges[1] == pytest.approx(0.25 - 0.75) and b.edges[-2] == pytest.approx(0.5 + 0.75)
    z = (b.log_ratio - ex) / b.se
    assert np.all(np.abs(z) < 5)
    assert b.max_lower <= 1.0 and res.others_max_lower < 0.2


def test_lemma1_audit_rejects_non_neighbours():
    with pytest.raises(ValueError, match="exactly one step"):
        audit.lemma1_audit([0, 1, 0], [1, 0, 0], [2], 1.0, 10, np.random.default_rng(0))


def test_first_decision_log_ratio_by_hand():
    # UCB: log(1/2) - log((2 + eps) e^-eps / 4) = eps - log(1 + eps/2)
    assert audit.first_decision_log_ratio("AdaP-UCB", 1.0) == pytest.approx(math.log(0.5 / (3 * math.exp(-1) / 4)))
    assert audit.first_decision_log_ratio("AdaP-KLUCB", 2.0) == 2.0
    with pytest.raises(ValueError, match="alpha log 3"):
        audit.first_decision_log_ratio("AdaP-KLUCB", 4.0)
    with pytest.raises(ValueError, match="name"):
        audit.first_decision_log_ratio("DP-SE", 1.0)


@pytest.mark.parametrize("name, eps", [("AdaP-UCB", 2.0), ("AdaP-KLUCB", 1.0), ("AdaP-KLUCB", 2.0)])
def test_event_log_ratio_matches_the_exact_first_decision(name, eps):
    T = 3
    pol = ldp.make_policy(name, epsilon=eps)
    res = audit.action_sequence_audit(
        pol, TWO, np.zeros(T), np.r_[1.0, np.zeros(T - 1)], T, 20_000, 21, outputs=["010", "011"]
    )
    est, se = res.event_log_ratio("011")
    assert est == pytest.approx(res.log_ratio[1])
    assert est == pytest.approx(audit.first_decision_log_ratio(name, eps), abs=4 * se)
    assert se < 0.12
    with pytest.raises(ValueError, match="seen"):
        res.event_log_ratio("00")
