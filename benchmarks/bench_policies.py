"""Arm pulls per second of every policy: the compiled engine against the plain step-by-step version.

    python benchmarks/bench_policies.py                      # defaults: T = 2*10**6 x 2 runs, plain T = 2*10**4
    python benchmarks/bench_policies.py --horizon 10**7 --runs 4 --plain-horizon 50000 --repeat 3

For each policy (UCB1, LDP-UCB-L, LDP-UCB-B on ``ren2020-bernoulli``; LDP-UCB-LS, LDP-UCB-BS on
``ren2020-gaussian``; epsilon = 1; and the heterogeneous HeLDP-UCB-L, HeLDP-UCB-B on ``ren2020-bernoulli``
with users' levels from ``ren-heldp-discrete`` and epsilon_min = epsilon) it times

* ``fast``: :func:`ldpcode.simulate` with ``workers=1`` (one core, the compiled numba kernel), on
  ``runs`` runs of ``horizon`` pulls;
* ``plain``: :func:`ldpcode.reference.run_reference` (``run_reference_heterogeneous`` for HeLDP), the
  literal NumPy transcription of the agent boxes (one index vector recomputed per step), on one run of
  ``plain_horizon`` pulls;

and prints pulls per second for both and their ratio, then the throughput of LDP-UCB-B on two worker
threads. Every timing is the best of ``repeat`` attempts, after a warm-up that loads or compiles the
numba kernels, so compilation is never timed. The ``same pulls`` column says whether both versions,
given the same seed, pulled every arm equally often over ``plain_horizon`` steps (they should: they
consume the same two random streams).

This is a script, not a test (pytest collects only ``tests/`` and ``chapters/``). Timings depend on
the machine and on its load; the figures quoted in the README were taken with this script.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import re
import sys
import time

import numpy as np

import ldpcode as ldp
from ldpcode._validate import EPSILON_FLOOR, check_epsilon
from ldpcode.limits import MAX_HORIZON, check_limits
from ldpcode.reference import reference_cost, run_reference, run_reference_heterogeneous
from ldpcode.simulate import simulate_cost

POLICIES = [  # (policy, instance)
    ("UCB1", "ren2020-bernoulli"),
    ("LDP-UCB-L", "ren2020-bernoulli"),
    ("LDP-UCB-B", "ren2020-bernoulli"),
    ("LDP-UCB-LS", "ren2020-gaussian"),
    ("LDP-UCB-BS", "ren2020-gaussian"),
    ("HeLDP-UCB-L", "ren2020-bernoulli"),
    ("HeLDP-UCB-B", "ren2020-bernoulli"),
]
HELDP_LEVELS = "ren-heldp-discrete"  # the users' levels of the heterogeneous policies


class Parser(argparse.ArgumentParser):
    """argparse with its error on one line, ``prog: error: message``, and exit status 2 (as ``python -m ldpcode``):
    the parser of every benchmark of this folder."""

    def error(self, message):  # noqa: D102 (argparse's hook)
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")


def _int(text: str) -> int:
    """A positive integer from the command line: 2000000, 2_000_000, 2e6, 10**6 or 2*10**6, at most
    :data:`ldpcode.limits.MAX_HORIZON` (2^53; 1e400 and 10**400 are refused, not computed)."""
    t = text.replace("_", "").replace(" ", "")
    m = re.fullmatch(r"(?:(\d{1,20})\*)?(\d{1,20})\*\*(\d{1,4})", t)
    value = None
    try:
        if m:
            base, power = int(m[2]), int(m[3])
            if base <= 1 or power * math.log10(base) <= 16:  # else beyond 2^53 (about 9e15): not computed
                value = int(m[1] or 1) * base**power
        else:
            value = float(t)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or value != int(value) or not 1 <= value <= MAX_HORIZON:
        raise argparse.ArgumentTypeError(
            f"expected a positive integer such as 2000000, 2e6 or 2*10**6, at most 2**53, got {text[:40]!r}"
        )
    return int(value)


def _epsilon(text: str) -> float:
    """A privacy level from the command line: a finite number >= 1e-9 (:func:`ldpcode._validate.check_epsilon`)."""
    try:
        return check_epsilon(float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a privacy level, a finite number >= {EPSILON_FLOOR:g}, got {text[:40]!r}"
        ) from None


def check_cost(ap: argparse.ArgumentParser, runs: list, extra: tuple = (0.0, 0.0)) -> None:
    """Refuse, before any work and in one line (``ap.error``, exit status 2), a benchmark whose runs ``runs``, each
    ``(policy, instance, horizon, times)``, are estimated beyond :class:`ldpcode.Limits` (an hour of one core and
    4 GiB, or ``LDPCODE_CPU_SECONDS`` and ``LDPCODE_MEMORY_BYTES``): each at the per-pull engine's estimate, the
    library's (:func:`ldpcode.simulate.simulate_cost`), also for the event engines, whose worst case it is. ``extra``: the
    (core-seconds, bytes) of the benchmark's other work."""
    seconds, nbytes = extra
    for policy, instance, horizon, times in runs:
        s, b, _ = simulate_cost(policy, instance, horizon, times, 1)
        seconds, nbytes = seconds + s, max(nbytes, b)
    longest = max(r[2] for r in runs)
    work = f"{sum(r[3] for r in runs)} timed runs of up to {longest:,} pulls (the per-pull engine's estimate)"
    try:
        check_limits("the benchmark", work, seconds, nbytes)
    except ValueError as err:
        said = str(err).split(". To run it anyway")[0]
        said = said.replace("(limits.cpu_seconds)", "(LDPCODE_CPU_SECONDS)")
        said = said.replace("(limits.memory_bytes)", "(LDPCODE_MEMORY_BYTES)")
        ap.error(f"{said}. To run it anyway, raise that environment variable (inf for no ceiling), or lower T")


def make(name: str, instance: str, epsilon: float):
    """(policy, instance, users' privacy levels or None)."""
    if name.startswith("HeLDP"):
        return (
            ldp.make_policy(name, epsilon_min=epsilon),
            ldp.make_instance(instance),
            ldp.make_privacy_levels(HELDP_LEVELS),
        )
    pol = ldp.make_policy(name) if name.startswith("UCB1") else ldp.make_policy(name, epsilon=epsilon)
    return pol, ldp.make_instance(instance), None


def reference(pol, inst, levels, horizon, seed, cps):
    """The plain step-by-step run on the streams of run 0 of ``simulate(seed)``."""
    ss = np.random.SeedSequence(seed).spawn(1)[0]
    if levels is None:
        return run_reference(pol, inst, horizon, ss, cps)
    return run_reference_heterogeneous(pol, inst, levels, horizon, ss, cps)


def timed(fn, repeat: int, clock=time.perf_counter) -> tuple:
    """(the best of ``repeat`` timings of ``fn()`` on ``clock``, the output of its last call): shared by the
    benchmarks of this folder."""
    best, out = float("inf"), None
    for _ in range(repeat):
        start = clock()
        out = fn()
        best = min(best, clock() - start)
    return best, out


def best_time(fn, repeat: int) -> float:
    return timed(fn, repeat)[0]


def print_table(head: list, rows: list, left: int = 0) -> None:
    """Print ``rows`` under ``head`` in aligned columns, the first ``left`` of them to the left, the others to the
    right, with a rule under the head: the result table of every benchmark of this folder."""
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    for r in [head, ["-" * w for w in widths]] + rows:
        print("  ".join(str(x).ljust(w) if i < left else str(x).rjust(w) for i, (x, w) in enumerate(zip(r, widths))))


def event_arguments(ap, horizons: list) -> None:
    """The options every event-engine benchmark takes: ``--horizons`` (default ``horizons``), ``--repeat``, ``--seed``."""
    ap.add_argument("--horizons", type=_int, nargs="+", default=horizons, help="horizons T")
    ap.add_argument("--repeat", type=_int, default=2, help="timings per measurement; the best is kept (default 2)")
    ap.add_argument("--seed", type=_int, default=0)


def machine_line() -> str:
    """The versions, the processor and the load a benchmark ran with (its first printed line)."""
    return (
        f"ldpcode {ldp.__version__}, numpy {np.__version__}, numba {__import__('numba').__version__}, "
        f"Python {platform.python_version()}, {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} logical CPUs, load average {os.getloadavg()[0]:.2f}"
    )


def fast_rate(pol, inst, levels, horizon: int, runs: int, seed: int, workers: int, repeat: int) -> float:
    cps = np.array([horizon], dtype=np.int64)  # one checkpoint: measure the engine, not the bookkeeping
    secs = best_time(
        lambda: ldp.simulate(
            pol, inst, horizon, runs, seed, checkpoints=cps, workers=workers, progress=False, privacy_levels=levels
        ),
        repeat,
    )
    return horizon * runs / secs


def plain_rate(pol, inst, levels, horizon: int, seed: int, repeat: int) -> float:
    cps = np.array([horizon], dtype=np.int64)
    return horizon / best_time(lambda: reference(pol, inst, levels, horizon, seed, cps), repeat)


def same_pulls(pol, inst, levels, horizon: int, seed: int) -> bool:
    """Run 0 of simulate(seed) and the plain version on the same SeedSequence child pull the same arms."""
    cps = ldp.log_checkpoints(horizon, 25)
    fast = ldp.simulate(
        pol, inst, horizon, 1, seed, checkpoints=cps, workers=1, progress=False, privacy_levels=levels
    ).counts[0]
    return bool(np.array_equal(fast, reference(pol, inst, levels, horizon, seed, cps)))


def main(argv=None) -> int:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--horizon", type=_int, default=2 * 10**6, help="pulls per run, compiled engine (default 2*10**6)")
    ap.add_argument("--runs", type=_int, default=2, help="runs, compiled engine (default 2)")
    ap.add_argument("--plain-horizon", type=_int, default=2 * 10**4, help="pulls, plain version (default 2*10**4)")
    ap.add_argument("--epsilon", type=_epsilon, default=1.0, help="privacy level of the private policies (default 1)")
    ap.add_argument("--repeat", type=_int, default=2, help="timings per measurement; the best is kept (default 2)")
    ap.add_argument("--seed", type=_int, default=0)
    args = ap.parse_args(argv)
    made = [make(name, instance, args.epsilon) for name, instance in POLICIES]
    runs2 = max(2, args.runs)
    plain = [  # the plain runs: repeat timings and the same-pulls check, at the reference's own estimate
        reference_cost("index" if lv is None else "heterogeneous", pol, inst.n_arms, args.plain_horizon, 25)
        for pol, inst, lv in made
    ]
    check_cost(  # before any work: the fast runs, the same-pulls runs, the two-worker runs and the plain runs
        ap,
        [(pol, inst, args.horizon, args.runs * args.repeat) for pol, inst, _ in made]
        + [(pol, inst, args.plain_horizon, 1) for pol, inst, _ in made]
        + [(pol, inst, args.horizon, runs2 * args.repeat) for pol, inst, _ in made if pol.name == "LDP-UCB-B"],
        (sum(c[0] for c in plain) * (args.repeat + 1), max(c[1] for c in plain)),
    )

    print(machine_line())
    print(
        f"fast: simulate(workers=1), T = {args.horizon:,} x {args.runs} runs; plain: run_reference, "
        f"T = {args.plain_horizon:,}; epsilon = {args.epsilon:g}; best of {args.repeat}\n"
    )

    # Warm-up: load (or compile) every numba kernel before anything is timed.
    for name, instance in POLICIES:
        pol, inst, levels = make(name, instance, args.epsilon)
        ldp.simulate(pol, inst, 1000, 1, args.seed, workers=1, progress=False, privacy_levels=levels)

    head = ["policy", "instance", "fast pulls/s", "plain pulls/s", "ratio", "same pulls"]
    rows, fast_rates = [], {}
    for name, instance in POLICIES:
        pol, inst, levels = make(name, instance, args.epsilon)
        fast = fast_rate(pol, inst, levels, args.horizon, args.runs, args.seed, 1, args.repeat)
        plain = plain_rate(pol, inst, levels, args.plain_horizon, args.seed, args.repeat)
        agree = same_pulls(pol, inst, levels, args.plain_horizon, args.seed)
        fast_rates[name] = fast
        rows.append([name, instance, f"{fast:.3g}", f"{plain:.3g}", f"{fast / plain:.0f}x", "yes" if agree else "NO"])
        print(f"  measured {name}", file=sys.stderr)
    print_table(head, rows, left=2)

    pol, inst, levels = make("LDP-UCB-B", "ren2020-bernoulli", args.epsilon)
    two = fast_rate(pol, inst, levels, args.horizon, runs2, args.seed, 2, args.repeat)
    one = fast_rates["LDP-UCB-B"]
    print(
        f"\nLDP-UCB-B on 2 workers (T = {args.horizon:,} x {runs2} runs): {two:.3g} pulls/s "
        f"({two / one:.2f}x one worker)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
