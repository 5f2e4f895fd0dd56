"""Same seed, same numbers, to the bit, whatever the number of workers (issue 6).

Every engine gives run r its own streams, ``SeedSequence(seed).spawn(runs)[r]``, so how the runs are
shared among worker threads cannot change a number. Checked here for each engine that has workers, at 1,
2 and 3 of them, and for every engine against a fresh Python process run with one worker
(``LDPCODE_WORKERS=1``): a different process, a different compiled-code cache state, the same bytes.
"""

import hashlib
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import ldpcode as ldp
from ldpcode import bco
from ldpcode import contextual as ctx
from ldpcode import reductions as rd

# each case: a function of `workers` returning an array; all are small (well under a second each)
CASES = {
    "LDP-UCB-L": lambda w: ldp.simulate(
        ldp.make_policy("LDP-UCB-L", 1.0), ldp.make_instance("ren2020-mixed"), 20_000, runs=5, seed=9, workers=w
    ).counts,
    "HeLDP-UCB-B": lambda w: ldp.simulate(
        ldp.make_policy("HeLDP-UCB-B", epsilon_min=1.0),
        ldp.make_instance("ren2020-bernoulli"),
        20_000,
        runs=5,
        seed=9,
        workers=w,
        privacy_levels=ldp.make_privacy_levels("ren-heldp-gaussian"),
    ).counts,
    "AdaP-KLUCB": lambda w: ldp.simulate(
        ldp.make_policy("AdaP-KLUCB", 1.0),
        ldp.make_instance("bernoulli", means=[0.9, 0.8, 0.5]),
        50_000,
        runs=5,
        seed=9,
        workers=w,
    ).counts,
    "DP-UCB": lambda w: ldp.simulate(
        ldp.make_policy("DP-UCB", 1.0),
        ldp.make_instance("bernoulli", means=[0.9, 0.8, 0.5]),
        5_000,
        runs=5,
        seed=9,
        workers=w,
    ).counts,
    "Algorithm 1 around UCB": lambda w: rd.simulate_mab(
        rd.make_agent("UCB", "gaussian", epsilon=1.0, delta=1e-4),
        rd.bernoulli_losses([0.2, 0.5, 0.6]),
        5_000,
        runs=5,
        seed=9,
        workers=w,
    ).regret,
}
SEQUENTIAL = {  # engines that run their runs one after another in one thread
    "one-point BCO": lambda: bco.simulate_one_point("quadratic", 3_000, runs=3, seed=9).regret,
    "two-point BCO": lambda: bco.simulate_two_point("linear", 3_000, runs=3, seed=9).regret,
    "LDP LinUCB": lambda: ctx.simulate_contextual(
        "ldp-linucb", ctx.make_contextual_instance(5, 10, seed=3), 300, 3, 9, epsilon=1.0, delta=0.01
    ).regret,
}


def _digest(a) -> str:
    a = np.ascontiguousarray(a)
    return hashlib.sha256(str(a.dtype).encode() + str(a.shape).encode() + a.tobytes()).hexdigest()


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_bits_with_1_2_3_workers(name):
    one = CASES[name](1)
    for w in (2, 3):
        np.testing.assert_array_equal(CASES[name](w), one)
    assert one.size > 0 and np.any(one != one.flat[0])  # not a constant array, which would prove nothing


@pytest.mark.slow
def test_same_bits_in_a_fresh_process_with_one_worker():
    here = {name: _digest(f(2)) for name, f in CASES.items()} | {name: _digest(f()) for name, f in SEQUENTIAL.items()}
    code = (
        "import json, sys; sys.path.insert(0, 'tests/simulation'); import test_determinism as T; "
        "print(json.dumps({**{n: T._digest(f(None)) for n, f in T.CASES.items()}, "
        "**{n: T._digest(f()) for n, f in T.SEQUENTIAL.items()}}))"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "LDPCODE_WORKERS": "1"},
        check=True,
    ).stdout
    assert json.loads(out.strip().splitlines()[-1]) == here


def test_a_different_seed_gives_different_bits():
    a = ldp.simulate(ldp.make_policy("LDP-UCB-L", 1.0), ldp.make_instance("ren2020-mixed"), 20_000, runs=5, seed=9)
    b = ldp.simulate(ldp.make_policy("LDP-UCB-L", 1.0), ldp.make_instance("ren2020-mixed"), 20_000, runs=5, seed=10)
    assert _digest(a.counts) != _digest(b.counts)
