"""The conformance suite of test_conformance.py, for the learners of Zheng et al. that are not K-armed: the
one-point and two-point BCO learners (``bco.make_learner``, every algorithm x learner, private and not) and the
contextual ones (``contextual.make_learner``, every name of ``contextual.POLICIES``), generated over their own
lists. The checks are the engine's promises to a reader, whatever the learner: the protocol, one seed one result,
runs independent of their number, one thread or two, a call beyond a tiny ceiling refused before any work, a
cancelled run stopped, and bad input refused in one line."""

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import bco, contextual
from ldpcode.engine import BanditPolicy
from ldpcode.limits import Cancelled, CancelFlag

BCO_ENV = bco.make_environment("quadratic")
LINEAR = contextual.make_contextual_instance()
LOGISTIC = contextual.make_contextual_instance(link="logistic")


def _bco(algorithm, learner, epsilon):
    return lambda: bco.make_learner(algorithm, learner=learner, epsilon=epsilon), BCO_ENV, 2000


def _contextual(name):
    kw = dict(epsilon=1.0, delta=0.01) if name.startswith("ldp") else {}
    env = LOGISTIC if name.endswith("gloc") else LINEAR
    return lambda: contextual.make_learner(name, **kw), env, 400


LEARNERS = {
    **{
        f"bco.{a}.{lr}.{'private' if e else 'nonprivate'}": _bco(a, lr, e)
        for a in bco.ALGORITHMS
        for lr in bco.LEARNERS
        for e in (1.0, None)
        if a == "one-point" or lr == "sphere"
    },
    **{f"contextual.{p}": _contextual(p) for p in contextual.POLICIES},
}


def run(key, seed=0, runs=3, **kwargs):
    make, env, horizon = LEARNERS[key]
    return ldp.simulate(make(), env, horizon, runs, seed, progress=False, **kwargs)


def test_the_suite_covers_every_learner():
    assert len(LEARNERS) == 6 + len(contextual.POLICIES) == 10


@pytest.mark.parametrize("key", LEARNERS)
def test_implements_the_engine_protocol(key):
    assert isinstance(LEARNERS[key][0](), BanditPolicy)


@pytest.mark.parametrize("key", LEARNERS)
def test_one_seed_one_result_and_runs_independent_of_their_number(key):
    a, b = run(key), run(key)
    np.testing.assert_array_equal(a.regret, b.regret)
    np.testing.assert_array_equal(run(key, runs=2).regret, a.regret[:2])
    assert not np.array_equal(run(key, seed=1).regret, a.regret), "another seed, the same runs"


@pytest.mark.parametrize("key", LEARNERS)
def test_one_thread_or_two_give_the_same_result(key):
    np.testing.assert_array_equal(run(key, workers=1).regret, run(key, workers=2).regret)


@pytest.mark.parametrize("key", LEARNERS)
def test_a_call_beyond_the_ceiling_is_refused_before_any_work(key):
    with pytest.raises(ValueError, match="beyond the ceiling"):
        run(key, limits=ldp.Limits(cpu_seconds=1e-9))


@pytest.mark.parametrize("key", LEARNERS)
def test_a_cancelled_run_stops(key):
    make, env, horizon = LEARNERS[key]
    flag = CancelFlag()
    flag.set()
    with pytest.raises(Cancelled):
        make().run_one(env, horizon, np.random.SeedSequence(0), ldp.log_checkpoints(horizon), cancel=flag)


@pytest.mark.parametrize("key", LEARNERS)
def test_bad_input_is_refused_in_one_line(key):
    make, env, horizon = LEARNERS[key]
    with pytest.raises(ValueError, match="runs") as e:
        ldp.simulate(make(), env, horizon, 0, 0, progress=False)
    assert "\n" not in str(e.value)
    with pytest.raises(TypeError):
        ldp.simulate(make(), ldp.make_instance("ren2020-bernoulli"), horizon, 2, 0, progress=False)
