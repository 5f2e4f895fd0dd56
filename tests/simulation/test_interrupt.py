"""Ctrl-C stops every simulation engine within a second or two (issue 12, case 4).

Each case starts a long simulation in a fresh Python process (after a small warm-up call that loads the compiled
kernels) and sends it SIGINT about 1 s into the long call (every long call would run for minutes, so it is inside
its compiled loops by then; each case holds both cores while it waits, so the wait is kept short). The call must
raise KeyboardInterrupt within 2 s of the signal (timed in the child, from the signal handler to the ``except``),
and the process must then exit with its traceback. Before the fix, ``simulate`` with two workers kept running for
tens of seconds: the executor's exit waited for every queued run, and a BCO run was one compiled call that nothing
could interrupt. (The process exit itself, after the call has stopped, is Python's teardown of NumPy, Numba and
SciPy: about 0.4 s on an idle machine, several seconds when the test suite loads every core, so it gets a wide
margin; a call that did not stop fails the 2 s check, not the exit.)
"""

import os
import re
import signal
import subprocess
import sys
import time
import warnings

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXIT_MARGIN = 20.0  # seconds from SIGINT to the exit of the process (the teardown; see above)

PRELUDE = """
import faulthandler, signal, sys, time
faulthandler.enable()   # a crash of the child prints its report instead of dying silently
SIGNALLED = []


def on_sigint(signum, frame):   # pytest-xdist workers may ignore SIGINT; this also times its arrival
    SIGNALLED.append(time.monotonic())
    raise KeyboardInterrupt


signal.signal(signal.SIGINT, on_sigint)
import numpy as np
import ldpcode as ldp
from ldpcode import bco, reductions as rd, contextual as ctx
inf = ldp.Limits(cpu_seconds=float("inf"))
"""

# (warm-up call, long call): the long call would take minutes if it were not interrupted
CASES = {
    "index policy, 2 workers": (
        "ldp.simulate(ldp.make_policy('UCB1'), ldp.make_instance('ren2020-bernoulli'), 1000, 2, workers=2)",
        "ldp.simulate(ldp.make_policy('UCB1'), ldp.make_instance('ren2020-bernoulli'), 10**9, 8, workers=2, "
        "limits=inf)",
    ),
    "heterogeneous policy, 2 workers": (
        "ldp.simulate(ldp.make_policy('HeLDP-UCB-B', epsilon_min=1.0), ldp.make_instance('ren2020-bernoulli'), 1000,"
        " 2, workers=2, privacy_levels=ldp.make_privacy_levels('ren-heldp-discrete'))",
        "ldp.simulate(ldp.make_policy('HeLDP-UCB-B', epsilon_min=1.0), ldp.make_instance('ren2020-bernoulli'), "
        "10**9, 8, workers=2, privacy_levels=ldp.make_privacy_levels('ren-heldp-discrete'), limits=inf)",
    ),
    "KL-UCB (per-step global DP kernel), 2 workers": (
        "ldp.simulate(ldp.make_policy('KL-UCB'), ldp.make_instance('bernoulli', means=[0.9, 0.5]), 1000, 2, workers=2)",
        "ldp.simulate(ldp.make_policy('KL-UCB'), ldp.make_instance('bernoulli', means=[0.9, 0.5]), 10**9, 8, "
        "workers=2, limits=inf)",
    ),
    "episodic engine (AdaP-KLUCB), many queued runs, 2 workers": (
        "ldp.simulate(ldp.make_policy('AdaP-KLUCB', epsilon=1.0), ldp.make_instance('ren2020-bernoulli'), 1000, 2, "
        "workers=2)",
        "ldp.simulate(ldp.make_policy('AdaP-KLUCB', epsilon=1.0), ldp.make_instance('ren2020-bernoulli'), 10**7, "
        "10**5, workers=2, checkpoints=[10**7], limits=inf)",
    ),
    "episodic engine, long episodes (uniform arms sum their draws), 2 workers": (
        "from ldpcode.instances import Arm, Family, Instance\n"
        "unif = Instance('two uniform arms', (Arm(Family.UNIFORM, 0.0, 1.0), Arm(Family.UNIFORM, 0.1, 0.9)))\n"
        "ldp.simulate(ldp.make_policy('AdaP-UCB', epsilon=1.0), unif, 1000, 2, workers=2)",
        "ldp.simulate(ldp.make_policy('AdaP-UCB', epsilon=1.0), unif, 10**13, 2, workers=2, checkpoints=[10**13], "
        "limits=inf)",
    ),
    "Algorithm 1 around UCB (reductions), 2 workers": (
        "rd.simulate_mab(rd.make_agent('UCB', 'gaussian', epsilon=1.0, delta=1e-4), rd.bernoulli_losses([0.2, 0.5]),"
        " 1000, 2, workers=2)",
        "rd.simulate_mab(rd.make_agent('UCB', 'gaussian', epsilon=1.0, delta=1e-4), rd.bernoulli_losses([0.2, 0.5]),"
        " 10**9, 8, workers=2, limits=inf)",
    ),
    "one-point BCO": (
        "bco.simulate_one_point('quadratic', horizon=1000, runs=1)",
        "bco.simulate_one_point('quadratic', horizon=10**10, runs=2, limits=inf)",
    ),
    "two-point BCO": (
        "bco.simulate_two_point('linear', horizon=1000, runs=1)",
        "bco.simulate_two_point('linear', horizon=10**10, runs=2, limits=inf)",
    ),
    "barrier BCO": (
        "bco.simulate_one_point('quadratic', horizon=1000, runs=1, learner='barrier')",
        "bco.simulate_one_point('quadratic', horizon=10**10, runs=2, learner='barrier', limits=inf)",
    ),
    "contextual LDP LinUCB": (
        "ctx.simulate_contextual('ldp-linucb', ctx.make_contextual_instance(), 600, 1, 0, epsilon=1.0, delta=0.01)",
        "ctx.simulate_contextual('ldp-linucb', ctx.make_contextual_instance(), 10**9, 2, 0, epsilon=1.0, delta=0.01,"
        " checkpoints=[10**9], limits=inf)",
    ),
}


def _interrupt(name):
    """Run case ``name`` in a child, SIGINT it 1 s into the long call; returns (returncode, stderr)."""
    warm, long_call = CASES[name]
    code = (
        PRELUDE + f"{warm}\nprint('ready', flush=True)\ntry:\n    {long_call}\nexcept KeyboardInterrupt:\n"
        "    print(f'stopped {time.monotonic() - SIGNALLED[0]:.3f} s after SIGINT', file=sys.stderr, flush=True)\n"
        "    raise\nprint('finished', flush=True)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = proc.stdout.readline()
        assert line.strip() == "ready", f"the child did not start: {line!r} {proc.stderr.read()[-2000:]}"
        time.sleep(1.0)
        assert proc.poll() is None, "the long call ended before the interrupt: it is too short to test anything"
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=EXIT_MARGIN)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{name}: still running {EXIT_MARGIN:g} s after SIGINT")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, err


@pytest.mark.parametrize("name", sorted(CASES))
def test_sigint_stops_the_simulation_within_2_seconds(name):
    returncode, err = _interrupt(name)
    if returncode != 0 and err == "":
        # Once in CI (barrier BCO, under full load) the child exited with no output at all, not even the
        # traceback of its KeyboardInterrupt; the cause is not known yet (faulthandler is now on, so a crash
        # would report itself). A silent death says nothing about the interrupt, so the case runs once more
        # (with a warning in the summary); a second one fails below.
        warnings.warn(f"{name}: the child exited with code {returncode} and no output; running it again")
        returncode, err = _interrupt(name)
    assert returncode != 0, f"{name}: exit code {returncode}"
    assert "KeyboardInterrupt" in err, f"{name}: exit code {returncode}, stderr: {err[-2000:]!r}"
    stopped = re.search(r"^stopped ([0-9.]+) s after SIGINT$", err, re.M)
    assert stopped, f"{name}: the call did not raise KeyboardInterrupt: {err[-2000:]}"
    assert float(stopped.group(1)) < 2.0, f"{name}: the call stopped {stopped.group(1)} s after SIGINT"
