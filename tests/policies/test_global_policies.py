"""The ε-global DP policies of Azize and Basu (2022): fast paths against the plain step-by-step versions,
the episode bookkeeping, the mechanisms they use, hand-computed constants and every validation error."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import ldpcode as ldp
from ldpcode import global_policies as gp
from ldpcode import mechanisms as mech
from ldpcode.reference import run_reference_global
from ldpcode.simulate import run_streams

FIG2 = [0.75, 0.625, 0.5, 0.375, 0.25]


def _policy(name, eps=2.0, **kw):
    return ldp.make_policy(name, None if name == "KL-UCB" else eps, **kw)


# ---------------------------------------------------------------------------------------------------
# Fast path == plain step-by-step version, draw for draw
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,kw,horizon",
    [
        ("AdaP-UCB", {}, 3000),
        ("AdaP-KLUCB", {}, 3000),
        ("DP-UCB", {}, 3000),
        ("DP-UCB", {}, 40_000),  # two engine chunks, and windows of rounds longer than the shortest (ldpcode.kit)
        ("KL-UCB", {}, 3000),
        ("DP-SE", {"beta": 0.5}, 20000),  # a large beta so that several epochs end within the horizon
    ],
)
def test_stepwise_fast_path_pulls_the_same_arms_as_the_reference(name, kw, horizon):
    inst = ldp.make_instance("bernoulli", means=[0.7, 0.5, 0.45])
    pol = _policy(name, **kw)
    cp = ldp.log_checkpoints(horizon, 40)
    distinct = set()
    for ss in np.random.SeedSequence(11).spawn(6):
        ref = run_reference_global(pol, inst, horizon, ss, cp)
        stepwise = {"sampler": "stepwise"} if pol.episodic else {}  # DP-UCB and KL-UCB always step
        fast, _ = pol.run_one(inst, horizon, ss, cp, **stepwise)
        np.testing.assert_array_equal(fast, ref)
        distinct.add(tuple(ref[-1]))
    assert len(distinct) > 1  # the runs differ, so the comparison is not vacuous


def test_dp_se_reference_really_eliminates_within_the_coupling_horizon():
    inst = ldp.make_instance("bernoulli", means=[0.7, 0.5, 0.45])
    pol = _policy("DP-SE", beta=0.5)
    blocks = pol.run(inst, 20000, *run_streams(np.random.SeedSequence(3)), sampler="stepwise")
    assert len(blocks.start) >= 3 and len(blocks.arms[-1]) < 3


def test_reference_on_other_bounded_families():
    inst = ldp.make_instance("ren2020-mixed")
    pol = _policy("AdaP-UCB")
    cp = ldp.log_checkpoints(2000, 20)
    ss = np.random.SeedSequence(4)
    np.testing.assert_array_equal(
        pol.run_one(inst, 2000, ss, cp, sampler="stepwise")[0], run_reference_global(pol, inst, 2000, ss, cp)
    )


# ---------------------------------------------------------------------------------------------------
# The exact episode sampler (one Binomial per episode) against the step-by-step one, in distribution
# ---------------------------------------------------------------------------------------------------


def _regret_area(pol, inst, horizon, runs, seed, sampler):
    """Per run, the sum of the pseudo-regret over 40 log-spaced checkpoints: a statistic of the whole path
    (the final counts alone take few values, because episodes double)."""
    cp = ldp.log_checkpoints(horizon, 40)
    out = []
    for ss in np.random.SeedSequence(seed).spawn(runs):
        out.append((pol.run_one(inst, horizon, ss, cp, sampler=sampler)[0] @ inst.gaps).sum())
    return np.array(out)


@pytest.mark.parametrize("name", ["AdaP-UCB", "AdaP-KLUCB", "DP-SE"])
def test_exact_sampler_matches_stepwise_in_distribution(name):
    # DP-SE eliminates only gaps above 2^-e: wide gaps, so that the epoch of each elimination varies
    # (gaps of exactly 2^-1 and 2^-2 are eliminated in epoch 1 or 2, 2 or 3, about half the time each)
    inst = ldp.make_instance("bernoulli", means=[0.75, 0.5, 0.25] if name == "DP-SE" else [0.6, 0.5, 0.4])
    kw = {"beta": 0.5} if name == "DP-SE" else {}
    pol = _policy(name, eps=1.0, **kw)
    horizon = 30_000
    a = _regret_area(pol, inst, horizon, 300, 1, "exact")
    b = _regret_area(pol, inst, horizon, 300, 2, "stepwise")
    assert np.unique(a).size >= (3 if name == "DP-SE" else 20)  # the statistic varies
    assert stats.ks_2samp(a, b).pvalue > 1e-3
    assert abs(a.mean() - b.mean()) < 4 * math.hypot(a.std(ddof=1), b.std(ddof=1)) / math.sqrt(300)


def test_distribution_check_detects_a_wrong_sampler():
    """The test above can fail: a sampler whose Binomial uses the wrong mean is caught."""
    inst = ldp.make_instance("bernoulli", means=[0.6, 0.5, 0.4])
    pol = _policy("AdaP-UCB", eps=1.0)
    rng = np.random.default_rng(9)
    wrong = lambda arm, n: rng.binomial(n, min(1.0, inst.arms[arm].p0 + 0.05 * arm))  # noqa: E731
    a = _regret_area(pol, inst, 30_000, 300, 1, "stepwise")
    b = _regret_area(pol, inst, 30_000, 300, 2, wrong)
    assert stats.ks_2samp(a, b).pvalue < 1e-3


# ---------------------------------------------------------------------------------------------------
# Episodes, blocks and releases
# ---------------------------------------------------------------------------------------------------


def _expand(blocks, horizon):
    """The arm pulled at each step, written out from the blocks (round-robin inside a block)."""
    seq = []
    for s, arms, n in zip(blocks.start, blocks.arms, blocks.length):
        assert s == len(seq)
        seq.extend(arms[i % len(arms)] for i in range(n))
    assert len(seq) == horizon
    return np.array(seq)


@pytest.mark.parametrize("name", ["AdaP-UCB", "DP-SE"])
def test_counts_at_checkpoints_are_exact(name):
    inst = ldp.make_instance("bernoulli", means=FIG2)
    pol = _policy(name, eps=1.0, **({"beta": 0.3} if name == "DP-SE" else {}))
    horizon = 50_000
    blocks = pol.run(inst, horizon, *run_streams(np.random.SeedSequence(5)))
    seq = _expand(blocks, horizon)
    cp = np.unique(np.r_[1, 2, 5, 7, 100, 1234, 9999, np.arange(1, horizon + 1, 997), horizon])
    got = blocks.counts_at(cp)
    for c, row in zip(cp, got):
        np.testing.assert_array_equal(row, np.bincount(seq[:c], minlength=5))


def test_adap_episodes_double_per_arm_and_releases_are_logarithmic():
    inst = ldp.make_instance("bernoulli", means=FIG2)
    horizon = 10**6
    pol = _policy("AdaP-KLUCB", eps=1.0)
    blocks = pol.run(inst, horizon, *run_streams(np.random.SeedSequence(8)))
    assert blocks.arms[0] == tuple(range(5)) and blocks.length[0] == 5
    per_arm = {a: [1] for a in range(5)}  # the initial pull is each arm's first episode
    for arms, n in zip(blocks.arms[1:], blocks.length[1:]):
        per_arm[arms[0]].append(n)
    last = blocks.arms[-1][0]
    for a, lengths in per_arm.items():
        full = lengths[:-1] if a == last else lengths
        assert full == [1] + [2**i for i in range(len(full) - 1)]  # 1, 1, 2, 4, ...: N_a doubles
    assert blocks.releases == len(blocks.start) - 1 + 5 - 1  # every episode but the truncated last
    assert blocks.releases <= 5 * (math.log2(horizon / 5) + 2)


def test_trace_records_the_indexes_of_each_decision():
    inst = ldp.make_instance("bernoulli", means=[0.7, 0.3])
    pol = _policy("AdaP-UCB", eps=1.0)
    blocks = pol.run(inst, 100, *run_streams(np.random.SeedSequence(1)), trace=True)
    assert len(blocks.indexes) == len(blocks.start) - 1
    for u, arms in zip(blocks.indexes, blocks.arms[1:]):
        assert arms[0] == int(np.argmax(u))


def test_simulate_reports_releases_and_is_independent_of_workers():
    inst = ldp.make_instance("bernoulli", means=FIG2)
    for name in ("AdaP-UCB", "DP-SE", "DP-UCB"):
        pol = _policy(name, eps=1.0)
        r1 = ldp.simulate(pol, inst, 20_000, runs=4, seed=3, workers=1)
        r2 = ldp.simulate(pol, inst, 20_000, runs=4, seed=3, workers=2)
        np.testing.assert_array_equal(r1.counts, r2.counts)
        np.testing.assert_array_equal(r1.releases, r2.releases)
        assert r1.releases.shape == (4,)
    assert (ldp.simulate(_policy("DP-UCB", eps=1.0), inst, 1000, runs=2, seed=0).releases == 1000).all()


def test_adap_beats_the_baselines_at_moderate_scale():
    """Azize and Basu, Fig. 2 (ordering only, at T = 10^6): the AdaP policies have lower regret than DP-SE."""
    inst = ldp.make_instance("bernoulli", means=FIG2)
    reg = {
        n: ldp.simulate(_policy(n, eps=1.0), inst, 10**6, runs=6, seed=0).final_regret().mean()
        for n in ("AdaP-UCB", "AdaP-KLUCB", "DP-SE")
    }
    assert reg["AdaP-KLUCB"] < reg["AdaP-UCB"] < reg["DP-SE"]


# ---------------------------------------------------------------------------------------------------
# Mechanisms: Laplace on means (Lemma 1) and the tree mechanism
# ---------------------------------------------------------------------------------------------------


def test_laplace_mean_closed_form_moments():
    rng = np.random.default_rng(0)
    draws = rng.laplace(size=400_000)
    out = mech.laplace_mean(30.0, 40, 0.5, draws)  # mean 0.75, Lap(1/(0.5*40)) = Lap(0.05)
    assert abs(out.mean() - 0.75) < 4 * math.sqrt(2) * 0.05 / math.sqrt(draws.size)
    assert out.var() == pytest.approx(2 * 0.05**2, rel=0.02)


@given(st.integers(min_value=1, max_value=5000))
@settings(max_examples=60, deadline=None)
def test_tree_push_sums_the_nodes_of_the_binary_decomposition(n_items):
    depth = mech.tree_depth(n_items)
    nodes = np.zeros(depth)
    rng = np.random.default_rng(n_items)
    draws = rng.laplace(size=n_items)
    made = {}
    for n in range(1, n_items + 1):
        total = mech.tree_push(nodes, n, draws[n - 1], 2.0)
        used = [(j, n >> j) for j in range(depth) if (n >> j) & 1]
        new = [u for u in used if u not in made]
        assert len(new) == 1  # exactly one fresh node per item
        made[new[0]] = 2.0 * draws[n - 1]
        assert total == pytest.approx(sum(made[u] for u in used), abs=1e-9)
    # each item lies in at most depth nodes: those (j, i >> j) on its root path
    assert all(j < depth for j, _ in made)


def test_tree_depth_hand_values():
    assert mech.tree_depth(1) == 1 and mech.tree_depth(7) == 3 and mech.tree_depth(8) == 4
    assert mech.tree_depth(10**7) == 24  # 2^23 = 8388608 <= 1e7 < 2^24
    assert mech.tree_depth(1e6) == 20  # a whole float, as a horizon is typed


@pytest.mark.parametrize("horizon", [0, -5, 100.7, 127.9, True, math.nan, "12"])
def test_tree_depth_refuses_what_is_no_horizon(horizon):
    """tree_depth(0) was 0 levels, tree_depth(-5) 3 and tree_depth(100.7) 7 (truncated)."""
    with pytest.raises((TypeError, ValueError), match=r"^horizon must be an integer"):
        mech.tree_depth(horizon)


@pytest.mark.parametrize("n", [0, -1, 16, 1024, 2**70])
def test_tree_push_refuses_a_count_its_tree_cannot_hold(n):
    """n = 0 looped forever in the kernel, and n >= 2**len(nodes) wrote past the end of ``nodes``: into the rest of
    the array it is a view of. The array is left as it was."""
    buf = np.zeros(64)
    with pytest.raises(ValueError, match=r"^n must be an integer "):
        mech.tree_push(buf[:4], n, 0.3, 1.0)
    assert not buf.any()


def test_tree_push_is_its_kernel_on_valid_input():
    """The checked tree_push and the unchecked kernel DP-UCB's compiled loop calls give the same noise, bit for bit."""
    from ldpcode.mechanisms.global_dp import _tree_push_kernel

    a, b = np.zeros(5), np.zeros(5)
    draws = np.random.default_rng(3).laplace(size=31)
    for n in range(1, 32):
        assert mech.tree_push(a, n, draws[n - 1], 2.5) == _tree_push_kernel(b, n, draws[n - 1], 2.5)
        np.testing.assert_array_equal(a, b)
    with pytest.raises(TypeError, match=r"^nodes must be a non-empty 1-d float64 numpy array"):
        mech.tree_push([0.0, 0.0], 1, 0.3, 1.0)
    with pytest.raises(ValueError, match=r"^scale must be a finite number > 0"):
        mech.tree_push(np.zeros(2), 1, 0.3, 0.0)


def test_episodic_and_tree_policies_check_their_arguments_when_built():
    """AdaptiveEpisodes("AdaP-UCB", UCBIndex(), -1.0) was built and ran with Laplace noise of scale -1/m; DPSE(-1) and
    DPUCB(gamma=nan) failed only inside simulate. Valid arguments are stored as they were given (as floats)."""
    with pytest.raises(ValueError, match=r"^epsilon must be a finite number > 0, got -1.0"):
        gp.AdaptiveEpisodes("AdaP-UCB", gp.UCBIndex(), -1.0)
    with pytest.raises(TypeError, match=r"^alpha must be a real number"):
        gp.AdaptiveEpisodes("AdaP-UCB", gp.UCBIndex(), 1.0, alpha=True)
    with pytest.raises(TypeError, match=r"^index must be a PrivateIndex"):
        gp.AdaptiveEpisodes("AdaP-UCB", None, 1.0)
    with pytest.raises(ValueError, match=r"^epsilon must be a finite number > 0"):
        gp.DPSE(-1.0)
    with pytest.raises(ValueError, match=r"^beta must be a probability"):
        gp.DPSE(1.0, beta=5.0)
    with pytest.raises(ValueError, match=r"^gamma must be a probability"):
        gp.DPUCB(1.0, gamma=math.nan)
    with pytest.raises(TypeError, match=r"^name must be a string"):
        gp.KLUCB(name=5)
    pol = gp.AdaptiveEpisodes("AdaP-UCB", gp.UCBIndex(), 1, alpha=4)
    assert (pol.epsilon, pol.alpha) == (1.0, 4.0) and type(pol.epsilon) is float
    assert gp.DPSE(0.5).beta is None and gp.DPUCB(0.5).gamma == gp.DEFAULT_GAMMA
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # built directly with alpha <= 3: make_policy warns, the constructor does not
        assert gp.AdaptiveEpisodes("AdaP-UCB", gp.UCBIndex(), 1.0, alpha=2.0).alpha == 2.0


# ---------------------------------------------------------------------------------------------------
# Indexes and constants, by hand
# ---------------------------------------------------------------------------------------------------


def test_ucb_index_hand_value():
    # mu = 0.5, m = 8, t_l = 100, eps = 1, alpha = 3.1: a = 3.1 log 100 = 14.276028;
    # sqrt(14.276028 / 16) = 0.944591, 14.276028 / 8 = 1.784504 -> 3.229095
    u = gp.UCBIndex()(np.array([0.5]), np.array([8.0]), 100, 1.0, 3.1)
    assert u[0] == pytest.approx(0.5 + math.sqrt(3.1 * math.log(100) / 16) + 3.1 * math.log(100) / 8)
    assert u[0] == pytest.approx(3.229095, abs=2e-6)


def test_klucb_index_uses_the_clipped_private_mean():
    # mu = 0.2, m = 1000, t_l = 10, eps = 10, alpha = 3.1: bonus 3.1 log 10 / (10*1000) = 7.138e-4,
    # clipped mean 0.2007138, level 3.1 log 10 / 1000 = 7.138e-3
    u = gp.KLUCBIndex()(np.array([0.2, 1.5]), np.array([1000.0, 1.0]), 10, 10.0, 3.1)
    a = 3.1 * math.log(10)
    p = 0.2 + a / 10000
    assert ldp.divergences.kl_bernoulli(p, u[0]) == pytest.approx(a / 1000, rel=1e-9)
    assert u[0] > p
    assert u[1] == 1.0  # a private mean above 1 is clipped to 1


def test_klucb_index_as_printed_has_no_shift():
    """Eq. (8) read as printed: KL-UCB on the private mean itself, the same at every eps; it is below the book's
    index, whose shift alpha log t / (eps m) raises the mean first."""
    from ldpcode.global_policies.indexes import KLUCBIndexAsPrinted

    mu, m = np.array([0.2, -0.3, 1.5]), np.array([1000.0, 50.0, 1.0])
    printed = KLUCBIndexAsPrinted()
    u = printed(mu, m, 10, 0.1, 3.1)
    assert np.array_equal(u, printed(mu, m, 10, 10.0, 3.1))  # no eps anywhere
    a = 3.1 * math.log(10)
    assert ldp.divergences.kl_bernoulli(0.2, u[0]) == pytest.approx(a / 1000, rel=1e-9)  # the mean itself
    assert ldp.divergences.kl_bernoulli(0.0, u[1]) == pytest.approx(a / 50, rel=1e-9)  # clipped up to 0
    assert u[2] == 1.0
    book = gp.KLUCBIndex()(mu, m, 10, 10.0, 3.1)
    assert u[0] < book[0] and u[1] == book[1]  # -0.3 + 0.014 is still clipped to 0


def test_klucb_bernoulli_scalar_inverts_kl():
    from ldpcode.divergences import klucb_bernoulli

    q = klucb_bernoulli(0.3, 0.5)
    assert ldp.divergences.kl_bernoulli(0.3, q) == pytest.approx(0.5, abs=1e-12)
    assert klucb_bernoulli(1.0, 0.1) == 1.0 and klucb_bernoulli(0.4, 0.0) == 0.4
    assert klucb_bernoulli(0.0, 10.0) == pytest.approx(1 - math.exp(-10), abs=1e-12)  # kl(0, q) = -log(1-q)
    assert klucb_bernoulli(0.0, 40.0) == 1.0  # beyond kl(0, 1 - 1e-15) = 34.5 the whole interval qualifies
    with pytest.raises(ValueError, match="level"):
        klucb_bernoulli(0.5, -1.0)
    with pytest.raises(ValueError, match=r"p\[0\]"):
        klucb_bernoulli(1.5, 1.0)


def test_dp_se_epoch_length_hand_value():
    # |S| = 5, e = 1, eps = 1, beta = 1e-7: Delta = 1/2;
    # 32 log(8*5*1/1e-7) / 0.25 = 128 * log(4e8) = 128 * 19.806975 = 2535.29 -> 2536;
    # 8 log(4*5/1e-7) / 0.5 = 16 * log(2e8) = 16 * 19.113828 = 305.8
    assert gp.dp_se_epoch_length(5, 1, 1.0, 1e-7) == 2536
    # tiny eps: the privacy term wins: 8 log(4*2*1/0.1)/(0.001*0.5) = 16000 * log(80) = 70112.1 -> 70113
    assert gp.dp_se_epoch_length(2, 1, 0.001, 0.1) == math.ceil(16000 * math.log(80))


def test_dp_ucb_noise_bound_hand_value():
    # T = 1e7, K = 5, eps = 1, gamma = 0.1: L = 24, b = 24, delta = 0.1/5e7 = 2e-9,
    # log(2/delta) = log(1e9) = 20.723266; nu = 24 * max(sqrt 24 = 4.898979, sqrt 20.723266 = 4.552281)
    # = 117.575508; B = nu * sqrt(8 * 20.723266 = 165.786128) = 117.575508 * 12.875796 = 1513.878
    L, b, B = gp.dp_ucb_noise_bound(10**7, 5, 1.0, 0.1)
    assert (L, b) == (24, 24.0)
    assert B == pytest.approx(24 * math.sqrt(24) * math.sqrt(8 * math.log(1e9)))
    assert B == pytest.approx(1513.878, abs=0.001)


# ---------------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["AdaP-UCB", "AdaP-KLUCB", "DP-SE", "DP-UCB"])
@pytest.mark.parametrize("eps", [0, -1.0, math.inf, math.nan])
def test_epsilon_must_be_positive_and_finite(name, eps):
    with pytest.raises(ValueError, match="epsilon"):
        ldp.make_policy(name, eps)


@pytest.mark.parametrize("name", ["AdaP-UCB", "DP-SE", "DP-UCB"])
def test_private_policies_need_epsilon(name):
    with pytest.raises(ValueError, match="needs epsilon"):
        ldp.make_policy(name)


def test_alpha_rules():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ldp.make_policy("AdaP-UCB", 1.0, alpha=3.5)  # no warning
    with pytest.warns(UserWarning, match="alpha > 3"):
        pol = ldp.make_policy("AdaP-KLUCB", 1.0, alpha=2.0)
    assert pol.alpha == 2.0
    for bad in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="alpha"):
            ldp.make_policy("AdaP-UCB", 1.0, alpha=bad)
    with pytest.raises(TypeError, match="alpha"):
        ldp.make_policy("AdaP-UCB", 1.0, alpha="3")
    # the second input review: at 1e308 every index was inf, and AdaP-UCB's regret was the arms' order
    for name in ("AdaP-UCB", "AdaP-KLUCB"):
        with pytest.raises(
            ValueError,
            match=r"^alpha must be a number in \(0, 1e\+06\] \(the paper uses 3.1; at 1e308 every index was inf",
        ):
            ldp.make_policy(name, 1.0, alpha=1e308)
    assert ldp.make_policy("AdaP-UCB", 1.0, alpha=1e6).alpha == 1e6


@pytest.mark.parametrize(
    "name,opt,val",
    [
        ("AdaP-UCB", "gamma", 0.1),
        ("DP-SE", "alpha", 3.1),
        ("DP-UCB", "beta", 0.1),
        ("KL-UCB", "alpha", 3.1),
        ("LDP-UCB-B", "alpha", 3.1),
        ("UCB1", "gamma", 0.1),
    ],
)
def test_options_belong_to_their_policy(name, opt, val):
    eps = None if name in ("KL-UCB", "UCB1") else 1.0
    with pytest.raises(ValueError, match=opt):
        ldp.make_policy(name, eps, **{opt: val})


@pytest.mark.parametrize("name,opt", [("DP-SE", "beta"), ("DP-UCB", "gamma")])
@pytest.mark.parametrize("val", [0.0, 1.0, -0.5, 2.0, math.nan])
def test_failure_probabilities_in_unit_interval(name, opt, val):
    with pytest.raises(ValueError, match=opt):
        ldp.make_policy(name, 1.0, **{opt: val})


def test_kl_ucb_takes_no_epsilon_and_global_policies_no_epsilon_min():
    with pytest.raises(ValueError, match="not private"):
        ldp.make_policy("KL-UCB", 1.0)
    with pytest.raises(ValueError, match="epsilon_min"):
        ldp.make_policy("AdaP-UCB", 1.0, epsilon_min=0.5)


@pytest.mark.parametrize("name", ["AdaP-UCB", "AdaP-KLUCB", "DP-SE", "DP-UCB", "KL-UCB"])
def test_unbounded_rewards_are_refused(name):
    inst = ldp.make_instance("gaussian", means=[0.5, 0.2])
    with pytest.raises(ValueError, match=r"rewards in \[0, 1\]"):
        ldp.simulate(_policy(name, eps=1.0), inst, 100, runs=1)


@pytest.mark.parametrize("name", ["AdaP-UCB", "DP-SE", "DP-UCB", "KL-UCB"])
def test_horizon_below_number_of_arms_is_refused(name):
    inst = ldp.make_instance("bernoulli", means=FIG2)
    with pytest.raises(ValueError, match="horizon"):
        ldp.simulate(_policy(name, eps=1.0), inst, 4, runs=1)


def test_listed_names():
    names = ldp.list_policies()
    for n in gp.GLOBAL_POLICIES:
        assert n in names


# ---------------------------------------------------------------------------------------------------
# The two-regime fit used to locate Figure 3's regime change
# ---------------------------------------------------------------------------------------------------


def test_hinge_fit_recovers_a_known_breakpoint():
    x = np.geomspace(0.05, 10, 25)
    y = 900.0 * np.minimum(x / 0.3, 1.0) ** -1.0  # slope -1 below 0.3, plateau 900 above
    fit = ldp.hinge_fit(x, y)
    assert fit.breakpoint == pytest.approx(0.3, rel=0.01)
    assert fit.plateau == pytest.approx(900, rel=0.01) and fit.slope == pytest.approx(-1, rel=0.01)
    assert fit.r2 == pytest.approx(1.0, abs=1e-6)
    np.testing.assert_allclose(fit.predict(x), y, rtol=0.03)


def test_hinge_fit_with_noise_and_bad_input():
    rng = np.random.default_rng(0)
    x = np.geomspace(0.05, 10, 30)
    y = 500 * np.minimum(x / 1.5, 1.0) ** -0.7 * np.exp(rng.normal(0, 0.03, x.size))
    fit = ldp.hinge_fit(x, y)
    assert 1.2 < fit.breakpoint < 1.9 and -0.8 < fit.slope < -0.6
    with pytest.raises(ValueError, match="at least 4"):
        ldp.hinge_fit([1, 2, 3], [1, 2, 3])
    with pytest.raises(ValueError, match="positive"):
        ldp.hinge_fit([1, 2, 3, 4], [1, -2, 3, 4])
    with pytest.raises(ValueError, match="same length"):
        ldp.hinge_fit([1, 2, 3, 4], [1, 2, 3, 4, 5])


@pytest.mark.parametrize("p", [1 - 1e-16, math.nextafter(1.0, 0.0), 1 - 1e-15])
def test_the_klucb_index_of_a_mean_within_an_ulp_of_one_is_one_not_a_zero_division(p):
    """The second input review: klucb_bernoulli(1 - 1e-16, 1e-16) raised ZeroDivisionError (a midpoint rounded to 1)."""
    from ldpcode.divergences import klucb_bernoulli

    q = klucb_bernoulli(p, 1e-16)
    assert p <= q <= 1.0 and klucb_bernoulli(p, 0.0) == p
