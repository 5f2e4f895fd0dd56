"""The exact event-driven KL-UCB engine (ldpcode.global_policies.klucb_event) against the per-pull KL-UCB.

    python benchmarks/bench_event_klucb.py                            # T = 10**5, 10**6, 10**7, best of 2
    python benchmarks/bench_event_klucb.py --horizons 10**6 10**8 --repeat 3 --seed 1

For KL-UCB on ``ren2020-bernoulli`` it times, at each horizon T,

* ``event``: :func:`ldpcode.global_policies.klucb_event.run_one_klucb_event`, one run (the best of ``repeat``
  runs of the same seed);
* ``per-pull``: ``KLUCB.run_one`` (the compiled per-pull kernel and its draws), one run with a single checkpoint
  at T, the best of ``repeat`` (at T >= 10**7 it is timed once: about 1.3 s at 10**7, 13 s at 10**8);

and prints pulls per second (T / seconds; for the event engine the per-pull equivalent), the speed-up, the event
engine's kernel steps (blocks plus ordinary pulls), its blocks, those certified from the kept tangents (no
argmax), and the final regret of both runs (one draw each, not a comparison: they use different random
streams). Numba kernels are loaded or compiled in a warm-up first. This is a script, not a test; timings depend
on the machine and on its load.
"""

from __future__ import annotations

import os
import sys

import numpy as np

import ldpcode as ldp
from ldpcode.global_policies.klucb_event import _run

sys.path.insert(0, os.path.dirname(__file__))
from bench_policies import Parser, check_cost, event_arguments, machine_line, print_table, timed  # noqa: E402

INSTANCE = "ren2020-bernoulli"


def main(argv=None) -> int:
    ap = Parser(description=__doc__.splitlines()[0])
    event_arguments(ap, [10**5, 10**6, 10**7])
    args = ap.parse_args(argv)
    inst = ldp.make_instance(INSTANCE)
    pol = ldp.make_policy("KL-UCB")
    check_cost(ap, [(pol, inst, T, args.repeat + (1 if T >= 10**7 else args.repeat)) for T in args.horizons])

    print(machine_line())
    print(f"KL-UCB on {INSTANCE}, seed {args.seed}, best of {args.repeat} (per-pull at T >= 1e7: once)\n")
    ss = np.random.SeedSequence(args.seed).spawn(1)[0]
    cp = np.array([2000], dtype=np.int64)
    pol.run_one(inst, 2000, ss, cp)  # warm-up: load or compile every kernel
    _run(pol, inst, 2000, ss, cp)

    head = ["T", "event s", "per-pull s", "event pulls/s", "per-pull pulls/s", "speed-up", "steps", "blocks"]
    head += ["kept", "regret event", "regret per-pull"]
    rows = []
    for T in args.horizons:
        cp = np.array([T], dtype=np.int64)
        te, (ce, stats) = timed(lambda: _run(pol, inst, T, ss, cp), args.repeat)
        tp, (cpp, _) = timed(lambda: pol.run_one(inst, T, ss, cp), 1 if T >= 10**7 else args.repeat)
        rows.append(
            [f"{T:,}", f"{te:.3f}", f"{tp:.3f}", f"{T / te:.3g}", f"{T / tp:.3g}", f"{tp / te:.0f}x"]
            + [f"{stats[0]:,}", f"{stats[1]:,}", f"{stats[5]:,}", f"{ce[-1] @ inst.gaps:.0f}"]
            + [f"{cpp[-1] @ inst.gaps:.0f}"]
        )
        print("  measured", T, flush=True)
    print()
    print_table(head, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
