"""Issue 23, part 6: the plain step-by-step references (ldpcode.reference) estimate their cost before they draw
anything. Before, a long horizon ended in MemoryError (the streams are drawn up front: 75 GiB at 10^10 steps)
or ran for hours (KL-UCB at 10^8 steps); now each is refused at once with the one-message ValueError of
:func:`ldpcode.limits.check_limits`. The tests' and benchmarks' own calls stay far below the default ceilings,
and an accepted call pulls the same arms."""

from __future__ import annotations

import math

import numpy as np
import pytest
from cost_refusals import check_refusals, run_refused

import ldpcode as ldp
from ldpcode import reference as ref
from ldpcode.limits import Limits

UNLIMITED = Limits(cpu_seconds=math.inf, memory_bytes=math.inf)
TINY = Limits(cpu_seconds=1e-12, memory_bytes=1.0)

SETUP = """
import json, math, time, numpy as np, ldpcode as ldp
from ldpcode import reference as ref
inst = ldp.make_instance('ren2020-bernoulli')
ss = np.random.SeedSequence(0)
lv = ldp.make_privacy_levels('constant', epsilon=1.0)
"""
HUGE = {  # before: MemoryError (the first three), hours (KL-UCB)
    "run_reference": (
        "ref.run_reference(ldp.make_policy('LDP-UCB-L', epsilon=1.0), inst, 10**10, ss, np.array([10**10]))",
        "horizon=10000000000",
    ),
    "run_reference_heterogeneous": (
        "ref.run_reference_heterogeneous(ldp.make_policy('HeLDP-UCB-L', epsilon_min=1.0), inst, lv, 10**10, ss,"
        " np.array([10**10]))",
        "horizon=10000000000",
    ),
    "run_reference_global DP-UCB": (
        "ref.run_reference_global(ldp.make_policy('DP-UCB', epsilon=1.0), inst, 10**10, ss, np.array([10**10]))",
        "horizon=10000000000",
    ),
    "run_reference_global KL-UCB": (
        "ref.run_reference_global(ldp.make_policy('KL-UCB'), inst, 10**8, ss, np.array([10**8]))",
        "horizon=100000000",
    ),
}


def test_absurd_references_are_refused_before_any_work():
    check_refusals(run_refused(SETUP, HUGE), HUGE)


THREE = ldp.make_instance("bernoulli", means=[0.7, 0.5, 0.45])
LEVELS = ldp.make_privacy_levels("ren-heldp-discrete")
CALLS = {
    "run_reference": lambda h, **kw: ref.run_reference(
        ldp.make_policy("LDP-UCB-L", epsilon=1.0), THREE, h, np.random.SeedSequence(1), np.array([100, 500]), **kw
    ),
    "run_reference_heterogeneous": lambda h, **kw: ref.run_reference_heterogeneous(
        ldp.make_policy("HeLDP-UCB-B", epsilon_min=0.5), THREE, LEVELS, h, np.random.SeedSequence(1), [100, 500], **kw
    ),
    "run_reference_global": lambda h, **kw: ref.run_reference_global(
        ldp.make_policy("DP-UCB", epsilon=1.0), THREE, h, np.random.SeedSequence(1), np.array([100, 500]), **kw
    ),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_reference_checks_its_limits(name):
    with pytest.raises(ValueError, match=rf"^{name}: horizon=500 .*is estimated at about .*limits=ldpcode\.Limits\("):
        CALLS[name](500, limits=TINY)
    with pytest.raises(TypeError, match="^limits must be an ldpcode.Limits"):
        CALLS[name](500, limits="inf")
    with pytest.raises(ValueError, match=r"^horizon must be an integer <= 2\*\*53"):
        CALLS[name](2**60)
    with pytest.raises(TypeError, match=r"^horizon must be an integer, got 500\.5"):
        CALLS[name](500.5)
    base = CALLS[name](500)
    assert np.array_equal(base, CALLS[name](500, limits=UNLIMITED))
    assert np.array_equal(base, CALLS[name](500.0))  # a whole float is the integer (ldpcode._validate.check_int)


def test_the_tests_and_benchmarks_references_are_far_below_the_default_limits():
    """The largest reference runs of the test suite (4·10^4 steps) and of the benchmarks (their default
    plain horizon, 2·10^4, on up to 100 arms; KL-UCB on Figure 2's 5 arms) are estimated under a minute."""
    for kind, name, arms, horizon in [
        ("index", "LDP-UCB-L", 20, 40_000),
        ("heterogeneous", "HeLDP-UCB-L", 20, 40_000),
        ("index", "LDP-UCB-B", 100, 20_000),
        ("global", "DP-SE", 3, 20_000),
        ("global", "AdaP-KLUCB", 5, 20_000),
        ("global", "DP-UCB", 5, 20_000),
        ("global", "KL-UCB", 5, 20_000),
    ]:
        pol = type("P", (), {"name": name})()
        seconds, nbytes, work = ref.reference_cost(kind, pol, arms, horizon, 100)
        assert seconds < 60 and nbytes < 64 * 2**20, (kind, name, work, seconds, nbytes)


def test_the_global_reference_refuses_a_policy_it_does_not_implement():
    """Its if-chain ended in KL-UCB: given UCB1 it ran KL-UCB and returned plausible counts (2988, 6, 6 at T = 3000).
    Now one reference function per global policy, by name, and any other name is refused before any draw."""
    inst = ldp.make_instance("bernoulli", means=[0.9, 0.6, 0.5])
    with pytest.raises(ValueError, match="not 'UCB1'"):
        ref.run_reference_global(
            ldp.make_policy("UCB1"), inst, 3000, np.random.SeedSequence(5), ldp.log_checkpoints(3000)
        )
