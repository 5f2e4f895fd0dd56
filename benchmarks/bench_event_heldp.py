"""The exact event-driven engine of HeLDP-UCB-B (ldpcode.policies.event_heldp) against the per-pull engine.

    python benchmarks/bench_event_heldp.py                                  # T = 10**6, 10**7, 10**8, best of 2
    python benchmarks/bench_event_heldp.py --horizons 10**7 --epsilon-min 0.2 --repeat 3 --seed 1

For HeLDP-UCB-B (``--epsilon-min``, default 1) on ``ren2020-bernoulli`` with users' levels from
``ren-heldp-discrete`` it times, at each horizon T,

* ``event``: :func:`ldpcode.policies.event_heldp.run_one_heldp_event`, one run (the best of ``repeat`` runs of
  the same seed);
* ``per-pull``: ``policy.run_one`` (the compiled per-pull kernel and its three streams), one run with a single
  checkpoint at T, the best of ``repeat`` (at T >= 10**8 it is timed once: it takes seconds);

and prints pulls per second (T / seconds; for the event engine the per-pull equivalent), the speed-up, the
event engine's kernel steps (blocks plus ordinary pulls), its blocks and their mean length, and the final regret
of both runs (one draw each, not a comparison: they use different random streams). The numba kernels are loaded
or compiled in a warm-up first. Times are CPU times of the process (``time.process_time``), which another
process's load disturbs less than wall time. This is a script, not a test.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

import ldpcode as ldp
from ldpcode.policies.event_heldp import _run

sys.path.insert(0, os.path.dirname(__file__))
from bench_policies import Parser, _epsilon, check_cost, event_arguments, machine_line, print_table, timed  # noqa: E402

INSTANCE = "ren2020-bernoulli"
LEVELS = "ren-heldp-discrete"


def main(argv=None) -> int:
    ap = Parser(description=__doc__.splitlines()[0])
    event_arguments(ap, [10**6, 10**7, 10**8])
    ap.add_argument("--epsilon-min", type=_epsilon, default=1.0, help="epsilon_min of HeLDP-UCB-B (default 1)")
    args = ap.parse_args(argv)
    inst, levels = ldp.make_instance(INSTANCE), ldp.make_privacy_levels(LEVELS)
    pol = ldp.make_policy("HeLDP-UCB-B", epsilon_min=args.epsilon_min)
    try:  # e.g. an epsilon_min no user reaches: every response discarded
        pol.check_environment(inst, levels)
    except ValueError as err:
        ap.error(str(err))
    check_cost(ap, [(pol, inst, T, args.repeat + (1 if T >= 10**8 else args.repeat)) for T in args.horizons])

    print(machine_line())
    print(
        f"HeLDP-UCB-B, epsilon_min = {args.epsilon_min:g}, levels {LEVELS}, {INSTANCE}, seed {args.seed}, "
        f"best of {args.repeat} (per-pull at T >= 1e8: once), CPU seconds\n"
    )
    ss = np.random.SeedSequence(args.seed).spawn(1)[0]
    cp = np.array([2000], dtype=np.int64)  # warm-up: load or compile every kernel
    pol.run_one(inst, 2000, ss, cp, privacy_levels=levels)
    _run(pol, inst, 2000, ss, cp, levels)

    head = ["T", "event s", "per-pull s", "event pulls/s", "per-pull pulls/s", "speed-up", "steps", "blocks"]
    head += ["mean block", "regret event", "regret per-pull"]
    rows = []
    for T in args.horizons:
        cp = np.array([T], dtype=np.int64)
        te, (ce, stats) = timed(lambda: _run(pol, inst, T, ss, cp, levels), args.repeat, time.process_time)
        tp, (cpp, _) = timed(
            lambda: pol.run_one(inst, T, ss, cp, privacy_levels=levels),
            1 if T >= 10**8 else args.repeat,
            time.process_time,
        )
        rows.append(
            [f"{T:,}", f"{te:.3f}", f"{tp:.3f}", f"{T / te:.3g}", f"{T / tp:.3g}", f"{tp / te:.1f}x"]
            + [f"{stats[0]:,}", f"{stats[1]:,}", f"{stats[2] / max(stats[1], 1):.1f}"]
            + [f"{ce[-1] @ inst.gaps:.0f}", f"{cpp[-1] @ inst.gaps:.0f}"]
        )
        print("  measured", T, flush=True)
    print()
    print_table(head, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
