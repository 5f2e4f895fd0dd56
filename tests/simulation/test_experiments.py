"""ldpcode.experiments, the simulation drivers shared by the notebooks of Theorems 4 and 6 of Ren et al. (2020a)
and Theorems 7 and 10 of Ren et al. (2020b), and their figures in ldpcode.plotting: each driver gives what
the direct simulate() and bound calls give with the same seed, and refuses bad input."""

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import ldpcode as ldp  # noqa: E402
from ldpcode import bounds as B  # noqa: E402
from ldpcode import experiments as X  # noqa: E402

T, RUNS, SEED = 400, 3, 7


@pytest.fixture(scope="module")
def inst():
    return ldp.make_instance("ren2020-bernoulli")


@pytest.fixture(scope="module")
def ren_run(inst):
    return X.bounds_along_run(
        "LDP-UCB-L",
        inst,
        T,
        RUNS,
        [0.5, 2.0],
        seed=SEED,
        regret_bound=B.ldp_ucb_l_regret_bound,
        pulls_bound=B.ldp_ucb_l_pulls_bound,
    )


def test_gap_groups_of_the_paper_instance(inst):
    assert X.gap_groups(inst) == [0.1, 0.2, 0.3, 0.4]


def test_bounds_along_run_equals_direct_calls(inst, ren_run):
    direct = ldp.simulate(ldp.make_policy("LDP-UCB-L", epsilon=2.0), inst, T, RUNS, seed=SEED)
    res = ren_run.results[2.0]
    np.testing.assert_array_equal(res.regret, direct.regret)
    np.testing.assert_array_equal(ren_run.checkpoints, direct.checkpoints)
    assert (ren_run.t >= inst.n_arms).all() and ren_run.t.size == ren_run.keep.sum()
    assert ren_run.t[0] == direct.checkpoints[direct.checkpoints >= inst.n_arms][0]
    assert ren_run.regret_bound[2.0][-1] == B.ldp_ucb_l_regret_bound(inst.means, T, 2.0)
    assert ren_run.pulls_bound[0.5][0.3][-1] == B.ldp_ucb_l_pulls_bound(0.3, T, 0.5)
    # the gap-0.1 group is arms 1..5 (means 0.8): their counts at T, averaged over the group
    np.testing.assert_array_equal(ren_run.pulls[2.0][0.1][:, -1], direct.counts[:, -1, 1:6].mean(axis=1))
    assert ren_run.pulls[0.5][0.4].shape == (RUNS, ren_run.t.size)


def test_gap_group_pulls_sum_to_the_suboptimal_pulls(inst, ren_run):
    res = ren_run.results[0.5]
    pulls = X.gap_group_pulls(res, inst, ren_run.keep, ren_run.gaps)
    sizes = {g: int(np.isclose(inst.gaps, g).sum()) for g in ren_run.gaps}
    total = sum(pulls[g] * sizes[g] for g in ren_run.gaps)
    np.testing.assert_allclose(total, res.counts[:, ren_run.keep, 1:].sum(axis=2))


def test_gap_group_pulls_refuses_bad_input(inst, ren_run):
    res = ren_run.results[0.5]
    with pytest.raises(ValueError, match="gaps must be positive gaps"):
        X.gap_group_pulls(res, inst, ren_run.keep, [0.15])
    with pytest.raises(ValueError, match="keep must be a boolean mask"):
        X.gap_group_pulls(res, inst, ren_run.keep.astype(int), [0.1])
    with pytest.raises(ValueError, match="at least one"):
        X.gap_group_pulls(res, inst, ren_run.keep, [])


def test_bounds_along_run_refuses_bad_input(inst):
    kw = dict(seed=0, regret_bound=B.ldp_ucb_l_regret_bound, pulls_bound=B.ldp_ucb_l_pulls_bound)
    with pytest.raises(ValueError, match="epsilons must hold at least one"):
        X.bounds_along_run("LDP-UCB-L", inst, T, RUNS, [], **kw)
    with pytest.raises(TypeError, match="epsilons must be a list"):
        X.bounds_along_run("LDP-UCB-L", inst, T, RUNS, 1.0, **kw)
    with pytest.raises(TypeError, match="policy must be a registry name"):
        X.bounds_along_run(ldp.make_policy("UCB1"), inst, T, RUNS, [1.0], **kw)
    with pytest.raises(TypeError, match=r"^instance must come from make_instance\(\), got str$"):
        X.bounds_along_run("LDP-UCB-L", "ren2020-bernoulli", T, RUNS, [1.0], **kw)
    with pytest.raises(TypeError, match="pulls_bound must be a function"):
        X.bounds_along_run("LDP-UCB-L", inst, T, RUNS, [1.0], **{**kw, "pulls_bound": 3.0})


def test_last_decade_slopes_by_hand(inst, ren_run):
    slopes, rate = X.last_decade_slopes(ren_run.results, ren_run.t, ren_run.keep, T, inst.n_arms)
    last = ren_run.t >= T // 10
    x = np.log(ren_run.t[last])
    y = np.log(ren_run.results[0.5].mean_regret()[ren_run.keep][last])
    assert slopes[0.5] == pytest.approx(np.polyfit(x, y, 1)[0], rel=1e-12)
    # the rate sqrt(n t log t) / eps has local log-log slope 1/2 + 1/(2 log t): between these over [40, 400]
    assert 0.5 + 1 / (2 * math.log(T)) < rate < 0.5 + 1 / (2 * math.log(T // 10))
    with pytest.raises(ValueError, match="t must be the checkpoints keep selects"):  # not the results' checkpoints
        X.last_decade_slopes(ren_run.results, ren_run.t[:1], ren_run.keep, T, inst.n_arms)
    sparse = ldp.simulate(ldp.make_policy("LDP-UCB-L", epsilon=1.0), inst, T, 2, checkpoints=[20, T])
    with pytest.raises(ValueError, match="at least 2 checkpoints"):  # only T in [T // 10, T]
        X.last_decade_slopes({1.0: sparse}, sparse.checkpoints, np.ones(2, bool), T, inst.n_arms)


def test_heldp_setting_name():
    assert ldp.claims.heldp_setting_name("ren-heldp-discrete", 1.0) == "discrete, ε_min = 1"
    assert ldp.claims.heldp_setting_name("ren-heldp-gaussian", 0.5) == "gaussian, ε_min = 0.5"
    with pytest.raises(TypeError, match="law must be"):
        ldp.claims.heldp_setting_name(1.0, "ren-heldp-discrete")


def test_heterogeneous_against_bound_equals_direct_calls(inst):
    settings_ = [["ren-heldp-discrete", 1.0], ["ren-heldp-gaussian", 1.0]]
    run = X.heterogeneous_against_bound(
        "HeLDP-UCB-B",
        inst,
        T,
        2,
        settings_,
        seed=SEED,
        best_kappa=B.heldp_ucb_b_best_kappa,
        regret_bound=B.heldp_ucb_b_regret_bound,
    )
    key = ("ren-heldp-gaussian", 1.0)
    lv = ldp.make_privacy_levels("ren-heldp-gaussian")
    direct = ldp.simulate(ldp.make_policy("HeLDP-UCB-B", epsilon_min=1.0), inst, T, 2, seed=SEED, privacy_levels=lv)
    np.testing.assert_array_equal(run.results[key].regret, direct.regret)
    assert list(run.results) == [("ren-heldp-discrete", 1.0), key]
    assert run.best[key].shape == (run.t.size, 2)
    assert tuple(run.best[key][-1]) == B.heldp_ucb_b_best_kappa(inst.means, T, lv, 1.0)
    assert run.bound_kappa1[key] == B.heldp_ucb_b_regret_bound(inst.means, T, lv, 1.0, kappa=1.0)
    assert run.quantities[key] == B.heldp_quantities(lv, 1.0)
    with pytest.raises(ValueError, match="settings must hold"):
        X.heterogeneous_against_bound(
            "HeLDP-UCB-B", inst, T, 2, ["ren-heldp-discrete"], seed=0, best_kappa=max, regret_bound=max
        )
    plt.close(
        ldp.plotting.heterogeneous_bound_figure(
            run, inst, label="HeLDP-UCB-B", theorem="Theorem 10", regret_bound=B.heldp_ucb_b_regret_bound
        )
    )


def test_constant_levels_pairs_equals_direct_calls(inst, ren_run):
    pairs = X.constant_levels_pairs(
        "HeLDP-UCB-L",
        "LDP-UCB-L",
        inst,
        T,
        RUNS,
        [2.0],
        ren_run.t,
        seed=SEED,
        best_kappa=B.heldp_ucb_l_best_kappa,
        regret_bound=B.heldp_ucb_l_regret_bound,
        corollary_bound=B.heldp_ucb_l_homogeneous_bound,
        homogeneous_bound=B.ldp_ucb_l_regret_bound,
    )
    p = pairs[2.0]
    np.testing.assert_array_equal(p.ho.regret, ren_run.results[2.0].regret)  # LDP-UCB-L, same seed
    lv = ldp.make_privacy_levels("constant", epsilon=2.0)
    he = ldp.simulate(ldp.make_policy("HeLDP-UCB-L", epsilon_min=2.0), inst, T, RUNS, seed=SEED, privacy_levels=lv)
    np.testing.assert_array_equal(p.he.regret, he.regret)
    assert p.kappa_star == math.inf  # Q_L = 0 with constant levels: the bracket decreases in kappa
    assert p.corollary == B.heldp_ucb_l_homogeneous_bound(inst.means, T, 2.0)
    assert p.theorem_at_inf == pytest.approx(p.corollary, rel=1e-9)  # Corollary 8 from Theorem 7
    assert p.homogeneous == B.ldp_ucb_l_regret_bound(inst.means, T, 2.0)
    assert p.corollary_t[-1] == p.corollary and p.corollary_t.shape == ren_run.t.shape
    with pytest.raises(TypeError, match="homogeneous_bound must be a function"):
        X.constant_levels_pairs(
            "HeLDP-UCB-L", "LDP-UCB-L", inst, T, RUNS, [2.0], ren_run.t, seed=0,
            best_kappa=max, regret_bound=max, corollary_bound=max, homogeneous_bound=None,
        )  # fmt: skip
    fig = ldp.plotting.constant_levels_figure(
        pairs, ren_run.t, inst.n_arms, labels=["HeLDP-UCB-L", "LDP-UCB-L"], bound_label="Corollary 8"
    )
    assert len(fig.axes) == 1 and len(fig.axes[0].lines) == 3
    plt.close(fig)


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 6), st.integers(1, 8), st.floats(0.1, 10.0), st.integers(0, 2**32 - 1))
def test_sup_ratio_is_the_largest_ratio(runs, n, scale, seed):
    rng = np.random.default_rng(seed)
    regret = rng.uniform(0, scale, size=(runs, n))
    bound = rng.uniform(0.5 * scale, 2 * scale, size=n)
    value, se = X.sup_ratio(regret, bound)
    assert value == pytest.approx(max(regret[:, j].mean() / bound[j] for j in range(n)), rel=1e-12)
    assert se == ldp.bootstrap_se(lambda r: float(np.max(r.mean(axis=0) / bound)), regret)


def test_sup_ratio_refuses_bad_input():
    with pytest.raises(ValueError, match="regret_runs must have shape"):
        X.sup_ratio(np.ones((2, 3)), np.ones(4))
    with pytest.raises(ValueError, match="bound_t must be > 0"):
        X.sup_ratio(np.ones((2, 3)), np.array([1.0, 0.0, 1.0]))


def test_ren_figures(inst, ren_run):
    colors = ldp.plotting.epsilon_colors(ren_run.results)
    curves = [(f"ε = {e:g}", r, ren_run.regret_bound[e], colors[e]) for e, r in ren_run.results.items()]
    fig = ldp.plotting.looseness_figure(
        curves,
        ren_run.t,
        ren_run.keep,
        title="t",
        ylabel="y",
        ratio_title="r",
        uniform_rate=inst.gaps.mean(),
        t_min=inst.n_arms,
    )
    assert len(fig.axes) == 2 and len(fig.axes[1].lines) == 2
    np.testing.assert_allclose(
        fig.axes[1].lines[1].get_ydata(), ren_run.regret_bound[2.0] / ren_run.results[2.0].mean_regret()[ren_run.keep]
    )
    plt.close(fig)
    with pytest.raises(ValueError, match="one value per t"):
        ldp.plotting.looseness_figure(
            [(c[0], c[1], c[2][:-1], c[3]) for c in curves], ren_run.t, ren_run.keep, title="t", ylabel="y",
            ratio_title="r", uniform_rate=0.2, t_min=20,
        )  # fmt: skip
    fig = ldp.plotting.gap_pulls_figure(
        ren_run.t, ren_run.pulls, ren_run.pulls_bound, horizon=T, title="pulls", forced_floor=True
    )
    assert len(fig.axes) == 2 and fig._suptitle.get_text() == f"pulls, T = 400, {RUNS} runs"
    assert fig.axes[0].lines[-1].get_label() == "4 log(t+1)"
    plt.close(fig)
    with pytest.raises(ValueError, match="the same non-empty epsilons"):
        ldp.plotting.gap_pulls_figure(ren_run.t, ren_run.pulls, {}, horizon=T, title="pulls")
    fig = ldp.plotting.rate_figure(ren_run.results, ren_run.t, inst.n_arms, colors=colors, title="rate")
    np.testing.assert_allclose(
        fig.axes[0].lines[-1].get_ydata(), [B.distribution_free_rate(inst.n_arms, int(s), 2.0) for s in ren_run.t]
    )
    plt.close(fig)


@settings(max_examples=20, deadline=None)
@given(st.floats(0.01, 10.0), st.floats(1e-4, 1.0))
def test_epsilon_free_crossing_finds_the_kink_of_a_max(flat, kink):
    # max(flat, flat * kink / e) leaves its e-free value flat exactly at e = kink
    assert X.epsilon_free_crossing(lambda e: max(flat, flat * kink / e)) == pytest.approx(kink, rel=1e-9)


def test_epsilon_free_crossing_of_the_papers_bounds():
    T, K = 10**6, 100
    assert X.epsilon_free_crossing(lambda e: B.gdp_minimax_lower_bound(T, K, e)) == pytest.approx(
        B.gdp_minimax_threshold(T, K), rel=1e-9
    )
    assert X.epsilon_free_crossing(lambda e: B.linear_minimax_lower_bound(T, 2, e)) == pytest.approx(
        B.linear_minimax_threshold(T), rel=1e-9
    )


def test_epsilon_free_crossing_refuses_bad_input():
    with pytest.raises(TypeError, match="bound must be a function"):
        X.epsilon_free_crossing(1.0)
    with pytest.raises(ValueError, match="must be a finite number > 0"):
        X.epsilon_free_crossing(lambda e: 0.0)
    with pytest.raises(ValueError, match="must exceed its ε-free value"):
        X.epsilon_free_crossing(lambda e: 1.0)  # never leaves it: no crossing
