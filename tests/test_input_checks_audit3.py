"""The third input-checks audit: five arguments that were accepted and gave a plausible wrong number, a deep NumPy or
distributed traceback, a bare KeyError, or a regret that is only the tie-break's. Each test failed before its fix."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import __main__ as cli
from ldpcode import global_policies as gp
from ldpcode import sweep as sw
from ldpcode.global_policies import episodes
from ldpcode.instances import make_instance, make_privacy_levels


def _one_line(err: pytest.ExceptionInfo) -> str:
    text = str(err.value)
    assert "\n" not in text
    return text


# --- 1. Instance.sample and PrivacyLevels.sample ---------------------------------------------------------------------

INSTANCE = make_instance("bernoulli", means=[0.1, 0.9])


@pytest.mark.parametrize(
    ("arm", "size", "rng", "error", "match"),
    [
        (-1, 3, "gen", ValueError, r"^arm must be an integer >= 0, got -1"),  # drew the last arm's rewards
        (2, 3, "gen", ValueError, r"^arm must be an integer <= 1, got 2"),  # IndexError
        (True, 3, "gen", TypeError, r"^arm must be an integer"),  # arm 1
        (0, -1, "gen", ValueError, r"^size must be an integer >= 0, got -1"),  # "negative dimensions", in NumPy
        (0, 2.5, "gen", TypeError, r"^size must be an integer"),
        (0, True, "gen", TypeError, r"^size must be an integer"),
        (0, (2, -1), "gen", ValueError, r"^size\[1\] must be an integer >= 0"),
        (0, 3, 5, TypeError, r"^rng must be a numpy.random.Generator"),  # AttributeError: 'int' ... 'random'
    ],
)
def test_instance_sample_refuses_a_bad_arm_size_or_rng(arm, size, rng, error, match):
    """Before: sample(-1, ...) returned the last arm's rewards, a negative size failed in NumPy's _common.pyx."""
    rng = np.random.default_rng(0) if rng == "gen" else rng
    with pytest.raises(error, match=match) as err:
        INSTANCE.sample(arm, size, rng)
    _one_line(err)


def test_instance_sample_still_takes_a_shape_and_a_whole_float():
    a = INSTANCE.sample(1, (2, 3), np.random.default_rng(1))
    b = INSTANCE.sample(np.int64(1), 6.0, np.random.default_rng(1))
    assert a.shape == (2, 3) and b.shape == (6,)
    np.testing.assert_array_equal(a.ravel(), b)


@pytest.mark.parametrize("kind", ["ren-heldp-discrete", "ren-heldp-gaussian", "sampler"])
@pytest.mark.parametrize(
    ("rng", "size", "error", "match"),
    [
        ("gen", -1, ValueError, r"^size must be an integer >= 0, got -1"),
        ("gen", True, TypeError, r"^size must be an integer"),
        ("gen", 2.5, TypeError, r"^size must be an integer"),
        (7, 3, TypeError, r"^rng must be a numpy.random.Generator"),
    ],
)
def test_privacy_levels_sample_refuses_a_bad_size_or_rng(kind, rng, size, error, match):
    kwargs = {"sampler": lambda r, n: r.uniform(0, 2, n)} if kind == "sampler" else {}
    levels = make_privacy_levels(kind, **kwargs)
    rng = np.random.default_rng(0) if rng == "gen" else rng
    with pytest.raises(error, match=match) as err:
        levels.sample(rng, size)
    _one_line(err)
    assert levels.sample(np.random.default_rng(0), 0).shape == (0,)


# --- 2. episode_sum and epoch_sums ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"arm": -1}, ValueError, r"^arm must be an integer >= 0, got -1"),  # summed arm 1's rewards: 89.0
        ({"arm": 2}, ValueError, r"^arm must be an integer <= 1"),
        ({"arm": True}, TypeError, r"^arm must be an integer"),
        ({"length": -5, "sampler": "stepwise"}, ValueError, r"^length must be an integer >= 0"),  # 0.0
        ({"length": 2.5}, TypeError, r"^length must be an integer"),  # 0.0
        ({"sampler": "exakt"}, ValueError, r"^unknown sampler 'exakt'; known: exact, stepwise"),  # ran stepwise
        ({"rng": 5}, TypeError, r"^rng must be a numpy.random.Generator"),
        ({"instance": "ren2020-bernoulli"}, TypeError, r"^instance must come from make_instance"),
        ({"cancel": 1}, TypeError, r"^cancel must be None or a CancelFlag"),
    ],
)
def test_episode_sum_checks_its_arguments(kwargs, error, match):
    call = {"instance": INSTANCE, "arm": 0, "length": 100, "rng": np.random.default_rng(0), "sampler": "exact"}
    call.update(kwargs)
    with pytest.raises(error, match=match) as err:
        gp.episode_sum(**call)
    _one_line(err)


def test_epoch_sums_checks_its_arms_and_a_fixed_sampler_needs_no_rng():
    rng = np.random.default_rng(0)
    for sampler in ("exact", "stepwise"):  # both returned the last arm's sum for arm -1
        with pytest.raises(ValueError, match=r"^active\[1\] must be an integer >= 0, got -1"):
            gp.epoch_sums(INSTANCE, [0, -1], 10, rng, sampler)
    with pytest.raises(TypeError, match=r"^active must be a non-empty sequence of arms"):
        gp.epoch_sums(INSTANCE, [], 10, rng)
    with pytest.raises(ValueError, match=r"^r must be an integer >= 0"):
        gp.epoch_sums(INSTANCE, [0], -1, rng, "stepwise")
    assert gp.episode_sum(INSTANCE, 1, 4, None, lambda arm, n: 2.5) == 2.5  # the audits' fixed rewards, no stream
    assert gp.epoch_sums(INSTANCE, [1, 0], 4, None, lambda arm, n: float(arm)) == [1.0, 0.0]


def test_the_policies_call_the_unchecked_kernels(monkeypatch):
    """The checks are the public functions'; Algorithm 1 and DP-SE call _episode_sum_kernel, once an episode."""

    def refuse(*args, **kwargs):
        raise AssertionError("a policy called the checked public function")

    monkeypatch.setattr(episodes, "episode_sum", refuse)
    monkeypatch.setattr(episodes, "epoch_sums", refuse)
    for name in ("AdaP-UCB", "DP-SE"):
        for sampler in ("exact", "stepwise"):
            blocks = ldp.make_policy(name, 1.0).run(
                INSTANCE, 500, np.random.default_rng(0), np.random.default_rng(1), sampler=sampler
            )
            assert sum(blocks.length) == 500


# --- 3. make_global_policy -----------------------------------------------------------------------------------------


def test_make_global_policy_refuses_an_unknown_name_with_the_known_ones():
    """Before: a bare KeyError 'AdaP-UBC'."""
    with pytest.raises(ValueError, match=r"^unknown global policy 'AdaP-UBC'; known: AdaP-KLUCB, AdaP-UCB, DP-SE") as e:
        gp.make_global_policy("AdaP-UBC", 1.0, {})
    _one_line(e)
    with pytest.raises(TypeError, match=r"^global policy must be a string"):
        gp.make_global_policy(["AdaP-UCB"], 1.0, {})  # unhashable type: 'list'
    with pytest.raises(TypeError, match=r"^options must be a dict"):
        gp.make_global_policy("AdaP-UCB", 1.0, None)  # 'NoneType' object has no attribute 'items'
    with pytest.raises(ValueError, match=r"^policy 'AdaP-UCB' takes no 1, alhpa \(its options: alpha\)"):
        gp.make_global_policy("AdaP-UCB", 1.0, {"alhpa": 3.5, 1: 2})  # the int key was a TypeError in join
    assert gp.make_global_policy("AdaP-UCB", 1.0, {"alpha": 3.5}).alpha == 3.5


# --- 4. the scheduler address: one pattern, the library's ------------------------------------------------------------

ADDRESSES = [
    "tcp://127.0.0.1:8786",
    "tls://scheduler.example.org:8786/",
    "ws://[::1]:8786",
    "inproc://x",  # accepted by sweep() and failed in distributed: "not enough values to unpack"
    "tcp://127.0.0.1",
    "tcp://",
    "foo://bar:1",
    "127.0.0.1:8786",
    "nonsense",
]


@pytest.mark.parametrize("address", ADDRESSES)
def test_sweep_and_the_command_line_accept_the_same_scheduler_addresses(address):
    try:
        sw._check_scheduler(address)
        library = True
    except ValueError as err:
        assert str(err).startswith("scheduler must be None (this process), 'localcluster'")
        library = False
    try:
        cli._scheduler(address)
        command_line = True
    except Exception as err:  # argparse.ArgumentTypeError
        assert "expected 'localcluster' or a Dask scheduler address" in str(err)
        command_line = False
    assert library == command_line == (address in ADDRESSES[:3])
    assert not hasattr(cli, "_ADDRESS")  # one pattern, sweep.SCHEDULER_ADDRESS


def test_sweep_refuses_an_inproc_address_before_any_work(monkeypatch):
    monkeypatch.setattr(sw, "_client", lambda s: pytest.fail("the address reached distributed"))
    with pytest.raises(ValueError, match=r"^scheduler must be None .* got 'inproc://x'") as err:
        sw.sweep(["UCB1"], [1.0], "ren2020-bernoulli", 100, 2, scheduler="inproc://x")
    _one_line(err)
    sw._check_scheduler("localcluster")
    sw._check_scheduler(None)


# --- 5. AdaP-KLUCB's saturated indexes -----------------------------------------------------------------------------


def test_klucb_saturation_level_by_hand():
    """eq. (8)'s clipped mean is 1 while alpha log t_l / (eps m) (1 - mu_0) >= 1, at the decisions t_l = K + 2^i of a
    run that plays arm 0 (last episode m = max(1, 2^(i-1)))."""
    index = gp.KLUCBIndex()
    K, T, alpha = 2, 10**6, 3.1
    last = max(i for i in range(64) if K + 2**i <= T)  # 19: t_l = 524290, m = 2^18
    assert index.saturation_epsilon(K, T, alpha) == pytest.approx(alpha * math.log(K + 2**last) / 2 ** (last - 1))
    assert index.saturation_epsilon(K, T, alpha) == pytest.approx(1.5574e-4, rel=1e-4)
    assert index.saturation_epsilon(K, T, alpha, 0.5) == pytest.approx(2 * index.saturation_epsilon(K, T, alpha))
    assert index.saturation_epsilon(2, 3, alpha) == pytest.approx(alpha * math.log(3))  # one decision, m = 1
    assert index.saturation_epsilon(1, T, alpha) == index.saturation_epsilon(3, 3, alpha) == 0.0  # no tie to break
    assert gp.UCBIndex().saturation_epsilon(K, T, alpha) == 0.0  # eq. (7) is not clipped


def _simulate(name, epsilon, means, horizon, runs=5):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = ldp.simulate(ldp.make_policy(name, epsilon), make_instance("bernoulli", means=means), horizon, runs, 0)
    return res, [w for w in caught if "saturation level" in str(w.message)]


def test_adap_klucb_warns_when_its_regret_is_the_tie_break():
    """Before: at eps = 1e-4 every index was 1, the run played arm 0 throughout (regret Delta T with the best arm
    last, 0 with it first), and nothing said so."""
    means, T = [0.5, 0.9], 2000
    sat = gp.KLUCBIndex().saturation_epsilon(2, T, 3.1, 0.5)  # 0.084
    res, warned = _simulate("AdaP-KLUCB", sat / 2, means, T)
    assert len(warned) == 1 and warned[0].category is gp.episodes.TieBreakWarning  # once a call, in run 0
    assert issubclass(gp.episodes.TieBreakWarning, UserWarning)
    text = str(warned[0].message)
    assert "every index is 1 at every decision" in text and "regret reflects the tie-break" in text
    np.testing.assert_allclose(res.regret[:, -1], 0.4 * (T - 1))  # every run: arm 0 throughout
    res, warned = _simulate("AdaP-KLUCB", sat / 2, means[::-1], T)
    np.testing.assert_allclose(res.regret[:, -1], 0.4)  # the best arm first: only the initial pull of arm 1
    assert len(warned) == 1
    for name, eps in (("AdaP-KLUCB", 4 * sat), ("AdaP-KLUCB", 1.0), ("AdaP-UCB", 1e-4)):
        res, warned = _simulate(name, eps, means, T)
        assert warned == [], (name, eps)
    assert res.regret[:, -1].mean() > 0  # AdaP-UCB at 1e-4: linear regret, but from its index, not a tie


def test_the_minimax_grid_runs_both_placements_and_does_not_warn():
    """azize2022/theorem2_minimax runs AdaP-KLUCB at eps = 1e-4, below its saturation level, on purpose: it takes the
    worst case over both orders of the arms, so its grid does not show the warning (its page explains the tie)."""
    from ldpcode.experiments import azize_minimax

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        grid = azize_minimax.simulate_grid(["AdaP-KLUCB"], [2], [1e-4], [0.2], [100, 1000], base_mean=0.5, alpha=3.1,
                                           runs=2, seed=0)  # fmt: skip
    assert not [w for w in caught if issubclass(w.category, gp.episodes.TieBreakWarning)]
    final = grid.regret["AdaP-KLUCB", 2, 1e-4][:, 0, :, -1]  # (placements, runs) at T = 1000
    assert final[0].max() < 1 and final[1].min() > 100  # better arm first: no regret; last: linear


# --- one check of an instance argument (ldpcode.instances.check_instance) --------------------------------------------


def test_every_function_that_takes_an_instance_refuses_a_name_in_the_engines_words():
    """The engine, the experiments, the ε_min thresholds and Azize and Basu's episode sums wrote four messages for
    one mistake; they now share one check and one line."""
    from ldpcode import experiments
    from ldpcode.experiments import heldp_epsilon_min as hem
    from ldpcode.instances import check_instance

    assert check_instance(INSTANCE) is INSTANCE
    calls = [
        lambda: check_instance("ren2020-bernoulli"),
        lambda: ldp.simulate(ldp.make_policy("UCB1"), "ren2020-bernoulli", 100, 2),
        lambda: experiments.gap_groups("ren2020-bernoulli"),
        lambda: hem.run_thresholds({}, {}, {}, "ren2020-bernoulli", 100, 2, 0),
        lambda: gp.episode_sum("ren2020-bernoulli", 0, 10, np.random.default_rng(0)),
    ]
    for call in calls:
        with pytest.raises(TypeError, match=r"^instance must come from make_instance\(\), got ") as err:
            call()
        assert _one_line(err).endswith(("got str", "got 'ren2020-bernoulli'"))
