"""The exact event-driven engine (ldpcode.policies.event) against the per-pull engine, one run each.

    python benchmarks/bench_event.py                                  # T = 10**6, 10**7, 10**8, best of 2
    python benchmarks/bench_event.py --horizons 10**7 10**8 --repeat 3 --seed 1

For UCB1 and LDP-UCB-B (``--epsilon``, default 1) on ``ren2020-bernoulli`` it times, at each horizon T,

* ``event``: :func:`ldpcode.policies.event.run_one_event`, one run (the best of ``repeat`` runs of the same seed);
* ``per-pull``: ``policy.run_one`` (the compiled per-pull kernel and its draws), one run with a single
  checkpoint at T, the best of ``repeat`` (at T >= 10**8 it is timed once: it takes seconds);

and prints pulls per second (T / seconds; for the event engine the per-pull equivalent), the speed-up, the
event engine's kernel steps (blocks plus ordinary pulls), its blocks, and the final regret of both runs (one
draw each, not a comparison: they use different random streams). Numba kernels are loaded or compiled in a
warm-up first. This is a script, not a test; timings depend on the machine and on its load.
"""

from __future__ import annotations

import os
import sys

import numpy as np

import ldpcode as ldp
from ldpcode.policies.event import _run

sys.path.insert(0, os.path.dirname(__file__))
from bench_policies import Parser, _epsilon, check_cost, event_arguments, machine_line, print_table, timed  # noqa: E402

POLICIES = ["UCB1", "LDP-UCB-B"]
INSTANCE = "ren2020-bernoulli"


def main(argv=None) -> int:
    ap = Parser(description=__doc__.splitlines()[0])
    event_arguments(ap, [10**6, 10**7, 10**8])
    ap.add_argument("--epsilon", type=_epsilon, default=1.0, help="privacy level of LDP-UCB-B (default 1)")
    args = ap.parse_args(argv)
    inst = ldp.make_instance(INSTANCE)
    pols = {name: ldp.make_policy(name, None if name == "UCB1" else args.epsilon) for name in POLICIES}
    check_cost(  # before any work: each T's event runs and per-pull runs, at the per-pull estimate
        ap,
        [
            (pol, inst, T, args.repeat + (1 if T >= 10**8 else args.repeat))
            for pol in pols.values()
            for T in args.horizons
        ],
    )

    print(machine_line())
    print(
        f"{INSTANCE}, epsilon = {args.epsilon:g}, seed {args.seed}, best of {args.repeat} "
        f"(per-pull at T >= 1e8: once)\n"
    )
    ss = np.random.SeedSequence(args.seed).spawn(1)[0]
    for pol in pols.values():  # warm-up: load or compile every kernel
        cp = np.array([2000], dtype=np.int64)
        pol.run_one(inst, 2000, ss, cp)
        _run(pol, inst, 2000, ss, cp)

    head = ["policy", "T", "event s", "per-pull s", "event pulls/s", "per-pull pulls/s", "speed-up", "steps", "blocks"]
    head += ["regret event", "regret per-pull"]
    rows = []
    for name, pol in pols.items():
        for T in args.horizons:
            cp = np.array([T], dtype=np.int64)
            te, (ce, stats) = timed(lambda: _run(pol, inst, T, ss, cp), args.repeat)
            tp, (cpp, _) = timed(lambda: pol.run_one(inst, T, ss, cp), 1 if T >= 10**8 else args.repeat)
            rows.append(
                [name, f"{T:,}", f"{te:.3f}", f"{tp:.3f}", f"{T / te:.3g}", f"{T / tp:.3g}", f"{tp / te:.1f}x"]
                + [f"{stats[0]:,}", f"{stats[1]:,}", f"{ce[-1] @ inst.gaps:.0f}", f"{cpp[-1] @ inst.gaps:.0f}"]
            )
            print("  measured", name, T, flush=True)
    print()
    print_table(head, rows, left=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
