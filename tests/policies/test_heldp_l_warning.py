"""HeLDP-UCB-L (and -LS) warn when their forced pulls make the whole run uniform (issue 23, seventh part).

Agent 2 of the HeLDP paper forces a pull while some A_a = sum eps_t^-2 <= eps_min^-2 log t^4. A_a grows by
m = E[eps_t^-2; eps_t >= eps_min] a pull, rho = eps_min^-2 / m times slower than with every user at eps_min, so when
every level is far above eps_min the forced phase, 4 n rho log T rounds, outlasts the horizon and the arms are played
in turn. The policy warns once a call (:class:`ldpcode.policies.UniformPlayWarning`) when
4 n log T < T - 1 <= 4 n rho log T (``HeterogeneousPolicy`` docstring, "Uniform play"); never at the book's chapter
settings, read from the chapters' parameters cells."""

import math
import warnings

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import claims
from ldpcode.cells import parameter_defaults
from ldpcode.policies import HeterogeneousPolicy, UniformPlayWarning


def _simulate(name, levels, epsilon_min, horizon, runs=4, instance="ren2020-bernoulli"):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = ldp.simulate(
            ldp.make_policy(name, epsilon_min=epsilon_min),
            ldp.make_instance(instance),
            horizon,
            runs,
            seed=7,
            privacy_levels=levels,
            workers=2,
        )
    return res, [w for w in caught if issubclass(w.category, UniformPlayWarning)]


def test_constant_levels_far_above_eps_min_warn_once_and_play_round_robin():
    inst = ldp.make_instance("ren2020-bernoulli")
    T = 20_000
    res, caught = _simulate("HeLDP-UCB-L", ldp.make_privacy_levels("constant", epsilon=10.0), 0.1, T)
    assert len(caught) == 1, "one warning a call, not one a run"
    msg = str(caught[0].message)
    for part in ("HeLDP-UCB-L", "epsilon_min=0.1", "'constant 10'", "20 arms in turn", "T=20,000", "1e+04 times"):
        assert part in msg, (part, msg)
    assert caught[0].filename.endswith("engine.py"), "points at the engine's call of run_one, not inside the policy"
    final = res.counts[:, -1, :]
    assert (final == T // inst.n_arms).all(), "every user at 10 = 100 eps_min: A_a grows alike, pure round-robin"
    assert res.final_regret() == pytest.approx(T * inst.gaps.mean())  # linear regret: uniform play


def test_heterogeneous_levels_far_above_eps_min_warn_and_play_near_uniformly():
    levels = ldp.make_privacy_levels("discrete", values=[5.0, 10.0, 20.0])
    res, caught = _simulate("HeLDP-UCB-L", levels, 0.1, 20_000)
    assert len(caught) == 1
    final = res.counts[:, -1, :]
    assert final.max() / final.min() < 1.15, final  # near uniform: the smallest A_a is forced, the A_a stay level
    inst = ldp.make_instance("ren2020-bernoulli")
    assert res.final_regret().mean() == pytest.approx(20_000 * inst.gaps.mean(), rel=0.03)


def test_the_sigmoid_version_warns_and_the_agents_without_forced_pulls_do_not():
    levels = ldp.make_privacy_levels("constant", epsilon=10.0)
    assert len(_simulate("HeLDP-UCB-LS", levels, 0.1, 5_000, instance="ren2020-gaussian")[1]) == 1
    for name in ("HeLDP-UCB-B", "HeLDP-UCB-BS"):
        instance = "ren2020-gaussian" if name.endswith("S") else "ren2020-bernoulli"
        assert _simulate(name, levels, 0.1, 5_000, instance=instance)[1] == []


@pytest.mark.parametrize(
    "horizon,warns",
    [
        (200, False),  # T - 1 <= 4 n log T = 424: even at rho = 1 (LDP-UCB-L) the whole run is forced
        (1_000, True),
        (10**6, True),  # 4 n rho log T = 1.1e7 rounds
        (2 * 10**7, False),  # the forced phase (1.3e7 rounds) ends before T
    ],
)
def test_the_criterion_is_the_whole_horizon_forced_and_not_by_a_short_horizon(horizon, warns):
    policy = ldp.make_policy("HeLDP-UCB-L", epsilon_min=0.1)
    levels = ldp.make_privacy_levels("constant", epsilon=10.0)
    forced = policy.forced_rounds(20, levels, horizon)
    assert forced == pytest.approx(4 * 20 * 1e4 * math.log(horizon))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        policy._warn_if_uniform(20, levels, horizon)
    assert len(caught) == warns


def test_only_run_zero_warns():
    """The engine and the sweep give run r the spawn key (r,): run 0 warns, before its first pull, and no other."""
    policy = ldp.make_policy("HeLDP-UCB-L", epsilon_min=0.1)
    inst, levels = ldp.make_instance("ren2020-bernoulli"), ldp.make_privacy_levels("constant", epsilon=10.0)
    cps = np.array([1_000])
    for key, count in (((0,), 1), ((3,), 0), ((), 1)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            policy.run_one(inst, 1_000, np.random.SeedSequence(1, spawn_key=key), cps, privacy_levels=levels)
        assert len(caught) == count, key


def test_the_forced_share_of_a_level_law():
    """rho = eps_min^-2 / E[eps^-2; eps >= eps_min]: for the paper's discrete law at eps_min = 100 only the users at
    100 are kept (p_0 = 0.2), so rho = 1 / p_0 = 5, the discarded users' doing, not the levels'."""
    policy = ldp.make_policy("HeLDP-UCB-L", epsilon_min=100.0)
    forced = policy.forced_rounds(20, ldp.make_privacy_levels("ren-heldp-discrete"), 10**6)
    assert forced == pytest.approx(4 * 20 * 5 * math.log(10**6))
    assert ldp.make_policy("HeLDP-UCB-B", epsilon_min=1.0).forced_rounds(20, None, 10**6) == 0.0


# --- the book's settings: no warning ----------------------------------------------------------------------------------


def _chapter_settings():
    """(notebook, policy, n_arms, law name, levels, eps_min, T) of every HeLDP-UCB-L / -LS simulation of the chapters
    at their defaults (found by running each notebook's code with the pulls skipped; listed here by hand from their
    parameters cells, which are read, so a moved default is checked)."""
    out = []
    laws = {n: ldp.make_privacy_levels(n) for n in ("ren-heldp-discrete", "ren-heldp-gaussian")}
    bern, mixed = ldp.make_instance("ren2020-bernoulli").n_arms, ldp.make_instance("ren2020-mixed").n_arms

    def constant(e):
        return ("constant", ldp.make_privacy_levels("constant", epsilon=e), e)

    for nb in ("figure1", "figure2"):
        p = parameter_defaults(f"chapters/heldp/{nb}.ipynb")
        for law, grid in (("ren-heldp-discrete", p["eps_min_discrete"]), ("ren-heldp-gaussian", p["eps_min_gaussian"])):
            out += [(nb, "HeLDP-UCB-L", bern, law, laws[law], em, p["horizon"]) for em in grid]
        if nb == "figure1":
            out += [(nb, "HeLDP-UCB-L", bern, *constant(e), p["horizon"]) for e in p["epsilons"]]
            out += [(nb, "HeLDP-UCB-L", mixed, *constant(e), p["ratio_horizon"]) for e in p["eps_compare"]]
    p = parameter_defaults("chapters/heldp/theorem7_corollary8.ipynb")
    n = ldp.make_instance(p["instance"]).n_arms
    out += [("theorem7", "HeLDP-UCB-L", n, law, laws[law], em, p["horizon"]) for law, em in p["settings"]]
    out += [("theorem7", "HeLDP-UCB-L", n, *constant(e), p["horizon"]) for e in p["constant_epsilons"]]
    p = parameter_defaults("chapters/heldp/corollary13_sigmoid.ipynb")
    n = ldp.make_instance("ren2020-gaussian").n_arms
    out += [("corollary13", "HeLDP-UCB-LS", n, law, laws[law], em, p["horizon"]) for law, em in p["settings"]]
    p = parameter_defaults("chapters/heldp/choosing_epsilon_min.ipynb")
    expo = ldp.make_privacy_levels(
        "sampler", sampler=lambda rng, size: rng.exponential(p["exponential_mean"], size), name="exponential"
    )
    stored = {c["id"]: c["reproduced"] for c in claims.load("chapters/heldp/choosing_epsilon_min.ipynb")["claims"]}
    for name, lv, grid in (
        ("ren-heldp-discrete", laws["ren-heldp-discrete"], p["grid_discrete"]),
        ("ren-heldp-gaussian", laws["ren-heldp-gaussian"], p["grid_gaussian"]),
        ("exponential", expo, p["grid_exponential"]),
    ):
        tag = name.removeprefix("ren-heldp-")
        heuristic = [stored[f"heldp.choosing_epsilon_min.heuristic.{tag}.HeLDP-UCB-L"]]
        # the bound's choice (1.04 gaussian, 1.08 exponential at the defaults; on the grid for discrete) is an
        # argmin over bound_grid: every point of the grid up to 2 is checked
        dense = [] if tag == "discrete" else list(np.geomspace(p["bound_grid"][0], 2.0, 25))
        out += [("choosing_epsilon_min", "HeLDP-UCB-L", bern, name, lv, em, p["horizon"]) for em in grid]
        out += [("choosing_epsilon_min", "HeLDP-UCB-L", bern, name, lv, em, p["horizon"]) for em in heuristic + dense]
    return out


SETTINGS = _chapter_settings()


def test_the_book_settings_are_all_listed():
    assert len(SETTINGS) > 60 and {s[0] for s in SETTINGS} == {
        "figure1",
        "figure2",
        "theorem7",
        "corollary13",
        "choosing_epsilon_min",
    }


@pytest.mark.parametrize("setting", SETTINGS, ids=[f"{s[0]}-{s[1]}-{s[3]}-{s[5]:.4g}-T{s[6]:.0e}" for s in SETTINGS])
def test_no_chapter_setting_warns(setting):
    _, name, n, _, levels, eps_min, horizon = setting
    policy = ldp.make_policy(name, epsilon_min=eps_min)
    assert isinstance(policy, HeterogeneousPolicy)
    share = policy.forced_rounds(n, levels, horizon) / (horizon - 1)
    assert share < 0.1, f"forced pulls are {share:.1%} of the run"  # the largest, 6.6%: exponential at eps_min = 2
    with warnings.catch_warnings():
        warnings.simplefilter("error", UniformPlayWarning)
        policy._warn_if_uniform(n, levels, horizon)
