"""The conformance suite of the K-armed learners, generated over the registry (in the spirit of scikit-learn's
``check_estimator``): every name of ``ldp.list_policies()`` gets every check below, so a policy added with
``ldp.policies.register_policy`` is checked without a line here. The checks are what the engine promises a
reader, whatever the learner:

* it implements the engine's protocol (:class:`ldpcode.engine.BanditPolicy`);
* seeding: one seed gives one result, bit for bit, and run r does not depend on how many runs the call has;
* workers: one thread and two give the same result;
* checkpoints: the counts at each checkpoint sum to it and never decrease, and cutting a run at a checkpoint
  (``until``) is the shorter run, or is refused for a policy that is not anytime (DP-UCB, DP-SE: found by this
  suite, where ``until`` silently returned a run that no simulation at the shorter horizon gives);
* limits: a call beyond a tiny ceiling is refused before any work, naming the ceiling;
* Ctrl-C: a run whose call is cancelled stops at its first chunk (``Cancelled``);
* bad input: a horizon shorter than the arms, no runs, and an environment of another kind are refused with one
  line naming the argument.

Every check runs on each engine a policy has (``ENGINES``): the per-pull kernel, and the event-driven twin of
the policies that have one on these Bernoulli arms (:mod:`ldpcode.policies.engines`). A check called directly (as
tests/policies/test_new_policy.py does for a policy registered there) takes the engine as its second argument.
"""

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode.engine import BanditPolicy
from ldpcode.limits import Cancelled, CancelFlag
from ldpcode.policies.engines import on_engine

INSTANCE = ldp.make_instance("bernoulli", means=[0.9, 0.6, 0.5])
LEVELS = ldp.make_privacy_levels("ren-heldp-discrete")
HORIZON, RUNS = 600, 3


def build(name):
    """The policy ``name`` at a generic setting, and the privacy levels it plays with (its environment's users)."""
    for kwargs, levels in (({}, None), ({"epsilon": 1.0}, None), ({"epsilon_min": 0.5}, LEVELS)):
        try:
            return ldp.make_policy(name, **kwargs), levels
        except ValueError:
            continue
    return ldp.make_policy(name, epsilon=1.0, delta=0.01), None


def run(name, engine="per-pull", seed=0, runs=RUNS, **kwargs):
    policy, levels = build(name)
    return ldp.simulate(
        policy, INSTANCE, HORIZON, runs, seed, privacy_levels=levels, progress=False, engine=engine, **kwargs
    )


def has_event_engine(name) -> bool:
    policy, levels = build(name)
    return on_engine(policy, INSTANCE, "auto", levels) is not policy


NAMES = ldp.list_policies()
ENGINES = [(n, "per-pull") for n in NAMES] + [(n, "event") for n in NAMES if has_event_engine(n)]


def test_the_suite_covers_the_whole_registry():
    assert sorted(NAMES) == sorted(ldp.policies.REGISTRY) and len(NAMES) >= 16
    assert sorted(n for n, e in ENGINES if e == "event") == ["HeLDP-UCB-B", "KL-UCB", "LDP-UCB-B", "UCB1"]


@pytest.mark.parametrize("name", NAMES)
def test_implements_the_engine_protocol(name):
    policy, _ = build(name)
    assert isinstance(policy, BanditPolicy) and policy.name == name


@pytest.mark.parametrize("name,engine", ENGINES)
def test_one_seed_one_result_and_runs_independent_of_their_number(name, engine):
    a, b = run(name, engine), run(name, engine)
    np.testing.assert_array_equal(a.counts, b.counts)
    np.testing.assert_array_equal(run(name, engine, runs=2).counts, a.counts[:2])
    # another seed, other runs: on a gap of 1/4, DP-SE's elimination after its second epoch is a coin flip (on most
    # instances its eliminations come at the same epoch whatever the draws, and its pulls are the same)
    policy, levels = build(name)
    edge = ldp.make_instance("bernoulli", means=[0.75, 0.5])
    one, two = (
        ldp.simulate(policy, edge, 20_000, 4, s, privacy_levels=levels, progress=False, engine=engine) for s in (0, 1)
    )
    assert not np.array_equal(one.counts, two.counts), "another seed, the same runs"


@pytest.mark.parametrize("name,engine", ENGINES)
def test_one_thread_or_two_give_the_same_result(name, engine):
    np.testing.assert_array_equal(run(name, engine, workers=1).counts, run(name, engine, workers=2).counts)


@pytest.mark.parametrize("name,engine", ENGINES)
def test_checkpoints_count_every_pull_and_cut_exactly(name, engine):
    res = run(name, engine)
    np.testing.assert_array_equal(res.counts.sum(axis=2), np.broadcast_to(res.checkpoints, res.counts.shape[:2]))
    assert (np.diff(res.counts, axis=1) >= 0).all()
    t = int(res.checkpoints[len(res.checkpoints) // 2])
    policy, levels = build(name)
    short = ldp.simulate(policy, INSTANCE, t, RUNS, 0, privacy_levels=levels, progress=False, engine=engine,
                         checkpoints=res.checkpoints[res.checkpoints <= t])  # fmt: skip
    if policy.anytime:  # a run cut at t is the run of horizon t ...
        np.testing.assert_array_equal(res.until(t).counts, short.counts)
    else:  # ... or, for a policy whose runs depend on T, cutting is refused (it would be a plausible wrong number)
        with pytest.raises(ValueError, match="depend on their horizon"):
            res.until(t)


@pytest.mark.parametrize("name,engine", ENGINES)
def test_a_call_beyond_the_ceiling_is_refused_before_any_work(name, engine):
    with pytest.raises(ValueError, match="beyond the ceiling"):
        run(name, engine, limits=ldp.Limits(cpu_seconds=1e-9))


@pytest.mark.parametrize("name,engine", ENGINES)
def test_a_cancelled_run_stops(name, engine):
    policy, levels = build(name)
    policy = on_engine(policy, INSTANCE, engine, levels)
    flag = CancelFlag()
    flag.set()
    seed = np.random.SeedSequence(0)
    with pytest.raises(Cancelled):
        policy.run_one(INSTANCE, HORIZON, seed, ldp.log_checkpoints(HORIZON), privacy_levels=levels, cancel=flag)


@pytest.mark.parametrize("name,engine", ENGINES)
def test_bad_input_is_refused_in_one_line(name, engine):
    policy, levels = build(name)
    with pytest.raises(ValueError, match="horizon") as e:
        ldp.simulate(policy, INSTANCE, 2, 2, 0, privacy_levels=levels, progress=False, engine=engine)
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="runs"):
        ldp.simulate(policy, INSTANCE, HORIZON, 0, 0, privacy_levels=levels, progress=False, engine=engine)
    with pytest.raises(TypeError):
        ldp.simulate(policy, [0.9, 0.5], HORIZON, 2, 0, privacy_levels=levels, progress=False, engine=engine)
